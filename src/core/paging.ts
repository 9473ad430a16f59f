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
