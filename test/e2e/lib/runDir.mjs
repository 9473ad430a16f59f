// The isolated directory of one e2e run: test-results/e2e/<timestamp>/ (git-ignored).
//
//   xdg/{config,data,cache}   XDG_* for code-server and everything it starts
//   ws/                       the workspace: demo.commands.json, other.json
//   host/{ud,exts}            user-data and extensions dir of the in-host (mocha) code-server
//   ui/{ud,exts}              the same for the UI code-server (the .vsix is installed there)
//   browser/                  Chromium's profile (code-server keeps some state in the browser)
//   *.png                     screenshots (fail-<n>-<name>.png for failed checks)
//   secrets-used.txt          secrets the tests registered (JSON string per line), for the scan
//   results.json              every check with its state and time
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../setup.mjs';

export const RESULTS_DIR = path.join(ROOT, 'test-results', 'e2e');

/** User settings that keep the workbench quiet and deterministic. */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'npm.autoDetect': 'off',
  'typescript.disableAutomaticTypeAcquisition': true,
  'files.autoSave': 'off',
};

export const SAMPLE_PARTY = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';

export const WORKSPACE_FILES = {
  'demo.commands.json': JSON.stringify(
    {
      commandId: 'e2e-create-iou-1',
      actAs: [SAMPLE_PARTY],
      commands: [
        {
          CreateCommand: {
            templateId: '#model-tests:Iou:Iou',
            createArguments: { issuer: SAMPLE_PARTY, owner: SAMPLE_PARTY, currency: 'USD', amount: '10', observers: [] },
          },
        },
      ],
    },
    null,
    2,
  ) + '\n',
  'other.json': JSON.stringify({ note: 'an ordinary JSON file: no Canton Ledger actions on it' }, null, 2) + '\n',
};

/** Removes all but the newest `keep` run dirs (each is ~20-30 MB, mostly the browser profile). */
export function pruneRuns(keep = Number(process.env.E2E_KEEP_RUNS ?? 5)) {
  let runs;
  try {
    runs = readdirSync(RESULTS_DIR).filter((d) => /^\d{4}-\d\d-\d\dT/.test(d)).sort();
  } catch {
    return;
  }
  for (const d of runs.slice(0, Math.max(0, runs.length - keep))) rmSync(path.join(RESULTS_DIR, d), { recursive: true, force: true });
}

export function createRunDir() {
  pruneRuns(Math.max(0, (Number(process.env.E2E_KEEP_RUNS ?? 5) || 5) - 1));
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dir = path.join(RESULTS_DIR, stamp);
  const d = {
    dir,
    xdg: { config: path.join(dir, 'xdg', 'config'), data: path.join(dir, 'xdg', 'data'), cache: path.join(dir, 'xdg', 'cache') },
    ws: path.join(dir, 'ws'),
    host: { ud: path.join(dir, 'host', 'ud'), exts: path.join(dir, 'host', 'exts'), dir: path.join(dir, 'host') },
    ui: { ud: path.join(dir, 'ui', 'ud'), exts: path.join(dir, 'ui', 'exts'), dir: path.join(dir, 'ui') },
    browser: path.join(dir, 'browser'),
  };
  for (const p of [...Object.values(d.xdg), d.ws, d.host.ud, d.host.exts, d.ui.ud, d.ui.exts, d.browser]) mkdirSync(p, { recursive: true });
  for (const ud of [d.host.ud, d.ui.ud]) {
    mkdirSync(path.join(ud, 'User'), { recursive: true });
    writeFileSync(path.join(ud, 'User', 'settings.json'), JSON.stringify(QUIET_SETTINGS, null, 2) + '\n');
  }
  for (const [name, text] of Object.entries(WORKSPACE_FILES)) writeFileSync(path.join(d.ws, name), text);
  // test-results/e2e/latest -> this run
  const latest = path.join(RESULTS_DIR, 'latest');
  try {
    rmSync(latest, { force: true });
    symlinkSync(stamp, latest);
  } catch {
    /* not important */
  }
  return d;
}

/** The environment for code-server and its extension hosts: isolated XDG dirs, no inherited VS Code IPC. */
export function serverEnv(run, extra = {}) {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    // A VS Code terminal's VSCODE_IPC_HOOK_CLI would make code-server open the folder in that instance.
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE' || k === 'NODE_OPTIONS' || k.startsWith('npm_')) delete env[k];
  }
  return {
    ...env,
    XDG_CONFIG_HOME: run.xdg.config,
    XDG_DATA_HOME: run.xdg.data,
    XDG_CACHE_HOME: run.xdg.cache,
    // No extension gallery: code-server would otherwise query open-vsx.org (no network here; noise and delays).
    EXTENSIONS_GALLERY: '{}',
    E2E_RUN_DIR: run.dir,
    E2E_WORKSPACE: run.ws,
    // The CLI ships in the npm package, not in the .vsix: suites that compare with it run the repo's build.
    E2E_CLI: path.join(ROOT, 'dist', 'cli.js'),
    // The in-host suites check the demo participants' exchanges against the official specs beside the repo.
    CANTON_SPEC_DIR: path.resolve(ROOT, '../shared/canton-api'),
    ...extra,
  };
}
