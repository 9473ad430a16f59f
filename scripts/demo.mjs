// The main job: Canton Ledger Explorer in a real VS Code, connected to the embedded demo participant.
//
//   npm run demo               desktop VS Code when `code` is on PATH, otherwise code-server from npm
//                              in the browser (prints the URL); runs until Ctrl-C
//   npm run demo -- --cli      no editor: the demo participant plus a walk through the CLI
//   npm run demo -- --smoke    checks both without a person: the CLI walkthrough, then code-server +
//                              headless Chromium until the demo shows up connected (screenshot saved)
//
// `npm run demo` builds first. The example workspace is examples/demo-workspace: its settings start the
// demo participant on open, and its files name the demo's (fixed-seed) parties.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKSPACE = path.join(ROOT, 'examples', 'demo-workspace');
const args = process.argv.slice(2);
const require = createRequire(import.meta.url);

if (args.includes('--cli')) process.exitCode = (await cliWalkthrough({ wait: !args.includes('--exit') })) ? 1 : 0;
else if (args.includes('--smoke')) {
  // Both ways the README offers, checked without a person: the CLI walkthrough, then the editor.
  const results = [(await cliWalkthrough({ wait: false })) === 0, (await codeServer({ smoke: true })) === 0];
  const passed = results.filter(Boolean).length;
  console.log(`${passed} passed, ${results.length - passed} failed`);
  process.exitCode = passed === results.length ? 0 : 1;
}
else if (!args.includes('--browser') && onPath('code')) desktop();
else process.exitCode = await codeServer({ smoke: false });

function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function desktop() {
  console.log('Opening VS Code with the extension in development mode and the demo workspace…');
  const child = spawn('code', ['--new-window', `--extensionDevelopmentPath=${ROOT}`, WORKSPACE], { stdio: 'inherit' });
  child.on('exit', (code) => (process.exitCode = code ?? 0));
}

async function codeServer({ smoke }) {
  const { ensureRuntime, packageExtension, NODE24, CS_ENTRY, VSIX, chromiumPath } = await import('../test/e2e/setup.mjs');
  const { startCodeServer, codeServerCli, freePort, installExitHandlers, cleanupAll } = await import('../test/e2e/lib/processes.mjs');
  const { QUIET_SETTINGS } = await import('../test/e2e/lib/runDir.mjs');
  console.log('No `code` on PATH: using code-server (VS Code in the browser), installed from npm on first use into .vscode-test/.');
  ensureRuntime();
  packageExtension();
  installExitHandlers();
  const run = mkdtempSync(path.join(tmpdir(), 'canton-ledger-demo-'));
  // The run's profile, logs and workspace copy go with the run (after the exit handlers have stopped
  // code-server, which were installed first); a failed smoke check keeps them for its message.
  let keepRun = false;
  process.on('exit', () => keepRun || rmSync(run, { recursive: true, force: true }));
  const env = { ...process.env, XDG_CONFIG_HOME: `${run}/xdg`, XDG_DATA_HOME: `${run}/xdg`, XDG_CACHE_HOME: `${run}/xdg`, EXTENSIONS_GALLERY: '{}' };
  const userDataDir = path.join(run, 'user-data');
  const extensionsDir = path.join(run, 'extensions');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(QUIET_SETTINGS, null, 2));
  // A copy of the workspace, so that the demo never writes into the repository.
  const workspace = path.join(run, 'demo-workspace');
  cpSync(WORKSPACE, workspace, { recursive: true });
  await codeServerCli({ node: NODE24, entry: CS_ENTRY, env, args: ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', VSIX], logFile: path.join(run, 'install.log') });
  const port = Number(process.env.PORT) || (await freePort());
  const server = await startCodeServer({ node: NODE24, entry: CS_ENTRY, port, userDataDir, extensionsDir, workspace, env, logFile: path.join(run, 'code-server.log') });
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
  if (!smoke) {
    console.log(`\nCanton Ledger Explorer is running in code-server:\n\n  ${url}\n\nOpen it in a browser on this machine. The demo participant starts with the workspace. Ctrl-C stops everything.\n`);
    await new Promise(() => {}); // until Ctrl-C; the exit handlers stop code-server
  }
  try {
    const failed = await smokeCheck(url, chromiumPath(), run);
    keepRun = failed !== 0;
    return failed;
  } finally {
    void server;
    await cleanupAll();
  }
}

/** Loads the workbench headlessly and waits for the Connections view to show the demo connected. */
async function smokeCheck(url, chromium, run) {
  const { chromium: pw } = require('playwright-core');
  const { openView, treeItem, waitForWorkbench } = await import('../test/e2e/ui/lib.mjs');
  const browser = await pw.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const shot = path.join(ROOT, 'test-results', 'demo-smoke.png');
  mkdirSync(path.dirname(shot), { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await page.goto(url);
    await waitForWorkbench(page, 'iou-create.commands.json');
    await openView(page, 'Canton Ledger');
    // Wait for the connected item: the item shown while connecting is replaced (new id, expanded), and
    // a click on the old one could land on the new one and collapse it.
    const demo = treeItem(page, /^Demo .*offset \d+/);
    await demo.waitFor({ timeout: 60_000 });
    if ((await demo.getAttribute('aria-expanded')) === 'false') await demo.click();
    await treeItem(page, /^Ledger end/).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: shot });
    console.log(`demo smoke: the Demo connection is up and connected (screenshot ${path.relative(ROOT, shot)})`);
    return 0;
  } catch (e) {
    await page.screenshot({ path: shot }).catch(() => {});
    console.error(`demo smoke FAILED: ${e.message.split('\n')[0]} (screenshot ${path.relative(ROOT, shot)}, logs in ${run})`);
    return 1;
  } finally {
    await browser.close();
  }
}

/** The demo participant in this process, and the CLI run against it, one step at a time. */
/** Returns the number of steps that did not behave as expected. */
async function cliWalkthrough({ wait }) {
  const { startDemoParticipant } = require(path.join(ROOT, 'dist', 'participant.js'));
  const p = await startDemoParticipant({ port: Number(process.env.PORT) || 0, seed: 1, logger: (l) => console.log(`[participant] ${l}`) });
  // Asynchronous: the participant answers from this very process, so its event loop must keep running.
  const cli = (...a) => {
    console.log(`\n$ canton-ledger ${a.map((x) => path.relative(process.cwd(), x) || x).join(' ')}`);
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), ...a], { stdio: 'inherit', env: { ...process.env, CANTON_LEDGER_URL: p.url } });
    return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  };
  try {
    const steps = [
      ['updates', '--limit', '8'],
      ['validate', ...['iou-create.commands.json', 'vet-iou-v2.vetting.json'].map((f) => path.join(WORKSPACE, f))],
      ['submit', path.join(WORKSPACE, 'iou-create.commands.json')],
      ['submit', path.join(WORKSPACE, 'iou-create.commands.json')],
      ['vet', path.join(WORKSPACE, 'vet-iou-v2.vetting.json'), '--dry-run'],
      ['updates', '--descending', '--limit', '3'],
    ];
    let failed = 0;
    for (const [i, step] of steps.entries()) {
      const status = await cli(...step);
      if (status !== 0) failed++;
      // The second submit of the same commandId answers "already executed" with the first one's transaction.
      if (i === 3) console.log('(As expected: the same commandId is not executed twice.)');
    }
    // The URL stands alone at the end of its line: a terminal that links it takes no period along.
    console.log(`\nThe demo participant listens on ${p.url}\nTry:  CANTON_LEDGER_URL=${p.url} node dist/cli.js --help`);
    if (failed) console.error(`${failed} walkthrough step(s) did not behave as expected`);
    if (wait) {
      console.log('Ctrl-C stops the participant.');
      await new Promise((resolve) => process.once('SIGINT', resolve));
    }
    return failed;
  } finally {
    await p.close();
  }
}
