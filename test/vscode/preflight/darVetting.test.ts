// The line an upload's message ends with on a network: the other hosts of the uploading participant's
// parties that must vet the DAR too (none said with one participant, or when every host has it).
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { silentLogger } from '../../../src/core/log';
import type { DarUploadResult } from '../../../src/core/submit/darUpload';
import { ASSET } from '../../../src/participant/catalog';
import { darVettingElsewhere } from '../../../src/vscode/preflight/darVetting';
import { setVetting } from '../../support/demoNetwork';
import { ScriptedPrompts } from '../scriptedPrompts';
import { networkForSuite } from './networkWindow';

describe('darVettingElsewhere (the DAR upload message on a network)', function () {
  this.timeout(60_000);
  const suite = networkForSuite('dar-vetting-');
  const result = (): DarUploadResult => ({
    mode: 'upload',
    validatedFirst: true,
    vetting: [],
    packages: [
      { id: ASSET.pkg.id, name: 'demo-asset', version: '1.0.0', main: true, isNew: true, standardLibrary: false },
      { id: 'f'.repeat(64), name: 'daml-prim', version: '0.0.0', main: false, isNew: false, standardLibrary: true },
    ],
  });
  const members = (...names: string[]) => names.map((name) => ({ label: name, client: new LedgerClient({ baseUrl: suite.net.participant(name).url }) }));

  it('names the host and the party; says nothing with one participant or once every host has vetted it', async () => {
    setVetting(suite.net, 'app-provider', 'demo-asset', false);
    const prompts = new ScriptedPrompts();
    const line = await darVettingElsewhere(result(), members('app-user', 'app-provider', 'sv'), () => prompts, silentLogger);
    assert.equal(line, 'Vet demo-asset 1.0.0 on app-provider too: it hosts Alice, whose commands using it fail until then.');
    assert.deepEqual(prompts.progressTitles, ["Checking the other hosts of app-user's parties"]);
    assert.equal(await darVettingElsewhere(result(), members('app-user'), () => prompts, silentLogger), undefined);
    setVetting(suite.net, 'app-provider', 'demo-asset', true);
    assert.equal(await darVettingElsewhere(result(), members('app-user', 'app-provider', 'sv'), () => prompts, silentLogger), undefined);
  });
});
