// PQS with the demo in one step, on the fake VS Code API with every feature activated and a real
// PostgreSQL: "Set Up PQS for the Demo…" asks for the database and the password, keeps the password in
// secret storage only, starts the demo mirroring into that database and attaches the PQS view; an edit
// of cantonLedger.demo.pqsUrl made outside the command moves the running demo to the new database; the
// PQS view's empty state offers the command; the setting shows in the Settings editor's User tab.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CantonLedgerApi } from '../../../src/features';
import { Commands } from '../../../src/vscode/kit/ids';
import { DEMO_CONNECTION_ID, DEMO_PQS_SECRET_ID } from '../../../src/vscode/kit/demo';
import { asAdmin, freshDatabase, postgresAvailable, type PostgresCluster } from '../../support/postgres';
import { stopPostgresAfterRun } from '../../support/pqsFixture';
import { commands, fake, MemoryMemento, Uri } from '../fake/vscode';
import { activateAllFeatures, manifest } from '../featureHost';

stopPostgresAfterRun();

const ROOT = join(__dirname, '..', '..', '..');

/** Waits on a state (never a fixed sleep), with a deadline. */
async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`never reached: ${what}`);
}

describe('cantonLedger.demo.pqsUrl in the Settings editor', () => {
  it('shows in the User tab: its scope is one a user setting may have, not a machine’s (shown under Remote only)', () => {
    const setting = manifest.contributes.configuration.properties['cantonLedger.demo.pqsUrl'];
    assert.ok(['window', 'resource'].includes(setting.scope), setting.scope);
  });
});

(postgresAvailable() ? describe : describe.skip)('Set Up PQS for the Demo (fake VS Code API, every feature, a real PostgreSQL)', function () {
  this.timeout(90_000);
  let storage: string;
  let window: ReturnType<typeof activateAllFeatures> | undefined;

  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'participant.js')) || !existsSync(join(ROOT, 'dist', 'pqs.js'))) {
      console.warn('!!! dist/participant.js or dist/pqs.js is missing: run `npm run build`');
      this.skip();
    }
  });
  beforeEach(() => {
    storage = mkdtempSync(join(tmpdir(), 'demo-pqs-'));
    window = activateAllFeatures({ globalState: new MemoryMemento(), workspaceState: new MemoryMemento(), globalStorageUri: Uri.file(storage) });
  });
  afterEach(async () => {
    window?.dispose();
    await window?.api.demo.whenStopped();
    window = undefined;
    rmSync(storage, { recursive: true, force: true });
  });

  const rows = async (api: CantonLedgerApi) => (await api.pqs.getChildren()).map((n) => String(api.pqs.getTreeItem(n).label));
  const urlOf = (cluster: PostgresCluster, database: string) => `postgresql://${cluster.user}@${cluster.host}:${cluster.port}/${database}?schema=pqs&sslmode=disable`;
  const attachedDatabase = (api: CantonLedgerApi) => api.connections.activeConnection()?.pqs?.settings.database;
  const mirrored = (cluster: PostgresCluster, database: string) =>
    asAdmin(cluster, database, async (c) => (await c.query(`SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = 'pqs'`)).rows[0].n === 1);

  it('without a connection the PQS view offers it; one step from a database to the view attached, the password in secret storage only', async () => {
    const api = window!.api;
    assert.deepEqual(await rows(api), ['Connect to a participant first', 'Set Up PQS for the Demo…']);
    const { cluster, database } = await freshDatabase('demo_set_up');
    const url = urlOf(cluster, database);
    fake.answerInputBox(url);
    fake.answerInputBox(cluster.password);
    await commands.executeCommand(Commands.pqsSetUpDemo);

    assert.equal(api.connections.activeConnection()?.id, DEMO_CONNECTION_ID);
    assert.equal(attachedDatabase(api), database, 'the PQS view reads the demo’s mirror');
    assert.ok(await mirrored(cluster, database));
    assert.ok((await rows(api)).includes('Watermark'), JSON.stringify(await rows(api)));
    assert.equal(fake.state.settings['cantonLedger.demo.pqsUrl'], url);
    assert.ok(!JSON.stringify(fake.state.settings).includes(cluster.password), 'no password in the settings');
    assert.equal(await api.secrets.get(DEMO_PQS_SECRET_ID, 'pqsPassword'), cluster.password);
    assert.ok(fake.state.executed.some((e) => e.id === 'cantonLedger.pqs.focus'), 'the PQS view is shown');
  });

  it('an edit of the setting made outside the command moves the running demo’s mirror and the view to the new database, without a reload', async () => {
    const api = window!.api;
    const first = await freshDatabase('demo_set_up_a');
    fake.answerInputBox(urlOf(first.cluster, first.database));
    fake.answerInputBox(first.cluster.password);
    await commands.executeCommand(Commands.pqsSetUpDemo);
    assert.equal(attachedDatabase(api), first.database);

    const second = await freshDatabase('demo_set_up_b');
    fake.setSetting('cantonLedger.demo.pqsUrl', urlOf(second.cluster, second.database));
    await until(() => attachedDatabase(api) === second.database, 'the view attached to the new database');
    assert.ok(await mirrored(second.cluster, second.database), 'the demo mirrors into the new database');
    assert.equal(api.connections.connection(DEMO_CONNECTION_ID)?.state.state, 'connected');
  });

  it('with the demo connected and no PQS, the view offers the set-up first', async () => {
    const api = window!.api;
    await commands.executeCommand(Commands.startDemo);
    assert.deepEqual((await rows(api)).slice(0, 2), ['Set Up PQS for the Demo…', 'Connect to PQS…']);
  });
});
