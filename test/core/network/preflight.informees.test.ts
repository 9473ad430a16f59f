import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import type { NetworkMember } from '../../../src/core/network/model';
import { preflightCommands, preflightPasses } from '../../../src/core/network/preflight';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { setVetting, startCheckedNetwork } from '../../support/demoNetwork';

describe('network: the pre-flight with a preview\'s informees', () => {
  let net: DemoNetwork;
  let members: NetworkMember[];
  beforeEach(async () => {
    net = await startCheckedNetwork({ seed: false });
    setVetting(net, 'sv', 'demo-asset', false);
    members = ['app-user', 'app-provider', 'sv'].map((name) => ({ label: name, client: new LedgerClient({ baseUrl: net.participant(name).url }) }));
  });
  afterEach(() => net.close());

  it('an informee the file does not name is asked about too: its host that lacks the package is named', async () => {
    const { alice, charlie } = net.parties;
    const text = JSON.stringify({ commandId: 'c', actAs: [alice], commands: [{ CreateCommand: { templateId: '#demo-asset:Asset:Asset', createArguments: { owner: alice, id: 'x', description: 'd' } } }] });
    assert.equal(preflightPasses(await preflightCommands(text, members)), true, 'Alice alone: every host of hers has it');
    const withInformee = await preflightCommands(text, members, { informees: [alice, charlie] });
    assert.equal(preflightPasses(withInformee), false);
    const asset = withInformee.packages[0];
    assert.deepEqual(asset.parties, [alice, charlie].sort());
    assert.match(withInformee.problems.find((p) => p.severity === 'error')!.message, /Charlie \(Charlie::1220[0-9a-f]+\) is hosted on sv/);
  });
});
