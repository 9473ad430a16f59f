/**
 * The graph panels: a webview per transaction, lineage or range, drawn by dist/webview/graph.js from a
 * document the core builds. The panel reads through the connection object, reports a failure inside
 * the view (Canton's code, its hint, Retry), follows the ledger for a lineage ("newer transactions
 * exist"), and comes back after a reload from the state the webview saved (a serializer).
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { CantonApiError, LedgerError } from '../../core/errors';
import { comparisonDocument, lineageDocument, rangeDiffDocument, transactionDocument, type GraphDocument } from '../../core/graph/document';
import { walkLineage, type Lineage } from '../../core/graph/lineage';
import { rangeDiff } from '../../core/graph/rangeDiff';
import { lineageReaderOf, readTransaction, type GraphReadAs } from '../../core/graph/read';
import { buildTransactionGraph, type TransactionGraph } from '../../core/graph/model';
import { GRAPH_VIEW_TYPE, type FromWebview, type GraphTarget, type SavedGraphState, type ToWebview } from '../../core/graph/viewProtocol';
import type { LedgerConnection } from '../../core/ledger/connection';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import { defaultReadAs } from '../../core/updates/viewFilter';
import { Commands } from '../commands/ids';
import type { ConnectionManager } from '../connections/manager';
import type { JsonDocuments } from '../documents';
import { Disposable, toDisposable } from '../lifecycle';

export interface GraphPanelsDeps {
  extensionUri: vscode.Uri;
  connections: ConnectionManager;
  documents: JsonDocuments;
  logger: Logger;
  redactor: Redactor;
}

/** What a panel shows and where it reads it. */
interface PanelEntry {
  panel: vscode.WebviewPanel;
  target: GraphTarget;
  connectionId?: string;
  /** The last document sent (for exports and node look-ups). */
  document?: GraphDocument;
  lineage?: Lineage;
  /** The transaction behind a transaction document: "Open JSON at this node". */
  events?: unknown[];
  /** A comparison's preview side: held here, since only the preview decoded it (gone after a reload). */
  prepared?: TransactionGraph;
  load?: AbortController;
  ledgerEndAtLoad?: number;
  /** What the page shows now (loading, error or a document): sent again when the page says it is ready. */
  shown?: ToWebview;
}

export function targetKey(t: GraphTarget): string {
  switch (t.kind) {
    case 'transaction':
      return t.updateId ? `tx:${t.updateId}` : `tx@${t.offset}`;
    case 'lineage':
      return `lineage:${t.contractId}`;
    case 'range-diff':
      return `diff:${t.beginExclusive}..${t.endInclusive}`;
    case 'preview':
      return `preview:${t.commandId}@${t.preparedAt}`;
    case 'comparison':
      return `compare:${t.commandId}@${t.preparedAt}>${t.updateId}`;
  }
}

/** Read as any party when the user may, else as its parties: the graph then shows what each of them sees. */
function readAsOf(connection: LedgerConnection): GraphReadAs {
  return defaultReadAs(connection.state.state === 'connected' ? connection.state.info.rights : undefined);
}

export class GraphPanels extends Disposable implements vscode.WebviewPanelSerializer<SavedGraphState> {
  private readonly panels = new Map<string, PanelEntry>();

  constructor(private readonly deps: GraphPanelsDeps) {
    super();
    this._register(
      deps.connections.onDidChangeLedger(({ connectionId }) => {
        for (const e of this.panels.values()) if (e.connectionId === connectionId && e.target.kind === 'lineage') this.noticeNewer(e);
      }),
    );
    this._register(toDisposable(() => [...this.panels.values()].forEach((e) => e.panel.dispose())));
  }

  /** Opens (or reveals) the panel of `target` on the active connection. */
  async show(target: GraphTarget, connection: LedgerConnection): Promise<vscode.WebviewPanel> {
    const key = targetKey(target);
    const existing = this.panels.get(key);
    if (existing) {
      existing.panel.reveal();
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(GRAPH_VIEW_TYPE, this.titleOf(target), vscode.ViewColumn.Active, this.options());
    const entry = this.adopt(panel, target, connection.profile.id);
    void this.load(entry);
    return panel;
  }

  /** The panels open now, by target key (for tests). */
  openPanels(): ReadonlyMap<string, { panel: vscode.WebviewPanel; document?: GraphDocument }> {
    return this.panels;
  }

  /** A panel VS Code restores after a reload: it draws from its saved state; Retry reads again. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: SavedGraphState | undefined): Promise<void> {
    if (!state?.target) {
      panel.dispose();
      return;
    }
    panel.webview.options = this.options();
    const entry = this.adopt(panel, state.target, state.connectionId);
    entry.document = state.document;
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      retainContextWhenHidden: false,
      enableFindWidget: true,
      localResourceRoots: [vscode.Uri.joinPath(this.deps.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'graph')],
    };
  }

  private titleOf(t: GraphTarget): string {
    switch (t.kind) {
      case 'transaction':
        return t.offset !== undefined ? `Transaction @${t.offset}` : `Transaction ${t.updateId?.slice(0, 10)}…`;
      case 'lineage':
        return `Lineage ${t.contractId.slice(0, 10)}…`;
      case 'range-diff':
        return `ACS change ${t.beginExclusive + 1}..${t.endInclusive}`;
      case 'preview':
        return `Preview ${t.commandId}`;
      case 'comparison':
        return `Preview vs committed ${t.commandId}`;
    }
  }

  /** Opens (or reveals) a preview beside its committed transaction, which is read on the connection. */
  async showComparison(target: Extract<GraphTarget, { kind: 'comparison' }>, prepared: TransactionGraph, connection: LedgerConnection): Promise<vscode.WebviewPanel> {
    const existing = this.panels.get(targetKey(target));
    if (existing) {
      existing.panel.reveal();
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(GRAPH_VIEW_TYPE, this.titleOf(target), vscode.ViewColumn.Active, this.options());
    const entry = this.adopt(panel, target, connection.profile.id);
    entry.prepared = prepared;
    void this.load(entry);
    return panel;
  }

  /** Opens (or reveals) the graph of a document already at hand (a preview's prepared transaction). */
  showDocument(target: Extract<GraphTarget, { kind: 'preview' }>, document: GraphDocument): vscode.WebviewPanel {
    const existing = this.panels.get(targetKey(target));
    if (existing) {
      existing.panel.reveal();
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(GRAPH_VIEW_TYPE, this.titleOf(target), vscode.ViewColumn.Active, this.options());
    const entry = this.adopt(panel, target, undefined);
    entry.document = document;
    this.post(entry, { type: 'document', document });
    return panel;
  }

  private adopt(panel: vscode.WebviewPanel, target: GraphTarget, connectionId: string | undefined): PanelEntry {
    const key = targetKey(target);
    const entry: PanelEntry = { panel, target, connectionId };
    this.panels.set(key, entry);
    panel.webview.html = this.html(panel.webview, target, connectionId);
    const subscriptions = [
      panel.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(entry, m)),
      panel.onDidDispose(() => {
        entry.load?.abort();
        this.panels.delete(key);
        subscriptions.forEach((s) => s.dispose());
      }),
    ];
    return entry;
  }

  private html(webview: vscode.Webview, target: GraphTarget, connectionId: string | undefined): string {
    const nonce = randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.deps.extensionUri, 'dist', 'webview', 'graph.js'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'graph', 'graph.css'));
    // The target rides along in the page, so that a webview reloaded before its first setState still knows what it shows.
    const initial = JSON.stringify({ target, connectionId }).replace(/</g, '\\u003c');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${webview.cspSource} data:; style-src ${webview.cspSource}; font-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>${this.titleOf(target).replace(/[<&]/g, '')}</title>
</head>
<body>
<div id="app" data-initial="${initial.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"><div class="message loading" role="status"><h2>Loading…</h2></div></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }

  private post(entry: PanelEntry, message: ToWebview): void {
    if (message.type !== 'stale') entry.shown = message;
    void entry.panel.webview.postMessage(message);
  }

  private connectionOf(entry: PanelEntry): LedgerConnection | undefined {
    const byId = entry.connectionId ? this.deps.connections.connection(entry.connectionId) : undefined;
    const c = byId?.state.state === 'connected' ? byId : this.deps.connections.activeConnection();
    if (c) entry.connectionId = c.profile.id;
    return c;
  }

  private async load(entry: PanelEntry, more = false): Promise<void> {
    entry.load?.abort();
    // A preview is not read from the ledger: Retry draws what the preview decoded again.
    if (entry.target.kind === 'preview') {
      if (entry.document) this.post(entry, { type: 'document', document: entry.document });
      return;
    }
    if (entry.target.kind === 'comparison' && !entry.prepared) {
      // After a reload the preview side lives only in the saved drawing: it cannot be read again.
      this.post(entry, { type: 'error', title: 'The preview is gone', message: 'This comparison was restored after a reload; its preview cannot be read from the ledger. Preview the commands file again, submit it, and compare again.' });
      return;
    }
    const load = (entry.load = new AbortController());
    const connection = this.connectionOf(entry);
    if (!connection) {
      this.post(entry, { type: 'error', title: 'Not connected', message: 'Connect to the participant (Canton Ledger: Select Connection), then Retry.' });
      return;
    }
    const readAs = readAsOf(connection);
    const o = { signal: load.signal };
    const t = entry.target;
    try {
      this.post(entry, { type: 'loading', title: this.titleOf(t), detail: `Reading from ${connection.profile.name}…` });
      entry.ledgerEndAtLoad = connection.ledger?.ledgerEnd;
      let document: GraphDocument;
      if (t.kind === 'transaction') {
        const tx = await readTransaction(connection.client, t.updateId ? { updateId: t.updateId } : { offset: t.offset! }, readAs, o);
        entry.events = tx.raw.events ?? [];
        document = transactionDocument(buildTransactionGraph(tx));
      } else if (t.kind === 'lineage') {
        const lineage = await walkLineage(lineageReaderOf(connection.client, readAs), t.contractId, { maxDistance: t.maxDistance }, o, more ? entry.lineage : undefined);
        entry.lineage = lineage;
        document = lineageDocument(lineage);
      } else if (t.kind === 'range-diff') {
        document = rangeDiffDocument(await rangeDiff(connection.client, t, readAs, o));
      } else if (t.kind === 'comparison') {
        const tx = await readTransaction(connection.client, { updateId: t.updateId }, readAs, o);
        entry.events = tx.raw.events ?? [];
        document = comparisonDocument(entry.prepared!, buildTransactionGraph(tx));
      } else return;
      if (load.signal.aborted) return;
      entry.document = document;
      this.post(entry, { type: 'document', document });
    } catch (e) {
      if (load.signal.aborted) return;
      this.deps.logger.warn(`Graph ${targetKey(t)}: ${this.deps.redactor.redact((e as Error)?.message ?? String(e))}`);
      this.post(entry, {
        type: 'error',
        title: `Could not read ${this.titleOf(t)}`,
        message: this.deps.redactor.redact((e as Error)?.message ?? String(e)),
        code: e instanceof CantonApiError ? e.code : e instanceof LedgerError ? e.kind : undefined,
        hint: e instanceof LedgerError ? e.hint : undefined,
      });
    }
  }

  private noticeNewer(entry: PanelEntry): void {
    const connection = this.connectionOf(entry);
    const end = connection?.ledger?.ledgerEnd;
    if (!entry.document || end === undefined || entry.ledgerEndAtLoad === undefined || end <= entry.ledgerEndAtLoad) return;
    this.post(entry, { type: 'stale', text: `Newer transactions exist (the ledger end is now ${end}): the lineage may have grown.` });
  }

  private async onMessage(entry: PanelEntry, m: FromWebview): Promise<void> {
    const doc = entry.document;
    switch (m.type) {
      case 'ready':
        // A message posted while the page was still starting can be lost before its listener exists:
        // the page's "ready" is when it surely listens, so what it should show is sent once more
        // (drawing the same document again keeps its view). A restored panel draws from its saved state.
        if (entry.shown) this.post(entry, entry.shown);
        return;
      case 'retry':
        return this.load(entry);
      case 'more':
        return this.load(entry, true);
      case 'openContract':
        await vscode.commands.executeCommand(Commands.showContractEvents, m.contractId);
        return;
      case 'lineage': {
        const connection = this.connectionOf(entry);
        if (connection) await this.show({ kind: 'lineage', contractId: m.contractId }, connection);
        return;
      }
      case 'openNode': {
        if (!entry.events && (doc?.kind === 'transaction' || doc?.kind === 'comparison')) await this.load(entry);
        const drawn = doc?.kind === 'transaction' ? doc : doc?.kind === 'comparison' ? doc.committed : undefined;
        const a = drawn?.actions.find((x) => x.nodeId === m.nodeId);
        const event = a && entry.events?.[a.eventIndex];
        if (event) await this.deps.documents.show('ledger', `node-${m.nodeId}`, event);
        return;
      }
      case 'openUpdate':
        if (doc?.kind === 'transaction') await vscode.commands.executeCommand(Commands.revealUpdate, { connectionId: entry.connectionId, offset: doc.offset, updateId: doc.updateId });
        return;
      case 'export': {
        if (!doc || doc.kind === 'range-diff') return;
        // A comparison is two graphs and a list: it exports as text.
        const format = doc.kind === 'comparison' ? 'text' : m.format;
        const content = doc.kind === 'comparison' || format === 'text' ? doc.text : format === 'mermaid' ? doc.mermaid : doc.dot;
        const language = format === 'mermaid' ? 'mermaid' : format === 'dot' ? 'dot' : 'plaintext';
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language, content }), { preview: false, viewColumn: vscode.ViewColumn.Beside });
        return;
      }
      case 'saveSvg': {
        const uri = await vscode.window.showSaveDialog({ filters: { SVG: ['svg'] }, saveLabel: 'Save Graph', title: 'Save the graph as SVG' });
        if (uri) await vscode.workspace.fs.writeFile(uri, Buffer.from(m.svg, 'utf8'));
        return;
      }
    }
  }
}
