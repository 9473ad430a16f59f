import type { ActiveContract, ActiveContractsCursor, ActiveContractsQuery, LedgerClient } from '../api/client';
import type { CallOptions } from '../api/http';
import { checkViewFilter, DEFAULT_PAGE_SIZE, type UpdatesViewFilter } from '../updates/viewFilter';
import type { ActiveContractsSnapshot } from './rows';

/**
 * What the Active Contracts view reads, from the filter it shares with the Updates view: the same
 * parties and templates/interfaces, verbose and page size. The filter's offset range, order and
 * update kinds do not apply to a snapshot; `activeAtOffset` undefined means the ledger end.
 */
export function activeContractsQueryOf(f: UpdatesViewFilter, activeAtOffset?: number): ActiveContractsQuery {
  checkViewFilter({ anyParty: f.anyParty, parties: f.parties, pageSize: f.pageSize });
  return {
    filter: {
      parties: f.anyParty ? undefined : f.parties,
      anyParty: f.anyParty,
      templateIds: f.templateIds,
      interfaceIds: f.interfaceIds,
      verbose: f.verbose ?? true,
      includeInterfaceViews: f.includeInterfaceViews,
    },
    activeAtOffset,
    pageSize: f.pageSize ?? DEFAULT_PAGE_SIZE,
  };
}

/**
 * The pages of one snapshot of the active contract set, loaded on demand ("Load more"). The first page
 * fixes the offset (the ledger end when none is asked for), so every further page reads the same
 * snapshot; a load while one is running joins it instead of reading the same page twice.
 */
export class ActiveContractsPager {
  private readonly loaded: ActiveContract[] = [];
  private next: ActiveContractsCursor | undefined;
  private started = false;
  private offset: number | undefined;
  private pending: Promise<number> | undefined;

  constructor(private readonly client: Pick<LedgerClient, 'pageActiveContracts'>, readonly query: ActiveContractsQuery) {}

  get state(): ActiveContractsSnapshot {
    return { contracts: this.loaded, activeAtOffset: this.offset, complete: this.started && !this.next };
  }

  get loading(): boolean {
    return this.pending !== undefined;
  }

  /** Loads the next page; resolves with the number of contracts added (0 when complete). */
  loadMore(o: CallOptions = {}): Promise<number> {
    if (this.pending) return this.pending;
    if (this.started && !this.next) return Promise.resolve(0);
    this.pending = this.readPage(o).finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Loads pages until at least `count` contracts are loaded or the snapshot is complete. */
  async loadAtLeast(count: number, o: CallOptions = {}): Promise<void> {
    do {
      await this.loadMore(o);
    } while (this.loaded.length < count && this.next);
  }

  /** A loaded contract by id (for the context actions of its row). */
  contract(contractId: string): ActiveContract | undefined {
    return this.loaded.find((c) => c.event.contractId === contractId);
  }

  private async readPage(o: CallOptions): Promise<number> {
    const page = await this.client.pageActiveContracts(this.next ?? this.query, o);
    this.started = true;
    this.offset = page.activeAtOffset;
    this.next = page.next;
    this.loaded.push(...page.contracts);
    return page.contracts.length;
  }
}
