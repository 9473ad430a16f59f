import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import type { NetworkMember } from '../../../src/core/network/model';
import { darVettingNeeds, describeDarVettingNeed } from '../../../src/core/network/darVetting';
import { ASSET } from '../../../src/participant/catalog';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { deadUrl } from '../../support/deadPort';
import { setVetting, startCheckedNetwork } from '../../support/demoNetwork';

describe('network: where a DAR uploaded to one participant must be vetted too', () => {
  let net: DemoNetwork;
  let members: Record<string, NetworkMember>;
  const asset = { id: ASSET.pkg.id, name: 'demo-asset', version: '1.0.0' };
  beforeEach(async () => {
    net = await startCheckedNetwork({ seed: false });
    members = Object.fromEntries(net.participants.map((p) => [p.name, { label: p.name, client: new LedgerClient({ baseUrl: p.url }) }]));
  });
  afterEach(() => net.close());

  it('names each other host of the parties the uploading participant hosts that lacks the package, with those parties', async () => {
    setVetting(net, 'app-provider', 'demo-asset', false);
    setVetting(net, 'sv', 'demo-asset', false);
    const { needs, problems } = await darVettingNeeds([asset], members['app-user'], Object.values(members));
    assert.deepEqual(problems, []);
    // Alice is on app-user and app-provider; Bob on app-user alone; sv hosts none of them.
    assert.deepEqual(needs.map((n) => [n.host.label, n.packages, n.parties]), [['app-provider', ['demo-asset 1.0.0'], ['Alice']]]);
    assert.equal(describeDarVettingNeed(needs[0]), 'Vet demo-asset 1.0.0 on app-provider too: it hosts Alice, whose commands using it fail until then.');
    setVetting(net, 'app-provider', 'demo-asset', true);
    assert.deepEqual((await darVettingNeeds([asset], members['app-user'], Object.values(members))).needs, []);
  });

  it('a host that does not answer is a problem, never a silent "nothing needed"', async () => {
    setVetting(net, 'app-provider', 'demo-asset', false);
    const dead = { label: 'gone', client: new LedgerClient({ baseUrl: await deadUrl(), timeoutMs: 2000 }) };
    const { problems } = await darVettingNeeds([asset], members['app-user'], [members['app-user'], dead]);
    assert.equal(problems.length > 0, true);
    assert.equal(problems[0].member, 'gone');
  });
});
