/**
 * The PQS result grid's panel on the fake VS Code API: its page through the webview host (strict CSP,
 * the script by nonce and source, nothing inline), one page of rows at a time, pages and copies the
 * page asks for, a new run in the same panel, and what a page that says it is ready is sent again.
 */
import { strict as assert } from 'node:assert';
import path from 'node:path';
import type { ToResultsPage } from '../../../src/core/pqs/resultsProtocol';
import type { SqlResult } from '../../../src/core/pqs/store';
import { PqsResultsPanel } from '../../../src/vscode/pqs/resultsPanel';
import { fake, Uri, type FakeWebviewPanel } from '../fake/vscode';

const ROOT = path.resolve(__dirname, '..', '..', '..');
type Results = Extract<ToResultsPage, { type: 'results' }>;

const RESULT: SqlResult = {
  columns: [
    { name: 'n', typeId: 23 },
    { name: 'payload', typeId: 3802 },
  ],
  rows: Array.from({ length: 450 }, (_, i) => [i, { owner: 'Alice', note: i === 0 ? '</script><script>alert(1)</script>' : 'x' }]),
  command: 'SELECT',
  rowCount: 450,
  elapsedMs: 12,
  truncated: false,
};

const posted = (panel: FakeWebviewPanel) => panel.posted as ToResultsPage[];
const lastResults = (panel: FakeWebviewPanel) => posted(panel).filter((m): m is Results => m.type === 'results').at(-1)!;

/** Resolves once `ok` holds (the panel answers some requests asynchronously). */
async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setImmediate(r));
}

describe('PQS result grid panel (fake VS Code API)', () => {
  let results: PqsResultsPanel;
  beforeEach(() => {
    results = new PqsResultsPanel(Uri.file(ROOT) as never);
  });
  afterEach(() => results.dispose());

  it('writes its page through the host: nothing inline, the data sent as messages, one page at a time', () => {
    results.show('PQS: q.pqs.sql', RESULT, false);
    const [panel] = fake.state.webviewPanels;
    assert.equal(panel.viewType, 'cantonLedger.pqsResults');
    assert.equal(panel.title, 'PQS: q.pqs.sql');
    const html = panel.webview.html;
    const nonce = /script-src 'nonce-([^']+)'/.exec(html)![1];
    assert.match(html, /content="default-src 'none';/);
    assert.deepEqual([...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]), [`<script nonce="${nonce}" src="https://fake.vscode-cdn.net${ROOT}/dist/webview/pqs.js">`]);
    assert.ok(html.includes(`<link rel="stylesheet" href="https://fake.vscode-cdn.net${ROOT}/media/pqs/pqs.css">`));
    assert.ok(!html.includes('alert(1)'), 'no row is written into the page');
    assert.deepEqual((panel.webview.options as { localResourceRoots: { path: string }[] }).localResourceRoots.map((u) => u.path), [`${ROOT}/dist/webview`, `${ROOT}/media/pqs`]);
    const first = lastResults(panel);
    assert.deepEqual([first.page, first.pages, first.rows.length, first.rowCount, first.elapsedMs, first.truncated], [0, 3, 200, 450, 12, false]);
  });

  it('sends the page asked for, drops a request about an earlier run, and reuses its panel for a new run', () => {
    results.show('PQS: q.pqs.sql', RESULT, false);
    const [panel] = fake.state.webviewPanels;
    const { runId } = lastResults(panel);
    panel.receive({ type: 'page', runId, page: 2 });
    assert.deepEqual([lastResults(panel).page, lastResults(panel).rows.length, lastResults(panel).rows[0][0]], [2, 50, 400]);
    results.show('PQS: other.pqs.sql', { ...RESULT, rows: RESULT.rows.slice(0, 3), truncated: true }, true);
    assert.equal(fake.state.webviewPanels.length, 1, 'one result grid');
    assert.equal(panel.title, 'PQS: other.pqs.sql');
    const second = lastResults(panel);
    assert.notEqual(second.runId, runId);
    assert.deepEqual([second.page, second.rowCount, second.truncated, second.explain], [0, 3, true, true]);
    const sent = panel.posted.length;
    panel.receive({ type: 'page', runId, page: 1 });
    assert.equal(panel.posted.length, sent, 'the earlier run’s page is not sent');
  });

  it('copies every row (not only the page shown) as CSV or JSON, and tells the page', async () => {
    results.show('PQS: q.pqs.sql', RESULT, false);
    const [panel] = fake.state.webviewPanels;
    panel.receive({ type: 'copy', format: 'json' });
    await until(() => posted(panel).some((m) => m.type === 'copied'));
    assert.equal(JSON.parse(fake.state.clipboard.text).length, 450);
    panel.receive({ type: 'copy', format: 'csv' });
    await until(() => posted(panel).filter((m) => m.type === 'copied').length === 2);
    assert.equal(fake.state.clipboard.text.split('\n').length, 452, 'a head, 450 rows and the last newline');
    assert.deepEqual(posted(panel).filter((m) => m.type === 'copied').at(-1), { type: 'copied', format: 'csv', rowCount: 450 });
  });

  it('a page that says it is ready is sent the page it shows again; a copy notice is not sent again', async () => {
    results.show('PQS: q.pqs.sql', RESULT, false);
    const [panel] = fake.state.webviewPanels;
    panel.receive({ type: 'page', runId: lastResults(panel).runId, page: 1 });
    panel.receive({ type: 'copy', format: 'csv' });
    await until(() => posted(panel).some((m) => m.type === 'copied'));
    const before = panel.posted.length;
    panel.receive({ type: 'ready' });
    assert.deepEqual(panel.posted.slice(before).map((m) => [(m as ToResultsPage).type, (m as Results).page]), [['results', 1]]);
  });

  it('closing the panel forgets the run; the next result opens a new one', () => {
    results.show('PQS: q.pqs.sql', RESULT, false);
    fake.state.webviewPanels[0].dispose();
    assert.equal(fake.state.webviewPanels.length, 0);
    results.show('PQS: q.pqs.sql', RESULT, false);
    assert.equal(fake.state.webviewPanels.length, 1);
    results.dispose();
    assert.equal(fake.state.webviewPanels.length, 0, 'disposed with the feature');
  });
});
