/**
 * PQS's own schema is the oracle; the demo mirror is the stand-in. Here: the demo schema declares PQS's
 * public functions as PQS does (names, argument names, result types and their attributes), both stores
 * filled from the same ledger answer every question of the store alike, and PQS's way of filling a store
 * — an ACS snapshot at the start, divulged-only contracts, and (its multi-synchronizer line) contracts
 * assigned rather than created — is read correctly.
 */
import { strict as assert } from 'node:assert';
import { PqsStore } from '../../../src/core/pqs/store';
import { emptyTypes, pqsRowsOf } from '../../../src/participant/pqs/rows';
import { asAdmin, freshDatabase, postgresAvailable } from '../../support/postgres';
import { followInRealSchema, mirroredDemo, pgDriver, PQS_SCHEMA, READER_PASSWORD, stopPostgresAfterRun, type MirroredDemo } from '../../support/pqsFixture';
import { PqsWriter, pqsSchemaDumpAvailable } from '../../support/pqsReal';

stopPostgresAfterRun();

/** The public functions the demo schema mirrors (PQS's writing and private functions are not among them). */
const MIRRORED = [
  'active', 'creates', 'archives', 'exercises', 'lookup_contract', 'lookup_exercises', 'latest_offset', 'oldest_offset', 'pruned_offset',
  'nearest_offset', 'summary_active', 'summary_creates', 'summary_archives', 'summary_exercises', 'summary_transients', 'summary_updates',
  'stakeholders', 'set_latest', 'set_oldest', 'create_index_for_contract', 'print_create_index_for_contract',
];

/** Each function's identity arguments and its result: a composite type's attributes with their types, or the type. */
async function signatures(demo: MirroredDemo): Promise<Map<string, string[]>> {
  return asAdmin(demo.cluster, demo.database, async (c) => {
    const { rows } = await c.query(
      `SELECT p.proname AS name, pg_get_function_arguments(p.oid) AS args, p.prokind AS kind,
              CASE WHEN t.typrelid <> 0 THEN (SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
                                                FROM pg_attribute a WHERE a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped)
                   ELSE pg_get_function_result(p.oid) END AS result
         FROM pg_proc p JOIN pg_namespace ns ON ns.oid = p.pronamespace JOIN pg_type t ON t.oid = p.prorettype
        WHERE ns.nspname = $1 AND p.proname = ANY($2)`,
      [PQS_SCHEMA, MIRRORED],
    );
    const out = new Map<string, string[]>();
    // Arguments' defaults name the schema (`pqs.latest_offset()` vs `latest_offset()`): compare them without it.
    const unqualified = (s: string | null) => (s ?? '').replace(/\b(pqs|public)\./g, '').replace(/"pqs"\./g, '');
    for (const r of rows) out.set(r.name, [...(out.get(r.name) ?? []), `${r.kind} ${r.name}(${unqualified(r.args)}) → ${unqualified(r.result)}`].sort());
    return out;
  });
}

/** What the store answers of a whole ledger: summary, every template's pages, every contract's history. */
async function everything(store: PqsStore, demo: MirroredDemo): Promise<unknown> {
  await store.connect();
  const w = await store.watermark();
  const end = w.latest!;
  const summary = await store.summary(end);
  const pages: Record<string, unknown> = {};
  for (const t of summary) {
    const p = store.activeContracts(t.name, end, [], 3);
    await p.loadAtLeast(10_000);
    // Event keys and cursors are each store's own numbering; the order they give is what must agree.
    pages[`${t.payloadType} ${t.name}`] = p.items.map(({ createEventPk: _pk, cursor: _cursor, ...rest }) => rest);
  }
  const histories: Record<string, unknown> = {};
  for (const c of demo.participant.state.contracts.values()) histories[c.contractId] = await store.history(c.contractId);
  return { watermark: w, summary, pages, histories, asOf: await store.nearestOffset(new Date(Date.now() + 60_000).toISOString()) };
}

(postgresAvailable() && pqsSchemaDumpAvailable() ? describe : describe.skip)('PQS’s own schema and the demo mirror', function () {
  this.timeout(120_000);
  let real: MirroredDemo;
  let demo: MirroredDemo;

  let follower: { stop(): Promise<void> } | undefined;

  before(async () => {
    // One ledger in both stores: the demo participant's own mirror, and PQS's schema written as PQS would.
    demo = await mirroredDemo('schemas', 30_000, 'demo');
    const { cluster, database } = await freshDatabase('schemas_real');
    follower = await followInRealSchema(demo.participant.state, cluster, database);
    real = { ...demo, kind: 'real', cluster, database, settings: { ...demo.settings, database } };
  });
  after(async () => {
    await follower?.stop();
    await demo?.close();
  });

  it('the demo schema declares PQS’s public functions as PQS does: names, argument names and defaults, result types and attributes', async () => {
    const [ofReal, ofDemo] = await Promise.all([signatures(real), signatures(demo)]);
    assert.deepEqual([...ofReal.keys()].sort(), [...MIRRORED].sort(), 'PQS has every function the demo mirrors');
    for (const name of MIRRORED) assert.deepEqual(ofDemo.get(name), ofReal.get(name), name);
  });

  it('both stores, filled from the same ledger, answer every question of the store alike', async () => {
    const stores = [real, demo].map((d) => new PqsStore(d.settings, async () => READER_PASSWORD, pgDriver));
    try {
      const [a, b] = [await everything(stores[0], real), await everything(stores[1], demo)];
      assert.deepEqual(b, a);
    } finally {
      await Promise.all(stores.map((s) => s.dispose()));
    }
  });
});

(postgresAvailable() && pqsSchemaDumpAvailable() ? describe : describe.skip)('PQS’s own schema filled as PQS fills it: a snapshot, divulged-only and assigned contracts', function () {
  this.timeout(120_000);
  let d: MirroredDemo;
  let store: PqsStore;
  const SNAPSHOT_AT = 6;

  before(async () => {
    d = await mirroredDemo('filling', 30_000, 'real', { snapshotAt: SNAPSHOT_AT, multiSynchronizer: true });
    store = new PqsStore(d.settings, async () => READER_PASSWORD, pgDriver);
  });
  after(async () => {
    await store?.dispose();
    await d?.close();
  });

  const activeAt = (offset: number) =>
    [...d.participant.state.contracts.values()]
      .filter((c) => c.template.nameKey === 'demo-iou:Iou:Iou' && c.createdOffset <= offset && (c.archivedOffset === undefined || c.archivedOffset > offset))
      .map((c) => c.contractId)
      .sort();

  it('a store that began with an ACS snapshot reads from the snapshot on, and says an earlier offset is outside it', async () => {
    const check = await store.connect();
    assert.equal(check.verdict, 'same');
    assert.equal(check.multiSynchronizer, true);
    const w = await store.watermark();
    assert.equal(w.oldest, SNAPSHOT_AT);
    for (const at of [SNAPSHOT_AT, w.latest!]) {
      const pages = store.activeContracts('demo-iou:Iou:Iou', at, [], 2);
      await pages.loadAtLeast(1000);
      assert.deepEqual(pages.items.map((c) => c.contractId).sort(), activeAt(at), `at ${at}`);
    }
    await assert.rejects(store.activeContracts('Iou', SNAPSHOT_AT - 1, [], 2).loadMore(), (e: { kind?: string }) => e.kind === 'offset-out-of-range');
  });

  it('a divulged-only contract is never active, and its lookup still finds it; an assigned contract is paged by its assignment, at its own offset', async () => {
    const types = emptyTypes();
    const { transactions } = pqsRowsOf(d.participant.state, -1, types);
    const withIou = transactions.find((t) => t.creates.some((r) => r.entity.entityName === 'Iou'))!;
    const template = withIou.creates.find((r) => r.entity.entityName === 'Iou')!;
    await asAdmin(d.cluster, d.database, async (c) => {
      const writer = new PqsWriter(c, PQS_SCHEMA);
      await writer.begin();
      await writer.resume();
      const latest = Number((await c.query('SELECT max("offset") AS o FROM __transactions')).rows[0].o);
      const tx = (offset: number, id: string) => ({ ...withIou, offset, transactionId: id, creates: [], exercises: [], archives: [] });
      await writer.divulged({ ...template, contractId: '00divulged-only' }, tx(latest + 1, 'tx-divulged'));
      await writer.assigned({ ...template, contractId: '00assigned-here' }, tx(latest + 2, 'tx-assigned'));
      await writer.watermark(latest + 2);
    });
    const end = (await store.watermark()).latest!;
    const pages = store.activeContracts('demo-iou:Iou:Iou', end, [], 2);
    await pages.loadAtLeast(1000);
    const ids = pages.items.map((c) => c.contractId);
    assert.ok(!ids.includes('00divulged-only'), 'divulged-only is not active');
    assert.equal(ids.filter((i) => i === '00assigned-here').length, 1, 'the assigned contract is read, once');
    const assigned = pages.items.find((c) => c.contractId === '00assigned-here')!;
    assert.equal(assigned.createdAtOffset, undefined);
    assert.equal(assigned.offset, end, 'its offset is its assignment’s, not 0');
    assert.match(assigned.cursor, /^a:\d+$/);
    assert.deepEqual(ids.slice(0, -1).sort(), activeAt(end).filter((i) => i !== '00assigned-here'));
    // From a cursor in the middle: the rest, and the assigned one after the created ones.
    const resumed = store.activeContracts('demo-iou:Iou:Iou', end, [], 2, pages.items[1].cursor);
    await resumed.loadAtLeast(1000);
    assert.deepEqual(resumed.items.map((c) => c.contractId), ids.slice(2));
    const divulged = await store.history('00divulged-only');
    assert.equal(divulged?.templateFqn, 'demo-iou:Iou:Iou');
  });

  it('the connect check names a store newer when PQS’s types gain an attribute, and older when one it reads is gone', async () => {
    await asAdmin(d.cluster, d.database, (c) => c.query(`ALTER TYPE ${PQS_SCHEMA}.contract_summary ADD ATTRIBUTE brand_new_column text`));
    const newer = new PqsStore(d.settings, async () => READER_PASSWORD, pgDriver);
    const checkNewer = await newer.connect().finally(() => newer.dispose());
    assert.deepEqual([checkNewer.verdict, checkNewer.extra], ['newer', ['summary_active.brand_new_column']]);
    await asAdmin(d.cluster, d.database, (c) => c.query(`ALTER TYPE ${PQS_SCHEMA}.exercise RENAME ATTRIBUTE controllers TO acting_parties`));
    const older = new PqsStore(d.settings, async () => READER_PASSWORD, pgDriver);
    const checkOlder = await older.connect().finally(() => older.dispose());
    assert.equal(checkOlder.verdict, 'older');
    assert.ok(checkOlder.missing.includes('lookup_exercises.controllers'), checkOlder.missing.join());
  });
});
