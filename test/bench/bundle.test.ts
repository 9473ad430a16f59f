// What the extension costs to ship and to load (the "extension cost" rows of `npm run bench` measure
// it; these checks keep the causes fixed there from coming back). Needs `npm run build` (npm test runs it).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/spec';

const EXTENSION_JS = join(REPO_ROOT, 'dist', 'extension.js');
const FEATURES_JS = join(REPO_ROOT, 'dist', 'features.js');
/** The bundles of the extension host's feature code: the kit (features.js), each feature's, the parts and libraries loaded on first need, and the chunks they share. */
const featureBundles = () => [FEATURES_JS, ...readdirSync(join(REPO_ROOT, 'dist')).filter((f) => /^(feature|shared|part|lib)\..+\.js$/.test(f)).map((f) => join(REPO_ROOT, 'dist', f))];
const featureCode = () => featureBundles().map((f) => readFileSync(f, 'utf8')).join('\n');

describe('extension bundle', function () {
  this.timeout(60_000);
  before(function () {
    if (!existsSync(EXTENSION_JS)) assert.fail('dist/extension.js is missing: run `npm run build` first');
  });

  it('ships the extension, its validators, the demo participant and the MCP server it offers agents (not the CLI) in the .vsix', () => {
    const files = execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules/@vscode/vsce/vsce'), 'ls', '--no-dependencies'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const scripts = files.filter((f) => /\.(c|m)?js$/.test(f) && !/^dist\/(feature|shared|part|lib)\./.test(f)).sort();
    const featureFiles = files.filter((f) => /^dist\/(feature|shared|part|lib)\..+\.js$/.test(f)).sort();
    assert.deepEqual(featureFiles, featureBundles().slice(1).map((f) => `dist/${f.split(/[\\/]/).pop()}`).sort(), 'every feature bundle ships');
    assert.deepEqual(scripts, ['dist/daml.js', 'dist/extension.js', 'dist/features.js', 'dist/mcp.js', 'dist/participant.js', 'dist/participantNetwork.js', 'dist/pqs.js', 'dist/preview.js', 'dist/validators.js', 'dist/webview/graph.js', 'dist/webview/pqs.js', 'dist/yaml.js']);
    assert.ok(files.includes('media/graph/graph.css'), 'the graph webview’s style sheet ships');
    assert.ok(files.includes('media/pqs/pqs.css'), 'the PQS result grid’s style sheet ships');
    assert.ok(!files.some((f) => f.endsWith('.map')), 'no source maps');
  });

  it('has an entry of a few KB with no feature code, which requires dist/features.js by a computed path', () => {
    const code = readFileSync(EXTENSION_JS, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\s*$/, '');
    // With the table of which feature owns each command and view (src/vscode/owners.ts), the MCP
    // server's definition read from the settings (the connection profiles' normalisation) and the bundles'
    // loader with V8's code cache (src/vscode/bundleLoader.ts), some 19 KB unminified (some 9 KB as shipped).
    assert.ok(code.length < 21 * 1024, `dist/extension.js is ${code.length} bytes`);
    for (const feature of ['createTreeView', 'createOutputChannel', 'createStatusBarItem', 'registerCodeActionsProvider', 'LedgerClient', 'validators.js', 'daml.js']) {
      assert.ok(!code.includes(feature), `dist/extension.js contains ${feature}`);
    }
    assert.match(code, /\w+\.join\(\w+\.extensionPath,\s*"dist"\)/);
    assert.match(code, /\.require\(\w+\.join\(\w+,\s*"features\.js"\)\)/);
    const features = readFileSync(FEATURES_JS, 'utf8');
    assert.match(features, /loadFeatures/);
    assert.match(features, /createOutputChannel/);
  });

  it('activated for an unrelated JSON file, the entry does not load the features', () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    const registered: string[] = [];
    const disposable = { dispose: () => undefined };
    const fakeVscode = {
      commands: { registerCommand: (id: string) => (registered.push(id), disposable), executeCommand: async () => undefined },
      window: {
        registerTreeDataProvider: (id: string) => (registered.push(id), disposable),
        registerWebviewPanelSerializer: (viewType: string) => (registered.push(viewType), disposable),
        showErrorMessage: async () => undefined,
      },
      workspace: {
        textDocuments: [{ uri: { scheme: 'file', path: '/u/.config/Code/User/chatLanguageModels.json' } }],
        onDidOpenTextDocument: () => disposable,
        registerTextDocumentContentProvider: (scheme: string) => (registered.push(scheme), disposable),
        getConfiguration: () => ({ get: () => undefined }),
      },
    };
    const loaded = () => Object.keys(require.cache).filter((f) => f === FEATURES_JS);
    const m = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
    const load = m._load;
    m._load = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? fakeVscode : load.call(this, request, ...rest);
    };
    try {
      delete require.cache[EXTENSION_JS];
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const entry = require(EXTENSION_JS) as { activate(context: unknown): object };
      const api = entry.activate({ extensionPath: REPO_ROOT, globalStorageUri: { fsPath: join(REPO_ROOT, '.vscode-test', 'unit-global-storage') }, subscriptions: [], extension: { packageJSON: manifest } });
      assert.deepEqual(loaded(), []);
      assert.ok(registered.includes('cantonLedger.connections.add') && registered.includes('cantonLedger.updates') && registered.includes('canton-ledger') && registered.includes('cantonLedger.graph'));
      assert.deepEqual(Object.keys(api).sort(), ['agentTools', 'compare', 'connections', 'connectionsTree', 'demo', 'documents', 'failures', 'graphs', 'localNet', 'network', 'packages', 'pqs', 'preflight', 'prompts', 'scripts', 'secrets', 'send', 'statusBar', 'views']);
    } finally {
      m._load = load;
      delete require.cache[EXTENSION_JS];
    }
  });

  it('leaves the schema validators to a file of their own, loaded on the first file check', () => {
    const code = featureCode();
    assert.match(code, /require\("\.\/validators\.js"\)/);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const validators = require(join(REPO_ROOT, 'dist', 'validators.js')) as { sourceHash: string; validateCommands: unknown };
    assert.equal(typeof validators.validateCommands, 'function');
    assert.ok(!code.includes(validators.sourceHash) && !code.includes('sourceHash'), 'the generated module is not also in features.js');
  });

  it('leaves the PreparedTransaction decoder (generated protobuf code) to dist/preview.js, loaded on the first preview', () => {
    const code = readFileSync(EXTENSION_JS, 'utf8') + featureCode();
    assert.ok(!code.includes('com.daml.ledger.api.v2.interactive.PreparedTransaction'), 'the protobuf types are not in extension.js or features.js');
    assert.ok(readFileSync(join(REPO_ROOT, 'dist', 'preview.js'), 'utf8').includes('com.daml.ledger.api.v2.interactive.PreparedTransaction'));
  });

  it('leaves the PostgreSQL driver (node-postgres) to dist/pqs.js, loaded on the first PQS connection', () => {
    const code = readFileSync(EXTENSION_JS, 'utf8') + featureCode();
    for (const lib of ['node_modules/pg/', 'node_modules/pg-protocol/']) assert.ok(!code.includes(lib), `${lib} is not in extension.js or features.js`);
    assert.match(featureCode(), /"dist", "pqs\.js"/);
    const pqs = readFileSync(join(REPO_ROOT, 'dist', 'pqs.js'), 'utf8');
    assert.ok(pqs.includes('node_modules/pg/') && pqs.includes('node_modules/pg-protocol/'));
  });

  it('leaves the YAML parser of participants’ API descriptions to dist/yaml.js, loaded when one is first read', () => {
    for (const file of [FEATURES_JS, join(REPO_ROOT, 'dist', 'cli.js'), join(REPO_ROOT, 'dist', 'mcp.js')]) {
      const code = file === FEATURES_JS ? featureCode() : readFileSync(file, 'utf8');
      assert.ok(!code.includes('node_modules/yaml/'), `the yaml package is not in ${file}`);
      assert.match(code, /require\("\.\/yaml\.js"\)/);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const parser = require(join(REPO_ROOT, 'dist', 'yaml.js')) as { parseYaml(text: string): unknown };
    assert.deepEqual(parser.parseYaml('openapi: 3.0.3\npaths: {}\n'), { openapi: '3.0.3', paths: {} });
  });

  it('leaves the Daml-LF decoder (protobufjs, fflate) to dist/daml.js, loaded when packages or a DAR are first read', () => {
    // The development build names each module it bundles in a comment.
    const features = featureCode();
    for (const lib of ['node_modules/protobufjs/', 'node_modules/fflate/', 'node_modules/long/']) assert.ok(!features.includes(lib), `${lib} is not in features.js`);
    const daml = readFileSync(join(REPO_ROOT, 'dist', 'daml.js'), 'utf8');
    assert.ok(daml.includes('node_modules/protobufjs/') && daml.includes('node_modules/fflate/'));
  });

  it('leaves the graph webview’s code (its layout, d3-hierarchy) to dist/webview/graph.js, which only the webview loads', () => {
    const features = featureCode();
    for (const part of ['node_modules/d3-hierarchy/', 'src/core/graph/layout.ts', 'src/webview/']) assert.ok(!features.includes(part), `${part} is not in features.js`);
    const webview = readFileSync(join(REPO_ROOT, 'dist', 'webview', 'graph.js'), 'utf8');
    assert.ok(webview.includes('node_modules/d3-hierarchy/') && webview.includes('src/core/graph/layout.ts'));
    assert.ok(!/require\(["']vscode["']\)|require\(["']node:/.test(webview), 'no vscode or Node module in the webview');
  });

  it('gives the MCP server the extension offers agents a bundle of its own, dist/mcp.js, without the demo participant the CLI holds', () => {
    const mcp = readFileSync(join(REPO_ROOT, 'dist', 'mcp.js'), 'utf8');
    // Canton's (pekko-http's) 404 body, which only the demo participant's server answers: a string literal,
    // so minifying keeps it. It is in the participant's bundle and the CLI's (so the check can fail).
    const participantOnly = 'The requested resource could not be found.';
    for (const file of ['participant.js', 'cli.js']) assert.ok(readFileSync(join(REPO_ROOT, 'dist', file), 'utf8').includes(participantOnly), `the marker is in dist/${file}`);
    assert.ok(!mcp.includes(participantOnly), 'the demo participant’s server is not in dist/mcp.js');
    // The development build names each module it bundles in a comment.
    assert.ok(!mcp.includes('src/participant/'), 'no module of src/participant in dist/mcp.js');
    assert.ok(!mcp.includes('src/cli/commands/updates.ts') && mcp.includes('src/cli/commands/mcp.ts'), 'the mcp command, no other');
    // The server, the core it calls, the MCP SDK and the decoders it reads with: about 1.7 MB unminified;
    // the CLI with every command and the demo participant is 2.4 MB.
    assert.ok(mcp.length < 2 * 1024 * 1024, `dist/mcp.js is ${mcp.length} bytes`);
    assert.doesNotMatch(mcp, /require\("vscode"\)/);
  });

  it("leaves jose, ws and node-fetch to dist/lib.<name>.js, and the Ledger API client, the compatibility check, the file templates, the error catalogue, the version table, the compatibility wording and the ledger views' rows to dist/part.<name>.js, each loaded on first need", () => {
    const kit = readFileSync(FEATURES_JS, 'utf8');
    for (const library of ['jose', 'ws', 'node-fetch']) {
      assert.ok(!kit.includes(`node_modules/${library}/`), `${library} is not in features.js`);
      assert.ok(readFileSync(join(REPO_ROOT, 'dist', `lib.${library}.js`), 'utf8').includes(`node_modules/${library}/`), `${library} is in dist/lib.${library}.js`);
    }
    for (const [part, module] of [
      ['client', 'src/core/api/client.ts'],
      ['compat', 'src/core/compat/descriptions.ts'],
      ['templates', 'src/core/files/templates.ts'],
      ['catalog', 'src/core/errorCatalog.ts'],
      ['versions', 'src/core/versions.ts'],
      ['wording', 'src/core/compat/wording.ts'],
      ['updateRows', 'src/core/updates/rows.ts'],
      ['contractRows', 'src/core/acs/rows.ts'],
      ['exercise', 'src/core/acs/exercise.ts'],
    ]) {
      assert.ok(!featureCode().replace(readFileSync(join(REPO_ROOT, 'dist', `part.${part}.js`), 'utf8'), '').includes(`\n// ${module}\n`), `${module} is in its part alone`);
      assert.ok(readFileSync(join(REPO_ROOT, 'dist', `part.${part}.js`), 'utf8').includes(`\n// ${module}\n`), `${module} is in dist/part.${part}.js`);
    }
  });

  it("requires the VS Code API plainly wherever it is used: no bundle copies its keys into a module's namespace", () => {
    // esbuild copies an ES-imported CommonJS module's keys per importing module (`__toESM`); the API has
    // ~350 of them. `import vscode = require('vscode')` is a plain require of the host's one object.
    let plain = 0;
    for (const file of [EXTENSION_JS, ...featureBundles()]) {
      const code = readFileSync(file, 'utf8');
      assert.doesNotMatch(code, /__toESM\(require\("vscode"\)|__reExport\([^)]*require\("vscode"\)/, file);
      plain += (code.match(/= require\("vscode"\);/g) ?? []).length;
    }
    assert.ok(plain > 10, `${plain} plain requires of the API`);
  });

  it('ships the extension\'s bundles as ASCII (one other character and V8 holds the whole source as two-byte text)', () => {
    // Two-byte source costs its decode and compile twice over (2 ms of the first use for the kit bundle,
    // from one ellipsis in a regular expression, which esbuild leaves as it is: write it as \u2026).
    // The development build read here keeps comments, which the production build drops: comment lines are skipped.
    for (const file of [EXTENSION_JS, ...featureBundles()]) {
      const code = readFileSync(file, 'utf8').split('\n');
      const line = code.findIndex((l) => /[^\x00-\x7f]/.test(l) && !/^\s*(\/\/|\/\*|\*)/.test(l));
      assert.equal(line, -1, `${file}:${line + 1}: a non-ASCII character in ${code[line]}`);
    }
  });

  it('has one copy of each module among the kit, the features and their chunks (one class for instanceof, one module state)', () => {
    // The development build names each module it bundles in a comment: a module named in two bundles is copied.
    const bundlesOf = new Map<string, string[]>();
    for (const file of featureBundles()) {
      for (const [, module] of readFileSync(file, 'utf8').matchAll(/^\/\/ ((?:src|node_modules|\.\.\/\S*node_modules|scripts)\/\S+)$/gm)) {
        bundlesOf.set(module, [...new Set([...(bundlesOf.get(module) ?? []), file.split(/[\\/]/).pop()!])]);
      }
    }
    assert.ok(bundlesOf.get('src/core/errors.ts')?.length === 1 && bundlesOf.size > 100, `read the modules of the bundles (${bundlesOf.size})`);
    assert.deepEqual([...bundlesOf].filter(([, files]) => files.length > 1), []);
    assert.ok(featureBundles().length > 5, 'the features have bundles of their own');
    assert.ok(!readFileSync(FEATURES_JS, 'utf8').includes('\n// src/vscode/pqs/'), 'no feature in the kit bundle');
  });
});

describe('production build', () => {
  it('keeps the names of the errors, so that logs name an error by its class (not "tt ECONNRESET")', async () => {
    const buildScript = '../../scripts/build.mjs'; // the options the production build uses
    const { common } = (await import(buildScript)) as { common: import('esbuild').BuildOptions };
    const esbuild = await import('esbuild');
    const out = await esbuild.build({
      ...common,
      minify: true,
      sourcemap: false,
      write: false,
      stdin: { contents: `module.exports = require('./src/core/errors');`, resolveDir: REPO_ROOT, loader: 'ts' },
    });
    const m = { exports: {} as Record<string, unknown> };
    new Function('module', 'exports', 'require', out.outputFiles[0].text)(m, m.exports, require);
    const base = m.exports.LedgerError as abstract new (...a: unknown[]) => Error;
    const errorClasses = Object.entries(m.exports).filter(([, v]) => typeof v === 'function' && (v as { prototype: unknown }).prototype instanceof base);
    assert.ok(errorClasses.length >= 15, `${errorClasses.length} error classes`);
    for (const [name, errorClass] of errorClasses) assert.equal((errorClass as { prototype: Error }).prototype.name, name);
    const NetworkError = m.exports.NetworkError as new (...a: unknown[]) => Error;
    const e = new NetworkError('reset', 'ECONNRESET', true);
    assert.equal(e.name, 'NetworkError');
    assert.match(e.stack ?? '', /^NetworkError: reset/);
  });
});

describe('npm run package', function () {
  this.timeout(120_000);
  it('writes a .vsix whose README images and linked pages ship inside it, with no made-up repository URL', async () => {
    const packageScript = '../../scripts/package.mjs'; // what `npm run package` runs
    const { packageVsix } = (await import(packageScript)) as { packageVsix: (o: { out: string; log: (m: string) => void }) => string };
    const { mkdtempSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const { unzipSync, strFromU8 } = await import('fflate');
    const dir = mkdtempSync(join(os.tmpdir(), 'vsix-test-'));
    try {
      const vsix = packageVsix({ out: join(dir, 'x.vsix'), log: () => undefined });
      const files = unzipSync(readFileSync(vsix));
      const manifest = JSON.parse(strFromU8(files['extension/package.json'])) as { repository?: unknown; main: string };
      assert.equal(manifest.repository, undefined);
      assert.ok(files[`extension/${manifest.main.replace(/^\.\//, '')}`], 'the entry ships');
      const readme = strFromU8(files['extension/readme.md'] ?? files['extension/README.md']);
      const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]);
      assert.ok(images.length >= 4, `${images.length} images in the README`);
      for (const image of images) {
        assert.ok(!/^[a-z]+:/i.test(image), `${image} stays relative (resolved against the installed extension)`);
        assert.ok(files[`extension/${image}`], `${image} ships in the .vsix`);
      }
      // Every other relative link (a page, a folder of examples) leads to something the .vsix holds too.
      const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^([a-z]+:|#)/i.test(t) && !images.includes(t));
      assert.ok(links.length >= 4, `${links.length} links to pages in the README`);
      const shipped = Object.keys(files);
      const missing = links.map((t) => `extension/${t.replace(/#.*$/, '').replace(/\/$/, '')}`).filter((t) => !shipped.some((f) => f === t || f.startsWith(`${t}/`)));
      assert.deepEqual(missing, [], 'linked from the README but not in the .vsix');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
