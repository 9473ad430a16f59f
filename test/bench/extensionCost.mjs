#!/usr/bin/env node
// Extension cost, one part of `npm run bench`: what the packaged extension weighs and how long it takes
// to activate in a real VS Code (code-server), next to a minimal hello-world extension (test/bench/hello-world/)
// measured in the same run, on the same machine.
//
//   node --import tsx test/bench/extensionCost.mjs [--runs N] [--cpu-profile DIR]     JSON on stdout, progress on stderr
//   (--cpu-profile: V8 CPU profiles of the activations and the first use, DIR/run-N/*.cpuprofile, to open in
//   DevTools; the profiler's cost makes that run's figures no measurement)
//   import { measureExtensionCost } from './extensionCost.mjs'
//
// 1. Bundle size: the .vsix packaged the way test/e2e/setup.mjs does it (vsce package --no-dependencies;
//    run `npm run build:production` first for the shipped, minified size; a plain `npm run build` works
//    too but measures the development build), then the uncompressed size of every .js/.cjs/.mjs entry.
// 2. Activation: both .vsix and a tiny generated "probe" extension installed in one extensions dir; for each
//    run a fresh code-server (its own process group) on an empty workspace folder, opened in Chromium.
//    The probe activates on `onStartupFinished`, lets the workbench settle, checks that neither extension
//    is active yet, then activates them one after the other with `vscode.extensions.getExtension(id).activate()`
//    (which goes first alternates between runs). The figure is code loading (the extension host's require()
//    of the main) + the activate() call until its promise resolved: the two phases of VS Code's
//    ActivationTimes ("Developer: Show Running Extensions"), timed with performance.now() around the
//    extension host's own calls. Alongside, per sample: VS Code's own marks of the same phases
//    (code/extHost/{will,did}LoadExtensionCode/<id>, {will,did}ActivateExtension/<id>; 1 ms resolution), the
//    time to activated including the extension context, and the wall time of the activate() call.
//    After both activations, the probe reads one property of our API (FIRST_USE): our first use, which
//    loads the features (dist/features.js), timed the same way (`firstUse`). Each run is two windows with
//    the same user data: the first after the install, which compiles our bundles and leaves their V8 code
//    cache in the global storage (src/vscode/bundleLoader.ts; the probe waits for it), and the next one,
//    whose first use finds that cache (`firstUse.nextWindowSteps`), as every window after the first does.
//    A last window with the default settings records whether either extension is activated by itself
//    at startup, and VS Code's marks of that activation (`startupCheck`; see MEASURE_SETTINGS for why
//    the measured windows differ).
//
// Work files and logs: test-results/bench/extension-cost/ ($BENCH_RESULTS_DIR/extension-cost/), replaced
// on every measurement. code-server and Chromium are always stopped, also on errors and Ctrl-C.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CS_PREFIX, ROOT, chromiumPath, ensureRuntime, packageExtension } from '../e2e/setup.mjs';
import { VSCE_FLAGS } from '../../scripts/package.mjs';
// The features our first use (FIRST_USE's first two steps) activates: the host's, then the ledger views'.
import { BUNDLED_FEATURES, FIRST_USE_FEATURES } from '../../scripts/build.mjs';
import { codeServerCli, freePort, startCodeServer, tail } from '../e2e/lib/processes.mjs';
import { QUIET_SETTINGS, serverEnv } from '../e2e/lib/runDir.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const HELLO_DIR = path.join(HERE, 'hello-world');
export const OURS_ID = 'canton-ledger-explorer.canton-ledger-explorer';
export const HELLO_ID = 'bench.hello-world';
/** The activation floor: our contributions, renamed, each registered with an empty handler (FLOOR_JS). */
export const FLOOR_ID = 'bench.activation-floor';
const PROBE_ID = 'bench.activation-probe';
const VSCE = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
const JS_FILE = /\.(c|m)?js$/i;

/** How long the probe lets the workbench settle after onStartupFinished, and waits between the two activations. */
const SETTLE_MS = Number(process.env.BENCH_ACTIVATION_SETTLE_MS ?? 1500);
const GAP_MS = Number(process.env.BENCH_ACTIVATION_GAP_MS ?? 1000);
/** Per attempt: until the probe has written its result (code-server start, workbench, ext host, measurement). */
const RUN_TIMEOUT_MS = Number(process.env.BENCH_ACTIVATION_TIMEOUT_S ?? 150) * 1000;
const ATTEMPTS = 3;
/**
 * Our first use, timed after both activations: reading a property of the API the entry returns loads
 * the features (dist/features.js) and activates them, as the first Canton file, view or command does.
 */
const FIRST_USE = {
  id: OURS_ID,
  // In this order, each timed on its own: a part of the API loads its feature (and the host, first).
  steps: [
    { property: 'connections', what: 'the host with the Connections feature (the Connections view, status bar, connection commands)' },
    { property: 'views', what: 'Updates, Contract Events, Active Contracts and the packages views' },
    { property: 'send', what: 'the Canton files: editing and sending, with the pre-flight' },
    { property: 'failures', what: 'Failed Commands' },
    { property: 'compare', what: 'Compare Parties' },
    { property: 'graphs', what: 'the transaction graph' },
    { property: 'pqs', what: 'PQS' },
    { property: 'scripts', what: 'ledger scripts' },
    { property: 'network', what: 'the Network view and the demo network' },
    { property: 'localNet', what: 'LocalNet connections' },
    { property: 'agentTools', what: 'the language-model tools and the MCP server' },
  ],
};

/** The floor's first use (FLOOR_JS): the registrations of our first two steps, with empty handlers. */
const FLOOR_FIRST_USE = { id: FLOOR_ID, steps: [{ property: 'firstUse', what: 'the views of the features our first use activates, created again' }] };

/** Our commands and views that the first use registers (src/vscode/owners.ts; undefined where TypeScript cannot be imported). */
async function firstUseRegistrations(contributes) {
  let owners;
  try {
    owners = await import('../../src/vscode/owners.ts');
  } catch {
    return undefined;
  }
  const mine = (id) => FIRST_USE_FEATURES.includes(owners.ownerOf(id));
  // Only the views: a command's stand-in stays and runs the handler its feature gives it (src/vscode/deferred.ts).
  return { views: Object.values(contributes.views).flat().map((v) => v.id).filter(mine) };
}

/**
 * VS Code 1.139 opens User/chatLanguageModels.json as a text model (language json) when the workbench
 * starts, even with AI features off, which fires `onLanguage:json` in every window: an extension with that
 * activation event is activated at startup (see `startupCheck` in the result). For the measured runs the
 * file is associated with plaintext in the (isolated) user settings, so neither extension is active before
 * the probe activates it.
 */
const MEASURE_SETTINGS = { ...QUIET_SETTINGS, 'files.associations': { '**/chatLanguageModels.json': 'plaintext' } };

// ------------------------------------------------------------------------------------------- .vsix contents

/** The entries of a zip file, `[{ name, bytes }]` (uncompressed sizes): `unzip -l` when present, else read here. */
export function zipEntries(file) {
  const which = spawnSync('unzip', ['-v'], { encoding: 'utf8' });
  if (!which.error && which.status === 0) {
    const r = spawnSync('unzip', ['-l', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status === 0) {
      const lines = r.stdout.split('\n');
      const dashes = lines.map((l, i) => (/^-{5,}\s/.test(l) ? i : -1)).filter((i) => i >= 0);
      if (dashes.length >= 2) {
        return lines.slice(dashes[0] + 1, dashes[1]).map((l) => {
          const m = /^\s*(\d+)\s+\S+\s+\S+\s{2,}(.*)$/.exec(l) ?? /^\s*(\d+)\s+\S+\s+\S+\s+(.*)$/.exec(l);
          if (!m) throw new Error(`unexpected unzip -l line: ${JSON.stringify(l)}`);
          return { name: m[2], bytes: Number(m[1]) };
        });
      }
    }
  }
  return zipEntriesJs(readFileSync(file));
}

/** A minimal zip central-directory reader (no zip64: a .vsix is far below 4 GB and 65535 entries). */
export function zipEntriesJs(buf) {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file (no end of central directory record)');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const out = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry #${n}`);
    const bytes = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    out.push({ name: buf.toString('utf8', at + 46, at + 46 + nameLen), bytes });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** The JavaScript files of a .vsix (paths relative to the extension folder) and their total size. */
export function vsixJs(vsix) {
  const files = zipEntries(vsix)
    .filter((e) => e.name.startsWith('extension/') && JS_FILE.test(e.name))
    .map((e) => ({ path: e.name.slice('extension/'.length), bytes: e.bytes }))
    .sort((a, b) => b.bytes - a.bytes);
  return { files, bytes: files.reduce((s, f) => s + f.bytes, 0) };
}

function vscePackage(cwd, out, extra = []) {
  rmSync(out, { force: true });
  const r = spawnSync(process.execPath, [VSCE, 'package', ...VSCE_FLAGS, ...extra, '-o', out], { cwd, encoding: 'utf8', maxBuffer: 16 << 20 });
  if (r.status !== 0 || !existsSync(out)) {
    throw new Error(`vsce package in ${path.relative(ROOT, cwd)} failed (exit ${r.status ?? r.signal}):\n${`${r.stdout}${r.stderr}`.slice(-3000)}`);
  }
  return out;
}

// ------------------------------------------------------------------------------------------- the probe

// Runs in the extension host. Never activates anything before the measurement: it is itself activated
// on onStartupFinished, waits BENCH_PROBE_SETTLE_MS, then activates BENCH_PROBE_ORDER's ids in order.
const PROBE_JS = String.raw`'use strict';
const vscode = require('vscode');
const fs = require('fs');
const Module = require('module');
const path = require('path');
const { performance } = require('perf_hooks');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// With BENCH_PROBE_CPU_PROFILE (a folder): a V8 CPU profile of fn, written there as <name>.cpuprofile, to
// see where the time goes (the profiler's own cost makes these runs' figures no measurement).
async function profiled(name, fn) {
  const dir = process.env.BENCH_PROBE_CPU_PROFILE;
  if (!dir) return fn();
  const session = new (require('inspector').Session)();
  session.connect();
  const post = (method, params) => new Promise((res, rej) => session.post(method, params, (e, v) => (e ? rej(e) : res(v))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 50 });
  await post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, name + '.cpuprofile'), JSON.stringify(profile));
    session.disconnect();
  }
}

// VS Code's own marks (vs/base/common/performance: Date.now(), 1 ms resolution, in the extension host).
function vscodeMarks(id) {
  let list = [];
  try {
    list = globalThis.MonacoPerformanceMarks.getMarks();
  } catch {
    return { available: false };
  }
  const at = {};
  for (const m of list) {
    const hit = /^code\/extHost\/(willLoadExtensionCode|didLoadExtensionCode|willActivateExtension|didActivateExtension)\/(.*)$/.exec(m.name);
    if (hit && hit[2] === id) at[hit[1]] = m.startTime;
  }
  const d = (a, b) => (at[a] !== undefined && at[b] !== undefined ? at[b] - at[a] : null);
  return {
    available: true,
    codeLoadingMs: d('willLoadExtensionCode', 'didLoadExtensionCode'),
    activateMs: d('willActivateExtension', 'didActivateExtension'),
    loadToActivatedMs: d('willLoadExtensionCode', 'didActivateExtension'),
  };
}

// The same two phases at high resolution: the extension host loads an extension's main with require()
// (Module._load) and then calls its activate(); both are observed here, nothing is changed.
function hiResHooks(mainPath) {
  const t = { requireStart: null, requireEnd: null, activateStart: null, activateCallEnd: null, activateResolved: null };
  // Runs fn, noting the time before it in t[start] and after it (also on a throw) in t[end].
  const timeInto = (start, end, fn) => {
    t[start] = performance.now();
    try {
      return fn();
    } finally {
      t[end] = performance.now();
    }
  };
  const origLoad = Module._load;
  Module._load = function (request, parent, isMain) {
    // VS Code requires the main by its absolute path; nested requires are left alone (not even resolved).
    if (t.requireStart !== null || typeof request !== 'string' || !path.isAbsolute(request)) return origLoad.apply(this, arguments);
    let resolved;
    try {
      resolved = Module._resolveFilename(request, parent, isMain);
    } catch {
      resolved = undefined;
    }
    if (resolved !== mainPath) return origLoad.apply(this, arguments);
    const exp = timeInto('requireStart', 'requireEnd', () => origLoad.apply(this, arguments));
    if (!exp || typeof exp.activate !== 'function') return exp;
    // activate() is read through a proxy that times the call; everything else is the module's own.
    const activate = exp.activate;
    const timed = function () {
      const r = timeInto('activateStart', 'activateCallEnd', () => activate.apply(this, arguments));
      return Promise.resolve(r).then((v) => {
        t.activateResolved = performance.now();
        return v;
      });
    };
    return new Proxy(exp, { get: (o, k, rcv) => (k === 'activate' ? timed : Reflect.get(o, k, rcv)) });
  };
  const hook = Module._load;
  return {
    t,
    restore: () => {
      if (Module._load === hook) Module._load = origLoad; // (left alone if someone wrapped it meanwhile)
    },
  };
}

// The first window leaves the code cache of the bundles its first use loaded (src/vscode/bundleLoader.ts
// writes it a moment after): waits until every one has its cache, so that the next window with the same
// user data finds them.
async function awaitCodeCache(context, id) {
  const dist = path.join(vscode.extensions.getExtension(id).extensionUri.fsPath, 'dist') + path.sep;
  const bundles = Object.keys(require.cache).filter((f) => f.startsWith(dist) && f !== dist + 'extension.js').map((f) => path.basename(f));
  const dir = path.join(path.dirname(context.globalStorageUri.fsPath), id.toLowerCase(), 'code-cache');
  const deadline = Date.now() + 30000;
  for (;;) {
    let files = [];
    try {
      files = fs.readdirSync(dir);
    } catch {}
    const missing = bundles.filter((b) => !files.some((f) => f.startsWith(b + '.') && f.endsWith('.v8')));
    if (!missing.length) return { bundles };
    if (Date.now() > deadline) throw new Error('no code cache within 30 s for ' + missing.join(', ') + ' in ' + dir);
    await sleep(100);
  }
}

async function measure(context) {
  const out = process.env.BENCH_PROBE_OUT;
  const order = JSON.parse(process.env.BENCH_PROBE_ORDER || '[]');
  const result = { vscodeVersion: vscode.version, order, samples: [], activeBefore: {} };
  try {
    await sleep(Number(process.env.BENCH_PROBE_SETTLE_MS || 1500));
    for (const id of order) {
      const ext = vscode.extensions.getExtension(id);
      if (!ext) throw new Error(id + ' is not installed in this extension host');
      result.activeBefore[id] = ext.isActive;
    }
    // "check": only whether they got activated by themselves during startup, and VS Code's marks of it.
    if (process.env.BENCH_PROBE_MODE === 'check') result.marks = Object.fromEntries(order.map((id) => [id, vscodeMarks(id)]));
    const early = order.filter((id) => result.activeBefore[id]);
    if (early.length && process.env.BENCH_PROBE_MODE !== 'check') {
      throw new Error('already active before the measurement (not a first activation): ' + early.join(', '));
    }
    for (let i = 0; i < order.length && process.env.BENCH_PROBE_MODE !== 'check'; i++) {
      if (i > 0) await sleep(Number(process.env.BENCH_PROBE_GAP_MS || 1000));
      const id = order[i];
      const ext = vscode.extensions.getExtension(id);
      const wasActive = ext.isActive;
      const main = require.resolve(ext.extensionUri.fsPath + '/' + (ext.packageJSON.main || ''));
      const hooks = hiResHooks(main);
      const t0 = performance.now();
      try {
        await profiled('activate-' + id, () => ext.activate());
      } finally {
        hooks.restore();
      }
      const wallMs = performance.now() - t0;
      const h = hooks.t;
      const sub = (a, b) => (a !== null && b !== null ? b - a : null);
      result.samples.push({
        id,
        position: i,
        wasActive,
        isActive: ext.isActive,
        wallMs,
        vscode: vscodeMarks(id),
        hiRes: {
          codeLoadingMs: sub(h.requireStart, h.requireEnd),
          activateCallMs: sub(h.activateStart, h.activateCallEnd),
          activateResolvedMs: sub(h.activateStart, h.activateResolved),
          // from the start of require() to activate() resolved: code loading + waiting for the extension
          // context (storage, read through the renderer) + activate()
          loadToActivatedMs: sub(h.requireStart, h.activateResolved),
          // from the activate() request to the start of require(): the activation event, localization
          beforeLoadMs: h.requireStart === null ? null : h.requireStart - t0,
        },
      });
    }
    // After both activations: the first read of one property of an extension's API, which for ours is
    // its first use (it loads the features then).
    const firstUse = process.env.BENCH_PROBE_FIRST_USE ? JSON.parse(process.env.BENCH_PROBE_FIRST_USE) : undefined;
    if (firstUse && process.env.BENCH_PROBE_MODE !== 'check') {
      await sleep(Number(process.env.BENCH_PROBE_GAP_MS || 1000));
      const api = vscode.extensions.getExtension(firstUse.id).exports;
      const steps = [];
      await profiled('first-use', () => {
        for (const step of firstUse.steps) {
          const t0 = performance.now();
          const value = api[step.property];
          steps.push({ property: step.property, ms: performance.now() - t0, ok: value !== undefined });
        }
      });
      result.firstUse = { id: firstUse.id, ms: steps[0].ms, steps };
      if (process.env.BENCH_PROBE_AWAIT_CODE_CACHE) result.codeCache = await awaitCodeCache(context, firstUse.id);
    }
  } catch (e) {
    result.error = String((e && e.stack) || e);
  }
  fs.writeFileSync(out + '.tmp', JSON.stringify(result, null, 2));
  fs.renameSync(out + '.tmp', out);
}

exports.activate = function (context) {
  if (!process.env.BENCH_PROBE_OUT) return;
  setTimeout(() => {
    measure(context).catch((e) => console.error('[activation probe]', e));
  }, 0);
};
exports.deactivate = function () {};
`;

// ------------------------------------------------------------------------------------------- the floor

// What no implementation of our entry can go below in VS Code: once an extension is active, VS Code sends
// it no activation event, so whatever a user or another extension can reach from then on (a command in
// the palette, a view coming into sight, a tool an agent calls, a document or webview restored) must be
// registered by activate(). This extension has our contributions (renamed, so that both fit in one
// extension host) and registers each with an empty handler, as our entry registers its stand-ins, and
// nothing else: the cost of those registrations in VS Code itself.
const FLOOR_JS = String.raw`'use strict';
const vscode = require('vscode');
// As many read-only document schemes and webview types as our entry registers (src/extension.ts).
const SCHEMES = ['benchfloor-document', 'benchfloor-report', 'benchfloor-compat'];
const WEBVIEW_TYPES = ['benchFloor.graph'];
exports.activate = function (context) {
  const c = context.extension.packageJSON.contributes;
  const subs = context.subscriptions;
  const none = () => undefined;
  const lm = vscode.lm;
  if (lm && lm.registerMcpServerDefinitionProvider) for (const p of c.mcpServerDefinitionProviders || []) subs.push(lm.registerMcpServerDefinitionProvider(p.id, { provideMcpServerDefinitions: () => [] }));
  const standIns = new Map();
  const standIn = (id, d) => (standIns.set(id, d), subs.push(d));
  for (const { command } of c.commands) standIn(command, vscode.commands.registerCommand(command, none));
  for (const view of Object.values(c.views).flat()) standIn(view.id, vscode.window.registerTreeDataProvider(view.id, { getTreeItem: (e) => e, getChildren: () => [] }));
  for (const scheme of SCHEMES) subs.push(vscode.workspace.registerTextDocumentContentProvider(scheme, { provideTextDocumentContent: () => '' }));
  for (const viewType of WEBVIEW_TYPES) subs.push(vscode.window.registerWebviewPanelSerializer(viewType, { deserializeWebviewPanel: async () => undefined }));
  if (lm) for (const { name } of c.languageModelTools || []) subs.push(lm.registerTool(name, { invoke: async () => new vscode.LanguageModelToolResult([]) }));
  // The first use's floor: what our first use of the Connections view with Updates registers in place of
  // its stand-ins (the views of the features it activates; their commands keep their stand-ins), empty.
  const firstUse = context.extension.packageJSON.benchFloorFirstUse;
  let used = false;
  return {
    get firstUse() {
      if (!used && firstUse) {
        used = true;
        for (const view of firstUse.views) {
          standIns.get(view).dispose();
          subs.push(vscode.window.createTreeView(view, { treeDataProvider: { getTreeItem: (e) => e, getChildren: () => [] } }));
        }
      }
      return used;
    },
  };
};
exports.deactivate = function () {};
`;

/**
 * The floor extension: our package.json's contributions renamed (cantonLedger → benchFloor, canton_ →
 * benchfloor_); with `firstUseIds` (our views that the first use creates in place of their stand-ins), its
 * API's `firstUse` creates those again.
 */
function writeFloor(dir, ours, firstUseIds) {
  const keep = { commands: ours.commands, viewsContainers: ours.viewsContainers, views: ours.views, languageModelTools: ours.languageModelTools, mcpServerDefinitionProviders: ours.mcpServerDefinitionProviders };
  const rename = (x) => JSON.parse(JSON.stringify(x).replaceAll('cantonLedger', 'benchFloor').replaceAll('"canton_', '"benchfloor_'));
  writeBenchExtension(dir, FLOOR_ID, {
    title: 'Activation floor',
    description: "Canton Ledger Explorer's contributions, each registered with an empty handler (test/bench/extensionCost.mjs).",
    manifest: { main: './floor.js', contributes: rename(keep), ...(firstUseIds ? { benchFloorFirstUse: rename(firstUseIds) } : {}) },
    files: { 'floor.js': FLOOR_JS },
  });
  mkdirSync(path.join(dir, 'media'), { recursive: true });
  for (const icon of new Set(Object.values(keep.viewsContainers).flat().map((v) => v.icon))) copyFileSync(path.join(ROOT, icon), path.join(dir, icon));
}

function writeProbe(dir) {
  writeBenchExtension(dir, PROBE_ID, {
    title: 'Activation probe',
    description: 'Times the first activation of other extensions (test/bench/extensionCost.mjs).',
    manifest: { activationEvents: ['onStartupFinished'], main: './probe.js' },
    files: { 'probe.js': PROBE_JS },
  });
}

/** A generated extension of the benchmark, in a fresh `dir`: its manifest, files, README and licence. */
function writeBenchExtension(dir, id, { title, description, manifest, files }) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const [publisher, name] = id.split('.');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    name, publisher, version: '0.0.1', private: true, license: 'Apache-2.0',
    displayName: `${title} (benchmark)`,
    description,
    repository: { type: 'git', url: 'https://example.invalid/canton-ledger-explorer.git' },
    engines: { vscode: '^1.96.0' },
    ...manifest,
  }, null, 2) + '\n');
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  writeFileSync(path.join(dir, 'README.md'), `# ${title}\n\nGenerated by test/bench/extensionCost.mjs.\n`);
  copyFileSync(path.join(HELLO_DIR, 'LICENSE'), path.join(dir, 'LICENSE'));
}

// ------------------------------------------------------------------------------------------- processes

/** Every code-server process group and browser started here; stopped in `finally`, on exit and on signals. */
function tracker() {
  const servers = new Set();
  const browsers = new Set();
  const killAllSync = () => {
    for (const s of servers) {
      try {
        process.kill(-s.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  };
  const onSignal = async (sig) => {
    await stopAll();
    detach();
    process.kill(process.pid, sig); // the default behaviour (or the caller's handlers) from here on
  };
  const handlers = {};
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    // Only where nobody else handles the signal: a caller with its own handlers stays in charge,
    // and the `exit` hook below still stops code-server when it exits.
    if (process.listenerCount(sig) === 0) {
      handlers[sig] = () => void onSignal(sig);
      process.on(sig, handlers[sig]);
    }
  }
  process.on('exit', killAllSync);
  async function stopAll() {
    for (const b of browsers) await b.close().catch(() => {});
    browsers.clear();
    await Promise.all([...servers].map((s) => s.stop().catch(() => {})));
    servers.clear();
  }
  function detach() {
    for (const [sig, h] of Object.entries(handlers)) process.off(sig, h);
    process.off('exit', killAllSync);
  }
  return { servers, browsers, stopAll, detach };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const round = (x, d = 2) => (x === null || x === undefined ? x : Math.round(x * 10 ** d) / 10 ** d);

// ------------------------------------------------------------------------------------------- measurement

/**
 * Measures the packaged size and the activation time of the extension and of the hello-world baseline.
 * Resolves to `{ bundle, activation, vscodeVersion }` (see the top of this file); throws when it cannot.
 */
export async function measureExtensionCost({ runs = 5, log = (m) => console.error(m), cpuProfileDir } = {}) {
  const t0 = Date.now();
  const lap = (m) => log(`[extension cost +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
  const base = process.env.BENCH_RESULTS_DIR ? path.resolve(process.env.BENCH_RESULTS_DIR) : path.join(ROOT, 'test-results', 'bench');
  const work = path.join(base, 'extension-cost');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });

  // 1. Packages.
  const runtime = ensureRuntime({ log: lap });
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const contributes = manifest.contributes;
  const mainJs = path.join(ROOT, manifest.main ?? './dist/extension.js');
  const devBuild = existsSync(mainJs) && /\/\/# sourceMappingURL=\S+\s*$/.test(readFileSync(mainJs, 'utf8').slice(-300));
  if (devBuild) lap(`note: ${path.relative(ROOT, mainJs)} links a source map: a development build (npm run build:production for the shipped size)`);
  const oursVsix = path.join(work, 'ours.vsix');
  copyFileSync(packageExtension({ log: lap }), oursVsix);
  const helloVsix = vscePackage(HELLO_DIR, path.join(work, 'hello-world.vsix'));
  const floorDir = path.join(work, 'floor-src');
  const firstUseIds = await firstUseRegistrations(contributes);
  if (!firstUseIds) lap('note: no first-use floor (src/vscode/owners.ts could not be imported: run with node --import tsx)');
  writeFloor(floorDir, contributes, firstUseIds);
  const floorVsix = vscePackage(floorDir, path.join(work, 'floor.vsix'));
  rmSync(floorDir, { recursive: true, force: true });
  const probeDir = path.join(work, 'probe-src');
  writeProbe(probeDir);
  const probeVsix = vscePackage(probeDir, path.join(work, 'probe.vsix'));
  rmSync(probeDir, { recursive: true, force: true });
  const ours = vsixJs(oursVsix);
  const hello = vsixJs(helloVsix);
  lap(`JavaScript in the .vsix: ours ${(ours.bytes / 1024).toFixed(1)} KB (${ours.files.map((f) => `${f.path} ${(f.bytes / 1024).toFixed(1)} KB`).join(', ')}), hello-world ${(hello.bytes / 1024).toFixed(2)} KB`);

  // 2. One extensions dir with all three, an empty workspace.
  const env0 = {
    dir: work,
    ws: path.join(work, 'ws'),
    xdg: { config: path.join(work, 'xdg', 'config'), data: path.join(work, 'xdg', 'data'), cache: path.join(work, 'xdg', 'cache') },
  };
  const exts = path.join(work, 'exts');
  for (const d of [env0.ws, exts, ...Object.values(env0.xdg)]) mkdirSync(d, { recursive: true });
  const newUserDataDir = (dir, settings = MEASURE_SETTINGS) => {
    const ud = path.join(dir, 'ud');
    mkdirSync(path.join(ud, 'User'), { recursive: true });
    writeFileSync(path.join(ud, 'User', 'settings.json'), JSON.stringify(settings, null, 2) + '\n');
    return ud;
  };
  const installLog = path.join(work, 'install.log');
  codeServerCli({
    ...runtime,
    env: serverEnv(env0),
    logFile: installLog,
    args: ['--user-data-dir', newUserDataDir(path.join(work, 'install')), '--extensions-dir', exts,
      ...[oursVsix, helloVsix, floorVsix, probeVsix].flatMap((v) => ['--install-extension', v])],
  });
  const installed = readdirSync(exts).filter((d) => !d.startsWith('.') && d !== 'extensions.json');
  for (const id of [OURS_ID, HELLO_ID, FLOOR_ID, PROBE_ID]) {
    if (!installed.some((d) => d.toLowerCase().startsWith(`${id.toLowerCase()}-`))) {
      throw new Error(`${id} is not in the extensions dir after --install-extension (found: ${installed.join(', ') || 'nothing'}); see ${installLog}`);
    }
  }
  lap(`installed in one extensions dir: ${installed.join(', ')}`);

  // 3. Runs: a fresh code-server and extension host each.
  const { chromium } = await import('playwright-core');
  const procs = tracker();
  const samples = [];
  const floorSamples = [];
  let vscodeVersion;
  let startupCheck;
  try {
    const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: BROWSER_ARGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
    procs.browsers.add(browser);
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? [HELLO_ID, OURS_ID] : [OURS_ID, HELLO_ID];
      let lastError;
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const dir = path.join(work, 'runs', `${i + 1}${attempt > 1 ? `-attempt${attempt}` : ''}`);
        mkdirSync(dir, { recursive: true });
        try {
          // The first window after the install (no code cache yet), then a window with the same user data,
          // which finds the code cache the first one left: the first use as it is in every window after.
          const ud = newUserDataDir(dir);
          const r = await oneRun({ browser, runtime, procs, env0, exts, dir, ud, order, cpuProfileDir, awaitCodeCache: true });
          vscodeVersion ??= r.vscodeVersion;
          const by = Object.fromEntries(r.samples.map((s) => [s.id, s]));
          const nextDir = `${dir}-next-window`;
          mkdirSync(nextDir, { recursive: true });
          const next = await oneRun({ browser, runtime, procs, env0, exts, dir: nextDir, ud, order, cpuProfileDir });
          samples.push({ run: i + 1, order, ours: by[OURS_ID], hello: by[HELLO_ID], firstUseMs: r.firstUse?.ms ?? null, firstUseSteps: r.firstUse?.steps ?? null,
            nextWindowSteps: next.firstUse?.steps ?? null, attempt });
          lap(`run ${i + 1}/${runs} (${order[0] === OURS_ID ? 'ours' : 'hello-world'} first): ours ${describe(by[OURS_ID])} | hello-world ${describe(by[HELLO_ID])}; ` +
            `first use ${r.firstUse?.ms.toFixed(2)} ms, in the next window ${next.firstUse?.ms.toFixed(2)} ms`);
          lastError = undefined;
          break;
        } catch (e) {
          lastError = e;
          lap(`run ${i + 1}/${runs}, attempt ${attempt}/${ATTEMPTS} failed: ${e.message.split('\n').slice(0, 12).join('\n    ')}`);
        }
      }
      if (lastError) throw new Error(`activation run ${i + 1} failed ${ATTEMPTS} times; last: ${lastError.message}\n(logs under ${path.relative(ROOT, work)}/runs/)`);
    }
    // The floor in windows of its own, next to hello-world as ours is: in one extension host the first
    // extension to register a tree view, a tool or an MCP provider pays VS Code's first use of that part
    // of its API, which would make whichever goes after the other look cheaper.
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? [HELLO_ID, FLOOR_ID] : [FLOOR_ID, HELLO_ID];
      let lastError;
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const dir = path.join(work, 'runs', `floor-${i + 1}${attempt > 1 ? `-attempt${attempt}` : ''}`);
        mkdirSync(dir, { recursive: true });
        try {
          const r = await oneRun({ browser, runtime, procs, env0, exts, dir, ud: newUserDataDir(dir), order, firstUse: firstUseIds ? FLOOR_FIRST_USE : null });
          const floor = r.samples.find((x) => x.id === FLOOR_ID);
          floorSamples.push({ ...floor, firstUseMs: r.firstUse?.ms ?? null });
          lap(`floor run ${i + 1}/${runs}: floor ${describe(floor)}${r.firstUse ? `; first use ${r.firstUse.ms.toFixed(2)} ms` : ''}`);
          lastError = undefined;
          break;
        } catch (e) {
          lastError = e;
          lap(`floor run ${i + 1}/${runs}, attempt ${attempt}/${ATTEMPTS} failed: ${e.message.split('\n').slice(0, 12).join('\n    ')}`);
        }
      }
      if (lastError) throw new Error(`floor run ${i + 1} failed ${ATTEMPTS} times; last: ${lastError.message}`);
    }
    // One more window with the default (quiet) settings: does either extension get activated by itself?
    try {
      const dir = path.join(work, 'runs', 'startup-check');
      mkdirSync(dir, { recursive: true });
      const ud = newUserDataDir(dir, QUIET_SETTINGS);
      const r = await oneRun({ browser, runtime, procs, env0, exts, dir, ud, order: [OURS_ID, HELLO_ID], mode: 'check' });
      const events = activationEvents(ud);
      const marks = (id) => (r.activeBefore[id] ? r.marks?.[id] ?? null : null);
      startupCheck = {
        settings: 'the quiet e2e settings (test/e2e/lib/runDir.mjs), empty workspace, no file opened',
        ours: { activatedAtStartup: r.activeBefore[OURS_ID], activationEvent: events[OURS_ID] ?? null, vscodeMarks: marks(OURS_ID) },
        hello: { activatedAtStartup: r.activeBefore[HELLO_ID], activationEvent: events[HELLO_ID] ?? null, vscodeMarks: marks(HELLO_ID) },
      };
      lap(`startup check (default settings, empty workspace): ours ${startupCheck.ours.activatedAtStartup ? `activated at startup by ${startupCheck.ours.activationEvent}` : 'not activated'}, ` +
        `hello-world ${startupCheck.hello.activatedAtStartup ? `activated at startup by ${startupCheck.hello.activationEvent}` : 'not activated'}`);
    } catch (e) {
      startupCheck = { error: e.message.split('\n')[0] };
      lap(`startup check failed (not fatal): ${e.message.split('\n').slice(0, 6).join('\n    ')}`);
    }
  } finally {
    await procs.stopAll();
    procs.detach();
  }

  vscodeVersion ??= readCodeServerVsCodeVersion();
  // The figure: code loading + activate() (until its promise resolved), the two phases of VS Code's
  // ActivationTimes, timed at high resolution; VS Code's own 1 ms marks of the same phases if that failed.
  const hiResOk = [...samples.flatMap((s) => [s.ours, s.hello]), ...floorSamples].every((x) => x.hiRes.codeLoadingMs !== null && x.hiRes.activateResolvedMs !== null);
  const pick = (x) => round(hiResOk ? x.hiRes.codeLoadingMs + x.hiRes.activateResolvedMs : x.vscode.codeLoadingMs + x.vscode.activateMs);
  const oursMs = samples.map((s) => pick(s.ours));
  const helloMs = samples.map((s) => pick(s.hello));
  const floorMs = floorSamples.map((x) => pick(x));
  const detail = (x) => ({
    ms: pick(x),
    codeLoadingMs: round(x.hiRes.codeLoadingMs),
    activateCallMs: round(x.hiRes.activateCallMs),
    activateResolvedMs: round(x.hiRes.activateResolvedMs),
    vscodeMarks: { codeLoadingMs: x.vscode.codeLoadingMs, activateMs: x.vscode.activateMs, loadToActivatedMs: x.vscode.loadToActivatedMs },
    // from the start of require() to activate() resolved: also waits for the extension context (storage
    // read through the renderer), which VS Code prepares in parallel with code loading
    loadToActivatedMs: round(x.hiRes.loadToActivatedMs),
    // what the caller of getExtension(id).activate() waits, end to end
    wallMs: round(x.wallMs),
  });
  const flat = (x) => {
    const d = detail(x);
    return { ms: d.ms, codeLoadingMs: d.codeLoadingMs, activateResolvedMs: d.activateResolvedMs, vscodeCodeLoadingMs: d.vscodeMarks.codeLoadingMs,
      vscodeActivateMs: d.vscodeMarks.activateMs, loadToActivatedMs: d.loadToActivatedMs, wallMs: d.wallMs };
  };
  const result = {
    // The bundles of those features (one in the kit bundle has none of its own).
    firstUseFeatureBundles: FIRST_USE_FEATURES.filter((name) => BUNDLED_FEATURES.includes(name)).map((name) => `feature.${name}.js`),
    floor: {
      commands: contributes.commands.length,
      views: Object.values(contributes.views).flat().length,
      tools: (contributes.languageModelTools ?? []).length,
      firstUse: firstUseIds ? { views: firstUseIds.views.length } : null,
    },
    bundle: { oursJsBytes: ours.bytes, helloJsBytes: hello.bytes, oursFiles: ours.files, helloFiles: hello.files, developmentBuild: devBuild },
    activation: {
      oursMs,
      helloMs,
      floorMs,
      oursMedianMs: median(oursMs),
      helloMedianMs: median(helloMs),
      floorMedianMs: median(floorMs),
      method: (hiResOk
        ? 'code loading (require of the main) + activate() until resolved, the phases of VS Code\'s ActivationTimes ("Developer: Show Running Extensions"), timed with performance.now() around the extension host\'s own calls'
        : 'code loading + activate() from VS Code\'s own extension-host marks code/extHost/{will,did}LoadExtensionCode and {will,did}ActivateExtension (1 ms resolution)') +
        `; the first activation of each in a fresh code-server extension host (${samples.length} runs), triggered by a probe extension ` +
        'with getExtension(id).activate() after startup settled, empty workspace, order alternating',
      samples: samples.map((s) => ({ run: s.run, first: s.order[0] === OURS_ID ? 'ours' : 'hello', ours: detail(s.ours), hello: detail(s.hello) })),
      floorSamples: floorSamples.map((x) => ({ ...detail(x), firstUseMs: round(x.firstUseMs) })),
      floorFirstUseMedianMs: (() => {
        const ms = floorSamples.map((x) => x.firstUseMs).filter((x) => typeof x === 'number');
        return ms.length ? round(median(ms)) : null;
      })(),
      medians: {
        ours: medians(samples.map((s) => flat(s.ours))),
        hello: medians(samples.map((s) => flat(s.hello))),
        floor: medians(floorSamples.map(flat)),
      },
    },
    // Our first use, after the activation: loading the features (see FIRST_USE).
    firstUse: (() => {
      const ms = samples.map((s) => s.firstUseMs).filter((x) => typeof x === 'number');
      // Each feature's added cost: the median over the runs of the first read of its part of the API.
      const stepsOf = (key) =>
        FIRST_USE.steps.map((step, i) => {
          const stepMs = samples.map((s) => s[key]?.[i]?.ms).filter((x) => typeof x === 'number');
          return { property: step.property, what: step.what, ms: stepMs.map((x) => round(x)), medianMs: stepMs.length ? round(median(stepMs)) : null };
        });
      return { ms: ms.map((x) => round(x)), medianMs: ms.length ? round(median(ms)) : null, what: `the first read of api.${FIRST_USE.steps[0].property} (loads dist/features.js, the host, and activates the Connections feature)`,
        // the first window after the install, which compiles every bundle
        steps: stepsOf('firstUseSteps'),
        // a window after it, whose bundles compile with the code cache the first one left
        nextWindowSteps: stepsOf('nextWindowSteps') };
    })(),
    startupCheck,
    vscodeVersion,
  };
  lap(`activation medians: ours ${result.activation.oursMedianMs} ms, hello-world ${result.activation.helloMedianMs} ms, floor ${result.activation.floorMedianMs} ms (${(Date.now() - t0) / 1000}s in all)`);
  return result;
}

function medians(rows) {
  const out = {};
  for (const k of Object.keys(rows[0] ?? {})) {
    const xs = rows.map((r) => r[k]).filter((x) => typeof x === 'number');
    out[k] = xs.length ? round(median(xs)) : null;
  }
  return out;
}

function describe(s) {
  if (!s) return '(missing)';
  const v = s.vscode;
  const h = s.hiRes;
  return `load ${h.codeLoadingMs?.toFixed(2)} + activate ${h.activateResolvedMs?.toFixed(2)} ms ` +
    `[VS Code marks: ${v.codeLoadingMs} + ${v.activateMs}; to activated ${h.loadToActivatedMs?.toFixed(1)}, wall ${s.wallMs.toFixed(1)}]`;
}

function readCodeServerVsCodeVersion() {
  try {
    return JSON.parse(readFileSync(path.join(CS_PREFIX, 'node_modules', 'code-server', 'lib', 'vscode', 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/** One fresh code-server + browser page; resolves to the probe's result once it is valid. */
async function oneRun({ browser, runtime, procs, env0, exts, dir, ud, order, mode = 'measure', cpuProfileDir, firstUse = FIRST_USE, awaitCodeCache = false }) {
  const out = path.join(dir, 'probe.json');
  const logFile = path.join(dir, 'code-server.log');
  const env = serverEnv(env0, {
    BENCH_PROBE_OUT: out,
    BENCH_PROBE_ORDER: JSON.stringify(order),
    BENCH_PROBE_SETTLE_MS: String(SETTLE_MS),
    BENCH_PROBE_GAP_MS: String(GAP_MS),
    BENCH_PROBE_MODE: mode,
    ...(firstUse ? { BENCH_PROBE_FIRST_USE: JSON.stringify(firstUse) } : {}),
    ...(awaitCodeCache ? { BENCH_PROBE_AWAIT_CODE_CACHE: '1' } : {}),
    ...(cpuProfileDir ? { BENCH_PROBE_CPU_PROFILE: path.join(cpuProfileDir, `run-${path.basename(dir)}`) } : {}),
  });
  const started = Date.now();
  const server = await startCodeServer({ ...runtime, port: await freePort(), userDataDir: ud, extensionsDir: exts, workspace: env0.ws, env, logFile, timeoutMs: 90000 });
  procs.servers.add(server);
  let context;
  try {
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${server.url}/?folder=${encodeURIComponent(env0.ws)}`, { timeout: 90000 });
    while (!existsSync(out)) {
      if (Date.now() - started > RUN_TIMEOUT_MS) {
        await page.screenshot({ path: path.join(dir, 'timeout.png') }).catch(() => {});
        throw new Error(`no result from the probe within ${RUN_TIMEOUT_MS / 1000}s (page errors: ${pageErrors.slice(0, 3).join(' | ') || 'none'});\n` +
          `code-server log:\n${tail(logFile, 10)}${exthostLog(ud)}`);
      }
      await sleep(200);
    }
    const r = JSON.parse(readFileSync(out, 'utf8'));
    if (r.error) throw new Error(`the probe reported: ${r.error}${exthostLog(ud)}`);
    if (mode === 'check') return r;
    for (const id of order) {
      const s = r.samples.find((x) => x.id === id);
      if (!s) throw new Error(`the probe reported no sample for ${id}`);
      if (s.wasActive || !s.isActive) throw new Error(`${id}: not a first activation (active before: ${s.wasActive}, after: ${s.isActive})`);
      if (s.vscode.loadToActivatedMs === null && s.hiRes.loadToActivatedMs === null) throw new Error(`${id}: no timing recorded (marks: ${JSON.stringify(s.vscode)})`);
    }
    return r;
  } finally {
    await context?.close().catch(() => {});
    await server.stop();
    procs.servers.delete(server);
  }
}

/** `{ extensionId: activationEvent }` from the extension host log's `_doActivateExtension` lines (info level). */
function activationEvents(ud) {
  const out = {};
  const file = exthostLogFile(ud);
  if (!file) return out;
  for (const m of readFileSync(file, 'utf8').matchAll(/_doActivateExtension (\S+), startup: \w+, activationEvent: '([^']*)'/g)) out[m[1]] ??= m[2];
  return out;
}

function exthostLogFile(ud) {
  try {
    const logs = path.join(ud, 'logs');
    const found = readdirSync(logs, { recursive: true }).map(String).filter((f) => /exthost\d*[\\/](remote)?exthost\.log$/.test(f));
    return found.length ? path.join(logs, found[0]) : undefined;
  } catch {
    return undefined;
  }
}

function exthostLog(ud) {
  try {
    const logs = path.join(ud, 'logs');
    const found = readdirSync(logs, { recursive: true }).map(String).filter((f) => /exthost\d*[\\/]remoteexthost\.log$|exthost\d*[\\/]exthost\.log$/.test(f));
    return found.length ? `\nextension host log (${found[0]}):\n${tail(path.join(logs, found[0]), 15)}` : '';
  } catch {
    return '';
  }
}

// ------------------------------------------------------------------------------------------- CLI

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--runs');
  const runs = at >= 0 ? Number(argv[at + 1]) : 5;
  const profileAt = argv.indexOf('--cpu-profile');
  const cpuProfileDir = profileAt >= 0 ? path.resolve(argv[profileAt + 1] ?? '') : undefined;
  if (!Number.isInteger(runs) || runs < 1 || (profileAt >= 0 && !argv[profileAt + 1])) {
    console.error('usage: node --import tsx test/bench/extensionCost.mjs [--runs N] [--cpu-profile DIR]   (N >= 1, default 5; DIR: V8 CPU profiles of the activations and the first use, for DevTools)');
    process.exit(2);
  }
  measureExtensionCost({ runs, cpuProfileDir })
    .then((r) => {
      process.stdout.write(JSON.stringify(r, null, 2) + '\n');
    })
    .catch((e) => {
      console.error(`[extension cost] FAILED: ${e.stack ?? e}`);
      process.exitCode = 1;
    });
}
