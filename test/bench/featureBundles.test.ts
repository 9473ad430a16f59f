// The built bundles work together (needs `npm run build`): the kit bundle (dist/features.js) builds the
// host and activates every feature from its own bundle (dist/feature.<name>.js), each taking the
// modules it shares from their one owner, against the fake VS Code API. The structure (one copy of each
// module) is bundle.test.ts's; this is that it runs.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/spec';
import { manifest } from '../vscode/featureHost';
import { EventEmitter, fake, MemoryMemento, Uri } from '../vscode/fake/vscode';

const FEATURES_JS = join(REPO_ROOT, 'dist', 'features.js');

describe('the feature bundles, loaded', function () {
  this.timeout(60_000);
  before(function () {
    if (!existsSync(FEATURES_JS)) assert.fail('dist/features.js is missing: run `npm run build` first');
  });

  it('the kit bundle activates every feature from its bundle, and they register every contributed command and view', () => {
    fake.reset();
    const subscriptions: { dispose(): unknown }[] = [];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const kit = require(FEATURES_JS) as typeof import('../../src/features') & { __shared: Record<string, unknown> };
    try {
      const features = kit.loadFeatures({
        subscriptions,
        extensionPath: REPO_ROOT,
        extension: { packageJSON: manifest },
        globalState: new MemoryMemento(),
        workspaceState: new MemoryMemento(),
        globalStorageUri: Uri.file(join(REPO_ROOT, '.vscode-test', 'unit-global-storage')),
        secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: new EventEmitter<{ key: string }>().event },
      } as never);
      for (const name of kit.FEATURE_NAMES) features.activate(name);
      const contributes = manifest.contributes as { commands: { command: string }[]; views: Record<string, { id: string }[]> };
      assert.deepEqual(contributes.commands.map((c) => c.command).filter((id) => !fake.state.commands.has(id)), []);
      assert.deepEqual(Object.values(contributes.views).flat().map((v) => v.id).filter((id) => !fake.state.treeViews.has(id)), []);
      // A class the host made is the one the features' stubs hand out: one module, one class.
      const errors = kit.__shared['src/core/errors.ts'] as { CantonApiError: unknown };
      assert.equal(typeof errors.CantonApiError, 'function');
      assert.ok(features.api.views.updates, 'the Updates view, from its bundle');
    } finally {
      subscriptions.splice(0).reverse().forEach((s) => s.dispose());
      fake.reset();
      for (const file of Object.keys(require.cache)) if (file.startsWith(join(REPO_ROOT, 'dist'))) delete require.cache[file];
    }
  });
});
