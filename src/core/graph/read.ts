/** Reads one transaction for the graph: by update id or offset, in the ledger-effects shape, as the given parties. */
import type { LedgerClient } from '../api/client';
import type { CallOptions } from '../api/http';
import { AuthError, CantonApiError, RequestValidationError } from '../errors';
import type { Transaction } from '../models/updates';
import type { LineageReader } from './lineage';
import { buildTransactionGraph, type TransactionGraph } from './model';
import { transactionsTouchingContract } from '../updates/contractActivity';

export type TransactionKey = { updateId: string } | { offset: number };

export interface GraphReadAs {
  parties: readonly string[];
  anyParty: boolean;
}

/** `12` is an offset; anything else an update id (which is 68 hex digits: a long run of digits is an id too). */
export function transactionKeyOf(text: string): TransactionKey {
  const t = text.trim();
  if (t === '') throw new RequestValidationError('update', 'An update id or an offset is needed.');
  return /^\d{1,15}$/.test(t) ? { offset: Number(t) } : { updateId: t };
}

/** The update is there but is no transaction (a reassignment or a topology transaction): nothing to draw. */
export class NotATransactionError extends RequestValidationError {
  // Spelled out: a production build shortens class names.
  override readonly name = 'NotATransactionError';
  constructor(readonly updateKind: string) {
    super('update', `That update is a ${updateKind}, not a transaction: it has no graph.`);
  }
}

export async function readTransaction(client: LedgerClient, key: TransactionKey, readAs: GraphReadAs, o: CallOptions = {}): Promise<Transaction> {
  const update = await client.updateByKey(
    key,
    { filter: { parties: [...readAs.parties], anyParty: readAs.anyParty, shape: 'ledger-effects', includeReassignments: true } },
    o,
  );
  if (update.kind !== 'transaction') throw new NotATransactionError(update.kind);
  return update;
}

export async function readTransactionGraph(client: LedgerClient, key: TransactionKey, readAs: GraphReadAs, o: CallOptions = {}): Promise<TransactionGraph> {
  return buildTransactionGraph(await readTransaction(client, key, readAs, o));
}

/**
 * The lineage walk's reads through a client, as the given parties. Where the participant's own
 * description has the contract-id filter on updates (3.8), a hop is one read: the transactions that
 * touch the contract, up to the ledger end read once per walk. A participant that refuses that read
 * (pruned below the start, or a token not scoped to updates) gets the two reads per hop instead.
 */
export function lineageReaderOf(client: LedgerClient, readAs: GraphReadAs): LineageReader {
  const filter = { parties: [...readAs.parties], anyParty: readAs.anyParty };
  let end: Promise<number> | undefined;
  return {
    contractEvents: (contractId, o) => client.eventsByContractId(contractId, { filter }, o),
    transactionAt: (offset, o) => readTransaction(client, { offset }, readAs, o),
    ...(client.filtersUpdatesByContractId
      ? {
          transactionsTouching: async (contractId: string, o: CallOptions) => {
            try {
              end ??= client.ledgerEnd(o);
              return await transactionsTouchingContract(client, contractId, filter, { ...o, endInclusive: end });
            } catch (e) {
              // Refused (pruned below the start, or a token outside the updates area): the two reads instead.
              if (e instanceof CantonApiError || e instanceof AuthError) return undefined;
              throw e;
            }
          },
        }
      : {}),
  };
}
