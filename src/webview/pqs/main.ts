/**
 * The PQS result grid's page: draws the page of rows the panel sends (core/pqs/resultsProtocol), the
 * time taken, and a line of its own when the row cap cut the result. JSON cells expand (click, Enter
 * or Space); the arrow keys move between cells, Home and End along a row, Page Up and Page Down between
 * pages; Copy as CSV or JSON asks the panel, which holds every row. Runs in the webview's sandbox: no
 * network, theme colours from VS Code's CSS variables (media/pqs/pqs.css), its state kept with
 * setState so that a page shown again after being hidden draws at once.
 */
import { resultsSummary, truncatedLine, type CopyFormat, type FromResultsPage, type ResultsView, type ToResultsPage } from '../../core/pqs/resultsProtocol';

interface SavedResultsState {
  view?: ResultsView;
  /** The cell that had the focus: [row, column] on the page. */
  cell?: [number, number];
}

interface VsCodeApi {
  postMessage(message: FromResultsPage): void;
  getState(): SavedResultsState | undefined;
  setState(state: SavedResultsState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app')!;
let state: SavedResultsState = vscode.getState() ?? {};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function button(id: string, label: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', { id, type: 'button', title }, label);
  b.addEventListener('click', onClick);
  return b;
}

// ---------------------------------------------------------------- the frame (made once)

const summary = el('span', { id: 'summary', class: 'summary' });
const pageLabel = el('span', { id: 'page', class: 'page' });
const prev = button('prev', '‹ Previous', 'Previous page (Page Up)', () => askPage(-1));
const next = button('next', 'Next ›', 'Next page (Page Down)', () => askPage(1));
prev.setAttribute('aria-label', 'Previous page');
next.setAttribute('aria-label', 'Next page');
const copyButtons = (['csv', 'json'] as CopyFormat[]).map((format) => button(format, `Copy as ${format.toUpperCase()}`, `Copy every row as ${format.toUpperCase()}`, () => vscode.postMessage({ type: 'copy', format })));
const toolbar = el('header', { role: 'toolbar', 'aria-label': 'Results' }, summary, prev, pageLabel, next, ...copyButtons);
const status = el('p', { id: 'status', class: 'status', role: 'status', 'aria-live': 'polite' });
const grid = el('table', { id: 'grid', role: 'grid' });
const thead = grid.createTHead();
const tbody = grid.createTBody();

function askPage(step: number): void {
  const v = state.view;
  if (!v) return;
  const page = v.page + step;
  if (page < 0 || page >= v.pages) return;
  vscode.postMessage({ type: 'page', runId: v.runId, page });
}

// ---------------------------------------------------------------- drawing

function draw(view: ResultsView, focusGrid: boolean): void {
  const sameRun = state.view?.runId === view.runId;
  const column = sameRun ? (state.cell?.[1] ?? 0) : 0;
  state = { view, cell: sameRun && state.view?.page === view.page ? state.cell : [0, column] };
  if (!app.contains(toolbar)) app.replaceChildren(toolbar, status, grid);
  summary.textContent = resultsSummary(view);
  pageLabel.textContent = ` page ${view.page + 1} of ${view.pages} `;
  prev.disabled = view.page === 0;
  next.disabled = view.page >= view.pages - 1;
  if (!sameRun) status.textContent = '';
  // Only when the cap cut: the element is there, or not at all.
  document.getElementById('truncated')?.remove();
  const cut = truncatedLine(view);
  if (cut) toolbar.after(el('p', { id: 'truncated', class: 'truncated', role: 'status' }, cut));
  grid.setAttribute('aria-label', view.title);
  grid.setAttribute('aria-rowcount', String(view.rowCount + 1));
  thead.replaceChildren(el('tr', { 'aria-rowindex': '1' }, ...view.columns.map((c) => el('th', { scope: 'col' }, c))));
  const first = view.page * view.pageSize;
  tbody.replaceChildren(...view.rows.map((row, i) => el('tr', { 'aria-rowindex': String(first + i + 2) }, ...row.map(cell))));
  placeFocus(focusGrid);
  vscode.setState(state);
}

function cell(v: unknown): HTMLTableCellElement {
  const td = el('td', { tabindex: '-1' });
  if (v === null || v === undefined) {
    td.textContent = 'NULL';
    td.className = 'null';
  } else if (typeof v === 'object') {
    td.className = 'json';
    td.dataset.json = JSON.stringify(v);
    td.textContent = td.dataset.json;
    td.title = 'Enter or click: expand';
    td.setAttribute('aria-expanded', 'false');
  } else td.textContent = String(v);
  return td;
}

function cellAt(row: number, column: number): HTMLTableCellElement | undefined {
  const tr = tbody.rows[Math.min(Math.max(row, 0), tbody.rows.length - 1)];
  return tr?.cells[Math.min(Math.max(column, 0), tr.cells.length - 1)];
}

/** One cell is the grid's tab stop (the one that had the focus); `focus` moves the focus there too. */
function placeFocus(focus: boolean): void {
  const [row, column] = state.cell ?? [0, 0];
  const target = cellAt(row, column);
  if (!target) return;
  target.tabIndex = 0;
  if (focus) target.focus();
}

function moveTo(td: HTMLTableCellElement | undefined, from: HTMLTableCellElement): void {
  if (!td || td === from) return;
  from.tabIndex = -1;
  td.tabIndex = 0;
  td.focus();
  state.cell = [(td.parentElement as HTMLTableRowElement).sectionRowIndex, td.cellIndex];
  vscode.setState(state);
}

function toggle(td: HTMLTableCellElement): void {
  if (!td.dataset.json) return;
  const open = td.classList.toggle('open');
  td.textContent = open ? JSON.stringify(JSON.parse(td.dataset.json), null, 2) : td.dataset.json;
  td.setAttribute('aria-expanded', String(open));
}

tbody.addEventListener('click', (e) => {
  const td = (e.target as Element).closest('td');
  if (!td) return;
  moveTo(td, tbody.querySelector<HTMLTableCellElement>('td[tabindex="0"]') ?? td);
  toggle(td);
});

tbody.addEventListener('keydown', (e) => {
  const td = (e.target as Element).closest('td');
  if (!td) return;
  const tr = td.parentElement as HTMLTableRowElement;
  const [row, column] = [tr.sectionRowIndex, td.cellIndex];
  switch (e.key) {
    case 'ArrowRight':
      moveTo(cellAt(row, column + 1), td);
      break;
    case 'ArrowLeft':
      moveTo(cellAt(row, column - 1), td);
      break;
    case 'ArrowDown':
      moveTo(cellAt(row + 1, column), td);
      break;
    case 'ArrowUp':
      moveTo(cellAt(row - 1, column), td);
      break;
    case 'Home':
      moveTo(cellAt(e.ctrlKey ? 0 : row, 0), td);
      break;
    case 'End':
      moveTo(cellAt(e.ctrlKey ? tbody.rows.length - 1 : row, tr.cells.length - 1), td);
      break;
    case 'PageDown':
      askPage(1);
      break;
    case 'PageUp':
      askPage(-1);
      break;
    case 'Enter':
    case ' ':
      toggle(td);
      break;
    default:
      return;
  }
  e.preventDefault();
});

// ---------------------------------------------------------------- messages

window.addEventListener('message', (event: MessageEvent<ToResultsPage>) => {
  const m = event.data;
  switch (m.type) {
    case 'results': {
      const { type: _type, ...view } = m;
      // A page asked for from the grid keeps the focus in the grid; a new run leaves it where it is.
      draw(view, grid.contains(document.activeElement) && state.view?.runId === view.runId);
      break;
    }
    case 'copied':
      status.textContent = `Copied ${m.rowCount} row${m.rowCount === 1 ? '' : 's'} as ${m.format.toUpperCase()}.`;
      break;
  }
});

if (state.view) draw(state.view, false);
vscode.postMessage({ type: 'ready' });
