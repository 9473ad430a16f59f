/**
 * The look-ups by transaction hash of 3.6: `POST /v2/updates/update-by-hash` and
 * `POST /v2/commands/completion-by-hash`. A transaction has a hash only when an external party signed
 * it (`InteractiveSubmissionService.ExecuteSubmission`); the demo executes no prepared transaction, so
 * every well-formed look-up is answered as Canton answers a hash it does not know: UPDATE_NOT_FOUND and
 * COMPLETION_NOT_FOUND (404), after the same checks of the request and of the caller's rights.
 */
import { decodeGetCompletionByHashRequest, decodeGetUpdateByHashRequest } from '../decode';
import { LedgerApiError, missingField } from '../errors';
import { parseUpdateFormat } from '../filters';
import { route, type Route } from '../server';
import { ensureCanReadUpdates, filterRules, type Services } from './services';

export function byHashRoutes(s: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/v2/updates/update-by-hash',
      body: 'GetUpdateByHashRequest',
      decode: decodeGetUpdateByHashRequest,
      handle: ({ body, caller }) => {
        ensureCanReadUpdates(caller, body.updateFormat);
        parseUpdateFormat(body.updateFormat, filterRules(s));
        if (!body.transactionHash) throw missingField('transaction_hash');
        throw new LedgerApiError('UPDATE_NOT_FOUND', 'Update not found, or not visible.', { resources: [['ErrorResource(TRANSACTION_HASH)', body.transactionHash]] });
      },
    }),
    route({
      method: 'POST',
      path: '/v2/commands/completion-by-hash',
      body: 'GetCompletionByHashRequest',
      decode: decodeGetCompletionByHashRequest,
      handle: ({ body }) => {
        if (!body.transactionHash) throw missingField('transaction_hash');
        throw new LedgerApiError('COMPLETION_NOT_FOUND', 'Completion not found, or not visible.', { resources: [['ErrorResource(TRANSACTION_HASH)', body.transactionHash]] });
      },
    }),
  ];
}
