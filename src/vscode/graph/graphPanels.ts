/**
 * The graph panels: a webview per transaction, lineage or range, drawn by dist/webview/graph.js from a
 * document the core builds. The panel reads through the connection object, reports a failure inside
 * the view (Canton's code, its hint, Retry), follows the ledger for a lineage ("newer transactions
 * exist"), and comes back after a reload from the state the webview saved (a serializer).
 */
import vscode = require('vscode');
import { CantonApiError, LedgerError } from '../../core/errors';
import { comparisonDocument, lineageDocument, rangeDiffDocument, transactionDocument, type GraphDocument } from '../../core/graph/document';
import { mermaidMarkdown } from '../../core/graph/export';
import { walkLineage, type Lineage } from '../../core/graph/lineage';
import { rangeDiff } from '../../core/graph/rangeDiff';
import { lineageReaderOf, readTransaction, type GraphReadAs } from '../../core/graph/read';
import { buildTransactionGraph, type TransactionGraph } from '../../core/graph/model';
import { GRAPH_VIEW_TYPE, type FromWebview, type GraphTarget, type SavedGraphState, type ToWebview } from '../../core/graph/viewProtocol';
import type { LedgerConnection } from '../../core/ledger/connection';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import { defaultReadAs } from '../../core/updates/viewFilter';
import { Commands } from '../kit/ids';
import type { ConnectionManager } from '../connections/manager';
import type { JsonDocuments } from '../kit/documents';
import type { Prompts } from '../kit/prompts';
import { readableColumn } from '../kit/layout';
import { Disposable } from '../kit/lifecycle';
import { WebviewHost, type PagePanel } from '../kit/webviewHost';

export interface GraphPanelsDeps {
  extensionUri: vscode.Uri;
  connections: ConnectionManager;
  documents: JsonDocuments;
  logger: Logger;
  redactor: Redactor;
  prompts: Prompts;
}

/** What a panel shows and where it reads it. */
interface GraphEntry {
  target: GraphTarget;
  /** The connection it reads from (a preview's has none: it reads nothing). */
  connection?: LedgerConnection;
  /** The last document sent (for exports and node look-ups). */
  document?: GraphDocument;
  lineage?: Lineage;
  /** The transaction behind a transaction document: "Open JSON at this node". */
  events?: unknown[];
  /** A comparison's preview side: held here, since only the preview decoded it (gone after a reload). */
  prepared?: TransactionGraph;
  load?: AbortController;
  ledgerEndAtLoad?: number;
}

type GraphPanel = PagePanel<ToWebview, FromWebview, GraphEntry>;

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

/** VS Code's "Maximize Editor Group": the active column takes the width, the others shrink (not a toggle). */
const MAXIMIZE_EDITOR_GROUP = 'workbench.action.minimizeOtherEditors';
/** The built-in Markdown extension's preview of the active editor, beside it. */
const MARKDOWN_PREVIEW_TO_SIDE = 'markdown.showPreviewToSide';

/** An extension that draws mermaid fences in the Markdown preview (a markdown-it plugin named for Mermaid). */
function mermaidPreviewInstalled(): boolean {
  return vscode.extensions.all.some((e) => /mermaid/i.test(e.id) && e.packageJSON?.contributes?.['markdown.markdownItPlugins'] === true);
}

/** Runs a command of VS Code or another extension when it exists (a user may have disabled the Markdown extension). */
async function runIfAvailable(command: string, ...args: unknown[]): Promise<void> {
  if ((await vscode.commands.getCommands(true)).includes(command)) await vscode.commands.executeCommand(command, ...args);
}

export class GraphPanels extends Disposable implements vscode.WebviewPanelSerializer<SavedGraphState> {
  private readonly host: WebviewHost<ToWebview, FromWebview, GraphEntry>;

  constructor(private readonly deps: GraphPanelsDeps) {
    super();
    this.host = this._register(new WebviewHost<ToWebview, FromWebview, GraphEntry>(deps.extensionUri, { viewType: GRAPH_VIEW_TYPE, name: 'graph', findWidget: true }, (panel, m) => this.onMessage(panel, m)));
    this._register(
      deps.connections.onDidChangeLedger(({ connection }) => {
        for (const p of this.host.values()) if (p.data.target.kind === 'lineage' && p.data.connection && deps.connections.current(p.data.connection) === connection) this.noticeNewer(p);
      }),
    );
  }

  /** Opens (or reveals) the panel of `target`, read from `connection`. */
  async show(target: GraphTarget, connection: LedgerConnection): Promise<vscode.WebviewPanel> {
    const { panel, created } = this.open(target, connection);
    if (created) void this.load(panel);
    return panel.panel;
  }

  /** The panels open now, by target key (for tests). */
  openPanels(): ReadonlyMap<string, { panel: vscode.WebviewPanel; document?: GraphDocument }> {
    return new Map([...this.host.values()].map((p) => [p.key, { panel: p.panel, document: p.data.document }]));
  }

  /** A panel VS Code restores after a reload: it draws from its saved state; Retry reads again. */
  async deserializeWebviewPanel(webviewPanel: vscode.WebviewPanel, state: SavedGraphState | undefined): Promise<void> {
    if (!state?.target) {
      webviewPanel.dispose();
      return;
    }
    // The saved state names the connection by its profile's id: looked up here, once.
    const connection = state.connectionId ? this.deps.connections.connection(state.connectionId) : undefined;
    const { target } = state;
    this.stopReadingOnClose(this.host.restore(targetKey(target), webviewPanel, { ...this.contentOf(target, connection), data: { target, connection, document: state.document } }));
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

  /** The page of a target: the target rides along, so that a page reloaded before its first setState still knows what it shows. */
  private contentOf(target: GraphTarget, connection: LedgerConnection | undefined) {
    return { title: this.titleOf(target), initial: { target, connectionId: connection?.id } };
  }

  private open(target: GraphTarget, connection: LedgerConnection | undefined, data: Partial<GraphEntry> = {}, column?: vscode.ViewColumn): { panel: GraphPanel; created: boolean } {
    const opened = this.host.revealOrCreate(targetKey(target), () => ({ ...this.contentOf(target, connection), data: { ...data, target, connection } }), { column });
    if (opened.created) this.stopReadingOnClose(opened.panel);
    return opened;
  }

  private stopReadingOnClose(panel: GraphPanel): void {
    panel.onDidDispose(() => panel.data.load?.abort());
  }

  /** Opens (or reveals) a preview beside its committed transaction, which is read on the connection. */
  async showComparison(target: Extract<GraphTarget, { kind: 'comparison' }>, prepared: TransactionGraph, connection: LedgerConnection): Promise<vscode.WebviewPanel> {
    // Two graphs side by side and a list of differences want the width: with the editor area split, the
    // comparison opens in a column other than the preview's (which stays) and that column is widened.
    const split = vscode.window.tabGroups.all.some((g) => g.tabs.length > 0);
    const { panel, created } = this.open(target, connection, { prepared }, split ? readableColumn() : vscode.ViewColumn.Active);
    if (created && split) await runIfAvailable(MAXIMIZE_EDITOR_GROUP);
    if (created) void this.load(panel);
    return panel.panel;
  }

  /** Opens (or reveals) the graph of a document already at hand (a preview's prepared transaction). */
  showDocument(target: Extract<GraphTarget, { kind: 'preview' }>, document: GraphDocument): vscode.WebviewPanel {
    const { panel, created } = this.open(target, undefined, { document });
    if (created) panel.show({ type: 'document', document });
    return panel.panel;
  }
  /** The panel's own connection (as it is now: a reconnect made it anew) when connected, else the active one. */
  private connectionOf(entry: GraphEntry): LedgerConnection | undefined {
    const own = entry.connection && this.deps.connections.current(entry.connection);
    const c = own?.state.state === 'connected' ? own : this.deps.connections.activeConnection();
    if (c) entry.connection = c;
    return c;
  }

  private async load(panel: GraphPanel, more = false): Promise<void> {
    const entry = panel.data;
    entry.load?.abort();
    // A preview is not read from the ledger: Retry draws what the preview decoded again.
    if (entry.target.kind === 'preview') {
      if (entry.document) panel.show({ type: 'document', document: entry.document });
      return;
    }
    if (entry.target.kind === 'comparison' && !entry.prepared) {
      // After a reload the preview side lives only in the saved drawing: it cannot be read again.
      panel.show({ type: 'error', title: 'The preview is gone', message: 'This comparison was restored after a reload; its preview cannot be read from the ledger. Preview the commands file again, submit it, and compare again.' });
      return;
    }
    const load = (entry.load = new AbortController());
    const connection = this.connectionOf(entry);
    if (!connection) {
      panel.show({ type: 'error', title: 'Not connected', message: 'Connect to the participant (Canton Ledger: Select Connection), then Retry.' });
      return;
    }
    const readAs = readAsOf(connection);
    const o = { signal: load.signal };
    const t = entry.target;
    try {
      panel.show({ type: 'loading', title: this.titleOf(t), detail: `Reading from ${connection.profile.name}…` });
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
      panel.show({ type: 'document', document });
    } catch (e) {
      if (load.signal.aborted) return;
      this.deps.logger.warn(`Graph ${targetKey(t)}: ${this.deps.redactor.redact((e as Error)?.message ?? String(e))}`);
      panel.show({
        type: 'error',
        title: `Could not read ${this.titleOf(t)}`,
        message: this.deps.redactor.redact((e as Error)?.message ?? String(e)),
        code: e instanceof CantonApiError ? e.code : e instanceof LedgerError ? e.kind : undefined,
        hint: e instanceof LedgerError ? e.hint : undefined,
      });
    }
  }

  private noticeNewer(panel: GraphPanel): void {
    const entry = panel.data;
    const connection = this.connectionOf(entry);
    const end = connection?.ledger?.ledgerEnd;
    if (!entry.document || end === undefined || entry.ledgerEndAtLoad === undefined || end <= entry.ledgerEndAtLoad) return;
    panel.notify({ type: 'stale', text: `Newer transactions exist (the ledger end is now ${end}): the lineage may have grown.` });
  }

  /** The page's requests ("ready" is the host's: it sends the page what it shows again; a restored page draws from its saved state). */
  private async onMessage(panel: GraphPanel, m: FromWebview): Promise<void> {
    const entry = panel.data;
    const doc = entry.document;
    switch (m.type) {
      case 'retry':
        return this.load(panel);
      case 'more':
        return this.load(panel, true);
      case 'openContract':
        await vscode.commands.executeCommand(Commands.showContractEvents, m.contractId);
        return;
      case 'lineage': {
        const connection = this.connectionOf(entry);
        if (connection) await this.show({ kind: 'lineage', contractId: m.contractId }, connection);
        return;
      }
      case 'openNode': {
        if (!entry.events && (doc?.kind === 'transaction' || doc?.kind === 'comparison')) await this.load(panel);
        const drawn = doc?.kind === 'transaction' ? doc : doc?.kind === 'comparison' ? doc.committed : undefined;
        const a = drawn?.actions.find((x) => x.nodeId === m.nodeId);
        const event = a && entry.events?.[a.eventIndex];
        if (event) await this.deps.documents.show('ledger', `node-${m.nodeId}`, event);
        return;
      }
      case 'openUpdate':
        if (doc?.kind === 'transaction') await vscode.commands.executeCommand(Commands.revealUpdate, { connectionId: entry.connection?.id, offset: doc.offset, updateId: doc.updateId });
        return;
      case 'export': {
        if (!doc || doc.kind === 'range-diff') return;
        // A comparison is two graphs and a list: it exports as text.
        const format = doc.kind === 'comparison' ? 'text' : m.format;
        // Mermaid as Markdown with a mermaid fence: a language VS Code knows, drawn by its Markdown
        // preview where a Mermaid extension for it is installed.
        const content = doc.kind === 'comparison' || format === 'text' ? doc.text : format === 'mermaid' ? mermaidMarkdown(doc.mermaid) : doc.dot;
        const language = format === 'mermaid' ? 'markdown' : format === 'dot' ? 'dot' : 'plaintext';
        const exported = await vscode.workspace.openTextDocument({ language, content });
        await vscode.window.showTextDocument(exported, { preview: false, viewColumn: vscode.ViewColumn.Beside });
        // The built-in preview alone shows the fence as code: previewed only where it would be drawn.
        if (format === 'mermaid' && mermaidPreviewInstalled()) await runIfAvailable(MARKDOWN_PREVIEW_TO_SIDE, exported.uri);
        return;
      }
      case 'saveSvg': {
        const uri = await this.deps.prompts.saveDialog({ filters: { SVG: ['svg'] }, saveLabel: 'Save Graph', title: 'Save the graph as SVG' });
        if (uri) await vscode.workspace.fs.writeFile(uri, Buffer.from(m.svg, 'utf8'));
        return;
      }
    }
  }
}
