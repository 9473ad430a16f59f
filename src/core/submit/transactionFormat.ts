/**
 * Which transaction format a submission asks for: the file's own, else the active Updates filter's,
 * else the Ledger API default (ACS delta, a wildcard for the actAs and readAs parties, verbose).
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

/** The Ledger API's default for submit-and-wait-for-transaction, written out so that results say what they show. */
export function defaultTransactionFormat(commands: wire.JsCommands): wire.TransactionFormat {
  return buildTransactionFormat({ parties: submittingParties(commands), shape: 'acs-delta', verbose: true });
}

/**
 * The request to send for a `*.commands.json` value (bare JsCommands or the full request). A filter
 * without parties applies to the submitting parties; results are verbose unless the filter says not.
 */
export function prepareSubmission(file: wire.JsCommands | wire.JsSubmitAndWaitForTransactionRequest, activeFilter?: UpdateFilter): PreparedSubmission {
  const request = toSubmitRequest(file);
  if (request.transactionFormat) return { request, formatSource: 'file' };
  if (activeFilter && (activeFilter.includeTransactions ?? true)) {
    const parties = activeFilter.anyParty || (activeFilter.parties?.length ?? 0) > 0 ? activeFilter.parties : submittingParties(request.commands);
    const transactionFormat = buildTransactionFormat({ ...activeFilter, parties, verbose: activeFilter.verbose ?? true });
    return { request: { ...request, transactionFormat }, formatSource: 'active-filter' };
  }
  return { request: { ...request, transactionFormat: defaultTransactionFormat(request.commands) }, formatSource: 'default' };
}
