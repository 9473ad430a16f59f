// The networks the demo makes, grouped as the Network view and the pre-flight group them: a demo
// network is one, a single demo participant (another synchronizer, even of the same seed, whose
// parties share ids with the network's first participant's) is one of its own, and a second demo
// network is another. Grouped by what each participant answers to connected-synchronizers.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { networksOf } from '../../../src/core/network/model';
import { readNetwork } from '../../../src/core/network/read';
import type { DemoParticipant } from '../../../src/participant/index';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { startCheckedNetwork } from '../../support/demoNetwork';
import { startCheckedParticipant } from '../../support/specCheck';

interface Member {
  label: string;
  client: LedgerClient;
  synchronizers: string[];
}

async function member(label: string, url: string): Promise<Member> {
  const client = new LedgerClient({ baseUrl: url });
  return { label, client, synchronizers: (await client.connectedSynchronizers()).map((s) => s.synchronizerId) };
}

describe('network: the networks the demo participants form', function () {
  this.timeout(30_000);
  let net: DemoNetwork;
  let other: DemoNetwork;
  let single: DemoParticipant;
  before(async () => {
    // The editor's seed for both, as Start Demo and Start Demo Network use it.
    [net, other, single] = await Promise.all([startCheckedNetwork({ seed: 1 }), startCheckedNetwork({ seed: 2, participants: ['other-provider', 'other-user'] }), startCheckedParticipant({ port: 0, seed: 1 })]);
  });
  after(() => Promise.all([net.close(), other.close(), single.close()]));

  it('the demo network’s synchronizer is LocalNet’s, never the single demo participant’s of the same seed', async () => {
    assert.match(net.synchronizer.id, /^global-domain::1220[0-9a-f]{64}$/);
    const [alone] = (await member('Demo', single.url)).synchronizers;
    assert.match(alone, /^demo-sync::/);
    assert.notEqual(alone, net.synchronizer.id);
    assert.equal(single.parties.bank, net.parties.bank, 'the same seed names Bank alike on both: only the synchronizer tells them apart');
  });

  it('groups each network’s participants together and the single participant alone, in the order given', async () => {
    const members = await Promise.all([
      member('Demo', single.url),
      ...net.participants.map((p) => member(p.name, p.url)),
      ...other.participants.map((p) => member(p.name, p.url)),
    ]);
    // Interleaved, as connections come in any order.
    const order = [members[1], members[4], members[0], members[2], members[5], members[3]];
    const groups = networksOf(order, (m) => m.synchronizers);
    assert.deepEqual(
      groups.map((g) => [g.synchronizers, g.members.map((m) => m.label)]),
      [
        [[net.synchronizer.id], ['app-provider', 'app-user', 'sv']],
        [[other.synchronizer.id], ['other-provider', 'other-user']],
        [members[0].synchronizers, ['Demo']],
      ],
    );

    // Each network read alone: Bank is hosted on app-provider only, never also on the single demo participant.
    const [demoNetwork, , demo] = await Promise.all(groups.map((g) => readNetwork(g.members, { parties: 'hosted' })));
    assert.deepEqual(demoNetwork.problems, []);
    assert.deepEqual(demoNetwork.hosts.map((h) => h.label), ['app-provider', 'app-user', 'sv']);
    assert.deepEqual(demoNetwork.hosting.get(net.parties.bank)!.hosts.map((h) => h.participantId.split('::')[0]), ['app-provider']);
    assert.deepEqual(demo.hosting.get(single.parties.bank)!.hosts.map((h) => h.participantId), [single.participantId]);
  });
});
