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
}

/**
 * The pages of one pinned range, loaded on demand ("Load more"). The first page fixes the end of the
 * range, so loading more always terminates.
 */
export class UpdatesPager extends OnDemandPages<Update, UpdatesCursor> {
  private range: { beginExclusive: number; endInclusive: number } | undefined;

  constructor(private readonly client: LedgerClient, readonly query: UpdatesPageQuery) {
    super();
  }

  get state(): PagerState {
    return { updates: this.loaded, ...this.range, complete: this.complete };
  }

  /** The smaller page size in use once the participant named a cap below the one asked for. */
  get cappedPageSize(): number | undefined {
    const inUse = this.next?.pageSize;
    return inUse !== undefined && this.query.pageSize !== undefined && inUse < this.query.pageSize ? inUse : undefined;
  }

  protected async readPage(cursor: UpdatesCursor | undefined, o: CallOptions): Promise<ReadPage<Update, UpdatesCursor>> {
    const page = await this.client.pageUpdates(cursor ?? this.query, o);
    this.range = { beginExclusive: page.beginExclusive, endInclusive: page.endInclusive };
    return { items: page.updates, next: page.next };
  }
}
