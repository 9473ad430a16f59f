/**
 * The graph webview's own script (dist/webview/graph.js) in a real browser (Debian's Chromium, driven by
 * playwright-core), under the same Content-Security-Policy as the panel: what it draws, the keyboard,
 * the lens, collapse, search, its saved state, the exports it asks for; and the Mermaid the CLI and the
 * panel export, rendered by Mermaid itself.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { comparisonDocument, lineageDocument, rangeDiffDocument, transactionDocument, type GraphDocument } from '../../src/core/graph/document';
import { previewGraph } from '../../src/core/graph/preview';
import type { PreviewNode } from '../../src/core/preview/model';
import type { TrafficCostEstimate } from '../../src/core/trafficCost';
import { toMermaid } from '../../src/core/graph/export';
import type { Lineage } from '../../src/core/graph/lineage';
import { buildTransactionGraph } from '../../src/core/graph/model';
import { decodeTransaction } from '../../src/core/models/updates';
import type * as wire from '../../src/core/models/wire';
import { generatedTransaction } from '../support/transactions';
import { hostOf, ROOT, startPageHarness, type PageHarness } from './harness';

const SCRIPT = path.join(ROOT, 'dist', 'webview', 'graph.js');

const IOU = '#demo-iou:Iou:Iou';
const ALICE = 'Alice::1220aa';
const BOB = 'Bob::1220bb';
const BANK = 'Bank::1220cc';
function tx(events: wire.Event[]): GraphDocument {
  return transactionDocument(buildTransactionGraph(decodeTransaction({ updateId: '1220ff00', offset: 9, effectiveAt: 't', recordTime: 't', synchronizerId: 's', commandId: 'transfer-1', events })));
}
const TRANSFER = tx([
  {
    ExercisedEvent: { offset: 9, nodeId: 0, lastDescendantNodeId: 1, contractId: '00aa', templateId: IOU, packageName: 'demo-iou', choice: 'Iou_Transfer', choiceArgument: {}, actingParties: [ALICE], consuming: true, witnessParties: [ALICE, BANK] },
  },
  {
    CreatedEvent: { offset: 9, nodeId: 1, contractId: '00bb', templateId: IOU, packageName: 'demo-iou', createdAt: 't', createArgument: {}, signatories: [BANK], observers: [BOB], witnessParties: [ALICE, BANK, BOB] },
  },
]);

/**
 * A preview of an Iou transfer to Charlie beside the committed transfer to Bob (one difference). With
 * costs: the participant's estimate on the preview (the prepare answer's `costEstimation`) and the paid
 * cost on the committed transaction (`paidTrafficCost`, 3.4.12+).
 */
function previewAndCommitted(costs?: { paid: number; estimate: TrafficCostEstimate }) {
  const committedEvents: wire.Event[] = [
    { ExercisedEvent: { offset: 9, nodeId: 0, lastDescendantNodeId: 1, contractId: '00aa', templateId: IOU, packageName: 'demo-iou', choice: 'Iou_Transfer', choiceArgument: { newOwner: BOB }, actingParties: [ALICE], consuming: true, witnessParties: [ALICE, BANK] } },
    { CreatedEvent: { offset: 9, nodeId: 1, contractId: '00bb', templateId: IOU, packageName: 'demo-iou', createdAt: 't', createArgument: { owner: BOB }, signatories: [BANK], observers: [BOB], witnessParties: [ALICE, BANK, BOB] } },
  ];
  const committed = buildTransactionGraph(
    decodeTransaction({ updateId: '1220ff00', offset: 9, effectiveAt: 't', recordTime: 't', synchronizerId: 's', commandId: 'transfer-1', events: committedEvents, ...(costs ? { paidTrafficCost: costs.paid } : {}) }),
  );
  const base = { signatories: [BANK], actingParties: [] as string[], choiceObservers: [] as string[], templateId: IOU, packageName: 'demo-iou', children: [] as PreviewNode[] };
  const prepared = previewGraph(
    {
      transactionVersion: '2.1', actAs: [ALICE], commandId: 'transfer-1', synchronizerId: 's', transactionUuid: 'x', inputContracts: [],
      roots: [{ ...base, nodeId: '0', kind: 'exercise', contractId: '00aa', choice: 'Iou_Transfer', consuming: true, actingParties: [ALICE], stakeholders: [BANK, ALICE], informees: [ALICE, BANK], choiceArgument: { newOwner: 'Charlie::1220dd' },
        children: [{ ...base, nodeId: '1', kind: 'create', contractId: '00p1', stakeholders: [BANK, BOB], informees: [BANK, BOB], argument: { owner: BOB } }] }],
    },
    costs?.estimate,
  );
  return { prepared, committed };
}

/** The panel's page: the same CSP as GraphPanels writes, a stand-in for acquireVsCodeApi that records. */
function page(origin: string, initial: unknown): string {
  return `<!DOCTYPE html><html><head>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${origin} data:; style-src ${origin}; font-src ${origin}; script-src 'nonce-abc' ${origin};">
<link rel="stylesheet" href="${origin}/media/graph/graph.css"></head>
<body class="vscode-dark"><div id="app" data-initial='${JSON.stringify(initial)}'></div>
<script nonce="abc" src="${origin}/host.js"></script>
<script nonce="abc" src="${origin}/dist/webview/graph.js"></script></body></html>`;
}

describe('graph webview in Chromium', function () {
  this.timeout(60_000);
  let harness: PageHarness;

  before(async () => {
    harness = await startPageHarness(SCRIPT, {
      '/': (origin) => page(origin, { target: { kind: 'transaction', offset: 9 } }),
      '/mermaid.html': (origin) => `<!DOCTYPE html><html><body><div id="out"></div><script src="${origin}/node_modules/mermaid/dist/mermaid.min.js"></script></body></html>`,
    });
  });
  after(() => harness?.close());

  async function open(doc?: GraphDocument, state?: unknown): Promise<Page> {
    harness.saved = state;
    const p = await harness.open();
    if (doc) {
      await p.evaluate((d) => window.postMessage({ type: 'document', document: d }, '*'), doc as never);
      await p.waitForSelector('g.box');
    }
    return p;
  }
  const host = hostOf;

  /** Resizes the page and returns once the page has handled the resize (its fit runs in the resize event) and painted. */
  async function resizeTo(p: Page, size: { width: number; height: number }): Promise<void> {
    // A string, not a function: the test runner's compiler would add helpers the page does not have.
    await p.evaluate(`window.__resized = new Promise((resolve) => window.addEventListener('resize', () => requestAnimationFrame(() => resolve(true)), { once: true })); undefined`);
    await p.setViewportSize(size);
    await p.evaluate(`window.__resized`);
  }

  it('draws every action and contract as a focusable tree item, with no CSP violation and no error', async () => {
    const p = await open(TRANSFER);
    const boxes = await p.$$eval('g.box', (gs) => gs.map((g) => [g.getAttribute('data-id'), g.getAttribute('role'), g.getAttribute('aria-label')]));
    const doc = TRANSFER as Extract<GraphDocument, { kind: 'transaction' }>;
    assert.equal(boxes.length, doc.actions.length + doc.contracts.length);
    assert.ok(boxes.every(([, role]) => role === 'treeitem'));
    assert.ok(boxes.some(([, , label]) => /exercise Iou_Transfer, on Iou:Iou, by Alice/.test(label!)));
    assert.equal(await p.$$eval('path.edge', (e) => e.length), doc.edges.length);
    assert.match(await p.textContent('#text-alternative pre') ?? '', /exercise Iou_Transfer on Iou:Iou/);
    // The ACS change beside the graph: one row per template, and each contract a button to its box.
    assert.deepEqual(await p.$$eval('#acs-change tbody tr', (rows) => rows.map((r) => Array.from(r.children).map((c) => c.textContent))), [['Iou:Iou', '+1', '−1', '0']]);
    await p.click('#side li.created button');
    assert.match((await p.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '', /^Iou:Iou 00bb, created/);
    const h = await host(p);
    assert.deepEqual(h.violations, []);
    assert.deepEqual((p as Page & { errors: string[] }).errors, []);
    // Colours come only from the theme's variables: the style sheet names no colour of its own.
    assert.doesNotMatch(readFileSync(path.join(ROOT, 'media', 'graph', 'graph.css'), 'utf8'), /#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i);
    await p.close();
  });

  it('moves between boxes with the keyboard: down to a child, up to the parent, Enter opens', async () => {
    const p = await open(TRANSFER);
    await p.focus('g.box[tabindex="0"]');
    const focused = () => p.evaluate(() => document.activeElement?.getAttribute('data-id'));
    const first = await focused();
    await p.keyboard.press('ArrowDown');
    const child = await focused();
    assert.notEqual(child, first);
    await p.keyboard.press('ArrowUp');
    assert.equal(await focused(), first);
    await p.keyboard.press('ArrowDown');
    await p.keyboard.press('Enter');
    const posted = (await host(p)).posted;
    assert.ok(posted.some((m: any) => m.type === 'openNode' || m.type === 'openContract'), JSON.stringify(posted));
    await p.close();
  });

  it('the party lens dims what Bob does not see and names his role; two parties side by side', async () => {
    const p = await open(TRANSFER);
    await p.selectOption('#lens-0', BOB);
    await p.waitForSelector('g.box.unseen');
    const unseen = await p.$$eval('g.box.unseen', (gs) => gs.map((g) => g.getAttribute('aria-label')));
    assert.ok(unseen.some((l) => /exercise Iou_Transfer/.test(l!)), 'Bob does not see the exercise');
    const seen = await p.$$eval('g.box:not(.unseen) text.role', (ts) => ts.map((t) => t.textContent));
    assert.ok(seen.some((t) => /Bob: stakeholder/.test(t!)), seen.join('|'));
    await p.selectOption('#lens-1', ALICE);
    await p.waitForFunction(() => document.querySelectorAll('g.box.unseen').length === 0);
    const roles = await p.$$eval('text.role', (ts) => ts.map((t) => t.textContent));
    assert.ok(roles.some((t) => /Alice: actor/.test(t!)), roles.join('|'));
    assert.match((await p.textContent('#legend')) ?? '', /Seen as Bob and Alice/);
    await p.close();
  });

  it('collapses a subtree and counts what it hides; search finds a contract; the state survives a reload', async () => {
    const p = await open(TRANSFER);
    const root = await p.$eval('g.box[aria-expanded]', (g) => g.getAttribute('data-id'));
    await p.focus(`g.box[data-id="${root}"]`);
    await p.keyboard.press(' ');
    await p.waitForSelector(`g.box[data-id="${root}"][aria-expanded="false"]`);
    assert.match((await p.textContent(`g.box[data-id="${root}"] text.toggle`)) ?? '', /^\+\d+$/);
    await p.keyboard.press(' ');
    await p.waitForSelector(`g.box[data-id="${root}"][aria-expanded="true"]`);
    await p.fill('#search', '00bb');
    await p.press('#search', 'Enter');
    await p.waitForFunction(() => /00bb/.test(document.activeElement?.getAttribute('aria-label') ?? ''));
    await p.selectOption('#lens-0', BOB);
    await p.waitForSelector('g.box.unseen');
    const state = (await host(p)).state;
    await p.close();
    // A reloaded panel: VS Code hands the saved state back; nothing is sent, the same view is drawn.
    const again = await open(undefined, state);
    await again.waitForSelector('g.box.unseen');
    assert.equal(await again.$eval('#lens-0', (s) => (s as HTMLSelectElement).value), BOB);
    assert.match((await again.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '', /00bb|/);
    await again.close();
  });

  it('"/" finds a party by any of its parts: Bob, only a stakeholder (an observer of the new contract), is found', async () => {
    const p = await open(TRANSFER);
    await p.keyboard.press('/');
    assert.equal(await p.evaluate(() => document.activeElement?.id), 'search');
    await p.fill('#search', 'Bob');
    await p.press('#search', 'Enter');
    // The new contract or its create: both show Bob as a stakeholder.
    await p.waitForFunction(() => /^(create Iou_Transfer|create|Iou:Iou 00bb)/.test(document.activeElement?.getAttribute('aria-label') ?? ''));
    assert.doesNotMatch((await p.textContent('#legend')) ?? '', /Nothing matches/);
    await p.fill('#search', 'Charlie');
    await p.press('#search', 'Enter');
    await p.waitForFunction(() => /Nothing matches “Charlie”/.test(document.getElementById('legend')?.textContent ?? ''));
    await p.close();
  });

  /** What a half-width view must hold: nothing outside the page, every box inside the drawing's area, text of a readable size, the controls in one row. */
  async function assertReadableAtHalfWidth(p: Page): Promise<void> {
    const m = await p.evaluate(() => {
      const svg = document.getElementById('graph')!.getBoundingClientRect();
      const boxes = Array.from(document.querySelectorAll('g.box')).map((g) => g.getBoundingClientRect());
      const scale = Number(/scale\(([\d.]+)\)/.exec(document.getElementById('viewport')!.getAttribute('transform') ?? '')?.[1]);
      const fonts = Array.from(document.querySelectorAll('#viewport text')).map((t) => parseFloat(getComputedStyle(t).fontSize));
      const controls = Array.from(document.querySelectorAll('.toolbar .controls > *')).map((c) => c.getBoundingClientRect());
      return {
        page: { scrollWidth: document.documentElement.scrollWidth, width: document.documentElement.clientWidth, scrollHeight: document.documentElement.scrollHeight, height: document.documentElement.clientHeight },
        clipped: boxes.filter((b) => b.top < svg.top - 0.5 || b.bottom > svg.bottom + 0.5 || b.left < svg.left - 0.5 || b.right > svg.right + 0.5).length,
        smallest: Math.min(...fonts) * scale,
        rows: new Set(controls.map((c) => Math.round((c.top + c.bottom) / 2))).size,
        tops: controls.map((c) => [c.top, c.bottom]),
      };
    });
    assert.ok(m.page.scrollWidth <= m.page.width && m.page.scrollHeight <= m.page.height, `the page overflows: ${JSON.stringify(m.page)}`);
    assert.equal(m.clipped, 0, 'every box is inside the drawing');
    assert.ok(m.smallest >= 9, `smallest text ${m.smallest.toFixed(1)} px`);
    assert.equal(m.rows, 1, `the controls stay in one row: ${JSON.stringify(m.tops)}`);
  }

  it('at half width (600 px) with the lens on: every box shows whole, the text is readable, the controls stay in one row', async () => {
    const p = await open();
    await p.setViewportSize({ width: 600, height: 700 });
    await p.evaluate((d) => window.postMessage({ type: 'document', document: d }, '*'), TRANSFER as never);
    await p.waitForSelector('g.box');
    await p.selectOption('#lens-0', BOB);
    await p.selectOption('#lens-1', ALICE);
    await p.waitForFunction(() => /Seen as Bob and Alice/.test(document.getElementById('legend')?.textContent ?? ''));
    await assertReadableAtHalfWidth(p);
    // A lineage of many contracts is drawn at a readable size too: the rest is a pan away.
    const ref = (offset: number) => ({ updateId: `u${offset}`, offset });
    const ids = Array.from({ length: 12 }, (_, i) => `00${String(i).padStart(2, '0')}`);
    const lineage: Lineage = {
      start: ids[0],
      contracts: new Map(ids.map((id, i) => [id, { contractId: id, templateId: IOU, state: i === 0 ? 'archived' : 'active', distance: i === 0 ? 0 : 1, createdIn: ref(1), ...(i === 0 ? { archivedIn: ref(2) } : {}) }])),
      links: ids.slice(1).map((child) => ({ parent: ids[0], child, via: ref(2), choice: 'Iou_Split', consuming: true })),
      transactions: new Map(),
      frontier: [],
      requests: 1,
    };
    await p.evaluate((d) => window.postMessage({ type: 'document', document: d }, '*'), lineageDocument(lineage) as never);
    await p.waitForFunction(() => document.querySelectorAll('g.box').length === 12);
    const m = await p.evaluate(() => ({
      scale: Number(/scale\(([\d.]+)\)/.exec(document.getElementById('viewport')!.getAttribute('transform') ?? '')?.[1]),
      label: parseFloat(getComputedStyle(document.querySelector('text.edge-label')!).fontSize),
      overflow: document.documentElement.scrollWidth > document.documentElement.clientWidth,
    }));
    // A lineage is read box by box: its text at 12 px at least, as readable as the editor's.
    assert.ok(m.scale * m.label >= 12, `lineage labels drawn at ${(m.scale * m.label).toFixed(1)} px`);
    assert.equal(m.overflow, false);
    await p.close();
  });

  it('a range’s ACS change never prints a signed zero', async () => {
    const p = await open();
    const diff = { beginExclusive: 0, endInclusive: 5, transactions: 3, templates: [{ templateId: IOU, added: ['00a', '00b'], removed: [], transient: 0 }, { templateId: '#demo-iou:Iou:Other', added: [], removed: ['00c'], transient: 1 }] };
    await p.evaluate((d) => window.postMessage({ type: 'document', document: d }, '*'), rangeDiffDocument(diff) as never);
    await p.waitForSelector('table.diff tbody tr');
    assert.deepEqual(await p.$$eval('table.diff tbody tr', (rows) => rows.map((r) => Array.from(r.children).map((c) => c.textContent))), [
      [IOU, '+2', '0', '0'],
      ['#demo-iou:Iou:Other', '0', '−1', '1'],
    ]);
    assert.doesNotMatch((await p.textContent('body')) ?? '', /[−+-]0\b/);
    await p.close();
  });

  it('the header shows the traffic cost: a transaction’s paid cost, a preview’s estimate, the paid cost beside the estimate, a range’s sum', async () => {
    const estimate: TrafficCostEstimate = { request: 1_200, response: 300, total: 1_500, estimatedAt: '2026-12-01T10:00:00Z' };
    const { prepared, committed } = previewAndCommitted({ paid: 1_480, estimate });
    const p = await open();
    const subtitle = async (doc: GraphDocument, drawn: string) => {
      await p.evaluate((d) => window.postMessage({ type: 'document', document: d }, '*'), doc as never);
      await p.waitForFunction((title) => document.getElementById('title')?.textContent === title, doc.title);
      await p.waitForSelector(drawn);
      return p.$eval('.toolbar .subtitle', (e) => e.textContent);
    };
    assert.equal(await subtitle(transactionDocument(committed), 'g.box'), '1220ff00… · command transfer-1 · traffic cost: paid 1,480 bytes');
    assert.equal(await subtitle(transactionDocument(prepared, 'Preview of transfer-1'), 'g.box'), 'preview of trans… · command transfer-1 · traffic cost: estimated 1,500 bytes (confirmation request 1,200 bytes + response 300 bytes)');
    assert.equal(await subtitle(comparisonDocument(prepared, committed), 'g.box.differs'), '1 difference · traffic cost: paid 1,480 bytes (estimated 1,500 bytes)');
    // Paid but not reported by the participant: the estimate stays, and the header says so.
    const unreported = previewAndCommitted({ paid: 1_480, estimate });
    delete unreported.committed.paidTrafficCost;
    assert.equal(await subtitle({ ...comparisonDocument(unreported.prepared, unreported.committed), title: 'unreported' }, 'g.box.differs'), '1 difference · traffic cost: paid: not reported (estimated 1,500 bytes)');
    const diff = { beginExclusive: 0, endInclusive: 5, transactions: 3, templates: [{ templateId: IOU, added: ['00a'], removed: [], transient: 0 }], trafficCost: { total: 3_456, paid: 2, unreported: 1 } };
    assert.equal(await subtitle(rangeDiffDocument(diff), 'table.diff tbody tr'), '3 transactions · traffic cost: paid 3,456 bytes over 2 updates (1 without a reported cost)');
    // A range where no update reported a cost names none.
    assert.equal(await subtitle({ ...rangeDiffDocument({ ...diff, trafficCost: { total: 0, paid: 0, unreported: 3 } }), title: 'none reported' }, 'table.diff tbody tr'), '3 transactions');
    assert.deepEqual((await host(p)).violations, []);
    assert.deepEqual((p as Page & { errors: string[] }).errors, []);
    await p.close();
  });

  it('asks the panel for exports and a lineage, and shows an error with Retry', async () => {
    const p = await open(TRANSFER);
    await p.click('#export-mermaid');
    await p.click('button[title="Save as SVG"]');
    const posted = (await host(p)).posted;
    assert.ok(posted.some((m: any) => m.type === 'export' && m.format === 'mermaid'));
    const svg = posted.find((m: any) => m.type === 'saveSvg').svg as string;
    assert.match(svg, /^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(svg, /Iou_Transfer/);
    await p.evaluate(() => window.postMessage({ type: 'error', title: 'Could not read', message: 'Update not found', code: 'UPDATE_NOT_FOUND', hint: 'No update with that id' }, '*'));
    await p.waitForSelector('#retry');
    assert.equal(await p.evaluate(() => document.activeElement?.id), 'retry', 'Retry has the focus');
    assert.match((await p.textContent('.message.error')) ?? '', /UPDATE_NOT_FOUND/);
    await p.keyboard.press('Enter');
    assert.ok((await host(p)).posted.some((m: any) => m.type === 'retry'));
    await p.close();
  });

  it('draws a lineage with the choice on each link, and offers More past the bound', async () => {
    const ref = (offset: number) => ({ updateId: `u${offset}`, offset });
    const lineage: Lineage = {
      start: '00b',
      contracts: new Map([
        ['00a', { contractId: '00a', templateId: IOU, state: 'archived', distance: 1, createdIn: ref(1), archivedIn: ref(2) }],
        ['00b', { contractId: '00b', templateId: IOU, state: 'active', distance: 0, createdIn: ref(2) }],
      ]),
      links: [{ parent: '00a', child: '00b', via: ref(2), choice: 'Iou_Transfer', consuming: true }],
      transactions: new Map(),
      frontier: [{ contractId: '00a', direction: 'back' }],
      requests: 3,
    };
    const p = await open(lineageDocument(lineage));
    assert.equal(await p.$$eval('g.box', (g) => g.length), 2);
    assert.equal(await p.textContent('text.edge-label'), 'Iou_Transfer @2');
    await p.click('#more');
    assert.ok((await host(p)).posted.some((m: any) => m.type === 'more'));
    await p.close();
  });

  it('draws 1,000 nodes: first paint measured', async () => {
    const big = transactionDocument(buildTransactionGraph(decodeTransaction(generatedTransaction(1_000))));
    const p = await open();
    // A string, not a function: the test runner's compiler would add helpers the page does not have.
    await p.evaluate(`window.__big = ${JSON.stringify(big)}`);
    const ms = (await p.evaluate(`new Promise((resolve) => {
      const t0 = performance.now();
      window.postMessage({ type: 'document', document: window.__big }, '*');
      const painted = () => (document.querySelectorAll('g.box').length > 0 ? requestAnimationFrame(() => resolve(performance.now() - t0)) : requestAnimationFrame(painted));
      painted();
    })`)) as number;
    assert.equal(await p.$$eval('g.box', (g) => g.length), big.kind === 'transaction' ? big.actions.length + big.contracts.length : 0);
    console.log(`      first paint of 1,000 nodes: ${ms.toFixed(0)} ms`);
    await p.close();
  });

  it('a preview beside its committed transaction: both sides drawn, the difference marked and listed, M jumps across', async () => {
    const { prepared, committed } = previewAndCommitted();
    const doc = comparisonDocument(prepared, committed);
    const p = await open(doc);
    // In a half-width column the comparison fits to the width at a readable size, its list of differences under it, in view.
    await resizeTo(p, { width: 600, height: 700 });
    const narrow = await p.evaluate(() => {
      const svg = document.getElementById('graph')!.getBoundingClientRect();
      const drawn = document.getElementById('viewport')!.getBoundingClientRect();
      const list = document.getElementById('differences')!.getBoundingClientRect();
      const scale = Number(/scale\(([\d.]+)\)/.exec(document.getElementById('viewport')!.getAttribute('transform') ?? '')?.[1]);
      return { fitsWidth: drawn.left >= svg.left - 0.5 && drawn.right <= svg.right + 0.5, scale, list: [list.left, list.right, list.top, list.bottom], width: window.innerWidth, overflow: document.documentElement.scrollWidth > document.documentElement.clientWidth };
    });
    assert.ok(narrow.fitsWidth, 'both sides fit the width');
    assert.ok(narrow.scale * 11 >= 9, `text drawn at ${(narrow.scale * 11).toFixed(1)} px`);
    assert.ok(narrow.list[0] >= 0 && narrow.list[1] <= narrow.width, `the list of differences is in view: ${narrow.list}`);
    assert.equal(narrow.overflow, false);
    await resizeTo(p, { width: 1100, height: 700 });
    assert.equal(await p.$$eval('g.box', (g) => g.length), doc.prepared.actions.length + doc.prepared.contracts.length + doc.committed.actions.length + doc.committed.contracts.length);
    assert.deepEqual(await p.$$eval('text.caption', (t) => t.map((x) => x.textContent)), ['Preview (prepared)', 'Committed (offset 9)']);
    assert.deepEqual(await p.$$eval('g.box.differs', (g) => g.map((x) => x.getAttribute('data-id')).sort()), ['c:n0', 'p:n0']);
    assert.equal(await p.textContent('#verdict'), '1 difference');
    // The counts in the report's words, singular for one.
    assert.equal(await p.textContent('#legend'), '2 actions matched · 1 new contract id matched · M: the other side');
    // The list names it; a click shows the box; M goes to its counterpart on the other side.
    assert.match((await p.textContent('#differences li')) ?? '', /argument differs \(preview: exercise Iou_Transfer.*\.newOwner: "Charlie::1220dd" → "Bob::1220bb"/);
    await p.click('#differences li button');
    assert.equal(await p.evaluate(() => document.activeElement?.getAttribute('data-id')), 'p:n0');
    assert.match((await p.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '', /^preview, exercise Iou_Transfer.*differs$/);
    await p.keyboard.press('m');
    assert.equal(await p.evaluate(() => document.activeElement?.getAttribute('data-id')), 'c:n0');
    assert.equal(await p.$eval('g.box.counterpart', (g) => g.getAttribute('data-id')), 'p:n0');
    await p.keyboard.press('Enter');
    assert.ok((await host(p)).posted.some((m: any) => m.type === 'openNode' && m.nodeId === 0));
    // The preview's new contract opens as the contract that was committed in its place.
    await p.focus('g.box[data-id="p:c1"]');
    await p.keyboard.press('Enter');
    assert.ok((await host(p)).posted.some((m: any) => m.type === 'openContract' && m.contractId === '00bb'), JSON.stringify((await host(p)).posted));
    assert.match((await p.textContent('#text-alternative pre')) ?? '', /1 difference between the preview and the committed transaction/);
    assert.deepEqual((await host(p)).violations, []);
    assert.deepEqual((p as Page & { errors: string[] }).errors, []);
    await p.close();
  });

  it('the Mermaid export is drawn by Mermaid itself', async () => {
    const p = await harness.browser.newPage();
    await p.goto(harness.origin + '/mermaid.html');
    const text = (TRANSFER as Extract<GraphDocument, { kind: 'transaction' }>).mermaid;
    const nodes = await p.evaluate(async (source) => {
      const m = (window as any).mermaid;
      m.initialize({ startOnLoad: false, securityLevel: 'strict' });
      const { svg } = await m.render('g1', source);
      document.getElementById('out')!.innerHTML = svg;
      return document.querySelectorAll('#out g.node').length;
    }, text);
    const doc = TRANSFER as Extract<GraphDocument, { kind: 'transaction' }>;
    assert.equal(nodes, doc.actions.length + doc.contracts.length);
    // The escapes hold: a label with quotes, angle brackets and hashes parses.
    const odd = toMermaid(buildTransactionGraph(decodeTransaction({ updateId: 'u', offset: 1, effectiveAt: 't', recordTime: 't', synchronizerId: 's', events: [{ ExercisedEvent: { offset: 1, nodeId: 0, lastDescendantNodeId: 0, contractId: '00', templateId: IOU, packageName: 'p', choice: 'A<b>"#', choiceArgument: {}, actingParties: [ALICE], consuming: false, witnessParties: [ALICE] } }] })));
    const oddNodes = await p.evaluate(async (source) => {
      const { svg } = await (window as any).mermaid.render('g2', source);
      document.getElementById('out')!.innerHTML = svg;
      return document.querySelectorAll('#out g.node').length;
    }, odd);
    assert.equal(oddNodes, 2);
    await p.close();
  });
});
