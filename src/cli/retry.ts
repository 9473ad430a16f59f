/**
 * Writes that lost their answer: the report of an unknown outcome (submissions and vetting changes),
 * and the command line that retries safely. The CLI never re-sends such a write by itself.
 */
import type { LedgerError } from '../core/errors';
import { REDACTION_MASK } from '../core/redact';
import type { CliContext } from './context';
import { describeLedgerError } from './report';
import { URL_ENV } from './context';

/**
 * `canton-ledger <the arguments as given>` plus `extra`, for "run this to retry". Credentials in the
 * arguments (a password in `--url`) are masked, with a line saying how to put them back.
 */
export function retryCommandLines(ctx: CliContext, extra: readonly string[] = []): string[] {
  const args = [...ctx.argv, ...extra].map((a) => ctx.redact(a));
  const line = `  canton-ledger ${args.map(shellQuote).join(' ')}`;
  return args.some((a) => a.includes(REDACTION_MASK))
    ? [line, `(credentials in the arguments are shown as ${REDACTION_MASK}: put them back, or give the URL in ${URL_ENV} instead)`]
    : [line];
}

/**
 * The lines of an unknown outcome: the error marked UNKNOWN, what may have happened, then the
 * caller's lines (how to check, how to retry), then the error's hint.
 */
export function reportOutcomeUnknown(ctx: CliContext, e: LedgerError, lines: readonly string[]): void {
  const [first, ...rest] = describeLedgerError(e, ctx.token !== undefined, (t) => ctx.redact(t));
  ctx.err(first.replace(/^error: /, 'error: outcome UNKNOWN: '));
  for (const line of lines) ctx.err(line);
  for (const line of rest) ctx.err(line);
}

/** Quotes an argument for POSIX shells when it contains anything but safe characters. */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
