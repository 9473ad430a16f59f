/**
 * The HTML of the PQS result grid (a webview): a strict Content-Security-Policy (no network, the one
 * inline script and style carry the per-load nonce), VS Code's theme colours, pages of rows, a line
 * saying so when the row cap cut the result, JSON cells that expand, copy as CSV or JSON (the host
 * writes the clipboard), keyboard moves between cells.
 * Pure: no `vscode` import, so it is tested as text.
 */
import type { SqlResult } from '../../core/pqs/store';

export const RESULTS_PAGE_SIZE = 200;

export interface ResultsView {
  title: string;
  result: SqlResult;
  /** `EXPLAIN` output rather than rows. */
  explain: boolean;
}

/** Rows as CSV (RFC 4180 quoting; JSON for objects). */
export function resultsCsv(r: SqlResult): string {
  const cell = (v: unknown) => {
    const t = v === null || v === undefined ? '' : typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v instanceof Date ? v.toISOString() : String(v);
    return /[",\n\r]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
  };
  return [r.columns.map((c) => cell(c.name)).join(','), ...r.rows.map((row) => row.map(cell).join(','))].join('\n') + '\n';
}

/** Rows as a JSON array of objects keyed by column name. */
export function resultsJson(r: SqlResult): string {
  return JSON.stringify(r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c.name, row[i] ?? null]))), null, 2) + '\n';
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function resultsHtml(view: ResultsView, nonce: string): string {
  const r = view.result;
  const data = JSON.stringify({ columns: r.columns.map((c) => c.name), rows: r.rows, pageSize: RESULTS_PAGE_SIZE }).replace(/</g, '\\u003c');
  const summary = `${r.rows.length} row${r.rows.length === 1 ? '' : 's'} in ${r.elapsedMs} ms${view.explain ? ' (EXPLAIN)' : ''}`;
  // Said on a line of its own, so that nobody takes the first rows for the whole answer.
  const cut = r.truncated ? `<p id="truncated" class="truncated" role="status">Showing the first ${r.rows.length} rows; the statement returned more.</p>` : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(view.title)}</title>
<style nonce="${nonce}">
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 12px; }
header { display: flex; gap: 8px; align-items: center; padding: 8px 0; position: sticky; top: 0; background: var(--vscode-editor-background); }
header .summary { flex: 1 1 auto; min-width: 9em; white-space: nowrap; color: var(--vscode-descriptionForeground); }
button { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); border: none; padding: 3px 10px; cursor: pointer; }
button:hover { background: var(--vscode-button-secondaryHoverBackground); }
button:focus-visible, td:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
table { border-collapse: collapse; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
th, td { border: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, #8884)); padding: 2px 6px; text-align: left; vertical-align: top; max-width: 480px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
th { background: var(--vscode-editorWidget-background); position: sticky; top: 36px; }
td.json { color: var(--vscode-textLink-foreground); cursor: pointer; }
td.json.open { white-space: pre; max-width: none; color: var(--vscode-foreground); }
td.null { color: var(--vscode-descriptionForeground); font-style: italic; }
p.truncated { margin: 0 0 8px; padding: 4px 8px; border-left: 3px solid var(--vscode-editorWarning-foreground); background: var(--vscode-inputValidation-warningBackground, transparent); }
</style></head>
<body>
<header role="toolbar" aria-label="Results">
  <span class="summary" id="summary">${escapeHtml(summary)}</span>
  <button id="prev" aria-label="Previous page">‹ Previous</button><span id="page"></span><button id="next" aria-label="Next page">Next ›</button>
  <button id="csv">Copy as CSV</button><button id="json">Copy as JSON</button>
</header>
${cut}<table id="grid" role="grid" aria-label="${escapeHtml(view.title)}"><thead></thead><tbody></tbody></table>
<script type="application/json" id="data">${data}</script>
<script nonce="${nonce}">
(function () {
  const vscode = acquireVsCodeApi();
  const data = JSON.parse(document.getElementById('data').textContent);
  const saved = vscode.getState() || {};
  let page = saved.page || 0;
  const pages = Math.max(1, Math.ceil(data.rows.length / data.pageSize));
  const thead = document.querySelector('#grid thead');
  const tbody = document.querySelector('#grid tbody');
  const head = document.createElement('tr');
  for (const c of data.columns) { const th = document.createElement('th'); th.textContent = c; th.scope = 'col'; head.appendChild(th); }
  thead.appendChild(head);
  function render() {
    tbody.textContent = '';
    for (const row of data.rows.slice(page * data.pageSize, (page + 1) * data.pageSize)) {
      const tr = document.createElement('tr');
      row.forEach(function (v) {
        const td = document.createElement('td');
        td.tabIndex = -1;
        if (v === null || v === undefined) { td.textContent = 'NULL'; td.className = 'null'; }
        else if (typeof v === 'object') { td.className = 'json'; td.dataset.json = JSON.stringify(v); td.textContent = JSON.stringify(v); td.title = 'Enter or click: expand'; }
        else td.textContent = String(v);
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    }
    const first = tbody.querySelector('td');
    if (first) first.tabIndex = 0;
    document.getElementById('page').textContent = ' page ' + (page + 1) + ' of ' + pages + ' ';
    document.getElementById('prev').disabled = page === 0;
    document.getElementById('next').disabled = page >= pages - 1;
    vscode.setState({ page: page });
  }
  function toggle(td) {
    if (!td.dataset.json) return;
    const open = td.classList.toggle('open');
    td.textContent = open ? JSON.stringify(JSON.parse(td.dataset.json), null, 2) : td.dataset.json;
  }
  tbody.addEventListener('click', function (e) { const td = e.target.closest('td'); if (td) toggle(td); });
  tbody.addEventListener('keydown', function (e) {
    const td = e.target.closest('td'); if (!td) return;
    const tr = td.parentElement; const i = Array.prototype.indexOf.call(tr.children, td);
    let next;
    if (e.key === 'ArrowRight') next = td.nextElementSibling;
    else if (e.key === 'ArrowLeft') next = td.previousElementSibling;
    else if (e.key === 'ArrowDown') next = tr.nextElementSibling && tr.nextElementSibling.children[i];
    else if (e.key === 'ArrowUp') next = tr.previousElementSibling && tr.previousElementSibling.children[i];
    else if (e.key === 'Enter' || e.key === ' ') { toggle(td); e.preventDefault(); return; }
    if (next) { td.tabIndex = -1; next.tabIndex = 0; next.focus(); e.preventDefault(); }
  });
  document.getElementById('prev').addEventListener('click', function () { if (page > 0) { page--; render(); } });
  document.getElementById('next').addEventListener('click', function () { if (page < pages - 1) { page++; render(); } });
  document.getElementById('csv').addEventListener('click', function () { vscode.postMessage({ type: 'copy', format: 'csv' }); });
  document.getElementById('json').addEventListener('click', function () { vscode.postMessage({ type: 'copy', format: 'json' }); });
  render();
})();
</script>
</body></html>`;
}
