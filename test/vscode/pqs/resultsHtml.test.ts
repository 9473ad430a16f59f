/** The PQS result grid's page: strict CSP with the nonce, nothing from the network, data that cannot break out of its script, CSV/JSON copies. */
import { strict as assert } from 'node:assert';
import type { SqlResult } from '../../../src/core/pqs/store';
import { resultsCsv, resultsHtml, resultsJson } from '../../../src/vscode/pqs/resultsHtml';

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

describe('PQS result grid', () => {
  it('allows only its own nonce-bearing script and style, and nothing from the network', () => {
    const html = resultsHtml({ title: 'q.pqs.sql', result: RESULT, explain: false }, 'NONCE123');
    assert.match(html, /content="default-src 'none'; style-src 'nonce-NONCE123'; script-src 'nonce-NONCE123';"/);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    assert.deepEqual(scripts, [' type="application/json" id="data"', ' nonce="NONCE123"']);
    assert.ok(!/https?:\/\//.test(html), 'no URL in the page');
    assert.match(html, /2 rows in 12 ms/);
  });

  it('says on a line of its own when the row cap cut the result, and only then', () => {
    const cut = resultsHtml({ title: 'x', result: { ...RESULT, truncated: true }, explain: false }, 'n');
    assert.match(cut, /<p id="truncated" class="truncated" role="status">Showing the first 2 rows; the statement returned more\.<\/p>/);
    assert.match(cut, /<span class="summary" id="summary">2 rows in 12 ms<\/span>/, 'the summary the UI check reads is unchanged');
    assert.ok(!resultsHtml({ title: 'x', result: RESULT, explain: false }, 'n').includes('id="truncated"'));
  });

  it('keeps the rows inside their data block (no "</script>" can end it)', () => {
    const html = resultsHtml({ title: 'x', result: RESULT, explain: false }, 'n');
    const data = /<script type="application\/json" id="data">([\s\S]*?)<\/script>/.exec(html)![1];
    assert.ok(!data.includes('<'));
    assert.equal(JSON.parse(data).rows[0][1].note, '</script><script>alert(1)</script>');
  });

  it('copies as CSV (quoted where needed, JSON for objects) and as JSON objects', () => {
    assert.equal(resultsCsv(RESULT), 'name,payload\n"a,""b""","{""owner"":""Alice"",""note"":""</script><script>alert(1)</script>""}"\n,"[1,2]"\n');
    assert.deepEqual(JSON.parse(resultsJson(RESULT)), [
      { name: 'a,"b"', payload: { owner: 'Alice', note: '</script><script>alert(1)</script>' } },
      { name: null, payload: [1, 2] },
    ]);
  });
});
