/** `canton-ledger pqs …` and `participant --pqs` against a real PostgreSQL filled by the demo participant. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli/main';
import { asAdmin, postgresAvailable } from '../support/postgres';
import { mirroredDemo, READER, READER_PASSWORD, stopPostgresAfterRun, type MirroredDemo } from '../support/pqsFixture';
import { Capture, cli } from './harness';

stopPostgresAfterRun();

(postgresAvailable() ? describe : describe.skip)('cli: pqs', function () {
  this.timeout(60_000);
  let demo: MirroredDemo;
  let url: string;
  const env = { PGPASSWORD: READER_PASSWORD };
  const dir = mkdtempSync(join(tmpdir(), 'pqs-cli-'));

  before(async () => {
    demo = await mirroredDemo('cli');
    url = `postgresql://${READER}@${demo.cluster.host}:${demo.cluster.port}/${demo.database}?schema=pqs&sslmode=disable`;
  });
  after(() => demo?.close());

  const activeIous = () => [...demo.participant.state.contracts.values()].filter((c) => c.template.entityName === 'Iou' && c.archivedOffset === undefined);

  it('summary: the watermark and the active contracts per template', async () => {
    const r = await cli(['pqs', 'summary', '--pqs', url], env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`latest offset ${demo.participant.state.ledgerEnd}, oldest 1, pruned 0`));
    assert.match(r.stdout, new RegExp(`^demo-iou:Iou:Iou +${activeIous().length}$`, 'm'));
  });

  it('active: every contract of a template at the pinned offset, through keyset pages, in jsonl and csv', async () => {
    const r = await cli(['pqs', 'active', 'Iou:Iou', '--pqs', url, '--format', 'jsonl', '--page-size', '2'], env);
    assert.equal(r.status, 0, r.stderr);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(new Set(rows.map((x) => x.contract_id)), new Set(activeIous().map((c) => c.contractId)));
    assert.equal(typeof rows[0].payload, 'object');
    const csv = await cli(['pqs', 'active', 'Iou', '--pqs', url, '--format', 'csv', '--where', 'currency=USD', '--where', 'amount>=300'], env);
    assert.equal(csv.status, 0, csv.stderr);
    const lines = csv.stdout.trim().split('\n');
    assert.equal(lines[0], 'contract_id,template,created_at_offset,payload');
    const expected = activeIous().filter((c) => (c.argument as { currency: string }).currency === 'USD' && Number((c.argument as { amount: string }).amount) >= 300);
    assert.equal(lines.length - 1, expected.length);
    assert.match(lines[1], /,"\{""owner"":/);
  });

  it('active --as-of: the offset of a time (nearest_offset); --at an offset', async () => {
    const tx = demo.participant.state.entries.find((e) => e.kind === 'transaction' && e.offset === 6) as { effectiveAt: number };
    const r = await cli(['pqs', 'active', '#demo-iou:Iou:Iou', '--pqs', url, '--as-of', new Date(Math.ceil(tx.effectiveAt / 1000)).toISOString()], env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /at offset 6:/);
    const at = await cli(['pqs', 'active', 'Iou', '--pqs', url, '--at', '6', '--format', 'jsonl'], env);
    const atRows = at.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.ok(atRows.every((x) => x.created_at_offset <= 6));
  });

  it('active --where on a field the template does not have: a diagnostic from the packages, before any query', async () => {
    const r = await cli(['--url', demo.participant.url, 'pqs', 'active', 'demo-iou:Iou:Iou', '--pqs', url, '--where', 'colour=red'], env);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /error: PQS bad-filter: .*demo-iou:Iou:Iou has no field colour \(its fields: .*amount/);
  });

  it('history: create, exercises and archive with their transaction ids', async () => {
    const archived = [...demo.participant.state.contracts.values()].find((c) => c.archivedOffset !== undefined)!;
    const r = await cli(['pqs', 'history', archived.contractId, '--pqs', url, '--format', 'jsonl'], env);
    assert.equal(r.status, 0, r.stderr);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(rows[0].kind, 'create');
    assert.equal(rows[rows.length - 1].kind, 'archive');
    assert.equal(rows[rows.length - 1].offset, archived.archivedOffset);
    assert.match(rows[0].transaction_id, /^1220/);
  });

  it('query: a .pqs.sql file into a table with the time taken; a write is refused before it is sent', async () => {
    const file = join(dir, 'counts.pqs.sql');
    writeFileSync(file, '-- per template\nSELECT name, count FROM summary_active() ORDER BY name;\n');
    const r = await cli(['pqs', 'query', file, '--pqs', url], env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^name +count$/m);
    assert.match(r.stdout, /^\d+ rows in \d+ ms$/m);
    const write = join(dir, 'write.pqs.sql');
    writeFileSync(write, 'SELECT 1;\nUPDATE _contracts SET payload = NULL');
    const w = await cli(['pqs', 'query', write, '--pqs', url], env);
    assert.equal(w.status, 1);
    assert.match(w.stderr, /error: PQS write-refused: One statement at a time.*line 1, column 9/);
    const explain = await cli(['pqs', 'query', file, '--pqs', url, '--explain', '--format', 'csv'], env);
    assert.match(explain.stdout, /^QUERY PLAN$/m);
  });

  it('Ctrl-C cancels a running query on the server (exit 130)', async () => {
    const file = join(dir, 'slow.pqs.sql');
    // A read that runs for minutes (pg_sleep is refused by the guard); while it runs, the session shows the FETCH from its cursor.
    writeFileSync(file, 'SELECT count(*) FROM (SELECT generate_series(1, 1000000000000)) AS s');
    const interrupt = new AbortController();
    const running = cli(['pqs', 'query', file, '--pqs', url], env, interrupt.signal);
    const active = () =>
      asAdmin(demo.cluster, demo.database, async (c) => (await c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'FETCH FORWARD%canton_ledger_rows' AND pid <> pg_backend_pid()`)).rows[0].n as number);
    while ((await active()) === 0) await new Promise((r) => setTimeout(r, 50));
    interrupt.abort();
    const r = await running;
    assert.equal(r.status, 130, r.stderr);
    assert.match(r.stderr, /^Cancelled\.$/m);
    while ((await active()) > 0) await new Promise((r2) => setTimeout(r2, 50));
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
    assert.match(r.stdout, /^demo-iou:Iou:Iou,\d+$/m);
    interrupt.abort();
    assert.equal(await exited, 0);
  });
});
