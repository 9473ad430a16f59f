/** Turns a failure into `error:`/`hint:` lines on stderr and an exit status. */
import { AuthError, CancelledError, CantonApiError, HttpError, LedgerError, NetworkError } from '../core/errors';
import { PqsError } from '../core/pqs/errors';
import { UsageError } from './args';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_USAGE } from './command';
import { TOKEN_ENV } from './context';

/** A short upper-case code for any typed error: Canton's own code, else one derived from the kind. */
export function errorCode(err: LedgerError): string {
  if (err instanceof CantonApiError) return err.code;
  if (err instanceof AuthError) return err.failure.toUpperCase().replace(/-/g, '_');
  if (err instanceof NetworkError) return err.code ?? 'NETWORK_ERROR';
  if (err instanceof HttpError) return `HTTP_${err.status}`;
  return err.kind.toUpperCase().replace(/-/g, '_');
}

/**
 * The lines describing a typed error: code and cause, the hint, and the ids to quote to an operator.
 * What the server sent is redacted; the hint is the core's own text.
 */
export function describeLedgerError(err: LedgerError, tokenSet: boolean, redact: (text: string) => string): string[] {
  const cause = err instanceof CantonApiError ? err.cause_ : err.message;
  const lines = [`error: ${errorCode(err)}: ${redact(cause)}`];
  if (err instanceof CantonApiError) {
    if (err.correlationId) lines.push(`correlation id: ${redact(err.correlationId)}`);
    if (err.traceId) lines.push(`trace id: ${redact(err.traceId)}`);
  }
  lines.push(`hint: ${err.hint}`);
  // The CLI reads the token only from the environment; say so when the participant wanted one.
  if (err instanceof AuthError && err.failure === 'unauthenticated' && !tokenSet) lines.push(`note: ${TOKEN_ENV} is not set, so no token was sent.`);
  return lines;
}

export interface ErrorSink {
  /** Writes one line to stderr (known secrets masked). */
  err(line: string): void;
  /** Full redaction, for text derived from errors. */
  redact(text: string): string;
}

export interface ReportOptions {
  tokenSet: boolean;
  verbose: boolean;
  /** `canton-ledger <synopsis>` of the command, for usage errors. */
  usage?: (command: string) => string | undefined;
}

export function reportError(sink: ErrorSink, err: unknown, o: ReportOptions): number {
  if (err instanceof UsageError) {
    sink.err(`error: ${err.message}`);
    const usage = err.command ? o.usage?.(err.command) : undefined;
    if (usage) sink.err(`usage: ${usage}`);
    sink.err(`Run 'canton-ledger ${err.command ? `${err.command} ` : ''}--help' for more.`);
    return EXIT_USAGE;
  }
  if (err instanceof CancelledError) {
    sink.err('Cancelled.');
    return EXIT_INTERRUPTED;
  }
  if (err instanceof PqsError) {
    if (err.kind === 'cancelled') {
      sink.err('Cancelled.');
      return EXIT_INTERRUPTED;
    }
    sink.err(`error: PQS ${err.kind}${err.sqlState ? ` (SQLSTATE ${err.sqlState})` : ''}: ${sink.redact(err.message)}`);
    sink.err(`hint: ${err.hint}`);
    return EXIT_FAILURE;
  }
  if (err instanceof LedgerError) {
    for (const line of describeLedgerError(err, o.tokenSet, (t) => sink.redact(t))) sink.err(line);
    if (o.verbose && err.request) sink.err(`request: ${err.request.method} ${err.request.path}`);
    return EXIT_FAILURE;
  }
  // A bug or an unexpected system failure: still one clear line, the stack only when asked for.
  const e = err instanceof Error ? err : new Error(String(err));
  sink.err(`error: INTERNAL: ${sink.redact(e.message)}`);
  if (o.verbose && e.stack) sink.err(sink.redact(e.stack));
  else sink.err('hint: Run again with --verbose for details, and report it if it repeats.');
  return EXIT_FAILURE;
}
