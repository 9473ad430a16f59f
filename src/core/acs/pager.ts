import type { ActiveContract, ActiveContractsCursor, ActiveContractsQuery, LedgerClient } from '../api/client';
import type { CallOptions } from '../api/http';
import { PageTokenRefusedError } from '../errors';
import { OnDemandPages, type ReadPage } from '../paging';
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
 * fixes the offset (the ledger end when none is asked for), so every further page reads the same snapshot.
 */
export class ActiveContractsPager extends OnDemandPages<ActiveContract, ActiveContractsCursor> {
  private offset: number | undefined;
  private restarted: string | undefined;

  constructor(private readonly client: Pick<LedgerClient, 'pageActiveContracts'>, readonly query: ActiveContractsQuery) {
    super();
  }

  get state(): ActiveContractsSnapshot {
    return { contracts: this.loaded, activeAtOffset: this.offset, complete: this.complete, ...(this.restarted ? { restarted: this.restarted } : {}) };
  }

  /** A loaded contract by id (for the context actions of its row). */
  contract(contractId: string): ActiveContract | undefined {
    return this.loaded.find((c) => c.event.contractId === contractId);
  }

  /**
   * A page token the participant refuses (after an upgrade, 3.7 refuses the tokens of earlier
   * versions) cannot be followed: the snapshot is read again from its first page, at the ledger end
   * unless an offset was asked for, and `restarted` says so in one line.
   */
  protected async readPage(cursor: ActiveContractsCursor | undefined, o: CallOptions): Promise<ReadPage<ActiveContract, ActiveContractsCursor>> {
    let page;
    try {
      page = await this.client.pageActiveContracts(cursor ?? this.query, o);
    } catch (e) {
      if (!(cursor && e instanceof PageTokenRefusedError)) throw e;
      page = await this.client.pageActiveContracts(this.query, o);
      const dropped = this.loaded.splice(0).length;
      const where = this.offset === page.activeAtOffset ? `at offset ${page.activeAtOffset}` : `at offset ${page.activeAtOffset} (was ${this.offset})`;
      this.restarted = `The participant refused the page token (${e.code}; after an upgrade it refuses the tokens of an earlier version): read again from the first page ${where}, the ${dropped} contracts loaded before dropped.`;
    }
    this.offset = page.activeAtOffset;
    return { items: page.contracts, next: page.next };
  }
}
