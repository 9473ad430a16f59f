/**
 * The PQS glue on the fake VS Code API, against a real PostgreSQL holding the demo participant's ledger
 * in PQS's own schema (written as PQS's writer writes it: the oracle) and in the demo's mirror (the
 * stand-in that must show the same): Connect to PQS keeps the password in secret storage only; the view
 * shows the caveat, the watermark and lag, templates with counts and their interface views under them
 * (never as templates), a filtered template's contracts at a pinned offset with the suggested index, a
 * contract's history naming its template and its interface views, with controllers and links to the
 * graph and Contract Events; a bad filter says so before any query; a `*.pqs.sql` file runs into the
 * result grid, and its Cancel stops the query on the server and says nothing.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { PackageStore } from '../../../src/core/ledger/packages';
import { silentLogger, type Logger } from '../../../src/core/log';
import { PqsError } from '../../../src/core/pqs/errors';
import { resultsSummary, truncatedLine, type ToResultsPage } from '../../../src/core/pqs/resultsProtocol';
import type { SqlResult } from '../../../src/core/pqs/store';
import { Commands } from '../../../src/vscode/kit/ids';
import { CommandRegistry } from '../../../src/vscode/kit/registry';
import { ErrorReporter, type Prompts } from '../../../src/vscode/kit/prompts';
import { unanswered } from '../scriptedPrompts';
import { demoPqsUrl } from '../../../src/vscode/kit/demo';
import { registerPqs, type PqsFeature } from '../../../src/vscode/pqs';
import type { PqsNode } from '../../../src/vscode/pqs/viewRows';
import { asAdmin, postgresAvailable } from '../../support/postgres';
import { mirroredDemo, pgDriver, READER_PASSWORD, stopPostgresAfterRun, storeKinds, type MirroredDemo, type StoreKind } from '../../support/pqsFixture';
import type { ConnectionProfile } from '../../../src/core/connections';
import { Redactor } from '../../../src/core/redact';
import { ConnectionManager } from '../../../src/vscode/connections/manager';
import { ProfileStore } from '../../../src/vscode/connections/profiles';
import { commands, fake, MemoryMemento, type FakeWebviewPanel } from '../fake/vscode';
import { sendWindow, type SendWindow } from '../files/sendHarness';
import { start } from '../../participant/helpers';

stopPostgresAfterRun();

const IOU = 'demo-iou:Iou:Iou';
const HOLDING = 'demo-holding:Holding:Holding';
const storeName = (kind: StoreKind) => (kind === 'real' ? 'PQS’s own schema' : 'the demo mirror');

/** A window's PQS feature with a recording error reporter: what it logged, the messages it showed, the errors commands threw. */
function recordingGlue() {
  const messages: { severity: string; text: string }[] = [];
  const logged: string[] = [];
  const failures: unknown[] = [];
  const prompts: Prompts = {
    ...unanswered,
    message: async (severity, text) => void messages.push({ severity, text }),
    pick: async () => undefined,
    progress: (_title, task) => task(new AbortController().signal),
  };
  const logger: Logger = { trace() {}, debug() {}, info: (m) => logged.push(`info ${m}`), warn: (m) => logged.push(`warn ${m}`), error: (m) => logged.push(`error ${m}`) };
  const errors = new ErrorReporter(logger, new Redactor(), prompts, () => undefined);
  const reporting = { report: (context: string, e: unknown) => (failures.push(e), errors.report(context, e)) };
  return { messages, logged, failures, prompts, errors, reporting };
}

const activeIous = (demo: MirroredDemo, at = Number.MAX_SAFE_INTEGER) =>
  [...demo.participant.state.contracts.values()].filter((c) => c.template.entityName === 'Iou' && c.createdOffset <= at && (c.archivedOffset === undefined || c.archivedOffset > at));

/**
 * The sessions of this database running the statement with this marker. A `*.pqs.sql` query runs through a
 * cursor: the server shows its text while the DECLARE runs, then the FETCH FORWARD that runs the query, so
 * either counts (no other statement reads through a cursor meanwhile).
 */
async function activeQueries(demo: MirroredDemo, marker: string): Promise<number> {
  return asAdmin(demo.cluster, demo.database, async (c) => {
    // The sessions that run it, not the parallel workers the planner may add to one (their number varies with the load).
    const r = await c.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend' AND datname = current_database() AND (query LIKE $1 OR query LIKE 'FETCH FORWARD%') AND pid <> pg_backend_pid()`,
      [`%${marker}%`],
    );
    return r.rows[0].n as number;
  });
}

/**
 * Waits on a state (never a fixed sleep): polls until it holds, or fails after 30 s — on a loaded 2-core
 * machine a pooled session's first statement can take several seconds to reach the server.
 */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`never reached: ${what}`);
}

for (const kind of storeKinds()) {
  (postgresAvailable() ? describe : describe.skip)(`PQS view on ${storeName(kind)} (fake VS Code API, the demo participant's ledger)`, function () {
    this.timeout(60_000);
    let demo: MirroredDemo;
    let w: SendWindow;
    let feature: PqsFeature;
    let registry: CommandRegistry;
    const secrets = new Map<string, string>();
    const globalState = new MemoryMemento();
    const glue = recordingGlue();
    const dir = mkdtempSync(path.join(tmpdir(), 'pqs-view-'));

    before(async () => {
      demo = await mirroredDemo('view', 30_000, kind);
      w = await sendWindow(demo.participant.url, { packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })) });
      registry = new CommandRegistry(commands, glue.reporting, w.deps.targets, (id) => (id === Commands.pqsRunFile ? 'Run on PQS' : undefined));
      feature = registerPqs(registry, {
        extensionPath: '/nowhere',
        globalState: globalState as never,
        connections: w.manager,
        secrets: { get: async (id: string, k: string) => secrets.get(`${id}/${k}`), set: async (id: string, k: string, v: string) => void secrets.set(`${id}/${k}`, v), delete: async (id: string) => void secrets.delete(`${id}/pqsPassword`) } as never,
        prompts: glue.prompts,
        errors: glue.errors,
        logger: silentLogger,
        driver: pgDriver,
      });
    });
    after(async () => {
      feature?.dispose();
      registry?.dispose();
      w?.dispose();
      await demo?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const view = () => feature.view;
    const label = (n: PqsNode) => {
      const item = view().getTreeItem(n);
      return `${item.label}${item.description ? ` | ${item.description}` : ''}`;
    };
    const roots = () => view().getChildren();
    const find = <K extends PqsNode['kind']>(rows: PqsNode[], kind: K, name?: string) => rows.find((r): r is Extract<PqsNode, { kind: K }> => r.kind === kind && (name === undefined || (r as { name?: string }).name === name));

    it('before a store is attached: Connect to PQS… and the authorization caveat', async () => {
      const rows = (await roots()).map(label);
      assert.equal(rows[0].split(' | ')[0], 'Connect to PQS…');
      assert.match(rows[1], /bypass party authorization/);
    });

    it('Connect to PQS keeps the URL without its password and the password in secret storage; the view shows watermark, lag and counts', async () => {
      const s = demo.settings;
      await vscode.commands.executeCommand(Commands.pqsConnect, { url: `postgresql://${s.user}@${s.host}:${s.port}/${s.database}?schema=pqs&sslmode=disable`, password: READER_PASSWORD });
      assert.deepEqual(glue.failures, []);
      assert.equal(secrets.get('demo/pqsPassword'), READER_PASSWORD);
      const kept = globalState.get<string>('cantonLedger.pqs.url/demo')!;
      assert.ok(!kept.includes(READER_PASSWORD));
      const nodes = await roots();
      const rows = nodes.map(label);
      const end = demo.participant.state.ledgerEnd;
      // The store's own answer is the oracle for its oldest offset (where the writer's first transaction landed).
      const oldest = await asAdmin(demo.cluster, demo.database, async (c) => {
        await c.query('SET search_path TO pqs');
        return Number((await c.query('SELECT oldest_offset() AS o')).rows[0].o);
      });
      assert.match(rows[0], /^Not filtered by party rights/);
      assert.ok(rows.includes(`Watermark | latest ${end} · oldest ${oldest} · never pruned · lag 0 behind ledger end ${end}`), JSON.stringify(rows));
      assert.ok(rows.includes(`Reading at offset ${end} | the latest offset`));
      assert.ok(rows.includes(`${IOU} | ${activeIous(demo).length} active`), JSON.stringify(rows));
      // The reader role is granted pg_read_all_data and nothing more: no warning.
      assert.ok(!nodes.some((n) => n.kind === 'message' && n.id === 'role-can-write'), JSON.stringify(rows));
      // The interface's views are never a template of their own, whether the packages are read yet or not.
      assert.equal(find(nodes, 'template', HOLDING), undefined, JSON.stringify(rows));
    });

    it('a template lists its interface views under it (count, interface icon, "interface view"); one expands to the views of the active contracts', async () => {
      await w.manager.activeConnection()!.readPackages();
      const nodes = await roots();
      assert.equal(find(nodes, 'interfaces'), undefined, 'Iou implements Holding: no interface is left without its template');
      const iou = find(nodes, 'template', IOU)!;
      const children = await view().getChildren(iou);
      const holding = find(children, 'interface', HOLDING)!;
      const ious = activeIous(demo);
      assert.equal(label(holding), `${HOLDING} | ${ious.length} active · interface view`);
      assert.equal((view().getTreeItem(holding).iconPath as vscode.ThemeIcon).id, 'symbol-interface');
      const views = (await view().getChildren(holding)).filter((n) => n.kind === 'contract');
      assert.deepEqual(new Set(views.map((n) => n.kind === 'contract' && n.contractId)), new Set(ious.map((c) => c.contractId)));
      // One contract shows under the template and under its interface view: each row its own id.
      const ids = [...children, ...views].map((n) => view().getTreeItem(n).id);
      assert.equal(new Set(ids).size, ids.length, JSON.stringify(ids));
    });

    it('a contract\'s history, even reached through an interface view, names its template and lists its interface views', async () => {
      const iou = find(await roots(), 'template', IOU)!;
      const holding = find(await view().getChildren(iou), 'interface', HOLDING)!;
      const viewed = find(await view().getChildren(holding), 'contract')!;
      const rows = (await view().getChildren(viewed)).map(label);
      assert.equal(rows[0], `${IOU} | template`);
      assert.match(rows[1], new RegExp(`^${HOLDING} \\| interface view · owner=\\w+ · .*issuer=\\w+`));
      assert.ok(!rows.slice(2).some((r) => r.includes('interface view')), JSON.stringify(rows));
    });

    it('a filtered template at a pinned offset: the suggested index, then only matching contracts, each with its history', async () => {
      await vscode.commands.executeCommand(Commands.pqsPin, { offset: 20 });
      const nodes = await roots();
      assert.ok(nodes.map(label).includes('Reading at offset 20 | pinned'));
      const iou = find(nodes, 'template', IOU)!;
      await vscode.commands.executeCommand(Commands.pqsFilter, iou, ['currency=USD']);
      assert.deepEqual(glue.failures, []);
      const children = (await view().getChildren(iou)).filter((n) => n.kind !== 'interface');
      assert.match(label(children[0]), /^Suggested payload index \(not created\) \| call create_index_for_contract\('iou_currency', 'demo-iou:Iou:Iou'/);
      const contracts = children.filter((c): c is Extract<PqsNode, { kind: 'contract' }> => c.kind === 'contract');
      const expected = activeIous(demo, 20).filter((c) => (c.argument as { currency: string }).currency === 'USD');
      assert.deepEqual(new Set(contracts.map((c) => c.contractId)), new Set(expected.map((c) => c.contractId)));
      assert.ok(contracts.every((c) => / currency=USD/.test(label(c))));
      const history = await view().getChildren(contracts[0]);
      const create = view().getTreeItem(history.find((n) => n.kind === 'history')!);
      assert.equal(create.label, 'create');
      assert.equal(create.command?.command, Commands.showTransactionGraph);
      assert.match((create.command?.arguments?.[0] as { updateId: string }).updateId, /^1220/);
      const events = view().getTreeItem(history[history.length - 1]);
      assert.deepEqual([events.label, events.command?.command, events.command?.arguments], ['Contract Events', Commands.showContractEvents, [contracts[0].contractId]]);
      // A substring filter: no index is suggested, and the row says why.
      await vscode.commands.executeCommand(Commands.pqsFilter, iou, ['currency~US']);
      const [hint, ...rest] = (await view().getChildren(iou)).filter((n) => n.kind !== 'interface');
      assert.match(label(hint), /^No payload index serves this filter \| ~ looks for a substring/);
      assert.deepEqual(new Set(rest.filter((c) => c.kind === 'contract').map((c) => c.kind === 'contract' && c.contractId)), new Set(expected.map((c) => c.contractId)));
    });

    it('an exercise row says who controlled the choice', async () => {
      // An Iou that was transferred or split: its owner controlled the choice that archived it.
      const archived = [...demo.participant.state.contracts.values()].filter((c) => c.template.entityName === 'Iou' && c.archivedOffset !== undefined);
      const byOwner: string[] = [];
      for (const c of archived) {
        const history = await view().getChildren({ kind: 'contract', key: IOU, contractId: c.contractId, payload: c.argument, offset: c.createdOffset });
        const exercise = history.find((n): n is Extract<PqsNode, { kind: 'history' }> => n.kind === 'history' && (n.entry.choice === 'Iou_Transfer' || n.entry.choice === 'Iou_Split'));
        if (!exercise) continue;
        const owner = (c.argument as { owner: string }).owner.split('::')[0];
        assert.match(label(exercise), new RegExp(`^${exercise.entry.choice} \\(consuming\\) \\| offset ${c.archivedOffset} · .* · by ${owner}$`));
        byOwner.push(exercise.entry.choice!);
      }
      assert.ok(byOwner.includes('Iou_Transfer') && byOwner.includes('Iou_Split'), JSON.stringify(byOwner));
    });

    it('a payload filter on a field the template does not have is an error before any query (from the packages)', async () => {
      const iou = find(await roots(), 'template', IOU)!;
      glue.failures.length = 0;
      await vscode.commands.executeCommand(Commands.pqsFilter, iou, ['colour=red']);
      const [err] = glue.failures as PqsError[];
      assert.ok(err instanceof PqsError && err.kind === 'bad-filter', String(err));
      assert.match(err.message, /has no field colour \(its fields: .*amount/);
    });

    it('an offset outside the store: PQS’s own refusal in place of the templates, with Retry, logged once; the latest offset reads again', async () => {
      const end = demo.participant.state.ledgerEnd;
      glue.logged.length = 0;
      await vscode.commands.executeCommand(Commands.pqsPin, { offset: end + 1000 });
      const nodes = await roots();
      const failed = nodes[nodes.length - 1];
      const item = view().getTreeItem(failed);
      assert.equal(item.label, `Offset ${end + 1000} is after the latest known offset ${end}`);
      assert.deepEqual([item.description, item.command?.command], ['click to retry', Commands.pqsRefresh]);
      assert.equal(find(nodes, 'template', IOU), undefined);
      assert.equal(glue.logged.filter((l) => l.startsWith('warn PQS view: ')).length, 1, glue.logged.join('\n'));
      await vscode.commands.executeCommand(Commands.pqsPin, {});
      assert.ok(find(await roots(), 'template', IOU));
    });

    it('a *.pqs.sql file runs into the result grid, whose rows agree with the view', async () => {
      await vscode.commands.executeCommand(Commands.pqsPin, {});
      glue.failures.length = 0;
      const file = path.join(dir, 'counts.pqs.sql');
      writeFileSync(file, "SELECT template_fqn, count FROM summary_active() WHERE payload_type = 'template' ORDER BY template_fqn\n");
      const result = (await vscode.commands.executeCommand(Commands.pqsRunFile, vscode.Uri.file(file))) as SqlResult;
      assert.deepEqual(glue.failures, []);
      assert.deepEqual(result.columns.map((c) => c.name), ['template_fqn', 'count']);
      assert.equal(Number(result.rows.find((r) => r[0] === IOU)?.[1]), activeIous(demo).length);
      const panel = fake.state.webviewPanels.find((p: FakeWebviewPanel) => p.viewType === 'cantonLedger.pqsResults')!;
      assert.equal(panel.title, 'PQS: counts.pqs.sql');
      assert.match(resultsSummary(shownResults(panel)), new RegExp(`^${result.rows.length} rows in \\d+ ms$`));
    });

    it('a statement returning more rows than the grid keeps: the first 10,000, in pages, and a line saying it cut', async () => {
      const file = path.join(dir, 'many.pqs.sql');
      writeFileSync(file, 'SELECT g FROM generate_series(1, 10001) g\n');
      const result = (await vscode.commands.executeCommand(Commands.pqsRunFile, vscode.Uri.file(file))) as SqlResult;
      assert.deepEqual([result.rows.length, result.truncated], [10_000, true]);
      const shown = shownResults(fake.state.webviewPanels.find((p: FakeWebviewPanel) => p.viewType === 'cantonLedger.pqsResults')!);
      assert.equal(truncatedLine(shown), 'Showing the first 10000 rows; the statement returned more.');
      assert.deepEqual([shown.rows.length, shown.pageSize, shown.pages], [200, 200, 50]);
    });

    it('Cancel of a running file stops the query on the server and says nothing (no "failed: Cancelled")', async () => {
      const marker = `cancel_me_${kind}`;
      const file = path.join(dir, 'slow.pqs.sql');
      writeFileSync(file, `SELECT count(*), '${marker}' FROM generate_series(1, 100000000000::bigint)\n`);
      const progress = glue.prompts.progress;
      glue.messages.length = 0;
      glue.failures.length = 0;
      let seenRunning: Promise<void> | undefined;
      glue.prompts.progress = (_title, task) => {
        const cancel = new AbortController();
        const running = task(cancel.signal);
        // Cancel once the query runs on the server, as a user would from the progress notification (and
        // also when it is never seen running, so that the test fails on that instead of waiting on the query).
        seenRunning = until(async () => (await activeQueries(demo, marker)) === 1, 'the query running on the server')
          .catch((e: Error) => assert.fail(`${e.message}; the run: ${String(glue.failures[0] ?? 'no failure')}`))
          .finally(() => cancel.abort());
        return running;
      };
      try {
        assert.equal(await vscode.commands.executeCommand(Commands.pqsRunFile, vscode.Uri.file(file)), undefined);
      } finally {
        glue.prompts.progress = progress;
      }
      await seenRunning;
      assert.ok(glue.failures[0] instanceof PqsError && glue.failures[0].kind === 'cancelled', String(glue.failures[0]));
      assert.deepEqual(glue.messages, []);
      assert.ok(glue.logged.includes('info Run on PQS failed: cancelled'), glue.logged.join('\n'));
      await until(async () => (await activeQueries(demo, marker)) === 0, 'the query gone from pg_stat_activity');
    });

    it('what the view was told (where it reads, the filters) is its connection\'s: another connection shows none of it, the first shows it again, a reconnect starts afresh', async () => {
      const s = demo.settings;
      const url = `postgresql://${s.user}@${s.host}:${s.port}/${s.database}?schema=pqs&sslmode=disable`;
      const end = demo.participant.state.ledgerEnd;
      const chosen = async () => {
        const nodes = await roots();
        const iou = find(nodes, 'template', IOU);
        return { reading: nodes.map(label).find((r) => r.startsWith('Reading at offset')), filter: iou && view().getTreeItem(iou).description };
      };
      await vscode.commands.executeCommand(Commands.pqsPin, { offset: 20 });
      await vscode.commands.executeCommand(Commands.pqsFilter, find(await roots(), 'template', IOU)!, ['currency=USD']);
      const told = await chosen();
      assert.equal(told.reading, 'Reading at offset 20 | pinned');
      assert.match(String(told.filter), /currency=USD/);

      // Another participant's connection, active now, with a store of its own (the same database will do).
      const other = await start({ port: 0 });
      const elsewhere: ConnectionProfile = { id: 'other', name: 'Other', url: other.url, auth: 'none', userId: 'demo-admin', source: 'user' };
      try {
        await w.manager.profiles.save(elsewhere);
        await w.manager.connectionFor(elsewhere).connect();
        await w.manager.profiles.setActive(elsewhere.id);
        await vscode.commands.executeCommand(Commands.pqsConnect, { url, password: READER_PASSWORD });
        const there = await chosen();
        assert.equal(there.reading, `Reading at offset ${end} | the latest offset`, 'no pin of the other connection');
        assert.doesNotMatch(String(there.filter), /currency=USD/, 'no filter of the other connection');

        await w.manager.profiles.setActive(w.profile.id);
        assert.deepEqual(await chosen(), told, 'the first connection has what it was told again');
      } finally {
        await w.manager.profiles.remove(elsewhere.id);
        await other.close();
      }
      // A reconnect is a new connection: its store is attached again by itself, and nothing is chosen.
      w.manager.disconnect(w.connection);
      await w.connection.connect();
      await until(async () => (await chosen()).filter !== undefined, 'the store attached again');
      const afresh = await chosen();
      assert.equal(afresh.reading, `Reading at offset ${end} | the latest offset`);
      assert.doesNotMatch(String(afresh.filter), /currency=USD/);
    });

    it('a role that could write: a warning row recommending a read-only role, and a warning when it connects; Disconnect forgets the store', async () => {
      const { cluster, database } = demo;
      glue.messages.length = 0;
      glue.failures.length = 0;
      await vscode.commands.executeCommand(Commands.pqsConnect, { url: `postgresql://${cluster.user}@${cluster.host}:${cluster.port}/${database}?schema=pqs&sslmode=disable`, password: cluster.password });
      assert.deepEqual(glue.failures, []);
      const warning = (await roots()).find((n) => n.kind === 'message' && n.id === 'role-can-write')!;
      assert.ok(warning, 'the warning row');
      assert.equal(label(warning), `${cluster.user} could write to the store | use a read-only role (pg_read_all_data)`);
      assert.match(String(view().getTreeItem(warning).tooltip), new RegExp(`${cluster.user} is a superuser`));
      assert.equal(glue.messages.length, 1, JSON.stringify(glue.messages));
      assert.equal(glue.messages[0].severity, 'warning');
      assert.match(glue.messages[0].text, new RegExp(`^PQS attached, but ${cluster.user} could write to the store: .*pg_read_all_data`));
      await vscode.commands.executeCommand(Commands.pqsDisconnect);
      assert.deepEqual([globalState.get('cantonLedger.pqs.url/demo'), secrets.get('demo/pqsPassword')], [undefined, undefined]);
      assert.equal(label((await roots())[0]).split(' | ')[0], 'Connect to PQS…');
    });
  });

  (postgresAvailable() ? describe : describe.skip)(`PQS view with the demo participant’s own PQS (cantonLedger.demo.pqsUrl) on ${storeName(kind)}`, function () {
    this.timeout(60_000);
    let demo: MirroredDemo;
    let manager: ConnectionManager;
    let profiles: ProfileStore;
    let feature: PqsFeature;
    let registry: CommandRegistry;
    const globalState = new MemoryMemento();
    const kept = new Map<string, string>();
    const glue = recordingGlue();

    before(async () => {
      demo = await mirroredDemo('demo_view', 30_000, kind);
      fake.reset();
      profiles = new ProfileStore(new MemoryMemento() as never);
      // No package store: the participant's packages are never read, so no interface's implementers are known.
      manager = new ConnectionManager(profiles, { sourceFor: () => undefined }, silentLogger, new Redactor());
      registry = new CommandRegistry(commands, glue.reporting, { resolve: async () => undefined } as never);
      const s = demo.settings;
      feature = registerPqs(registry, {
        extensionPath: '/nowhere',
        globalState: globalState as never,
        connections: manager,
        secrets: { get: async () => undefined, set: async (id: string, k: string, v: string) => void kept.set(`${id}/${k}`, v), delete: async () => undefined } as never,
        prompts: glue.prompts,
        errors: glue.errors,
        logger: silentLogger,
        driver: pgDriver,
        demoPqsUrl: () => `postgresql://${s.user}@${s.host}:${s.port}/${s.database}?schema=pqs&sslmode=disable`,
        env: { PGPASSWORD: READER_PASSWORD },
      });
    });
    after(async () => {
      feature?.dispose();
      registry?.dispose();
      manager?.dispose();
      profiles?.dispose();
      await demo?.close();
    });

    it('attaches the demo connection’s PQS by itself, with the password of the environment, and keeps nothing', async () => {
      const profile: ConnectionProfile = { id: 'demo', name: 'Demo', url: demo.participant.url, auth: 'none', userId: 'demo-admin', source: 'demo' };
      profiles.setDemo(profile);
      await profiles.setActive('demo');
      await manager.connectionFor(profile).connect();
      for (let i = 0; i < 200 && !manager.activeConnection()?.pqs; i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(manager.activeConnection()?.pqs, 'the demo connection has its PQS');
      const rows = (await feature.view.getChildren()).map((n) => feature.view.getTreeItem(n).label);
      assert.ok(rows.includes('Watermark'), JSON.stringify(rows));
      assert.deepEqual([globalState.keys(), [...kept.keys()]], [[], []]);
      assert.deepEqual(glue.messages, []);
    });

    it('an interface whose implementers are not known shows under "Interfaces", as an interface view, and lists its views', async () => {
      const nodes = await feature.view.getChildren();
      assert.equal(nodes.find((n) => n.kind === 'template' && n.name === HOLDING), undefined);
      const group = nodes.find((n) => n.kind === 'interfaces')!;
      assert.ok(group, JSON.stringify(nodes.map((n) => feature.view.getTreeItem(n).label)));
      const [holding] = await feature.view.getChildren(group);
      const item = feature.view.getTreeItem(holding);
      assert.deepEqual([item.label, item.description, (item.iconPath as vscode.ThemeIcon).id], [HOLDING, `${activeIous(demo).length} active · interface view`, 'symbol-interface']);
      const contracts = (await feature.view.getChildren(holding)).filter((n) => n.kind === 'contract');
      assert.equal(contracts.length, activeIous(demo).length);
    });
  });
}

describe('cantonLedger.demo.pqsUrl', () => {
  afterEach(() => fake.reset());

  it('gives the demo its PQS database, never with a password in the settings', () => {
    fake.setSetting('cantonLedger.demo.pqsUrl', '');
    assert.equal(demoPqsUrl(), undefined);
    fake.setSetting('cantonLedger.demo.pqsUrl', 'postgresql://me@db.local:5433/ledger?schema=mirror');
    assert.equal(demoPqsUrl(), 'postgresql://me@db.local:5433/ledger?schema=mirror&sslmode=prefer');
    fake.setSetting('cantonLedger.demo.pqsUrl', 'postgresql://me:hunter2pw@db.local/ledger');
    assert.throws(() => demoPqsUrl(), /must not hold a password/);
  });
});

/** The last page of results the grid's panel sent its page. */
function shownResults(panel: FakeWebviewPanel): Extract<ToResultsPage, { type: 'results' }> {
  const sent = (panel.posted as ToResultsPage[]).filter((m) => m.type === 'results');
  assert.ok(sent.length > 0, 'no results sent to the page');
  return sent[sent.length - 1] as Extract<ToResultsPage, { type: 'results' }>;
}
