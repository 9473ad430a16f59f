import * as vscode from 'vscode';
import type { ConnectionProfile } from '../../core/connections';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import type { Update } from '../../core/models/updates';
import { UpdatesPager } from '../../core/updates/pager';
import { updateRow, type LedgerRow } from '../../core/updates/rows';
import { describeSource, followUpdates, startingPosition, type FollowPosition, type FollowSource, type FollowStatus } from '../../core/updates/tail';
import { defaultViewFilter, filterSummary, pageQueryOf, rangeStartingAt, selectionOf, type UpdatesViewFilter } from '../../core/updates/viewFilter';
import { UpdateWindow } from '../../core/updates/window';
import type { ConnectionManager } from '../connections/manager';
import { childrenOf, connectionStateNodes, errorNodes, LedgerTreeView, MessageNode, noActiveConnectionNodes, type RowNode, uniqueNodes, type ViewNode } from './rowsTree';

const FILTERS_KEY = 'cantonLedger.updatesFilters';
/** How many pages Reveal loads looking for an update before offering to move the range to it. */
const REVEAL_PAGE_BUDGET = 40;
const ROOT = 'updates';

/** The Updates view's filter per connection, kept in global state (connections are global too). */
export class UpdatesFilterStore {
  private readonly changed = new vscode.EventEmitter<string>();
  readonly onDidChange = this.changed.event;
  constructor(private readonly state: vscode.Memento, private readonly connections: ConnectionManager) {}

  /** The stored filter, or the default for the user's rights (any party for admins). */
  get(profileId: string): UpdatesViewFilter {
    const stored = this.explicit(profileId);
    if (stored) return stored;
    const s = this.connections.state(profileId);
    return defaultViewFilter(s.state === 'connected' ? s.info.rights : undefined);
  }

  /** The filter the user set for this connection, if any (no default). */
  explicit(profileId: string): UpdatesViewFilter | undefined {
    return this.state.get<Record<string, UpdatesViewFilter>>(FILTERS_KEY, {})[profileId];
  }

  async set(profileId: string, filter: UpdatesViewFilter | undefined): Promise<void> {
    const all = { ...this.state.get<Record<string, UpdatesViewFilter>>(FILTERS_KEY, {}) };
    if (filter) all[profileId] = filter;
    else delete all[profileId];
    await this.state.update(FILTERS_KEY, all);
    this.changed.fire(profileId);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

interface Tail {
  controller: AbortController;
  window: UpdateWindow;
  fromOffset: number;
  /** Where following stands once it has begun: a Retry after a failure resumes from here. */
  position?: FollowPosition;
  status: { state: 'starting' } | FollowStatus | { state: 'stopped'; error: unknown };
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
export class UpdatesView extends LedgerTreeView {

  private profileId: string | undefined;
  private pager: UpdatesPager | undefined;
  /** The pager's updates as nodes (built once per update: ids and parents stay stable for reveal). */
  private pageNodes: RowNode[] = [];
  private pageKeys = new Map<string, number>();
  private pageError: unknown;
  private firstLoad: Promise<void> | undefined;
  private loadAbort = new AbortController();
  private tail: Tail | undefined;
  private renderTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connections: ConnectionManager,
    readonly filters: UpdatesFilterStore,
    private readonly logger: Logger,
    private readonly redactor: Redactor,
    private readonly liveWindowSize: () => number,
  ) {
    super('cantonLedger.updates');
    this.subscriptions.push(
      this.treeView.onDidChangeVisibility((e) => e.visible && this.markSeen()),
      this.treeView.onDidChangeSelection(() => this.markSeen()),
      connections.onDidChange((id) => {
        if (connections.profiles.active()?.id !== this.profileId) this.switchConnection(connections.profiles.active()?.id);
        else if (id === this.profileId && !this.pager && !this.tail) this.changed.fire(undefined);
      }),
      filters.onDidChange((id) => id === this.profileId && this.filterChanged()),
      // The ledger moved (a write of ours, a refresh): the loaded range follows (the live tail brings its own).
      connections.onDidChangeLedger((e) => e.connectionId === this.profileId && e.change.ledgerEnd && !this.tail && void this.followLedgerEnd()),
    );
    this.updateDescription();
  }

  // ---------------------------------------------------------------- tree data

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (node) return childrenOf(node);
    const profile = this.connections.profiles.active();
    if (profile?.id !== this.profileId) this.switchConnection(profile?.id);
    if (!profile) return noActiveConnectionNodes(ROOT);
    const notConnected = !this.pager && !this.tail && connectionStateNodes(ROOT, profile, this.connections.state(profile.id), (x) => this.redactor.redact(x));
    if (notConnected) return notConnected;
    if (!this.pager && !this.pageError) {
      this.firstLoad ??= this.loadFirstPage(profile);
      await this.firstLoad;
    }
    return this.tail ? this.tailNodes(profile) : this.pageNodesWithState(profile);
  }

  // ---------------------------------------------------------------- paging

  private async loadFirstPage(profile: ConnectionProfile, keepCount = 0): Promise<void> {
    const signal = this.loadAbort.signal;
    try {
      const filter = this.filters.get(profile.id);
      const query = pageQueryOf(filter);
      // The range ends at the connection's ledger end (the one the status bar shows), unless the filter pins one.
      // While a live tail runs, up to where it started: the history and the live updates do not overlap.
      const ledger = this.connections.ledger(profile.id);
      const tailStart = this.tail?.position ? this.tail.fromOffset : undefined;
      if (query.endInclusive === undefined) query.endInclusive = tailStart ?? (ledger ? await ledger.refreshLedgerEnd(signal) : undefined);
      const pager = new UpdatesPager(this.connections.client(profile), query);
      await vscode.window.withProgress({ location: { viewId: 'cantonLedger.updates' } }, async () => {
        await (keepCount > 0 ? pager.loadAtLeast(keepCount, { signal }) : pager.loadMore({ signal }));
      });
      if (signal.aborted) return;
      this.pager = pager;
      this.pageKeys = new Map();
      this.pageNodes = uniqueNodes(pager.state.updates.map(updateRow), ROOT, undefined, this.pageKeys);
      this.pageError = undefined;
      // The ledger may have moved while the first page was read.
      if (!this.tail) void this.followLedgerEnd();
    } catch (e) {
      if (signal.aborted) return;
      this.pageError = e;
      this.logger.warn(`Updates view: ${this.redactor.redactError(e)}`);
    } finally {
      this.firstLoad = undefined;
    }
  }

  /** "Load more": the next page into the same list. A click while a page is loading does nothing. */
  async loadMore(): Promise<void> {
    const pager = this.pager;
    if (!pager || pager.loading || pager.state.complete) return;
    const signal = this.loadAbort.signal;
    const loading = pager.loadMore({ signal });
    this.changed.fire(undefined);
    let added = 0;
    try {
      added = await vscode.window.withProgress({ location: { viewId: 'cantonLedger.updates' } }, () => loading);
      this.pageError = undefined;
    } catch (e) {
      if (signal.aborted) return;
      this.pageError = e;
      this.logger.warn(`Updates view, loading more: ${this.redactor.redactError(e)}`);
    }
    if (pager !== this.pager) return;
    // A page (and the newer updates held back for it) lands at the end of the list.
    const updates = pager.state.updates;
    this.pageNodes.push(...uniqueNodes(updates.slice(updates.length - added).map(updateRow), ROOT, undefined, this.pageKeys));
    this.changed.fire(undefined);
  }

  /**
   * Moves the loaded range on to the connection's ledger end (after a write, say), keeping what is
   * loaded: the new updates appear where the order puts them (first when newest first, last when
   * oldest first). A range the filter pins does not move.
   */
  private async followLedgerEnd(): Promise<void> {
    const pager = this.pager;
    const end = this.profileId ? this.connections.ledger(this.profileId)?.ledgerEnd : undefined;
    if (!pager || end === undefined || this.filters.get(this.profileId!).endInclusive !== undefined) return;
    if (pager.state.endInclusive === undefined || end <= pager.state.endInclusive) return;
    const signal = this.loadAbort.signal;
    try {
      const { added, at } = await pager.extendTo(end, { signal });
      if (pager !== this.pager || added.length === 0) {
        this.changed.fire(undefined);
        return;
      }
      const nodes = uniqueNodes(added.map(updateRow), ROOT, undefined, this.pageKeys);
      if (at === 'start') this.pageNodes.unshift(...nodes);
      else this.pageNodes.push(...nodes);
      this.changed.fire(undefined);
    } catch (e) {
      if (signal.aborted) return;
      this.logger.warn(`Updates view, following the ledger end: ${this.redactor.redactError(e)}`);
    }
  }

  private pageNodesWithState(profile: ConnectionProfile): ViewNode[] {
    const state = this.pager?.state;
    const nodes: ViewNode[] = [...this.pageNodes];
    if (state && state.complete && nodes.length === 0 && !this.pageError) {
      nodes.push(new MessageNode(`${ROOT}/empty`, 'No updates in this range', {
        description: `offsets ${state.beginExclusive ?? 0}–${state.endInclusive ?? 0} · ${filterSummary(this.filters.get(profile.id))}`,
        icon: 'info',
        command: { command: 'cantonLedger.updates.filter', title: 'Change Filter' },
      }));
    }
    if (this.pageError) {
      nodes.push(...errorNodes(ROOT, this.pageError, { profileId: profile.id, retry: { command: this.pager ? 'cantonLedger.updates.loadMore' : 'cantonLedger.updates.refresh', title: 'Retry' }, redact: (s) => this.redactor.redact(s) }));
    } else if (state && !state.complete) {
      const loading = this.pager!.loading;
      nodes.push(new MessageNode(`${ROOT}/more`, loading ? 'Loading…' : 'Load more', {
        description: [
          `${state.updates.length} loaded`,
          `range ends at offset ${state.endInclusive}`,
          state.newerWaiting > 0 ? `${state.newerWaiting} newer after these` : undefined,
          this.pager!.cappedPageSize ? `pages of ${this.pager!.cappedPageSize} (the participant's cap)` : undefined,
        ].filter(Boolean).join(' · '),
        icon: loading ? 'loading~spin' : 'ellipsis',
        command: { command: 'cantonLedger.updates.loadMore', title: 'Load More' },
        contextValue: 'cantonLedger:loadMore',
      }));
    }
    return nodes;
  }

  /** Re-reads the range (its end moves to the current ledger end), keeping as many updates loaded as before. */
  async refresh(): Promise<void> {
    const keep = this.pager?.state.updates.length ?? 0;
    const profile = this.connections.profiles.active();
    if (profile?.id !== this.profileId) this.switchConnection(profile?.id);
    else this.reset();
    if (!profile) return;
    if (this.tail) {
      this.changed.fire(undefined);
      return;
    }
    this.firstLoad = this.loadFirstPage(profile, keep);
    this.changed.fire(undefined);
    await this.firstLoad;
    this.changed.fire(undefined);
  }

  /** Forgets pages and errors (the live tail goes on). */
  private reset(): void {
    this.loadAbort.abort();
    this.loadAbort = new AbortController();
    this.pager = undefined;
    this.pageNodes = [];
    this.pageError = undefined;
    this.firstLoad = undefined;
    this.updateDescription();
    this.changed.fire(undefined);
  }

  /** A new filter: new pages, and a live tail follows with the new filter from now on. */
  private filterChanged(): void {
    this.reset();
    if (!this.tail) return;
    this.stopLiveTail();
    void this.startLiveTail();
  }

  /** Another connection became active: its own filter, pages and no live tail of the old one. */
  private switchConnection(profileId: string | undefined): void {
    this.stopLiveTail();
    this.profileId = profileId;
    this.reset();
  }

  // ---------------------------------------------------------------- live tail

  get liveTail(): { active: boolean; received: number; newCount: number; size: number; status?: string; source?: FollowSource } {
    const t = this.tail;
    return { active: Boolean(t), received: t?.window.totalReceived ?? 0, newCount: t?.window.newCount ?? 0, size: t?.window.size ?? 0, status: t?.status.state, source: t?.source };
  }

  async startLiveTail(): Promise<void> {
    const profile = this.connections.profiles.active();
    if (!profile || this.tail) return;
    if (profile.id !== this.profileId) this.switchConnection(profile.id);
    const tail: Tail = { controller: new AbortController(), window: new UpdateWindow(this.liveWindowSize()), fromOffset: 0, status: { state: 'starting' }, rows: new WeakMap() };
    this.tail = tail;
    this.setLiveContext(true);
    this.updateDescription();
    this.changed.fire(undefined);
    try {
      // Right after what is loaded, so that the live updates continue the history without a gap;
      // else from the connection's ledger end.
      // A range the filter ends in the past is not continued: the tail starts at the ledger end then.
      const ledger = this.connections.ledger(profile.id);
      const loadedEnd = this.filters.get(profile.id).endInclusive === undefined ? this.pager?.state.endInclusive : undefined;
      tail.fromOffset =
        loadedEnd ?? (ledger ? await ledger.refreshLedgerEnd(tail.controller.signal) : await this.connections.client(profile).ledgerEnd({ signal: tail.controller.signal }));
    } catch (e) {
      this.tailStopped(tail, e);
      return;
    }
    tail.position = startingPosition(tail.fromOffset);
    await this.follow(tail, profile, tail.position);
  }

  /**
   * Retry of a live tail that stopped on a failure (an expired token, say): it goes on from where it
   * stopped, into the same window, so nothing written meanwhile is missed. Otherwise a fresh start.
   */
  async retryLiveTail(): Promise<void> {
    const tail = this.tail;
    const profile = this.connections.profiles.active();
    if (!tail?.position || tail.status.state !== 'stopped' || !profile || profile.id !== this.profileId) {
      this.stopLiveTail();
      return this.startLiveTail();
    }
    tail.controller = new AbortController();
    await this.follow(tail, profile, tail.position);
  }

  private async follow(tail: Tail, profile: ConnectionProfile, from: FollowPosition): Promise<void> {
    tail.status = { state: 'following' };
    this.render();
    try {
      await followUpdates(this.connections.client(profile), {
        selection: selectionOf({ ...this.filters.get(profile.id), descending: false }),
        from,
        signal: tail.controller.signal,
        onBatch: (updates) => this.onLiveBatch(tail, updates),
        onSource: (source) => {
          tail.source = source;
          this.logger.info(`Live tail reads over ${this.redactor.redact(describeSource(source))}`);
          this.updateDescription();
          this.render();
        },
        onStatus: (s) => {
          tail.status = s;
          if (s.state === 'reconnecting') this.logger.info(`Live tail: ${this.redactor.redactError(s.error)}; resuming in ${s.delayMs} ms`);
          else if (s.state === 'following') this.logger.info('Live tail: following again');
          this.render();
        },
      });
    } catch (e) {
      this.tailStopped(tail, e);
    }
  }

  /** A failure ended following (not a stop): shown as items with Retry, which resumes. */
  private tailStopped(tail: Tail, e: unknown): void {
    if (tail.controller.signal.aborted) return;
    tail.status = { state: 'stopped', error: e };
    this.logger.warn(`Live tail stopped: ${this.redactor.redactError(e)}`);
    this.render();
  }

  stopLiveTail(): void {
    if (!this.tail) return;
    this.tail.controller.abort();
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
    if (this.profileId && newest > 0) this.connections.ledger(this.profileId)?.advanceTo(newest);
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
  private tailNodes(profile: ConnectionProfile): ViewNode[] {
    const t = this.tail!;
    const descending = this.filters.get(profile.id).descending ?? false;
    const live = descending ? t.window.newestFirst() : [...t.window.newestFirst()].reverse();
    t.nodes ??= uniqueNodes(live.map((u) => cachedRow(t.rows, u)), `${ROOT}/live`);
    const s = t.status;
    const header =
      s.state === 'stopped'
        ? errorNodes(`${ROOT}/live`, s.error, { profileId: this.profileId, retry: { command: 'cantonLedger.updates.restartLiveTail', title: 'Retry' }, redact: (x) => this.redactor.redact(x) })
        : [
            new MessageNode(`${ROOT}/live/status`, s.state === 'reconnecting' ? 'Reconnecting…' : s.state === 'starting' ? 'Starting live tail…' : 'Following new updates', {
              description:
                s.state === 'reconnecting'
                  ? this.redactor.redact(`${s.error.message} · retry in ${Math.round(s.delayMs / 100) / 10} s`)
                  : `after offset ${t.fromOffset} · ${t.window.totalReceived} received${t.window.totalReceived > t.window.size ? `, newest ${t.window.size} shown` : ''}${s.state === 'quiet' ? ` · no new updates for ${quietFor(s.silentMs)} (ledger end ${s.ledgerEnd}, checked)` : ''}`,
              icon: s.state === 'reconnecting' ? 'debug-disconnect' : 'pulse',
              command: { command: 'cantonLedger.updates.stopLiveTail', title: 'Stop Live Tail' },
              tooltip: `Live tail${t.source ? ` over ${this.redactor.redact(describeSource(t.source))}` : ''}: new updates appear ${descending ? 'at the top' : 'at the end'}, after those loaded. Click to stop.`,
            }),
          ];
    const history = this.pageNodesWithState(profile);
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
    await vscode.commands.executeCommand('cantonLedger.updates.focus');
    if (this.tail) {
      await this.getChildren();
      return this.select(this.find(this.tail.nodes ?? [], target));
    }
    await this.getChildren();
    const beyondRange = () => target.offset !== undefined && this.pager?.state.endInclusive !== undefined && target.offset > this.pager.state.endInclusive;
    if (beyondRange()) await this.refresh();
    for (let pages = 0; ; pages++) {
      const found = this.find(this.pageNodes, target);
      if (found) return this.select(found);
      const exhausted = !this.pager || this.pager.state.complete || this.pageError || this.passed(target);
      if (exhausted || pages >= REVEAL_PAGE_BUDGET) break;
      await this.loadMore();
    }
    if (target.offset !== undefined && this.profileId) {
      const offset = target.offset;
      const action = `Show From Offset ${offset}`;
      void vscode.window
        .showInformationMessage(`The update at offset ${offset} is not among the ${this.pageNodes.length} updates loaded in the Updates view (${filterSummary(this.filters.get(this.profileId))}).`, action)
        .then((choice) => (choice ? this.showFrom({ ...target, offset }) : false));
    }
    return false;
  }

  /**
   * Moves the view's range so that it begins at the target update (kept in the filter, shown in the
   * description) and selects it; says so when the view's filter hides it.
   */
  async showFrom(target: RevealTarget & { offset: number }): Promise<boolean> {
    const profileId = this.profileId;
    if (!profileId) return false;
    this.stopLiveTail();
    await this.filters.set(profileId, rangeStartingAt(this.filters.get(profileId), target.offset));
    await this.getChildren();
    const found = this.find(this.pageNodes, target);
    if (found) return this.select(found);
    if (!this.pageError) {
      void vscode.window
        .showInformationMessage(`The update at offset ${target.offset} is hidden by the Updates view's filter (${filterSummary(this.filters.get(profileId))}).`, 'Change Filter')
        .then((choice) => choice && vscode.commands.executeCommand('cantonLedger.updates.filter'));
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
    const last = this.pageNodes[this.pageNodes.length - 1]?.row.offset;
    if (target.offset === undefined || last === undefined) return false;
    return this.filters.get(this.profileId!).descending ? last < target.offset : last > target.offset;
  }

  // ---------------------------------------------------------------- misc

  /** Every update node at the top level (for tests and reveal). */
  get loadedNodes(): readonly RowNode[] {
    return this.pageNodes;
  }

  get range(): { beginExclusive?: number; endInclusive?: number; complete: boolean } | undefined {
    const s = this.pager?.state;
    return s && { beginExclusive: s.beginExclusive, endInclusive: s.endInclusive, complete: s.complete };
  }

  private updateDescription(): void {
    const filter = this.profileId ? this.filters.get(this.profileId) : undefined;
    const summary = filter ? filterSummary(filter) : undefined;
    const live = this.tail && `● live${this.tail.source ? ` (${this.tail.source.kind})` : ''}`;
    this.treeView.description = [live, summary].filter(Boolean).join(' · ') || undefined;
  }

  override dispose(): void {
    this.loadAbort.abort();
    this.tail?.controller.abort();
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
