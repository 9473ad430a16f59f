/**
 * Only reads go to PQS. A statement is tokenized as PostgreSQL's own lexer reads it (every string and
 * identifier form, dollar quotes, nested comments) before it is sent, and refused unless it is one
 * statement that starts with a reading keyword, with no writing keyword (a data-modifying `WITH`,
 * `SELECT … INTO`, `FOR UPDATE` locks, `COPY`) and no call of a function that writes, changes the
 * session, runs SQL text or touches the server's files (PQS's `prune_*`, `redact_*`, `set_latest`;
 * PostgreSQL's `set_config`, `lo_*`, `pg_read_file`, …), by its name bare or quoted.
 *
 * The server refuses writes again (each statement runs in a read-only transaction it cannot end, on
 * a session reset afterwards), so this check is the early, positioned answer — and the only one
 * for what a read-only transaction allows a superuser (server files, programs, replication slots).
 */
import { PqsError } from './errors';

export type SqlTokenKind = 'word' | 'quoted-identifier' | 'string' | 'number' | 'parameter' | 'operator' | 'punctuation';

export interface SqlToken {
  kind: SqlTokenKind;
  /** A word lower-cased; a quoted identifier unquoted (its `""` and `U&` escapes decoded); otherwise the text. */
  value: string;
  /** 0-based start and end (exclusive) in the text. */
  at: number;
  end: number;
}

/** What a reading statement is, for the way it is run (a cursor reads a query; EXPLAIN and SHOW answer small). */
export interface ReadingStatement {
  kind: 'query' | 'explain' | 'show';
  /** The statement without a trailing `;` and the comments after it (same positions as the input). */
  text: string;
}

const READING_QUERY_START = new Set(['select', 'with', 'values', 'table']);
/** Keywords that write, lock, or change the session or transaction (as unquoted words only: a quoted one is a name). */
const WRITING_KEYWORDS = new Set([
  'insert', 'update', 'delete', 'merge', 'truncate', 'drop', 'alter', 'create', 'grant', 'revoke', 'copy', 'call',
  'do', 'vacuum', 'analyze', 'analyse', 'cluster', 'reindex', 'comment', 'lock', 'refresh', 'into', 'set', 'reset',
  'discard', 'listen', 'unlisten', 'notify', 'prepare', 'execute', 'deallocate', 'begin', 'commit', 'rollback',
  'savepoint', 'security', 'import', 'load', 'checkpoint', 'reassign',
]);
/** Functions refused by name: they write, change the session, run SQL text, wait, or reach the server's files and processes. */
const REFUSED_FUNCTIONS = new Set([
  // PQS's own writing functions.
  'reset_to_offset', 'set_latest', 'set_oldest', 'create_index_for_contract',
  // PostgreSQL: the session, sequences, notifications.
  'set_config', 'nextval', 'setval', 'pg_notify',
  // Server files and processes.
  'pg_read_file', 'pg_read_binary_file', 'pg_stat_file', 'pg_terminate_backend', 'pg_cancel_backend', 'pg_reload_conf',
  'pg_rotate_logfile', 'pg_rotate_logfile_old', 'pg_log_backend_memory_contexts', 'pg_import_system_collations',
  'loread', 'lowrite',
  // SQL text run by a function (its inner statement would escape this check).
  'ts_stat', 'ts_rewrite',
  // WAL, backups, recovery, replication.
  'pg_switch_wal', 'pg_switch_xlog', 'pg_create_restore_point', 'pg_start_backup', 'pg_stop_backup', 'pg_promote',
  'pg_wal_replay_pause', 'pg_wal_replay_resume', 'pg_xlog_replay_pause', 'pg_xlog_replay_resume', 'pg_replication_slot_advance',
  // Index maintenance that writes pages.
  'gin_clean_pending_list',
]);
const REFUSED_PREFIXES = [
  'prune_', 'redact_', 'lo_', 'dblink', 'pg_advisory_', 'pg_try_advisory_', 'pg_sleep', 'query_to_xml', 'cursor_to_xml',
  'pg_ls_', 'pg_file_', 'pg_stat_reset', 'pg_replication_origin_', 'pg_logical_', 'pg_create_', 'pg_drop_', 'pg_copy_',
  'pg_backup_', 'binary_upgrade_', 'brin_summarize', 'brin_desummarize',
];

const SPACE = /[ \t\n\r\f\v]/;
const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const OPERATOR_CHAR = /[~!@#^&|`?+\-*/%<>=]/;
const PUNCTUATION = new Set(['(', ')', '[', ']', ',', ';', '.', ':']);

class Lexer {
  readonly tokens: SqlToken[] = [];
  private i = 0;

  constructor(private readonly sql: string) {}

  run(): SqlToken[] {
    const s = this.sql;
    while (this.i < s.length) {
      const c = s[this.i];
      const start = this.i;
      if (SPACE.test(c)) this.i++;
      else if (s.startsWith('--', this.i)) this.lineComment();
      else if (s.startsWith('/*', this.i)) this.blockComment();
      else if (c === "'") this.push('string', this.quoted("'", false), start);
      else if (c === '"') this.push('quoted-identifier', this.quoted('"', false), start);
      else if ((c === 'u' || c === 'U') && s[this.i + 1] === '&' && (s[this.i + 2] === "'" || s[this.i + 2] === '"')) this.unicodeQuoted();
      else if (/[eEbBxXnN]/.test(c) && s[this.i + 1] === "'") {
        this.i++;
        this.push('string', this.quoted("'", c === 'e' || c === 'E', start), start);
      } else if (IDENT_START.test(c)) {
        while (this.i < s.length && IDENT_PART.test(s[this.i])) this.i++;
        this.push('word', asciiLower(s.slice(start, this.i)), start);
      } else if (c === '$') this.dollar();
      else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(s[this.i + 1] ?? ''))) this.number();
      else if (c === ':' && s[this.i + 1] === ':') {
        this.i += 2;
        this.push('operator', '::', start);
      } else if (PUNCTUATION.has(c)) {
        this.i++;
        this.push('punctuation', c, start);
      } else if (OPERATOR_CHAR.test(c)) {
        // An operator ends where a comment starts, as in PostgreSQL's lexer.
        while (this.i < s.length && OPERATOR_CHAR.test(s[this.i]) && !s.startsWith('--', this.i) && !s.startsWith('/*', this.i)) this.i++;
        this.push('operator', s.slice(start, this.i), start);
      } else {
        this.i++;
        this.push('operator', c, start);
      }
    }
    return this.tokens;
  }

  private push(kind: SqlTokenKind, value: string, at: number): void {
    this.tokens.push({ kind, value, at, end: this.i });
  }

  private fail(what: string, at: number): never {
    throw new PqsError('write-refused', `${what} at ${where(this.sql, at)} is not closed; only complete statements are sent to PQS`, undefined, at);
  }

  private lineComment(): void {
    while (this.i < this.sql.length && this.sql[this.i] !== '\n' && this.sql[this.i] !== '\r') this.i++;
  }

  private blockComment(): void {
    const start = this.i;
    let depth = 0;
    do {
      if (this.sql.startsWith('/*', this.i)) (depth++, (this.i += 2));
      else if (this.sql.startsWith('*/', this.i)) (depth--, (this.i += 2));
      else this.i++;
      if (this.i >= this.sql.length && depth > 0) this.fail('The comment', start);
    } while (depth > 0);
  }

  /** A quoted string or identifier from its opening quote; doubled quotes inside, and backslash escapes in `E'…'`. Returns the content. */
  private quoted(q: string, backslashEscapes: boolean, start = this.i): string {
    let out = '';
    this.i++;
    for (;;) {
      if (this.i >= this.sql.length) this.fail(q === '"' ? 'The quoted name' : 'The string', start);
      const c = this.sql[this.i];
      if (backslashEscapes && c === '\\') {
        out += this.sql.slice(this.i, this.i + 2);
        this.i += 2;
      } else if (c === q && this.sql[this.i + 1] === q) {
        out += q;
        this.i += 2;
      } else if (c === q) {
        this.i++;
        return out;
      } else {
        out += c;
        this.i++;
      }
    }
  }

  /** `U&'…'` and `U&"…"`, with an optional `UESCAPE 'c'`; an identifier's escapes are decoded (`U&"set\005fconfig"` is set_config). */
  private unicodeQuoted(): void {
    const start = this.i;
    this.i += 2;
    const q = this.sql[this.i];
    const raw = this.quoted(q, false, start);
    let escape = '\\';
    const m = /^(?:[ \t\n\r\f\v]|--[^\n\r]*|\/\*[\s\S]*?\*\/)*(uescape)(?:[ \t\n\r\f\v]|--[^\n\r]*|\/\*[\s\S]*?\*\/)*'([^']|'')'/i.exec(this.sql.slice(this.i));
    if (m) {
      escape = m[2] === "''" ? "'" : m[2];
      this.i += m[0].length;
    }
    this.push(q === '"' ? 'quoted-identifier' : 'string', q === '"' ? decodeUnicodeEscapes(raw, escape) : raw, start);
  }

  /** `$1` (a parameter), `$tag$…$tag$` (a dollar-quoted string; the tag may hold digits, not start with one). */
  private dollar(): void {
    const start = this.i;
    const s = this.sql;
    if (/[0-9]/.test(s[this.i + 1] ?? '')) {
      this.i++;
      while (/[0-9]/.test(s[this.i] ?? '')) this.i++;
      this.push('parameter', s.slice(start, this.i), start);
      return;
    }
    const tag = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(s.slice(this.i))?.[0];
    if (!tag) {
      this.i++;
      this.push('operator', '$', start);
      return;
    }
    const close = s.indexOf(tag, this.i + tag.length);
    if (close < 0) this.fail('The dollar-quoted string', start);
    this.i = close + tag.length;
    this.push('string', s.slice(start + tag.length, close), start);
  }

  private number(): void {
    const start = this.i;
    const m = /^(?:0[xXoObB][0-9A-Fa-f_]+|(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?)/.exec(this.sql.slice(this.i))!;
    this.i += m[0].length;
    this.push('number', m[0], start);
  }
}

/** Unquoted words fold to lower case as PostgreSQL folds them (ASCII only). */
function asciiLower(word: string): string {
  return word.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function decodeUnicodeEscapes(raw: string, escape: string): string {
  let out = '';
  for (let k = 0; k < raw.length; k++) {
    if (raw[k] !== escape) {
      out += raw[k];
      continue;
    }
    if (raw[k + 1] === escape) {
      out += escape;
      k++;
    } else if (raw[k + 1] === '+' && /^[0-9A-Fa-f]{6}$/.test(raw.slice(k + 2, k + 8))) {
      out += String.fromCodePoint(parseInt(raw.slice(k + 2, k + 8), 16));
      k += 7;
    } else if (/^[0-9A-Fa-f]{4}$/.test(raw.slice(k + 1, k + 5))) {
      out += String.fromCodePoint(parseInt(raw.slice(k + 1, k + 5), 16));
      k += 4;
    } else out += raw[k];
  }
  return out;
}

/** The tokens of SQL text as PostgreSQL's lexer splits it (comments and whitespace left out). Unclosed quotes and comments are refused. */
export function sqlTokens(sql: string): SqlToken[] {
  return new Lexer(sql).run();
}

/** Whether a function name (any case, bare or quoted) is one of those never sent to PQS. */
export function isRefusedFunction(name: string): boolean {
  const n = name.toLowerCase();
  return REFUSED_FUNCTIONS.has(n) || REFUSED_PREFIXES.some((p) => n.startsWith(p));
}

/**
 * Throws `write-refused` (with the position of the offending token) unless the text is one reading
 * statement; returns what kind of reading it is.
 */
export function assertReadOnlyStatement(sql: string): ReadingStatement {
  const all = sqlTokens(sql);
  const semicolon = all.findIndex((t) => t.kind === 'punctuation' && t.value === ';');
  const tokens = semicolon < 0 ? all : all.slice(0, semicolon);
  const second = semicolon < 0 ? undefined : all.slice(semicolon + 1).find((t) => t.value !== ';');
  const refuse = (message: string, at: number): never => {
    throw new PqsError('write-refused', message, undefined, at);
  };
  if (tokens.length === 0) refuse('The file holds no statement', 0);
  if (second) refuse(`One statement at a time: a second one starts at ${where(sql, second.at)}`, second.at);
  const first = tokens[0];
  const notReading = (t: SqlToken) => refuse(`"${sql.slice(t.at, t.end).toUpperCase()}" at ${where(sql, t.at)} is not a reading statement; only reads are sent to PQS`, t.at);
  if (first.kind !== 'word') return notReading(first);
  let kind: ReadingStatement['kind'];
  let body = 1;
  if (first.value === 'show') kind = 'show';
  else if (READING_QUERY_START.has(first.value)) kind = 'query';
  else if (first.value === 'explain') {
    kind = 'explain';
    body = explainedStatement(tokens);
    const inner = tokens[body];
    if (!inner) refuse(`EXPLAIN at ${where(sql, first.at)} names no statement`, first.at);
    if (inner.kind !== 'word' || !READING_QUERY_START.has(inner.value)) notReading(inner);
  } else return notReading(first);
  for (let k = body; k < tokens.length; k++) {
    const t = tokens[k];
    const next = tokens[k + 1];
    const text = sql.slice(t.at, t.end);
    // `FOR UPDATE` / `FOR SHARE` / `FOR KEY SHARE` take row locks (a write in a read-only session).
    const lock = t.kind === 'word' && t.value === 'for' && next?.kind === 'word' && ['update', 'share', 'no', 'key'].includes(next.value);
    if ((t.kind === 'word' && WRITING_KEYWORDS.has(t.value)) || lock) {
      refuse(`"${text.toUpperCase()}" at ${where(sql, t.at)} would write or change the session; only reads are sent to PQS`, t.at);
    }
    const name = t.kind === 'word' || t.kind === 'quoted-identifier' ? t.value : undefined;
    const called = next?.kind === 'punctuation' && next.value === '(';
    // PQS's private procedures (`__…`) are refused when called; its private tables may be read.
    if (name !== undefined && (isRefusedFunction(name) || (called && name.startsWith('__')))) {
      refuse(`${text} at ${where(sql, t.at)} writes, changes the session or reaches the server; it is never sent to PQS`, t.at);
    }
  }
  return { kind, text: sql.slice(0, tokens[tokens.length - 1].end) };
}

/** The index of the statement an EXPLAIN explains: after `(options)` or the bare `ANALYZE`/`VERBOSE` words. */
function explainedStatement(tokens: SqlToken[]): number {
  let k = 1;
  if (tokens[k]?.value === '(' && tokens[k].kind === 'punctuation') {
    let depth = 0;
    for (; k < tokens.length; k++) {
      if (tokens[k].kind !== 'punctuation') continue;
      if (tokens[k].value === '(') depth++;
      else if (tokens[k].value === ')' && --depth === 0) return k + 1;
    }
    return k;
  }
  while (tokens[k]?.kind === 'word' && ['analyze', 'analyse', 'verbose'].includes(tokens[k].value)) k++;
  return k;
}

/** `line L, column C` (1-based) of a character position. */
export function where(text: string, position: number): string {
  const before = text.slice(0, position).split(/\r\n|\r|\n/);
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}
