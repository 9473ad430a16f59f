/**
 * `submit FILE.commands.json`: validate, submit and wait for the transaction. Never retries by itself:
 * when the outcome is unknown it says so and prints the command that retries safely.
 */
import { toSubmitRequest } from '../../core/api/client';
import { CancelledError, isOutcomeUnknown, LedgerError, type CantonApiError } from '../../core/errors';
import type * as wire from '../../core/models/wire';
import { duplicateLookupRange, findTransactionByCommandId, isDuplicateCommand } from '../../core/submit/outcome';
import { previewFailureAdvice } from '../../core/submit/prepare';
import { decodePreparedTransaction } from '../../core/preview/decode';
import { previewDocument, previewText } from '../../core/preview/render';
import { expectPositionals, flag } from '../args';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, type Command } from '../command';
import type { CliContext } from '../context';
import { sendableFile } from '../files';
import { formatTransaction } from '../format';
import { describeLedgerError } from '../report';
import { reportOutcomeUnknown, retryCommandLines } from '../retry';

const NAME = 'submit';

export const submitCommand: Command = {
  name: NAME,
  synopsis: 'submit FILE.commands.json [--dry-validate | --preview]',
  summary: 'Validate a commands file, submit it and print the resulting transaction',
  details: [
    '--dry-validate     validate the file only; do not submit',
    '--preview          show what the commands would do (interactive-submission prepare); nothing is',
    '                   submitted. Needs only ReadAs rights for the actAs and readAs parties.',
    '--json             the raw response',
    'The file holds JsCommands, or {"commands": JsCommands, "transactionFormat": …}.',
    'An unknown outcome (timeout, dropped connection) is reported, never retried automatically:',
    'run the same file again; its unchanged commandId makes the retry at most once. A commandId',
    'that already executed is answered "already executed" with its transaction (exit 0).',
  ],
  options: { 'dry-validate': { type: 'boolean' }, preview: { type: 'boolean' } },
  async run(ctx, args) {
    const [file] = expectPositionals(args, NAME, 'FILE.commands.json', 1);
    const content = await sendableFile(ctx, file, NAME, 'commands', 'not submitted');
    if (content === undefined) return EXIT_FAILURE;
    if (flag(args.values, 'dry-validate')) {
      await ctx.out(`${file}: valid; not submitted (--dry-validate).`);
      return EXIT_OK;
    }

    const request = toSubmitRequest(content as wire.JsCommands | wire.JsSubmitAndWaitForTransactionRequest);
    if (flag(args.values, 'preview')) return preview(ctx, file, request);
    const commandId = request.commands.commandId;
    let result;
    try {
      result = await ctx.client().submitAndWaitForTransaction(request, ctx.callOptions);
    } catch (e) {
      if (e instanceof LedgerError && isOutcomeUnknown(e)) {
        reportOutcomeUnknown(ctx, e, [
          `Command "${commandId}" may or may not have executed: the request may have reached the participant, but no definite answer came back.`,
          'Do not edit the file and do not submit it under a new commandId. To retry safely, run the same command again:',
          ...retryCommandLines(ctx),
          'Deduplication on the unchanged commandId makes it at most once: if the first attempt went through, the retry answers "already executed" with its transaction.',
        ]);
        return e instanceof CancelledError ? EXIT_INTERRUPTED : EXIT_FAILURE;
      }
      if (isDuplicateCommand(e)) return alreadyExecuted(ctx, e, request);
      throw e;
    }
    if (ctx.globals.json) await ctx.out(JSON.stringify(result.raw, null, 2));
    else for (const line of formatTransaction(result.transaction)) await ctx.out(line);
    return EXIT_OK;
  },
};

/**
 * DUPLICATE_COMMAND: the commandId executed before (once), which is what a retry after an unknown
 * outcome wants to know. Shows that transaction, read at the completion offset the error names.
 */
async function alreadyExecuted(ctx: CliContext, e: CantonApiError, request: wire.JsSubmitAndWaitForTransactionRequest): Promise<number> {
  const commandId = request.commands.commandId;
  const range = duplicateLookupRange(e);
  const at = range.toOffset !== undefined ? ` (completed at offset ${range.toOffset})` : '';
  ctx.err(`Already executed: commandId "${commandId}" was executed before${at}; it was not executed again.`);
  let found;
  try {
    found = await findTransactionByCommandId(ctx.client(), { commandId, parties: request.commands.actAs, ...range, signal: ctx.signal });
  } catch (err) {
    if (!(err instanceof LedgerError) || err instanceof CancelledError) throw err;
    ctx.err(`Its transaction could not be read: ${describeLedgerError(err, ctx.token !== undefined, (t) => ctx.redact(t))[0].replace(/^error: /, '')}`);
    return EXIT_OK;
  }
  if (!found.transaction) {
    ctx.err(`Its transaction is not visible to ${request.commands.actAs.join(', ')} between offsets ${found.fromOffset} and ${found.toOffset} (pruned, or shown to other parties only).`);
    return EXIT_OK;
  }
  if (ctx.globals.json) await ctx.out(JSON.stringify({ transaction: found.transaction.raw }, null, 2));
  else for (const line of formatTransaction(found.transaction)) await ctx.out(line);
  return EXIT_OK;
}

/** `--preview`: prepares the commands and prints the transaction they would make; submits nothing. */
async function preview(ctx: CliContext, file: string, request: wire.JsSubmitAndWaitForTransactionRequest): Promise<number> {
  let result;
  try {
    result = await ctx.client().prepare(request, ctx.callOptions);
  } catch (e) {
    const advice = previewFailureAdvice(e, request.commands);
    if (!advice || !(e instanceof LedgerError)) throw e;
    for (const line of describeLedgerError(e, ctx.token !== undefined, (t) => ctx.redact(t))) ctx.err(line);
    ctx.err(`why: ${advice.why}`);
    ctx.err(`to do: ${advice.todo}`);
    return EXIT_FAILURE;
  }
  const input = { preview: decodePreparedTransaction(result.raw.preparedTransaction), raw: result.raw, participant: ctx.client().baseUrl, file };
  if (ctx.globals.json) await ctx.out(JSON.stringify({ ...previewDocument(input), prepareResponse: result.raw }, null, 2));
  else await ctx.out(previewText(input).trimEnd());
  return EXIT_OK;
}
