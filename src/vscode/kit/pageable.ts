import vscode = require('vscode');
import { PagedListState, type PagedList } from '../../core/paging';
import type { Prompts } from './prompts';
import type { StatusRow } from './errorRows';

export interface PageableOptions<Pager extends PagedList> {
  /** How the log names the list ("Updates view", "PQS: the contracts of Iou"); a failed Load more adds ", loading more". */
  name: string;
  /** A new pager (it may read what the first page pins, e.g. the ledger end, with `signal`). */
  open(signal: AbortSignal): Promise<Pager>;
  /** Pages landed: all of them (`added` undefined, after a first read) or the `added` newest. */
  loaded?(pager: Pager, added: number | undefined): void;
  /** Repaints what shows the list (a read started or ended). */
  changed(): void;
  /** The view whose progress bar runs while a page is read, through the prompts port. */
  progress?: { viewId: string; prompts: Pick<Prompts, 'viewProgress'> };
  /** Logs a failure the list's rows show (the error reporter's `record`: a cancel logs nothing). */
  record(context: string, err: unknown): void;
}

/** How the owner shows what follows the loaded items, in its own kind of node. */
export interface PageableRows<Pager extends PagedList, Node> {
  /** How many rows the owner shows for the items (default: the items loaded); none at the end: `empty`. */
  shown?: number;
  empty?(pager: Pager): Node[];
  /** The failure with Retry: `first` reads the first page again, `more` the page that failed. */
  error(err: unknown, retry: 'first' | 'more'): Node[];
  more(pager: Pager, loading: boolean): Node[];
}

/**
 * One list read in pages under any tree node (after GitLens's pageable nodes), or at a view's root
 * (`PagedView`): the first page on the first expand, "Load more" for the next, a failure as rows with
 * Retry (never a toast from a tree), a reset that cancels every read in progress and drops what it
 * would have shown, and Cancel on dispose. The decisions are the core's `PagedListState`; this adds
 * the editor's part: the view's progress bar, the log, the rows.
 */
export class Pageable<Pager extends PagedList> implements vscode.Disposable {
  private readonly state: PagedListState<Pager>;

  constructor(o: PageableOptions<Pager>) {
    const progress = o.progress;
    this.state = new PagedListState<Pager>({
      open: (signal) => o.open(signal),
      reading: progress ? (read) => progress.prompts.viewProgress(progress.viewId, read) : undefined,
      loaded: (pager, added) => o.loaded?.(pager, added),
      failed: (err, during) => o.record(during === 'first' ? o.name : `${o.name}, loading more`, err),
      changed: () => o.changed(),
    });
  }

  /** The pager once its first page is loaded. */
  get pager(): Pager | undefined {
    return this.state.pager;
  }

  /** The failure of the last read, until a retry or a reset. */
  get error(): unknown {
    return this.state.error;
  }

  get firstInFlight(): Promise<void> | undefined {
    return this.state.firstInFlight;
  }

  /** The signal of the current reads: a reset or dispose aborts it. */
  get signal(): AbortSignal {
    return this.state.signal;
  }

  /** What the node's children need: the first page, read once (a failure stays until Retry). */
  firstPage(): Promise<void> {
    return this.state.ensureFirst();
  }

  /** "Load more": the next page; a click while one is loading, or after the last, does nothing. */
  loadMore(): Promise<void> {
    return this.state.loadMore();
  }

  /** Retry after a failure: the page that failed, or the first. */
  retry(): Promise<void> {
    return this.state.retry();
  }

  /** Reads from the first page again, as many items as are loaded now. */
  refresh(): Promise<void> {
    this.state.reset(true);
    return this.state.reread();
  }

  /** Reads from the first page now (after a reset). */
  reread(): Promise<void> {
    return this.state.reread();
  }

  /**
   * Forgets the pages and the failure and cancels every read in progress; the next `firstPage` reads
   * again (`keepLoaded`: as many items as are loaded now). The owner repaints.
   */
  reset(keepLoaded = false): void {
    this.state.reset(keepLoaded);
  }

  /** What follows the loaded items (nothing, "nothing here", the failure, "Load more"), as the owner's nodes. */
  rows<Node>(render: PageableRows<Pager, Node>): Node[] {
    const tail = this.state.tail(render.shown);
    const pager = this.state.pager;
    switch (tail.kind) {
      case 'none':
        return [];
      case 'empty':
        return pager && render.empty ? render.empty(pager) : [];
      case 'error':
        return render.error(tail.error, tail.retry);
      case 'more':
        return pager ? render.more(pager, tail.loading) : [];
    }
  }

  dispose(): void {
    this.state.dispose();
  }
}

/** The "Load more" row of a ledger view's list ("Loading…" while a page is read). */
export function loadMoreRow(idPrefix: string, o: { loading: boolean; description?: string; command: vscode.Command }): StatusRow {
  return {
    id: `${idPrefix}/more`,
    label: o.loading ? 'Loading…' : 'Load more',
    description: o.description,
    icon: o.loading ? 'loading~spin' : 'ellipsis',
    command: o.command,
    contextValue: 'cantonLedger:loadMore',
  };
}
