/**
 * Completions (the outcome of a submitted command) as `completion-by-hash` answers them (3.6+), and the
 * transaction hash those look-ups take.
 */
import { RequestValidationError } from '../errors';
import type * as wire from './wire';

export interface Completion {
  commandId: string;
  userId: string;
  actAs: string[];
  offset: number;
  /** Set when the command succeeded. */
  updateId?: string;
  submissionId?: string;
  /** The gRPC status of a failed command (code 0 or absent: succeeded). */
  status?: { code: number; message: string };
  synchronizerId?: string;
  recordTime?: string;
  transactionHash?: string;
  paidTrafficCost?: number;
  raw: wire.Completion;
}

/** What the participant keeps of one transaction hash's submissions: at most one accepted, the latest rejected. */
export interface CompletionsByHash {
  accepted?: Completion;
  /** Newest first, as the participant orders them (it may cut the list). */
  rejected: Completion[];
}

export function decodeCompletion(c: wire.Completion): Completion {
  const text = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? undefined : v);
  return {
    commandId: c.commandId,
    userId: c.userId,
    actAs: Array.isArray(c.actAs) ? c.actAs : [],
    offset: c.offset,
    updateId: text(c.updateId),
    submissionId: text(c.submissionId),
    status: c.status ? { code: c.status.code, message: c.status.message } : undefined,
    synchronizerId: text(c.synchronizerTime?.synchronizerId),
    recordTime: text(c.synchronizerTime?.recordTime),
    transactionHash: text(c.transactionHash),
    paidTrafficCost: c.paidTrafficCost ?? undefined,
    raw: c,
  };
}

export function decodeCompletionsByHash(r: wire.GetCompletionByHashResponse): CompletionsByHash {
  return {
    accepted: r.acceptedCompletion ? decodeCompletion(r.acceptedCompletion) : undefined,
    rejected: (r.lastRejectedCompletions ?? []).map(decodeCompletion),
  };
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A transaction hash as the look-ups by hash take it: proto bytes, so base64 in JSON. Given as hex (as
 * transactions show `externalTransactionHash`) it is converted; base64 (as prepare answers
 * `preparedTransactionHash`) is sent as it is. Hex is tried first: hex digits are base64 letters too,
 * but the base64 of a 32- or 34-byte hash ends in `=` padding, so it never reads as hex.
 */
export function transactionHashForRequest(hash: string): string {
  const h = hash.trim();
  if (HEX.test(h)) return Buffer.from(h, 'hex').toString('base64');
  if (h !== '' && BASE64.test(h)) return h;
  throw new RequestValidationError('transactionHash', h === '' ? 'A transaction hash is needed.' : `"${hash}" is neither hex nor base64: give the transaction hash as the participant shows it.`);
}

/** One element of a completions list: a command's completion, or an offset checkpoint (a position only). */
export type CompletionElement =
  | { kind: 'completion'; offset: number; completion: Completion }
  | { kind: 'checkpoint'; offset: number; synchronizerTimes: wire.SynchronizerTime[] };

/** An element of `/v2/commands/completions` or `/command-completions`; undefined for one that says nothing (`Empty`). */
export function decodeCompletionElement(e: wire.CompletionStreamResponse): CompletionElement | undefined {
  const r = e.completionResponse;
  if (r?.Completion) {
    const completion = decodeCompletion(r.Completion.value);
    if (typeof completion.offset !== 'number') throw new TypeError('a completion without an offset');
    return { kind: 'completion', offset: completion.offset, completion };
  }
  if (r?.OffsetCheckpoint) return { kind: 'checkpoint', offset: r.OffsetCheckpoint.value.offset, synchronizerTimes: r.OffsetCheckpoint.value.synchronizerTimes ?? [] };
  return undefined;
}

/** Who the completions of a read are for: the user's own for its parties, or (where the release has it) every user's. */
export interface CompletionsSelection {
  /** Parties among whose actAs the command must have one; empty only with `allUsers` (then: any party, a CanReadAsAnyParty right is needed). */
  parties: string[];
  /** The user whose commands are read (`/completions`); ignored with `allUsers`. */
  userId?: string;
  /** Every user's commands (`/command-completions`, 3.5.7+). */
  allUsers?: boolean;
}
