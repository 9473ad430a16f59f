/** The submissions history: plain records, newest first, bounded (kept in the workspace's state by the editor). */
import type { CantonFailure } from '../cantonFailure';
import type * as wire from '../models/wire';

export type SubmissionOutcome = 'succeeded' | 'failed' | 'unknown' | 'duplicate';

export interface SubmissionRecord {
  /** Unique per record. */
  id: string;
  /** The file's URI (string form) and its base name. */
  fileUri: string;
  fileName: string;
  /** ISO time of the last attempt. */
  time: string;
  connectionId: string;
  connectionName: string;
  commandId: string;
  outcome: SubmissionOutcome;
  /** The Canton error code (or error kind) of a failure. */
  errorCode?: string;
  /** What the participant answered, for a Canton rejection: the Failed Commands view explains it and marks its cause. */
  failure?: CantonFailure;
  /** How often this exact request was sent (retries with the same commandId count here). */
  attempts: number;
  /** The exact body sent: a retry resends it unchanged, so deduplication applies. */
  request: wire.JsSubmitAndWaitForTransactionRequest;
  /**
   * Where "Look it up" starts: the ledger end read before the first attempt, or just before the
   * completion a DUPLICATE_COMMAND names. Unset until the first attempt.
   */
  lookUpFrom?: number;
  updateId?: string;
  offset?: number;
  /** The transaction as the participant returned it (dropped when too big to keep). */
  transaction?: wire.JsTransaction;
}

export const HISTORY_LIMIT = 50;
/** Results bigger than this (as JSON) are not kept; "Open Result" then says so. */
export const KEPT_RESULT_CHARS = 100_000;

/** Adds a record, or replaces the one with the same id, newest first; at most `limit` are kept. */
export function recordSubmission(history: readonly SubmissionRecord[], record: SubmissionRecord, limit = HISTORY_LIMIT): SubmissionRecord[] {
  const kept = record.transaction && JSON.stringify(record.transaction).length > KEPT_RESULT_CHARS ? { ...record, transaction: undefined } : record;
  return [kept, ...history.filter((r) => r.id !== record.id)].slice(0, limit);
}

/** "succeeded", "failed (CONTRACT_NOT_FOUND)", "outcome unknown", "already executed". */
export function outcomeLabel(r: Pick<SubmissionRecord, 'outcome' | 'errorCode'>): string {
  switch (r.outcome) {
    case 'succeeded':
      return 'succeeded';
    case 'failed':
      return r.errorCode ? `failed (${r.errorCode})` : 'failed';
    case 'unknown':
      return 'outcome unknown';
    case 'duplicate':
      return 'already executed';
  }
}
