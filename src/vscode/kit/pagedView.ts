import vscode = require('vscode');
import type { LedgerConnection } from '../../core/ledger/connection';
import type { PagedList } from '../../core/paging';
import type { LedgerChange } from '../../core/ledger/state';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import type { ViewId } from './ids';
import { recordFailure, type Prompts } from './prompts';
import { loadMoreRow, Pageable } from './pageable';
import { childrenOf, connectionStateNodes, errorNodes, LedgerTreeView, type MessageNode, noActiveConnectionNodes, statusNodes, type ViewNode } from './rowsTree';

/** The pages a paged view shows, as the core's pagers (`OnDemandPages`) read them. */
export type { PagedList } from '../../core/paging';

/** What a paged view needs of the connections: the active one, what stands for a connection now, and their events. */
export interface PagedViewConnections {
  /** The active connection, connected or not. */
  active(): LedgerConnection | undefined;
  /** The connection that stands for `connection` now (itself, or the one a reconnect made for its profile). */
  current(connection: LedgerConnection): LedgerConnection | undefined;
  /** A connection that moved, or undefined when the profiles changed. */
  readonly onDidChange: vscode.Event<LedgerConnection | undefined>;
  readonly onDidChangeLedger: vscode.Event<{ connection: LedgerConnection; change: LedgerChange }>;
}

export interface PagedViewOptions {
  viewId: ViewId;
  /** The prefix of the view's node ids. */
  idPrefix: string;
  /** How the log names the view ("Updates view"). */
  name: string;
  /** The commands of the "Load more" row and of Retry before any page is loaded. */
  commands: { loadMore: string; refresh: string };
  /** Fires with the connection whose filter changed. */
  onDidChangeFilter: vscode.Event<LedgerConnection>;
  /** Shows the view's progress bar while a page loads. */
  prompts: Pick<Prompts, 'viewProgress'>;
}

/**
 * A view of the active connection's data in pages: the first page pins what every further page reads
 * (a range, a snapshot), "Load more" appends the next one, Refresh reads again keeping as many items
 * loaded, and another connection or filter starts over. A load that a reset overtook is dropped, so a
 * stale page never lands. Failures become rows with Retry (never a toast from the tree).
 *
 * A subclass says how to open the pager for a connection, turns loaded items into nodes, and decides
 * what a change of the connection, its ledger or the filter does (`connectionChanged`, `ledgerMoved`,
 * `filterChanged`).
 */
export abstract class PagedView<Pager extends PagedList, Connections extends PagedViewConnections = PagedViewConnections> extends LedgerTreeView {
  /** The connection the pages are of (the active one once the view has noticed it). */
  protected connection: LedgerConnection | undefined;
  /** The loaded items as nodes: the subclass fills them in `showLoaded`; a reset empties them. */
  protected itemNodes: ViewNode[] = [];
  /** The view's pages: the root case of the pageable piece every node can own. */
  private readonly pages: Pageable<Pager>;

  constructor(
    protected readonly options: PagedViewOptions,
    protected readonly connections: Connections,
    protected readonly logger: Logger,
    protected readonly redactor: Redactor,
  ) {
    super(options.viewId);
    this.pages = this._register(
      new Pageable<Pager>({
        name: options.name,
        progress: { viewId: options.viewId, prompts: options.prompts },
        open: (signal) => {
          // Called as a first page is asked for: by the tree or Refresh, for the connection the view shows.
          const connection = this.connection;
          if (!connection) throw new Error('No active connection');
          return this.openPager(connection, signal);
        },
        loaded: (pager, added) => this.showLoaded(pager, added),
        changed: () => {
          this.updateDescription();
          this.changed.fire(undefined);
        },
        record: (context, err) => recordFailure(logger, redactor, context, err),
      }),
    );
    this._registerAll(
      connections.onDidChange((moved) => {
        const shown = this.connection;
        if (!this.followActive(connections.active())) return;
        // Its own connection, or the one a reconnect made in its place: the subclass says what that changes.
        this.connectionChanged(moved && (moved === shown || moved === this.connection) ? this.connection : moved);
      }),
      options.onDidChangeFilter((c) => c === this.connection && this.filterChanged()),
      connections.onDidChangeLedger((e) => e.connection === this.connection && e.change.ledgerEnd && this.ledgerMoved()),
    );
  }

  /** The pager once the first page is loaded (a reset forgets it). */
  protected get pager(): Pager | undefined {
    return this.pages.pager;
  }

  /** The failure of the last read, until Retry or a reset. */
  protected get error(): unknown {
    return this.pages.error;
  }

  // ---------------------------------------------------------------- what a subclass says

  /** A new pager for the connection (it may read what the first page pins, e.g. the ledger end, with `signal`). */
  protected abstract openPager(connection: LedgerConnection, signal: AbortSignal): Promise<Pager>;

  /** Puts the pager's items into `itemNodes`: all of them (`added` undefined, the first load) or the `added` newest. */
  protected abstract showLoaded(pager: Pager, added?: number): void;

  /** The row shown when every page is loaded and holds nothing. */
  protected abstract emptyNode(connection: LedgerConnection, pager: Pager): MessageNode;

  /** The "Load more" row's description: what is loaded and what the pages read. */
  protected abstract moreDescription(pager: Pager): string;

  protected abstract updateDescription(): void;

  /**
   * A connection connected, disconnected or changed otherwise: the view's own (`this.connection`, also
   * when a reconnect made it anew), another one, or undefined when the profiles did.
   */
  protected connectionChanged(_moved: LedgerConnection | undefined): void {}

  /** The ledger end of the view's connection moved. */
  protected ledgerMoved(): void {}

  /** The view's connection has a new filter: pages from the first again. */
  protected filterChanged(): void {
    this.reset();
  }

  /** Called before the view moves to another connection (the old one is still `connection`). */
  protected leaveConnection(): void {}

  /** True while the view shows something besides the pages (a live tail) that a disconnect does not hide. */
  protected showsMoreThanPages(): boolean {
    return false;
  }

  // ---------------------------------------------------------------- tree data

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (node) return childrenOf(node);
    this.followActive(this.connections.active());
    const connection = this.connection;
    if (!connection) return noActiveConnectionNodes(this.options.idPrefix);
    // The views read only from connections the user connected; what is loaded stays until a reset.
    const instead = !this.pager && !this.showsMoreThanPages() && connectionStateNodes(this.options.idPrefix, connection, (x) => this.redactor.redact(x));
    if (instead) return instead;
    await this.pages.firstPage();
    return this.rootNodes(connection);
  }

  /**
   * Shows `active` from now on: the connection it shows made anew (a reconnect, a new token) is taken
   * in place, keeping what is loaded; another connection starts over. True when it shows the same
   * connection as before.
   */
  protected followActive(active: LedgerConnection | undefined): boolean {
    const shown = this.connection;
    if (active === shown) return true;
    if (active && shown && this.connections.current(shown) === active) {
      this.connection = active;
      return true;
    }
    this.switchConnection(active);
    return false;
  }

  /** The first page being read, if one is (a subclass that starts something after the pages waits for it). */
  protected get firstPageInFlight(): Promise<void> | undefined {
    return this.pages.firstInFlight;
  }

  /** The root's nodes; a subclass adds its own around `pageNodes`. */
  protected rootNodes(connection: LedgerConnection): ViewNode[] {
    return this.pageNodes(connection);
  }

  /** The loaded nodes, then what the pages' state adds: "nothing here", the error with Retry, or "Load more". */
  protected pageNodes(connection: LedgerConnection): ViewNode[] {
    const { idPrefix, commands } = this.options;
    const nodes = [...this.itemNodes];
    return nodes.concat(
      this.pages.rows<ViewNode>({
        shown: nodes.length,
        empty: (pager) => [this.emptyNode(connection, pager)],
        error: (err, retry) => errorNodes(idPrefix, err, { connection, retry: { command: retry === 'more' ? commands.loadMore : commands.refresh, title: 'Retry' }, redact: (s) => this.redactor.redact(s) }),
        more: (pager, loading) => statusNodes([loadMoreRow(idPrefix, { loading, description: this.moreDescription(pager), command: { command: commands.loadMore, title: 'Load More' } })]),
      }),
    );
  }

  // ---------------------------------------------------------------- paging

  /** "Load more": the next page into the same list. A click while a page is loading does nothing. */
  async loadMore(): Promise<void> {
    await this.pages.loadMore();
  }

  /** Reads again from the first page (what it pins moves on), keeping as many items loaded as before. */
  async refresh(): Promise<void> {
    if (this.followActive(this.connections.active())) this.reset(true);
    const connection = this.connection;
    if (!connection || connection.state.state !== 'connected') return;
    await this.pages.reread();
  }

  /**
   * Forgets the pages and the error, and drops any load still running; the next `getChildren` reads
   * the first page again. `keepLoaded`: as many items as are loaded now.
   */
  protected reset(keepLoaded = false): void {
    this.pages.reset(keepLoaded);
    this.itemNodes = [];
    this.updateDescription();
    this.changed.fire(undefined);
  }

  /** The signal of the loads of the current pages: a reset aborts it. */
  protected get loadSignal(): AbortSignal {
    return this.pages.signal;
  }

  /** Moves the view to another connection (or none): its own pages, from the first. */
  protected switchConnection(connection: LedgerConnection | undefined): void {
    this.leaveConnection();
    this.connection = connection;
    this.reset();
  }
}
