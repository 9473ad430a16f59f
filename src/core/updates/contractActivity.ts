/**
 * A contract's activity through 3.8's contract-id filter on updates: the transactions that touch it
 * (its create, every exercise on it, consuming or not, and its archive), in one request. Used where the
 * participant's own description has the filter (`LedgerClient.filtersUpdatesByContractId`); elsewhere
 * the callers read as before (the contract's events, then a transaction at a time).
 */
import type { LedgerClient } from '../api/client';
import type { CallOptions } from '../api/http';
import type { UpdateFilter } from '../api/updatesRequest';
import type { ExercisedEvent, Transaction } from '../models/updates';

/**
 * The transactions (ledger-effects shape, as these parties see them) that touch the contract, up to
 * `endInclusive` (default: the ledger end, read first).
 */
export async function transactionsTouchingContract(
  client: LedgerClient,
  contractId: string,
  filter: Pick<UpdateFilter, 'parties' | 'anyParty'>,
  o: CallOptions & { endInclusive?: number | Promise<number> } = {},
): Promise<Transaction[]> {
  const endInclusive = await (o.endInclusive ?? client.ledgerEnd(o));
  if (endInclusive <= 0) return [];
  const updates = await client.listUpdates({ beginExclusive: 0, endInclusive }, { filter: { ...filter, shape: 'ledger-effects' } }, { ...o, contractIds: [contractId] });
  return updates.filter((u): u is Transaction => u.kind === 'transaction');
}

/** The exercises on the contract in those transactions, oldest first, with the update each is in. */
export function exercisesOn(transactions: readonly Transaction[], contractId: string): { event: ExercisedEvent; updateId: string }[] {
  return [...transactions]
    .sort((a, b) => a.offset - b.offset)
    .flatMap((t) => t.events.filter((e): e is ExercisedEvent => e.kind === 'exercised' && e.contractId === contractId).map((event) => ({ event, updateId: t.updateId })));
}
