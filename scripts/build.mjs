// Bundles the extension and the CLI with esbuild. Flags: --production (minified, no source maps), --watch.
import * as esbuild from 'esbuild';
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

export const builds = [
  // The entry VS Code activates for any JSON file: tiny, with no feature code, and no shim (it imports
  // the API itself, once, with `import vscode = require('vscode')`).
  { ...common, plugins: [], entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist' },
  // Everything else, loaded by the entry on the first Canton file, view or command.
  { ...common, entryPoints: { features: 'src/features.ts' }, outdir: 'dist' },
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
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[watch] build started');
} else if (isScript) {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
