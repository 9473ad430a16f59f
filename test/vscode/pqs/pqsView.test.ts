/**
 * The PQS view's glue on the fake VS Code API, against a real PostgreSQL filled by the demo participant:
 * Connect to PQS keeps the password in secret storage only, the view shows the caveat, the watermark
 * and lag, templates with counts, a filtered template's contracts at a pinned offset with the suggested
 * index, a contract's history linking to the graph and Contract Events; a bad filter says so before any query.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { PackageStore } from '../../../src/core/ledger/packages';
import { silentLogger } from '../../../src/core/log';
import { PqsError } from '../../../src/core/pqs/errors';
import { Commands } from '../../../src/vscode/commands/ids';
import { CommandRegistry } from '../../../src/vscode/commands/registry';
import type { Prompts } from '../../../src/vscode/prompts';
import { demoPqsUrl } from '../../../src/vscode/demo';
import { PqsFeature } from '../../../src/vscode/pqs/pqsFeature';
import { postgresAvailable } from '../../support/postgres';
import { mirroredDemo, pgDriver, READER_PASSWORD, stopPostgresAfterRun, type MirroredDemo } from '../../support/pqsFixture';
import type { ConnectionProfile } from '../../../src/core/connections';
import { Redactor } from '../../../src/core/redact';
import { ConnectionManager } from '../../../src/vscode/connections/manager';
import { ProfileStore } from '../../../src/vscode/connections/profiles';
import { commands, fake, MemoryMemento } from '../fake/vscode';
import { sendWindow, type SendWindow } from '../files/sendHarness';

stopPostgresAfterRun();

type Row = { kind: string; name?: string; contractId?: string };

(postgresAvailable() ? describe : describe.skip)('PQS view (fake VS Code API, PostgreSQL filled by the demo participant)', function () {
  this.timeout(60_000);
  let demo: MirroredDemo;
  let w: SendWindow;
  let feature: PqsFeature;
  let registry: CommandRegistry;
  const secrets = new Map<string, string>();
  const globalState = new MemoryMemento();
  const failures: unknown[] = [];
  const prompts: Prompts = { message: async () => undefined, pick: async () => undefined, progress: (_title, task) => task(new AbortController().signal) };

  before(async () => {
    demo = await mirroredDemo('view');
    w = await sendWindow(demo.participant.url, { packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })) });
    registry = new CommandRegistry(commands, { report: async (_c: string, e: unknown) => void failures.push(e) } as never, w.deps.targets);
    feature = new PqsFeature({
      extensionPath: '/nowhere',
      globalState: globalState as never,
      connections: w.manager,
      secrets: { get: async (id: string, kind: string) => secrets.get(`${id}/${kind}`), set: async (id: string, kind: string, v: string) => void secrets.set(`${id}/${kind}`, v), delete: async (id: string) => void secrets.delete(`${id}/pqsPassword`) } as never,
      prompts,
      logger: silentLogger,
      driver: pgDriver,
    });
    feature.register(registry);
  });
  after(async () => {
    feature?.dispose();
    registry?.dispose();
    w?.dispose();
    await demo?.close();
  });

  const label = (n: unknown) => {
    const item = feature.getTreeItem(n as never);
    return `${item.label}${item.description ? ` | ${item.description}` : ''}`;
  };

  it('before a store is attached: Connect to PQS… and the authorization caveat', async () => {
    const rows = (await feature.getChildren()).map(label);
    assert.equal(rows[0].split(' | ')[0], 'Connect to PQS…');
    assert.match(rows[1], /bypass party authorization/);
  });

  it('Connect to PQS keeps the URL without its password and the password in secret storage; the view shows watermark, lag and counts', async () => {
    const s = demo.settings;
    await vscode.commands.executeCommand(Commands.pqsConnect, { url: `postgresql://${s.user}@${s.host}:${s.port}/${s.database}?schema=pqs&sslmode=disable`, password: READER_PASSWORD });
    assert.deepEqual(failures, []);
    assert.equal(secrets.get('demo/pqsPassword'), READER_PASSWORD);
    const kept = globalState.get<string>('cantonLedger.pqs.url/demo')!;
    assert.ok(!kept.includes(READER_PASSWORD));
    const rows = (await feature.getChildren()).map(label);
    const end = demo.participant.state.ledgerEnd;
    assert.match(rows[0], /^Not filtered by party rights/);
    assert.ok(rows.includes(`Watermark | latest ${end} · oldest 1 · pruned 0 · lag 0 behind ledger end ${end}`), JSON.stringify(rows));
    assert.ok(rows.includes(`Reading at offset ${end} | the latest offset`));
    const ious = [...demo.participant.state.contracts.values()].filter((c) => c.template.entityName === 'Iou' && c.archivedOffset === undefined).length;
    assert.ok(rows.includes(`demo-iou:Iou:Iou | ${ious} active`), JSON.stringify(rows));
  });

  it('a filtered template at a pinned offset: the suggested index, then only matching contracts, each with its history', async () => {
    await vscode.commands.executeCommand(Commands.pqsPin, { offset: 20 });
    const roots = (await feature.getChildren()) as Row[];
    assert.ok(roots.map(label).includes('Reading at offset 20 | pinned'));
    const iou = roots.find((r) => r.kind === 'template' && r.name === 'demo-iou:Iou:Iou')!;
    await vscode.commands.executeCommand(Commands.pqsFilter, iou, ['currency=USD']);
    assert.deepEqual(failures, []);
    const children = (await feature.getChildren(iou as never)) as Row[];
    assert.match(label(children[0]), /^Suggested payload index \(not created\) \| call create_index_for_contract\('iou_currency_idx', 'demo-iou:Iou:Iou'/);
    const contracts = children.filter((c) => c.kind === 'contract');
    const expected = [...demo.participant.state.contracts.values()].filter(
      (c) => c.template.entityName === 'Iou' && c.createdOffset <= 20 && (c.archivedOffset === undefined || c.archivedOffset > 20) && (c.argument as { currency: string }).currency === 'USD',
    );
    assert.deepEqual(new Set(contracts.map((c) => c.contractId)), new Set(expected.map((c) => c.contractId)));
    assert.ok(contracts.every((c) => / currency=USD/.test(label(c))));
    const history = await feature.getChildren(contracts[0] as never);
    const create = feature.getTreeItem(history[0] as never);
    assert.equal(create.label, 'create');
    assert.equal(create.command?.command, Commands.showTransactionGraph);
    assert.match((create.command?.arguments?.[0] as { updateId: string }).updateId, /^1220/);
    const events = feature.getTreeItem(history[history.length - 1] as never);
    assert.deepEqual([events.label, events.command?.command, events.command?.arguments], ['Contract Events', Commands.showContractEvents, [contracts[0].contractId]]);
  });

  it('a payload filter on a field the template does not have is an error before any query (from the packages)', async () => {
    const c = w.manager.activeConnection()!;
    await c.readPackages();
    const iou = ((await feature.getChildren()) as Row[]).find((r) => r.kind === 'template' && r.name === 'demo-iou:Iou:Iou')!;
    failures.length = 0;
    await vscode.commands.executeCommand(Commands.pqsFilter, iou, ['colour=red']);
    const [err] = failures as PqsError[];
    assert.ok(err instanceof PqsError && err.kind === 'bad-filter', String(err));
    assert.match(err.message, /has no field colour \(its fields: .*amount/);
  });
});

(postgresAvailable() ? describe : describe.skip)('PQS view with the demo participant’s own PQS (cantonLedger.demo.pqsUrl)', function () {
  this.timeout(60_000);
  let demo: MirroredDemo;
  let manager: ConnectionManager;
  let profiles: ProfileStore;
  let feature: PqsFeature;
  const globalState = new MemoryMemento();
  const kept = new Map<string, string>();

  before(async () => {
    demo = await mirroredDemo('demo_view');
    fake.reset();
    profiles = new ProfileStore(new MemoryMemento() as never);
    manager = new ConnectionManager(profiles, { providerFor: () => undefined, newAttempt: () => undefined, invalidate: () => undefined } as never, silentLogger, new Redactor());
    const s = demo.settings;
    feature = new PqsFeature({
      extensionPath: '/nowhere',
      globalState: globalState as never,
      connections: manager,
      secrets: { get: async () => undefined, set: async (id: string, kind: string, v: string) => void kept.set(`${id}/${kind}`, v), delete: async () => undefined } as never,
      prompts: { message: async () => undefined, pick: async () => undefined, progress: (_t, task) => task(new AbortController().signal) },
      logger: silentLogger,
      driver: pgDriver,
      demoPqsUrl: () => `postgresql://${s.user}@${s.host}:${s.port}/${s.database}?schema=pqs&sslmode=disable`,
      env: { PGPASSWORD: READER_PASSWORD },
    });
  });
  after(async () => {
    feature?.dispose();
    manager?.dispose();
    profiles?.dispose();
    await demo?.close();
  });

  it('attaches the demo connection’s PQS by itself, with the password of the environment, and keeps nothing', async () => {
    const profile: ConnectionProfile = { id: 'demo', name: 'Demo', url: demo.participant.url, auth: 'none', userId: 'demo-admin', source: 'demo' };
    profiles.setDemo(profile);
    await profiles.setActive('demo');
    await manager.connect(profile);
    for (let i = 0; i < 200 && !manager.activeConnection()?.pqs; i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(manager.activeConnection()?.pqs, 'the demo connection has its PQS');
    const rows = (await feature.getChildren()).map((n) => feature.getTreeItem(n).label);
    assert.ok(rows.includes('Watermark'), JSON.stringify(rows));
    assert.deepEqual([globalState.keys(), [...kept.keys()]], [[], []]);
  });
});

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
