import * as vscode from 'vscode';
import type { ConnectionProfile } from '../../core/connections';
import type { PagedList } from '../../core/paging';
import type { LedgerChange } from '../../core/ledger/state';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import type { ViewId } from '../commands/ids';
import type { ConnectionState } from '../connections/manager';
import { recordFailure, type Prompts } from '../prompts';
import { loadMoreRow, Pageable } from './pageable';
import { childrenOf, connectionStateNodes, errorNodes, LedgerTreeView, type MessageNode, noActiveConnectionNodes, statusNodes, type ViewNode } from './rowsTree';

/** The pages a paged view shows, as the core's pagers (`OnDemandPages`) read them. */
export type { PagedList } from '../../core/paging';

/** What a paged view needs of the connections: the active one, its state, and their events. */
export interface PagedViewConnections {
  readonly profiles: { active(): ConnectionProfile | undefined };
  state(id: string): ConnectionState;
  /** A connection id, or undefined when the list of profiles changed. */
  readonly onDidChange: vscode.Event<string | undefined>;
  readonly onDidChangeLedger: vscode.Event<{ connectionId: string; change: LedgerChange }>;
}

export interface PagedViewOptions {
  viewId: ViewId;
  /** The prefix of the view's node ids. */
  idPrefix: string;
  /** How the log names the view ("Updates view"). */
  name: string;
  /** The commands of the "Load more" row and of Retry before any page is loaded. */
  commands: { loadMore: string; refresh: string };
  /** Fires with the connection id whose filter changed. */
  onDidChangeFilter: vscode.Event<string>;
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
  protected profileId: string | undefined;
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
          // Called as a first page is asked for: by the tree or Refresh, for the active connection.
          const profile = this.connections.profiles.active();
          if (!profile) throw new Error('No active connection');
          return this.openPager(profile, signal);
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
      connections.onDidChange((id) => {
        const active = connections.profiles.active()?.id;
        if (active !== this.profileId) this.switchConnection(active);
        else this.connectionChanged(id);
      }),
      options.onDidChangeFilter((id) => id === this.profileId && this.filterChanged()),
      connections.onDidChangeLedger((e) => e.connectionId === this.profileId && e.change.ledgerEnd && this.ledgerMoved()),
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
  protected abstract openPager(profile: ConnectionProfile, signal: AbortSignal): Promise<Pager>;

  /** Puts the pager's items into `itemNodes`: all of them (`added` undefined, the first load) or the `added` newest. */
  protected abstract showLoaded(pager: Pager, added?: number): void;

  /** The row shown when every page is loaded and holds nothing. */
  protected abstract emptyNode(profile: ConnectionProfile, pager: Pager): MessageNode;

  /** The "Load more" row's description: what is loaded and what the pages read. */
  protected abstract moreDescription(pager: Pager): string;

  protected abstract updateDescription(): void;

  /** The active connection connected, disconnected or changed otherwise (`id` undefined: the list of profiles did). */
  protected connectionChanged(_id: string | undefined): void {}

  /** The ledger end of the view's connection moved. */
  protected ledgerMoved(): void {}

  /** The view's connection has a new filter: pages from the first again. */
  protected filterChanged(): void {
    this.reset();
  }

  /** Called before the view moves to another connection (the old one is still `profileId`). */
  protected leaveConnection(): void {}

  /** True while the view shows something besides the pages (a live tail) that a disconnect does not hide. */
  protected showsMoreThanPages(): boolean {
    return false;
  }

  // ---------------------------------------------------------------- tree data

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (node) return childrenOf(node);
    const profile = this.connections.profiles.active();
    if (profile?.id !== this.profileId) this.switchConnection(profile?.id);
    if (!profile) return noActiveConnectionNodes(this.options.idPrefix);
    // The views read only from connections the user connected; what is loaded stays until a reset.
    const instead = !this.pager && !this.showsMoreThanPages() && connectionStateNodes(this.options.idPrefix, profile, this.connections.state(profile.id), (x) => this.redactor.redact(x));
    if (instead) return instead;
    await this.pages.firstPage();
    return this.rootNodes(profile);
  }

  /** The first page being read, if one is (a subclass that starts something after the pages waits for it). */
  protected get firstPageInFlight(): Promise<void> | undefined {
    return this.pages.firstInFlight;
  }

  /** The root's nodes; a subclass adds its own around `pageNodes`. */
  protected rootNodes(profile: ConnectionProfile): ViewNode[] {
    return this.pageNodes(profile);
  }

  /** The loaded nodes, then what the pages' state adds: "nothing here", the error with Retry, or "Load more". */
  protected pageNodes(profile: ConnectionProfile): ViewNode[] {
    const { idPrefix, commands } = this.options;
    const nodes = [...this.itemNodes];
    return nodes.concat(
      this.pages.rows<ViewNode>({
        shown: nodes.length,
        empty: (pager) => [this.emptyNode(profile, pager)],
        error: (err, retry) => errorNodes(idPrefix, err, { profileId: profile.id, retry: { command: retry === 'more' ? commands.loadMore : commands.refresh, title: 'Retry' }, redact: (s) => this.redactor.redact(s) }),
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
    const profile = this.connections.profiles.active();
    if (profile?.id !== this.profileId) this.switchConnection(profile?.id);
    else this.reset(true);
    if (!profile || this.connections.state(profile.id).state !== 'connected') return;
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
  protected switchConnection(profileId: string | undefined): void {
    this.leaveConnection();
    this.profileId = profileId;
    this.reset();
  }
}
