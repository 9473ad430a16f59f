import type { CallOptions } from './api/http';

/** One page as a pager reads it: what it holds and where the next one starts (absent on the last). */
export interface ReadPage<Item, Cursor> {
  items: readonly Item[];
  next?: Cursor;
}

/**
 * Pages loaded on demand ("Load more") into one list: a load while one is running joins it instead of
 * reading the same page twice, and nothing is read after the last page. Subclasses read a page from
 * the cursor (undefined for the first) and keep what the first page pins (a range, an offset).
 */
export abstract class OnDemandPages<Item, Cursor> {
  protected readonly loaded: Item[] = [];
  protected next: Cursor | undefined;
  protected started = false;
  private pending: Promise<number> | undefined;

  protected abstract readPage(cursor: Cursor | undefined, o: CallOptions): Promise<ReadPage<Item, Cursor>>;

  get loading(): boolean {
    return this.pending !== undefined;
  }

  /** How many items the pages loaded so far hold. */
  get loadedCount(): number {
    return this.loaded.length;
  }

  /** True once the last page is loaded. */
  get complete(): boolean {
    return this.started && !this.next;
  }

  /** Loads the next page; resolves with the number of items added (0 when complete). */
  loadMore(o: CallOptions = {}): Promise<number> {
    if (this.pending) return this.pending;
    if (this.complete) return Promise.resolve(0);
    this.pending = this.read(o).finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Loads pages until at least `count` items are loaded or the last page is. */
  async loadAtLeast(count: number, o: CallOptions = {}): Promise<void> {
    do {
      await this.loadMore(o);
    } while (this.loaded.length < count && this.next);
  }

  private async read(o: CallOptions): Promise<number> {
    const page = await this.readPage(this.next, o);
    this.started = true;
    this.next = page.next;
    this.loaded.push(...page.items);
    return page.items.length;
  }
}

/** A list read in pages, as the core's pagers (`OnDemandPages`) read them. */
export interface PagedList {
  readonly loading: boolean;
  readonly complete: boolean;
  readonly loadedCount: number;
  /** Resolves with the number of items added. */
  loadMore(o?: CallOptions): Promise<number>;
  loadAtLeast(count: number, o?: CallOptions): Promise<void>;
}

/** What a paged list's owner is told, and how it opens the pages. */
export interface PagedListHooks<Pager extends PagedList> {
  /** A new pager (it may read what the first page pins, e.g. the ledger end, with `signal`). */
  open(signal: AbortSignal): Promise<Pager>;
  /** Wraps each page read (the editor shows its progress); default: the read itself. */
  reading?<T>(read: () => Promise<T>): PromiseLike<T>;
  /** Pages landed: all of them (`added` undefined, after a first load) or the `added` newest. */
  loaded(pager: Pager, added: number | undefined): void;
  /** A read failed (not one a reset overtook): `first` while no page is loaded, `more` after. */
  failed(error: unknown, during: 'first' | 'more'): void;
  /** Something the owner shows changed (a read started or ended). */
  changed(): void;
}

/** What follows the loaded items: nothing, "nothing here", the failure with what Retry does, or "Load more". */
export type PagedListTail =
  | { kind: 'none' }
  | { kind: 'empty' }
  | { kind: 'error'; error: unknown; retry: 'first' | 'more' }
  | { kind: 'more'; loading: boolean };

/**
 * The state of one list read in pages, wherever it shows (a view's root, a row's children): the first
 * page read once however often it is asked for, each further page on demand, a failure kept until a
 * retry (never a read per repaint), and a reset that drops every read in progress, so that a page a
 * reset overtook never lands. A re-read can keep as many items as were loaded.
 */
export class PagedListState<Pager extends PagedList> {
  private current: Pager | undefined;
  private failure: unknown;
  /** How many items the next first read loads (pages up to it), so that a re-read keeps what was loaded. */
  private keepCount = 0;
  private first: Promise<void> | undefined;
  private abort = new AbortController();

  constructor(private readonly hooks: PagedListHooks<Pager>) {}

  /** The pager once its first page is loaded. */
  get pager(): Pager | undefined {
    return this.current;
  }

  /** The failure of the last read, until a retry or a reset. */
  get error(): unknown {
    return this.failure;
  }

  /** The first read in progress, if one is. */
  get firstInFlight(): Promise<void> | undefined {
    return this.first;
  }

  /** The signal of the current reads: a reset or dispose aborts it. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Neither a page nor a failure yet: the next ask reads the first page. */
  get unread(): boolean {
    return !this.current && this.failure === undefined;
  }

  /** Reads the first page unless it is loaded, failed or being read (then joins that read). */
  ensureFirst(): Promise<void> {
    if (!this.unread) return this.first ?? Promise.resolve();
    this.first ??= this.readFirst();
    return this.first;
  }

  /** Reads from the first page now (after a reset: as many items as were loaded, if it kept them). */
  reread(): Promise<void> {
    this.first = this.readFirst();
    this.hooks.changed();
    return this.first;
  }

  /** The next page into the same list; a call while a page is loading, or after the last, does nothing. */
  async loadMore(): Promise<void> {
    const pager = this.current;
    if (!pager || pager.loading || pager.complete) return;
    const signal = this.abort.signal;
    const loading = pager.loadMore({ signal });
    this.hooks.changed();
    let added = 0;
    try {
      added = await this.read(() => loading);
      this.failure = undefined;
    } catch (e) {
      if (signal.aborted) return;
      this.failure = e;
      this.hooks.failed(e, 'more');
    }
    if (pager !== this.current) return;
    this.hooks.loaded(pager, added);
    this.hooks.changed();
  }

  /** What Retry does after a failure: the page that failed, or the first again. */
  retry(): Promise<void> {
    if (this.current) return this.loadMore();
    // As many items as the failed read was to load.
    this.reset(true);
    return this.reread();
  }

  /**
   * Forgets the pages and the failure and aborts every read in progress (its result is dropped);
   * `keepLoaded`: the next first read loads as many items as are loaded now.
   */
  reset(keepLoaded = false): void {
    this.keepCount = keepLoaded ? (this.current?.loadedCount ?? this.keepCount) : 0;
    this.abort.abort();
    this.abort = new AbortController();
    this.current = undefined;
    this.failure = undefined;
    this.first = undefined;
  }

  /** What follows the items shown (`shown`: how many rows the owner shows, by default the items loaded). */
  tail(shown = this.current?.loadedCount ?? 0): PagedListTail {
    const pager = this.current;
    if (this.failure !== undefined) return { kind: 'error', error: this.failure, retry: pager ? 'more' : 'first' };
    if (!pager) return { kind: 'none' };
    if (!pager.complete) return { kind: 'more', loading: pager.loading };
    return shown === 0 ? { kind: 'empty' } : { kind: 'none' };
  }

  /** Aborts every read in progress; nothing lands after this. */
  dispose(): void {
    this.abort.abort();
  }

  private async readFirst(): Promise<void> {
    const signal = this.abort.signal;
    const keepCount = this.keepCount;
    try {
      const pager = await this.hooks.open(signal);
      await this.read(async () => void (keepCount > 0 ? await pager.loadAtLeast(keepCount, { signal }) : await pager.loadMore({ signal })));
      if (signal.aborted) return;
      this.current = pager;
      this.failure = undefined;
      this.hooks.loaded(pager, undefined);
    } catch (e) {
      if (signal.aborted) return;
      this.failure = e;
      this.hooks.failed(e, 'first');
    } finally {
      // An aborted read was replaced by a reset: the newer read's promise is not this one's to clear.
      if (!signal.aborted) this.first = undefined;
    }
    this.hooks.changed();
  }

  private read<T>(read: () => Promise<T>): PromiseLike<T> {
    return this.hooks.reading ? this.hooks.reading(read) : read();
  }
}
