/**
 * Which transaction format a submission asks for: the file's own, else the ledger-effects shape (the
 * exercise with the events it caused, as a tree) for the active Updates filter's parties and templates,
 * else for the actAs and readAs parties. The Ledger API's own default (ACS delta) would show a
 * transfer as "1 archived" and hide the exercise.
 */
import { toSubmitRequest } from '../api/client';
import { buildTransactionFormat, type UpdateFilter } from '../api/updatesRequest';
import type * as wire from '../models/wire';

export type TransactionFormatSource = 'file' | 'active-filter' | 'default';

export interface PreparedSubmission {
  /** The exact body to send (and to resend on a retry, so that deduplication applies). */
  request: wire.JsSubmitAndWaitForTransactionRequest;
  formatSource: TransactionFormatSource;
}

/** The actAs and readAs parties, without repeats. */
export function submittingParties(commands: wire.JsCommands): string[] {
  return [...new Set([...(commands.actAs ?? []), ...(commands.readAs ?? [])])];
}

/** The format of a submission whose file sets none: ledger effects, verbose, for the submitting parties. */
export function defaultTransactionFormat(commands: wire.JsCommands): wire.TransactionFormat {
  return buildTransactionFormat({ parties: submittingParties(commands), shape: 'ledger-effects', verbose: true });
}

/** True when the format leaves out exercises and transient contracts (the ACS delta shape, or no shape: its default). */
export function leavesOutEffects(format: wire.TransactionFormat | undefined): boolean {
  return format?.transactionShape !== 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
}

/**
 * The request to send for a `*.commands.json` value (bare JsCommands or the full request). A filter
 * without parties applies to the submitting parties; results are verbose unless the filter says not,
 * and always in the ledger-effects shape (only the file chooses another).
 */
export function prepareSubmission(file: wire.JsCommands | wire.JsSubmitAndWaitForTransactionRequest, activeFilter?: UpdateFilter): PreparedSubmission {
  const request = toSubmitRequest(file);
  if (request.transactionFormat) return { request, formatSource: 'file' };
  if (activeFilter && (activeFilter.includeTransactions ?? true)) {
    const parties = activeFilter.anyParty || (activeFilter.parties?.length ?? 0) > 0 ? activeFilter.parties : submittingParties(request.commands);
    const transactionFormat = buildTransactionFormat({ ...activeFilter, parties, shape: 'ledger-effects', verbose: activeFilter.verbose ?? true });
    return { request: { ...request, transactionFormat }, formatSource: 'active-filter' };
  }
  return { request: { ...request, transactionFormat: defaultTransactionFormat(request.commands) }, formatSource: 'default' };
}
