/**
 * Typed failures of a PQS store (PostgreSQL): callers branch on `kind` and read the data; nothing
 * compares message text. The kind comes from the SQLSTATE the server sent, from the Node socket
 * error code, or from what this process did itself (its own cancel, its own deadline).
 */
export type PqsErrorKind =
  | 'auth'
  | 'tls-required'
  | 'unreachable'
  | 'connection-lost'
  | 'timeout'
  | 'cancelled'
  | 'read-only'
  | 'write-refused'
  | 'bad-filter'
  | 'bad-settings'
  | 'not-pqs'
  | 'unknown-template'
  | 'sql'
  | 'driver-missing'
  | 'ambiguous-template'
  | 'offset-out-of-range'
  | 'pqs-refused'
  | 'bad-cursor';

const HINTS: Record<PqsErrorKind, string> = {
  auth: 'Check the PQS user and password (the password is kept in the editor’s secret storage).',
  'tls-required': 'The server refuses connections without TLS: set sslmode to require (or verify-full).',
  unreachable: 'Check the host and port of the PQS database, and that PostgreSQL is running.',
  'connection-lost': 'The database connection ended during the query; run it again when the server is back.',
  timeout: 'The query ran past its time limit; narrow it (a template, an offset range, a payload index) or raise the limit.',
  cancelled: 'Cancelled.',
  'read-only': 'PQS sessions are read-only: the server refused a write.',
  'write-refused': 'Only reading statements are sent to PQS (SELECT, WITH … SELECT, EXPLAIN, SHOW, VALUES, TABLE).',
  'bad-filter': 'Write a payload filter as PATH OPERATOR VALUE, e.g. amount>=1000 or owner=Alice::1220….',
  'bad-settings': 'Check the PQS connection settings.',
  'not-pqs': 'This database does not offer the PQS SQL functions in that schema; check the database and schema.',
  'unknown-template': 'PQS knows no template of that name; names are package-name:Module:Entity, Module:Entity or Entity.',
  sql: 'PostgreSQL refused the statement.',
  'driver-missing': 'The PostgreSQL driver could not be loaded.',
  'ambiguous-template': 'Several templates answer to that name in PQS; give it as package-name:Module:Entity.',
  'offset-out-of-range': 'The store holds offsets from its oldest to its latest (see the watermark); read at one of those.',
  'pqs-refused': 'PQS refused the request; its own message says why.',
  'bad-cursor': 'Start a page after a cursor the previous page printed (the "cursor" field of a JSON line).',
};

/**
 * PQS's own refusals: its functions `raise exception` (SQLSTATE P0001, no code of their own), so the text
 * is all there is to tell them apart. These are the formats of PQS's schema (`__contract_tpe4name`,
 * `__exercise_tpe4name`, `__nearest_ix_floor`/`__nearest_ix_ceil`); anything else raised is `pqs-refused`.
 */
const PQS_RAISES: readonly [RegExp, PqsErrorKind][] = [
  [/^Identifier not found: /, 'unknown-template'],
  [/^Ambiguous identifier: /, 'ambiguous-template'],
  [/^Offset -?\d+ is (after the latest|before the oldest) known offset/, 'offset-out-of-range'],
];

export class PqsError extends Error {
  readonly hint: string;
  constructor(
    readonly kind: PqsErrorKind,
    message: string,
    /** The SQLSTATE the server answered with, when it did. */
    readonly sqlState?: string,
    /** Where in the input the problem is (0-based character), for bad filters and refused statements. */
    readonly position?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PqsError';
    this.hint = HINTS[kind];
  }
}

/** What this process knows about a failed call besides the error itself. */
export interface FailureContext {
  /** This process cancelled the query: the user did, or the deadline passed. */
  cancelledBy?: 'user' | 'deadline';
  /** The connection was made without TLS (a refusal then may mean the server wants TLS). */
  plainConnection: boolean;
  /** Characters the sent text has before the caller's statement (a server's error position is moved back by it). */
  positionShift?: number;
}

/** Classifies a driver error (SQLSTATE, socket code) into a {@link PqsError}. */
export function pqsErrorOf(err: unknown, ctx: FailureContext): PqsError {
  if (err instanceof PqsError) return err;
  const e = err as { code?: unknown; message?: unknown; position?: unknown; severity?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : String(err);
  const fromServer = typeof e.severity === 'string';
  const position = typeof e.position === 'string' && /^\d+$/.test(e.position) ? Math.max(0, Number(e.position) - 1 - (ctx.positionShift ?? 0)) : undefined;
  const make = (kind: PqsErrorKind) => new PqsError(kind, message, fromServer ? code : undefined, position, { cause: err });
  if (ctx.cancelledBy === 'user') return make('cancelled');
  if (ctx.cancelledBy === 'deadline') return make('timeout');
  if (fromServer && code) {
    if (code === '28P01') return make('auth');
    // 28000: pg_hba.conf refused the connection; on a plain connection that is how a TLS-only server answers.
    if (code === '28000') return make(ctx.plainConnection ? 'tls-required' : 'auth');
    if (code === '57014') return make('timeout');
    if (code === '25006') return make('read-only');
    if (code.startsWith('57P') || code.startsWith('08')) return make('connection-lost');
    if (code === '3D000') return make('bad-settings');
    if (code === 'P0001') return make(PQS_RAISES.find(([format]) => format.test(message))?.[1] ?? 'pqs-refused');
    return make('sql');
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT') return make('unreachable');
  if (code === 'ECONNRESET' || code === 'EPIPE') return make('connection-lost');
  return make('connection-lost');
}
