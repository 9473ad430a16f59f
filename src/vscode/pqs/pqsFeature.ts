/**
 * PQS in the editor: a Participant Query Store attached to the active participant connection as a
 * second reader (its URL in global state, its password in SecretStorage), the PQS view (watermark and
 * lag, templates with counts, a template's active contracts at a pinned offset in keyset pages with a
 * payload filter, a contract's history with links to the transaction graph and Contract Events), and
 * `*.pqs.sql` files: Run and Explain (CodeLens and palette) into a result grid, completions.
 * Thin glue: every query is the core's (src/core/pqs).
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { LedgerConnection } from '../../core/ledger/connection';
import { CoalescedRead } from '../../core/ledger/state';
import type { Logger } from '../../core/log';
import { pqsCompletions } from '../../core/pqs/completions';
import { PqsError } from '../../core/pqs/errors';
import { checkFilters, suggestedPayloadIndex, type FilterPackages, type PayloadFilter } from '../../core/pqs/filter';
import { describeSettings, parsePqsUrl } from '../../core/pqs/settings';
import { PqsStore, type ActiveContractPages, type ContractHistory, type PgDriver, type TemplateCount, type Watermark } from '../../core/pqs/store';
import { shortId } from '../../core/text';
import { Commands, Views } from '../commands/ids';
import type { CommandRegistry } from '../commands/registry';
import type { ConnectionManager } from '../connections/manager';
import { Disposable } from '../lifecycle';
import type { Prompts } from '../prompts';
import type { SecretStore } from '../secrets';
import { resultsCsv, resultsHtml, resultsJson } from './resultsHtml';
import type { SqlResult } from '../../core/pqs/store';

export const PQS_CAVEAT = 'Database credentials bypass Daml’s party authorization: PQS shows every contract the participant stores, not filtered by party rights.';
const URL_KEY = (profileId: string) => `cantonLedger.pqs.url/${profileId}`;
const SQL_SELECTOR: vscode.DocumentSelector = { pattern: '**/*.pqs.sql' };
const PAGE_SIZE = 50;

export interface PqsDeps {
  extensionPath: string;
  globalState: vscode.Memento;
  connections: ConnectionManager;
  secrets: Pick<SecretStore, 'get' | 'set' | 'delete'>;
  prompts: Prompts;
  logger: Logger;
  /** The demo participant's PQS database (cantonLedger.demo.pqsUrl), attached to the demo connection by itself. */
  demoPqsUrl?: () => string | undefined;
  /** The environment (PGPASSWORD for the demo's PQS). */
  env?: Readonly<Record<string, string | undefined>>;
  /** node-postgres; default: dist/pqs.js of the extension, loaded on the first connection. */
  driver?: () => PgDriver;
}

type Node =
  | { kind: 'message'; id: string; label: string; icon?: string; description?: string; tooltip?: string; command?: vscode.Command }
  | { kind: 'template'; name: string; count: number }
  | { kind: 'contract'; template: string; contractId: string; payload: unknown; offset: number }
  | { kind: 'more'; template: string }
  | { kind: 'history'; contractId: string; entry: ContractHistory['entries'][number]; index: number };

/** What the view shows of the attached store; read again on Refresh and when the ledger moves. */
interface Snapshot {
  watermark: Watermark;
  pinned: number;
  asOf?: string;
  templates: TemplateCount[];
  ledgerEnd?: number;
}

export class PqsFeature extends Disposable implements vscode.TreeDataProvider<Node> {
  private readonly changed = this._register(new vscode.EventEmitter<Node | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private snapshot: Snapshot | undefined;
  private failure: PqsError | undefined;
  /** Pinned by the user (an offset, or a time through nearest_offset); else the store's latest. */
  private pin: { offset: number; asOf?: string } | undefined;
  private readonly pages = new Map<string, ActiveContractPages>();
  private readonly filters = new Map<string, { texts: string[]; filters: PayloadFilter[] }>();
  private readonly histories = new Map<string, ContractHistory>();
  private panel: vscode.WebviewPanel | undefined;
  private lastResult: SqlResult | undefined;
  private reading: AbortController | undefined;
  /**
   * The ledger moved: the watermark and lag are read again — while the view is shown, and once for any
   * number of moves during a read (a live ledger moves with every update; each read is two queries).
   */
  private readonly ledgerMoves = new CoalescedRead(() => this.refresh(false));
  private movedWhileHidden = false;
  readonly view: vscode.TreeView<Node>;

  constructor(private readonly deps: PqsDeps) {
    super();
    this.view = this._register(vscode.window.createTreeView(Views.pqs, { treeDataProvider: this, showCollapseAll: true }));
    this._register(deps.connections.onDidChange(() => void this.autoAttach()));
    this._register(
      deps.connections.onDidChangeLedger(({ connectionId }) => {
        if (this.connection()?.id !== connectionId) return;
        if (this.view.visible) void this.ledgerMoves.run();
        else this.movedWhileHidden = true;
      }),
    );
    this._register(
      this.view.onDidChangeVisibility(({ visible }) => {
        if (!visible || !this.movedWhileHidden) return;
        this.movedWhileHidden = false;
        void this.ledgerMoves.run();
      }),
    );
    this._register(vscode.languages.registerCodeLensProvider(SQL_SELECTOR, { provideCodeLenses: (doc) => this.codeLenses(doc) }));
    this._register(vscode.languages.registerCompletionItemProvider(SQL_SELECTOR, { provideCompletionItems: () => this.completions() }));
  }

  register(commands: CommandRegistry): void {
    commands.register(Commands.pqsConnect, (arg?: { url?: string; password?: string }) => this.connect(arg));
    commands.register(Commands.pqsDisconnect, () => this.disconnect());
    commands.register(Commands.pqsRefresh, () => this.refresh(true));
    commands.register(Commands.pqsPin, (arg?: { offset?: number; asOf?: string }) => this.pinAt(arg));
    commands.register(Commands.pqsFilter, (node?: Node, texts?: string[]) => this.filter(node, texts));
    commands.register(Commands.pqsLoadMore, (node?: Node) => (node?.kind === 'more' ? this.loadMore(node.template) : undefined));
    commands.register(Commands.pqsCopySuggestedIndex, (sql?: string) => (sql ? vscode.env.clipboard.writeText(sql) : undefined));
    commands.register(Commands.pqsRunFile, (uri?: vscode.Uri) => this.runFile(uri, false));
    commands.register(Commands.pqsExplainFile, (uri?: vscode.Uri) => this.runFile(uri, true));
  }

  /** The connection the view follows: the active one, when connected. */
  private connection(): LedgerConnection | undefined {
    return this.deps.connections.activeConnection();
  }

  private store(): PqsStore | undefined {
    return this.connection()?.pqs;
  }

  private driver = (): PgDriver => (this.deps.driver ?? (() => require(path.join(this.deps.extensionPath, 'dist', 'pqs.js')) as PgDriver))();

  /** Attaches the store this profile used before (its URL and password kept), without asking. */
  private async autoAttach(): Promise<void> {
    const c = this.connection();
    if (!c || c.pqs) return this.changed.fire(undefined);
    const kept = this.deps.globalState.get<string>(URL_KEY(c.id));
    // The demo participant's own PQS (cantonLedger.demo.pqsUrl), read with the password of the environment.
    const url = kept ?? (c.profile.source === 'demo' ? this.deps.demoPqsUrl?.() : undefined);
    if (!url) return this.changed.fire(undefined);
    const password = kept ? await this.deps.secrets.get(c.id, 'pqsPassword') : this.deps.env?.PGPASSWORD;
    await this.attach(c, url, password, !kept).catch((err) => this.deps.logger.warn(`PQS of ${c.profile.name} not attached: ${err instanceof Error ? err.message : String(err)}`));
  }

  private async connect(arg?: { url?: string; password?: string }): Promise<void> {
    const c = this.connection();
    if (!c) {
      await this.deps.prompts.message('warning', 'Connect to a participant first: its PQS database attaches to the connection.', []);
      return;
    }
    const url =
      arg?.url ??
      (await vscode.window.showInputBox({
        title: 'Connect to PQS',
        prompt: `postgresql://user@host:5432/database?schema=…&sslmode=…  (${PQS_CAVEAT})`,
        value: this.deps.globalState.get<string>(URL_KEY(c.id)) ?? 'postgresql://pqs@localhost:5432/pqs?schema=public',
        ignoreFocusOut: true,
        validateInput: (v) => {
          try {
            parsePqsUrl(v);
            return undefined;
          } catch (e) {
            return (e as Error).message;
          }
        },
      }));
    if (url === undefined) return;
    const parsed = parsePqsUrl(url);
    const password =
      arg?.password ?? parsed.password ?? (await vscode.window.showInputBox({ title: 'PQS password', prompt: `Password of ${parsed.settings.user} (kept in the editor’s secret storage)`, password: true, ignoreFocusOut: true }));
    if (password === undefined) return;
    await this.attach(c, url, password);
  }

  /** `transient`: the demo's store, attached for this session only (nothing kept). */
  private async attach(c: LedgerConnection, url: string, password: string | undefined, transient = false): Promise<void> {
    const { settings } = parsePqsUrl(url);
    const store = new PqsStore(settings, async () => password, this.driver);
    try {
      const check = await this.deps.prompts.progress(`Connecting to PQS ${describeSettings(settings)}`, (signal) => store.connect({ signal }));
      // Kept only once it worked: the URL without its password, the password in secret storage.
      if (!transient) {
        await this.deps.globalState.update(URL_KEY(c.id), describeSettings(settings));
        if (password) await this.deps.secrets.set(c.id, 'pqsPassword', password);
      }
      c.attachPqs(store);
      this.deps.logger.info(`PQS attached to ${c.profile.name}: ${describeSettings(settings)} (interface ${check.verdict} as ${check.knows})`);
      this.resetReads();
      await this.refresh(false);
    } catch (err) {
      await store.dispose();
      throw err;
    }
  }

  private async disconnect(): Promise<void> {
    const c = this.connection();
    if (!c) return;
    c.attachPqs(undefined);
    await this.deps.globalState.update(URL_KEY(c.id), undefined);
    await this.deps.secrets.delete(c.id, 'pqsPassword');
    this.resetReads();
    this.snapshot = undefined;
    this.changed.fire(undefined);
  }

  private resetReads(): void {
    this.pages.clear();
    this.histories.clear();
    this.failure = undefined;
  }

  /** Reads the watermark and the counts again (at the pin, else at the store's latest offset). */
  async refresh(resetPages: boolean): Promise<void> {
    const store = this.store();
    if (!store) return this.changed.fire(undefined);
    this.reading?.abort();
    const reading = (this.reading = new AbortController());
    try {
      const watermark = await store.watermark({ signal: reading.signal });
      const pinned = this.pin?.offset ?? watermark.latest ?? 0;
      const templates = await store.summary(pinned, { signal: reading.signal });
      const before = this.snapshot?.pinned;
      this.snapshot = { watermark, pinned, asOf: this.pin?.asOf, templates, ledgerEnd: this.connection()?.ledger?.ledgerEnd };
      this.failure = undefined;
      if (resetPages || before !== pinned) this.resetReads();
    } catch (err) {
      if (err instanceof PqsError && err.kind === 'cancelled') return;
      this.failure = err instanceof PqsError ? err : new PqsError('sql', String(err));
    } finally {
      if (this.reading === reading) this.reading = undefined;
    }
    this.changed.fire(undefined);
  }

  private async pinAt(arg?: { offset?: number; asOf?: string }): Promise<void> {
    const store = this.store();
    if (!store) return;
    let choice = arg;
    if (!choice) {
      const text = await vscode.window.showInputBox({
        title: 'PQS: read as of',
        prompt: 'An offset (42), a time (2026-01-02T10:00:00Z, through nearest_offset), or empty for the latest offset',
        ignoreFocusOut: true,
      });
      if (text === undefined) return;
      choice = text.trim() === '' ? {} : /^\d+$/.test(text.trim()) ? { offset: Number(text.trim()) } : { asOf: text.trim() };
    }
    if (choice.asOf !== undefined) {
      if (Number.isNaN(Date.parse(choice.asOf))) throw new PqsError('bad-settings', `"${choice.asOf}" is neither an offset nor a time`);
      const offset = await store.nearestOffset(choice.asOf);
      if (offset === undefined) throw new PqsError('sql', `The store holds no offset at or before ${choice.asOf}`);
      this.pin = { offset, asOf: choice.asOf };
    } else this.pin = choice.offset !== undefined ? { offset: choice.offset } : undefined;
    await this.refresh(true);
  }

  private packageIndex(): FilterPackages | undefined {
    const c = this.connection();
    const state = c?.packages();
    return state?.state === 'ready' ? state.context.packages : undefined;
  }

  private async filter(node?: Node, texts?: string[]): Promise<void> {
    if (node?.kind !== 'template') return;
    let input = texts;
    if (!input) {
      const text = await vscode.window.showInputBox({
        title: `Filter ${node.name} by payload`,
        prompt: 'PATH OPERATOR VALUE, several joined by " and " (amount>=1000 and owner=Alice::1220…); empty for none',
        value: this.filters.get(node.name)?.texts.join(' and ') ?? '',
        ignoreFocusOut: true,
      });
      if (text === undefined) return;
      input = text.trim() ? text.split(/\s+and\s+/i) : [];
    }
    // Checked against the template's fields before anything is sent.
    const filters = checkFilters(input, node.name, this.packageIndex());
    if (filters.length) this.filters.set(node.name, { texts: input, filters });
    else this.filters.delete(node.name);
    this.pages.delete(node.name);
    this.changed.fire(undefined);
    await this.view.reveal(node, { expand: true }).then(undefined, () => undefined);
  }

  private pagesOf(template: string): ActiveContractPages | undefined {
    const store = this.store();
    if (!store || !this.snapshot) return undefined;
    let pages = this.pages.get(template);
    if (!pages) {
      pages = store.activeContracts(template, this.snapshot.pinned, this.filters.get(template)?.filters ?? [], PAGE_SIZE);
      this.pages.set(template, pages);
    }
    return pages;
  }

  private async loadMore(template: string): Promise<void> {
    await this.pagesOf(template)?.loadMore();
    this.changed.fire(undefined);
  }

  // ---------------------------------------------------------------- tree

  getTreeItem(n: Node): vscode.TreeItem {
    const item = this.treeItem(n);
    // What a screen reader says (and what VS Code would otherwise take from the tooltip): label, then description.
    item.accessibilityInformation = { label: [item.label, item.description].filter(Boolean).join(', ') as string };
    return item;
  }

  private treeItem(n: Node): vscode.TreeItem {
    switch (n.kind) {
      case 'message': {
        const item = new vscode.TreeItem(n.label, vscode.TreeItemCollapsibleState.None);
        item.id = `pqs/${n.id}`;
        item.description = n.description;
        item.tooltip = n.tooltip ?? n.label;
        item.iconPath = n.icon ? new vscode.ThemeIcon(n.icon) : undefined;
        item.command = n.command;
        return item;
      }
      case 'template': {
        const item = new vscode.TreeItem(n.name, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `pqs/template/${n.name}`;
        const filter = this.filters.get(n.name);
        item.description = `${n.count} active${filter ? ` · where ${filter.texts.join(' and ')}` : ''}`;
        item.contextValue = 'pqsTemplate';
        item.iconPath = new vscode.ThemeIcon('symbol-class');
        return item;
      }
      case 'contract': {
        const item = new vscode.TreeItem(shortId(n.contractId), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `pqs/contract/${n.template}/${n.contractId}`;
        item.description = `@${n.offset} ${payloadSummary(n.payload)}`;
        item.tooltip = `${n.contractId}\n${JSON.stringify(n.payload, null, 2)}`;
        item.contextValue = 'pqsContract';
        item.iconPath = new vscode.ThemeIcon('file-code');
        return item;
      }
      case 'more': {
        const item = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
        item.id = `pqs/more/${n.template}/${this.pages.get(n.template)?.loadedCount ?? 0}`;
        item.command = { command: Commands.pqsLoadMore, title: 'Load more', arguments: [n] };
        item.iconPath = new vscode.ThemeIcon('fold-down');
        return item;
      }
      case 'history': {
        const e = n.entry;
        const label = e.kind === 'exercise' ? `${e.choice}${e.consuming ? ' (consuming)' : ''}` : e.kind;
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
        item.id = `pqs/history/${n.contractId}/${n.index}`;
        item.description = `offset ${e.offset}${e.at ? ` · ${e.at}` : ''}${e.controllers?.length ? ` · by ${e.controllers.map((p) => p.split('::')[0]).join(', ')}` : ''}`;
        item.iconPath = new vscode.ThemeIcon(e.kind === 'create' ? 'add' : e.kind === 'archive' ? 'archive' : 'play');
        if (e.transactionId) {
          item.tooltip = `Show the transaction graph of ${e.transactionId}`;
          item.command = { command: Commands.showTransactionGraph, title: 'Show Transaction Graph', arguments: [{ updateId: e.transactionId }] };
        }
        item.contextValue = 'pqsHistory';
        return item;
      }
    }
  }

  getParent(): undefined {
    return undefined;
  }

  async getChildren(n?: Node): Promise<Node[]> {
    if (!n) return this.roots();
    if (n.kind === 'template') {
      const pages = this.pagesOf(n.name);
      if (!pages) return [];
      try {
        if (!pages.complete && pages.loadedCount === 0) await pages.loadMore();
      } catch (err) {
        return [this.errorNode(`template/${n.name}`, err)];
      }
      const contracts: Node[] = pages.items.map((c) => ({ kind: 'contract', template: n.name, contractId: c.contractId, payload: c.payload, offset: c.offset }));
      const filter = this.filters.get(n.name);
      const hints: Node[] = filter
        ? filter.filters.map((f, i) => {
            const suggestion = suggestedPayloadIndex(n.name, f);
            if ('none' in suggestion) return { kind: 'message', id: `index/${n.name}/${i}`, label: 'No payload index serves this filter', icon: 'info', description: suggestion.none, tooltip: suggestion.none };
            const sql = suggestion.sql;
            return { kind: 'message', id: `index/${n.name}/${i}`, label: 'Suggested payload index (not created)', icon: 'lightbulb', description: sql, tooltip: `${sql}\n\nA PQS administrator runs it; click to copy.`, command: { command: Commands.pqsCopySuggestedIndex, title: 'Copy', arguments: [sql] } };
          })
        : [];
      return [...hints, ...contracts, ...(pages.complete ? [] : [{ kind: 'more', template: n.name } as Node])];
    }
    if (n.kind === 'contract') {
      try {
        const store = this.store();
        const h = this.histories.get(n.contractId) ?? (store ? await store.history(n.contractId) : undefined);
        if (!h) return [];
        this.histories.set(n.contractId, h);
        return [
          ...h.entries.map((entry, index): Node => ({ kind: 'history', contractId: n.contractId, entry, index })),
          { kind: 'message', id: `events/${n.contractId}`, label: 'Contract Events', icon: 'list-tree', description: 'from the participant', command: { command: Commands.showContractEvents, title: 'Show Contract Events', arguments: [n.contractId] } },
        ];
      } catch (err) {
        return [this.errorNode(`contract/${n.contractId}`, err)];
      }
    }
    return [];
  }

  private errorNode(id: string, err: unknown): Node {
    const e = err instanceof PqsError ? err : new PqsError('sql', String(err));
    return { kind: 'message', id: `error/${id}`, label: e.message, icon: 'error', tooltip: `${e.message}\n${e.hint}` };
  }

  private async roots(): Promise<Node[]> {
    const c = this.connection();
    if (!c) return [{ kind: 'message', id: 'no-connection', label: 'Connect to a participant first', icon: 'plug' }];
    const store = c.pqs;
    if (!store) {
      return [
        { kind: 'message', id: 'connect', label: 'Connect to PQS…', icon: 'database', description: 'the participant’s Participant Query Store (PostgreSQL)', command: { command: Commands.pqsConnect, title: 'Connect to PQS…' } },
        { kind: 'message', id: 'caveat', label: 'Credentials bypass party authorization', icon: 'warning', tooltip: PQS_CAVEAT },
      ];
    }
    if (!this.snapshot && !this.failure) await this.refresh(false);
    const caveat: Node = { kind: 'message', id: 'caveat', label: 'Not filtered by party rights', icon: 'warning', description: 'database credentials bypass Daml’s authorization', tooltip: PQS_CAVEAT };
    const check = store.checked;
    const storeNode: Node = {
      kind: 'message',
      id: 'store',
      label: describeSettings(store.settings),
      icon: 'database',
      description: check ? (check.verdict === 'same' ? `PQS interface ${check.knows}` : `PQS interface ${check.verdict} than ${check.knows}`) : undefined,
      tooltip: check && check.verdict !== 'same' ? `This store is ${check.verdict} than the interface this extension knows (${check.knows}).${check.missing.length ? `\nMissing: ${check.missing.join(', ')}` : ''}${check.extra.length ? `\nNot known: ${check.extra.join(', ')}` : ''}` : undefined,
    };
    if (this.failure) return [caveat, storeNode, this.errorNode('refresh', this.failure)];
    const s = this.snapshot!;
    const end = c.ledger?.ledgerEnd ?? s.ledgerEnd;
    const lag = end !== undefined && s.watermark.latest !== undefined ? end - s.watermark.latest : undefined;
    const watermark: Node = {
      kind: 'message',
      id: 'watermark',
      label: 'Watermark',
      icon: 'dashboard',
      description: `latest ${s.watermark.latest ?? '-'} · oldest ${s.watermark.oldest ?? '-'} · pruned ${s.watermark.pruned ?? '-'}${lag !== undefined ? ` · lag ${lag} behind ledger end ${end}` : ''}`,
    };
    const pinned: Node = {
      kind: 'message',
      id: 'pinned',
      label: `Reading at offset ${s.pinned}`,
      icon: 'pinned',
      description: s.asOf ? `as of ${s.asOf}` : this.pin ? 'pinned' : 'the latest offset',
      command: { command: Commands.pqsPin, title: 'Read as of…' },
    };
    const templates = s.templates.map((t): Node => ({ kind: 'template', name: t.name, count: t.count }));
    return [caveat, storeNode, watermark, pinned, ...(templates.length ? templates : [{ kind: 'message', id: 'empty', label: 'No active contracts at this offset' } as Node])];
  }

  // ---------------------------------------------------------------- SQL files

  private codeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, { title: '▶ Run on PQS', command: Commands.pqsRunFile, arguments: [doc.uri] }),
      new vscode.CodeLens(top, { title: 'Explain', command: Commands.pqsExplainFile, arguments: [doc.uri] }),
    ];
  }

  private completions(): vscode.CompletionItem[] {
    const names = this.snapshot?.templates.map((t) => t.name) ?? [];
    return pqsCompletions(names, this.packageIndex()).map((c) => {
      const item = new vscode.CompletionItem(c.label, c.kind === 'function' ? vscode.CompletionItemKind.Function : c.kind === 'template' ? vscode.CompletionItemKind.Class : vscode.CompletionItemKind.Field);
      item.detail = c.detail;
      item.insertText = c.insertText;
      if (c.documentation) item.documentation = c.documentation;
      return item;
    });
  }

  private async runFile(uri: vscode.Uri | undefined, explain: boolean): Promise<SqlResult | undefined> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target) return undefined;
    const store = this.store();
    if (!store) {
      const choice = await this.deps.prompts.message('warning', 'No PQS database is attached to the active connection.', ['Connect to PQS…']);
      if (choice) await vscode.commands.executeCommand(Commands.pqsConnect);
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(target);
    const result = await this.deps.prompts.progress(`${explain ? 'Explaining' : 'Running'} ${path.basename(target.fsPath)} on PQS`, (signal) => store.runSql(doc.getText(), { signal }, { explain }));
    this.lastResult = result;
    this.showResults(`PQS: ${path.basename(target.fsPath)}${explain ? ' (plan)' : ''}`, result, explain);
    return result;
  }

  private showResults(title: string, result: SqlResult, explain: boolean): void {
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('cantonLedger.pqsResults', title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true, localResourceRoots: [] });
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage((m: { type?: string; format?: string }) => {
        if (m?.type === 'copy' && this.lastResult) void vscode.env.clipboard.writeText(m.format === 'json' ? resultsJson(this.lastResult) : resultsCsv(this.lastResult));
      });
    }
    this.panel.title = title;
    this.panel.webview.html = resultsHtml({ title, result, explain }, randomBytes(16).toString('base64'));
    this.panel.reveal(undefined, true);
  }

  override dispose(): void {
    this.reading?.abort();
    this.panel?.dispose();
    super.dispose();
  }
}

/** The payload's top-level text and number fields, parties by their name: `owner=Bob · amount=700.0 · currency=USD`. */
function payloadSummary(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return JSON.stringify(payload);
  return Object.entries(payload)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
    .map(([k, v]) => `${k}=${String(v).split('::')[0].replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '')}`)
    .join(' · ');
}

export function registerPqs(commands: CommandRegistry, deps: PqsDeps): PqsFeature {
  const feature = new PqsFeature(deps);
  feature.register(commands);
  return feature;
}
