// extensionTestsPath entry for the in-host e2e suites: the same contract as @vscode/test-electron
// (`run(): Promise<void>`, rejecting when a test failed), so it runs in code-server's extension host
// (test/e2e/run.mjs) and in desktop VS Code (test/e2e/electron.mjs) alike.
//
// Compiled by test/e2e/lib/buildTests.mjs to .vscode-test/e2e-out/index.js, next to suite/**/*.test.js.
// Everything is reported through console.log, which code-server forwards to the runner
// (codeAutomationLog): one `E2E-MOCHA-TEST {json}` line per test and a final
// `E2E-MOCHA-RESULT {"passed":n,"failed":n,"pending":n}` line.
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

export const TEST_PREFIX = 'E2E-MOCHA-TEST ';
export const RESULT_PREFIX = 'E2E-MOCHA-RESULT ';

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

class LineReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    let passed = 0;
    let failed = 0;
    let pending = 0;
    const title = (t: Mocha.Runnable) => t.titlePath().join(' > ');
    runner.on(EVENT_TEST_PASS, (t: Mocha.Test) => {
      passed++;
      console.log(TEST_PREFIX + JSON.stringify({ state: 'passed', title: title(t), ms: t.duration ?? 0 }));
    });
    runner.on(EVENT_TEST_PENDING, (t: Mocha.Test) => {
      pending++;
      console.log(TEST_PREFIX + JSON.stringify({ state: 'pending', title: title(t) }));
    });
    // Also fires for a failing hook (before/after...), which then counts as one failed "test".
    runner.on(EVENT_TEST_FAIL, (t: Mocha.Runnable, err: Error) => {
      failed++;
      const message = String(err?.message ?? err).split('\n').slice(0, 12).join('\n');
      console.log(TEST_PREFIX + JSON.stringify({ state: 'failed', title: title(t), ms: t.duration ?? 0, error: message }));
      if (err?.stack) console.error(`${title(t)}\n${err.stack}`);
    });
    runner.once(EVENT_RUN_END, () => {
      console.log(RESULT_PREFIX + JSON.stringify({ passed, failed, pending }));
    });
  }
}

function findSuites(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map(String)
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => path.join(dir, f));
}

export async function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: Number(process.env.E2E_MOCHA_TIMEOUT) || 20000,
    reporter: LineReporter as unknown as Mocha.ReporterConstructor,
    ...(process.env.E2E_GREP ? { grep: process.env.E2E_GREP } : {}),
  });
  for (const f of findSuites(path.join(__dirname, 'suite'))) mocha.addFile(f);
  await mocha.loadFilesAsync();
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} in-host e2e test(s) failed.`);
}
