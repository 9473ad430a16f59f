// The built bundles work together (needs `npm run build`): the kit bundle (dist/features.js) builds the
// host and activates every feature from its own bundle (dist/feature.<name>.js), each taking the
// modules it shares from their one owner, against the fake VS Code API. The structure (one copy of each
// module) is bundle.test.ts's; this is that it runs.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { deadUrl } from '../support/deadPort';
import { REPO_ROOT } from '../support/spec';
import { fakeExtensionContext, manifest } from '../vscode/featureHost';
import { fake } from '../vscode/fake/vscode';

const FEATURES_JS = join(REPO_ROOT, 'dist', 'features.js');

describe('the feature bundles, loaded', function () {
  this.timeout(60_000);
  before(function () {
    if (!existsSync(FEATURES_JS)) assert.fail('dist/features.js is missing: run `npm run build` first');
  });

  const distLoaded = () => Object.keys(require.cache).filter((f) => f.startsWith(join(REPO_ROOT, 'dist'))).map((f) => basename(f)).sort();
  const unload = () => {
    for (const file of Object.keys(require.cache)) if (file.startsWith(join(REPO_ROOT, 'dist'))) delete require.cache[file];
  };

  it('the first use of the Connections view with Updates runs no part of the core (the client, the compatibility check, the error catalogue, the version table…) and neither jose, ws nor node-fetch', async () => {
    fake.reset();
    unload();
    const subscriptions: { dispose(): unknown }[] = [];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const kit = require(FEATURES_JS) as typeof import('../../src/features');
    try {
      // What the entry does for the two views: the host with Connections, then the Updates feature's views (and the packages').
      const features = kit.loadFeatures(fakeExtensionContext(subscriptions));
      // A connection listed: listed without its client.
      await features.api.connections.profiles.save({ id: 'p1', name: 'P1', url: await deadUrl(), auth: 'none', source: 'user' } as never);
      const connection = features.api.connections.connectionFor(features.api.connections.profiles.all()[0]);
      // The two views answer their first request: the connection's row, the Updates view's "not connected".
      const rows = features.api.connectionsTree.getChildren();
      assert.equal(rows.length, 1);
      for (const row of rows) features.api.connectionsTree.getTreeItem(row);
      assert.ok((await features.api.views.updates.getChildren()).length > 0);
      const loaded = distLoaded();
      // Connections, activated with the host whatever is used first, is in the kit bundle: no file of its own.
      assert.ok(loaded.includes('features.js') && loaded.includes('feature.updates.js') && !loaded.includes('feature.connections.js'), loaded.join(', '));
      assert.deepEqual(loaded.filter((f) => /^(part|lib)\./.test(f)), [], `loaded: ${loaded.join(', ')}`);
      // What these features share with others, in one file (each file costs a read, a resolve and a compile).
      assert.deepEqual(loaded.filter((f) => f.startsWith('shared.')), ['shared.first-use.js'], `loaded: ${loaded.join(', ')}`);
      // The first request of a connection makes its client: the client's part loads then, one copy of the errors with the kit.
      assert.equal(typeof connection.client.capabilities, 'function');
      assert.ok(distLoaded().includes('part.client.js'));
      // A participant's error reads its category and hint from the error catalogue, loaded then.
      const errors = (kit as unknown as { __shared: Record<string, typeof import('../../src/core/errors')> }).__shared['src/core/errors.ts'];
      // Category 11: InvalidGivenCurrentSystemStateResourceMissing, as Canton sends it for CONTRACT_NOT_FOUND.
      const refused = new errors.CantonApiError(404, { code: 'CONTRACT_NOT_FOUND', cause: 'gone', errorCategory: 11, context: {}, resources: [] } as never);
      assert.equal(refused.retryable, false);
      assert.match(refused.hint, /\S/);
      assert.ok(distLoaded().includes('part.catalog.js'), distLoaded().join(', '));
    } finally {
      subscriptions.splice(0).reverse().forEach((s) => s.dispose());
      fake.reset();
      unload();
    }
  });

  it('the kit bundle activates every feature from its bundle, and they register every contributed command and view', () => {
    fake.reset();
    const subscriptions: { dispose(): unknown }[] = [];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const kit = require(FEATURES_JS) as typeof import('../../src/features') & { __shared: Record<string, unknown> };
    try {
      const features = kit.loadFeatures(fakeExtensionContext(subscriptions));
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
      unload();
    }
  });
});

describe('a library loaded on first need (dist/lib.<name>.js)', function () {
  this.timeout(60_000);

  it('is required when the code first reads an export, and reads as the library itself (a default export, a named one, a CommonJS module)', async () => {
    const buildScript = '../../scripts/build.mjs';
    const { common, lazyLibraries } = (await import(buildScript)) as { common: import('esbuild').BuildOptions; lazyLibraries: import('esbuild').Plugin };
    const esbuild = await import('esbuild');
    const source = [
      `import WebSocket from 'ws';`,
      `import fetch, { Response } from 'node-fetch';`,
      `import { decodeJwt } from 'jose';`,
      `export const read = () => ({ WebSocket, fetch, Response, decodeJwt });`,
    ].join('\n');
    const out = await esbuild.build({ ...common, sourcemap: false, write: false, stdin: { contents: source, resolveDir: REPO_ROOT, loader: 'ts' }, plugins: [lazyLibraries] });
    const dist = join(REPO_ROOT, 'dist');
    const libraries = ['lib.ws.js', 'lib.node-fetch.js', 'lib.jose.js'].map((f) => join(dist, f));
    for (const file of libraries) delete require.cache[file];
    const m = { exports: {} as { read(): { WebSocket: { OPEN: number }; fetch: unknown; Response: new (body: string) => { text(): Promise<string> }; decodeJwt(t: string): Record<string, unknown> } } };
    new Function('module', 'exports', 'require', '__dirname', out.outputFiles[0].text)(m, m.exports, require, dist);
    assert.deepEqual(libraries.filter((f) => require.cache[f]), [], 'nothing loaded before a read');
    const { WebSocket, fetch, Response, decodeJwt } = m.exports.read();
    assert.equal(WebSocket.OPEN, 1);
    assert.equal(typeof fetch, 'function');
    assert.equal(await new Response('body').text(), 'body');
    // { "sub": "alice" }, unsigned
    assert.equal(decodeJwt('eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.').sub, 'alice');
    assert.deepEqual(libraries.filter((f) => !require.cache[f]), [], 'each loaded on its first read');
  });
});
