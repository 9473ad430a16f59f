/**
 * `POST /v2/commands/submit-and-wait-for-transaction` (`{commands, transactionFormat?}`) and
 * `POST /v2/commands/submit-and-wait` (bare JsCommands), NOTES §2.2, with the fault injection
 * that lets tests produce an unknown outcome.
 */
import type * as wire from '../../core/models/wire';
import { atLeast } from '../../core/versions';
import { canActAs, canReadAs, ensureAllowed } from '../auth';
import { decodeCommands, decodePrepareSubmissionRequest, decodeSubmitAndWaitForTransactionRequest, type DecodedCommands } from '../decode';
import { filteredTransactionJson } from '../encode';
import { LedgerApiError, missingField } from '../errors';
import { EventFilter, PartyFilter, checkParty, parseTransactionFormat, type TransactionFilter } from '../filters';
import type { DeduplicationPeriod } from '../ledger';
import type { TransactionRecord } from '../model';
import { preparedAnswer } from '../prepared';
import { costEstimation } from '../traffic';
import { route, sendJson, sendRawJson, type RequestContext, type Route } from '../server';
import { ensureCanRead, filterRules, type Services } from './services';

/** Used when auth is off and the body names no user. */
const DEFAULT_USER = 'demo-admin';

function deduplicationPeriod(period: wire.DeduplicationPeriod | undefined): DeduplicationPeriod | undefined {
  if (!period || 'Empty' in period) return undefined;
  if ('DeduplicationOffset' in period) return { kind: 'offset', offset: period.DeduplicationOffset.value };
  const { seconds, nanos = 0 } = period.DeduplicationDuration.value;
  const micros = seconds * 1_000_000 + Math.floor(nanos / 1000);
  if (micros < 0) {
    throw new LedgerApiError(
      'INVALID_FIELD',
      'The submitted command has a field with invalid value: Invalid field deduplication_period: the duration must be non-negative',
    );
  }
  return { kind: 'duration', micros };
}

/** Canton's default when no transactionFormat is given: ACS delta, wildcard for actAs and readAs, verbose. */
function defaultTransactionFilter(parties: readonly string[]): TransactionFilter {
  const wildcard = new PartyFilter();
  wildcard.wildcard = true;
  return { shape: 'ACS_DELTA', events: new EventFilter(new Map(parties.map((p) => [p, wildcard])), undefined) };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * Runs the submission, then applies an armed fault: the command has been executed either way,
 * which is what makes a dropped or late answer an unknown outcome for the client.
 */
async function submit(s: Services, ctx: RequestContext, commands: DecodedCommands): Promise<TransactionRecord | undefined> {
  const submissionId = commands.submissionId || s.ledger.ids.uuid();
  let result: { tx: TransactionRecord } | { error: unknown };
  try {
    result = { tx: execute(s, ctx, commands, submissionId) };
  } catch (error) {
    if (error instanceof LedgerApiError) error.details.correlationId ??= submissionId;
    result = { error };
  }
  const fault = s.faults.submit;
  if (fault) {
    if (fault.times !== undefined && --fault.times <= 0) delete s.faults.submit;
    if (fault.delayMs) await sleep(fault.delayMs, ctx.signal);
    if (fault.dropResponse) {
      ctx.req.socket.destroy();
      return undefined;
    }
  }
  if ('error' in result) throw result.error;
  return result.tx;
}

/** The user a request acts for: the token's (naming another in the body is not allowed), else the body's or the default. */
function requestUser(s: Services, ctx: RequestContext, named: string | undefined, doing: string): string {
  const { caller } = ctx;
  if (caller.kind === 'user') {
    ensureAllowed(!named || named === caller.user.id);
    return caller.user.id;
  }
  const userId = named || DEFAULT_USER;
  if (!s.ledger.users.has(userId)) {
    throw new LedgerApiError('USER_NOT_FOUND', `${doing} failed for unknown user "${userId}"`, { resources: [['ErrorResource(USER_ID)', userId]] });
  }
  return userId;
}

function execute(s: Services, ctx: RequestContext, commands: DecodedCommands, submissionId: string): TransactionRecord {
  const { caller } = ctx;
  const userId = requestUser(s, ctx, commands.userId, 'submitting commands');
  const readAs = commands.readAs ?? [];
  for (const party of commands.actAs) ensureAllowed(canActAs(caller, party));
  for (const party of readAs) ensureAllowed(canReadAs(caller, party));

  if (!commands.commandId) throw missingField('command_id');
  if (commands.actAs.length === 0) throw missingField('act_as');
  if (commands.commands.length === 0) throw missingField('commands');
  [...commands.actAs, ...readAs].forEach(checkParty);

  return s.ledger.submit({
    userId,
    commandId: commands.commandId,
    submissionId,
    workflowId: commands.workflowId ?? '',
    actAs: commands.actAs,
    readAs,
    commands: commands.commands,
    synchronizerId: commands.synchronizerId || undefined,
    deduplication: deduplicationPeriod(commands.deduplicationPeriod),
    traceparent: ctx.traceparent,
  });
}

export function commandRoutes(s: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/v2/commands/submit-and-wait-for-transaction',
      body: 'JsSubmitAndWaitForTransactionRequest',
      decode: decodeSubmitAndWaitForTransactionRequest,
      handle: async (ctx) => {
        const { commands, transactionFormat } = ctx.body;
        ensureCanRead(ctx.caller, transactionFormat?.eventFormat);
        const filter = transactionFormat
          ? parseTransactionFormat(transactionFormat, filterRules(s))
          : defaultTransactionFilter([...commands.actAs, ...(commands.readAs ?? [])]);
        const tx = await submit(s, ctx, commands);
        if (tx) sendRawJson(ctx.res, 200, `{"transaction":${filteredTransactionJson(tx, filter, s.profile.wire)}}`);
      },
    }),
    route({
      method: 'POST',
      path: '/v2/interactive-submission/prepare',
      body: 'JsPrepareSubmissionRequest',
      decode: decodePrepareSubmissionRequest,
      handle: (ctx) => {
        const { res, body, caller } = ctx;
        requestUser(s, ctx, body.userId, 'preparing commands');
        const readAs = body.readAs ?? [];
        // Preparing executes nothing: reading rights suffice, also for the actAs parties.
        for (const party of [...body.actAs, ...readAs]) ensureAllowed(canReadAs(caller, party));
        if (!body.commandId) throw missingField('command_id');
        if (body.actAs.length === 0) throw missingField('act_as');
        if (body.commands.length === 0) throw missingField('commands');
        [...body.actAs, ...readAs].forEach(checkParty);
        if (s.profile.prepareSingleCommand && body.commands.length > 1) {
          throw new LedgerApiError('FAILED_TO_PREPARE_TRANSACTION', 'Preparing multiple commands is currently not supported');
        }
        const previewed = s.ledger.preview({ actAs: body.actAs, readAs, commands: body.commands, synchronizerId: body.synchronizerId || undefined });
        const answer = preparedAnswer(previewed, { actAs: body.actAs, commandId: body.commandId, preparationTime: s.ledger.now() }, s.ledger.packages);
        // 3.4 added the estimate; the request can turn it off.
        const estimate = atLeast(s.profile.release, '3.4.0') && !body.costEstimationDisabled;
        sendJson(res, 200, estimate ? { ...answer, costEstimation: costEstimation(previewed.prepared.nodes, s.ledger.now()) } : answer);
      },
    }),
    route({
      method: 'POST',
      path: '/v2/commands/submit-and-wait',
      body: 'JsCommands',
      decode: (body) => decodeCommands(body),
      handle: async (ctx) => {
        const tx = await submit(s, ctx, ctx.body);
        if (tx) sendJson(ctx.res, 200, { updateId: tx.updateId, completionOffset: tx.offset });
      },
    }),
  ];
}
