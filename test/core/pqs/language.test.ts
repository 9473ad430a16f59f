/** The pure parts of PQS access: payload filters, the read-only statement guard, template names, settings. */
import { strict as assert } from 'node:assert';
import type { DataType } from '../../../src/core/daml/model';
import type { TypeLookup } from '../../../src/core/daml/packageIndex';
import { PqsError } from '../../../src/core/pqs/errors';
import { checkFilter, filterCondition, parsePayloadFilter, suggestedPayloadIndex } from '../../../src/core/pqs/filter';
import { pqsCompletions } from '../../../src/core/pqs/completions';
import { checkInterface, PQS_FUNCTIONS } from '../../../src/core/pqs/interface';
import { pqsNameOf, templateIdOfPqsName } from '../../../src/core/pqs/names';
import { describeSettings, parsePqsUrl } from '../../../src/core/pqs/settings';
import { assertReadOnlyStatement } from '../../../src/core/pqs/sqlGuard';
import { Redactor } from '../../../src/core/redact';

const PKG = 'a1'.repeat(32);
const builtin = (b: 'Party' | 'Numeric' | 'Text' | 'Optional' | 'List', ...args: never[]) => ({ kind: 'builtin' as const, builtin: b, args });
const LOCK: DataType = { kind: 'record', name: 'Lock', params: [], serializable: true, fields: [{ name: 'notary', type: builtin('Party') }] };
const IOU: DataType = {
  kind: 'record',
  name: 'Iou',
  params: [],
  serializable: true,
  fields: [
    { name: 'owner', type: builtin('Party') },
    { name: 'amount', type: { kind: 'builtin', builtin: 'Numeric', args: [{ kind: 'nat', value: 10 }] } },
    { name: 'lock', type: { kind: 'builtin', builtin: 'Optional', args: [{ kind: 'con', con: { packageId: PKG, moduleName: 'Iou', name: 'Lock' }, args: [] }] } },
  ],
};
const lookup: TypeLookup = { dataType: (n) => (n.name === 'Lock' ? LOCK : undefined), synonym: () => undefined };

function failsWith(run: () => unknown, kind: PqsError['kind']): PqsError {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof PqsError, String(err));
    assert.equal(err.kind, kind, err.message);
    return err;
  }
  assert.fail(`expected ${kind}`);
}

describe('PQS payload filters', () => {
  it('parses PATH OPERATOR VALUE, and says where a bad one goes wrong', () => {
    assert.deepEqual(parsePayloadFilter('wallet.holder = Alice::1220ab'), { path: ['wallet', 'holder'], op: '=', value: 'Alice::1220ab', numeric: false });
    assert.deepEqual(parsePayloadFilter('amount>=1000'), { path: ['amount'], op: '>=', value: '1000', numeric: true });
    assert.equal(failsWith(() => parsePayloadFilter('=x'), 'bad-filter').position, 0);
    assert.equal(failsWith(() => parsePayloadFilter('amount 1000'), 'bad-filter').position, 6);
    failsWith(() => parsePayloadFilter('owner>Alice'), 'bad-filter');
  });

  it('puts the path and value in parameters; only the operator comes from a fixed table', () => {
    const f = parsePayloadFilter("owner=x'; DROP TABLE t; --");
    const c = filterCondition('a', f, 5);
    assert.equal(c.sql, 'a.payload #>> $5::text[] = $6::text');
    assert.deepEqual(c.params, [['owner'], "x'; DROP TABLE t; --"]);
    assert.ok(!c.sql.includes('DROP'));
    assert.equal(filterCondition('a', { ...parsePayloadFilter('amount>5') }, 1).sql, '(a.payload #>> $1::text[])::numeric > $2::numeric');
  });

  it('checks the path against the template’s fields before sending: the missing field at its position', () => {
    const e = failsWith(() => checkFilter('lock.notry=Bob', parsePayloadFilter('lock.notry=Bob'), IOU, lookup, 'Iou:Iou'), 'bad-filter');
    assert.equal(e.position, 5);
    assert.match(e.message, /its fields: notary/);
    failsWith(() => checkFilter('colour=red', parsePayloadFilter('colour=red'), IOU, lookup, 'Iou:Iou'), 'bad-filter');
    assert.equal(checkFilter('lock.notary=Bob', parsePayloadFilter('lock.notary=Bob'), IOU, lookup, 'Iou:Iou').numeric, false);
    // A Numeric compares as a number even for equality (its JSON is "1000.0000000000").
    assert.equal(checkFilter('amount=1000', parsePayloadFilter('amount=1000'), IOU, lookup, 'Iou:Iou').numeric, true);
    failsWith(() => checkFilter('owner>=3', parsePayloadFilter('owner>=3'), IOU, lookup, 'Iou:Iou'), 'bad-filter');
    failsWith(() => checkFilter('amount=lots', parsePayloadFilter('amount=lots'), IOU, lookup, 'Iou:Iou'), 'bad-filter');
  });

  it('suggests the payload index over the query’s own expression, casts included, named once; none for a substring', () => {
    assert.deepEqual(suggestedPayloadIndex("demo-iou:Iou:Iou", parsePayloadFilter('owner=x')), {
      sql: "call create_index_for_contract('iou_owner', 'demo-iou:Iou:Iou', '(payload #>> ''{\"owner\"}''::text[])', 'btree');",
      expression: `(payload #>> '{"owner"}'::text[])`,
    });
    const numeric = suggestedPayloadIndex("demo-iou:Iou:Iou", { ...parsePayloadFilter('amount>=1000'), numeric: true });
    assert.ok('sql' in numeric && numeric.expression === `((payload #>> '{"amount"}'::text[])::numeric)`);
    assert.ok('none' in suggestedPayloadIndex("demo-iou:Iou:Iou", parsePayloadFilter('owner~bob')));
  });
});

describe('PQS read-only statements', () => {
  it('lets reads through', () => {
    for (const sql of ['SELECT * FROM active()', "with x as (select 1) select * from x -- delete\n", 'EXPLAIN ANALYZE SELECT 1', "SELECT 'insert into t' AS s;", 'select $$drop$$', 'TABLE transactions', '/* update */ values (1)']) {
      assertReadOnlyStatement(sql);
    }
  });

  it('refuses writes, session changes and a second statement, at their position', () => {
    assert.equal(failsWith(() => assertReadOnlyStatement('\n  DELETE FROM x'), 'write-refused').position, 3);
    assert.equal(failsWith(() => assertReadOnlyStatement('WITH d AS (DELETE FROM x RETURNING *) SELECT * FROM d'), 'write-refused').position, 11);
    failsWith(() => assertReadOnlyStatement('SELECT * INTO copy FROM active()'), 'write-refused');
    failsWith(() => assertReadOnlyStatement('SELECT * FROM active() FOR UPDATE'), 'write-refused');
    failsWith(() => assertReadOnlyStatement('SELECT set_latest(5)'), 'write-refused');
    failsWith(() => assertReadOnlyStatement('SELECT 1; DROP TABLE x'), 'write-refused');
    failsWith(() => assertReadOnlyStatement('-- nothing\n'), 'write-refused');
  });
});

describe('PQS names, settings and interface check', () => {
  it('maps template ids to PQS names in one place', () => {
    assert.equal(pqsNameOf('#demo-iou:Iou:Iou'), 'demo-iou:Iou:Iou');
    assert.equal(pqsNameOf(`${PKG}:Iou:Iou`), 'Iou:Iou');
    assert.equal(pqsNameOf(`${PKG}:Iou:Iou`, () => 'demo-iou'), 'demo-iou:Iou:Iou');
    assert.equal(pqsNameOf('demo-iou:Iou:Iou'), 'demo-iou:Iou:Iou');
    assert.equal(pqsNameOf('Iou:Iou'), 'Iou:Iou');
    assert.equal(templateIdOfPqsName('demo-iou:Iou:Iou'), '#demo-iou:Iou:Iou');
  });

  it('reads a URL with the password apart, and the redactor masks it in a connection string', () => {
    const { settings, password } = parsePqsUrl('postgresql://reader:s3cret-pw@db.example:6543/ledger?schema=pqs&sslmode=require');
    assert.equal(password, 's3cret-pw');
    assert.equal(describeSettings(settings), 'postgresql://reader@db.example:6543/ledger?schema=pqs&sslmode=require');
    failsWith(() => parsePqsUrl('postgresql://u@h/db?schema=a;b'), 'bad-settings');
    failsWith(() => parsePqsUrl('postgresql://u@h/db?sslmode=sometimes'), 'bad-settings');
    const r = new Redactor();
    assert.ok(!r.redact('connecting to postgresql://reader:s3cret-pw@db.example/ledger').includes('s3cret-pw'));
    assert.ok(!r.redact('host=db user=reader password=s3cret-pw').includes('s3cret-pw'));
  });

  it('calls a store newer when it has result columns the module does not know', () => {
    const catalog = Object.entries(PQS_FUNCTIONS).map(([name, columns]) => ({ name, columns: [...columns] }));
    assert.equal(checkInterface(catalog).verdict, 'same');
    catalog.find((f) => f.name === 'active')!.columns.push('wholly_new_column');
    assert.deepEqual(checkInterface(catalog).extra, ['active.wholly_new_column']);
    assert.equal(checkInterface(catalog).verdict, 'newer');
    assert.equal(checkInterface([]).verdict, 'none');
  });
});

describe('PQS completions', () => {
  it('offer the public functions with signatures, the store\'s template names quoted, and the packages\' payload fields', () => {
    const packages = { ...lookup, templatesByPackageName: () => [{ fields: IOU, packageName: 'demo-iou', name: { moduleName: 'Iou', name: 'Iou' } }] };
    const items = pqsCompletions(["demo-iou:Iou:Iou", "o'brien:M:T"], packages);
    const active = items.find((i) => i.label === 'active')!;
    // PQS's own argument names (qname, "offset"), as its schema declares them.
    assert.equal(active.detail, 'active(qname text DEFAULT NULL, "offset" bigint DEFAULT latest_offset()) → SETOF contract');
    assert.equal(active.insertText, 'active(');
    assert.ok(items.some((i) => i.kind === 'template' && i.insertText === "'demo-iou:Iou:Iou'"));
    assert.ok(items.some((i) => i.kind === 'template' && i.insertText === "'o''brien:M:T'"));
    const amount = items.find((i) => i.kind === 'field' && i.label === 'amount')!;
    assert.equal(amount.insertText, "payload->>'amount'");
    assert.match(amount.detail, /demo-iou:Iou:Iou/);
  });
});
