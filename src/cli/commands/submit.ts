/**
 * `submit FILE.commands.json`: validate, submit and wait for the transaction. Never retries by itself:
 * when the outcome is unknown it says so and prints the command that retries safely.
 */
import { toSubmitRequest } from '../../core/api/client';
import { CancelledError, CantonApiError, isOutcomeUnknown, LedgerError } from '../../core/errors';
import type * as wire from '../../core/models/wire';
import { expectPositionals, flag } from '../args';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, type Command } from '../command';
import type { CliContext } from '../context';
import { sendableFile } from '../files';
import { formatTransaction } from '../format';
import { describeLedgerError } from '../report';

const NAME = 'submit';

export const submitCommand: Command = {
  name: NAME,
  synopsis: 'submit FILE.commands.json [--dry-validate]',
  summary: 'Validate a commands file, submit it and print the resulting transaction',
  details: [
    '--dry-validate     validate the file only; do not submit',
    '--json             the raw response',
    'The file holds JsCommands, or {"commands": JsCommands, "transactionFormat": …}.',
    'An unknown outcome (timeout, dropped connection) is reported, never retried automatically:',
    'run the same file again; its unchanged commandId makes the retry at most once.',
  ],
  options: { 'dry-validate': { type: 'boolean' } },
  async run(ctx, args) {
    const [file] = expectPositionals(args, NAME, 'FILE.commands.json', 1);
    const content = await sendableFile(ctx, file, NAME, 'commands', 'not submitted');
    if (content === undefined) return EXIT_FAILURE;
    if (flag(args.values, 'dry-validate')) {
      await ctx.out(`${file}: valid; not submitted (--dry-validate).`);
      return EXIT_OK;
    }

    const request = toSubmitRequest(content as wire.JsCommands | wire.JsSubmitAndWaitForTransactionRequest);
    const commandId = request.commands.commandId;
    let result;
    try {
      result = await ctx.client().submitAndWaitForTransaction(request, ctx.callOptions);
    } catch (e) {
      if (e instanceof LedgerError && isOutcomeUnknown(e)) {
        reportUnknownOutcome(ctx, e, commandId);
        return e instanceof CancelledError ? EXIT_INTERRUPTED : EXIT_FAILURE;
      }
      if (e instanceof CantonApiError && e.code === 'DUPLICATE_COMMAND') {
        const [first, ...rest] = describeLedgerError(e, ctx.token !== undefined, (t) => ctx.redact(t));
        ctx.err(first);
        ctx.err(`Already submitted: the ledger has already accepted commandId "${commandId}"; it was not executed again.`);
        for (const line of rest) ctx.err(line);
        return EXIT_FAILURE;
      }
      throw e;
    }
    if (ctx.globals.json) await ctx.out(JSON.stringify(result.raw, null, 2));
    else for (const line of formatTransaction(result.transaction)) await ctx.out(line);
    return EXIT_OK;
  },
};

function reportUnknownOutcome(ctx: CliContext, e: LedgerError, commandId: string): void {
  const [first, ...rest] = describeLedgerError(e, ctx.token !== undefined, (t) => ctx.redact(t));
  ctx.err(first.replace(/^error: /, 'error: outcome UNKNOWN: '));
  ctx.err(`Command "${commandId}" may or may not have executed: the request may have reached the participant, but no definite answer came back.`);
  ctx.err('Do not edit the file and do not submit it under a new commandId. To retry safely, run the same command again:');
  ctx.err(`  canton-ledger ${ctx.argv.map(shellQuote).join(' ')}`);
  ctx.err('Deduplication on the unchanged commandId makes it at most once: if the first attempt went through, the retry ends with DUPLICATE_COMMAND (already submitted).');
  for (const line of rest) ctx.err(line);
}

/** Quotes an argument for POSIX shells when it contains anything but safe characters. */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
