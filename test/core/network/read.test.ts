import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { describeNetworkProblem, vettingDrift, vettingMatrix, type NetworkMember } from '../../../src/core/network/model';
import { readNetwork } from '../../../src/core/network/read';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { setVetting, startCheckedNetwork } from '../../support/demoNetwork';

function member(label: string, url: string, token?: string): NetworkMember {
  return { label, client: new LedgerClient({ baseUrl: url, token: token === undefined ? undefined : async () => token }) };
}

describe('network: reading it from its participants', () => {
  let net: DemoNetwork;
  afterEach(() => net.close());

  it('the parties every participant hosts, with their hosts and permissions, and the drift of a party on two hosts', async () => {
    net = await startCheckedNetwork({ seed: false });
    setVetting(net, 'app-user', 'demo-iou', true, '2.0.0');
    const members = net.participants.map((p) => member(p.name, p.url));
    const snapshot = await readNetwork(members, { parties: 'hosted' });
    assert.deepEqual(snapshot.problems, []);
    const hosting = (party: string) => snapshot.hosting.get(party)!.hosts.map((h) => `${h.participantId.split('::')[0]}:${h.permission}`);
    assert.deepEqual([...snapshot.hosting.keys()].map((p) => p.split('::')[0]).sort(), ['Alice', 'Bank', 'Bob', 'Charlie']);
    assert.deepEqual(hosting(net.parties.alice), ['app-provider:confirmation', 'app-user:submission']);
    assert.deepEqual(hosting(net.parties.charlie), ['sv:submission']);
    assert.deepEqual(
      vettingDrift(snapshot).map((d) => [d.party.split('::')[0], d.packageName, d.common]),
      [['Alice', 'demo-iou', ['1.0.0']]],
      'Bob is on app-user alone: 2.0.0 there is no drift for him',
    );
    const iou = vettingMatrix(snapshot).rows.find((r) => r.packageName === 'demo-iou')!;
    assert.equal(iou.drift, true);
    assert.deepEqual(iou.versions.map((v) => [v.packageVersion, v.vettedOn.length]), [['2.0.0', 1], ['1.0.0', 3]]);
  });

  it('a token that may not list the parties or read a party’s hosting: typed problems, the rest still read', async () => {
    net = await startCheckedNetwork({ seed: false, auth: { 'app-provider': { secret: 'p-secret-0123456789abcdefghijklmno' }, 'app-user': { secret: 'u-secret-0123456789abcdefghijklmno' }, sv: { secret: 's-secret-0123456789abcdefghijklmno' } } });
    const bob = member('app-user', net.participant('app-user').url, await net.participant('app-user').mintToken('bob'));
    const hosted = await readNetwork([bob], { parties: 'hosted' });
    assert.deepEqual(hosted.problems.map((p) => [p.kind, 'reading' in p && p.reading]), [['forbidden', 'hosting']]);
    assert.match(describeNetworkProblem(hosted.problems[0]), /^app-user would not tell where the party is hosted: .*\(the token's user may not read it\)$/);
    const alice = await readNetwork([bob], { parties: [net.parties.alice, net.parties.bob] });
    assert.equal(alice.hosting.get(net.parties.alice)!.complete, false, 'Bob’s user may not read as Alice');
    assert.equal(alice.hosting.get(net.parties.bob)!.complete, true);
    assert.deepEqual(alice.hosting.get(net.parties.bob)!.hosts.map((h) => h.participantId), [net.participant('app-user').participantId]);
    assert.ok(alice.problems.every((p) => p.kind === 'forbidden' && p.party === net.parties.alice));
    assert.equal(alice.vetting.size, 3, 'the vetting list needs no party right');
  });
});
