/** A PQS connection's settings: where the database is and how to reach it (the password apart). */
import { PqsError } from './errors';

export type SslMode = 'disable' | 'prefer' | 'require' | 'verify-ca' | 'verify-full';
const SSL_MODES: readonly SslMode[] = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'];
const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface PqsSettings {
  host: string;
  port: number;
  database: string;
  user: string;
  /** The PostgreSQL schema that holds PQS's functions. */
  schema: string;
  sslmode: SslMode;
  /** Server-side limit of one statement (statement_timeout). */
  statementTimeoutMs: number;
}

export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

/**
 * Reads `postgresql://user[:password]@host[:port]/database?schema=…&sslmode=…&statement_timeout=MS`; the
 * password, when the URL has one, is returned apart so it can go to secret storage and never into settings
 * or logs. `defaultStatementTimeoutMs` is the limit when the URL sets none (a caller's own deadline, e.g.
 * the CLI's `--timeout`).
 */
export function parsePqsUrl(url: string, defaultStatementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS): { settings: PqsSettings; password?: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new PqsError('bad-settings', 'A PQS URL looks like postgresql://user@host:5432/database?schema=public');
  }
  if (u.protocol !== 'postgresql:' && u.protocol !== 'postgres:') throw new PqsError('bad-settings', `A PQS URL starts with postgresql:// (not ${u.protocol}//)`);
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!database) throw new PqsError('bad-settings', 'The PQS URL names no database (postgresql://user@host:5432/DATABASE)');
  const settings = checkSettings({
    host: u.hostname || 'localhost',
    port: u.port ? Number(u.port) : 5432,
    database,
    user: decodeURIComponent(u.username) || 'postgres',
    schema: u.searchParams.get('schema') ?? 'public',
    sslmode: (u.searchParams.get('sslmode') ?? 'prefer') as SslMode,
    statementTimeoutMs: u.searchParams.has('statement_timeout') ? Number(u.searchParams.get('statement_timeout')) : defaultStatementTimeoutMs,
  });
  return { settings, password: u.password ? decodeURIComponent(u.password) : undefined };
}

/** Checks settings that come from anywhere (a URL, the editor's settings): a clear error naming the field. */
export function checkSettings(s: PqsSettings): PqsSettings {
  if (!PLAIN_IDENTIFIER.test(s.schema)) throw new PqsError('bad-settings', `PQS schema "${s.schema}": a plain name (letters, digits, _) is expected`);
  if (!SSL_MODES.includes(s.sslmode)) throw new PqsError('bad-settings', `sslmode "${s.sslmode}": one of ${SSL_MODES.join(', ')}`);
  if (!Number.isInteger(s.port) || s.port < 1 || s.port > 65535) throw new PqsError('bad-settings', `PQS port "${s.port}": a number from 1 to 65535`);
  if (!Number.isInteger(s.statementTimeoutMs) || s.statementTimeoutMs < 1) throw new PqsError('bad-settings', `statement_timeout "${s.statementTimeoutMs}": milliseconds, at least 1`);
  return s;
}

/** `postgresql://user@host:port/database?schema=…` without the password (for display and logs). */
export function describeSettings(s: PqsSettings): string {
  return `postgresql://${encodeURIComponent(s.user)}@${s.host}:${s.port}/${encodeURIComponent(s.database)}?schema=${s.schema}&sslmode=${s.sslmode}`;
}
