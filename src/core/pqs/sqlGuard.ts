/**
 * Only reads go to PQS. A statement is looked at before it is sent (comments and quoted text set
 * aside): one statement, starting with a reading keyword, with no writing keyword anywhere (a
 * data-modifying `WITH`, `SELECT … INTO`, `FOR UPDATE` locks, `COPY`). The read-only session refuses a
 * write again on the server, so this check is the early, positioned answer, not the only guard.
 */
import { PqsError } from './errors';

const READING_START = new Set(['select', 'with', 'explain', 'show', 'values', 'table']);
const WRITING_WORDS = new Set([
  'insert', 'update', 'delete', 'merge', 'truncate', 'drop', 'alter', 'create', 'grant', 'revoke', 'copy', 'call',
  'do', 'vacuum', 'analyze', 'cluster', 'reindex', 'comment', 'lock', 'refresh', 'into', 'set', 'reset', 'discard',
  'listen', 'notify', 'prepare', 'execute', 'begin', 'commit', 'rollback', 'savepoint', 'security', 'import',
  // PQS's own session-changing functions: a pooled session would keep what they set.
  'set_latest', 'set_oldest', 'set_config',
]);

interface Token {
  word: string;
  at: number;
}

/** The words of the statement outside comments, quoted strings, quoted identifiers and dollar quotes. */
function words(sql: string): { words: Token[]; semicolons: number[] } {
  const out: Token[] = [];
  const semicolons: number[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < sql.length && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') (depth++, (i += 2));
        else if (sql[i] === '*' && sql[i + 1] === '/') (depth--, (i += 2));
        else i++;
      }
    } else if (c === "'" || c === '"') {
      i++;
      while (i < sql.length) {
        if (sql[i] === c && sql[i + 1] === c) i += 2;
        else if (sql[i] === c) break;
        else i++;
      }
      i++;
    } else if (c === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length);
        i = end < 0 ? sql.length : end + tag.length;
      } else i++;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i))![0];
      out.push({ word: m.toLowerCase(), at: i });
      i += m.length;
    } else {
      if (c === ';') semicolons.push(i);
      i++;
    }
  }
  return { words: out, semicolons };
}

/** Throws `write-refused` (with the position of the offending word) unless the text is one reading statement. */
export function assertReadOnlyStatement(sql: string): void {
  const { words: ws, semicolons } = words(sql);
  if (ws.length === 0) throw new PqsError('write-refused', 'The file holds no statement', undefined, 0);
  const lastWord = ws[ws.length - 1].at;
  const extra = semicolons.find((p) => p < lastWord);
  if (extra !== undefined) throw new PqsError('write-refused', `One statement at a time: a second one starts after the ";" at ${where(sql, extra)}`, undefined, extra);
  const first = ws[0];
  if (!READING_START.has(first.word)) throw new PqsError('write-refused', `"${first.word.toUpperCase()}" at ${where(sql, first.at)} is not a reading statement; only reads are sent to PQS`, undefined, first.at);
  for (let k = 1; k < ws.length; k++) {
    const w = ws[k];
    // `FOR UPDATE` / `FOR SHARE` take row locks (a write in a read-only session).
    const lock = w.word === 'for' && ['update', 'share', 'no', 'key'].includes(ws[k + 1]?.word ?? '');
    // EXPLAIN's own options (ANALYZE runs the statement, which is then checked like any other).
    const explainOption = first.word === 'explain' && w.word === 'analyze' && k === 1;
    if ((WRITING_WORDS.has(w.word) && !explainOption) || lock) {
      throw new PqsError('write-refused', `"${w.word.toUpperCase()}" at ${where(sql, w.at)} would write or change the session; only reads are sent to PQS`, undefined, w.at);
    }
  }
}

/** `line L, column C` (1-based) of a character position. */
export function where(text: string, position: number): string {
  const before = text.slice(0, position).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}
