/**
 * The PQS store's sessions against a real PostgreSQL: `runSql` streamed through a cursor with bounded
 * memory and a cap that says when it cut, positions of the server's errors in the caller's text, a
 * caller's own failure passed on with the session still good, and faults — the server gone between
 * two statements of a session, and PostgreSQL stopped mid-query (`pg_ctl -m immediate`) and started
 * again — as a typed `connection-lost`, never an unhandled 'error' event, with the next query working.
 */
import { strict as assert } from 'node:assert';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { Client } from 'pg';
import { DEFAULT_MAX_ROWS, PqsStore } from '../../../src/core/pqs/store';
import type { PqsSettings } from '../../../src/core/pqs/settings';
import { asAdmin, freePort, freshDatabase, postgresAvailable, postgresBin, type PostgresCluster } from '../../support/postgres';
import { pgDriver, stopPostgresAfterRun } from '../../support/pqsFixture';
import { rejectsWith } from '../../support/pqsAssert';
import { waitFor } from '../../support/waitFor';

stopPostgresAfterRun();



/** The collector, to read the heap that stays (node runs the tests without --expose-gc). */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

const LONG_QUERY = 'SELECT count(*) FROM (SELECT generate_series(1, 1000000000000)) AS s';

(postgresAvailable() ? describe : describe.skip)('PQS sessions: streamed and capped results', function () {
  this.timeout(60_000);
  let cluster: PostgresCluster;
  let database: string;
  let store: PqsStore;

  before(async () => {
    ({ cluster, database } = await freshDatabase('session'));
    store = new PqsStore({ host: cluster.host, port: cluster.port, database, user: cluster.user, schema: 'public', sslmode: 'disable', statementTimeoutMs: 30_000 }, async () => cluster.password, pgDriver);
  });
  after(() => store?.dispose());

  it('the deadline bounds each wait for the server, not a slow row handler: a streamed run longer than the deadline completes', async () => {
    const started = performance.now();
    let rows = 0;
    const r = await store.runSql('SELECT g FROM generate_series(1, 3000) AS g', { timeoutMs: 400 }, {
      onRows: async (batch) => {
        rows += batch.length;
        // Each batch handled slower than the whole deadline allows.
        await new Promise((resolve) => setTimeout(resolve, 250));
      },
    });
    assert.equal(rows, 3000);
    assert.equal(r.truncated, false);
    assert.ok(performance.now() - started > 400, 'the run took longer than the deadline');
    // A statement that does not answer in time is still cut.
    await assert.rejects(store.runSql(LONG_QUERY, { timeoutMs: 300 }), (e: { kind?: string }) => e.kind === 'timeout');
  });

  it('streams 300,000 rows to onRows in bounded batches, one at a time, without holding them', async () => {
    const gc = collector();
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    let batches = 0;
    let rows = 0;
    let largest = 0;
    let inHandler = 0;
    let columns: string[] = [];
    const r = await store.runSql("SELECT g, repeat('x', 500) AS filler FROM generate_series(1, 300000) AS g", {}, {
      onColumns: (c) => void (columns = c.map((x) => x.name)),
      onRows: async (batch) => {
        assert.equal(++inHandler, 1, 'the next batch waits for the handler');
        batches++;
        rows += batch.length;
        largest = Math.max(largest, batch.length);
        if (batches % 50 === 0) {
          gc();
          peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
        }
        await new Promise((resolve) => setImmediate(resolve));
        inHandler--;
      },
    });
    assert.deepEqual(columns, ['g', 'filler']);
    assert.equal(rows, 300_000);
    assert.equal(r.rowCount, 300_000);
    assert.deepEqual(r.rows, []);
    assert.equal(r.truncated, false);
    assert.equal(r.command, 'SELECT');
    assert.ok(largest <= 1_000 && batches >= 300, `${batches} batches, the largest ${largest} rows`);
    // Held, the rows would take over 150 MB; what stays between batches is a batch or two.
    assert.ok(peak < 16 * 1024 * 1024, `heap grew by ${Math.round(peak / 1024 / 1024)} MB`);
  });

  it('keeps at most DEFAULT_MAX_ROWS rows without onRows, and says it cut; maxRows cuts exactly', async () => {
    const capped = await store.runSql('SELECT g FROM generate_series(1, 25000) AS g');
    assert.equal(capped.rows.length, DEFAULT_MAX_ROWS);
    assert.equal(capped.rowCount, DEFAULT_MAX_ROWS);
    assert.equal(capped.truncated, true);
    assert.deepEqual(capped.rows[DEFAULT_MAX_ROWS - 1], [DEFAULT_MAX_ROWS]);
    const exact = await store.runSql('SELECT g FROM generate_series(1, 10) AS g', {}, { maxRows: 10 });
    assert.equal(exact.rows.length, 10);
    assert.equal(exact.truncated, false);
    const five = await store.runSql('SELECT g FROM generate_series(1, 10) AS g', {}, { maxRows: 5 });
    assert.deepEqual(five.rows, [[1], [2], [3], [4], [5]]);
    assert.equal(five.truncated, true);
    const sizes: number[] = [];
    const streamed = await store.runSql('SELECT g FROM generate_series(1, 9000) AS g', {}, { maxRows: 2500, onRows: (b) => void sizes.push(b.length) });
    assert.deepEqual(sizes, [1000, 1000, 500]);
    assert.equal(streamed.truncated, true);
    assert.equal(streamed.rowCount, 2500);
  });

  it('names the columns of an empty result; runs EXPLAIN and SHOW as they are; a trailing ; and comment are fine', async () => {
    let seen: string[] | undefined;
    const empty = await store.runSql('SELECT 1 AS a, $$x$$ AS b WHERE false', {}, { onColumns: (c) => void (seen = c.map((x) => x.name)) });
    assert.deepEqual(seen, ['a', 'b']);
    assert.deepEqual(empty.columns.map((c) => c.name), ['a', 'b']);
    assert.deepEqual(empty.rows, []);
    const plan = await store.runSql('SELECT * FROM generate_series(1, 3);  -- three', {}, { explain: true });
    assert.equal(plan.columns[0].name, 'QUERY PLAN');
    assert.equal(plan.command, 'EXPLAIN');
    const explained = await store.runSql('EXPLAIN (FORMAT JSON) SELECT 1');
    assert.equal(explained.columns[0].name, 'QUERY PLAN');
    const shown = await store.runSql('SHOW default_transaction_read_only;');
    assert.deepEqual(shown.rows, [['on']]);
    assert.deepEqual((await store.runSql('select 7 as seven; /* done */')).rows, [[7]]);
  });

  it('gives the server’s error position in the caller’s text (not in the cursor it is wrapped in)', async () => {
    const e = await rejectsWith(store.runSql('SELECT nosuch FROM generate_series(1, 2) AS g'), 'sql');
    assert.equal(e.position, 7);
    const explained = await rejectsWith(store.runSql('SELECT 1 + nosuch', {}, { explain: true }), 'sql');
    assert.equal(explained.position, 11);
  });

  it('passes a row handler’s own failure on as it is, and the session goes back clean', async () => {
    const mine = new Error('the handler gave up');
    await assert.rejects(
      store.runSql('SELECT g FROM generate_series(1, 5000) AS g', {}, {
        onRows: () => {
          throw mine;
        },
      }),
      (e: unknown) => e === mine,
    );
    const [r] = (await store.query({ text: `SELECT current_setting('default_transaction_read_only') AS ro, (SELECT count(*) FROM pg_cursors WHERE name <> '')::int AS cursors`, values: [] })).rows;
    assert.deepEqual(r, { ro: 'on', cursors: 0 });
  });

  it('the server gone while the caller handles a batch (no statement running) is connection-lost, and the next query works', async () => {
    let pid: number | undefined;
    const running = store.runSql('SELECT g, pg_backend_pid() FROM generate_series(1, 5000) AS g', {}, {
      onRows: async (batch) => {
        if (pid !== undefined) return;
        pid = batch[0][1] as number;
        await asAdmin(cluster, database, (c) => c.query('SELECT pg_terminate_backend($1)', [pid]));
        await waitFor(async () => (await asAdmin(cluster, database, (c) => c.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]))).rowCount === 0);
      },
    });
    await rejectsWith(running, 'connection-lost');
    assert.deepEqual((await store.runSql('SELECT 2 AS two')).rows, [[2]]);
  });
});

/** A PostgreSQL cluster of this test's own, to stop hard and start again (the shared one serves other files). */
class OwnCluster {
  private server: ChildProcess | undefined;
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pqs-fault-pg-'));
  port = 0;
  private readonly runAs = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];

  async init(): Promise<void> {
    if (this.runAs.length) execFileSync('chown', ['-R', 'postgres', this.dir]);
    this.run('initdb', ['-D', this.data, '-U', 'fault_admin', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
    this.port = await freePort();
  }

  get data(): string {
    return path.join(this.dir, 'data');
  }

  async start(): Promise<void> {
    const [cmd, ...pre] = [...this.runAs, postgresBin('postgres')!];
    this.server = spawn(cmd, [...pre, '-D', this.data, '-p', String(this.port), '-k', this.dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'], { stdio: 'ignore' });
    await waitFor(async () => {
      const c = new Client(this.config());
      try {
        await c.connect();
        return true;
      } catch {
        return false;
      } finally {
        await c.end().catch(() => undefined);
      }
    });
  }

  /** `pg_ctl -m immediate`: every backend ends at once, as in a crash. */
  stopImmediately(): void {
    this.run('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']);
  }

  config() {
    return { host: '127.0.0.1', port: this.port, user: 'fault_admin', database: 'postgres' };
  }

  async remove(): Promise<void> {
    if (this.server && this.server.exitCode === null) {
      try {
        this.stopImmediately();
      } catch {
        // Already stopped.
      }
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private run(bin: string, args: string[]): void {
    const [cmd, ...pre] = [...this.runAs, postgresBin(bin)!];
    execFileSync(cmd, [...pre, ...args], { stdio: 'ignore' });
  }
}


(postgresAvailable() && postgresBin('pg_ctl') ? describe : describe.skip)('PQS sessions: PostgreSQL stopped mid-query', function () {
  this.timeout(60_000);
  const own = new OwnCluster();
  let store: PqsStore;

  before(async () => {
    await own.init();
    await own.start();
    const c = own.config();
    const settings: PqsSettings = { host: c.host, port: c.port, database: c.database, user: c.user, schema: 'public', sslmode: 'disable', statementTimeoutMs: 30_000 };
    store = new PqsStore(settings, async () => 'unused-with-trust', pgDriver);
  });
  after(async () => {
    await store?.dispose();
    await own.remove();
  });

  it('is connection-lost (no unhandled error event), and once the server is back the same store answers', async () => {
    assert.deepEqual((await store.runSql('SELECT 1 AS one')).rows, [[1]]);
    const running = store.runSql(LONG_QUERY);
    await waitFor(async () => {
      const c = new Client(own.config());
      await c.connect();
      try {
        return (await c.query(`SELECT 1 FROM pg_stat_activity WHERE query LIKE 'FETCH FORWARD%' AND state = 'active'`)).rowCount === 1;
      } finally {
        await c.end();
      }
    });
    own.stopImmediately();
    await rejectsWith(running, 'connection-lost');
    await rejectsWith(store.runSql('SELECT 1'), 'unreachable');
    await own.start();
    assert.deepEqual((await store.runSql('SELECT 3 AS three')).rows, [[3]]);
  });
});
