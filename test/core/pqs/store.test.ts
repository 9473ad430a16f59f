/**
 * The PQS store against a real PostgreSQL (a throw-away cluster) filled by the demo participant's
 * mirror: the public functions read through the one query module, keyset pages at a pinned offset,
 * payload filters as parameters, a contract's history, and the faults (wrong password, TLS required,
 * server gone mid-query, statement timeout, Cancel, writes).
 */
import { strict as assert } from 'node:assert';
import { PqsError } from '../../../src/core/pqs/errors';
import { parsePayloadFilter, suggestedPayloadIndex } from '../../../src/core/pqs/filter';
import { queries, type Query } from '../../../src/core/pqs/interface';
import { PqsStore } from '../../../src/core/pqs/store';
import { asAdmin, freePort, freshDatabase, postgresAvailable } from '../../support/postgres';
import { loadSyntheticStore, SYNTHETIC_INTERFACE, SYNTHETIC_TEMPLATE } from '../../support/pqsSynthetic';
import { pqsSchemaDumpAvailable } from '../../support/pqsReal';
import { mirroredDemo, pgDriver, READER_PASSWORD, stopPostgresAfterRun, storeKinds, TLS_ONLY, type MirroredDemo } from '../../support/pqsFixture';
import { rejectsWith } from '../../support/pqsAssert';
import { waitFor } from '../../support/waitFor';

stopPostgresAfterRun();

/** A read that runs for minutes (pg_sleep is refused by the guard): a set-returning function streamed into count(*). */
const LONG_QUERY = 'SELECT count(*) FROM (SELECT generate_series(1, 1000000000000)) AS s';
/** What pg_stat_activity shows while a `*.pqs.sql` query runs: the FETCH from its cursor. */
const RUNNING = 'FETCH FORWARD%canton_ledger_rows';


for (const kind of storeKinds()) (postgresAvailable() ? describe : describe.skip)(`PQS store on ${kind === 'real' ? 'PQS’s own schema' : 'the demo mirror'}, filled from the demo participant’s ledger`, function () {
  this.timeout(60_000);
  let demo: MirroredDemo;
  let store: PqsStore;

  before(async () => {
    demo = await mirroredDemo('store', 30_000, kind);
    store = new PqsStore(demo.settings, async () => READER_PASSWORD, pgDriver);
  });
  after(async () => {
    await store?.dispose();
    await demo?.close();
  });

  it('detects the interface version at connect from the composite types PQS’s functions return, and the watermark is the ledger end', async () => {
    const check = await store.connect();
    assert.deepEqual({ verdict: check.verdict, missing: check.missing, extra: check.extra, multiSynchronizer: check.multiSynchronizer }, { verdict: 'same', missing: [], extra: [], multiSynchronizer: false });
    const w = await store.watermark();
    assert.equal(w.latest, demo.participant.state.ledgerEnd);
    // Never pruned: PQS answers NULL.
    assert.equal(w.pruned, undefined);
  });

  it('counts active contracts per template, and apart each interface’s views (summary_active), as the ledger has them', async () => {
    const end = demo.participant.state.ledgerEnd;
    const counts = await store.summary(end);
    const expected = new Map<string, number>();
    const add = (key: string) => expected.set(key, (expected.get(key) ?? 0) + 1);
    for (const c of demo.participant.state.contracts.values()) {
      if (c.archivedOffset !== undefined) continue;
      add(`template ${c.template.nameKey}`);
      for (const i of c.template.interfaces) {
        const iface = demo.participant.state.packages.interface(i.interfaceId)!;
        if (i.view) add(`interface ${iface.pkg.name}:${iface.moduleName}:${iface.entityName}`);
      }
    }
    assert.ok(expected.has('interface demo-holding:Holding:Holding'), 'the ledger has Holding views');
    assert.deepEqual(new Map(counts.map((c) => [`${c.payloadType} ${c.name}`, c.count])), expected);
  });

  it('pages a template’s active contracts at a pinned offset by keyset: every row once, in key order', async () => {
    const pinned = demo.participant.state.ledgerEnd;
    const expected = [...demo.participant.state.contracts.values()].filter((c) => c.template.nameKey === 'demo-iou:Iou:Iou' && c.archivedOffset === undefined).map((c) => c.contractId);
    const pages = store.activeContracts('Iou:Iou', pinned, [], 4);
    await pages.loadMore();
    await pages.loadAtLeast(1000);
    assert.ok(pages.complete);
    assert.deepEqual(new Set(pages.items.map((c) => c.contractId)), new Set(expected));
    const keys = pages.items.map((c) => c.createEventPk!);
    assert.deepEqual(keys, [...keys].sort((a, b) => a - b), 'keyset order');
    assert.equal(new Set(keys).size, keys.length, 'no row twice across pages');
  });

  it('reads at an earlier offset: what was active then, archived since', async () => {
    const early = 6;
    const pages = store.activeContracts('demo-iou:Iou:Iou', early, [], 100);
    await pages.loadAtLeast(1000);
    const expected = [...demo.participant.state.contracts.values()]
      .filter((c) => c.template.nameKey === 'demo-iou:Iou:Iou' && c.createdOffset <= early && (c.archivedOffset === undefined || c.archivedOffset > early))
      .map((c) => c.contractId);
    assert.ok(expected.length > 0);
    assert.deepEqual(new Set(pages.items.map((c) => c.contractId)), new Set(expected));
  });

  it('filters on the payload with the path and value as parameters (numbers compare as numbers)', async () => {
    const end = demo.participant.state.ledgerEnd;
    const pages = store.activeContracts('Iou', end, [{ ...parsePayloadFilter('amount>=300'), numeric: true }, parsePayloadFilter('currency=USD')], 100);
    await pages.loadAtLeast(1000);
    const expected = [...demo.participant.state.contracts.values()]
      .filter((c) => c.template.entityName === 'Iou' && c.archivedOffset === undefined)
      .filter((c) => Number((c.argument as { amount: string }).amount) >= 300 && (c.argument as { currency: string }).currency === 'USD');
    assert.ok(expected.length > 0);
    assert.deepEqual(new Set(pages.items.map((c) => c.contractId)), new Set(expected.map((c) => c.contractId)));
  });

  it('SQL injection in every filter field finds nothing and changes nothing', async () => {
    const end = demo.participant.state.ledgerEnd;
    const before = await store.summary(end);
    const value = await store.activeContracts('Iou', end, [parsePayloadFilter("currency=USD' OR '1'='1")], 100).loadMore();
    assert.equal(value, 0);
    // A name is a parameter: PQS looks it up among its types, finds none, and says so.
    await rejectsWith(store.activeContracts("Iou'); DROP SCHEMA pqs CASCADE; --", end, [], 100).loadMore(), 'unknown-template');
    assert.throws(() => parsePayloadFilter("amount); DROP TABLE x; --=1"), (e: unknown) => e instanceof PqsError && e.kind === 'bad-filter');
    assert.equal(await store.history("x' OR 1=1 --"), undefined);
    assert.deepEqual(await store.summary(end), before);
  });

  it('a contract’s history: create, exercises, archive, each with its transaction id', async () => {
    // An Iou: PQS holds its template payload and its Holding view, and must name it by its template.
    const archived = [...demo.participant.state.contracts.values()].find((c) => c.archivedOffset !== undefined && c.template.entityName === 'Iou')!;
    const h = (await store.history(archived.contractId))!;
    assert.equal(h.templateFqn, 'demo-iou:Iou:Iou');
    assert.deepEqual(h.payload, archived.argument);
    assert.deepEqual(h.interfaceViews.map((v) => v.interfaceFqn), ['demo-holding:Holding:Holding']);
    const consuming = h.entries.find((e) => e.kind === 'exercise' && e.consuming)!;
    assert.ok(consuming.controllers!.length > 0, 'the exercise names its controllers');
    assert.equal(h.entries[0].kind, 'create');
    assert.equal(h.entries[0].offset, archived.createdOffset);
    const last = h.entries[h.entries.length - 1];
    assert.equal(last.kind, 'archive');
    assert.equal(last.offset, archived.archivedOffset);
    assert.ok(h.entries.some((e) => e.kind === 'exercise' && e.consuming));
    const tx = demo.participant.state.entries.find((e) => e.kind === 'transaction' && e.offset === archived.createdOffset) as { updateId: string };
    assert.equal(h.entries[0].transactionId, tx.updateId);
    assert.equal(await store.history('00no-such-contract'), undefined);
  });

  it('PQS’s own refusals come back as their kinds, with PQS’s message: an unknown name, an offset outside the store', async () => {
    const end = demo.participant.state.ledgerEnd;
    const unknown = await rejectsWith(store.activeContracts('Nope', end, [], 10).loadMore(), 'unknown-template');
    assert.match(unknown.message, /Nope/);
    const after = await rejectsWith(store.activeContracts('Iou', end + 1000, [], 10).loadMore(), 'offset-out-of-range');
    assert.match(after.message, new RegExp(String(end + 1000)));
    await rejectsWith(store.summary(end + 1000), 'offset-out-of-range');
  });

  it('"as of a time" goes through nearest_offset', async () => {
    const tx = demo.participant.state.entries.find((e) => e.kind === 'transaction' && e.offset === 6) as { effectiveAt: number };
    // Microseconds rounded up to the millisecond: at or just after the update's effective time.
    const at = new Date(Math.ceil(tx.effectiveAt / 1000)).toISOString();
    assert.equal(await store.nearestOffset(at), 6);
    assert.equal(await store.nearestOffset('1970-01-01T00:00:00Z'), undefined);
  });

  it('follows the ledger: a new create is in the store once mirrored', async () => {
    const before = (await store.watermark()).latest!;
    const iou = [...demo.participant.state.contracts.values()].find((c) => c.template.entityName === 'Iou' && c.archivedOffset === undefined)!;
    await fetch(`${demo.participant.url}/v2/commands/submit-and-wait`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { ...(iou.argument as object), amount: '4242.0' } } }],
        commandId: 'pqs-follow',
        actAs: [(iou.argument as { issuer: string }).issuer],
        userId: 'demo-admin',
      }),
    }).then((r) => assert.equal(r.status, 200));
    await demo.synced();
    const w = await store.watermark();
    assert.ok(w.latest! > before);
    const found = store.activeContracts('Iou', w.latest!, [{ path: ['amount'], op: '=', value: '4242', numeric: true }], 10);
    assert.equal(await found.loadMore(), 1);
  });

  it('refuses a write before sending it, and the read-only session refuses one that gets through', async () => {
    const refused = await rejectsWith(store.runSql("SELECT 1;\nDELETE FROM pqs.__contracts"), 'write-refused');
    assert.ok(refused.position !== undefined);
    await rejectsWith(store.runSql('INSERT INTO pqs.__watermark VALUES (true)'), 'write-refused');
    // nextval writes: the guard refuses it by name, and past the guard the server's read-only
    // transaction does (even for the store's owner, who may write to it otherwise).
    await rejectsWith(store.runSql("SELECT nextval(c.oid) FROM pg_class c WHERE c.relkind = 'S'"), 'write-refused');
    const owner = new PqsStore({ ...demo.settings, user: demo.cluster.user }, async () => demo.cluster.password, pgDriver);
    await rejectsWith(owner.query({ text: "SELECT nextval(c.oid) FROM pg_class c WHERE c.relkind = 'S' AND c.relnamespace = 'pqs'::regnamespace", values: [] }), 'read-only').finally(() => owner.dispose());
    const ok = await store.runSql('SELECT template_fqn, payload_type, count FROM summary_active() ORDER BY template_fqn');
    assert.deepEqual(ok.columns.map((c) => c.name), ['template_fqn', 'payload_type', 'count']);
    assert.ok(ok.rows.length >= 2);
    const plan = await store.runSql('SELECT * FROM active()', {}, { explain: true });
    assert.equal(plan.columns[0].name, 'QUERY PLAN');
  });

  it('a query past the statement_timeout is a timeout; the deadline cancels too', async () => {
    const short = new PqsStore({ ...demo.settings, statementTimeoutMs: 200 }, async () => READER_PASSWORD, pgDriver);
    try {
      await rejectsWith(short.runSql(LONG_QUERY), 'timeout');
    } finally {
      await short.dispose();
    }
    await rejectsWith(store.runSql(LONG_QUERY, { timeoutMs: 300 }), 'timeout');
  });

  it('Cancel stops the query on the server (pg_cancel_backend), not only the wait', async () => {
    const controller = new AbortController();
    const running = store.runSql(LONG_QUERY, { signal: controller.signal });
    await waitFor(async () => (await activeQueries(demo, RUNNING)) === 1);
    controller.abort();
    await rejectsWith(running, 'cancelled');
    await waitFor(async () => (await activeQueries(demo, RUNNING)) === 0);
    // The pool is still good afterwards.
    assert.equal((await store.runSql('SELECT 1 AS one')).rows[0][0], 1);
  });

  it('the server gone mid-query is connection-lost, and the next query works again', async () => {
    const running = store.runSql(LONG_QUERY);
    await waitFor(async () => (await activeQueries(demo, RUNNING)) === 1);
    await asAdmin(demo.cluster, demo.database, (c) => c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%canton_ledger_rows%' AND pid <> pg_backend_pid()`));
    await rejectsWith(running, 'connection-lost');
    assert.equal((await store.runSql('SELECT 2 AS two')).rows[0][0], 2);
  });

  it('a wrong password is auth; a server that wants TLS is tls-required; nothing listening is unreachable', async () => {
    const wrong = new PqsStore(demo.settings, async () => 'not-the-password', pgDriver);
    await rejectsWith(wrong.connect(), 'auth').finally(() => wrong.dispose());
    const tls = new PqsStore({ ...demo.settings, user: TLS_ONLY }, async () => READER_PASSWORD, pgDriver);
    await rejectsWith(tls.connect(), 'tls-required').finally(() => tls.dispose());
    // A port just given up by the system: nothing listens on it (a fixed port may be taken on a shared machine).
    const none = new PqsStore({ ...demo.settings, port: await freePort() }, async () => READER_PASSWORD, pgDriver);
    await rejectsWith(none.connect(), 'unreachable').finally(() => none.dispose());
  });

  it('names a store older than the query module (a function or column missing), and a database without PQS', async () => {
    await asAdmin(demo.cluster, demo.database, async (c) => {
      await c.query('CREATE SCHEMA older');
      await c.query('CREATE FUNCTION older.latest_offset() RETURNS bigint LANGUAGE sql AS $$ SELECT 1::bigint $$');
      await c.query('CREATE FUNCTION older.summary_active(at_offset bigint DEFAULT NULL) RETURNS TABLE (name text, total bigint) LANGUAGE sql AS $$ SELECT NULL::text, 0::bigint $$');
      await c.query('CREATE SCHEMA empty');
    });
    const older = new PqsStore({ ...demo.settings, schema: 'older' }, async () => READER_PASSWORD, pgDriver);
    const check = await older.connect().finally(() => older.dispose());
    assert.equal(check.verdict, 'older');
    assert.ok(check.missing.includes('active'));
    assert.ok(check.missing.includes('summary_active.count'));
    assert.ok(check.extra.includes('summary_active.total'));
    const empty = new PqsStore({ ...demo.settings, schema: 'empty' }, async () => READER_PASSWORD, pgDriver);
    await rejectsWith(empty.connect(), 'not-pqs').finally(() => empty.dispose());
  });
});

async function activeQueries(demo: MirroredDemo, marker: string): Promise<number> {
  return asAdmin(demo.cluster, demo.database, async (c) => {
    const r = await c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()`, [`%${marker}%`]);
    return r.rows[0].n as number;
  });
}


/** At least the 200k active contracts of a real store (each with its interface view row, as PQS keeps them). */
const SCALE = 200_000;

(postgresAvailable() && pqsSchemaDumpAvailable() ? describe : describe.skip)(`PQS store at scale, on PQS’s own schema (${SCALE} active contracts): the plan of a keyset page`, function () {
  this.timeout(300_000);
  let store: PqsStore;
  let cluster: Awaited<ReturnType<typeof freshDatabase>>['cluster'];
  let database: string;
  /** The plan of a store query as the store runs it (its planner settings in its own transaction). */
  const explain = (q: Query) =>
    asAdmin(cluster, database, async (c) => {
      await c.query('BEGIN READ ONLY');
      try {
        await c.query('SET LOCAL search_path = pqs');
        for (const [name, value] of Object.entries(q.planner ?? {})) await c.query(`SET LOCAL ${name} = ${value}`);
        return (await c.query(`EXPLAIN ${q.text}`, q.values)).rows.map((r) => r['QUERY PLAN'] as string).join('\n');
      } finally {
        await c.query('ROLLBACK');
      }
    });

  before(async () => {
    ({ cluster, database } = await freshDatabase('scale'));
    await asAdmin(cluster, database, (c) => loadSyntheticStore(c, 'pqs', SCALE, 100));
    store = new PqsStore({ host: cluster.host, port: cluster.port, database, user: cluster.user, schema: 'pqs', sslmode: 'disable', statementTimeoutMs: 60_000 }, async () => cluster.password, pgDriver);
    await store.connect();
  });
  after(() => store?.dispose());

  it('reads page 1,000 from the btree where the cursor points: no sort, no bitmap over the template’s partition', async () => {
    const at = (await store.watermark()).latest!;
    const pages = store.activeContracts(SYNTHETIC_TEMPLATE, at, [], 50);
    await pages.loadAtLeast(50 * 1000);
    const keys = pages.items.map((c) => c.createEventPk!);
    assert.equal(keys.length, 50 * 1000);
    assert.ok(keys.every((k, i) => i === 0 || k > keys[i - 1]), 'keyset order, no row twice');
    // Every third contract was archived: the active ones are the others, in order.
    assert.deepEqual(keys.slice(0, 4), [1, 2, 4, 5]);
    assert.ok(pages.items.every((c) => c.templateFqn === SYNTHETIC_TEMPLATE && c.payloadType === 'template'));
    const cursor = keys[49_949];
    const deep = await store.activePage(SYNTHETIC_TEMPLATE, at, { phase: 'created', after: cursor }, 51, [], {});
    assert.deepEqual(deep.map((c) => c.createEventPk), keys.slice(49_950, 50_000).concat(deep.length > 50 ? [deep[50].createEventPk!] : []));
    const plan = await explain(queries.activePage('pqs', SYNTHETIC_TEMPLATE, at, { phase: 'created', after: cursor }, 51));
    assert.match(plan, /Index Scan using __contracts_\d+_create_event_pk_idx/);
    assert.match(plan, new RegExp(`Index Cond: \\(create_event_pk > '${cursor}'::bigint\\)`));
    assert.doesNotMatch(plan, /Sort|Bitmap|Seq Scan on __contracts/);
  });

  it('an interface’s views page the same way, and never show as the template', async () => {
    const at = (await store.watermark()).latest!;
    const pages = store.activeContracts(SYNTHETIC_INTERFACE, at, [], 50);
    await pages.loadMore();
    assert.ok(pages.items.every((c) => c.templateFqn === SYNTHETIC_INTERFACE && c.payloadType === 'interface'));
    const counts = await store.summary(at);
    assert.deepEqual(counts, [
      { name: SYNTHETIC_INTERFACE, payloadType: 'interface', count: SCALE },
      { name: SYNTHETIC_TEMPLATE, payloadType: 'template', count: SCALE },
    ]);
  });

  it('a numeric payload filter reaches the index suggested for it (the query’s own expression with its cast); a text filter too', async () => {
    for (const [text, numeric] of [
      ['amount>=9990', true],
      ['owner=party-7::1220', false],
    ] as const) {
      const f = { ...parsePayloadFilter(text), numeric };
      const at = (await store.watermark()).latest!;
      const q = queries.activePage('pqs', SYNTHETIC_TEMPLATE, at, undefined, 51, [f]);
      const suggestion = suggestedPayloadIndex(SYNTHETIC_TEMPLATE, f);
      assert.ok('sql' in suggestion);
      const before = await explain(q);
      assert.doesNotMatch(before, /_idx_idx|iou_(amount|owner)/);
      await asAdmin(cluster, database, async (c) => {
        await c.query('SET search_path = pqs');
        await c.query(suggestion.sql);
        await c.query('ANALYZE __contracts');
      });
      const after = await explain(q);
      assert.match(after, new RegExp(`__contracts_\\d+_iou_${f.path[0]}${numeric ? '_num' : ''}_idx`), after);
      assert.doesNotMatch(after, /_idx_idx/);
      const rows = await store.activePage(SYNTHETIC_TEMPLATE, at, undefined, 51, [f], {});
      assert.equal(rows.length, 51);
      for (const r of rows) {
        const p = r.payload as { amount: string; owner: string };
        assert.ok(numeric ? Number(p.amount) >= 9990 : p.owner === 'party-7::1220', JSON.stringify(p));
      }
    }
  });
});
