import type { LedgerClient, UpdatesCursor, UpdatesPageQuery } from '../api/client';
import type { CallOptions } from '../api/http';
import type { Update } from '../models/updates';
import { OnDemandPages, type ReadPage } from '../paging';

export interface PagerState {
  updates: readonly Update[];
  /** The pinned range: its end is the ledger end when the first page was read. */
  beginExclusive?: number;
  endInclusive?: number;
  /** True once the last page of the range is loaded. */
  complete: boolean;
  /** Newer updates read after the range moved on, waiting for the pages before them (oldest first). */
  newerWaiting: number;
}

/**
 * The pages of one pinned range, loaded on demand ("Load more"). The first page fixes the end of the
 * range, so loading more always terminates; a load while one is running joins it instead of reading
 * the same page twice. `extendTo` moves the end on to a newer ledger end, keeping what is loaded.
 */
export class UpdatesPager extends OnDemandPages<Update, UpdatesCursor> {
  private range: { beginExclusive: number; endInclusive: number } | undefined;
  /** Updates after the first pinned end, oldest first, waiting for the pages before them (ascending order only). */
  private held: Update[] = [];
  private extending: Promise<unknown> = Promise.resolve();

  constructor(private readonly client: LedgerClient, readonly query: UpdatesPageQuery) {
    super();
  }

  get state(): PagerState {
    return { updates: this.loaded, ...this.range, complete: this.complete, newerWaiting: this.held.length };
  }

  /** The smaller page size in use once the participant named a cap below the one asked for. */
  get cappedPageSize(): number | undefined {
    const inUse = this.next?.pageSize;
    return inUse !== undefined && this.query.pageSize !== undefined && inUse < this.query.pageSize ? inUse : undefined;
  }

  protected async readPage(cursor: UpdatesCursor | undefined, o: CallOptions): Promise<ReadPage<Update, UpdatesCursor>> {
    const page = await this.client.pageUpdates(cursor ?? this.query, o);
    this.range = { beginExclusive: page.beginExclusive, endInclusive: Math.max(page.endInclusive, this.range?.endInclusive ?? 0) };
    if (page.next || this.held.length === 0) return { items: page.updates, next: page.next };
    // The last page of the first range: the newer updates read meanwhile follow it.
    const held = this.held;
    this.held = [];
    return { items: [...page.updates, ...held] };
  }

  /**
   * Moves the end of the range on to `endInclusive` (a newer ledger end), reading the updates in between
   * at once and keeping everything loaded. They go where the order puts them: first when newest first;
   * last when oldest first — once the pages before them are loaded, until then they wait. Resolves with
   * the updates added to `state.updates` now and where. Calls run one after the other.
   */
  extendTo(endInclusive: number, o: CallOptions = {}): Promise<{ added: Update[]; at: 'start' | 'end' }> {
    const run = this.extending.then(() => this.readNewer(endInclusive, o));
    this.extending = run.catch(() => undefined);
    return run;
  }

  private async readNewer(endInclusive: number, o: CallOptions): Promise<{ added: Update[]; at: 'start' | 'end' }> {
    const from = this.range?.endInclusive;
    const descending = this.query.descending ?? false;
    const at = descending ? 'start' : 'end';
    if (!this.started || from === undefined || endInclusive <= from) return { added: [], at };
    const newer: Update[] = [];
    const query = { selection: this.query.selection, beginExclusive: from, endInclusive, pageSize: this.query.pageSize };
    for await (const batch of this.client.walkUpdates(query, o)) newer.push(...batch);
    if (this.range && this.range.endInclusive >= endInclusive) return { added: [], at };
    this.range = { beginExclusive: this.range?.beginExclusive ?? 0, endInclusive };
    if (descending) {
      newer.reverse();
      this.loaded.unshift(...newer);
      return { added: newer, at };
    }
    if (this.next) {
      this.held.push(...newer);
      return { added: [], at };
    }
    this.loaded.push(...newer);
    return { added: newer, at };
  }
}
