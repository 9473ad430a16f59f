/** The PQS result grid's messages: pages of a run, the texts the page shows, the copies the panel writes. */
import { strict as assert } from 'node:assert';
import { resultsCsv, resultsJson, resultsSummary, resultsView, truncatedLine, type ResultsRun } from '../../../src/core/pqs/resultsProtocol';
import type { SqlResult } from '../../../src/core/pqs/store';

const RESULT: SqlResult = {
  columns: [
    { name: 'name', typeId: 25 },
    { name: 'payload', typeId: 3802 },
  ],
  rows: [
    ['a,"b"', { owner: 'Alice', note: '</script><script>alert(1)</script>' }],
    [null, [1, 2]],
  ],
  command: 'SELECT',
  rowCount: 2,
  elapsedMs: 12,
  truncated: false,
};

function run(rows: number, extra: Partial<SqlResult> = {}): ResultsRun {
  return { runId: 7, title: 'q.pqs.sql', explain: false, result: { ...RESULT, rows: Array.from({ length: rows }, (_, i) => [i, new Date(Date.UTC(2025, 0, 1, 0, 0, i))]), ...extra } };
}

describe('PQS result grid messages', () => {
  it('a page of rows: the page asked for, clamped to the pages there are, times as ISO text', () => {
    const v = resultsView(run(450), 2);
    assert.deepEqual([v.runId, v.page, v.pages, v.pageSize, v.rowCount, v.rows.length], [7, 2, 3, 200, 450, 50]);
    assert.deepEqual(v.rows[0], [400, '2025-01-01T00:06:40.000Z']);
    assert.deepEqual(v.columns, ['name', 'payload']);
    assert.equal(resultsView(run(450), 99).page, 2);
    assert.equal(resultsView(run(450), -3).page, 0);
    assert.deepEqual([resultsView(run(0), 0).pages, resultsView(run(0), 0).rows], [1, []]);
  });

  it('says the rows and the time taken, and a line of its own only when the row cap cut', () => {
    assert.equal(resultsSummary(resultsView(run(2), 0)), '2 rows in 12 ms');
    assert.equal(resultsSummary(resultsView(run(1), 0)), '1 row in 12 ms');
    assert.equal(resultsSummary({ ...resultsView(run(3), 0), explain: true }), '3 rows in 12 ms (EXPLAIN)');
    assert.equal(truncatedLine(resultsView(run(2), 0)), undefined);
    assert.equal(truncatedLine(resultsView(run(10, { truncated: true }), 0)), 'Showing the first 10 rows; the statement returned more.');
  });

  it('copies as CSV (quoted where needed, JSON for objects) and as JSON objects', () => {
    assert.equal(resultsCsv(RESULT), 'name,payload\n"a,""b""","{""owner"":""Alice"",""note"":""</script><script>alert(1)</script>""}"\n,"[1,2]"\n');
    assert.deepEqual(JSON.parse(resultsJson(RESULT)), [
      { name: 'a,"b"', payload: { owner: 'Alice', note: '</script><script>alert(1)</script>' } },
      { name: null, payload: [1, 2] },
    ]);
  });
});
