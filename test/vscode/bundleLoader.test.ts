import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BundleLoader, type CacheUse } from '../../src/vscode/bundleLoader';

const LOADER = join(__dirname, '..', '..', 'src', 'vscode', 'bundleLoader.ts');

/** Three bundles as the build writes them: the entry bundle requires a feature by a relative path, the feature a chunk by a computed one. */
function writeBundles(dir: string, value = 'one'): void {
  writeFileSync(join(dir, 'features.js'), `"use strict";\nconst feature = require("./feature.a.js");\nexports.load = () => feature.activate();\nexports.self = __filename;\n`);
  writeFileSync(
    join(dir, 'feature.a.js'),
    `"use strict";\nconst shared = require(require("node:path").join(__dirname, "shared.first-use.js"));\nexports.activate = () => shared.greet();\n`,
  );
  writeFileSync(join(dir, 'shared.first-use.js'), `"use strict";\nconst { createHash } = require("node:crypto");\nexports.greet = () => "${value}:" + typeof createHash;\n`);
}

/** Loads features.js through a loader in a fresh Node (a new window), saves its caches, and says how each bundle was compiled. */
function loadInNewProcess(dir: string, cacheDir: string): { value: string; cache: Record<string, CacheUse> } {
  const script = `
    const { BundleLoader } = require(${JSON.stringify(LOADER)});
    const loader = new BundleLoader(${JSON.stringify(dir)}, ${JSON.stringify(cacheDir)}, module, 60000);
    const value = loader.require(${JSON.stringify(join(dir, 'features.js'))}).load();
    loader.save().then(() => { loader.dispose(); console.log(JSON.stringify({ value, cache: loader.cacheUse() })); });`;
  const run = spawnSync(process.execPath, ['-r', 'tsx/cjs', '-e', script], { encoding: 'utf8', cwd: join(__dirname, '..', '..') });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').pop()!);
}

describe('loading our bundles with V8 code cache (src/vscode/bundleLoader.ts)', () => {
  let dir: string;
  let cacheDir: string;
  beforeEach(() => {
    const root = mkdtempSync(join(tmpdir(), 'bundle-loader-'));
    dir = join(root, 'dist');
    cacheDir = join(root, 'storage', 'code-cache');
    require('node:fs').mkdirSync(dir);
  });
  afterEach(() => {
    for (const file of Object.keys(require.cache)) if (file.startsWith(dir)) delete require.cache[file];
    rmSync(join(dir, '..'), { recursive: true, force: true });
  });

  it('loads a bundle and the bundles it requires from its folder once, shared with require; anything else is required as usual', () => {
    writeBundles(dir);
    const loader = new BundleLoader(dir, undefined, module);
    const features = loader.require(join(dir, 'features.js')) as { load(): string; self: string };
    assert.equal(features.load(), 'one:function');
    assert.equal(features.self, join(dir, 'features.js'));
    assert.equal(loader.require(join(dir, 'features.js')), features);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the same module as require finds it
    assert.equal(require(join(dir, 'features.js')), features);
    assert.deepEqual(loader.cacheUse(), { 'features.js': 'none', 'feature.a.js': 'none', 'shared.first-use.js': 'none' });
    loader.dispose();
  });

  it('requires a name (VS Code\'s API, a module of Node) once for all its bundles, however many of their modules require it', () => {
    // VS Code resolves the real path of the requiring file on every require of its API: counted here as
    // the loads that reach Node's loader from the bundles' folder.
    writeFileSync(join(dir, 'features.js'), `"use strict";\nconst a = require("vscode");\nconst b = require("./feature.a.js");\nexports.same = () => a === b.api && b.api === require("vscode");\n`);
    writeFileSync(join(dir, 'feature.a.js'), `"use strict";\nrequire("vscode");\nexports.api = require("vscode");\n`);
    const internals = require('node:module') as { _load: (request: string, parent: NodeModule | undefined, isMain: boolean) => unknown };
    const original = internals._load;
    let loads = 0;
    internals._load = function (request, parent, isMain) {
      if (request === 'vscode' && parent?.filename.startsWith(dir)) loads++;
      return original.call(this, request, parent, isMain);
    };
    try {
      const loader = new BundleLoader(dir, undefined, module);
      const features = loader.require(join(dir, 'features.js')) as { same(): boolean };
      assert.equal(features.same(), true);
      assert.equal(loads, 1);
      loader.dispose();
    } finally {
      internals._load = original;
    }
  });

  it('compiles each bundle with the cache an earlier window saved', () => {
    writeBundles(dir);
    const first = loadInNewProcess(dir, cacheDir);
    assert.deepEqual(first, { value: 'one:function', cache: { 'features.js': 'none', 'feature.a.js': 'none', 'shared.first-use.js': 'none' } });
    assert.equal(readdirSync(cacheDir).filter((f) => f.endsWith('.v8')).length, 3);
    const second = loadInNewProcess(dir, cacheDir);
    assert.deepEqual(second, { value: 'one:function', cache: { 'features.js': 'used', 'feature.a.js': 'used', 'shared.first-use.js': 'used' } });
  });

  it('does not run the cache of an earlier build of a bundle of the same length, replaces it, and removes the caches of bundles gone', () => {
    writeBundles(dir, 'one');
    loadInNewProcess(dir, cacheDir);
    const cacheOf = (bundle: string) => readFileSync(join(cacheDir, `${bundle}.v8`));
    const before = cacheOf('shared.first-use.js');
    writeFileSync(join(cacheDir, 'feature.gone.js.v8'), 'a bundle an earlier build had');
    writeFileSync(join(cacheDir, 'features.js.0123456789abcdef.v8'), 'a cache named by an earlier version of the extension');
    writeFileSync(join(cacheDir, 'notes.txt'), 'not ours to remove');
    writeBundles(dir, 'two');
    const rebuilt = loadInNewProcess(dir, cacheDir);
    assert.equal(rebuilt.value, 'two:function');
    assert.equal(rebuilt.cache['shared.first-use.js'], 'none');
    assert.equal(rebuilt.cache['features.js'], 'used');
    assert.notDeepEqual(cacheOf('shared.first-use.js'), before);
    assert.equal(loadInNewProcess(dir, cacheDir).cache['shared.first-use.js'], 'used');
    assert.deepEqual(readdirSync(cacheDir).sort(), ['feature.a.js.v8', 'features.js.v8', 'notes.txt', 'shared.first-use.js.v8']);
  });

  it('replaces a cache V8 refuses, and runs the bundle all the same', () => {
    writeBundles(dir);
    loadInNewProcess(dir, cacheDir);
    // The cache of this very source (its length and bytes first, as the loader writes them), V8's part unreadable.
    const feature = join(cacheDir, 'feature.a.js.v8');
    const source = readFileSync(join(dir, 'feature.a.js'));
    writeFileSync(feature, Buffer.concat([readFileSync(feature).subarray(0, 4 + source.length), Buffer.alloc(512, 7)]));
    const damaged = loadInNewProcess(dir, cacheDir);
    assert.equal(damaged.value, 'one:function');
    assert.equal(damaged.cache['feature.a.js'], 'rejected');
    assert.equal(loadInNewProcess(dir, cacheDir).cache['feature.a.js'], 'used');
  });

  it('writes the caches by itself a moment after the first load', async () => {
    writeBundles(dir);
    const loader = new BundleLoader(dir, cacheDir, module, 0);
    (loader.require(join(dir, 'features.js')) as { load(): string }).load();
    const files = () => {
      try {
        return readdirSync(cacheDir).filter((f) => f.endsWith('.v8'));
      } catch {
        return [];
      }
    };
    while (files().length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(files().map((f) => f.split('.js.')[0]).sort(), ['feature.a', 'features', 'shared.first-use']);
    loader.dispose();
  });

  it('a bundle that throws while loading is not kept: the next require runs it again', () => {
    writeBundles(dir);
    writeFileSync(join(dir, 'feature.a.js'), `"use strict";\nif (!globalThis.__bundleLoaderSecondTry) { globalThis.__bundleLoaderSecondTry = true; throw new Error("first load fails"); }\nexports.activate = () => "again";\n`);
    const loader = new BundleLoader(dir, undefined, module);
    assert.throws(() => loader.require(join(dir, 'features.js')), /first load fails/);
    assert.equal(require.cache[join(dir, 'feature.a.js')], undefined);
    assert.equal(require.cache[join(dir, 'features.js')], undefined);
    assert.equal((loader.require(join(dir, 'features.js')) as { load(): string }).load(), 'again');
    delete (globalThis as { __bundleLoaderSecondTry?: boolean }).__bundleLoaderSecondTry;
    loader.dispose();
  });
});
