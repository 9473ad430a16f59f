/**
 * The PQS result grid's page (dist/webview/pqs.js) in a real browser (Debian's Chromium, driven by
 * playwright-core), in the very HTML the webview host writes (its CSP, nonce and data attribute): what
 * it draws, the keyboard, paging and copying as requests to the panel, the line when the row cap cut,
 * and its saved state.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { resultsView, type ResultsRun, type ToResultsPage } from '../../src/core/pqs/resultsProtocol';
import type { SqlResult } from '../../src/core/pqs/store';
import { pageHtml } from '../../src/vscode/kit/webviewHost';
import { Uri } from '../vscode/fake/vscode';
import { hostOf, ROOT, startPageHarness, type PageHarness, type WatchedPage } from './harness';

const SCRIPT = path.join(ROOT, 'dist', 'webview', 'pqs.js');
const STYLE = path.join(ROOT, 'media', 'pqs', 'pqs.css');

const RESULT: SqlResult = {
  columns: [
    { name: 'n', typeId: 23 },
    { name: 'owner', typeId: 25 },
    { name: 'payload', typeId: 3802 },
  ],
  rows: Array.from({ length: 450 }, (_, i) => [i, i === 1 ? null : `Alice${i}`, { owner: `Alice${i}`, note: '</script><script>alert(1)</script>' }]),
  command: 'SELECT',
  rowCount: 450,
  elapsedMs: 12,
  truncated: false,
};
const RUN: ResultsRun = { runId: 1, title: 'PQS: q.pqs.sql', result: RESULT, explain: false };
const results = (run: ResultsRun, page: number): ToResultsPage => ({ type: 'results', ...resultsView(run, page) });

/** The host's own page, with the stand-in for VS Code's API loaded first under the same nonce. */
function resultsPage(origin: string): string {
  const webview = { cspSource: origin, asWebviewUri: (u: Uri) => Uri.parse(origin + u.path.slice(ROOT.length)) };
  const html = pageHtml(webview as never, Uri.file(ROOT) as never, { viewType: 'cantonLedger.pqsResults', name: 'pqs' }, { title: 'PQS: q.pqs.sql' }, 'abc');
  return html.replace('<script nonce="abc"', `<script nonce="abc" src="${origin}/host.js"></script>\n<script nonce="abc"`);
}

describe('PQS result grid webview in Chromium', function () {
  this.timeout(60_000);
  let harness: PageHarness;
  before(async () => {
    harness = await startPageHarness(SCRIPT, { '/': resultsPage });
  });
  after(() => harness?.close());

  async function open(first?: ToResultsPage, state?: unknown): Promise<WatchedPage> {
    harness.saved = state;
    const p = await harness.open();
    if (first) await send(p, first);
    return p;
  }
  /** The panel sends a message; resolves once the page has drawn what a results message says. */
  async function send(p: Page, m: ToResultsPage): Promise<void> {
    await p.evaluate((message) => window.postMessage(message, '*'), m as never);
    if (m.type === 'results') await p.waitForFunction((page) => document.getElementById('page')?.textContent?.includes(`page ${page + 1} of`), m.page);
  }
  const host = hostOf;
  const posted = async (p: Page) => (await host(p)).posted as Array<Record<string, unknown>>;
  const focused = (p: Page) => p.evaluate(() => {
    const td = document.activeElement as HTMLTableCellElement;
    return td?.tagName === 'TD' ? [(td.parentElement as HTMLTableRowElement).sectionRowIndex, td.cellIndex, td.textContent] : [document.activeElement?.id];
  });

  it('draws the page of rows, the time taken, NULL and JSON cells, with no CSP violation and no error', async () => {
    const p = await open(results(RUN, 0));
    assert.equal(await p.textContent('#summary'), '450 rows in 12 ms');
    assert.equal(await p.textContent('#page'), ' page 1 of 3 ');
    assert.deepEqual(await p.$$eval('#grid thead th', (th) => th.map((t) => t.textContent)), ['n', 'owner', 'payload']);
    assert.equal(await p.$$eval('#grid tbody tr', (tr) => tr.length), 200);
    assert.deepEqual(await p.$$eval('#grid tbody tr:nth-child(2) td', (td) => td.map((t) => [t.textContent, t.className])), [
      ['1', ''],
      ['NULL', 'null'],
      ['{"owner":"Alice1","note":"</script><script>alert(1)</script>"}', 'json'],
    ]);
    assert.equal(await p.$('#truncated'), null, 'no line about a cut when nothing was cut');
    assert.equal(await p.$eval('#prev', (b) => (b as HTMLButtonElement).disabled), true);
    const h = await host(p);
    assert.deepEqual(h.violations, []);
    assert.deepEqual(p.errors, []);
    // Colours come only from the theme's variables: the style sheet names no colour of its own.
    assert.doesNotMatch(readFileSync(STYLE, 'utf8'), /#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i);
    await p.close();
  });

  it('moves between cells with the keyboard, and Enter or a click expands a JSON cell', async () => {
    const p = await open(results(RUN, 0));
    await p.focus('#grid tbody td[tabindex="0"]');
    assert.deepEqual(await focused(p), [0, 0, '0']);
    await p.keyboard.press('ArrowDown');
    await p.keyboard.press('ArrowRight');
    assert.deepEqual(await focused(p), [1, 1, 'NULL']);
    await p.keyboard.press('End');
    assert.deepEqual((await focused(p)).slice(0, 2), [1, 2]);
    await p.keyboard.press('Enter');
    assert.equal(await p.$eval('#grid tbody tr:nth-child(2) td.json', (td) => td.getAttribute('aria-expanded')), 'true');
    assert.match((await p.textContent('#grid tbody tr:nth-child(2) td.json')) ?? '', /^\{\n {2}"owner": "Alice1",/);
    await p.keyboard.press(' ');
    assert.equal(await p.$eval('#grid tbody tr:nth-child(2) td.json', (td) => td.getAttribute('aria-expanded')), 'false');
    await p.keyboard.press('ArrowUp');
    await p.keyboard.press('Home');
    assert.deepEqual(await focused(p), [0, 0, '0']);
    assert.equal(await p.$$eval('#grid tbody td[tabindex="0"]', (td) => td.length), 1, 'one tab stop in the grid');
    await p.click('#grid tbody tr:nth-child(3) td.json');
    assert.equal(await p.$eval('#grid tbody tr:nth-child(3) td.json', (td) => td.getAttribute('aria-expanded')), 'true');
    assert.deepEqual((await focused(p)).slice(0, 2), [2, 2]);
    await p.close();
  });

  it('asks the panel for pages (buttons, Page Down and Page Up), and keeps the focus in the grid on its column', async () => {
    const p = await open(results(RUN, 0));
    await p.click('#next');
    assert.deepEqual((await posted(p)).filter((m) => m.type === 'page'), [{ type: 'page', runId: 1, page: 1 }]);
    await send(p, results(RUN, 1));
    assert.equal(await p.textContent('#grid tbody td'), '200');
    assert.equal(await p.$eval('#prev', (b) => (b as HTMLButtonElement).disabled), false);
    await p.focus('#grid tbody td[tabindex="0"]');
    await p.keyboard.press('ArrowRight');
    await p.keyboard.press('PageDown');
    assert.deepEqual((await posted(p)).filter((m) => m.type === 'page').at(-1), { type: 'page', runId: 1, page: 2 });
    await send(p, results(RUN, 2));
    assert.deepEqual(await focused(p), [0, 1, 'Alice400']);
    assert.equal(await p.$$eval('#grid tbody tr', (tr) => tr.length), 50);
    assert.equal(await p.$eval('#next', (b) => (b as HTMLButtonElement).disabled), true);
    const before = (await posted(p)).length;
    await p.keyboard.press('PageDown');
    assert.equal((await posted(p)).length, before, 'no page after the last');
    await p.keyboard.press('PageUp');
    assert.deepEqual((await posted(p)).at(-1), { type: 'page', runId: 1, page: 1 });
    // A new run starts on its first page and does not take the focus from where it is.
    await send(p, results({ ...RUN, runId: 2, result: { ...RESULT, rows: RESULT.rows.slice(0, 3), elapsedMs: 5 } }, 0));
    assert.equal(await p.textContent('#summary'), '3 rows in 5 ms');
    assert.equal(await p.$$eval('#grid tbody tr', (tr) => tr.length), 3);
    await p.close();
  });

  it('asks the panel to copy every row as CSV or JSON and says when it has', async () => {
    const p = await open(results(RUN, 0));
    await p.click('#csv');
    await p.click('#json');
    assert.deepEqual((await posted(p)).filter((m) => m.type === 'copy'), [{ type: 'copy', format: 'csv' }, { type: 'copy', format: 'json' }]);
    await send(p, { type: 'copied', format: 'csv', rowCount: 450 });
    await p.waitForFunction(() => document.getElementById('status')?.textContent === 'Copied 450 rows as CSV.');
    assert.equal(await p.$eval('#status', (s) => s.getAttribute('role')), 'status');
    await p.close();
  });

  it('says on a line of its own when the row cap cut the result, and no more once a run was not cut', async () => {
    const cut: ResultsRun = { ...RUN, runId: 3, result: { ...RESULT, truncated: true } };
    const p = await open(results(cut, 0));
    assert.equal(await p.textContent('#truncated'), 'Showing the first 450 rows; the statement returned more.');
    assert.equal(await p.textContent('#summary'), '450 rows in 12 ms', 'the summary the UI check reads is unchanged');
    await send(p, results(cut, 1));
    assert.equal(await p.$$eval('#truncated', (e) => e.length), 1, 'one line, on every page');
    await send(p, results({ ...RUN, runId: 4 }, 0));
    assert.equal(await p.$('#truncated'), null);
    await p.close();
  });

  it('a page shown again (VS Code reloads a hidden webview) draws from its saved state at once', async () => {
    const p = await open(results(RUN, 1));
    await p.focus('#grid tbody td[tabindex="0"]');
    await p.keyboard.press('ArrowDown');
    const state = (await host(p)).state;
    await p.close();
    const again = await open(undefined, state);
    assert.equal(await again.textContent('#summary'), '450 rows in 12 ms');
    assert.equal(await again.textContent('#page'), ' page 2 of 3 ');
    assert.equal(await again.$eval('#grid tbody td[tabindex="0"]', (td) => td.textContent), '201');
    assert.deepEqual(again.errors, []);
    await again.close();
  });
});
