/**
 * One submission, for every front-end: a commands file's value → the request (submit or prepare) →
 * a typed outcome, and finding a submission again. The editor and the CLI both send what this module
 * builds, so the same file gives the same request (and the same transaction) wherever it is sent.
 */
import type { LedgerClient } from '../api/client';
import { buildTransactionFormat } from '../api/updatesRequest';
import { CancelledError, CantonApiError, isOutcomeUnknown, LedgerError, RequestValidationError } from '../errors';
import type { LedgerWrite } from '../ledger/state';
import type { Transaction } from '../models/updates';
import type * as wire from '../models/wire';
import { duplicateLookupRange, findTransactionByCommandId, isDuplicateCommand, type CommandLookupResult } from './outcome';

/** What a `*.commands.json` file holds: the bare JsCommands, or the whole submit request. */
export type CommandsFileValue = wire.JsCommands | wire.JsSubmitAndWaitForTransactionRequest;

/**
 * The JsCommands of a commands file's value, checked for what every request needs: a command, a
 * commandId (it makes retries safe) and an actAs party.
 */
export function commandsOf(file: CommandsFileValue): wire.JsCommands {
  const c: wire.JsCommands = isFullRequest(file) ? file.commands : file;
  if (!c || typeof c !== 'object') throw new RequestValidationError('commands', 'The file holds no JsCommands.');
  if (!Array.isArray(c.commands) || c.commands.length === 0) throw new RequestValidationError('commands', 'At least one command is needed.');
  if (typeof c.commandId !== 'string' || c.commandId === '') throw new RequestValidationError('commandId', 'A commandId is needed (it makes retries safe).');
  if (!Array.isArray(c.actAs) || c.actAs.length === 0) throw new RequestValidationError('actAs', 'At least one actAs party is needed.');
  return c;
}

function isFullRequest(file: CommandsFileValue): file is wire.JsSubmitAndWaitForTransactionRequest {
  return !!file && typeof file === 'object' && !!file.commands && !Array.isArray(file.commands);
}

/** The actAs and readAs parties, without repeats. */
export function submittingParties(commands: wire.JsCommands): string[] {
  const parties = commands.actAs ? commands.actAs.slice() : [];
  // Most submissions act as one party and read as none: no set to build.
  if (!commands.readAs?.length && parties.length <= 1) return parties;
  return [...new Set(parties.concat(commands.readAs ?? []))];
}

/**
 * The format of a submission whose file sets none: ledger effects, verbose, for the submitting parties.
 * The same parties get the same (frozen) object: a script's steps submit as a few parties, many times.
 */
export function defaultTransactionFormat(commands: wire.JsCommands): wire.TransactionFormat {
  const parties = submittingParties(commands);
  const key = parties.join('\n');
  let format = defaultFormats.get(key);
  if (!format) {
    if (defaultFormats.size >= 64) defaultFormats.clear();
    format = deepFreeze(buildTransactionFormat({ parties, shape: 'ledger-effects', verbose: true }));
    defaultFormats.set(key, format);
  }
  return format;
}

const defaultFormats = new Map<string, wire.TransactionFormat>();

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** True when the format leaves out exercises and transient contracts (the ACS delta shape, or no shape: its default). */
export function leavesOutEffects(format: wire.TransactionFormat | undefined): boolean {
  return format?.transactionShape !== 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
}

export type TransactionFormatSource = 'file' | 'default';

export interface Submission {
  /** The exact body to send (and to resend on a retry, so that deduplication applies). */
  request: wire.JsSubmitAndWaitForTransactionRequest;
  formatSource: TransactionFormatSource;
}

/**
 * The submit request for a commands file's value. The transaction format is the file's own, else
 * the ledger-effects tree, verbose, for the actAs and readAs parties: the exercise with the events
 * it caused, which the Ledger API's own default (the ACS delta) would hide.
 */
export function submissionOf(file: CommandsFileValue): Submission {
  const commands = commandsOf(file);
  const request: wire.JsSubmitAndWaitForTransactionRequest = isFullRequest(file) ? file : { commands };
  if (request.transactionFormat) return { request, formatSource: 'file' };
  // Not `{ ...request, transactionFormat }`: V8's slow path for a spread followed by a new property (a script sends one per step).
  return { request: Object.assign({}, request, { transactionFormat: defaultTransactionFormat(commands) }), formatSource: 'default' };
}

/**
 * The prepare request (`POST /v2/interactive-submission/prepare`) for a commands file's value.
 * Submission-only fields (deduplication, workflowId, submissionId, the transaction format) have no
 * place in a prepare; the client adds what an older version's decoder insists on.
 */
export function prepareRequestOf(file: CommandsFileValue): wire.JsPrepareSubmissionRequest {
  const c = commandsOf(file);
  const minLedgerTime: wire.MinLedgerTime | undefined = c.minLedgerTimeAbs
    ? { time: { MinLedgerTimeAbs: { value: c.minLedgerTimeAbs } } }
    : c.minLedgerTimeRel
      ? { time: { MinLedgerTimeRel: { value: c.minLedgerTimeRel } } }
      : undefined;
  return {
    commands: c.commands,
    commandId: c.commandId,
    actAs: c.actAs,
    ...(c.readAs?.length ? { readAs: c.readAs } : {}),
    ...(c.userId ? { userId: c.userId } : {}),
    ...(c.synchronizerId ? { synchronizerId: c.synchronizerId } : {}),
    ...(minLedgerTime ? { minLedgerTime } : {}),
    ...(c.disclosedContracts?.length ? { disclosedContracts: c.disclosedContracts } : {}),
    ...(c.packageIdSelectionPreference?.length ? { packageIdSelectionPreference: c.packageIdSelectionPreference } : {}),
    ...(c.prefetchContractKeys?.length ? { prefetchContractKeys: c.prefetchContractKeys } : {}),
  };
}

/** What a retry of a submission whose outcome is unknown needs: the same request, and where to look it up. */
export interface PinnedRetry {
  request: wire.JsSubmitAndWaitForTransactionRequest;
  /** The ledger end read before the first attempt: the submission's transaction, if any, is after it. */
  lookUpFrom: number;
}

/** Fields of every outcome where the request was sent. */
interface Sent {
  /** The ledger end read before the first attempt. */
  lookUpFrom: number;
  /** What the write did to the ledger, for the connection's ledger state (any answer: the ledger may have moved). */
  write: LedgerWrite;
}

export type SubmissionOutcome =
  /** Nothing was sent: cancelled first, or the ledger end could not be read. */
  | { kind: 'not-sent'; error: LedgerError }
  | (Sent & { kind: 'succeeded'; transaction: Transaction; response: wire.JsSubmitAndWaitForTransactionResponse })
  /** No definite answer came back: it may or may not have executed. Retry with `retry.request`, never a new commandId. */
  | (Sent & { kind: 'unknown'; error: LedgerError; retry: PinnedRetry })
  /**
   * DUPLICATE_COMMAND: the commandId executed before, once. `lookUp` is the range searched for its
   * transaction (`toOffset` absent when the read failed before it knew the ledger end); `transaction`
   * is absent when it is not visible there or the read failed (`lookUpError`).
   */
  | (Sent & {
      kind: 'already-executed';
      error: CantonApiError;
      /** The offset Canton names for the earlier completion, when it names one. */
      completionOffset?: number;
      lookUp: { fromOffset: number; toOffset?: number };
      transaction?: Transaction;
      lookUpError?: LedgerError;
    })
  | (Sent & { kind: 'failed'; error: LedgerError });

export interface SubmitOptions {
  signal?: AbortSignal;
  /** A retry: the first attempt's look-up start (then not read again). */
  retryOf?: { lookUpFrom: number };
  /**
   * Reads the ledger end before sending (default: the client's); the connection's state may do it for
   * the views, or know it already (then a number, not a promise: a script sends many, one after another).
   */
  ledgerEnd?: (signal?: AbortSignal) => number | Promise<number>;
}

/**
 * Sends a submission and classifies the answer. Never re-sends by itself: an unknown outcome comes
 * back with what its retry needs. A DUPLICATE_COMMAND is looked up (at the completion offset Canton
 * names; without it, after a retried first attempt, else the whole ledger) and returned as already executed.
 */
export async function submit(client: LedgerClient, request: wire.JsSubmitAndWaitForTransactionRequest, o: SubmitOptions = {}): Promise<SubmissionOutcome> {
  const signal = o.signal;
  let lookUpFrom: number;
  if (o.retryOf) lookUpFrom = o.retryOf.lookUpFrom;
  else {
    // Read before sending: a look-up searches from here. A failure here means nothing was sent.
    try {
      const end = o.ledgerEnd ? o.ledgerEnd(signal) : client.ledgerEnd({ signal });
      lookUpFrom = typeof end === 'number' ? end : await end;
    } catch (e) {
      if (e instanceof LedgerError) return { kind: 'not-sent', error: e };
      throw e;
    }
  }
  let result;
  try {
    result = await client.submitAndWaitForTransaction(request, { signal });
  } catch (e) {
    if (!(e instanceof LedgerError)) throw e;
    if (e instanceof CancelledError && !e.requestSent) return { kind: 'not-sent', error: e };
    const sent = { lookUpFrom, write: {} };
    if (isOutcomeUnknown(e)) return { ...sent, kind: 'unknown', error: e, retry: { request, lookUpFrom } };
    if (isDuplicateCommand(e)) return alreadyExecuted(client, request, e, sent, o);
    return { ...sent, kind: 'failed', error: e };
  }
  return { kind: 'succeeded', transaction: result.transaction, response: result.raw, lookUpFrom, write: { offset: result.transaction.offset } };
}

async function alreadyExecuted(
  client: LedgerClient,
  request: wire.JsSubmitAndWaitForTransactionRequest,
  error: CantonApiError,
  sent: Sent,
  o: SubmitOptions,
): Promise<SubmissionOutcome> {
  const range = duplicateLookupRange(error);
  // Without the completion offset: after an unknown first attempt its transaction is past that
  // attempt's ledger end; otherwise it can be anywhere.
  const lookUp = range.toOffset !== undefined ? range : { fromOffset: o.retryOf ? sent.lookUpFrom : 0 };
  const outcome = { ...sent, kind: 'already-executed' as const, error, completionOffset: range.toOffset, lookUp };
  try {
    const found = await lookUpSubmission(client, request, { ...lookUp, signal: o.signal });
    return { ...outcome, lookUp: { fromOffset: found.fromOffset, toOffset: found.toOffset }, transaction: found.transaction };
  } catch (e) {
    if (!(e instanceof LedgerError)) throw e;
    return { ...outcome, lookUpError: e };
  }
}

/**
 * Searches the updates in (fromOffset, toOffset] (default: up to the ledger end now) for the
 * request's commandId, as its actAs parties (only they see the commandId).
 */
export function lookUpSubmission(
  client: LedgerClient,
  request: wire.JsSubmitAndWaitForTransactionRequest,
  range: { fromOffset: number; toOffset?: number; signal?: AbortSignal },
): Promise<CommandLookupResult> {
  return findTransactionByCommandId(client, { commandId: request.commands.commandId, parties: request.commands.actAs, ...range });
}
