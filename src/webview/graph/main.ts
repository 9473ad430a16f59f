/**
 * The graph webview: draws a transaction, a lineage or a range's ACS change that the panel sends, as
 * SVG laid out by the core's tidy-tree layout. Runs in the webview's sandbox: no network (the panel's
 * Content-Security-Policy allows only this script and its style sheet), theme colours from VS Code's
 * CSS variables, every action reachable by keyboard, a text alternative beside the picture, and its
 * state kept with setState so that a reload draws the same view.
 */
import { labelledTrafficCost, trafficCostSumText } from '../../core/trafficCost';
import type { ComparisonDocument, LineageDocument, RangeDiffDocument, TransactionDocument } from '../../core/graph/document';
import { comparisonCountsText, signedCount } from '../../core/graph/counts';
import { plural } from '../../core/text';
import { transactionSearchText } from '../../core/graph/search';
import { COMPARISON_SIDES, layoutComparison, layoutDocument, sideOfBox, type LaidOutBox, type Layout } from '../../core/graph/layout';
import type { FromWebview, SavedGraphState, ToWebview } from '../../core/graph/viewProtocol';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): SavedGraphState | undefined;
  setState(state: SavedGraphState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const SVG = 'http://www.w3.org/2000/svg';
/** Contracts listed beside a transaction's graph. */
const SIDE_LIST_MAX = 100;
const app = document.getElementById('app')!;

/** What the panel wrote into the page: the graph this webview shows, until setState has saved more. */
const initial = JSON.parse(app.dataset.initial ?? '{}') as Pick<SavedGraphState, 'target' | 'connectionId'>;
let state: SavedGraphState = vscode.getState() ?? { ...initial, collapsed: [], lens: [undefined, undefined] };
let layout: Layout | undefined;
let boxesById = new Map<string, LaidOutBox>();
let view = state.view ?? { x: 0, y: 0, scale: 1 };
/** How the view was fitted, while the user has not zoomed or panned since: it is fitted so again when the drawing or the window changes. */
let fitted: 'readable' | 'whole' | undefined = state.view === undefined ? 'readable' : undefined;
let viewport: SVGGElement | undefined;
let svgRoot: SVGSVGElement | undefined;
/** A comparison's matched boxes, both ways: the counterpart of each box. */
let counterparts = new Map<string, string>();
/** A comparison's contract boxes to the contract the ledger knows (a preview's new contract by its committed id). */
let comparedContracts = new Map<string, string>();

/** What draws as boxes: all but a range's table. */
type DrawnDocument = TransactionDocument | LineageDocument | ComparisonDocument;

function save(): void {
  vscode.setState({ ...state, view });
}

function post(message: FromWebview): void {
  vscode.postMessage(message);
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function button(label: string, title: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = el('button', { type: 'button', title, 'aria-label': title, ...attrs }, label);
  b.addEventListener('click', onClick);
  return b;
}

// ---------------------------------------------------------------- messages

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const m = event.data;
  switch (m.type) {
    case 'loading':
      showMessage('loading', m.title, m.detail);
      break;
    case 'error':
      showError(m);
      break;
    case 'stale':
      showStale(m.text);
      break;
    case 'document': {
      const received = performance.now();
      const sameGraph = state.document && state.document.kind === m.document.kind && state.document.title === m.document.title;
      state = { ...state, document: m.document, ...(sameGraph ? {} : { collapsed: [], lens: [undefined, undefined], selected: undefined }) };
      if (!sameGraph) {
        view = { x: 0, y: 0, scale: 1 };
        fitted = 'readable';
      }
      render(!sameGraph);
      // How long the drawing took to reach the screen (the next frame): read by the UI checks' measurement.
      requestAnimationFrame(() => (app.dataset.paintMs = (performance.now() - received).toFixed(0)));
      break;
    }
  }
});

function showMessage(kind: 'loading' | 'error', title: string, detail: string): void {
  app.replaceChildren(el('div', { class: `message ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, el('h2', {}, title), el('p', {}, detail)));
}

function showError(m: Extract<ToWebview, { type: 'error' }>): void {
  const box = el(
    'div',
    { class: 'message error', role: 'alert' },
    el('h2', {}, m.title),
    el('p', { class: 'code' }, m.code ?? ''),
    el('p', {}, m.message),
    ...(m.hint ? [el('p', { class: 'hint' }, m.hint)] : []),
  );
  const retry = button('Retry', 'Read it again', () => post({ type: 'retry' }), { id: 'retry' });
  box.append(retry);
  app.replaceChildren(box);
  retry.focus();
}

function showStale(text: string): void {
  document.getElementById('stale')?.remove();
  const banner = el('div', { id: 'stale', class: 'banner', role: 'status' }, text, ' ');
  banner.append(button('Refresh', 'Read it again', () => post({ type: 'retry' })));
  app.prepend(banner);
}

// ---------------------------------------------------------------- rendering

function render(fit: boolean): void {
  const doc = state.document;
  if (!doc) return;
  if (doc.kind === 'range-diff') return renderRangeDiff(doc);
  const toolbar = renderToolbar(doc);
  const canvas = el('div', { class: 'canvas', id: 'canvas' });
  const alternative = el('details', { class: 'text-alternative', id: 'text-alternative' }, el('summary', {}, 'As text'), el('pre', { tabindex: '0' }, doc.text));
  const legend = renderLegend(doc);
  const body = el('div', { class: 'body' }, canvas);
  if (doc.kind === 'transaction') body.append(renderAcsChange(doc));
  if (doc.kind === 'comparison') body.append(renderDifferences(doc));
  app.replaceChildren(toolbar, body, legend, alternative);
  drawGraph(canvas, doc);
  // A lens or a collapse changes the drawing's size: a view the user has not moved is fitted again.
  if (fit || fitted) fitToView(fitted !== 'whole');
  else applyView();
  save();
}

function renderToolbar(doc: DrawnDocument): HTMLElement {
  const subtitle =
    doc.kind === 'transaction'
      ? el('span', { class: 'subtitle' }, [`${doc.updateId.slice(0, 16)}…`, doc.commandId && `command ${doc.commandId}`, labelledTrafficCost(doc.trafficCost)?.toLowerCase()].filter(Boolean).join(' · '))
      : doc.kind === 'lineage'
        ? el('span', { class: 'subtitle' }, `${doc.contracts.length} contracts · ${doc.requests} requests`)
        : el('span', { class: 'subtitle', id: 'verdict' }, [doc.differences.length === 0 ? 'No differences' : plural(doc.differences.length, 'difference'), labelledTrafficCost(doc.trafficCost)?.toLowerCase()].filter(Boolean).join(' · '));
  // The title on its own, the controls in one row that scrolls when the view is too narrow for it.
  const bar = toolbarOf(doc.title, subtitle);
  const controls = el('div', { class: 'controls', role: 'toolbar', 'aria-label': 'Graph' });
  bar.append(controls);
  const search = el('input', { type: 'search', id: 'search', placeholder: 'Find contract, template, party', 'aria-label': 'Find a contract id, template or party' });
  search.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') find(search.value);
    if (e.key === 'Escape') focusBox(state.selected);
  });
  controls.append(search);
  if (doc.kind === 'transaction' && doc.parties.length > 0) {
    for (const i of [0, 1] as const) {
      const select = el('select', { id: `lens-${i}`, 'aria-label': i === 0 ? 'See as party' : 'Beside a second party' });
      select.append(el('option', { value: '' }, i === 0 ? 'All parties' : 'No second party'));
      for (const p of doc.parties) {
        const o = el('option', { value: p }, p.split('::')[0]);
        if (state.lens[i] === p) o.selected = true;
        select.append(o);
      }
      select.addEventListener('change', () => {
        state.lens[i] = select.value || undefined;
        render(false);
        document.getElementById(`lens-${i}`)?.focus();
      });
      controls.append(select);
    }
  }
  controls.append(
    button('−', 'Zoom out', () => zoom(1 / 1.25)),
    button('+', 'Zoom in', () => zoom(1.25)),
    button('Fit', 'Fit the whole graph to the view', () => fitToView(false), { id: 'fit' }),
    ...(doc.kind === 'comparison'
      ? [button('Text', 'Open the comparison as text', () => post({ type: 'export', format: 'text' }), { id: 'export-text' })]
      : [button('Mermaid', 'Open as Mermaid', () => post({ type: 'export', format: 'mermaid' }), { id: 'export-mermaid' }), button('DOT', 'Open as Graphviz DOT', () => post({ type: 'export', format: 'dot' }))]),
    button('SVG', 'Save as SVG', () => post({ type: 'saveSvg', svg: svgText() })),
  );
  // A preview has no offset yet: nothing to show in Updates.
  if (doc.kind === 'transaction' && doc.offset > 0) controls.append(button('Updates', 'Show in the Updates view', () => post({ type: 'openUpdate' })));
  if (doc.kind === 'lineage' && doc.frontier.length > 0) controls.append(button(`More (${doc.frontier.length})`, 'Walk further past the bound', () => post({ type: 'more' }), { id: 'more' }));
  return bar;
}

/** The view's heading: a title and a subtitle, each cut with an ellipsis rather than pushing the controls off. */
function toolbarOf(title: string, subtitle: HTMLElement): HTMLElement {
  return el('div', { class: 'toolbar' }, el('div', { class: 'heading' }, el('h1', { id: 'title', title }, title), subtitle));
}

function renderLegend(doc: DrawnDocument): HTMLElement {
  const items =
    doc.kind === 'transaction'
      ? [plural(doc.actions.length, 'action'), plural(doc.contracts.length, 'contract'), ...doc.byTemplate.map((t) => `${t.templateId.split(':').slice(-2).join(':')}: ${signedCount('+', t.created)} ${signedCount('−', t.consumed)}${t.transient ? ` (${t.transient} transient)` : ''}`)]
      : doc.kind === 'lineage'
        ? [plural(doc.links.length, 'link'), ...(doc.frontier.length ? [`${doc.frontier.length} past the bound`] : [])]
        : [...comparisonCountsText({ matchedActions: doc.pairs.length, matchedContractIds: doc.createdIds.length, notCompared: doc.notCompared }), 'M: the other side'];
  const lens = doc.kind === 'transaction' && state.lens[0] ? [`Seen as ${state.lens.filter(Boolean).map((p) => p!.split('::')[0]).join(' and ')}: the rest is dimmed`] : [];
  return el('div', { class: 'legend', id: 'legend', role: 'status' }, [...items, ...lens].join(' · '));
}

/** What the transaction did to the active contract set, per template, beside the graph. */
function renderAcsChange(doc: TransactionDocument): HTMLElement {
  const table = el('table', { class: 'diff', id: 'acs-change', 'aria-label': 'Active contract set change' });
  table.append(el('caption', {}, 'Active contract set change'));
  table.append(el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Template'), el('th', { scope: 'col' }, 'Created'), el('th', { scope: 'col' }, 'Consumed'), el('th', { scope: 'col' }, 'Transient'))));
  const rows = el('tbody');
  for (const t of doc.byTemplate) {
    rows.append(el('tr', {}, el('th', { scope: 'row' }, t.templateId.split(':').slice(-2).join(':')), el('td', {}, signedCount('+', t.created)), el('td', {}, signedCount('−', t.consumed)), el('td', {}, String(t.transient))));
  }
  if (doc.byTemplate.length === 0) rows.append(el('tr', {}, el('td', { colspan: '4' }, 'No change (only non-consuming exercises)')));
  table.append(rows);
  // Each contract by state, a click away from its box.
  const list = el('ul', { class: 'contracts', 'aria-label': 'Contracts of the transaction' });
  // A long list helps nobody: the first ones, and search for the rest.
  const shown = doc.contracts.slice(0, SIDE_LIST_MAX);
  for (const c of shown) {
    const item = el('li', { class: `contract ${c.state}` });
    const b = button(`${c.state} ${c.templateId.split(':').slice(-2).join(':')} ${c.contractId.slice(0, 10)}…`, `Show ${c.contractId}`, () => focusBox(c.id));
    item.append(b);
    list.append(item);
  }
  if (doc.contracts.length > shown.length) list.append(el('li', { class: 'more' }, `… ${doc.contracts.length - shown.length} more: find them with the search box`));
  return el('aside', { class: 'side acs', id: 'side' }, table, list);
}

/** What differs between a preview and its committed transaction, each a click away from its boxes. */
function renderDifferences(doc: ComparisonDocument): HTMLElement {
  const list = el('ol', { class: 'differences', id: 'differences', 'aria-label': 'Differences between the preview and the committed transaction' });
  for (const d of doc.differences) {
    const box = d.prepared !== undefined ? `${COMPARISON_SIDES.prepared}n${d.prepared}` : `${COMPARISON_SIDES.committed}n${d.committed}`;
    list.append(el('li', { class: `difference ${d.kind}` }, button(d.line, 'Show it in the graph', () => focusBox(box))));
  }
  if (doc.differences.length === 0) list.append(el('li', { class: 'none' }, 'None: the committed transaction did what the preview showed. New contract ids and times differ, as they must.'));
  return el('aside', { class: 'side compared', id: 'side' }, el('h2', {}, 'Preview vs committed'), list);
}

/** A party's role for each box of a transaction, looked up once per drawing (not per box: graphs have thousands). */
function roleLookup(doc: TransactionDocument, party: string | undefined): (box: LaidOutBox) => string | undefined | null {
  if (!party) return () => null;
  const lens = doc.lenses[party];
  if (!lens) return () => undefined;
  const seenContracts = new Set(lens.contracts);
  const contractOfBox = new Map(doc.contracts.map((c) => [c.id, c.contractId]));
  return (box) => (box.kind === 'contract' ? (seenContracts.has(contractOfBox.get(box.id) ?? '') ? 'sees' : undefined) : lens.actions[Number(box.id.slice(1))]);
}

function drawGraph(canvas: HTMLElement, doc: DrawnDocument): void {
  const lensOn = doc.kind === 'transaction' && state.lens.some(Boolean);
  layout = doc.kind === 'comparison' ? layoutComparison(doc, new Set(state.collapsed)) : layoutDocument(doc, new Set(state.collapsed), lensOn ? 1 : 0);
  boxesById = new Map(layout.boxes.map((b) => [b.id, b]));
  const marks = comparisonMarks(doc);
  svgRoot = svg('svg', { id: 'graph', role: 'tree', 'aria-label': doc.title, width: '100%', height: '100%' });
  const defs = svg('defs');
  const marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
  marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }));
  defs.append(marker);
  svgRoot.append(defs);
  viewport = svg('g', { id: 'viewport' });
  svgRoot.append(viewport);
  for (const c of layout.captions ?? []) {
    const t = svg('text', { x: c.x, y: c.y, class: 'caption' });
    t.textContent = c.text;
    viewport.append(t);
  }
  const [lensA, lensB] = doc.kind === 'transaction' ? state.lens : [undefined, undefined];
  const roleA = doc.kind === 'transaction' ? roleLookup(doc, lensA) : () => null;
  const roleB = doc.kind === 'transaction' ? roleLookup(doc, lensB) : () => null;
  for (const e of layout.edges) {
    const path = svg('path', { d: e.path, class: `edge ${e.kind}${e.cross ? ' cross' : ''}`, 'marker-end': 'url(#arrow)', 'data-from': e.from, 'data-to': e.to });
    viewport.append(path);
    if (e.label) {
      const t = svg('text', { x: e.label.x, y: e.label.y, class: 'edge-label' });
      t.textContent = e.label.text;
      viewport.append(t);
    }
  }
  for (const b of layout.boxes) {
    const roles = [roleA(b), roleB(b)];
    // Seen when no lens is on, or when any party of the lens sees it.
    const lensRoles = roles.filter((r) => r !== null);
    const seen = lensRoles.length === 0 || lensRoles.some((r) => r !== undefined);
    const g = svg('g', {
      class: `box ${b.kind}${b.state ? ` ${b.state}` : ''}${seen ? '' : ' unseen'}${b.id === state.selected ? ' selected' : ''}${marks.get(b.id) ?? ''}`,
      transform: `translate(${b.x},${b.y})`,
      tabindex: b.id === (state.selected ?? layout.boxes[0]?.id) ? 0 : -1,
      role: 'treeitem',
      'aria-label': ariaLabel(b, roles, marks.get(b.id)),
      'data-id': b.id,
      ...(b.collapsible ? { 'aria-expanded': String(b.hidden === 0) } : {}),
    });
    g.append(svg('rect', { width: b.width, height: b.height, rx: b.kind === 'exercise' ? 3 : 10 }));
    b.lines.forEach((line, i) => {
      const t = svg('text', { x: 8, y: 8 + 12 + i * 15, class: i === 0 ? 'head' : 'line' });
      t.textContent = line;
      g.append(t);
    });
    const badges = roles.map((r, i) => (r && r !== null ? `${(i === 0 ? lensA : lensB)!.split('::')[0]}: ${r}` : '')).filter(Boolean);
    if (badges.length > 0) {
      const t = svg('text', { x: 8, y: 8 + 12 + b.lines.length * 15, class: 'role' });
      t.textContent = badges.join(' · ');
      g.append(t);
    }
    if (b.collapsible) {
      const toggle = svg('text', { x: b.width - 8, y: 16, class: 'toggle', 'text-anchor': 'end' });
      toggle.textContent = b.hidden > 0 ? `+${b.hidden}` : '−';
      toggle.addEventListener('click', (ev) => {
        ev.stopPropagation();
        toggleCollapse(b.id);
      });
      g.append(toggle);
    }
    g.addEventListener('click', () => select(b.id));
    g.addEventListener('dblclick', () => open(b.id));
    g.addEventListener('keydown', (ev) => onBoxKey(ev, b.id));
    viewport.append(g);
  }
  canvas.append(svgRoot);
  enablePanZoom(svgRoot);
}

function ariaLabel(b: LaidOutBox, roles: (string | null | undefined)[], mark = ''): string {
  const seen = roles.filter((r) => r !== null).map((r) => r ?? 'not seen');
  const side = sideOfBox(b.id);
  const compared = mark.includes('unmatched') ? 'on this side only' : mark.includes('differs') ? 'differs' : '';
  return [side ? (side.side === 'prepared' ? 'preview' : 'committed') : '', ...b.lines, b.hidden ? `${b.hidden} hidden` : '', ...seen, compared].filter(Boolean).join(', ');
}

/**
 * A comparison's marks per box (` differs`, ` unmatched`), its counterparts for M and the selection,
 * and its contracts for opening and search: looked up once per drawing, not per box.
 */
function comparisonMarks(doc: DrawnDocument): Map<string, string> {
  const marks = new Map<string, string>();
  counterparts = new Map();
  comparedContracts = new Map();
  if (doc.kind !== 'comparison') return marks;
  const { prepared: p, committed: c } = COMPARISON_SIDES;
  // A contract the preview would create has its id only in the preview: the ledger knows the committed one.
  const committedId = new Map(doc.createdIds);
  for (const x of doc.prepared.contracts) comparedContracts.set(p + x.id, committedId.get(x.contractId) ?? x.contractId);
  for (const x of doc.committed.contracts) comparedContracts.set(c + x.id, x.contractId);
  for (const [a, b] of doc.pairs) {
    counterparts.set(p + a, c + b);
    counterparts.set(c + b, p + a);
  }
  for (const d of doc.differences) {
    const mark = d.kind === 'only-prepared' || d.kind === 'only-committed' ? ' unmatched' : ' differs';
    if (d.prepared !== undefined) marks.set(`${p}n${d.prepared}`, mark);
    if (d.committed !== undefined) marks.set(`${c}n${d.committed}`, mark);
  }
  return marks;
}

function renderRangeDiff(doc: RangeDiffDocument): void {
  const table = el('table', { class: 'diff', 'aria-label': doc.title });
  table.append(el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Template'), el('th', { scope: 'col' }, 'Added'), el('th', { scope: 'col' }, 'Removed'), el('th', { scope: 'col' }, 'Transient'))));
  const body = el('tbody');
  for (const t of doc.diff.templates) {
    body.append(el('tr', {}, el('th', { scope: 'row' }, t.templateId), el('td', {}, signedCount('+', t.added.length)), el('td', {}, signedCount('−', t.removed.length)), el('td', {}, String(t.transient))));
  }
  table.append(body);
  app.replaceChildren(
    toolbarOf(doc.title, el('span', { class: 'subtitle' }, [`${doc.diff.transactions} transactions`, doc.diff.trafficCost?.paid ? labelledTrafficCost(trafficCostSumText(doc.diff.trafficCost))?.toLowerCase() : undefined].filter(Boolean).join(' · '))),
    doc.diff.templates.length ? table : el('p', {}, 'No change.'),
    el('details', { class: 'text-alternative' }, el('summary', {}, 'As text'), el('pre', { tabindex: '0' }, doc.text)),
  );
  save();
}

// ---------------------------------------------------------------- interaction

function select(id: string | undefined): void {
  if (!id || !boxesById.has(id)) return;
  state.selected = id;
  const counterpart = counterparts.get(id);
  for (const g of Array.from(viewport?.querySelectorAll<SVGGElement>('g.box') ?? [])) {
    const mine = g.dataset.id === id;
    g.classList.toggle('selected', mine);
    g.classList.toggle('counterpart', g.dataset.id === counterpart);
    g.setAttribute('tabindex', mine ? '0' : '-1');
  }
  save();
}

function focusBox(id: string | undefined): void {
  if (!id) return;
  select(id);
  const g = viewport?.querySelector<SVGGElement>(`g.box[data-id="${id}"]`);
  if (!g) return;
  g.focus();
  ensureVisible(boxesById.get(id)!);
}

/** The contract a box shows, in any kind of drawing (a comparison's preview side by its committed id). */
function contractOfBox(id: string): string | undefined {
  const doc = state.document;
  if (doc?.kind === 'transaction') return doc.contracts.find((x) => x.id === id)?.contractId;
  if (doc?.kind === 'lineage') return id.startsWith('c') ? doc.contracts[Number(id.slice(1))]?.contractId : undefined;
  return doc?.kind === 'comparison' ? comparedContracts.get(id) : undefined;
}

function open(id: string): void {
  const doc = state.document;
  if (!doc || doc.kind === 'range-diff') return;
  if (doc.kind === 'comparison') {
    const side = sideOfBox(id);
    // The JSON of a node is the committed transaction's; the preview's is in the preview document.
    if (side?.side === 'committed' && side.id.startsWith('n')) post({ type: 'openNode', nodeId: Number(side.id.slice(1)) });
    const contractId = contractOfBox(id);
    if (contractId) post({ type: 'openContract', contractId });
    return;
  }
  if (doc.kind === 'lineage') {
    const c = doc.contracts[Number(id.slice(1))];
    if (c) post({ type: 'openContract', contractId: c.contractId });
    return;
  }
  if (id.startsWith('n')) post({ type: 'openNode', nodeId: Number(id.slice(1)) });
  else {
    const c = doc.contracts.find((x) => x.id === id);
    if (c) post({ type: 'openContract', contractId: c.contractId });
  }
}

function toggleCollapse(id: string): void {
  const set = new Set(state.collapsed);
  if (set.has(id)) set.delete(id);
  else set.add(id);
  state.collapsed = [...set];
  state.selected = id;
  render(false);
  focusBox(id);
}

function siblingsOf(b: LaidOutBox): string[] {
  if (b.parent) return boxesById.get(b.parent)!.children;
  return layout!.boxes.filter((x) => !x.parent).map((x) => x.id);
}

function onBoxKey(ev: KeyboardEvent, id: string): void {
  const b = boxesById.get(id)!;
  const siblings = siblingsOf(b);
  const at = siblings.indexOf(id);
  let next: string | undefined;
  switch (ev.key) {
    case 'ArrowUp':
      next = b.parent;
      break;
    case 'ArrowDown':
      next = b.children[0];
      break;
    case 'ArrowLeft':
      next = siblings[at - 1];
      break;
    case 'ArrowRight':
      next = siblings[at + 1];
      break;
    case 'Home':
      next = layout!.boxes[0]?.id;
      break;
    case 'Enter':
      open(id);
      break;
    case ' ':
    case '-':
    case '+':
      if (b.collapsible) toggleCollapse(id);
      break;
    case 'l':
    case 'L': {
      const contractId = contractOfBox(id);
      if (contractId) post({ type: 'lineage', contractId });
      break;
    }
    case 'm':
    case 'M':
      next = counterparts.get(id);
      break;
    case 'f':
      fitToView(false);
      break;
    case '/':
      document.getElementById('search')?.focus();
      break;
    default:
      return;
  }
  ev.preventDefault();
  if (next) focusBox(next);
}

/** Each box's search text, by box id: a comparison's boxes by their side's document. */
function searchTextOf(doc: DrawnDocument): Map<string, string> {
  if (doc.kind === 'transaction') return transactionSearchText(doc);
  if (doc.kind === 'comparison') {
    const text = new Map<string, string>();
    for (const side of ['prepared', 'committed'] as const) {
      for (const [id, t] of transactionSearchText(doc[side])) text.set(COMPARISON_SIDES[side] + id, `${t} ${contractOfBox(COMPARISON_SIDES[side] + id) ?? ''}`);
    }
    return text;
  }
  return new Map(doc.contracts.map((c, i) => [`c${i}`, [...c.label, c.contractId, c.templateId].join(' ').toLowerCase()]));
}

function find(text: string): void {
  const q = text.trim().toLowerCase();
  const doc = state.document;
  if (!q || !doc || doc.kind === 'range-diff' || !layout) return;
  const haystack = searchTextOf(doc);
  const start = layout.boxes.findIndex((b) => b.id === state.selected);
  const order = [...layout.boxes.slice(start + 1), ...layout.boxes.slice(0, start + 1)];
  // A box that shows the text wins over one that only refers to it (a contract over the create of it).
  const hit = order.find((b) => b.lines.join(' ').toLowerCase().includes(q)) ?? order.find((b) => (haystack.get(b.id) ?? '').includes(q));
  const status = document.getElementById('legend');
  if (!hit) {
    if (status) status.textContent = `Nothing matches “${text}”`;
    return;
  }
  focusBox(hit.id);
}

// ---------------------------------------------------------------- zoom and pan

/** Box text is 11 px: fitting never draws it smaller than about 9 px (zoom out for the overview). */
const MIN_READABLE_SCALE = 0.85;
/** A lineage is read box by box, its few lines each: fitting draws its text at 12 px at least (the rest is a pan away). */
const MIN_LINEAGE_SCALE = 12 / 11;

function applyView(): void {
  viewport?.setAttribute('transform', `translate(${view.x},${view.y}) scale(${view.scale})`);
  save();
}

function zoom(factor: number, cx?: number, cy?: number): void {
  if (!svgRoot) return;
  const r = svgRoot.getBoundingClientRect();
  const x = cx ?? r.width / 2;
  const y = cy ?? r.height / 2;
  const scale = Math.min(4, Math.max(0.05, view.scale * factor));
  view = { scale, x: x - ((x - view.x) * scale) / view.scale, y: y - ((y - view.y) * scale) / view.scale };
  fitted = undefined;
  applyView();
}

/**
 * Fits the drawing to the view: `readable`, never below a readable size (a larger drawing starts at
 * its top left and pans; a lineage's text at 12 px), and a comparison, read side by side, to the view's
 * width; else all of it.
 */
function fitToView(readable = true): void {
  if (!svgRoot || !layout) return;
  const r = svgRoot.getBoundingClientRect();
  const byWidth = r.width / layout.width;
  const whole = Math.min(byWidth, r.height / layout.height);
  const wanted = readable && state.document?.kind === 'comparison' ? byWidth : whole;
  const smallest = !readable ? 0.05 : state.document?.kind === 'lineage' ? MIN_LINEAGE_SCALE : MIN_READABLE_SCALE;
  const scale = Math.min(1.5, Math.max(smallest, wanted));
  view = { scale, x: Math.max(0, (r.width - layout.width * scale) / 2), y: Math.max(0, (r.height - layout.height * scale) / 2) };
  fitted = readable ? 'readable' : 'whole';
  applyView();
}

function ensureVisible(b: LaidOutBox): void {
  if (!svgRoot) return;
  const r = svgRoot.getBoundingClientRect();
  const left = b.x * view.scale + view.x;
  const top = b.y * view.scale + view.y;
  const right = left + b.width * view.scale;
  const bottom = top + b.height * view.scale;
  if (left >= 0 && top >= 0 && right <= r.width && bottom <= r.height) return;
  view = { ...view, x: r.width / 2 - (b.x + b.width / 2) * view.scale, y: r.height / 2 - (b.y + b.height / 2) * view.scale };
  fitted = undefined;
  applyView();
}

function enablePanZoom(root: SVGSVGElement): void {
  let drag: { x: number; y: number } | undefined;
  root.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = root.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1.1 : 1 / 1.1, e.clientX - r.left, e.clientY - r.top);
  });
  root.addEventListener('pointerdown', (e) => {
    if ((e.target as Element).closest('g.box')) return;
    drag = { x: e.clientX - view.x, y: e.clientY - view.y };
    root.setPointerCapture(e.pointerId);
  });
  root.addEventListener('pointermove', (e) => {
    if (!drag) return;
    view = { ...view, x: e.clientX - drag.x, y: e.clientY - drag.y };
    fitted = undefined;
    viewport?.setAttribute('transform', `translate(${view.x},${view.y}) scale(${view.scale})`);
  });
  root.addEventListener('pointerup', () => {
    drag = undefined;
    save();
  });
}

/** The drawing as a standalone SVG file, with the theme's colours written in. */
function svgText(): string {
  if (!svgRoot || !layout) return '';
  const copy = svgRoot.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', SVG);
  copy.setAttribute('width', String(layout.width));
  copy.setAttribute('height', String(layout.height));
  copy.setAttribute('viewBox', `0 0 ${layout.width} ${layout.height}`);
  copy.querySelector('#viewport')?.removeAttribute('transform');
  const css = getComputedStyle(document.body);
  const color = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const style = document.createElementNS(SVG, 'style');
  style.textContent = [
    `text{font-family:sans-serif;font-size:11px;fill:${color('--vscode-editor-foreground', '#333')}}`,
    `rect{fill:${color('--vscode-editor-background', '#fff')};stroke:${color('--vscode-editor-foreground', '#333')}}`,
    `.edge{fill:none;stroke:${color('--vscode-editor-foreground', '#333')}}`,
    `.edge.consumes,.edge.uses,.edge.cross{stroke-dasharray:5 3}`,
    `.unseen{opacity:.35}`,
  ].join('\n');
  copy.prepend(style);
  return new XMLSerializer().serializeToString(copy);
}

// ---------------------------------------------------------------- start

document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  if (e.key === '/' && !(e.target instanceof SVGElement)) {
    e.preventDefault();
    document.getElementById('search')?.focus();
  }
});
window.addEventListener('resize', () => {
  if (layout && fitted) fitToView(fitted === 'readable');
});

save();
if (state.document) render(false);
post({ type: 'ready' });
