// Bundles the extension and the CLI with esbuild. Flags: --production (minified, no source maps), --watch.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/**
 * VS Code's API reaches a module as `import vscode = require('vscode')`, which esbuild keeps a plain
 * require of the host's one API object. An ES import of it (`import * as vscode`, `import { Uri }`)
 * would have esbuild copy the API's ~350 keys into a namespace object once per importing module, at
 * its load (4 ms of the first use for one feature bundle's four modules): the build refuses it.
 */
const vscodeRequiredPlainly = {
  name: 'vscode-required-plainly',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.kind === 'require-call'
        ? { path: 'vscode', external: true }
        : { errors: [{ text: "import VS Code's API as `import vscode = require('vscode')` (an ES import copies it per module)" }] },
    );
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
  plugins: [vscodeRequiredPlainly, validatorsApart, yamlApart],
};

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GLUE = path.join(ROOT, 'src', 'vscode');
const require = createRequire(import.meta.url);

/**
 * Libraries the extension needs only once a connection is made (the HTTP client's node-fetch, the live
 * tail's ws, the token code's jose): each a bundle of its own, dist/lib.<name>.js, loaded when its first
 * export is first read, so that the first view of a window does not parse them (docs/performance.md).
 */
export const LAZY_LIBRARIES = ['jose', 'node-fetch', 'ws'];
const libraryFile = (name) => `lib.${name}.js`;

/**
 * In the extension's feature bundles, a lazy library is a stand-in with a getter per export (read from
 * the library as Node loads it), which requires the library's bundle on the first read: esbuild's
 * interop reads an export where the code uses it (`import_ws.default`), not when the module loads.
 */
export const lazyLibraries = {
  name: 'lazy-libraries',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${LAZY_LIBRARIES.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'lazy-library' }));
    // The export names as Node loads the library.
    build.onLoad({ filter: /.*/, namespace: 'lazy-library' }, (args) => ({ contents: lazyExports(libraryFile(args.path), Object.keys(require(args.path)), true), loader: 'js' }));
  },
};

/** The features: every folder of src/vscode but the kit, each `src/vscode/<name>/index.ts`, bundled to dist/feature.<name>.js. */
export const FEATURES = readdirSync(GLUE, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'kit')
  .map((d) => d.name)
  .sort();

/**
 * The features activated with the host, whatever the window uses first (Connections: its view, status bar
 * and connection commands): in the kit bundle, not apart, since they load with it anyway (a file fewer to
 * read and compile, and no copies of what they import from the kit).
 */
export const KIT_FEATURES = ['connections'];
/** The features with a bundle of their own, dist/feature.<name>.js. */
export const BUNDLED_FEATURES = FEATURES.filter((name) => !KIT_FEATURES.includes(name));

/**
 * In the kit bundle (dist/features.js: the host, the kit, the connection list, the features activated
 * with the host and the core they use), any other feature's index is its own bundle, required by
 * src/features.ts when the feature is first used.
 */
const featuresApart = {
  name: 'features-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/vscode\/[^/]+$/ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path);
      const name = path.basename(target);
      return path.dirname(target) === GLUE && BUNDLED_FEATURES.includes(name) ? { path: `./feature.${name}.js`, external: true } : undefined;
    });
  },
};

/**
 * Parts of the core the first view of a window does not run, each a bundle of its own
 * (dist/part.<name>.js) loaded when one of its exports is first read: the Ledger API client (a
 * connection makes it on its first request; with it the HTTP and websocket code, the request and
 * answer models), the compatibility check (at a connect; its rules and the catalogue of the API), the
 * file templates, the catalogue of Canton's error codes (read when a participant's error is classified
 * or explained), the table of Canton versions (at a connect), the compatibility wording, and the ledger
 * views' rows and the exercise of a choice (once a connected participant's updates or contracts show).
 * A part is built like a feature: what it shares with the kit or features it takes from their owner.
 */
export const PARTS = {
  client: 'src/core/api/client.ts',
  compat: 'src/core/compat/descriptions.ts',
  templates: 'src/core/files/templates.ts',
  catalog: 'src/core/errorCatalog.ts',
  versions: 'src/core/versions.ts',
  wording: 'src/core/compat/wording.ts',
  updateRows: 'src/core/updates/rows.ts',
  contractRows: 'src/core/acs/rows.ts',
  exercise: 'src/core/acs/exercise.ts',
};
const partBundle = (name) => `part.${name}`;
const PART_OF = new Map(Object.entries(PARTS).map(([name, file]) => [path.join(ROOT, file), name]));

/** The names a module exports (read from an ES-module build of it, which lists them). */
async function exportNames(file) {
  const r = await esbuild.build({ ...common, entryPoints: [path.join(ROOT, file)], format: 'esm', outdir: path.join(ROOT, 'dist'), write: false, metafile: true, logLevel: 'silent', sourcemap: false });
  return Object.values(r.metafile.outputs).find((o) => o.entryPoint)?.exports ?? [];
}

/**
 * In the extension's bundles, an import of a part (but in the part itself) is a stand-in with a getter
 * per export that requires the part's bundle on the first read, as a lazy library's is.
 */
const lazyParts = (self, exportsOf) => ({
  name: 'lazy-parts',
  setup(build) {
    build.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const target = path.resolve(args.resolveDir, args.path);
      const name = PART_OF.get(`${target}.ts`) ?? PART_OF.get(target);
      return name && partBundle(name) !== self ? { path: name, namespace: 'lazy-part' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-part' }, (args) => ({ contents: lazyExports(`${partBundle(args.path)}.js`, exportsOf.get(args.path) ?? [], false), loader: 'js' }));
  },
});

/** A module whose exports are getters that require `file` (beside the bundle) on the first read. */
function lazyExports(file, names, withDefault) {
  const getters = [
    // The module as esbuild's interop would see it: a CommonJS module (ws) is its own default export.
    ...(withDefault ? [`  default: { enumerable: true, get: () => (load().__esModule ? load().default : load()) },`] : []),
    ...names.filter((n) => n !== 'default' && n !== '__esModule').map((n) => `  ${JSON.stringify(n)}: { enumerable: true, get: () => load()[${JSON.stringify(n)}] },`),
  ];
  return [
    `let loaded;`,
    `const load = () => (loaded ??= require(require('node:path').join(__dirname, ${JSON.stringify(file)})));`,
    `Object.defineProperty(exports, '__esModule', { value: true });`,
    `Object.defineProperties(exports, {`,
    ...getters,
    `});`,
    '',
  ].join('\n');
}

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
      // Named .cjs: the stub is CommonJS, whatever the module it stands for.
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
const kitOptions = (owners, exported, exportsOf) => ({
  ...common,
  stdin: { contents: `export * from './src/features';\n${sharedExport(exported)}`, resolveDir: ROOT, sourcefile: 'features-kit.ts', loader: 'ts' },
  outfile: path.join(ROOT, 'dist', `${KIT}.js`),
  plugins: [lazyLibraries, lazyParts(KIT, exportsOf), fromTheirOwners(owners, KIT), featuresApart, ...common.plugins],
});
/** A part: its entry's exports, and a `__shared` of what it owns that others use. */
const partOptions = (name, owners, exported, exportsOf) => ({
  ...common,
  stdin: { contents: `export * from './${PARTS[name].replace(/\.ts$/, '')}';\n${sharedExport(exported)}`, resolveDir: ROOT, sourcefile: `${partBundle(name)}.ts`, loader: 'ts' },
  outfile: path.join(ROOT, 'dist', `${partBundle(name)}.js`),
  plugins: [lazyLibraries, lazyParts(partBundle(name), exportsOf), fromTheirOwners(owners, partBundle(name)), ...common.plugins],
});
const featureOptions = (name, owners, exportsOf) => ({
  ...common,
  entryPoints: { [`feature.${name}`]: path.join(GLUE, name, 'index.ts') },
  outdir: path.join(ROOT, 'dist'),
  plugins: [lazyLibraries, lazyParts(`feature.${name}`, exportsOf), fromTheirOwners(owners, `feature.${name}`), ...common.plugins],
});
const chunkOptions = (chunk, modules, owners, exportsOf) => ({
  ...common,
  stdin: { contents: sharedExport(modules), resolveDir: ROOT, sourcefile: `${chunk}.ts`, loader: 'ts' },
  outfile: path.join(ROOT, 'dist', `${chunk}.js`),
  plugins: [lazyLibraries, lazyParts(chunk, exportsOf), fromTheirOwners(owners, chunk), ...common.plugins],
});

/**
 * The features the first view of a window activates: the host's (Connections), then the ledger views
 * (Updates, and the packages'). What they share with other bundles goes to one chunk,
 * dist/shared.first-use.js, not to a chunk per set of features: each file costs the first use a read, a
 * resolve and a compile of its own, and these features load all of what they share at once anyway.
 */
export const FIRST_USE_FEATURES = ['connections', 'updates', 'packages'];
const FIRST_USE_CHUNK = 'shared.first-use';

/**
 * Who owns each module more than one bundle would include, read from esbuild's metafiles of the
 * bundles as they would be alone: the kit bundle (dist/features.js: src/features.ts without the
 * features) owns what it includes; a module that two features or more include and the kit does not
 * goes to the first use's chunk if a feature of the first use includes it, else to a chunk of its own
 * per set of features (dist/shared.<a>+<b>.js), so that a feature's first use loads only what that
 * feature uses. A module one feature alone includes stays in its bundle.
 */
export async function moduleOwners() {
  const inputs = async (options) => Object.keys((await esbuild.build({ ...options, write: false, metafile: true, logLevel: 'silent' })).metafile.inputs);
  const real = (input) => !input.includes(':') && !input.startsWith('<') && !/^(features-kit|shared\.|part\.)/.test(input);
  const none = new Map();
  const noExports = new Map();
  const kit = new Set((await inputs(kitOptions(none, [], noExports))).filter(real));
  const users = new Map();
  const bundles = [...BUNDLED_FEATURES.map((name) => [name, featureOptions(name, none, noExports)]), ...Object.keys(PARTS).map((name) => [partBundle(name), partOptions(name, none, [], noExports)])];
  await Promise.all(
    bundles.map(async ([name, options]) => {
      for (const input of (await inputs(options)).filter(real)) users.set(input, [...(users.get(input) ?? []), name]);
    }),
  );
  const owners = new Map();
  for (const [input, names] of users) {
    if (kit.has(input)) owners.set(input, KIT);
    else if (names.length > 1) owners.set(input, names.some((n) => FIRST_USE_FEATURES.includes(n)) ? FIRST_USE_CHUNK : `shared.${names.sort().join('+')}`);
  }
  return { owners };
}

/** The kit bundle, the feature bundles, the parts, the chunks of what they share and the lazy libraries, over one map of owners. */
export async function featureBuilds() {
  const [{ owners }, ...partExports] = await Promise.all([moduleOwners(), ...Object.values(PARTS).map(exportNames)]);
  const exportsOf = new Map(Object.keys(PARTS).map((name, i) => [name, partExports[i]]));
  const owned = (owner) => [...owners].filter(([, o]) => o === owner).map(([name]) => name);
  const chunks = [...new Set(owners.values())].filter((o) => o !== KIT && o.startsWith('shared.'));
  const libraries = LAZY_LIBRARIES.map((name) => ({
    ...common,
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: ROOT, sourcefile: `lib.${name}.js`, loader: 'js' },
    outfile: path.join(ROOT, 'dist', libraryFile(name)),
  }));
  return {
    owners,
    builds: [
      kitOptions(owners, owned(KIT), exportsOf),
      ...BUNDLED_FEATURES.map((name) => featureOptions(name, owners, exportsOf)),
      ...Object.keys(PARTS).map((name) => partOptions(name, owners, owned(partBundle(name)), exportsOf)),
      ...chunks.map((chunk) => chunkOptions(chunk, owned(chunk), owners, exportsOf)),
      ...libraries,
    ],
  };
}

export const builds = [
  // The entry VS Code activates for any JSON file: tiny, with no feature code.
  { ...common, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist' },
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
  for (const f of readdirSync(dist, { withFileTypes: false }).filter((f) => /^(feature|shared|part|lib)\..+\.js(\.map)?$/.test(f))) rmSync(path.join(dist, f));
  await Promise.all([...builds, ...(await featureBuilds()).builds].map((b) => esbuild.build(b)));
}
