// The entry's stand-ins load the feature that owns what the user touched (src/vscode/owners.ts): here
// each feature is activated alone against the fake VS Code API, and what it registers must be what the
// table gives it, so that a command or view cannot be owned by the wrong feature or by none.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fake, MemoryMemento, Uri } from './fake/vscode';
import { fakeExtensionContext, manifest } from './featureHost';
import type { FeatureName } from '../../src/features';
import { HOST, ownerOf } from '../../src/vscode/owners';

/** What the host (with Connections) registers, and what each feature adds when activated alone after it. */
export function registrationsByFeature(): { commands: Record<string, string>; views: Record<string, string> } {
  const commands: Record<string, string> = {};
  const views: Record<string, string> = {};
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { loadFeatures, FEATURE_NAMES } = require('../../src/features') as typeof import('../../src/features');
  for (const name of [HOST, ...FEATURE_NAMES.filter((n) => n !== 'connections')]) {
    fake.reset();
    const subscriptions: { dispose(): unknown }[] = [];
    const features = loadFeatures(fakeExtensionContext(subscriptions));
    const hostCommands = new Set(fake.state.commands.keys());
    const hostViews = new Set(fake.state.treeViews.keys());
    if (name !== HOST) {
      // A feature it depends on is the dependency's: activated first, its registrations left out.
      if (name === 'failures' || name === 'preflight') features.activate('files');
      const before = { commands: new Set(fake.state.commands.keys()), views: new Set(fake.state.treeViews.keys()) };
      features.activate(name as FeatureName);
      for (const id of fake.state.commands.keys()) if (!before.commands.has(id)) commands[id] = name;
      for (const id of fake.state.treeViews.keys()) if (!before.views.has(id)) views[id] = name;
    } else {
      for (const id of hostCommands) commands[id] = HOST;
      for (const id of hostViews) views[id] = HOST;
    }
    subscriptions.splice(0).reverse().forEach((s) => s.dispose());
  }
  fake.reset();
  return { commands, views };
}

describe('the owner of each command and view (the entry loads it on first use)', function () {
  this.timeout(60_000);
  it('src/vscode/owners.ts gives each command and view to the feature that registers it', () => {
    const found = registrationsByFeature();
    const sorted = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)));
    const owned = (r: Record<string, string>) => Object.fromEntries(Object.keys(r).map((id) => [id, ownerOf(id)]));
    assert.ok(Object.keys(found.commands).length > 90 && Object.keys(found.views).length > 10, 'read what the features register');
    assert.deepEqual(sorted(owned(found.commands)), sorted(found.commands), `the commands, as registered:\n${JSON.stringify(sorted(found.commands), null, 2)}`);
    assert.deepEqual(sorted(owned(found.views)), sorted(found.views), `the views, as registered:\n${JSON.stringify(sorted(found.views), null, 2)}`);
  });

  it('every command and view of package.json is registered by a feature (so that its owner above was checked)', () => {
    const found = registrationsByFeature();
    const contributes = manifest.contributes as { commands: { command: string }[]; views: Record<string, { id: string }[]> };
    assert.deepEqual(contributes.commands.map((c) => c.command).filter((id) => !(id in found.commands)), []);
    assert.deepEqual(Object.values(contributes.views).flat().map((v) => v.id).filter((id) => !(id in found.views)), []);
  });
});

describe('a feature that comes with another, or with an event', () => {
  afterEach(() => fake.reset());

  it('the pre-flight comes with the files feature (it guards Submit); the compatibility report’s feature with the first report (its button on a refused request)', () => {
    fake.reset();
    const subscriptions: { dispose(): unknown }[] = [];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { loadFeatures } = require('../../src/features') as typeof import('../../src/features');
    const features = loadFeatures(fakeExtensionContext(subscriptions));
    try {
      assert.ok(!features.isActive('preflight') && !features.isActive('compat'));
      features.activate('files');
      assert.ok(features.isActive('preflight'));
      // The manager's event, as a connection's check ends: without a report (not connected) nothing comes.
      const changed = (features.api.connections as unknown as { compatibilityChanged: { fire(c: unknown): void } }).compatibilityChanged;
      changed.fire({ compatibility: undefined });
      assert.ok(!features.isActive('compat'));
      changed.fire({ compatibility: { version: '3.4.12' } });
      assert.ok(features.isActive('compat'));
    } finally {
      subscriptions.splice(0).reverse().forEach((s) => s.dispose());
    }
  });

  it('the network feature comes with the host in a window where the demo network ran before it reloaded (it starts it again)', async () => {
    fake.reset();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { loadFeatures } = require('../../src/features') as typeof import('../../src/features');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { DEMO_NETWORK_RAN_KEY } = require('../../src/vscode/deferred') as typeof import('../../src/vscode/deferred');
    for (const ran of [false, true]) {
      const subscriptions: { dispose(): unknown }[] = [];
      const workspaceState = new MemoryMemento();
      // Ports nobody listens on: the restart fails and is reported, which is not what is checked here.
      if (ran) await workspaceState.update(DEMO_NETWORK_RAN_KEY, { ports: [] });
      const features = loadFeatures(fakeExtensionContext(subscriptions, { workspaceState, globalState: new MemoryMemento(), globalStorageUri: Uri.file(join(__dirname, '..', '..', '.vscode-test', 'unit-global-storage')) }));
      try {
        assert.equal(features.isActive('network'), ran);
      } finally {
        subscriptions.splice(0).reverse().forEach((s) => s.dispose());
        fake.reset();
      }
    }
  });
});
