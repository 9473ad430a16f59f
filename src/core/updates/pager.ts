import type { LedgerClient, UpdatesCursor, UpdatesPageQuery } from '../api/client';
import type { CallOptions } from '../api/http';
import type { Update } from '../models/updates';

export interface PagerState {
  updates: readonly Update[];
  /** The pinned range: its end is the ledger end when the first page was read. */
  beginExclusive?: number;
  endInclusive?: number;
  /** True once the last page of the range is loaded. */
  complete: boolean;
}

/**
 * The pages of one pinned range, loaded on demand ("Load more"). The first page fixes the end of the
 * range, so loading more always terminates; a load while one is running joins it instead of reading
 * the same page twice.
 */
export class UpdatesPager {
  private loaded: Update[] = [];
  private next: UpdatesCursor | undefined;
  private started = false;
  private range: { beginExclusive: number; endInclusive: number } | undefined;
  private pending: Promise<number> | undefined;

  constructor(private readonly client: LedgerClient, readonly query: UpdatesPageQuery) {}

  get state(): PagerState {
    return { updates: this.loaded, ...this.range, complete: this.started && !this.next };
  }

  /** The smaller page size in use once the participant named a cap below the one asked for. */
  get cappedPageSize(): number | undefined {
    const inUse = this.next?.pageSize;
    return inUse !== undefined && this.query.pageSize !== undefined && inUse < this.query.pageSize ? inUse : undefined;
  }

  get loading(): boolean {
    return this.pending !== undefined;
  }

  /** Loads the next page; resolves with the number of updates added (0 when complete). */
  loadMore(o: CallOptions = {}): Promise<number> {
    if (this.pending) return this.pending;
    if (this.started && !this.next) return Promise.resolve(0);
    this.pending = this.readPage(o).finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Loads pages until at least `count` updates are loaded or the range is complete. */
  async loadAtLeast(count: number, o: CallOptions = {}): Promise<void> {
    do {
      await this.loadMore(o);
    } while (this.loaded.length < count && this.next);
  }

  private async readPage(o: CallOptions): Promise<number> {
    const page = await this.client.pageUpdates(this.next ?? this.query, o);
    this.started = true;
    this.range = { beginExclusive: page.beginExclusive, endInclusive: page.endInclusive };
    this.next = page.next;
    this.loaded.push(...page.updates);
    return page.updates.length;
  }
}
