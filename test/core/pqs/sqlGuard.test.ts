/** The read-only guard of `*.pqs.sql` files: PostgreSQL's token forms, reads it lets through, the hostile corpus refused at its position. */
import { strict as assert } from 'node:assert';
import { PqsError } from '../../../src/core/pqs/errors';
import { assertReadOnlyStatement, sqlTokens, where } from '../../../src/core/pqs/sqlGuard';
import { HOSTILE_FILES, type HostileTarget } from './hostileCorpus';

const tokens = (sql: string) => sqlTokens(sql).map((t) => `${t.kind}:${t.value}`);

function refused(sql: string): PqsError {
  try {
    assertReadOnlyStatement(sql);
  } catch (err) {
    assert.ok(err instanceof PqsError, String(err));
    assert.equal(err.kind, 'write-refused', err.message);
    return err;
  }
  assert.fail(`passed the guard: ${JSON.stringify(sql)}`);
}

describe('PQS SQL tokens (as PostgreSQL’s lexer splits them)', () => {
  it('reads every string form: doubled quotes, E-strings with backslash escapes, U&, B/X/N, dollar quotes with digits in the tag', () => {
    assert.deepEqual(tokens("'it''s'"), ["string:it's"]);
    assert.deepEqual(tokens("E'\\''"), ["string:\\'"]);
    assert.deepEqual(tokens("e'\\\\' x"), ['string:\\\\', 'word:x']);
    assert.deepEqual(tokens("'\\' x"), ['string:\\', 'word:x'], 'a backslash in a standard string is a backslash');
    assert.deepEqual(tokens("U&'\\0041' UESCAPE '!'"), ['string:\\0041']);
    assert.deepEqual(tokens("B'101' X'1f' N'n'"), ['string:101', 'string:1f', 'string:n']);
    assert.deepEqual(tokens('$a1$ $$ it\'s $a1$ $$x$$'), ["string: $$ it's ", 'string:x']);
    assert.deepEqual(tokens('$_$a$_$'), ['string:a']);
  });

  it('reads identifiers: folded when bare, kept and unescaped when quoted, U& escapes decoded (UESCAPE too)', () => {
    assert.deepEqual(tokens('Set_Config a$b'), ['word:set_config', 'word:a$b']);
    assert.deepEqual(tokens('"Set""x"'), ['quoted-identifier:Set"x']);
    assert.deepEqual(tokens('U&"set\\005fconfig"'), ['quoted-identifier:set_config']);
    assert.deepEqual(tokens('u&"d!0061t!+000061" UESCAPE \'!\''), ['quoted-identifier:data']);
    assert.deepEqual(tokens('pg_catalog/**/."set_config"'), ['word:pg_catalog', 'punctuation:.', 'quoted-identifier:set_config']);
  });

  it('reads comments as PostgreSQL does: nested block comments, line comments ended by \\n or \\r, none inside an operator', () => {
    assert.deepEqual(tokens('a /* x /* y */ z */ b'), ['word:a', 'word:b']);
    assert.deepEqual(tokens('a -- x\rb'), ['word:a', 'word:b']);
    assert.deepEqual(tokens('1--2'), ['number:1']);
    assert.deepEqual(tokens('a +/* c */b'), ['word:a', 'operator:+', 'word:b']);
  });

  it('reads parameters, casts, operators and numbers', () => {
    assert.deepEqual(tokens("$1::text || payload #>> '{a}' >= 1.5e3"), ['parameter:$1', 'operator:::', 'word:text', 'operator:||', 'word:payload', 'operator:#>>', 'string:{a}', 'operator:>=', 'number:1.5e3']);
    assert.deepEqual(tokens('a[1:2]'), ['word:a', 'punctuation:[', 'number:1', 'punctuation::', 'number:2', 'punctuation:]']);
  });

  it('refuses what is not closed (a string, a quoted name, a dollar quote, a comment), where it starts', () => {
    assert.equal(refused("SELECT 'x").position, 7);
    assert.equal(refused('SELECT "x').position, 7);
    assert.equal(refused('SELECT $q$ x $Q$').position, 7);
    assert.equal(refused('SELECT 1 /* /* */').position, 9);
    assert.equal(refused("SELECT E'\\'").position, 7);
  });
});

describe('PQS read-only guard', () => {
  it('lets reads through, and says what kind of reading each is (without the trailing ; and comments)', () => {
    const reads: [string, 'query' | 'explain' | 'show', string][] = [
      ["select * from active('Iou:Iou') where payload->>'owner' = 'Alice'", 'query', "select * from active('Iou:Iou') where payload->>'owner' = 'Alice'"],
      ["SELECT E'it\\'s; not a statement'; -- done", 'query', "SELECT E'it\\'s; not a statement'"],
      ['select $tag1$drop table x; commit$tag1$;\n/* trailing */\n', 'query', 'select $tag1$drop table x; commit$tag1$'],
      ["SELECT U&'d\\0061t\\+000061'", 'query', "SELECT U&'d\\0061t\\+000061'"],
      ['with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) select * from r', 'query', 'with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) select * from r'],
      ['TABLE transactions', 'query', 'TABLE transactions'],
      ['values (1, \'set\')', 'query', "values (1, 'set')"],
      ['select * from __contracts', 'query', 'select * from __contracts'],
      ['select "comment", "set" from "active"()', 'query', 'select "comment", "set" from "active"()'],
      ['EXPLAIN (ANALYZE, FORMAT JSON) SELECT * FROM active()', 'explain', 'EXPLAIN (ANALYZE, FORMAT JSON) SELECT * FROM active()'],
      ['explain analyze verbose select 1', 'explain', 'explain analyze verbose select 1'],
      ['SHOW search_path;', 'show', 'SHOW search_path'],
      ["-- a note\nSELECT substring('abc' FROM 1 FOR 2)", 'query', "-- a note\nSELECT substring('abc' FROM 1 FOR 2)"],
    ];
    for (const [sql, kind, text] of reads) assert.deepEqual(assertReadOnlyStatement(sql), { kind, text }, sql);
  });

  it('refuses PQS’s and PostgreSQL’s writing functions by name, bare or quoted, any case, qualified or not; a private procedure only when called', () => {
    for (const sql of [
      'select "set_config"(\'a\', \'b\', false)',
      'select pg_catalog."set_config"(\'a\', \'b\', false)',
      'select "PG_CATALOG"."SET_CONFIG"(\'a\', \'b\', false)',
      'select * from prune_archived_to_offset(1)',
      'select * from "pqs"."Prune_To_Offset"(1)',
      'select "__update_watermark_fn"()',
      'select * from pqs.__delete_transactions_before (0)',
      'select lo_unlink(1)',
      'select pg_advisory_xact_lock(1)',
      'select pg_sleep_for(\'1 s\')',
      'select * from dblink(\'x\', \'y\') as t(a int)',
      'select query_to_xml_and_xmlschema(\'x\', true, false, \'\')',
      'select pg_logical_emit_message(true, \'a\', \'b\')',
      'select pg_drop_replication_slot(\'s\')',
      'select brin_summarize_new_values(\'i\')',
    ]) {
      refused(sql);
    }
    // A private table is read like any other.
    assertReadOnlyStatement('select count(*) from __contracts c where c.tpe_pk = 1');
  });

  it('names what it refuses and where (line and column)', () => {
    const e = refused("select 1\nfrom t\nwhere nextval('s') > 0");
    assert.equal(e.position, 22);
    assert.match(e.message, /nextval at line 3, column 7/);
    const second = refused('SELECT 1;\n  DELETE FROM x');
    assert.match(second.message, /line 2, column 3/);
    assert.equal(where('a\r\nb', 3), 'line 2, column 1');
  });

  it(`refuses every file of the hostile corpus (${HOSTILE_FILES.length} files), at a position inside the file`, () => {
    assert.ok(HOSTILE_FILES.length >= 50);
    for (const target of [
      { schema: '"pqs"', watermark: '"pqs".__watermark', moveWatermark: 'UPDATE "pqs".__watermark SET "offset" = 0', touched: '/tmp/pqs-hostile' },
      { schema: '"pqs"', watermark: '"pqs"._watermark', moveWatermark: 'UPDATE "pqs"._watermark SET latest = 0', touched: '/tmp/pqs-hostile' },
    ] satisfies HostileTarget[]) {
      for (const f of HOSTILE_FILES) {
        const sql = f.sql(target);
        const e = refused(sql);
        assert.ok(e.position !== undefined && e.position >= 0 && e.position < sql.length, `${f.name}: position ${e.position}`);
        assert.match(e.message, /line \d+, column \d+/, f.name);
      }
    }
  });
});
