// Bundles the extension and the CLI with esbuild. Flags: --production (minified, no source maps), --watch.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const VSCODE_SHIM = fileURLToPath(new URL('./shims/vscode.mjs', import.meta.url));

/** Resolves `vscode` to the shim, except inside the shim itself, where it is the host's module. */
const oneVscodeImport = {
  name: 'one-vscode-import',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.importer === VSCODE_SHIM ? { path: 'vscode', external: true } : { path: VSCODE_SHIM }));
  },
};

/**
 * The generated schema validators (a third of the extension's code) go to a file of their own,
 * dist/validators.js, which src/core/files/validate.ts requires on the first file check: activation
 * does not parse them.
 */
const validatorsApart = {
  name: 'validators-apart',
  setup(build) {
    build.onResolve({ filter: /\/generated\/validators$/ }, () => ({ path: './validators.js', external: true }));
  },
};

/**
 * The YAML parser of participants' API descriptions goes to dist/yaml.js, which
 * src/core/compat/descriptions.ts requires on the first description in YAML (at a connect).
 */
const yamlApart = {
  name: 'yaml-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/yamlParser$/ }, () => ({ path: './yaml.js', external: true }));
  },
};

/** @type {import('esbuild').BuildOptions} */
export const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  // vscode is provided by the host at run time; pg's optional native binding is never used.
  external: ['vscode', 'pg-native'],
  alias: { 'whatwg-url': './scripts/shims/whatwg-url.cjs', '@canton-network/core-ledger-proto': './scripts/shims/ledger-proto.mjs' },
  // Prefer ESM builds: jsonc-parser's `main` is a UMD bundle whose internal require('./impl/…')
  // calls esbuild cannot follow, so the bundle would fail at run time with MODULE_NOT_FOUND.
  mainFields: ['module', 'main'],
  plugins: [oneVscodeImport, validatorsApart, yamlApart],
};

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GLUE = path.join(ROOT, 'src', 'vscode');

/** The features: every folder of src/vscode but the kit, each `src/vscode/<name>/index.ts`, bundled to dist/feature.<name>.js. */
export const FEATURES = readdirSync(GLUE, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'kit')
  .map((d) => d.name)
  .sort();

/**
 * In the kit bundle (dist/features.js: the host, the kit, the connection list and the core they use),
 * a feature's index is its own bundle, required by src/features.ts when the feature is first used.
 */
const featuresApart = {
  name: 'features-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/vscode\/[^/]+$/ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path);
      const name = path.basename(target);
      return path.dirname(target) === GLUE && FEATURES.includes(name) ? { path: `./feature.${name}.js`, external: true } : undefined;
    });
  },
};

/** A module's path as esbuild's metafile names it (relative to the repository, forward slashes). */
const inputName = (file) => path.relative(ROOT, file).split(path.sep).join('/');

/**
 * A bundle takes every module that another bundle owns from that bundle at run time (its `__shared`,
 * by module path), so that there is one copy of each: one class for every `instanceof`
 * (LedgerApiError, CancelledError, …), one module state, one VS Code API object.
 */
const fromTheirOwners = (owners, self) => ({
  name: 'from-their-owners',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind === 'entry-point' || args.pluginData?.fromTheirOwners) return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { fromTheirOwners: true } });
      if (resolved.errors.length > 0 || resolved.external || !resolved.path) return undefined;
      const name = inputName(resolved.path);
      const owner = owners.get(name);
      // Named .cjs: the stub is CommonJS, whatever the module it stands for (the VS Code shim is .mjs).
      return owner && owner !== self ? { path: `${name}.cjs`, namespace: 'shared', pluginData: { name, owner } } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'shared' }, (args) => ({
      // A computed path, so that esbuild leaves the owner to its own bundle; Node's module cache makes it one instance.
      contents: `module.exports = require(require('node:path').join(__dirname, ${JSON.stringify(`${args.pluginData.owner}.js`)})).__shared[${JSON.stringify(args.pluginData.name)}];`,
      loader: 'js',
    }));
  },
});

/**
 * A bundle's `__shared`: a getter per module it owns that others use, which requires it when first
 * asked for (esbuild then keeps the module lazy: what only a feature needs of a kit module is not run
 * until that feature loads; an ES module comes as its namespace, marked `__esModule`).
 */
function sharedExport(modules) {
  const getters = [...modules].sort().map((name) => `  get ${JSON.stringify(name)}() { return require(${JSON.stringify(`./${name}`)}); },`);
  return ['export const __shared = {', ...getters, '};', ''].join('\n');
}

const KIT = 'features';
const kitOptions = (owners, exported, formats = new Map()) => ({
  ...common,
  stdin: { contents: `export * from './src/features';\n${sharedExport(exported)}`, resolveDir: ROOT, sourcefile: 'features-kit.ts', loader: 'ts' },
  outfile: path.join(ROOT, 'dist', `${KIT}.js`),
  plugins: [fromTheirOwners(owners, KIT), featuresApart, ...common.plugins],
});
const featureOptions = (name, owners) => ({
  ...common,
  entryPoints: { [`feature.${name}`]: path.join(GLUE, name, 'index.ts') },
  outdir: path.join(ROOT, 'dist'),
  plugins: [fromTheirOwners(owners, `feature.${name}`), ...common.plugins],
});
const chunkOptions = (chunk, modules, owners, formats) => ({
  ...common,
  stdin: { contents: sharedExport(modules), resolveDir: ROOT, sourcefile: `${chunk}.ts`, loader: 'ts' },
  outfile: path.join(ROOT, 'dist', `${chunk}.js`),
  plugins: [fromTheirOwners(owners, chunk), ...common.plugins],
});

/**
 * Who owns each module more than one bundle would include, read from esbuild's metafiles of the
 * bundles as they would be alone: the kit bundle (dist/features.js: src/features.ts without the
 * features) owns what it includes; a module that two features or more include and the kit does not
 * goes to a chunk of its own per set of features (dist/shared.<a>+<b>.js), so that a feature's first
 * use loads only what that feature uses. A module one feature alone includes stays in its bundle.
 */
export async function moduleOwners() {
  const formats = new Map();
  const inputs = async (options) => {
    const found = (await esbuild.build({ ...options, write: false, metafile: true, logLevel: 'silent' })).metafile.inputs;
    for (const [name, input] of Object.entries(found)) formats.set(name, input.format);
    return Object.keys(found);
  };
  const real = (input) => !input.includes(':') && !input.startsWith('<') && !input.startsWith('features-kit') && !input.startsWith('shared.');
  const none = new Map();
  const kit = new Set((await inputs(kitOptions(none, []))).filter(real));
  const users = new Map();
  await Promise.all(
    FEATURES.map(async (name) => {
      for (const input of (await inputs(featureOptions(name, none))).filter(real)) users.set(input, [...(users.get(input) ?? []), name]);
    }),
  );
  const owners = new Map();
  for (const [input, names] of users) {
    if (kit.has(input)) owners.set(input, KIT);
    else if (names.length > 1) owners.set(input, `shared.${names.sort().join('+')}`);
  }
  return { owners, formats };
}

/** The kit bundle, the feature bundles and the chunks of what features share, over one map of owners. */
export async function featureBuilds() {
  const { owners, formats } = await moduleOwners();
  const owned = (owner) => [...owners].filter(([, o]) => o === owner).map(([name]) => name);
  const chunks = [...new Set(owners.values())].filter((o) => o !== KIT);
  return {
    owners,
    builds: [kitOptions(owners, owned(KIT), formats), ...FEATURES.map((name) => featureOptions(name, owners)), ...chunks.map((chunk) => chunkOptions(chunk, owned(chunk), owners, formats))],
  };
}

export const builds = [
  // The entry VS Code activates for any JSON file: tiny, with no feature code, and no shim (it imports
  // the API itself, once, with `import vscode = require('vscode')`).
  { ...common, plugins: [], entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist' },
  // The kit (dist/features.js) and the features (dist/feature.<name>.js): featureBuilds() below.
  { ...common, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } },
  // The MCP server alone (`canton-ledger mcp` without the other commands or the demo participant): what
  // the extension runs for VS Code's agents, so the .vsix ships this instead of the whole CLI.
  { ...common, entryPoints: { mcp: 'src/cli/mcpMain.ts' }, outdir: 'dist' },
  // Loaded by the extension only when the demo participant starts, so activation does not pay for it.
  { ...common, entryPoints: { participant: 'src/participant/index.ts' }, outdir: 'dist' },
  // The demo network (several demo participants on one synchronizer): loaded when it starts. A bundle of
  // its own, since the network imports the single participant's module (exporting it from there is a cycle).
  { ...common, entryPoints: { participantNetwork: 'src/participant/network/index.ts' }, outdir: 'dist' },
  { ...common, plugins: [], entryPoints: { validators: 'src/core/files/generated/validators.js' }, outdir: 'dist' },
  // The YAML parser (the yaml package): loaded when a participant's API description is first read.
  { ...common, plugins: [], entryPoints: { yaml: 'src/core/compat/yamlParser.ts' }, outdir: 'dist' },
  // The Daml-LF decoder and package index (protobufjs, fflate): loaded by the extension when it first reads packages.
  { ...common, entryPoints: { daml: 'src/core/daml/index.ts' }, outdir: 'dist' },
  // The PreparedTransaction decoder (the generated Ledger API protobuf code): loaded by the extension on the first preview.
  { ...common, entryPoints: { preview: 'src/core/preview/index.ts' }, outdir: 'dist' },
  // The PostgreSQL driver (node-postgres): loaded by the extension on the first PQS connection.
  { ...common, entryPoints: { pqs: 'src/core/pqs/pgDriver.ts' }, outdir: 'dist' },
  // The graph webview's script: runs in the webview (a browser), loaded only when a graph is opened.
  { ...common, plugins: [], platform: 'browser', format: 'iife', target: 'es2022', entryPoints: { graph: 'src/webview/graph/main.ts' }, outdir: 'dist/webview', alias: {} },
  // The PQS result grid's script: runs in its webview, loaded only when a result is shown.
  { ...common, plugins: [], platform: 'browser', format: 'iife', target: 'es2022', entryPoints: { pqs: 'src/webview/pqs/main.ts' }, outdir: 'dist/webview', alias: {} },
];

// Run as a script it builds; imported (by tests, for the options) it does nothing.
const isScript = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
if (isScript && watch) {
  // The set of shared modules is read once: a new shared import needs a restart of the watch.
  const contexts = await Promise.all([...builds, ...(await featureBuilds()).builds].map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[watch] build started');
} else if (isScript) {
  // The chunks are named by the features that share them: those of an earlier build may be gone.
  const dist = path.join(ROOT, 'dist');
  for (const f of readdirSync(dist, { withFileTypes: false }).filter((f) => /^(feature|shared)\..+\.js(\.map)?$/.test(f))) rmSync(path.join(dist, f));
  await Promise.all([...builds, ...(await featureBuilds()).builds].map((b) => esbuild.build(b)));
}
