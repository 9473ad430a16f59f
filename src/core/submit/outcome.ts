/** What a submission did, in words and ids people act on: the summary line, the contracts it touched, finding it again. */
import type { LedgerClient } from '../api/client';
import { CantonApiError } from '../errors';
import { eventCounts, type Transaction } from '../models/updates';
import { shortId } from '../text';

const EVENT_KINDS = ['created', 'archived', 'exercised'] as const;

/** "2 created, 1 archived"; "no events" when the transaction format left none. */
export function eventCountsText(t: Transaction): string {
  const c = eventCounts(t);
  // Built as it goes, not filtered and joined: a script writes one per step.
  let text = '';
  for (const kind of EVENT_KINDS) if (c[kind] > 0) text += `${text ? ', ' : ''}${c[kind]} ${kind}`;
  return text || 'no events';
}

/**
 * "Transaction <updateId> at offset N: 2 created, 1 archived"; `short` names the id as `1220abcdef…89ab`
 * (for a message beside the result document, which has it in full; the CLI prints it whole).
 */
export function transactionSummary(t: Transaction, short = false): string {
  return `Transaction ${short ? shortId(t.updateId) : t.updateId} at offset ${t.offset}: ${eventCountsText(t)}`;
}

/**
 * Why a successful transaction can show no events: the participant emits only what the transaction
 * format lets through, and an ACS delta leaves out contracts created and archived in the same transaction.
 */
export function emptyTransactionExplanation(t: Transaction): string {
  return (
    `The command succeeded (transaction ${shortId(t.updateId)} at offset ${t.offset}), but no event passed the transaction format: ` +
    'its filter may leave out these parties or templates, or, with the ACS delta shape, contracts created and archived within the same transaction are not shown. ' +
    'Ask for TRANSACTION_SHAPE_LEDGER_EFFECTS or a wider filter in the file to see them.'
  );
}

/** The contracts a transaction created, archived or exercised on, each once, in event order. */
export function touchedContracts(t: Transaction): Array<{ contractId: string; templateId: string; kinds: string[] }> {
  const byId = new Map<string, { contractId: string; templateId: string; kinds: string[] }>();
  for (const e of t.events) {
    const entry = byId.get(e.contractId) ?? { contractId: e.contractId, templateId: e.templateId, kinds: [] };
    if (!entry.kinds.includes(e.kind)) entry.kinds.push(e.kind);
    byId.set(e.contractId, entry);
  }
  return [...byId.values()];
}

export interface CommandLookup {
  commandId: string;
  /** The submitting (actAs) parties: commandId is only shown to them. */
  parties: string[];
  /** Search after this offset: the ledger end read before the submission. */
  fromOffset: number;
  /** Up to this offset (default: the ledger end now). */
  toOffset?: number;
  signal?: AbortSignal;
}

export interface CommandLookupResult {
  transaction?: Transaction;
  /** The range searched, for "not found between A and B". */
  fromOffset: number;
  toOffset: number;
}

/**
 * Finds the transaction of a commandId among the updates after `fromOffset`, read as its submitting
 * parties in the ledger-effects shape (an ACS delta can hide a transaction whose contracts were
 * created and archived at once; ledger effects always carry the exercise or create).
 */
export async function findTransactionByCommandId(client: LedgerClient, q: CommandLookup): Promise<CommandLookupResult> {
  const call = { signal: q.signal };
  const toOffset = q.toOffset ?? (await client.ledgerEnd(call));
  const fromOffset = Math.max(0, Math.min(q.fromOffset, toOffset));
  if (toOffset <= fromOffset) return { fromOffset, toOffset };
  const selection = { filter: { parties: q.parties, shape: 'ledger-effects' as const, verbose: true } };
  for await (const page of client.walkUpdates({ selection, beginExclusive: fromOffset, endInclusive: toOffset }, call)) {
    const found = page.find((u): u is Transaction => u.kind === 'transaction' && u.commandId === q.commandId);
    if (found) return { transaction: found, fromOffset, toOffset };
  }
  return { fromOffset, toOffset };
}

/**
 * Where to look for the transaction of a DUPLICATE_COMMAND: Canton names the earlier completion's
 * offset in the error's context; without it, the whole ledger.
 */
export function duplicateLookupRange(err: CantonApiError): { fromOffset: number; toOffset?: number } {
  const offset = Number(err.context.completion_offset);
  return Number.isSafeInteger(offset) && offset > 0 ? { fromOffset: offset - 1, toOffset: offset } : { fromOffset: 0 };
}

/** True for Canton's "already submitted" answer. */
export function isDuplicateCommand(err: unknown): err is CantonApiError {
  return err instanceof CantonApiError && err.code === 'DUPLICATE_COMMAND';
}
