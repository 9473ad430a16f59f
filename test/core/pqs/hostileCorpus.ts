/**
 * `*.pqs.sql` files as an attacker writes them: statements smuggled past a tokenizer that does not know
 * a string or comment form, PQS's and PostgreSQL's writing functions by every spelling of their name,
 * writes inside a reading statement, programs and server files, session changes meant to outlive the
 * statement. Every one must be refused by the guard, and leave the store unchanged even with the
 * guard bypassed.
 */
export interface HostileTarget {
  /** The store's schema, quoted. */
  schema: string;
  /** A statement that moves the store's watermark (the store's own table and columns). */
  moveWatermark: string;
  /** The watermark table, qualified. */
  watermark: string;
  /** A file that a program run by the server would create. */
  touched: string;
}

export interface HostileFile {
  name: string;
  sql: (t: HostileTarget) => string;
  /**
   * A read-only transaction does not stop this for a superuser (it acts outside transactions and
   * tables): the guard, and a role that is not a superuser, are what stop it.
   */
  onlyTheGuardStopsASuperuser?: true;
}

const file = (name: string, sql: (t: HostileTarget) => string, opts: Pick<HostileFile, 'onlyTheGuardStopsASuperuser'> = {}): HostileFile => ({ name, sql, ...opts });

export const HOSTILE_FILES: readonly HostileFile[] = [
  // Several statements hidden from a tokenizer that does not know a string or comment form.
  file('E-string with an escaped quote hides COMMIT; BEGIN READ WRITE', (t) => `SELECT E'\\''; COMMIT; BEGIN READ WRITE; CREATE TABLE ${t.schema}.hostile (x int); ${t.moveWatermark}; COMMIT; --'`),
  file('E-string hides COPY TO PROGRAM', (t) => `SELECT E'\\''; COMMIT; COPY (select 1) TO PROGRAM 'touch ${t.touched}'; --'`),
  file('lower-case e-string', (t) => `select e'\\'' ; commit; create table ${t.schema}.hostile (x int); --'`),
  file('E-string ending in an escaped backslash', (t) => `SELECT E'\\\\'; CREATE TABLE ${t.schema}.hostile (x int); --'`),
  file('a backslash in a standard string is a backslash', (t) => `SELECT '\\'; ${t.moveWatermark}; --'`),
  file('dollar quote whose tag holds a digit', (t) => `SELECT $a1$ $$ $a1$; CREATE TABLE ${t.schema}.hostile (x int); SELECT $$x$$`),
  file('dollar quote with a quote inside', (t) => `SELECT $q$ it's $q$; DROP TABLE ${t.watermark}`),
  file('line comment ended by a carriage return', (t) => `SELECT 1 --\r; ${t.moveWatermark}`),
  file('comment between two statements', (t) => `select/**/1;/**/${t.moveWatermark}`),
  file('nested comment closed once', (t) => `SELECT 1 /* a /* b */ ; ${t.moveWatermark} */ ; ${t.moveWatermark}`),
  file('unclosed comment', (t) => `SELECT 1; ${t.moveWatermark} /* `),
  file('unclosed string', (t) => `SELECT 'abc; ${t.moveWatermark}`),
  file('U& string then a second statement', (t) => `SELECT U&'\\0027'; CREATE TABLE ${t.schema}.hostile (x int); --'`),
  file('quoted identifier with a doubled quote', (t) => `SELECT "a""b"; ${t.moveWatermark}; --"`),
  file('bit and hex strings', (t) => `SELECT B'1', X'1F', N'x'; ${t.moveWatermark}`),
  file('a parameter, then a second statement', (t) => `SELECT $1; ${t.moveWatermark}`),
  file('an empty statement between two', (t) => `SELECT 1; ; ${t.moveWatermark}`),
  // PostgreSQL's session functions, by every spelling.
  file('set_config read-write', () => `select set_config('default_transaction_read_only','off',false)`),
  file('"set_config" quoted', () => `select "set_config"('default_transaction_read_only','off',false)`),
  file('pg_catalog."set_config"', () => `select pg_catalog."set_config"('default_transaction_read_only','off',false)`),
  file('SET_CONFIG in capitals, statement_timeout', () => `SELECT SET_CONFIG('statement_timeout', '0', false)`),
  file('set_config with comments around the dot', () => `select pg_catalog/**/./* x */"set_config"('search_path', 'pg_temp', false)`),
  file('U&"…" spells set_config', () => `SELECT U&"set\\005fconfig"('default_transaction_read_only', 'off', false)`),
  file('U&"…" UESCAPE spells set_config', () => `SELECT U&"set!005fconfig" UESCAPE '!' ('statement_timeout', '0', false)`),
  file('U&"…" six-digit escape spells set_config', () => `SELECT U&"set\\+00005fconfig"('search_path', 'pg_temp', false)`),
  file('set_config on the transaction', () => `SELECT set_config('transaction_read_only', 'off', true)`),
  file('EXPLAIN ANALYZE runs set_config', () => `EXPLAIN ANALYZE SELECT set_config('statement_timeout', '0', false)`),
  // PQS's writing functions.
  file('"set_latest"', () => `select "set_latest"(1)`),
  file('set_oldest', () => `SELECT set_oldest(1)`),
  file('prune_archived_to_offset', () => `select * from prune_archived_to_offset(12000)`),
  file('prune_to_offset, quoted and qualified', (t) => `select * from ${t.schema}."prune_to_offset"(1)`),
  file('reset_to_offset', () => `SELECT reset_to_offset(0)`),
  file('redact_contract', () => `SELECT redact_contract('00abc', 'hostile')`),
  file('redact_exercise', () => `SELECT * FROM redact_exercise('00abc', 'hostile')`),
  file('a private procedure called from SELECT', () => `select __update_watermark_fn()`),
  file('a private procedure, quoted', () => `SELECT "__delete_transactions_after"(0)`),
  file('CALL create_index_for_contract', () => `CALL create_index_for_contract('hostile_idx', 'x', 'payload', 'btree')`),
  // Large objects, files, programs.
  file('lo_from_bytea', () => `SELECT lo_from_bytea(0, '\\x41'::bytea)`),
  file('lo_import', () => `SELECT pg_catalog.lo_import('/etc/hostname')`),
  file('lo_export of a new large object', (t) => `SELECT lo_export(lo_from_bytea(0, 'x'), '${t.touched}')`),
  file('lo_create', () => `SELECT lo_create(0)`),
  file('pg_read_file', () => `SELECT pg_read_file('/etc/hostname')`),
  file('pg_read_binary_file', () => `SELECT pg_read_binary_file('PG_VERSION')`),
  file('pg_ls_dir', () => `SELECT * FROM pg_catalog.pg_ls_dir('.')`),
  file('pg_stat_file', () => `SELECT pg_stat_file('PG_VERSION')`),
  file('COPY TO PROGRAM', (t) => `COPY (select 1) TO PROGRAM 'touch ${t.touched}'`),
  file('COPY FROM PROGRAM into the watermark', (t) => `COPY ${t.watermark} FROM PROGRAM 'echo t'`),
  file('query_to_xml runs an update', (t) => `SELECT query_to_xml('${t.moveWatermark.replace(/'/g, "''")} RETURNING 1', true, false, '')`),
  file('query_to_xml runs COPY TO PROGRAM', (t) => `SELECT query_to_xml('copy (select 1) to program ''touch ${t.touched}''', true, false, '')`),
  file('cursor_to_xml', () => `SELECT cursor_to_xml('c', 1, false, false, '')`),
  file('ts_stat runs SQL text', (t) => `SELECT * FROM ts_stat('${t.moveWatermark.replace(/'/g, "''")} RETURNING ''a''::tsvector')`),
  file('dblink_exec', (t) => `SELECT dblink_exec('dbname=postgres', 'DROP TABLE ${t.watermark}')`),
  // Server processes, locks, sequences, notifications, replication.
  file('pg_terminate_backend of its own session', () => `SELECT pg_terminate_backend(pg_backend_pid())`),
  file('pg_cancel_backend', () => `SELECT pg_cancel_backend(pg_backend_pid())`),
  file('pg_reload_conf', () => `SELECT pg_reload_conf()`),
  file('pg_advisory_lock kept by the session', () => `SELECT pg_advisory_lock(4242)`),
  file('pg_try_advisory_lock_shared', () => `SELECT pg_try_advisory_lock_shared(4243)`),
  file('nextval', () => `SELECT nextval(c.oid) FROM pg_class c WHERE c.relkind = 'S'`),
  file('setval', () => `SELECT setval(c.oid, 999999) FROM pg_class c WHERE c.relkind = 'S'`),
  file('pg_notify', () => `SELECT pg_notify('hostile', 'x')`),
  file('pg_sleep', () => `SELECT pg_sleep(0.01)`),
  file('a replication slot', () => `SELECT pg_create_physical_replication_slot('hostile_slot')`, { onlyTheGuardStopsASuperuser: true }),
  file('a restore point in the WAL', () => `SELECT pg_create_restore_point('hostile')`),
  file('pg_stat_reset', () => `SELECT pg_stat_reset()`),
  // Writes inside a reading statement.
  file('SELECT INTO', (t) => `SELECT * INTO ${t.schema}.hostile FROM ${t.watermark}`),
  file('FOR UPDATE', (t) => `SELECT * FROM ${t.watermark} FOR UPDATE`),
  file('FOR NO KEY UPDATE', (t) => `SELECT * FROM ${t.watermark} FOR NO KEY UPDATE`),
  file('FOR KEY SHARE', (t) => `SELECT * FROM ${t.watermark} FOR KEY SHARE`),
  file('data-modifying WITH (DELETE)', (t) => `WITH d AS (DELETE FROM ${t.watermark} RETURNING *) SELECT * FROM d`),
  file('data-modifying WITH (UPDATE)', (t) => `WITH u AS (${t.moveWatermark} RETURNING 1) SELECT * FROM u`),
  file('EXPLAIN ANALYZE DELETE', (t) => `EXPLAIN ANALYZE DELETE FROM ${t.watermark}`),
  file('EXPLAIN (ANALYZE) UPDATE', (t) => `EXPLAIN (ANALYZE, BUFFERS) ${t.moveWatermark}`),
  // Reading starts followed by a session or transaction change.
  file('SHOW, then SET', () => `SHOW search_path; SET statement_timeout = 0`),
  file('VALUES, then RESET ALL', () => `VALUES (1); RESET ALL`),
  file('TABLE, then TRUNCATE', (t) => `TABLE ${t.watermark}; TRUNCATE ${t.watermark}`),
  file('BEGIN READ WRITE', () => `BEGIN READ WRITE`),
  file('SET SESSION CHARACTERISTICS', () => `SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE`),
  file('SET default_transaction_read_only', () => `SET default_transaction_read_only = off`),
  file('DO block', (t) => `DO $$BEGIN EXECUTE 'CREATE TABLE ${t.schema}.hostile (x int)'; END$$`),
  file('PREPARE a delete', (t) => `PREPARE hostile AS DELETE FROM ${t.watermark}`),
  file('LOCK TABLE', (t) => `LOCK TABLE ${t.watermark}`),
];
