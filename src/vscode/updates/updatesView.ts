import vscode = require('vscode');
import type { LedgerConnection } from '../../core/ledger/connection';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import type { Update } from '../../core/models/updates';
import { UpdatesPager } from '../../core/updates/pager';
import type { LedgerRow } from '../../core/rows';
import { updateRow } from '../../core/updates/rows';
import { describeSource, followUpdates, type FollowOptions, type FollowSource } from '../../core/updates/tail';
import { defaultViewFilter, filterSummary, pageQueryOf, rangeStartingAt, selectionOf, type UpdatesViewFilter } from '../../core/updates/viewFilter';
import { UpdateWindow } from '../../core/updates/window';
import type { ConnectionManager } from '../connections/manager';
import { Commands, focusViewCommand, Views } from '../kit/ids';
import { Disposable } from '../kit/lifecycle';
import type { Prompts } from '../kit/prompts';
import { LiveFollow } from '../kit/liveFollow';
import { PagedView } from '../kit/pagedView';
import { errorNodes, MessageNode, type RowNode, uniqueNodes, type ViewNode } from '../kit/rowsTree';

const FILTERS_KEY = 'cantonLedger.updatesFilters';
/** How many pages Reveal loads looking for an update before offering to move the range to it. */
const REVEAL_PAGE_BUDGET = 40;
const ROOT = 'updates';

/**
 * The Updates view's filter per connection, kept in global state (connections are global too) under
 * its profile's id, so that it outlives the connection object.
 */
export class UpdatesFilterStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<LedgerConnection>());
  /** Fires with the connection whose filter changed. */
  readonly onDidChange = this.changed.event;
  constructor(private readonly state: vscode.Memento) {
    super();
  }

  /** The stored filter, or the default for the user's rights (any party for admins). */
  get(connection: LedgerConnection): UpdatesViewFilter {
    const stored = this.explicit(connection);
    if (stored) return stored;
    const s = connection.state;
    return defaultViewFilter(s.state === 'connected' ? s.info.rights : undefined);
  }

  /** The filter the user set for this connection, if any (no default). */
  explicit(connection: LedgerConnection): UpdatesViewFilter | undefined {
    return this.state.get<Record<string, UpdatesViewFilter>>(FILTERS_KEY, {})[connection.id];
  }

  async set(connection: LedgerConnection, filter: UpdatesViewFilter | undefined): Promise<void> {
    const all = { ...this.state.get<Record<string, UpdatesViewFilter>>(FILTERS_KEY, {}) };
    if (filter) all[connection.id] = filter;
    else delete all[connection.id];
    await this.state.update(FILTERS_KEY, all);
    this.changed.fire(connection);
  }
}

/** What the live tail shows (following itself is the view's `LiveFollow`). */
interface Tail {
  window: UpdateWindow;
  /** The websocket, or polling and why: shown in the status item and the view's description. */
  source?: FollowSource;
  nodes?: ViewNode[];
  /** Each update's row, built once while it is in the window (a repaint rebuilds only the list). */
  rows: WeakMap<Update, LedgerRow>;
}

export interface RevealTarget {
  connectionId?: string;
  offset?: number;
  updateId?: string;
}

/**
 * The Updates view: pages of the active connection's updates in a pinned range ("Load more" at the
 * end), or, while live tail is on, the newest updates as they arrive.
 */
export class UpdatesView extends PagedView<UpdatesPager, ConnectionManager> {
  /** The pager's updates as nodes (built once per update: ids and parents stay stable for reveal). */
  protected declare itemNodes: RowNode[];
  private pageKeys = new Map<string, number>();
  private tail: Tail | undefined;
  /** Following new updates while the live tail is on: from where the history ends, resumed after a failure by Retry. */
  private readonly live: LiveFollow<FollowOptions>;
  private renderTimer: NodeJS.Timeout | undefined;

  constructor(
    connections: ConnectionManager,
    readonly filters: UpdatesFilterStore,
    logger: Logger,
    redactor: Redactor,
    private readonly liveWindowSize: () => number,
    private readonly prompts: Prompts,
  ) {
    super(
      { viewId: Views.updates, idPrefix: ROOT, name: 'Updates view', commands: { loadMore: Commands.loadMoreUpdates, refresh: Commands.refreshUpdates }, onDidChangeFilter: filters.onDidChange, prompts },
      connections,
      logger,
      redactor,
    );
    this.live = this._register(new LiveFollow<FollowOptions>({ name: 'Live tail', follower: followUpdates, changed: () => this.render(), logger, redactor }));
    this._registerAll(
      this.treeView.onDidChangeVisibility((e) => e.visible && this.markSeen()),
      this.treeView.onDidChangeSelection(() => this.markSeen()),
    );
    this.updateDescription();
  }

  // ---------------------------------------------------------------- tree data

  protected override rootNodes(connection: LedgerConnection): ViewNode[] {
    return this.tail ? this.tailNodes(connection) : this.pageNodes(connection);
  }

  protected override showsMoreThanPages(): boolean {
    return Boolean(this.tail);
  }

  protected override connectionChanged(moved: LedgerConnection | undefined): void {
    if (moved && moved === this.connection && !this.pager && !this.tail) this.changed.fire(undefined);
  }

  /** The ledger moved (a write of ours, a refresh): the loaded range follows (the live tail brings its own). */
  protected override ledgerMoved(): void {
    if (!this.tail) void this.followLedgerEnd();
  }

  // ---------------------------------------------------------------- paging

  protected async openPager(connection: LedgerConnection, signal: AbortSignal): Promise<UpdatesPager> {
    const query = pageQueryOf(this.filters.get(connection));
    // The range ends at the connection's ledger end (the one the status bar shows), unless the filter pins one.
    // While a live tail runs, up to where it started: the history and the live updates do not overlap.
    const ledger = connection.ledger;
    // Where the tail starts, once decided (undefined if that failed): history read while the tail runs
    // ends there, so the two neither overlap nor leave a gap, whichever is read first.
    const tailStart = this.tail ? await this.live.startOffset : undefined;
    if (query.endInclusive === undefined) query.endInclusive = tailStart ?? (ledger ? await ledger.refreshLedgerEnd(signal) : undefined);
    return new UpdatesPager(connection.client, query);
  }

  protected showLoaded(pager: UpdatesPager, added?: number): void {
    const updates = pager.state.updates;
    if (added === undefined) {
      this.pageKeys = new Map();
      this.itemNodes = uniqueNodes(updates.map(updateRow), ROOT, undefined, this.pageKeys);
      // The ledger may have moved while the first page was read.
      if (!this.tail) void this.followLedgerEnd();
      return;
    }
    // A page (and the newer updates held back for it) lands at the end of the list.
    this.itemNodes.push(...uniqueNodes(updates.slice(updates.length - added).map(updateRow), ROOT, undefined, this.pageKeys));
  }

  /**
   * Moves the loaded range on to the connection's ledger end (after a write, say), keeping what is
   * loaded: the new updates appear where the order puts them (first when newest first, last when
   * oldest first). A range the filter pins does not move.
   */
  private async followLedgerEnd(): Promise<void> {
    const pager = this.pager;
    const connection = this.connection;
    const end = connection?.ledger?.ledgerEnd;
    if (!pager || !connection || end === undefined || this.filters.get(connection).endInclusive !== undefined) return;
    if (pager.state.endInclusive === undefined || end <= pager.state.endInclusive) return;
    const signal = this.loadSignal;
    try {
      const { added, at } = await pager.extendTo(end, { signal });
      if (pager !== this.pager || added.length === 0) {
        this.changed.fire(undefined);
        return;
      }
      const nodes = uniqueNodes(added.map(updateRow), ROOT, undefined, this.pageKeys);
      if (at === 'start') this.itemNodes.unshift(...nodes);
      else this.itemNodes.push(...nodes);
      this.changed.fire(undefined);
    } catch (e) {
      if (signal.aborted) return;
      this.logger.warn(`Updates view, following the ledger end: ${this.redactor.redactError(e)}`);
    }
  }

  protected emptyNode(connection: LedgerConnection, pager: UpdatesPager): MessageNode {
    const state = pager.state;
    return new MessageNode(`${ROOT}/empty`, 'No updates in this range', {
      description: `offsets ${state.beginExclusive ?? 0}–${state.endInclusive ?? 0} · ${filterSummary(this.filters.get(connection))}`,
      icon: 'info',
      command: { command: Commands.filterUpdates, title: 'Change Filter' },
    });
  }

  protected moreDescription(pager: UpdatesPager): string {
    const state = pager.state;
    return [
      `${state.updates.length} loaded`,
      `range ends at offset ${state.endInclusive}`,
      state.newerWaiting > 0 ? `${state.newerWaiting} newer after these` : undefined,
      pager.cappedPageSize ? `pages of ${pager.cappedPageSize} (the participant's cap, less the one read ahead)` : undefined,
    ].filter(Boolean).join(' · ');
  }

  /** A new filter: new pages, and a live tail follows with the new filter from now on. */
  protected override filterChanged(): void {
    this.reset();
    if (!this.tail) return;
    this.stopLiveTail();
    void this.startLiveTail();
  }

  /** Another connection becomes active: its own filter, pages and no live tail of the old one. */
  protected override leaveConnection(): void {
    this.stopLiveTail();
  }

  // ---------------------------------------------------------------- live tail

  get liveTail(): { active: boolean; received: number; newCount: number; size: number; status?: string; source?: FollowSource } {
    const t = this.tail;
    return { active: Boolean(t), received: t?.window.totalReceived ?? 0, newCount: t?.window.newCount ?? 0, size: t?.window.size ?? 0, status: t && this.live.status.state, source: t?.source };
  }

  async startLiveTail(): Promise<void> {
    const connection = this.connections.active();
    if (!connection || this.tail) return;
    this.followActive(connection);
    // A first page being read now (the tree asked for it just before) ends where it ends: the tail
    // continues after it. A page read from now on waits for the tail's start instead (openPager).
    const pagesInFlight = this.firstPageInFlight;
    const decideStart = async (signal: AbortSignal): Promise<number> => {
      await pagesInFlight;
      // Right after what is loaded, so that the live updates continue the history without a gap;
      // else from the connection's ledger end.
      // A range the filter ends in the past is not continued: the tail starts at the ledger end then.
      const ledger = connection.ledger;
      const loadedEnd = this.filters.get(connection).endInclusive === undefined ? this.pager?.state.endInclusive : undefined;
      return loadedEnd ?? (ledger ? await ledger.refreshLedgerEnd(signal) : await connection.client.ledgerEnd({ signal }));
    };
    const tail: Tail = { window: new UpdateWindow(this.liveWindowSize()), rows: new WeakMap() };
    this.tail = tail;
    // Each run (a resume too) reads on the connection as it is then: a new token makes it anew.
    const following = this.live.start(decideStart, () => {
      const now = this.connections.current(connection) ?? connection;
      return {
        client: now.client,
        options: {
          selection: selectionOf({ ...this.filters.get(now), descending: false }),
          onBatch: (updates) => this.onLiveBatch(tail, updates),
          onSource: (source) => {
            tail.source = source;
            this.logger.info(`Live tail reads over ${this.redactor.redact(describeSource(source))}`);
            this.updateDescription();
            this.render();
          },
        },
      };
    });
    this.setLiveContext(true);
    this.updateDescription();
    this.changed.fire(undefined);
    await following;
  }

  /**
   * Retry of a live tail that stopped on a failure (an expired token, say): it goes on from where it
   * stopped, into the same window, so nothing written meanwhile is missed. Otherwise a fresh start.
   */
  async retryLiveTail(): Promise<void> {
    // The same connection, also made anew since (a new token): the tail goes on there.
    const same = this.followActive(this.connections.active());
    if (!this.tail || !this.live.canResume || !this.connection || !same) {
      this.stopLiveTail();
      return this.startLiveTail();
    }
    await this.live.resume();
  }

  stopLiveTail(): void {
    if (!this.tail) return;
    this.live.stop();
    this.tail = undefined;
    this.treeView.badge = undefined;
    this.setLiveContext(false);
    this.updateDescription();
    this.changed.fire(undefined);
    // What the tail showed stays: the loaded range moves on to where the ledger is now.
    void this.followLedgerEnd();
  }

  private onLiveBatch(tail: Tail, updates: Update[]): void {
    // What the tail sees moves the connection's ledger end (the status bar and Connections follow).
    const newest = updates.reduce((max, u) => Math.max(max, u.offset ?? 0), 0);
    if (newest > 0) this.connection?.ledger?.advanceTo(newest);
    tail.window.push(updates);
    tail.nodes = undefined;
    if (this.treeView.visible && vscode.window.state.focused) tail.window.markSeen();
    this.render();
  }

  /** Coalesces bursts of batches into one repaint. */
  private render(): void {
    if (this.renderTimer) return;
    this.renderTimer = setTimeout(() => {
      this.renderTimer = undefined;
      const n = this.tail?.window.newCount ?? 0;
      this.treeView.badge = n > 0 ? { value: n, tooltip: `${n} new update${n === 1 ? '' : 's'}` } : undefined;
      this.changed.fire(undefined);
    }, 200);
  }

  private markSeen(): void {
    if (!this.tail) return;
    this.tail.window.markSeen();
    this.treeView.badge = undefined;
  }

  /** The live updates continue the loaded history at its newer end: above it when newest first, below it otherwise. */
  private tailNodes(connection: LedgerConnection): ViewNode[] {
    const t = this.tail!;
    const descending = this.filters.get(connection).descending ?? false;
    const live = descending ? t.window.newestFirst() : [...t.window.newestFirst()].reverse();
    t.nodes ??= uniqueNodes(live.map((u) => cachedRow(t.rows, u)), `${ROOT}/live`);
    const s = this.live.status;
    const header =
      s.state === 'stopped'
        ? errorNodes(`${ROOT}/live`, s.error, { connection, retry: { command: Commands.restartLiveTail, title: 'Retry' }, redact: (x) => this.redactor.redact(x) })
        : [
            new MessageNode(`${ROOT}/live/status`, s.state === 'reconnecting' ? 'Reconnecting…' : s.state === 'starting' ? 'Starting live tail…' : 'Following new updates', {
              description:
                s.state === 'reconnecting'
                  ? this.redactor.redact(`${s.error.message} · retry in ${Math.round(s.delayMs / 100) / 10} s`)
                  : `after offset ${this.live.fromOffset ?? 0} · ${t.window.totalReceived} received${t.window.totalReceived > t.window.size ? `, newest ${t.window.size} shown` : ''}${s.state === 'quiet' ? ` · no new updates for ${quietFor(s.silentMs)} (ledger end ${s.ledgerEnd}, checked)` : ''}`,
              icon: s.state === 'reconnecting' ? 'debug-disconnect' : 'pulse',
              command: { command: Commands.stopLiveTail, title: 'Stop Live Tail' },
              tooltip: `Live tail${t.source ? ` over ${this.redactor.redact(describeSource(t.source))}` : ''}: new updates appear ${descending ? 'at the top' : 'at the end'}, after those loaded. Click to stop.`,
            }),
          ];
    const history = this.pageNodes(connection);
    return descending ? [...header, ...t.nodes, ...history] : [...header, ...history, ...t.nodes];
  }

  private setLiveContext(live: boolean): void {
    void vscode.commands.executeCommand('setContext', 'cantonLedger.updates.live', live);
  }

  // ---------------------------------------------------------------- reveal

  /**
   * Selects the update with this update id (or offset) in the view, loading pages of the current range
   * (and re-reading the range when the update is newer than its end) until it is found. When it is
   * further away than a few pages, or not in the range, offers to move the range to it.
   */
  async reveal(target: RevealTarget): Promise<boolean> {
    if (target.connectionId && target.connectionId !== this.connections.profiles.active()?.id) {
      await this.connections.profiles.setActive(target.connectionId);
    }
    await vscode.commands.executeCommand(focusViewCommand(Views.updates));
    if (this.tail) {
      await this.getChildren();
      return this.select(this.find(this.tail.nodes ?? [], target));
    }
    await this.getChildren();
    const beyondRange = () => target.offset !== undefined && this.pager?.state.endInclusive !== undefined && target.offset > this.pager.state.endInclusive;
    if (beyondRange()) await this.refresh();
    for (let pages = 0; ; pages++) {
      const found = this.find(this.itemNodes, target);
      if (found) return this.select(found);
      const exhausted = !this.pager || this.pager.state.complete || this.error || this.passed(target);
      if (exhausted || pages >= REVEAL_PAGE_BUDGET) break;
      await this.loadMore();
    }
    const connection = this.connection;
    if (target.offset !== undefined && connection) {
      const offset = target.offset;
      const action = 'Show From Offset';
      void this.prompts
        .message('info', `The update at offset ${offset} is not among the ${this.itemNodes.length} updates loaded in the Updates view (${filterSummary(this.filters.get(connection))}).`, [action])
        .then((choice) => (choice ? this.showFrom({ ...target, offset }) : false));
    }
    return false;
  }

  /**
   * Moves the view's range so that it begins at the target update (kept in the filter, shown in the
   * description) and selects it; says so when the view's filter hides it.
   */
  async showFrom(target: RevealTarget & { offset: number }): Promise<boolean> {
    const connection = this.connection;
    if (!connection) return false;
    this.stopLiveTail();
    await this.filters.set(connection, rangeStartingAt(this.filters.get(connection), target.offset));
    await this.getChildren();
    const found = this.find(this.itemNodes, target);
    if (found) return this.select(found);
    if (!this.error) {
      void this.prompts
        .message('info', `The update at offset ${target.offset} is hidden by the Updates view's filter (${filterSummary(this.filters.get(connection))}).`, ['Change Filter'])
        .then((choice) => choice && vscode.commands.executeCommand(Commands.filterUpdates));
    }
    return false;
  }

  private async select(node: RowNode | undefined): Promise<boolean> {
    if (node) await this.treeView.reveal(node, { select: true, focus: true, expand: true });
    return Boolean(node);
  }

  private find(nodes: readonly ViewNode[], target: RevealTarget): RowNode | undefined {
    return nodes.find(
      (n): n is RowNode =>
        n.type === 'row' && n.row.kind !== 'update.checkpoint' && ((target.updateId !== undefined && n.row.updateId === target.updateId) || (target.updateId === undefined && n.row.offset === target.offset)),
    );
  }

  /** True when the loaded pages are already past the target's offset in the view's order. */
  private passed(target: RevealTarget): boolean {
    const last = this.itemNodes[this.itemNodes.length - 1]?.row.offset;
    if (target.offset === undefined || last === undefined) return false;
    return this.filters.get(this.connection!).descending ? last < target.offset : last > target.offset;
  }

  // ---------------------------------------------------------------- misc

  /** Every update node at the top level (for tests and reveal). */
  get loadedNodes(): readonly RowNode[] {
    return this.itemNodes;
  }

  get range(): { beginExclusive?: number; endInclusive?: number; complete: boolean } | undefined {
    const s = this.pager?.state;
    return s && { beginExclusive: s.beginExclusive, endInclusive: s.endInclusive, complete: s.complete };
  }

  protected updateDescription(): void {
    const filter = this.connection ? this.filters.get(this.connection) : undefined;
    const summary = filter ? filterSummary(filter) : undefined;
    const live = this.tail && `● live${this.tail.source ? ` (${this.tail.source.kind})` : ''}`;
    this.treeView.description = [live, summary].filter(Boolean).join(' · ') || undefined;
  }

  override dispose(): void {
    if (this.renderTimer) clearTimeout(this.renderTimer);
    super.dispose();
  }
}

function cachedRow(cache: WeakMap<Update, LedgerRow>, update: Update): LedgerRow {
  let row = cache.get(update);
  if (!row) cache.set(update, (row = updateRow(update)));
  return row;
}

/** "40 s", "3 min": how long a quiet stream has been silent. */
function quietFor(ms: number): string {
  return ms < 90_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}
