/**
 * `canton-ledger pqs …` against a real PostgreSQL: PQS's own schema filled as PQS's writer fills it, and
 * the demo participant's mirror (which must answer alike); `participant --pqs` mirrors the demo ledger.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { run } from '../../src/cli/main';
import type { ExercisedNode, TransactionRecord } from '../../src/participant/model';
import { asAdmin, postgresAvailable } from '../support/postgres';
import { mirroredDemo, READER, READER_PASSWORD, stopPostgresAfterRun, storeKinds, type MirroredDemo } from '../support/pqsFixture';
import { Capture, cli } from './harness';

stopPostgresAfterRun();

/** A read that runs for hours unless stopped (pg_sleep is refused): the series in the select list streams, holding no memory or disk. */
const SLOW_READ = 'SELECT count(*) FROM (SELECT generate_series(1, 1000000000000)) AS s';

/** A pipe that takes no data until released: the writer fills its buffer and must wait for 'drain'. */
class HeldPipe extends Writable {
  text = '';
  held = 0;
  private waiting: (() => void)[] | undefined = [];
  constructor() {
    super({ highWaterMark: 4096 });
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    if (this.waiting) {
      this.held++;
      this.waiting.push(done);
    } else done();
  }
  release(): void {
    const waiting = this.waiting ?? [];
    this.waiting = undefined;
    for (const done of waiting) done();
  }
  lines(): number {
    return this.text.split('\n').length - 1;
  }
}

const jsonLines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

for (const kind of storeKinds()) {
  (postgresAvailable() ? describe : describe.skip)(`cli: pqs (${kind === 'real' ? "PQS's own schema" : 'the demo mirror'})`, function () {
    this.timeout(60_000);
    let demo: MirroredDemo;
    let url: string;
    const env = { PGPASSWORD: READER_PASSWORD };
    const dir = mkdtempSync(join(tmpdir(), 'pqs-cli-'));

    before(async () => {
      demo = await mirroredDemo('cli', 30_000, kind);
      url = `postgresql://${READER}@${demo.cluster.host}:${demo.cluster.port}/${demo.database}?schema=pqs&sslmode=disable`;
    });
    after(() => demo?.close());

    const activeContracts = () => [...demo.participant.state.contracts.values()].filter((c) => c.archivedOffset === undefined && !c.transient);
    const activeIous = () => activeContracts().filter((c) => c.template.entityName === 'Iou');
    /** Reads of this database's sessions still running on the server (a `*.pqs.sql` query runs as FETCHes from a cursor). */
    const readsRunning = () =>
      asAdmin(demo.cluster, demo.database, async (c) => (await c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND datname = current_database() AND query LIKE 'FETCH FORWARD%' AND pid <> pg_backend_pid()`)).rows[0].n as number);
    const stopped = async () => {
      while ((await readsRunning()) > 0) await new Promise((r) => setTimeout(r, 50));
    };
    const sqlFile = (name: string, sql: string) => {
      const file = join(dir, `${kind}-${name}.pqs.sql`);
      writeFileSync(file, sql);
      return file;
    };

    it('summary: the watermark, and the active contracts per template and per interface with the payload type', async () => {
      const r = await cli(['pqs', 'summary', '--pqs', url], env);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`latest offset ${demo.participant.state.ledgerEnd}, oldest \\d+`));
      assert.match(r.stdout, /^name +payload_type +count$/m);
      assert.match(r.stdout, new RegExp(`^demo-iou:Iou:Iou +template +${activeIous().length}$`, 'm'));
      const expected = new Map<string, number>();
      const add = (key: string) => expected.set(key, (expected.get(key) ?? 0) + 1);
      for (const c of activeContracts()) {
        add(`${c.template.nameKey},template`);
        for (const i of c.template.interfaces) {
          const iface = demo.participant.state.packages.interface(i.interfaceId);
          if (iface && i.view) add(`${iface.pkg.name}:${iface.moduleName}:${iface.entityName},interface`);
        }
      }
      assert.ok([...expected.keys()].some((k) => k.endsWith(',interface')), 'the demo ledger has interface views');
      const csv = await cli(['pqs', 'summary', '--pqs', url, '--format', 'csv'], env);
      assert.equal(csv.status, 0, csv.stderr);
      const [head, ...rows] = csv.stdout.trim().split('\n');
      assert.equal(head, 'name,payload_type,count');
      assert.deepEqual(new Map(rows.map((l) => [l.replace(/,\d+$/, ''), Number(l.split(',')[2])])), expected);
    });

    it('active: every contract of a template at the pinned offset, through keyset pages, in jsonl (with its cursor) and csv', async () => {
      const r = await cli(['pqs', 'active', 'Iou:Iou', '--pqs', url, '--format', 'jsonl', '--page-size', '2'], env);
      assert.equal(r.status, 0, r.stderr);
      const rows = jsonLines(r.stdout);
      assert.deepEqual(new Set(rows.map((x) => x.contract_id)), new Set(activeIous().map((c) => c.contractId)));
      assert.equal(rows.length, activeIous().length);
      assert.equal(typeof rows[0].payload, 'object');
      assert.ok(rows.every((x) => x.template === 'demo-iou:Iou:Iou' && /^c:\d+$/.test(String(x.cursor))), JSON.stringify(rows[0]));
      const csv = await cli(['pqs', 'active', 'Iou', '--pqs', url, '--format', 'csv', '--where', 'currency=USD', '--where', 'amount>=300'], env);
      assert.equal(csv.status, 0, csv.stderr);
      const lines = csv.stdout.trim().split('\n');
      assert.equal(lines[0], 'contract_id,template,created_at_offset,cursor,payload');
      const expected = activeIous().filter((c) => (c.argument as { currency: string }).currency === 'USD' && Number((c.argument as { amount: string }).amount) >= 300);
      assert.ok(expected.length > 1);
      assert.equal(lines.length - 1, expected.length);
      assert.match(lines[1], /,c:\d+,"\{""owner"":/);
    });

    it('active --limit/--after: chunks resumed at the printed cursor give every contract once, as one full read does', async () => {
      const at = String(demo.participant.state.ledgerEnd);
      const full = await cli(['pqs', 'active', 'Iou', '--pqs', url, '--at', at, '--format', 'jsonl'], env);
      assert.equal(full.status, 0, full.stderr);
      const all = jsonLines(full.stdout).map((x) => x.contract_id);
      assert.ok(all.length >= 7, `${all.length} contracts`);
      const chunked: unknown[] = [];
      let after: string[] = [];
      for (let calls = 0; ; calls++) {
        assert.ok(calls <= all.length, 'the chunks end');
        const r = await cli(['pqs', 'active', 'Iou', '--pqs', url, '--at', at, '--format', 'jsonl', '--limit', '3', '--page-size', '2', ...after], env);
        assert.equal(r.status, 0, r.stderr);
        const rows = jsonLines(r.stdout);
        assert.ok(rows.length <= 3);
        chunked.push(...rows.map((x) => x.contract_id));
        const next = /the next page: --at (\d+) --after (\S+)$/m.exec(r.stderr);
        if (!next) {
          // Only the last chunk ends without pointing at a next page.
          assert.equal(chunked.length, all.length, r.stderr);
          break;
        }
        assert.equal(rows.length, 3);
        assert.equal(next[1], at);
        assert.equal(next[2], rows[2].cursor);
        after = ['--after', next[2]];
      }
      assert.deepEqual(chunked, all);
      // A page deep in the set is one call: after the fifth contract's cursor come the sixth and on.
      const deep = await cli(['pqs', 'active', 'Iou', '--pqs', url, '--at', at, '--format', 'jsonl', '--after', String(jsonLines(full.stdout)[4].cursor), '--limit', '2'], env);
      assert.deepEqual(
        jsonLines(deep.stdout).map((x) => x.contract_id),
        all.slice(5, 7),
      );
    });

    it('active --limit reads no page past the limit, and the last page asks for what the limit leaves', async () => {
      const pagesRead = (stderr: string) => [...stderr.matchAll(/^PQS page: (\d+) rows? of (\d+) asked/gm)].map((m) => [Number(m[1]), Number(m[2])]);
      const small = await cli(['--verbose', 'pqs', 'active', 'Iou', '--pqs', url, '--format', 'jsonl', '--limit', '2'], env);
      assert.equal(small.status, 0, small.stderr);
      assert.equal(jsonLines(small.stdout).length, 2);
      assert.deepEqual(pagesRead(small.stderr), [[2, 2]]);
      const paged = await cli(['--verbose', 'pqs', 'active', 'Iou', '--pqs', url, '--format', 'csv', '--limit', '5', '--page-size', '2'], env);
      assert.equal(paged.status, 0, paged.stderr);
      assert.equal(paged.stdout.trim().split('\n').length, 1 + 5);
      assert.deepEqual(pagesRead(paged.stderr), [
        [2, 2],
        [2, 2],
        [1, 1],
      ]);
      const table = await cli(['pqs', 'active', 'Iou', '--pqs', url, '--limit', '1'], env);
      assert.match(table.stdout, /^1 contract$/m);
    });

    it('active --after a cursor that is not one: a usage error (exit 2) before anything is read', async () => {
      const r = await cli(['pqs', 'active', 'Iou', '--pqs', url, '--after', 'page-7'], env);
      assert.equal(r.status, 2);
      assert.match(r.stderr, /^error: --after "page-7" is not a page cursor \(c:N or a:N/m);
      assert.match(r.stderr, /^usage: canton-ledger pqs active/m);
      const elsewhere = await cli(['pqs', 'summary', '--pqs', url, '--after', 'c:1'], env);
      assert.equal(elsewhere.status, 2);
      assert.match(elsewhere.stderr, /--after is for pqs active/);
    });

    it('active --as-of: the offset of a time (nearest_offset); --at an offset', async () => {
      const tx = demo.participant.state.entries.find((e) => e.kind === 'transaction' && e.offset === 6) as { effectiveAt: number };
      const r = await cli(['pqs', 'active', '#demo-iou:Iou:Iou', '--pqs', url, '--as-of', new Date(Math.ceil(tx.effectiveAt / 1000)).toISOString()], env);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /at offset 6:/);
      const at = await cli(['pqs', 'active', 'Iou', '--pqs', url, '--at', '6', '--format', 'jsonl'], env);
      const atRows = jsonLines(at.stdout);
      assert.ok(atRows.length > 0);
      assert.ok(atRows.every((x) => Number(x.created_at_offset) <= 6));
    });

    it('active --where on a field the template does not have: a diagnostic from the packages, before any query', async () => {
      const r = await cli(['--url', demo.participant.url, 'pqs', 'active', 'demo-iou:Iou:Iou', '--pqs', url, '--where', 'colour=red'], env);
      assert.equal(r.status, 1);
      assert.match(r.stderr, /error: PQS bad-filter: .*demo-iou:Iou:Iou has no field colour \(its fields: .*amount/);
    });

    it('history: the template (not an interface view), create, exercises with their controllers, archive, transaction ids', async () => {
      const archived = [...demo.participant.state.contracts.values()].find((c) => c.archivedOffset !== undefined && !c.transient && c.template.interfaces.some((i) => i.view))!;
      assert.ok(archived, 'an archived contract with an interface view');
      const exercised = demo.participant.state.entries
        .filter((e): e is TransactionRecord => e.kind === 'transaction')
        .flatMap((t) => t.nodes.filter((n): n is ExercisedNode => n.kind === 'exercised' && n.contract.contractId === archived.contractId));
      assert.ok(exercised.length > 0);
      const r = await cli(['pqs', 'history', archived.contractId, '--pqs', url, '--format', 'jsonl'], env);
      assert.equal(r.status, 0, r.stderr);
      const rows = jsonLines(r.stdout);
      assert.equal(rows[0].kind, 'create');
      assert.equal(rows[0].offset, archived.createdOffset);
      assert.equal(rows[rows.length - 1].kind, 'archive');
      assert.equal(rows[rows.length - 1].offset, archived.archivedOffset);
      assert.match(String(rows[0].transaction_id), /^1220/);
      assert.ok(rows.every((x) => x.template === archived.template.nameKey));
      assert.deepEqual(
        rows.filter((x) => x.kind === 'exercise').map((x) => [x.choice, x.controllers]),
        exercised.map((n) => [n.choice, [...n.actingParties]]),
      );
      const table = await cli(['pqs', 'history', archived.contractId, '--pqs', url], env);
      assert.equal(table.status, 0, table.stderr);
      assert.equal(table.stdout.split('\n')[0], `${archived.template.nameKey} ${archived.contractId}`);
      assert.match(table.stdout, /^interface views: demo-holding:Holding:Holding$/m);
      assert.match(table.stdout, /^kind +offset +at +template +choice +consuming +controllers +transaction_id$/m);
    });

    it("query: a .pqs.sql file on PQS's columns into a table with the time taken; a write is refused before it is sent", async () => {
      const file = sqlFile('counts', '-- per template and interface\nSELECT template_fqn, payload_type, count FROM summary_active() ORDER BY template_fqn;\n');
      const r = await cli(['pqs', 'query', file, '--pqs', url], env);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^template_fqn +payload_type +count$/m);
      assert.match(r.stdout, new RegExp(`^demo-iou:Iou:Iou +template +${activeIous().length}$`, 'm'));
      assert.match(r.stdout, /^demo-holding:Holding:Holding +interface +\d+$/m);
      assert.match(r.stdout, /^\d+ rows in \d+ ms$/m);
      const write = sqlFile('write', 'SELECT 1;\nUPDATE __contracts SET payload = NULL');
      const w = await cli(['pqs', 'query', write, '--pqs', url], env);
      assert.equal(w.status, 1);
      assert.match(w.stderr, /error: PQS write-refused: One statement at a time.*line 2, column 1/);
      const explain = await cli(['pqs', 'query', file, '--pqs', url, '--explain', '--format', 'csv'], env);
      assert.match(explain.stdout, /^QUERY PLAN$/m);
    });

    it('query --limit: the rows up to the cap, and a note on stderr when it cut', async () => {
      const file = sqlFile('series', 'SELECT n FROM generate_series(1, 10) n');
      const cut = await cli(['pqs', 'query', file, '--pqs', url, '--format', 'csv', '--limit', '4'], env);
      assert.equal(cut.status, 0, cut.stderr);
      assert.deepEqual(cut.stdout.trim().split('\n'), ['n', '1', '2', '3', '4']);
      assert.match(cut.stderr, /stopped after 4 rows \(--limit\)/);
      const whole = await cli(['pqs', 'query', file, '--pqs', url, '--format', 'csv', '--limit', '10'], env);
      assert.equal(whole.stdout.trim().split('\n').length, 11);
      assert.doesNotMatch(whole.stderr, /--limit/);
    });

    it('query: rows reach stdout while the statement still runs, and a full pipe holds the reading back', async () => {
      const file = sqlFile('streamed', 'SELECT n FROM generate_series(1, 200000) n');
      const stdout = new HeldPipe();
      const stderr = new Capture();
      const done = run(['pqs', 'query', file, '--pqs', url, '--format', 'jsonl'], env, { stdout, stderr });
      // The pipe takes nothing: the CLI stops with part of the rows written and the cursor still open on the server.
      const openCursors = () =>
        asAdmin(demo.cluster, demo.database, async (c) => (await c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'idle in transaction' AND datname = current_database() AND query LIKE 'FETCH FORWARD%'`)).rows[0].n as number);
      const giveUp = performance.now() + 30_000;
      while (stdout.held === 0 || (await openCursors()) === 0) {
        assert.ok(performance.now() < giveUp, `no open cursor while the pipe is full (${stdout.lines()} lines written): the result was read whole before writing`);
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(stdout.lines() < 200_000);
      stdout.release();
      assert.equal(await done, 0, stderr.text);
      assert.equal(stdout.lines(), 200_000);
      assert.deepEqual(JSON.parse(stdout.text.split('\n')[199_999]), { n: 200_000 });
    });

    it('a table of many rows: widths from the first rows, every row written, no call-stack blow-up', async () => {
      const file = sqlFile('many', "SELECT n, repeat('x', (n % 7)::int) AS pad FROM generate_series(1, 300000) n");
      const r = await cli(['pqs', 'query', file, '--pqs', url], env);
      assert.equal(r.status, 0, r.stderr);
      const lines = r.stdout.split('\n');
      assert.match(lines[0], /^n +pad$/);
      assert.match(r.stdout, /^300000 rows in \d+ ms$/m);
      assert.equal(lines.filter((l) => /^\d+( |$)/.test(l)).length, 300_000 + 1);
    });

    it('--timeout MS is the deadline of each query and the server’s statement_timeout (unless the URL sets one)', async () => {
      const show = sqlFile('show', 'SHOW statement_timeout');
      const shown = async (argv: string[], pqsUrl: string) => {
        const r = await cli([...argv, 'pqs', 'query', show, '--pqs', pqsUrl, '--format', 'csv'], env);
        assert.equal(r.status, 0, r.stderr);
        return r.stdout.trim().split('\n')[1];
      };
      assert.equal(await shown([], url), '30s');
      assert.equal(await shown(['--timeout', '300000'], url), '5min');
      assert.equal(await shown(['--timeout', '300000'], `${url}&statement_timeout=45000`), '45s');
      // The server would let it run a minute; the client's deadline from --timeout stops it, on the server too.
      const slow = sqlFile('slow-deadline', SLOW_READ);
      const started = performance.now();
      const r = await cli(['--timeout', '1000', 'pqs', 'query', slow, '--pqs', `${url}&statement_timeout=60000`], env);
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, /^error: PQS timeout/m);
      assert.ok(performance.now() - started < 10_000, `${Math.round(performance.now() - started)} ms`);
      await stopped();
      const server = await cli(['--timeout', '1000', 'pqs', 'query', slow, '--pqs', url], env);
      assert.match(server.stderr, /^error: PQS timeout/m);
      await stopped();
    });

    it('index: the create_index_for_contract calls for the filters, printed with no database, that PQS runs as the owner; ~ has none', async () => {
      const r = await cli(['pqs', 'index', 'demo-iou:Iou:Iou', '--where', 'currency=USD', '--where', 'owner~Ali', '--where', 'amount>=1000'], {});
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, /^note: no index serves "owner~Ali": ~ /m);
      const calls = r.stdout.trim().split('\n');
      assert.equal(calls.length, 2);
      assert.ok(calls.every((c) => /^call create_index_for_contract\('[a-z0-9_]+', 'demo-iou:Iou:Iou', '.+', 'btree'\);$/.test(c)), r.stdout);
      const indexes = (c: { query(sql: string): Promise<{ rows: { indexname: string; indexdef: string }[] }> }) =>
        c.query("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'pqs' AND indexdef ~ '(currency|amount)'").then((q) => q.rows);
      await asAdmin(demo.cluster, demo.database, async (c) => {
        assert.deepEqual(await indexes(c), [], 'printed, not run');
        await c.query('SET search_path TO pqs');
        for (const call of calls) await c.query(call);
        const made = await indexes(c);
        assert.equal(made.length, 2);
        assert.ok(made.every((i) => /_iou_(currency|amount)\w*_idx$/.test(i.indexname) && !/_idx_idx$/.test(i.indexname)), JSON.stringify(made));
        assert.match(made.find((i) => i.indexname.includes('amount'))!.indexdef, /::numeric/);
      });
      const served = await cli(['pqs', 'index', 'Iou', '--where', 'currency=USD'], {});
      assert.equal(served.status, 0, served.stderr);
      const none = await cli(['pqs', 'index', 'Iou'], {});
      assert.equal(none.status, 2);
      assert.match(none.stderr, /needs a --where/);
    });

    it('Ctrl-C cancels a running query on the server (exit 130)', async () => {
      const file = sqlFile('slow', SLOW_READ);
      const interrupt = new AbortController();
      const running = cli(['pqs', 'query', file, '--pqs', url], env, interrupt.signal);
      while ((await readsRunning()) === 0) await new Promise((r) => setTimeout(r, 50));
      interrupt.abort();
      const r = await running;
      assert.equal(r.status, 130, r.stderr);
      assert.match(r.stderr, /^Cancelled\.$/m);
      await stopped();
    });

    it('a wrong password, a password on the command line, and no database are clear errors', async () => {
      const wrong = await cli(['pqs', 'summary', '--pqs', url], { PGPASSWORD: 'nope-nope-nope' });
      assert.equal(wrong.status, 1);
      assert.match(wrong.stderr, /error: PQS auth \(SQLSTATE 28P01\)/);
      const argv = await cli(['pqs', 'summary', '--pqs', url.replace(`${READER}@`, `${READER}:${READER_PASSWORD}@`)], {});
      assert.equal(argv.status, 2);
      assert.doesNotMatch(argv.stderr, new RegExp(READER_PASSWORD));
      const none = await cli(['pqs', 'summary'], env);
      assert.equal(none.status, 2);
      assert.match(none.stderr, /CANTON_LEDGER_PQS_URL/);
      const fromEnv = await cli(['pqs', 'summary'], { CANTON_LEDGER_PQS_URL: url.replace(`${READER}@`, `${READER}:${READER_PASSWORD}@`) });
      assert.equal(fromEnv.status, 0, fromEnv.stderr);
    });

    if (kind === 'demo') {
      it('participant --pqs mirrors the demo ledger into the database', async () => {
        const stdout = new Capture();
        const stderr = new Capture();
        const interrupt = new AbortController();
        const adminUrl = `postgresql://${demo.cluster.user}@${demo.cluster.host}:${demo.cluster.port}/${demo.database}?schema=cli_mirror`;
        const exited = run(['participant', '--port', '0', '--pqs', adminUrl], { PGPASSWORD: demo.cluster.password }, { stdout, stderr, signal: interrupt.signal });
        let status: number | undefined;
        void exited.then((s) => (status = s));
        while (!stdout.text.includes('Press Ctrl-C to stop.')) {
          if (status !== undefined) assert.fail(`participant exited with ${status}: ${stderr.text}`);
          await new Promise((r) => setTimeout(r, 5));
        }
        assert.match(stdout.text, /PQS mirror: +schema cli_mirror/);
        const r = await cli(['pqs', 'summary', '--pqs', url.replace('schema=pqs', 'schema=cli_mirror'), '--format', 'csv'], env);
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, /^demo-iou:Iou:Iou,template,\d+$/m);
        interrupt.abort();
        assert.equal(await exited, 0);
      });
    }
  });
}
