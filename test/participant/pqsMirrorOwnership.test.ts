/**
 * The demo participant's PQS mirror drops only what it made: an absent schema is created and marked,
 * a marked one is replaced, an empty one is filled in place (never dropped), and any other schema
 * that holds objects — PQS's own `public` — is refused by name and left exactly as it was.
 */
import { strict as assert } from 'node:assert';
import type { Client } from 'pg';
import { startDemoParticipant } from '../../src/participant/index';
import { MIRROR_MARKER, PqsMirrorRefused } from '../../src/participant/pqs/mirror';
import { cli } from '../cli/harness';
import { asAdmin, freshDatabase, postgresAvailable, type PostgresCluster } from '../support/postgres';
import { stopPostgresAfterRun } from '../support/pqsFixture';
import { loadPqsSchema, pqsSchemaDumpAvailable } from '../support/pqsReal';

stopPostgresAfterRun();

/** A schema's objects and their contents, and its comment. */
async function schemaState(c: Client, schema: string): Promise<unknown> {
  const objects = await c.query(
    `SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1
     UNION ALL SELECT p.oid::regprocedure::text, 'f' FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 ORDER BY 1`,
    [schema],
  );
  const contents: Record<string, string> = {};
  for (const o of objects.rows.filter((r) => r.relkind === 'r')) {
    const r = await c.query(`SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) AS h FROM "${schema}"."${o.relname}" t`);
    contents[o.relname] = r.rows[0].h;
  }
  const comment = (await c.query(`SELECT obj_description(oid, 'pg_namespace') AS c FROM pg_namespace WHERE nspname = $1`, [schema])).rows[0]?.c ?? null;
  return { objects: objects.rows, contents, comment };
}

(postgresAvailable() ? describe : describe.skip)('the demo PQS mirror replaces only a schema it made', function () {
  this.timeout(60_000);
  let cluster: PostgresCluster;
  let database: string;
  let url: string;

  before(async () => {
    ({ cluster, database, url } = await freshDatabase('mirror_ownership'));
  });

  const mirrorInto = async (schema: string) => {
    const p = await startDemoParticipant({ pqs: { url, schema } });
    await p.close();
  };

  it('creates an absent schema with its marker, and replaces it on the next start', async () => {
    await mirrorInto('mirror_made');
    const first = await asAdmin(cluster, database, (c) => schemaState(c, 'mirror_made'));
    assert.equal((first as { comment: string }).comment, MIRROR_MARKER);
    await asAdmin(cluster, database, (c) => c.query('CREATE TABLE mirror_made.left_over (x int)'));
    await mirrorInto('mirror_made');
    const again = (await asAdmin(cluster, database, (c) => schemaState(c, 'mirror_made'))) as { objects: { relname: string }[]; comment: string };
    assert.equal(again.comment, MIRROR_MARKER);
    assert.ok(!again.objects.some((o) => o.relname === 'left_over'), 'replaced: what was in it went with it');
  });

  it('fills an empty schema in place without marking it, and then refuses it: it never drops a schema it did not create', async () => {
    await asAdmin(cluster, database, (c) => c.query('CREATE SCHEMA someone_elses'));
    await mirrorInto('someone_elses');
    const filled = await asAdmin(cluster, database, (c) => schemaState(c, 'someone_elses'));
    assert.equal((filled as { comment: string | null }).comment, null);
    await assert.rejects(mirrorInto('someone_elses'), (e: unknown) => e instanceof PqsMirrorRefused && e.schema === 'someone_elses' && e.database === database);
    assert.deepEqual(await asAdmin(cluster, database, (c) => schemaState(c, 'someone_elses')), filled);
  });

  (pqsSchemaDumpAvailable() ? it : it.skip)('`participant --pqs …?schema=public` on a database holding PQS’s own schema refuses, naming it, and leaves it intact', async () => {
    await asAdmin(cluster, database, async (c) => {
      await c.query('DROP SCHEMA public');
      await loadPqsSchema(c, 'public');
    });
    const before = await asAdmin(cluster, database, (c) => schemaState(c, 'public'));
    assert.ok((before as { objects: unknown[] }).objects.length > 50);
    const at = new URL(url);
    const r = await cli(['participant', '--port', '0', '--pqs', `postgresql://${at.username}@${at.host}${at.pathname}?schema=public`], { PGPASSWORD: cluster.password });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`Schema "public" of database "${database}" already holds objects that the demo mirror did not create`));
    assert.match(r.stderr, /left as it is/);
    assert.deepEqual(await asAdmin(cluster, database, (c) => schemaState(c, 'public')), before);
  });
});
