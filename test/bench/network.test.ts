// The network rows of the benchmark: a quick run must produce both figures, finite and positive (speed
// is what `npm run bench` reports, not what this asserts).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './lib';

describe('benchmark harness: the network rows (npm run bench -- --only network)', function () {
  this.timeout(180_000);
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'bench-network-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('measures the pre-flight of a 100-command file and the vetting matrix, each against its baseline', async () => {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/bench/run.ts', '--quick', '--only', 'network'], { cwd: ROOT, env: { ...process.env, BENCH_RESULTS_DIR: dir }, maxBuffer: 16 * 1024 * 1024 });
    const results = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as { rows: Array<{ section: string; what: string; ours: number; baseline: number; goal: { kind: string } }>; failures: string[] };
    assert.deepEqual(results.failures, []);
    assert.deepEqual(
      results.rows.map((r) => [r.section, r.what.split(' (')[0].split(',')[0], r.goal.kind]),
      [
        ['Network', 'pre-flight of a 100-command file', 'ratio-at-most'],
        ['Network', 'vetting matrix of 3 participants × 200 packages', 'ours-at-most'],
      ],
    );
    for (const r of results.rows) assert.ok(Number.isFinite(r.ours) && r.ours > 0 && Number.isFinite(r.baseline) && r.baseline > 0, r.what);
  });
});
