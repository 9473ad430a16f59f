#!/usr/bin/env node
// End-to-end tests of the extension in a real VS Code: code-server (VS Code 1.139) on Node 24, driven
// from Debian's Chromium by playwright-core. The "e2e" suite of scripts/test-all.mjs.
//
//   node test/e2e/run.mjs [host] [ui] [--grep PATTERN]
//
// 1. setup: Node 24 + code-server under .vscode-test/ (reused), the .vsix (vsce package), the in-host
//    suites compiled to .vscode-test/e2e-out/. dist/ must be built first (npm run build).
// 2. "host": mocha inside the extension host (test/e2e/suite/**/*.test.ts) in a code-server started with
//    --vscode-option enable-smoke-test-driver, the repo as extensionDevelopmentPath.
// 3. "ui": the .vsix installed in a second code-server; checks (test/e2e/ui/*.ui.mjs) in Chromium.
// 4. secret scan: no registered secret in any file of the run dir.
// Each in-host test, UI check and the scan count once in the last line, `N passed, N failed[, N skipped]`.
// Everything of the run is kept in test-results/e2e/<timestamp>/ (test-results/e2e/latest).
//
// Environment: E2E_GREP (mocha grep; in the ui phase it picks the check files by name), E2E_EXTENSION_ROOT (another extension folder, to debug the
// harness), E2E_CHROMIUM (browser binary), E2E_TIMEOUT_S (watchdog of the checks, from the end of the set-up: default 1800; the set-up,
// which installs code-server on a fresh machine, has one of its own: E2E_SETUP_TIMEOUT_S, default 1200).
import { chromium } from 'playwright-core';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';
import { pathToFileURL } from 'node:url';
import { ROOT, SetupError, chromiumPath, ensureRuntime, packageExtension } from './setup.mjs';
import { buildInHostTests } from './lib/buildTests.mjs';
import { cleanupAll, codeServerCli, freePort, installExitHandlers, onCleanup, startCodeServer, tail } from './lib/processes.mjs';
import { createRunDir, serverEnv, WORKSPACE_FILES } from './lib/runDir.mjs';
import { describeSecret, readSecrets, registerSecret, scanForSecrets } from './lib/secrets.mjs';
import * as ui from './ui/lib.mjs';

const TEST_PREFIX = 'E2E-MOCHA-TEST ';
const RESULT_PREFIX = 'E2E-MOCHA-RESULT ';
const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

const argv = process.argv.slice(2);
const grepIdx = argv.indexOf('--grep');
const GREP = grepIdx >= 0 ? argv[grepIdx + 1] : process.env.E2E_GREP;
const phases = argv.filter((a, i) => !a.startsWith('--') && (grepIdx < 0 || i !== grepIdx + 1));
const RUN_HOST = !phases.length || phases.includes('host');
const RUN_UI = !phases.length || phases.includes('ui');
const EXT_ROOT = path.resolve(process.env.E2E_EXTENSION_ROOT || ROOT);
const WATCHDOG_S = Number(process.env.E2E_TIMEOUT_S) || 1800;
const SETUP_WATCHDOG_S = Number(process.env.E2E_SETUP_TIMEOUT_S) || 1200;

const T0 = Date.now();
const results = []; // { kind: 'host'|'ui'|'scan'|'harness', name, state: 'passed'|'failed'|'pending', ms?, error? }
let run; // the run dir
let summarized = false;

const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;
function lap(msg) {
  if (summarized) return;
  console.log(`[e2e +${secs(Date.now() - T0)}] ${msg}`);
}

function loud(title, detail) {
  if (summarized) return; // interrupted: the summary is out, stay quiet while exiting
  const bar = '!'.repeat(100);
  console.log(`\n${bar}\n!!! E2E: ${title}\n${bar}\n${detail ? detail.trimEnd() + '\n' + bar + '\n' : ''}`);
}

function record(kind, name, state, extra = {}) {
  if (summarized) return;
  results.push({ kind, name, state, ...extra });
  const mark = state === 'passed' ? 'ok  ' : state === 'pending' ? 'skip' : 'FAIL';
  const ms = extra.ms !== undefined ? ` (${extra.ms}ms)` : '';
  console.log(`  ${mark} [${kind}] ${name}${ms}${state === 'failed' && extra.error ? `: ${String(extra.error).split('\n').join('\n         ')}` : ''}`);
}

function summary(note) {
  if (summarized) return;
  summarized = true;
  const passed = results.filter((r) => r.state === 'passed').length;
  const failed = results.filter((r) => r.state === 'failed').length;
  const skipped = results.filter((r) => r.state === 'pending').length;
  if (run) {
    try {
      writeFileSync(path.join(run.dir, 'results.json'), JSON.stringify({ note, ms: Date.now() - T0, passed, failed, skipped, results }, null, 2) + '\n');
    } catch {
      /* the dir may be gone */
    }
  }
  const failures = results.filter((r) => r.state === 'failed');
  if (failures.length) {
    console.log(`\nFailed:`);
    for (const f of failures) console.log(`  - [${f.kind}] ${f.name}${f.screenshot ? ` (${f.screenshot})` : ''}`);
  }
  console.log(`\n[e2e] ${note ? note + '; ' : ''}${secs(Date.now() - T0)} in all${run ? `; run dir ${path.relative(process.cwd(), run.dir) || run.dir}` : ''}`);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------

async function launchBrowser() {
  const context = await chromium.launchPersistentContext(run.browser, {
    executablePath: chromiumPath(),
    headless: true,
    args: BROWSER_ARGS,
    viewport: { width: 1400, height: 900 },
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  onCleanup(() => context.close());
  return context;
}

/**
 * Closes a workbench page the way a user closing the tab would: VS Code web keeps state (globalState,
 * workspace state) in memory and writes it to the browser's IndexedDB every 5 s or on unload, so a
 * plain close would lose what the secret scan must see. Runs the unload handlers and waits for the close.
 */
async function closePage(page) {
  page.on('dialog', (d) => d.accept().catch(() => {}));
  const closed = page.waitForEvent('close', { timeout: 10000 }).catch(() => {});
  await page.close({ runBeforeUnload: true }).catch(() => {});
  await closed;
  if (!page.isClosed()) await page.close().catch(() => {});
  await new Promise((r) => setTimeout(r, Number(process.env.E2E_CLOSE_GRACE_MS ?? 500)));
}

/** Phase "host": mocha in the extension host, reported test by test through codeAutomationLog. */
async function runInHost(context, runtime, testsEntry) {
  const port = await freePort();
  const logFile = path.join(run.host.dir, 'code-server.log');
  const consoleLog = path.join(run.host.dir, 'exthost-console.log');
  const server = await startCodeServer({
    ...runtime, port, userDataDir: run.host.ud, extensionsDir: run.host.exts, workspace: run.ws, logFile,
    env: serverEnv(run, GREP ? { E2E_GREP: GREP } : {}),
    extraArgs: ['--vscode-option', 'enable-smoke-test-driver'],
  });
  lap(`in-host code-server healthy on ${server.host} (${server.startMs}ms)`);
  const page = await context.newPage();
  let counted = 0;
  let result;
  let resolveExit;
  const exited = new Promise((r) => (resolveExit = r));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const line = util.format(...(Array.isArray(args) ? args : [args]));
    appendFileSync(consoleLog, `[${type}] ${line}\n`);
    for (const [prefix, handle] of [[TEST_PREFIX, onTest], [RESULT_PREFIX, (r) => (result = r)]]) {
      const at = line.indexOf(prefix);
      if (at < 0) continue;
      const json = line.slice(at + prefix.length, line.lastIndexOf('}') + 1);
      try {
        handle(JSON.parse(json));
      } catch {
        /* not ours */
      }
    }
  });
  function onTest(t) {
    counted++;
    record('host', t.title, t.state, { ms: t.ms, error: t.error });
  }
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(code));
  page.on('pageerror', (e) => appendFileSync(consoleLog, `[pageerror] ${e.message}\n`));

  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://${server.host}${EXT_ROOT}`],
    ['extensionTestsPath', `vscode-remote://${server.host}${testsEntry}`],
  ];
  const t0 = Date.now();
  await page.goto(`${server.url}/?folder=${encodeURIComponent(run.ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
  const limit = Number(process.env.E2E_HOST_TIMEOUT_S) || 480;
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), limit * 1000).unref())]);
  lap(`in-host mocha finished: exit code ${code} after ${secs(Date.now() - t0)}; console: ${path.relative(process.cwd(), consoleLog)}`);
  await page.screenshot({ path: path.join(run.dir, 'host-final.png') }).catch(() => {});
  await closePage(page);
  await server.stop();

  if (code === 'timeout') {
    record('host', `in-host mocha did not finish within ${limit}s`, 'failed', { error: `${counted} test(s) reported; see ${consoleLog}\n${tail(consoleLog, 15)}` });
  } else if (!result) {
    record('host', 'in-host mocha reported no result', 'failed', {
      error: `exit code ${code}; the tests entry may not have loaded (see ${consoleLog}):\n${tail(consoleLog, 15)}`,
    });
  } else if (code !== 0 && result.failed === 0) {
    record('host', `in-host mocha exited with ${code} though no test failed`, 'failed', { error: tail(consoleLog, 15) });
  } else if (counted === 0) {
    record('host', 'in-host mocha ran no test', 'failed', { error: 'no suite under test/e2e/suite?' });
  }
}

/** Phase "ui": the .vsix installed, checks in Chromium against a normal code-server. */
async function runUi(context, runtime, vsix) {
  const env = serverEnv(run);
  const installLog = path.join(run.ui.dir, 'install.log');
  const t0 = Date.now();
  try {
    codeServerCli({ ...runtime, env, logFile: installLog, args: ['--user-data-dir', run.ui.ud, '--extensions-dir', run.ui.exts, '--install-extension', vsix] });
    const installed = readdirSync(run.ui.exts).filter((d) => !d.startsWith('.') && d !== 'extensions.json');
    if (!installed.length) throw new Error(`nothing in the extensions dir after install; see ${installLog}`);
    record('ui', `the .vsix installs (${installed.join(', ')})`, 'passed', { ms: Date.now() - t0 });
  } catch (e) {
    record('ui', 'the .vsix installs', 'failed', { error: e.message });
    return;
  }

  const port = await freePort();
  const server = await startCodeServer({ ...runtime, port, userDataDir: run.ui.ud, extensionsDir: run.ui.exts, workspace: run.ws, env, logFile: path.join(run.ui.dir, 'code-server.log') });
  lap(`UI code-server healthy on ${server.host} (${server.startMs}ms)`);
  const page = await context.newPage();
  page.on('pageerror', (e) => appendFileSync(path.join(run.ui.dir, 'page-errors.log'), `${e.message}\n`));
  const uiResults = [];
  const check = ui.createChecks({ page, runDir: run.dir, results: uiResults, log: () => {} });
  const checkAndRecord = async (name, fn, opts) => {
    const ok = await check(name, fn, opts);
    const r = uiResults[uiResults.length - 1];
    record('ui', r.name, r.state, { ms: r.ms, error: r.error ? `${r.error}\n         screenshot: ${r.screenshot}` : undefined, screenshot: r.screenshot });
    return ok;
  };

  await page.goto(`${server.url}/?folder=${encodeURIComponent(run.ws)}`);
  const firstFile = Object.keys(WORKSPACE_FILES)[0];
  const loaded = await checkAndRecord('workbench loads with the workspace', async () => {
    await ui.waitForWorkbench(page, firstFile, 60000);
    for (const f of Object.keys(WORKSPACE_FILES)) await ui.waitForWorkbench(page, f, 5000);
  }, { timeout: 70000 });
  lap('workbench ready');

  if (!loaded) {
    record('ui', 'UI check files not run: the workbench never loaded', 'failed', { error: `see ${path.join(run.ui.dir, 'code-server.log')}` });
  } else {
    const t = {
      page,
      runDir: run.dir,
      workspace: run.ws,
      check: checkAndRecord,
      /** Registers a secret for the scan; returns it. */
      secret: (value) => registerSecret(run.dir, value),
      screenshot: (name) => page.screenshot({ path: path.join(run.dir, `${ui.slug(name)}.png`) }),
    };
    // Every helper, bound to the page: t.palette(title), t.toast(text), t.openView(title), ...
    for (const [k, fn] of Object.entries(ui)) {
      if (typeof fn === 'function' && !['createChecks', 'slug', 'contextMenu', 'contextMenuItems', 'waitUntil'].includes(k)) t[k] = (...a) => fn(page, ...a);
    }
    t.contextMenu = ui.contextMenu;
    t.contextMenuItems = ui.contextMenuItems;
    t.waitUntil = ui.waitUntil;

    const dir = path.join(ROOT, 'test', 'e2e', 'ui');
    // --grep also picks UI check files by name (a check file is one flow; its checks share state).
    const wanted = (f) => !GREP || new RegExp(GREP).test(f);
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.ui.mjs') && wanted(f)).sort()) {
      lap(`UI checks: ${f}`);
      try {
        const mod = await import(pathToFileURL(path.join(dir, f)).href);
        await mod.default(t);
      } catch (e) {
        record('ui', `${f} crashed outside a check`, 'failed', { error: e.stack ?? String(e) });
        await page.keyboard.press('Escape').catch(() => {});
      }
    }
  }
  await closePage(page);
  await server.stop();
}

function secretScan() {
  const t0 = Date.now();
  const secrets = readSecrets(run.dir);
  const { files, bytes, hits } = scanForSecrets(run.dir, secrets);
  const name = `secret scan: ${secrets.length} registered secret(s) in ${files} files (${(bytes / 1e6).toFixed(1)} MB) of the run dir`;
  if (hits.length) {
    const lines = hits.map((h) => `secret ${describeSecret(secrets[h.secretIndex])} (${h.form}) in ${h.file}`);
    record('scan', name, 'failed', { ms: Date.now() - t0, error: lines.slice(0, 20).join('\n') + (lines.length > 20 ? `\n... ${lines.length - 20} more` : '') });
  } else {
    record('scan', name, 'passed', { ms: Date.now() - t0 });
  }
}

/** Proves the scanner finds what it should (a canary in text, UTF-16 and base64), so a green scan means something. */
function scannerSelfTest() {
  const canary = `canary-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'e2e-scan-selftest-'));
  const files = {
    'plain.log': `x ${canary} y`,
    'utf16.ldb': Buffer.from(`\u0001${canary}\u0000`, 'utf16le'),
    'b64.json': JSON.stringify({ v: Buffer.from(`k:${canary}`).toString('base64') }),
  };
  try {
    for (const [n, c] of Object.entries(files)) writeFileSync(path.join(dir, n), c);
    const { hits } = scanForSecrets(dir, [canary], { exclude: [] });
    const found = new Set(hits.map((h) => h.file));
    return Object.keys(files).filter((f) => !found.has(f));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------

async function main() {
  installExitHandlers((sig) => {
    record('harness', `e2e run completed (interrupted by ${sig})`, 'failed');
    summary(`INTERRUPTED by ${sig}`);
  });
  // Two budgets: installing code-server on a fresh, busy machine is slow and says nothing of the checks.
  const arm = (seconds, what) => {
    const timer = setTimeout(async () => {
      loud(`${what} took longer than ${seconds}s: stopping everything`);
      record('harness', `${what} finished within ${seconds}s`, 'failed');
      await cleanupAll();
      summary('TIMED OUT');
      process.exit(1);
    }, seconds * 1000);
    timer.unref();
    return timer;
  };
  const setupWatchdog = arm(SETUP_WATCHDOG_S, 'e2e set-up');

  // 1. setup
  let runtime, vsix, tests;
  try {
    lap(`extension under test: ${EXT_ROOT}`);
    runtime = ensureRuntime({ log: (m) => lap(m) });
    chromiumPath();
    if (RUN_UI) vsix = packageExtension({ log: (m) => lap(m), root: EXT_ROOT });
    lap('setup done');
    clearTimeout(setupWatchdog);
    arm(WATCHDOG_S, 'e2e checks');
  } catch (e) {
    loud('COULD NOT SET UP code-server / the extension: NO END-TO-END TEST RAN', e instanceof SetupError ? e.message : e.stack);
    record('harness', 'e2e setup (code-server, Chromium, .vsix)', 'failed', { error: e.message.split('\n')[0] });
    return;
  }
  let runHost = RUN_HOST;
  if (RUN_HOST) {
    try {
      tests = await buildInHostTests();
      lap(`in-host suites compiled: ${tests.suites.join(', ') || 'none'}`);
    } catch (e) {
      loud('THE IN-HOST SUITES DO NOT COMPILE (esbuild): they are not run', e.message);
      record('host', 'in-host suites compile (test/e2e/index.ts, test/e2e/suite/**/*.test.ts)', 'failed', { error: e.message.split('\n').slice(0, 6).join('\n') });
      runHost = false;
    }
  }
  try {
    run = createRunDir();
    lap(`run dir ${path.relative(process.cwd(), run.dir)}`);
  } catch (e) {
    loud('COULD NOT CREATE THE RUN DIR', e.stack);
    record('harness', 'e2e run dir', 'failed', { error: e.message });
    return;
  }
  let context;
  try {
    context = await launchBrowser();
  } catch (e) {
    loud('COULD NOT START CHROMIUM: NO END-TO-END TEST RAN', e.stack);
    record('harness', 'Chromium starts', 'failed', { error: e.message.split('\n')[0] });
    return;
  }

  if (runHost) {
    lap('in-host mocha suites (extension host of code-server):');
    try {
      await runInHost(context, runtime, tests.entry);
    } catch (e) {
      loud('THE IN-HOST PHASE COULD NOT RUN', e.stack);
      record('host', 'in-host phase ran', 'failed', { error: e.message.split('\n')[0] });
    }
  }
  if (RUN_UI) {
    lap('UI checks (Chromium):');
    try {
      await runUi(context, runtime, vsix);
    } catch (e) {
      loud('THE UI PHASE COULD NOT RUN', e.stack);
      record('ui', 'UI phase ran', 'failed', { error: e.message.split('\n')[0] });
    }
  }

  // Everything stopped and flushed before the scan.
  await cleanupAll();
  lap('code-server and Chromium stopped');

  const missed = scannerSelfTest();
  if (missed.length) record('scan', 'secret scanner self-test', 'failed', { error: `canary not found in ${missed.join(', ')}` });
  secretScan();
}

main()
  .catch((e) => {
    loud('E2E HARNESS ERROR', e.stack);
    record('harness', 'e2e harness', 'failed', { error: e.message });
  })
  .finally(async () => {
    await cleanupAll();
    summary();
  });

