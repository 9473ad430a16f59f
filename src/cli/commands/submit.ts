/**
 * `submit FILE.commands.json`: validate, submit and wait for the transaction. Never retries by itself:
 * when the outcome is unknown it says so and prints the command that retries safely.
 */
import { failureOf } from '../../core/cantonFailure';
import { locateCause } from '../../core/errorCauses';
import { CancelledError, LedgerError } from '../../core/errors';
import type { Transaction } from '../../core/models/updates';
import { previewFailureAdvice } from '../../core/submit/prepare';
import { prepareRequestOf, submissionOf, submit, type CommandsFileValue, type SubmissionOutcome } from '../../core/submit/submission';
import { readPreparedAnswer } from '../../core/preview/decode';
import { HASH_MISMATCH_WARNING, previewDocument, previewText } from '../../core/preview/render';
import { expectPositionals, flag } from '../args';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTCOME_UNKNOWN, type Command } from '../command';
import type { CliContext } from '../context';
import { participantPackages, readInput, sendableFile } from '../files';
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
    '                   The hash is recomputed from the prepared transaction (hashing scheme V2 or V3, as',
    '                   the participant names it; another is "hash not verified") and',
    '                   compared with the participant\'s: "hash verified", or exit 1 when it does not',
    '                   match (do not sign it).',
    '--json             the raw response',
    'The file holds JsCommands, or {"commands": JsCommands, "transactionFormat": …}.',
    'A placeholder left in a Daml value ("<Text>", "<Numeric 10>", checked against the participant\'s',
    'packages) is refused before anything is sent, as the editor refuses it.',
    'Without a transactionFormat the transaction is shown as the ledger-effects tree (the exercise',
    'and what it caused) for the actAs and readAs parties: the request the editor sends for the file.',
    'An unknown outcome (timeout, dropped connection) is reported (exit 3), never retried automatically:',
    'run the same file again; its unchanged commandId makes the retry at most once. A commandId',
    'that already executed is answered "already executed" with its transaction (exit 0).',
  ],
  options: { 'dry-validate': { type: 'boolean' }, preview: { type: 'boolean' } },
  async run(ctx, args) {
    const [file] = expectPositionals(args, NAME, 'FILE.commands.json', 1);
    const dryValidate = flag(args.values, 'dry-validate');
    // A dry validation asks the participant only when one is named.
    const packages = !dryValidate || ctx.globals.urlGiven ? () => participantPackages(ctx) : undefined;
    const content = await sendableFile(ctx, file, NAME, 'commands', 'not submitted', packages);
    if (content === undefined) return EXIT_FAILURE;
    if (dryValidate) {
      await ctx.out(`${file}: valid; not submitted (--dry-validate).`);
      return EXIT_OK;
    }

    const value = content as CommandsFileValue;
    if (flag(args.values, 'preview')) return preview(ctx, file, value);
    const { request } = submissionOf(value);
    // Through the connection, as every write: its ledger state follows the write.
    const outcome = await ctx.connection().write('transaction', (client, signal) => submit(client, request, { signal }), {
      signal: ctx.signal,
      offsetOf: (o) => (o.kind === 'succeeded' ? o.write.offset : undefined),
    });
    switch (outcome.kind) {
      case 'succeeded':
        await printTransaction(ctx, outcome.transaction, outcome.response);
        return EXIT_OK;
      case 'unknown':
        reportOutcomeUnknown(ctx, outcome.error, [
          `Command "${request.commands.commandId}" may or may not have executed: the request may have reached the participant, but no definite answer came back.`,
          'Do not edit the file and do not submit it under a new commandId. To retry safely, run the same command again:',
          ...retryCommandLines(ctx),
          'Deduplication on the unchanged commandId makes it at most once: if the first attempt went through, the retry answers "already executed" with its transaction.',
        ]);
        return outcome.error instanceof CancelledError ? EXIT_INTERRUPTED : EXIT_OUTCOME_UNKNOWN;
      case 'already-executed':
        return alreadyExecuted(ctx, outcome, request.commands);
      case 'not-sent':
      case 'failed':
        await printCauseAt(ctx, file, outcome.error);
        throw outcome.error;
    }
  },
};

/**
 * A Canton rejection as `file:line:col: error: CODE: cause (what is marked)`, the place in the file its
 * cause is written (the form terminals and CI logs link), before the error itself is reported.
 */
async function printCauseAt(ctx: CliContext, file: string, error: unknown): Promise<void> {
  const failure = failureOf(error);
  if (!failure) return;
  const at = locateCause(failure, await readInput(file, NAME));
  if (at) ctx.err(`${file}:${at.line}:${at.column}: error: ${failure.code ?? 'REJECTED'}: ${ctx.redact(failure.cause)} (${at.what})`);
}

async function printTransaction(ctx: CliContext, t: Transaction, response: unknown): Promise<void> {
  if (ctx.globals.json) await ctx.out(JSON.stringify(response, null, 2));
  else for (const line of formatTransaction(t)) await ctx.out(line);
}

/**
 * DUPLICATE_COMMAND: the commandId executed before (once), which is what a retry after an unknown
 * outcome wants to know. Shows that transaction, read at the completion offset the error names.
 */
async function alreadyExecuted(ctx: CliContext, outcome: Extract<SubmissionOutcome, { kind: 'already-executed' }>, commands: { commandId: string; actAs: string[] }): Promise<number> {
  const at = outcome.completionOffset !== undefined ? ` (completed at offset ${outcome.completionOffset})` : '';
  ctx.err(`Already executed: commandId "${commands.commandId}" was executed before${at}; it was not executed again.`);
  const e = outcome.lookUpError;
  if (e) {
    if (e instanceof CancelledError) throw e;
    ctx.err(`Its transaction could not be read: ${describeLedgerError(e, ctx.token !== undefined, (t) => ctx.redact(t))[0].replace(/^error: /, '')}`);
    return EXIT_OK;
  }
  if (!outcome.transaction) {
    ctx.err(`Its transaction is not visible to ${commands.actAs.join(', ')} between offsets ${outcome.lookUp.fromOffset} and ${outcome.lookUp.toOffset} (pruned, or shown to other parties only).`);
    return EXIT_OK;
  }
  await printTransaction(ctx, outcome.transaction, { transaction: outcome.transaction.raw });
  return EXIT_OK;
}

/** `--preview`: prepares the commands and prints the transaction they would make; submits nothing. */
async function preview(ctx: CliContext, file: string, value: CommandsFileValue): Promise<number> {
  const request = prepareRequestOf(value);
  let result;
  try {
    result = await ctx.client().prepare(request, ctx.callOptions);
  } catch (e) {
    await printCauseAt(ctx, file, e);
    const advice = previewFailureAdvice(e, request);
    if (!advice || !(e instanceof LedgerError)) throw e;
    for (const line of describeLedgerError(e, ctx.token !== undefined, (t) => ctx.redact(t))) ctx.err(line);
    ctx.err(`why: ${advice.why}`);
    ctx.err(`to do: ${advice.todo}`);
    return EXIT_FAILURE;
  }
  const { preview, hash } = readPreparedAnswer(result.raw);
  const input = { preview, hash, raw: result.raw, participant: ctx.client().baseUrl, file };
  if (ctx.globals.json) await ctx.out(JSON.stringify({ ...previewDocument(input), hashVerification: hash, prepareResponse: result.raw }, null, 2));
  else await ctx.out(previewText(input).trimEnd());
  if (hash.kind !== 'mismatch') return EXIT_OK;
  ctx.err(`error: ${HASH_MISMATCH_WARNING} It sent ${hash.expected}; the transaction hashes to ${hash.computed} (${hash.scheme}).`);
  return EXIT_FAILURE;
}
