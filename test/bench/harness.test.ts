// The benchmark is not part of the test command, but its harness is: a quick run of the cheaper parts
// must produce every figure it promises, finite and positive. No speed is asserted here: speed is
// what `npm run bench` reports, as ratios measured in one run.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { DAR_DIR } from '../support/dars';
import { ROOT, runWorker } from './lib';

interface Results {
  rows: Array<{ section: string; what: string; ours: number; baseline: number; ratio: number; met?: boolean }>;
  failures: string[];
}

describe('benchmark harness (npm run bench -- --quick)', function () {
  this.timeout(180_000);
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'bench-harness-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('measures decoding, listing, paging (updates, active contracts, older completions), submissions, the live tail, validation and Daml packages, each against its baseline', async () => {
    // The Daml part reads a shared DAR beside the repository (test/support/dars.ts); without it, it is left out.
    const daml = existsSync(DAR_DIR);
    if (!daml) console.warn(`    (the Daml packages part is left out: ${DAR_DIR} is missing)`);
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/bench/run.ts', '--quick', '--only', `decode,list,paging,acs,completions,submit,tail,validate${daml ? ',daml' : ''}`], {
      cwd: ROOT,
      env: { ...process.env, BENCH_RESULTS_DIR: dir },
      maxBuffer: 16 * 1024 * 1024,
    });
    const results = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as Results;
    assert.deepEqual(results.failures, []);
    const sections = new Set(results.rows.map((r) => r.section));
    assert.deepEqual([...sections].sort(), [...(daml ? ['Daml packages'] : []), 'Live tail', 'Paging', 'Submit-and-wait', 'Update decoding', 'Validation']);
    if (daml) assert.equal(results.rows.filter((r) => r.section === 'Daml packages').length, 2, 'decoding and schemas; argument diagnostics');
    assert.equal(results.rows.filter((r) => r.section === 'Update decoding' && r.what.startsWith('decode ')).length, 4, 'throughput and memory for 1k and 10k');
    assert.equal(results.rows.filter((r) => r.what.startsWith('list ')).length, 4);
    assert.equal(results.rows.filter((r) => r.what.startsWith('Failed Commands: ')).length, 1, "Failed Commands' Load more");
    for (const r of results.rows) {
      assert.ok(Number.isFinite(r.ours) && r.ours > 0, `${r.what}: ours = ${r.ours}`);
      assert.ok(Number.isFinite(r.baseline) && r.baseline > 0, `${r.what}: baseline = ${r.baseline}`);
      assert.ok(Math.abs(r.ratio - r.ours / r.baseline) < 1e-9, `${r.what}: the ratio is ours / baseline`);
    }
    const table = readFileSync(path.join(dir, 'results.md'), 'utf8');
    for (const r of results.rows) assert.ok(table.includes(`| ${r.what} |`), `the table has "${r.what}"`);
  });
});

describe('benchmark harness: a step that stalls fails, it does not hang', () => {
  it('a worker that stops reporting progress is killed and its step rejected', async () => {
    const progress: unknown[] = [];
    const t0 = Date.now();
    await assert.rejects(runWorker('idle', { reports: 3 }, { stallMs: 1500, timeoutMs: 60_000, onProgress: (m) => progress.push(m) }), /stalled: no progress for 1500 ms/);
    assert.equal(progress.length, 3);
    assert.ok(Date.now() - t0 < 30_000);
  });

  it('aborting kills the worker with the reason', async () => {
    const stop = new AbortController();
    const run = runWorker('idle', { reports: 1 }, { onProgress: () => stop.abort(new Error('the writer failed')), timeoutMs: 60_000, signal: stop.signal });
    await assert.rejects(run, /the writer failed/);
  });
});

describe('benchmark harness: peak memory', () => {
  // The growth of the timed runs counts what they use: not a warm-up's peak whose memory was returned
  // before them, and not the resident memory of the process that started the worker (on Linux a
  // process's lifetime peak keeps its parent's, across the exec).
  it("counts in the timed run's peak growth what it uses: not a warm-up's peak since freed, nor its parent's memory", async function () {
    if (process.platform !== 'linux') this.skip();
    this.timeout(60_000);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-peak-'));
    try {
      const probe = path.join(dir, 'peak.mts');
      const parent = path.join(dir, 'parent.cjs');
      const lib = pathToFileURL(path.join(ROOT, 'test', 'bench', 'lib.ts')).href;
      writeFileSync(
        probe,
        [
          `import { timeRuns } from ${JSON.stringify(lib)};`,
          'const mb = 1024 * 1024;',
          'let warm = true;',
          // The warm-up holds 300 MB for a moment; the timed run holds 100 MB.
          'const r = await timeRuns(async () => { const size = warm ? 300 * mb : 100 * mb; warm = false; return Buffer.alloc(size, 1).length; }, { reps: 1, warmup: 1 });',
          'console.log(JSON.stringify({ growthMb: r.peakRssGrowth / mb }));',
        ].join('\n'),
      );
      // The parent holds 400 MB, resident, while the probe runs.
      writeFileSync(
        parent,
        [
          "const { execFileSync } = require('node:child_process');",
          'const held = Buffer.alloc(400 * 1024 * 1024, 1);',
          `process.stdout.write(execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', ${JSON.stringify(probe)}]));`,
          'held.fill(2);',
        ].join('\n'),
      );
      const { stdout } = await promisify(execFile)(process.execPath, [parent], { cwd: ROOT });
      const { growthMb } = JSON.parse(stdout) as { growthMb: number };
      assert.ok(growthMb >= 90 && growthMb < 200, `the timed run's 100 MB, not the warm-up's 300 MB or the parent's 400 MB: ${growthMb.toFixed(1)} MB`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
