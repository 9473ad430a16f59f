/**
 * The hostile corpus against a real PostgreSQL holding PQS's own schema (and the demo mirror's): every
 * file leaves the database unchanged and the pooled sessions as they were at connect — through the
 * guard, and with the guard bypassed through the session layer alone (one statement by the extended
 * protocol, in a read-only transaction it cannot end, a cursor, DISCARD ALL) — as a superuser and as a
 * plain writer role.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import type { CallOptions } from '../../../src/core/api/http';
import { PqsError } from '../../../src/core/pqs/errors';
import { PqsStore, type SqlResult } from '../../../src/core/pqs/store';
import { quoteIdent } from '../../../src/participant/pqs/schema';
import { adminConfig, asAdmin, postgresAvailable } from '../../support/postgres';
import { mirroredDemo, pgDriver, PQS_SCHEMA, READER_PASSWORD, stopPostgresAfterRun, storeKinds, type MirroredDemo } from '../../support/pqsFixture';
import { HOSTILE_FILES, type HostileTarget } from './hostileCorpus';

stopPostgresAfterRun();

const WRITER = 'pqs_hostile_writer';
const WRITER_PASSWORD = 'writer-secret-pw';

/** The store with the guard bypassed: the statement goes to the session layer as it is. */
class UnguardedStore extends PqsStore {
  runUnguarded(sql: string, o: CallOptions = {}): Promise<SqlResult> {
    const first = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toLowerCase();
    return this.runReading({ kind: first === 'explain' ? 'explain' : first === 'show' ? 'show' : 'query', text: sql }, o, {});
  }
}

/**
 * Everything a statement could change: every relation of every schema (rows and an md5 of their
 * contents, a sequence's position), the schemas, functions and roles, large objects, replication
 * slots, advisory locks, per-database settings.
 */
async function fingerprint(c: Client): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const relations = await c.query(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%' ORDER BY 1`,
  );
  for (const r of relations.rows as { name: string; relkind: string }[]) {
    if (r.relkind === 'r' || r.relkind === 'm') {
      const x = await c.query(`SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS h FROM ${r.name} t`);
      out[r.name] = `${x.rows[0].n} rows ${x.rows[0].h}`;
    } else if (r.relkind === 'S') {
      const x = await c.query(`SELECT last_value, is_called FROM ${r.name}`);
      out[r.name] = `sequence at ${x.rows[0].last_value} ${x.rows[0].is_called}`;
    } else out[r.name] = r.relkind;
  }
  const catalog = async (key: string, sql: string) => (out[key] = (await c.query(sql)).rows.map((r) => Object.values(r).join(' ')));
  await catalog('schemas', `SELECT nspname, coalesce(obj_description(oid, 'pg_namespace'), '') FROM pg_namespace ORDER BY 1`);
  await catalog('functions', `SELECT p.oid::regprocedure::text, md5(p.prosrc) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`);
  await catalog('roles', `SELECT rolname, rolsuper, rolcanlogin FROM pg_roles ORDER BY 1`);
  await catalog('large objects', `SELECT oid FROM pg_largeobject_metadata ORDER BY 1`);
  await catalog('replication slots', `SELECT slot_name FROM pg_replication_slots ORDER BY 1`);
  await catalog('advisory locks', `SELECT objid, mode FROM pg_locks WHERE locktype = 'advisory' ORDER BY 1`);
  await catalog('database settings', `SELECT setdatabase, setrole, setconfig::text FROM pg_db_role_setting ORDER BY 1, 2`);
  await catalog('extensions', `SELECT extname FROM pg_extension ORDER BY 1`);
  return out;
}

/** The settings of up to three pooled sessions at once (the pool's size), each holding its session a moment so the next takes another. */
async function pooledSessionSettings(store: PqsStore): Promise<string[]> {
  const one = async () =>
    (await store.query({ text: `SELECT current_setting('default_transaction_read_only') AS ro, current_setting('statement_timeout') AS st, current_setting('search_path') AS sp, pg_sleep(0.02) IS NULL AS slept`, values: [] })).rows[0];
  const rows = await Promise.all([one(), one(), one()]);
  return rows.map((r) => `read_only=${r.ro} statement_timeout=${r.st} search_path=${r.sp}`);
}

async function ensureWriter(demo: MirroredDemo): Promise<void> {
  await asAdmin(demo.cluster, demo.database, async (c) => {
    await c.query(`DO $$ BEGIN CREATE ROLE ${WRITER} LOGIN PASSWORD '${WRITER_PASSWORD}'; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
    const s = quoteIdent(PQS_SCHEMA);
    await c.query(`GRANT USAGE ON SCHEMA ${s} TO ${WRITER}`);
    await c.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${WRITER}`);
    await c.query(`GRANT USAGE, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} TO ${WRITER}`);
  });
}

for (const kind of postgresAvailable() ? storeKinds() : []) {
  describe(`PQS hostile files against a store of ${kind === 'real' ? 'PQS’s own schema' : 'the demo mirror'}`, function () {
    this.timeout(180_000);
    let demo: MirroredDemo;
    let admin: Client;
    let target: HostileTarget;
    const touched = path.join(os.tmpdir(), `pqs-hostile-${process.pid}-${kind}`);

    before(async () => {
      demo = await mirroredDemo('hostile', 30_000, kind);
      await ensureWriter(demo);
      admin = new Client(adminConfig(demo.cluster, demo.database));
      await admin.connect();
      const s = quoteIdent(PQS_SCHEMA);
      target =
        kind === 'real'
          ? { schema: s, watermark: `${s}.__watermark`, moveWatermark: `UPDATE ${s}.__watermark SET "offset" = 0, ix = 0`, touched }
          : { schema: s, watermark: `${s}._watermark`, moveWatermark: `UPDATE ${s}._watermark SET latest = 0`, touched };
    });
    after(async () => {
      await admin?.end();
      await demo?.close();
      fs.rmSync(touched, { force: true });
    });

    const roles = [
      { role: 'a superuser', settings: () => ({ ...demo.settings, user: demo.cluster.user }), password: () => demo.cluster.password, superuser: true },
      { role: 'a plain writer', settings: () => ({ ...demo.settings, user: WRITER }), password: () => WRITER_PASSWORD, superuser: false },
    ];
    for (const { role, settings, password, superuser } of roles) {
      for (const guarded of [true, false]) {
        it(`as ${role}, ${guarded ? 'through the guard' : 'with the guard bypassed (the session layer alone)'}: every file leaves the database and the pooled sessions unchanged`, async () => {
          const store = new UnguardedStore(settings(), async () => password(), pgDriver);
          try {
            const atConnect = await pooledSessionSettings(store);
            assert.deepEqual(atConnect.map((s) => s.startsWith('read_only=on statement_timeout=30s search_path=pqs')), [true, true, true]);
            let before = await fingerprint(admin);
            for (const f of HOSTILE_FILES) {
              if (!guarded && superuser && f.onlyTheGuardStopsASuperuser) continue;
              const sql = f.sql(target);
              if (guarded) {
                await assert.rejects(store.runSql(sql), (e: unknown) => e instanceof PqsError && e.kind === 'write-refused', f.name);
              } else {
                // Refused by the server, or a harmless read: either way, nothing may have changed.
                await store.runUnguarded(sql).catch((e: unknown) => assert.ok(e instanceof PqsError, `${f.name}: ${String(e)}`));
              }
              const after = await fingerprint(admin);
              assert.deepEqual(after, before, `${f.name} changed the database`);
              assert.ok(!fs.existsSync(touched), `${f.name} ran a program`);
              assert.deepEqual(await pooledSessionSettings(store), atConnect, `${f.name} left a changed session in the pool`);
              before = after;
            }
          } finally {
            await store.dispose();
          }
        });
      }
    }

    it('says whether the connected role could write: the reader cannot; the writer and the superuser can, and why', async () => {
      const check = async (user: string, pw: string) => {
        const store = new PqsStore({ ...demo.settings, user }, async () => pw, pgDriver);
        try {
          return await store.roleCanWrite();
        } finally {
          await store.dispose();
        }
      };
      assert.deepEqual(await check(demo.settings.user, READER_PASSWORD), { canWrite: false, reasons: [] });
      const writer = await check(WRITER, WRITER_PASSWORD);
      assert.equal(writer.canWrite, true);
      assert.deepEqual(writer.reasons.map((r) => /has (\w+) on/.exec(r)?.[1]), ['DELETE', 'INSERT', 'UPDATE']);
      const superuser = await check(demo.cluster.user, demo.cluster.password);
      assert.equal(superuser.canWrite, true);
      assert.ok(superuser.reasons.includes(`${demo.cluster.user} is a superuser`), superuser.reasons.join('; '));
      assert.ok(superuser.reasons.some((r) => r.includes('may create objects in schema "pqs"')));
    });

    it('only a replication slot gets past the session layer alone, for a superuser (the guard and a role that is not one stop it)', () => {
      assert.deepEqual(HOSTILE_FILES.filter((f) => f.onlyTheGuardStopsASuperuser).map((f) => f.name), ['a replication slot']);
    });

    // Last: it runs a program. Without the session layer (the simple protocol on a session read-only by
    // default only), the corpus's second file does what it says, and the test sees it.
    it('the second file runs its program on a plain read-only-by-default session (the attack is real)', async () => {
      const plain = new Client({ ...adminConfig(demo.cluster, demo.database), options: '-c default_transaction_read_only=on' });
      await plain.connect();
      try {
        await plain.query(HOSTILE_FILES[1].sql(target));
      } finally {
        await plain.end();
      }
      assert.ok(fs.existsSync(touched));
    });
  });
}
