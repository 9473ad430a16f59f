/**
 * The PQS view of the store attached to the active connection: the authorization caveat, the store and
 * its interface check, a warning when the role could write, the watermark and the lag behind the
 * ledger, the offset it reads at (pinned by the user, else the latest), the templates with their counts
 * and their interface views under them, a list's active contracts in keyset pages with a payload
 * filter and its suggested index, and a contract's history with links to the transaction graph and
 * Contract Events. Every query is the core's (src/core/pqs); the rows' looks are in ./viewRows.
 */
import vscode = require('vscode');
import type { FilterPackages, PayloadFilter } from '../../core/pqs/filter';
import { checkFilters, suggestedPayloadIndex } from '../../core/pqs/filter';
import { CoalescedRead } from '../../core/ledger/state';
import type { LedgerConnection } from '../../core/ledger/connection';
import { PqsError } from '../../core/pqs/errors';
import { describeSettings } from '../../core/pqs/settings';
import type { ActiveContractPages, ContractHistory, PqsStore, TemplateCount, Watermark } from '../../core/pqs/store';
import { groupSummary, implementsFromPackages, type ImplementsPackages } from '../../core/pqs/summary';
import { Commands, Views } from '../kit/ids';
import type { CommandRegistry } from '../kit/registry';
import type { ConnectionManager } from '../connections/manager';
import { Disposable } from '../kit/lifecycle';
import type { ErrorReporter, Prompts } from '../kit/prompts';
import { Pageable } from '../kit/pageable';
import { PQS_CAVEAT, READ_ONLY_ROLE_ADVICE, type WriteAccess } from './connect';
import { contractRows, errorRows, treeItemOf, type ListKey, type PqsNode } from './viewRows';

const PAGE_SIZE = 50;
const DEMO_SET_UP_TOOLTIP =
  'Asks for a PostgreSQL database and its password (kept in the editor’s secret storage), starts the demo participant mirroring its ledger there with PQS’s SQL functions, and attaches this view to it.';

export interface PqsViewDeps {
  connections: ConnectionManager;
  errors: Pick<ErrorReporter, 'record'>;
  prompts: Prompts;
  /** What the attach found of the store's role (see PqsConnecting). */
  writeAccessOf(store: PqsStore): WriteAccess | undefined;
  /** Fires when a store is attached to a connection or detached from it. */
  onDidAttach: vscode.Event<LedgerConnection>;
}

/** What the view shows of the attached store; read again on Refresh and when the ledger moves. */
interface Snapshot {
  watermark: Watermark;
  pinned: number;
  asOf?: string;
  counts: TemplateCount[];
  ledgerEnd?: number;
}

/**
 * What the user chose in the view for one connection: where it reads (pinned by the user: an offset, or
 * a time through nearest_offset; else the store's latest) and the payload filters of its lists. Kept
 * with the connection it was chosen on, so that another connection starts with nothing chosen.
 */
interface Choices {
  pin?: { offset: number; asOf?: string };
  readonly filters: Map<string, { texts: string[]; filters: PayloadFilter[] }>;
}

export class PqsView extends Disposable implements vscode.TreeDataProvider<PqsNode> {
  private readonly changed = this._register(new vscode.EventEmitter<PqsNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  /** The store that the snapshot, failure, pages and histories were read from. */
  private readOf: PqsStore | undefined;
  private snapshot: Snapshot | undefined;
  private failure: unknown;
  /** The choices made per connection: they go with their connection (a reconnect makes a new one). */
  private readonly choicesOf = new WeakMap<LedgerConnection, Choices>();
  /** The contracts of each template or interface, in pages (one list per name, wherever it shows). */
  private readonly lists = new Map<string, Pageable<ActiveContractPages>>();
  private readonly histories = new Map<string, ContractHistory>();
  private reading: AbortController | undefined;
  /**
   * The ledger moved: the watermark and lag are read again — while the view is shown, and once for any
   * number of moves during a read (a live ledger moves with every update; each read is two queries).
   */
  private readonly ledgerMoves = new CoalescedRead(() => this.refresh(false));
  private movedWhileHidden = false;
  readonly view: vscode.TreeView<PqsNode>;

  constructor(private readonly deps: PqsViewDeps) {
    super();
    this.view = this._register(vscode.window.createTreeView(Views.pqs, { treeDataProvider: this, showCollapseAll: true }));
    this._register(deps.connections.onDidChange(() => this.changed.fire(undefined)));
    this._register(deps.onDidAttach(() => this.followStore(this.store())));
    this._register(
      deps.connections.onDidChangeLedger(({ connection }) => {
        if (this.connection() !== connection) return;
        if (this.view.visible) void this.ledgerMoves.run();
        else this.movedWhileHidden = true;
      }),
    );
    // The packages say which interfaces each template implements, and which fields a filter may name.
    this._register(deps.connections.onDidChangePackages((c) => (this.connection() === c ? this.changed.fire(undefined) : undefined)));
    this._register(
      this.view.onDidChangeVisibility(({ visible }) => {
        if (!visible || !this.movedWhileHidden) return;
        this.movedWhileHidden = false;
        void this.ledgerMoves.run();
      }),
    );
  }

  register(commands: CommandRegistry): void {
    commands.register(Commands.pqsRefresh, () => this.refresh(true));
    commands.register(Commands.pqsPin, (arg?: { offset?: number; asOf?: string }) => this.pinAt(arg));
    commands.register(Commands.pqsFilter, (node?: PqsNode, texts?: string[]) => this.filter(node, texts));
    commands.register(Commands.pqsLoadMore, (node?: PqsNode) => (node?.kind === 'more' ? this.loadMore(node.name) : undefined));
    commands.register(Commands.pqsCopySuggestedIndex, (sql?: string) => (sql ? vscode.env.clipboard.writeText(sql) : undefined));
  }

  /** The connection the view follows: the active one, when connected. */
  private connection(): LedgerConnection | undefined {
    return this.deps.connections.activeConnection();
  }

  /** The store of the connection the view follows. */
  store(): PqsStore | undefined {
    return this.connection()?.pqs;
  }

  /** The choices made for the connection the view follows (none yet: nothing chosen). */
  private get choices(): Choices {
    const connection = this.connection();
    let choices = connection && this.choicesOf.get(connection);
    if (!choices) {
      choices = { filters: new Map() };
      if (connection) this.choicesOf.set(connection, choices);
    }
    return choices;
  }

  /** The participant's packages, once read (for filters, the interface views and completions). */
  packageIndex(): (FilterPackages & ImplementsPackages) | undefined {
    const state = this.connection()?.packages();
    return state?.state === 'ready' ? state.context.packages : undefined;
  }

  /** The template and interface names the store counted at the offset read (for completions). */
  names(): string[] {
    return this.snapshot?.counts.map((t) => t.name) ?? [];
  }

  /** Another store (attached, detached, another connection's): nothing read of the one before is shown. */
  private followStore(store: PqsStore | undefined): void {
    if (this.readOf === store) return;
    this.reading?.abort();
    this.readOf = store;
    this.snapshot = undefined;
    this.failure = undefined;
    this.resetReads();
    this.changed.fire(undefined);
  }

  /** Forgets every list and history read; their reads in progress are cancelled. */
  private resetReads(): void {
    for (const list of this.lists.values()) list.dispose();
    this.lists.clear();
    this.histories.clear();
  }

  /** Reads the watermark and the counts again (at the pin, else at the store's latest offset). */
  async refresh(resetPages: boolean): Promise<void> {
    const store = this.store();
    this.followStore(store);
    if (!store) return this.changed.fire(undefined);
    this.reading?.abort();
    const reading = (this.reading = new AbortController());
    try {
      const watermark = await store.watermark({ signal: reading.signal });
      const pin = this.choices.pin;
      const pinned = pin?.offset ?? watermark.latest ?? 0;
      const counts = await store.summary(pinned, { signal: reading.signal });
      const before = this.snapshot?.pinned;
      this.snapshot = { watermark, pinned, asOf: pin?.asOf, counts, ledgerEnd: this.connection()?.ledger?.ledgerEnd };
      this.failure = undefined;
      if (resetPages || before !== pinned) this.resetReads();
    } catch (err) {
      // Overtaken by another read (or another store): that one shows.
      if (reading.signal.aborted) return;
      this.failure = err;
      this.deps.errors.record('PQS view', err);
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
      const text = await this.deps.prompts.input({
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
      if (offset === undefined) throw new PqsError('offset-out-of-range', `The store holds no offset at or before ${choice.asOf}`);
      this.choices.pin = { offset, asOf: choice.asOf };
    } else this.choices.pin = choice.offset !== undefined ? { offset: choice.offset } : undefined;
    await this.refresh(true);
  }

  private async filter(node?: PqsNode, texts?: string[]): Promise<void> {
    if (node?.kind !== 'template') return;
    let input = texts;
    if (!input) {
      const text = await this.deps.prompts.input({
        title: `Filter ${node.name} by payload`,
        prompt: 'PATH OPERATOR VALUE, several joined by " and " (amount>=1000 and owner=Alice::1220…); empty for none',
        value: this.choices.filters.get(node.name)?.texts.join(' and ') ?? '',
        ignoreFocusOut: true,
      });
      if (text === undefined) return;
      input = text.trim() ? text.split(/\s+and\s+/i) : [];
    }
    // Checked against the template's fields before anything is sent.
    const filters = checkFilters(input, node.name, this.packageIndex());
    if (filters.length) this.choices.filters.set(node.name, { texts: input, filters });
    else this.choices.filters.delete(node.name);
    this.lists.get(node.name)?.dispose();
    this.lists.delete(node.name);
    this.changed.fire(undefined);
    await this.view.reveal(node, { expand: true }).then(undefined, () => undefined);
  }

  /** The pages of a template's or an interface's active contracts at the offset read (one list per name, wherever it shows). */
  private listOf(name: string): Pageable<ActiveContractPages> | undefined {
    const store = this.store();
    const snapshot = this.snapshot;
    if (!store || !snapshot) return undefined;
    let list = this.lists.get(name);
    if (!list) {
      const filters = this.choices.filters.get(name)?.filters ?? [];
      list = new Pageable({
        name: `PQS: the contracts of ${name}`,
        progress: { viewId: Views.pqs, prompts: this.deps.prompts },
        open: async () => store.activeContracts(name, snapshot.pinned, filters, PAGE_SIZE),
        changed: () => this.changed.fire(undefined),
        record: (context, err) => this.deps.errors.record(context, err),
      });
      this.lists.set(name, list);
    }
    return list;
  }

  /** Load more, and Retry of a list that failed (its first page or the page after those loaded). */
  private async loadMore(name: string): Promise<void> {
    const list = this.listOf(name);
    await (list?.error !== undefined ? list.retry() : list?.loadMore());
  }

  // ---------------------------------------------------------------- tree

  getTreeItem(n: PqsNode): vscode.TreeItem {
    return treeItemOf(n, { filterOf: (name) => this.choices.filters.get(name)?.texts });
  }

  getParent(): undefined {
    return undefined;
  }

  async getChildren(n?: PqsNode): Promise<PqsNode[]> {
    if (!n) return this.roots();
    switch (n.kind) {
      case 'template':
        return [...n.interfaces.map((i): PqsNode => ({ kind: 'interface', name: i.name, count: i.count, key: `${n.name}/${i.name}` })), ...(await this.contracts(n.name, n.name))];
      case 'interface':
        return this.contracts(n.name, n.key);
      case 'interfaces':
        return n.interfaces.map((i): PqsNode => ({ kind: 'interface', name: i.name, count: i.count, key: `interfaces/${i.name}` }));
      case 'contract':
        return this.history(n.contractId);
      default:
        return [];
    }
  }

  /** A list's first page (read on first expand), the suggested index of its filter, Load more; a failure in their place, with Retry. */
  private async contracts(name: string, key: ListKey): Promise<PqsNode[]> {
    const list = this.listOf(name);
    if (!list) return [];
    await list.firstPage();
    const more = (loaded: number, loading = false): PqsNode => ({ kind: 'more', key, name, loaded, loading });
    const tail = list.rows<PqsNode>({
      error: (err) => this.errorRows(`list/${key}`, err, { command: Commands.pqsLoadMore, title: 'Retry', arguments: [more(list.pager?.loadedCount ?? 0)] }),
      more: (pager, loading) => [more(pager.loadedCount, loading)],
    });
    const pages = list.pager;
    if (!pages) return tail;
    const contracts = pages.items.map((c): PqsNode => ({ kind: 'contract', key, contractId: c.contractId, payload: c.payload, offset: c.offset }));
    const hints = (this.choices.filters.get(name)?.filters ?? []).map((f, i): PqsNode => {
      const suggestion = suggestedPayloadIndex(name, f);
      if ('none' in suggestion) return { kind: 'message', id: `index/${key}/${i}`, label: 'No payload index serves this filter', icon: 'info', description: suggestion.none, tooltip: suggestion.none };
      const { sql } = suggestion;
      return { kind: 'message', id: `index/${key}/${i}`, label: 'Suggested payload index (not created)', icon: 'lightbulb', description: sql, tooltip: `${sql}\n\nA PQS administrator runs it; click to copy.`, command: { command: Commands.pqsCopySuggestedIndex, title: 'Copy', arguments: [sql] } };
    });
    return [...hints, ...contracts, ...tail];
  }

  /** A failure in place of the rows it stopped (the one error builder's rows; the row itself is Retry). */
  private errorRows(id: string, err: unknown, retry?: vscode.Command): PqsNode[] {
    const redactor = this.connection()?.client.http.redactor;
    return errorRows(id, err, { retry, redact: (s) => redactor?.redact(s) ?? s });
  }

  /** A contract's template and interface views, its create, exercises and archive, and a link to Contract Events. */
  private async history(contractId: string): Promise<PqsNode[]> {
    try {
      const store = this.store();
      const h = this.histories.get(contractId) ?? (store ? await store.history(contractId) : undefined);
      if (!h) return [];
      this.histories.set(contractId, h);
      return [
        ...contractRows(h),
        ...h.entries.map((entry, index): PqsNode => ({ kind: 'history', contractId, entry, index })),
        { kind: 'message', id: `events/${contractId}`, label: 'Contract Events', icon: 'list-tree', description: 'from the participant', command: { command: Commands.showContractEvents, title: 'Show Contract Events', arguments: [contractId] } },
      ];
    } catch (err) {
      this.deps.errors.record(`PQS: the history of ${contractId}`, err);
      return this.errorRows(`contract/${contractId}`, err);
    }
  }

  private async roots(): Promise<PqsNode[]> {
    const c = this.connection();
    // The demo needs no PQS of its own: it mirrors its ledger into a PostgreSQL database the user names.
    const demoSetUp = (description: string): PqsNode => ({ kind: 'message', id: 'set-up-demo', label: 'Set Up PQS for the Demo…', icon: 'rocket', description, tooltip: DEMO_SET_UP_TOOLTIP, command: { command: Commands.pqsSetUpDemo, title: 'Set Up PQS for the Demo…' } });
    if (!c) return [{ kind: 'message', id: 'no-connection', label: 'Connect to a participant first', icon: 'plug' }, demoSetUp('or try PQS on the demo participant, with your PostgreSQL')];
    const store = c.pqs;
    this.followStore(store);
    if (!store) {
      return [
        ...(c.profile.source === 'demo' ? [demoSetUp('mirror the demo’s ledger into your PostgreSQL')] : []),
        { kind: 'message', id: 'connect', label: 'Connect to PQS…', icon: 'database', description: 'the participant’s Participant Query Store (PostgreSQL)', command: { command: Commands.pqsConnect, title: 'Connect to PQS…' } },
        { kind: 'message', id: 'caveat', label: 'Credentials bypass party authorization', icon: 'warning', tooltip: PQS_CAVEAT },
      ];
    }
    if (!this.snapshot && this.failure === undefined) await this.refresh(false);
    const head = [caveatRow(), storeRow(store), ...writeAccessRows(store, this.deps.writeAccessOf(store))];
    if (this.failure !== undefined) return [...head, ...this.errorRows('refresh', this.failure, { command: Commands.pqsRefresh, title: 'Retry' })];
    const s = this.snapshot;
    if (!s) return head;
    const end = c.ledger?.ledgerEnd ?? s.ledgerEnd;
    const lag = end !== undefined && s.watermark.latest !== undefined ? end - s.watermark.latest : undefined;
    const watermark: PqsNode = {
      kind: 'message',
      id: 'watermark',
      label: 'Watermark',
      icon: 'dashboard',
      description: `latest ${s.watermark.latest ?? '-'} · oldest ${s.watermark.oldest ?? '-'} · ${s.watermark.pruned === undefined ? 'never pruned' : `pruned ${s.watermark.pruned}`}${lag !== undefined ? ` · lag ${lag} behind ledger end ${end}` : ''}`,
    };
    const pinned: PqsNode = {
      kind: 'message',
      id: 'pinned',
      label: `Reading at offset ${s.pinned}`,
      icon: 'pinned',
      description: s.asOf ? `as of ${s.asOf}` : this.choices.pin ? 'pinned' : 'the latest offset',
      command: { command: Commands.pqsPin, title: 'Read as of…' },
    };
    const packages = this.packageIndex();
    const grouped = groupSummary(s.counts, packages ? implementsFromPackages(packages) : undefined);
    const lists: PqsNode[] = [
      ...grouped.templates.map((t): PqsNode => ({ kind: 'template', name: t.name, count: t.count, interfaces: t.interfaces })),
      ...(grouped.interfaces.length ? [{ kind: 'interfaces', interfaces: grouped.interfaces } as PqsNode] : []),
    ];
    return [...head, watermark, pinned, ...(lists.length ? lists : [{ kind: 'message', id: 'empty', label: 'No active contracts at this offset' } as PqsNode])];
  }

  override dispose(): void {
    this.reading?.abort();
    this.resetReads();
    super.dispose();
  }
}

function caveatRow(): PqsNode {
  return { kind: 'message', id: 'caveat', label: 'Not filtered by party rights', icon: 'warning', description: 'database credentials bypass Daml’s authorization', tooltip: PQS_CAVEAT };
}

/** The store, and how its interface compares with the one this extension reads. */
function storeRow(store: PqsStore): PqsNode {
  const check = store.checked;
  return {
    kind: 'message',
    id: 'store',
    label: describeSettings(store.settings),
    icon: 'database',
    description: check ? (check.verdict === 'same' ? `PQS interface ${check.knows}` : `PQS interface ${check.verdict} than ${check.knows}`) : undefined,
    tooltip: check && check.verdict !== 'same' ? `This store is ${check.verdict} than the interface this extension knows (${check.knows}).${check.missing.length ? `\nMissing: ${check.missing.join(', ')}` : ''}${check.extra.length ? `\nNot known: ${check.extra.join(', ')}` : ''}` : undefined,
  };
}

/** A role that could write: every session reads only, but the role is what holds if that is ever undone. */
function writeAccessRows(store: PqsStore, access: WriteAccess | undefined): PqsNode[] {
  if (!access?.canWrite) return [];
  return [
    {
      kind: 'message',
      id: 'role-can-write',
      label: `${store.settings.user} could write to the store`,
      icon: 'shield',
      description: 'use a read-only role (pg_read_all_data)',
      tooltip: `The role ${store.settings.user} could change the store: ${access.reasons.join('; ')}.\nThe extension's sessions only read, but a read-only role is what holds. ${READ_ONLY_ROLE_ADVICE}`,
    },
  ];
}
