#!/usr/bin/env node
// The in-host e2e suites (test/e2e/suite/**/*.test.ts) in DESKTOP VS Code, through @vscode/test-electron:
// for a laptop with internet. Not part of `npm test`: CI machines here cannot download VS Code, and
// run the same suites in code-server instead (npm run test:e2e).
//
//   npm run build && npm run test:electron          (E2E_VSCODE_VERSION=1.139.1 to pin; default stable)
//
// Same compiled suites, same extensionTestsPath entry, same secret scan over the run dir. Ends with
// `N passed, N failed[, N skipped]`.
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import path from 'node:path';
import { ROOT } from './setup.mjs';
import { buildInHostTests } from './lib/buildTests.mjs';
import { createRunDir } from './lib/runDir.mjs';
import { readSecrets, scanForSecrets } from './lib/secrets.mjs';

const TEST_PREFIX = 'E2E-MOCHA-TEST ';
const RESULT_PREFIX = 'E2E-MOCHA-RESULT ';
const counts = { passed: 0, failed: 0, pending: 0 };
let result;

function final(code) {
  console.log(`${counts.passed} passed, ${counts.failed} failed${counts.pending ? `, ${counts.pending} skipped` : ''}`);
  process.exit(code);
}

const tests = await buildInHostTests();
console.log(`[e2e:electron] in-host suites: ${tests.suites.join(', ') || 'none'}`);

let vscodeExecutablePath;
try {
  vscodeExecutablePath = await downloadAndUnzipVSCode({ version: process.env.E2E_VSCODE_VERSION || 'stable', timeout: 30000 });
} catch (e) {
  const bar = '!'.repeat(100);
  console.log(`\n${bar}\n!!! desktop VS Code could not be downloaded; use npm run test:e2e (code-server)\n!!! (${String(e?.message ?? e).split('\n')[0]})\n${bar}\n`);
  counts.failed++;
  final(1);
}

const run = createRunDir();
console.log(`[e2e:electron] run dir ${path.relative(process.cwd(), run.dir)}`);

// Count the tests from the reporter's lines as they pass through this process's stdout.
const write = process.stdout.write.bind(process.stdout);
let pendingText = '';
process.stdout.write = (chunk, ...rest) => {
  pendingText += String(chunk);
  const lines = pendingText.split('\n');
  pendingText = lines.pop();
  for (const line of lines) {
    const t = line.indexOf(TEST_PREFIX);
    const r = line.indexOf(RESULT_PREFIX);
    try {
      if (t >= 0) {
        const x = JSON.parse(line.slice(t + TEST_PREFIX.length));
        counts[x.state === 'passed' ? 'passed' : x.state === 'pending' ? 'pending' : 'failed']++;
        write(`  ${x.state === 'passed' ? 'ok  ' : x.state === 'pending' ? 'skip' : 'FAIL'} [host] ${x.title}${x.error ? `: ${x.error}` : ''}\n`);
        continue;
      }
      if (r >= 0) result = JSON.parse(line.slice(r + RESULT_PREFIX.length));
    } catch {
      /* not ours */
    }
    write(line + '\n');
  }
  return true;
};

let exitCode = 0;
try {
  await runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: tests.entry,
    extensionTestsEnv: { E2E_RUN_DIR: run.dir, E2E_WORKSPACE: run.ws, E2E_CLI: path.join(ROOT, 'dist', 'cli.js'), ...(process.env.E2E_GREP ? { E2E_GREP: process.env.E2E_GREP } : {}) },
    launchArgs: [run.ws, '--user-data-dir', run.host.ud, '--extensions-dir', run.host.exts, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
} catch (e) {
  exitCode = 1;
  console.log(`[e2e:electron] VS Code exited with an error: ${e?.message ?? e}`);
}
process.stdout.write = write;

if (!result) {
  counts.failed++;
  console.log('  FAIL [host] in-host mocha reported no result');
} else if (exitCode !== 0 && counts.failed === 0) {
  counts.failed++;
}

const secrets = readSecrets(run.dir);
const { files, hits } = scanForSecrets(run.dir, secrets);
if (hits.length) {
  counts.failed++;
  console.log(`  FAIL [scan] secret scan: ${hits.map((h) => `${h.form} in ${h.file}`).join('; ')}`);
} else {
  counts.passed++;
  console.log(`  ok   [scan] secret scan: ${secrets.length} registered secret(s) in ${files} files`);
}
final(counts.failed ? 1 : 0);
