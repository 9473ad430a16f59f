import assert from 'node:assert/strict';
import path from 'node:path';
import type { ToWebview } from '../../../src/core/graph/viewProtocol';
import { transactionDocument } from '../../../src/core/graph/document';
import { previewGraph } from '../../../src/core/graph/preview';
import { decodePreparedTransaction } from '../../../src/core/preview';
import { prepareRequestOf } from '../../../src/core/submit/submission';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import type { JsonDocuments } from '../../../src/vscode/kit/documents';
import { GraphPanels } from '../../../src/vscode/graph/graphPanels';
import type { DemoParticipant } from '../../../src/participant/index';
import { start } from '../../participant/helpers';
import { sendWindow, type SendWindow } from '../files/sendHarness';
import { firstPosted } from './posted';
import { fake, type FakeWebviewPanel, Uri, ViewColumn, window as fakeWindow } from '../fake/vscode';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Resolves once the panel has been sent a message `pick` accepts (the glue answers asynchronously). */
async function sent<T extends ToWebview['type']>(panel: FakeWebviewPanel, type: T, after = 0): Promise<Extract<ToWebview, { type: T }>> {
  return (await firstPosted(panel, [type], after)) as Extract<ToWebview, { type: T }>;
}

describe('graph panels (fake VS Code API, demo participant)', () => {
  let p: DemoParticipant;
  let w: SendWindow;
  let panels: GraphPanels;
  let shownJson: Array<[string, string, unknown]>;
  let transferOffset: number;
  /** Every request the participant answered. */
  let requests = 0;

  before(async () => {
    p = await start({ port: 0, onExchange: () => void requests++ });
  });
  after(() => p.close());
  beforeEach(async () => {
    w = await sendWindow(p.url);
    shownJson = [];
    const documents = { show: async (folder: string, name: string, value: unknown) => void shownJson.push([folder, name, value]) } as unknown as JsonDocuments;
    panels = new GraphPanels({ extensionUri: Uri.file(ROOT) as never, connections: w.manager, documents, logger: silentLogger, redactor: new Redactor(), prompts: w.prompts() });
    const tx = await w.manager.activeConnection()!.client.listUpdates({ beginExclusive: 0, endInclusive: p.state.ledgerEnd }, { filter: { anyParty: true, shape: 'ledger-effects' } });
    transferOffset = tx.find((u) => u.kind === 'transaction' && u.events.some((e) => e.kind === 'exercised'))!.offset!;
  });
  afterEach(() => {
    panels.dispose();
    w.dispose();
  });

  it('draws a transaction: a strict CSP with a nonce, only its own script and style, then the document', async () => {
    await panels.show({ kind: 'transaction', offset: transferOffset }, w.manager.activeConnection()!);
    const [panel] = fake.state.webviewPanels;
    const html = panel.webview.html;
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1];
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1];
    assert.match(csp, /^default-src 'none';/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.ok(html.includes(`<script nonce="${nonce}" src="https://fake.vscode-cdn.net${ROOT}/dist/webview/graph.js">`));
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.deepEqual((panel.webview.options as { localResourceRoots: { path: string }[] }).localResourceRoots.map((u) => u.path), [`${ROOT}/dist/webview`, `${ROOT}/media/graph`]);
    const loaded = await sent(panel, 'document');
    assert.equal(loaded.document.kind, 'transaction');
    if (loaded.document.kind !== 'transaction') return;
    assert.equal(loaded.document.offset, transferOffset);
    assert.ok(loaded.document.actions.some((a) => a.kind === 'exercise' && a.choice === 'Iou_Transfer'));
    assert.ok(loaded.document.parties.length >= 2, 'read as any party: every witness can be a lens');
  });

  it('shows the same graph once: a second request reveals its panel', async () => {
    const c = w.manager.activeConnection()!;
    await panels.show({ kind: 'transaction', offset: transferOffset }, c);
    await panels.show({ kind: 'transaction', offset: transferOffset }, c);
    assert.equal(fake.state.webviewPanels.length, 1);
    assert.equal(fake.state.webviewPanels[0].revealed, 1);
  });

  it('a failure is shown in the view with Canton’s code and hint, and Retry reads again', async () => {
    await panels.show({ kind: 'transaction', updateId: '1220' + 'ab'.repeat(32) }, w.manager.activeConnection()!);
    const [panel] = fake.state.webviewPanels;
    const error = await sent(panel, 'error');
    assert.equal(error.code, 'UPDATE_NOT_FOUND');
    assert.ok(error.hint);
    const before = panel.posted.length;
    panel.receive({ type: 'retry' });
    assert.equal((await sent(panel, 'error', before)).code, 'UPDATE_NOT_FOUND');
    assert.equal((await sent(panel, 'loading', before)).type, 'loading');
  });

  it('opens a node’s event as JSON, a contract’s events, and the drawing as Mermaid (Markdown, previewed beside where a Mermaid preview is installed) or DOT', async () => {
    fake.state.installedExtensions = [{ id: 'bierner.markdown-mermaid', packageJSON: { contributes: { 'markdown.markdownItPlugins': true } } }];
    await panels.show({ kind: 'transaction', offset: transferOffset }, w.manager.activeConnection()!);
    const [panel] = fake.state.webviewPanels;
    const { document } = await sent(panel, 'document');
    if (document.kind !== 'transaction') throw new Error('not a transaction');
    const exercise = document.actions.find((a) => a.kind === 'exercise')!;
    panel.receive({ type: 'openNode', nodeId: exercise.nodeId });
    panel.receive({ type: 'export', format: 'mermaid' });
    panel.receive({ type: 'export', format: 'dot' });
    const contract = document.contracts[0];
    let opened: unknown[] | undefined;
    fake.state.commands.set('markdown.showPreviewToSide', () => undefined);
    fake.state.commands.set('cantonLedger.contractEvents.show', (...args: unknown[]) => void (opened = args));
    panel.receive({ type: 'openContract', contractId: contract.contractId });
    while (shownJson.length === 0 || fake.state.untitledDocuments.length < 2 || !opened || !fake.state.executed.some((c) => c.id === 'markdown.showPreviewToSide')) await new Promise((r) => setImmediate(r));
    const [, , event] = shownJson[0];
    assert.equal((event as { ExercisedEvent: { choice: string } }).ExercisedEvent.choice, 'Iou_Transfer');
    assert.deepEqual(fake.state.untitledDocuments.map((d) => d.languageId), ['markdown', 'dot']);
    assert.match(fake.state.untitledDocuments[0].text, /^```mermaid\nflowchart TB\n[^]*\n```\n$/);
    const preview = fake.state.executed.filter((c) => c.id === 'markdown.showPreviewToSide');
    assert.equal(preview.length, 1, 'the Markdown preview, beside');
    assert.equal(String(preview[0].args[0]), 'untitled:Untitled-1', 'of the exported document');
    assert.match(fake.state.untitledDocuments[1].text, /^digraph /);
    assert.deepEqual(opened, [contract.contractId]);

    // Without an extension that draws mermaid fences the built-in preview would show code: the editor alone.
    fake.state.installedExtensions = [];
    const before = fake.state.untitledDocuments.length;
    panel.receive({ type: 'export', format: 'mermaid' });
    while (fake.state.untitledDocuments.length === before) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    assert.equal(fake.state.executed.filter((c) => c.id === 'markdown.showPreviewToSide').length, 1, 'no second preview');
  });

  it('a lineage says when newer transactions exist, and a restored panel draws from its saved state without reading', async () => {
    const c = w.manager.activeConnection()!;
    const contractId = (await c.client.pageActiveContracts({ filter: { anyParty: true } })).contracts[0].event.contractId;
    await panels.show({ kind: 'lineage', contractId }, c);
    const [panel] = fake.state.webviewPanels;
    const { document } = await sent(panel, 'document');
    assert.equal(document.kind, 'lineage');
    await c.ledger!.refreshLedgerEnd();
    const before = panel.posted.length;
    // Something happens on the ledger: the connection's ledger end moves, and the lineage says so.
    await fetch(`${p.url}/v2/commands/submit-and-wait`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: p.parties.bank, owner: p.parties.alice, currency: 'EUR', amount: '1.0', observers: [] } } }], commandId: `graph-${Date.now()}`, actAs: [p.parties.bank] }),
    });
    await c.ledger!.refreshLedgerEnd();
    assert.match((await sent(panel, 'stale', before)).text, /Newer transactions exist/);

    const restored = new (panel.constructor as typeof FakeWebviewPanel)('cantonLedger.graph', 'Lineage', -1, {});
    const requestsBefore = requests;
    await panels.deserializeWebviewPanel(restored as never, { target: { kind: 'lineage', contractId }, connectionId: 'demo', document, collapsed: [], lens: [undefined, undefined] });
    assert.match(restored.webview.html, /dist\/webview\/graph\.js/);
    assert.deepEqual(restored.posted, [], 'the page draws from its own saved state');
    assert.equal(requests, requestsBefore, 'no request');
  });

  it('draws a preview’s prepared transaction from what the preview decoded, and Retry reads nothing', async () => {
    const c = w.manager.activeConnection()!;
    const iou = (await c.client.pageActiveContracts({ filter: { anyParty: true, templateIds: ['#demo-iou:Iou:Iou'] } })).contracts[0].event;
    const owner = String((iou.createArgument as { owner: string }).owner);
    const command = { ExerciseCommand: { templateId: '#demo-iou:Iou:Iou', contractId: iou.contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner: p.parties.charlie } } };
    const { raw } = await c.client.prepare(prepareRequestOf({ commands: [command], commandId: 'graph-preview', actAs: [owner] }));
    const preview = decodePreparedTransaction(raw.preparedTransaction);
    panels.showDocument({ kind: 'preview', commandId: preview.commandId, preparedAt: 't1' }, transactionDocument(previewGraph(preview), `Preview of ${preview.commandId}`));
    const [panel] = fake.state.webviewPanels;
    const { document } = await sent(panel, 'document');
    assert.equal(document.title, 'Preview of graph-preview');
    if (document.kind !== 'transaction') throw new Error('not a transaction');
    assert.deepEqual(document.actions.map((a) => a.kind), ['exercise', 'create']);
    assert.equal(document.contracts.find((x) => x.contractId === iou.contractId)?.state, 'consumed');
    const before = requests;
    const posted = panel.posted.length;
    panel.receive({ type: 'retry' });
    await sent(panel, 'document', posted);
    assert.equal(requests, before, 'a preview is not read again');
  });

  it('a page that says it is ready is sent what it should show again (a message posted while it started may be lost); a restored page is sent nothing', async () => {
    const c = w.manager.activeConnection()!;
    await panels.show({ kind: 'transaction', offset: transferOffset }, c);
    const [panel] = fake.state.webviewPanels;
    // "ready" while the read is under way: the page is told it is loading, then gets the drawing.
    assert.equal(panel.posted.length, 1);
    panel.receive({ type: 'ready' });
    assert.deepEqual((panel.posted as ToWebview[]).map((m) => m.type), ['loading', 'loading']);
    const first = await sent(panel, 'document');
    const afterLoad = panel.posted.length;
    panel.receive({ type: 'ready' });
    assert.deepEqual(await sent(panel, 'document', afterLoad), first, 'the same document, drawn again');

    panels.showDocument({ kind: 'preview', commandId: 'ready', preparedAt: 't1' }, { ...first.document, title: 'Preview of ready' });
    const previewPanel = fake.state.webviewPanels[1];
    previewPanel.posted.length = 0; // the first post, lost as the page started
    previewPanel.receive({ type: 'ready' });
    assert.equal((await sent(previewPanel, 'document')).document.title, 'Preview of ready');

    const restored = new (panel.constructor as typeof FakeWebviewPanel)('cantonLedger.graph', 'Restored', -1, {});
    await panels.deserializeWebviewPanel(restored as never, { target: { kind: 'transaction', offset: transferOffset }, connectionId: 'demo', document: first.document, collapsed: [], lens: [undefined, undefined] });
    restored.receive({ type: 'ready' });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(restored.posted, [], 'the page draws from its own saved state');
  });

  it('Compare with Committed from a half-width column opens in the other column and widens it; with nothing open it takes the editor area', async () => {
    const c = w.manager.activeConnection()!;
    const { target, preview } = await transferAndPreview(c, 'graph-compare-column');
    fake.state.commands.set('workbench.action.minimizeOtherEditors', () => undefined);
    const visible = fakeWindow.visibleTextEditors;
    const editor = (viewColumn: number) => ({ viewColumn, document: { uri: Uri.file(`/work/${viewColumn}.json`) } });
    try {
      // The preview on the left half, the submission's result on the right; the user works on the left.
      fakeWindow.visibleTextEditors = [editor(1), editor(2)];
      fakeWindow.activeTextEditor = fakeWindow.visibleTextEditors[0];
      await panels.showComparison(target, previewGraph(preview), c);
      assert.equal(fake.state.webviewPanels[0].column, ViewColumn.Two, 'not over the preview');
      assert.deepEqual(fake.state.executed.map((x) => x.id), ['workbench.action.minimizeOtherEditors'], 'its column widened');
      panels.dispose();
      panels = new GraphPanels({ extensionUri: Uri.file(ROOT) as never, connections: w.manager, documents: {} as JsonDocuments, logger: silentLogger, redactor: new Redactor(), prompts: w.prompts() });
      fakeWindow.visibleTextEditors = [];
      fakeWindow.activeTextEditor = undefined;
      fake.state.executed.length = 0;
      await panels.showComparison(target, previewGraph(preview), c);
      assert.equal(fake.state.webviewPanels.at(-1)!.column, ViewColumn.Active);
      assert.deepEqual(fake.state.executed, [], 'nothing to widen');
    } finally {
      fakeWindow.visibleTextEditors = visible;
      fakeWindow.activeTextEditor = undefined;
    }
  });

  /** Submits a transfer after previewing it: the comparison's target and the preview. */
  async function transferAndPreview(c: NonNullable<ReturnType<SendWindow['manager']['activeConnection']>>, commandId: string) {
    const iou = (await c.client.pageActiveContracts({ filter: { anyParty: true, templateIds: ['#demo-iou:Iou:Iou'] } })).contracts[0].event;
    const owner = String((iou.createArgument as { owner: string }).owner);
    const commands = [{ ExerciseCommand: { templateId: '#demo-iou:Iou:Iou', contractId: iou.contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner: p.parties.charlie } } }];
    const { raw } = await c.client.prepare(prepareRequestOf({ commands, commandId, actAs: [owner] }));
    const preview = decodePreparedTransaction(raw.preparedTransaction);
    const result = await c.client.submitAndWaitForTransaction({ commands: { commands, commandId, actAs: [owner] } });
    return { preview, result, target: { kind: 'comparison' as const, commandId, preparedAt: 't1', updateId: result.transaction.updateId } };
  }

  it('a preview beside its committed transaction: the committed one is read once and compared; restored after a reload it cannot read its preview again', async () => {
    const c = w.manager.activeConnection()!;
    const { target, preview, result } = await transferAndPreview(c, 'graph-compare');
    const before = requests;
    await panels.showComparison(target, previewGraph(preview), c);
    const [panel] = fake.state.webviewPanels;
    const { document } = await sent(panel, 'document');
    if (document.kind !== 'comparison') throw new Error(`not a comparison: ${document.kind}`);
    assert.equal(requests - before, 1, 'the committed transaction, read once');
    assert.deepEqual(document.differences, []);
    assert.equal(document.pairs.length, 2);
    assert.equal(document.committed.updateId, result.transaction.updateId);
    // Open a committed node's JSON, and export as text (a comparison has no Mermaid).
    panel.receive({ type: 'openNode', nodeId: document.committed.actions[0].nodeId });
    await until(() => shownJson.length > 0);
    assert.equal((shownJson[0][2] as { ExercisedEvent?: unknown }).ExercisedEvent !== undefined, true);

    const restored = new (panel.constructor as typeof FakeWebviewPanel)('cantonLedger.graph', 'Compare', -1, {});
    await panels.deserializeWebviewPanel(restored as never, { target, connectionId: 'demo', document, collapsed: [], lens: [undefined, undefined] });
    assert.deepEqual(restored.posted, [], 'the page draws from its own saved state');
    restored.receive({ type: 'retry' });
    assert.equal((await sent(restored, 'error')).title, 'The preview is gone');
  });
});

async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setImmediate(r));
}
