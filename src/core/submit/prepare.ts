/**
 * Previewing a commands file: the request `POST /v2/interactive-submission/prepare` takes for it,
 * and what to tell people when the participant refuses to prepare.
 */
import { AuthError, CantonApiError, RequestValidationError, UnsupportedOperationError } from '../errors';
import type * as wire from '../models/wire';
import { atLeast } from '../versions';

/**
 * The prepare request for a `*.commands.json` value (bare JsCommands or the full submit request).
 * Submission-only fields (deduplication, workflowId, submissionId, the transaction format) have no
 * place in a prepare. Before 3.4.12 the decoder insists on `userId`, `synchronizerId` and
 * `verboseHashing`: their empty defaults mean "the token's user", "any synchronizer", "not verbose".
 */
export function buildPrepareRequest(file: wire.JsCommands | wire.JsSubmitAndWaitForTransactionRequest, version: string): wire.JsPrepareSubmissionRequest {
  // A commands file holds the bare JsCommands or the whole submit request.
  const c: wire.JsCommands = Array.isArray(file.commands) ? (file as wire.JsCommands) : (file as wire.JsSubmitAndWaitForTransactionRequest).commands;
  if (!Array.isArray(c.commands) || c.commands.length === 0) throw new RequestValidationError('commands', 'At least one command is needed.');
  if (typeof c.commandId !== 'string' || c.commandId === '') throw new RequestValidationError('commandId', 'A commandId is needed.');
  if (!Array.isArray(c.actAs) || c.actAs.length === 0) throw new RequestValidationError('actAs', 'At least one actAs party is needed.');
  const strict = !atLeast(version, '3.4.12');
  const minLedgerTime: wire.MinLedgerTime | undefined = c.minLedgerTimeAbs
    ? { time: { MinLedgerTimeAbs: { value: c.minLedgerTimeAbs } } }
    : c.minLedgerTimeRel
      ? { time: { MinLedgerTimeRel: { value: c.minLedgerTimeRel } } }
      : undefined;
  const request: wire.JsPrepareSubmissionRequest = {
    commands: c.commands,
    commandId: c.commandId,
    actAs: c.actAs,
    ...(c.readAs?.length ? { readAs: c.readAs } : {}),
    ...(c.userId || strict ? { userId: c.userId ?? '' } : {}),
    ...(c.synchronizerId || strict ? { synchronizerId: c.synchronizerId ?? '' } : {}),
    ...(strict ? { verboseHashing: false } : {}),
    ...(minLedgerTime ? { minLedgerTime } : {}),
    ...(c.disclosedContracts?.length ? { disclosedContracts: c.disclosedContracts } : {}),
    ...(c.packageIdSelectionPreference?.length ? { packageIdSelectionPreference: c.packageIdSelectionPreference } : {}),
    ...(c.prefetchContractKeys?.length ? { prefetchContractKeys: c.prefetchContractKeys } : {}),
  };
  return request;
}

/** Why a preview failed and what to do, where we know more than the error's own hint. */
export interface PreviewAdvice {
  why: string;
  todo: string;
}

export function previewFailureAdvice(e: unknown, request: { commands: unknown[]; actAs: string[]; readAs?: string[] }): PreviewAdvice | undefined {
  if (e instanceof CantonApiError && e.code === 'FAILED_TO_PREPARE_TRANSACTION' && request.commands.length > 1) {
    return {
      why: `the participant prepares one command at a time (Canton 3.4 and later by default), and this file has ${request.commands.length}`,
      todo: 'preview each command alone (a file with one command each), or submit the file without a preview',
    };
  }
  if (e instanceof AuthError && e.failure === 'permission-denied') {
    const parties = [...new Set([...request.actAs, ...(request.readAs ?? [])])];
    return {
      why: `preparing needs ReadAs (or ActAs) rights for every actAs and readAs party (${parties.join(', ')}), and the user lacks one`,
      todo: 'grant the user CanReadAs for those parties, or use a token of a user that has them',
    };
  }
  if (e instanceof UnsupportedOperationError && e.operationName === 'prepare') {
    return { why: 'this participant has no interactive submission service (it came with Canton 3.3)', todo: 'submit the file without a preview, or upgrade the participant' };
  }
  return undefined;
}
