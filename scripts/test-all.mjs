// Runs every test suite in turn, shows each one's own output, and ends with one line over all of
// them: `N passed, N failed` (plus `, N skipped` when some were skipped). Exits non-zero when any
// test failed or a suite could not run.
//
// Suites:
//   node   mocha over test/{core,participant,cli,conformance} (unit, integration against the demo
//          participant over loopback HTTP, spec conformance)
//   e2e    the extension in a real VS Code (code-server + Chromium)
//   demo   `npm run demo` checked headlessly: the CLI walkthrough and the extension coming up connected
//
// `node scripts/test-all.mjs node` runs only the named suites.
import { spawn } from 'node:child_process';

// e2e first: it installs code-server, whose JSON grammars the node suite's syntax tests also use.
const SUITES = [
  { name: 'e2e', cmd: process.execPath, args: ['test/e2e/run.mjs'], parse: parsePlain, failures: plainFailures },
  { name: 'node', cmd: process.execPath, args: ['node_modules/mocha/bin/mocha.js', '--color'], parse: parseMocha, failures: mochaFailures },
  // The README's main-job command (`npm run demo`), run headlessly.
  { name: 'demo', cmd: process.execPath, args: ['scripts/demo.mjs', '--smoke'], parse: parsePlain, failures: plainFailures },
];

const only = process.argv.slice(2);
const totals = { passed: 0, failed: 0, skipped: 0 };
const broken = [];
// What failed, by name, repeated just above the last line: a CI log is often read from its tail, and
// the first suite's failures are otherwise thousands of lines up.
const failures = [];

for (const suite of SUITES) {
  if (only.length && !only.includes(suite.name)) continue;
  console.log(`\n=== suite ${suite.name}\n`);
  const { code, output } = await run(suite.cmd, suite.args);
  const counts = suite.parse(output);
  if (!counts) {
    broken.push(`${suite.name} (exit ${code}, no summary)`);
    totals.failed++;
    continue;
  }
  failures.push(...suite.failures(strip(output)).map((name) => `${suite.name}: ${name}`));
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  // A runner that exits non-zero with nothing failing still failed (a crash after the summary).
  if (code !== 0 && counts.failed === 0) {
    broken.push(`${suite.name} (exit ${code})`);
    totals.failed++;
  }
  console.log(`=== suite ${suite.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
}

if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
if (broken.length) console.log(`\nSuites that did not finish cleanly: ${broken.join(', ')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exitCode = totals.failed > 0 ? 1 : 0;

function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      output += d;
    });
    child.stderr.on('data', (d) => {
      process.stderr.write(d);
      output += d;
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
    child.on('error', (e) => resolve({ code: 1, output: String(e) }));
  });
}

function strip(s) {
  return s.replace(/\x1b\[[0-9;]*m/g, '');
}

/** Mocha's spec reporter: "N passing", "N failing", "N pending". */
function parseMocha(output) {
  const text = strip(output);
  const num = (re) => Number(re.exec(text)?.[1] ?? 0);
  if (!/\d+ passing/.test(text) && !/\d+ failing/.test(text)) return undefined;
  return { passed: num(/(\d+) passing/), failed: num(/(\d+) failing/), skipped: num(/(\d+) pending/) };
}

/** The last "N passed, N failed[, N skipped]" line. */
function parsePlain(output) {
  const lines = strip(output).trim().split('\n').reverse();
  for (const line of lines) {
    const m = /^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/.exec(line.trim());
    if (m) return { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) };
  }
  return undefined;
}

/** The e2e runner's `FAIL [kind] name: error` lines and the demo smoke's `… FAILED: error` line. */
function plainFailures(text) {
  return [...text.matchAll(/^\s*FAIL (.*)$|^(.*FAILED: .*)$/gm)].map((m) => (m[1] ?? m[2]).slice(0, 300));
}

/** Mocha's numbered failure titles after "N failing" ("1) suite\n   title:"), one line each. */
function mochaFailures(text) {
  const section = text.slice(text.search(/\d+ failing/));
  if (!/^\s*\d+ failing/m.test(section)) return [];
  return [...section.matchAll(/^ {2}(\d+)\) ([^\n]*)((?:\n {7}[^\n]*)*)/gm)].map((m) =>
    `${m[2]}${m[3].replace(/\s+/g, ' ')}`.replace(/:$/, '').slice(0, 300),
  );
}
