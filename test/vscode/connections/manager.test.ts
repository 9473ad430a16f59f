// The connections of a window as a list of connection objects: one LedgerConnection per profile in use,
// a new one when what its client is built from changes, events that name the connection, and the
// packages the editor uses taken from the active connection. Against the demo participant over loopback.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as net from 'node:net';
import * as vscode from 'vscode';
import type { ConnectionProfile } from '../../../src/core/connections';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { readDar } from '../../../src/core/daml/lf/archive';
import type { LedgerConnection } from '../../../src/core/ledger/connection';
import { PackageStore } from '../../../src/core/ledger/packages';
import { CancelledError, TimeoutError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import type { DemoParticipant } from '../../../src/participant';
import { ConnectionManager, type LedgerStateChange, type TokenSourceFactory } from '../../../src/vscode/connections/manager';
import { ProfileStore } from '../../../src/vscode/connections/profiles';
import { LedgerPackages } from '../../../src/vscode/kit/ledgerPackages';
import { start } from '../../participant/helpers';
import { DAR_DIR, DARS, requireDarBytes } from '../../support/dars';
import { fake, MemoryMemento } from '../fake/vscode';
import { validateText } from '../../../src/core/files/validate';
import { startFaultProxy } from '../../support/faultProxy';

/** Token sources that give no token: records what the model asks of each connection's own. */
function recordingTokens(): TokenSourceFactory & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    sourceFor: (profile) => ({
      provider: async () => undefined,
      claims: () => undefined,
      newAttempt: () => void calls.push(`newAttempt ${profile.id}`),
      dispose: () => void calls.push(`invalidate ${profile.id}`),
    }),
  };
}

function waitUntil(check: () => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 5_000;
    const poll = () => (check() ? resolve() : Date.now() > deadline ? reject(new Error(`timed out waiting for ${what}`)) : setTimeout(poll, 10));
    poll();
  });
}

describe('ConnectionManager (a list of connection objects)', function () {
  this.timeout(20_000);
  let p: DemoParticipant;
  let profiles: ProfileStore;
  let tokens: ReturnType<typeof recordingTokens>;
  let manager: ConnectionManager;
  let changes: Array<string | undefined>;
  let profile: ConnectionProfile;

  before(async () => {
    p = await start({ port: 0 });
  });
  after(() => p.close());

  beforeEach(async () => {
    fake.reset();
    profiles = new ProfileStore(new MemoryMemento() as never);
    tokens = recordingTokens();
    manager = new ConnectionManager(profiles, tokens, silentLogger, new Redactor(), new PackageStore(() => ({ PackageCache, PackageIndex, readDar })));
    changes = [];
    manager.onDidChange((c) => changes.push(c?.id));
    profile = { id: 'demo', name: 'Demo', url: p.url, auth: 'none', userId: 'demo-admin', source: 'user' };
    await profiles.save(profile);
  });
  afterEach(() => {
    manager.dispose();
    profiles.dispose();
  });

  it('one connection object per profile: the same one while the profile keeps its URL, auth and user', async () => {
    const opened: LedgerConnection[] = [];
    manager.onDidOpenConnection((c) => opened.push(c));
    const c = manager.connectionFor(profile);
    assert.equal(manager.connection('demo'), c);
    assert.equal(manager.connectionFor(profile).client, c.client);
    assert.deepEqual(opened, [c]);
    await profiles.save({ ...profile, name: 'Renamed' });
    assert.equal(manager.connection('demo'), c, 'a new name is not a new client');
    assert.ok(!tokens.calls.some((call) => call.startsWith('invalidate')), 'nor new tokens');
    assert.equal(manager.connection('nope'), undefined);
  });

  it('a changed URL closes the connection (its client and state go) and the next use makes a new one', async () => {
    const closed: LedgerConnection[] = [];
    manager.onDidCloseConnection((c) => closed.push(c));
    await manager.connectionFor(profile).connect();
    const old = manager.connection('demo')!;
    assert.equal(old.state.state, 'connected');
    tokens.calls.length = 0;
    await profiles.save({ ...profile, url: `${p.url}/prefix` });
    assert.deepEqual(closed, [old]);
    assert.deepEqual(tokens.calls, ['invalidate demo'], 'its tokens were made for the old profile');
    assert.equal(old.disposed, true);
    assert.equal(manager.connection('demo')!.state.state, 'disconnected', 'nothing said yet by the participant at the new URL');
    assert.equal(manager.connection('demo')!.ledger, undefined);
    const fresh = manager.connection('demo')!;
    assert.notEqual(fresh, old);
    assert.equal(fresh.profile.url, `${p.url}/prefix`);
    assert.equal(manager.connectionFor(profile), fresh, 'asked with the profile as it was (a row drawn before the edit), the connection in use stays');
    assert.equal(fresh.disposed, false);
  });

  it('connect: the events carry the connection, its state and ledger state are read on it, the active one is connected', async () => {
    await profiles.setActive('demo');
    changes.length = 0;
    assert.equal(manager.activeConnected(), false);
    const connecting = manager.connectionFor(profile).connect();
    assert.equal(manager.connectionFor(profile).connect(), connecting, 'a second connect joins the first');
    assert.deepEqual(tokens.calls, ['newAttempt demo'], 'one connect attempt');
    const info = await connecting;
    assert.deepEqual(changes, ['demo', 'demo']);
    const s = manager.connection('demo')!.state;
    assert.ok(s.state === 'connected' && s.info === info);
    assert.equal(manager.connection('demo')!.ledger?.ledgerEnd, p.state.ledgerEnd);
    assert.equal(manager.activeConnected(), true);
    assert.equal(manager.activeConnection(), manager.connection('demo'));
    assert.deepEqual(manager.all(), [manager.connection('demo')]);
  });

  it('a connection stands for its profile: a rename reaches it, and once a disconnect closed it, current() is the one its profile has now', async () => {
    await profiles.setActive('demo');
    const c = manager.active()!;
    assert.equal(manager.connectionFor(profile), c);
    assert.equal(manager.current(c), c, 'itself while it is open');
    await profiles.save({ ...profile, name: 'Renamed' });
    assert.equal(c.profile.name, 'Renamed', 'the same object, with the profile as it reads now');
    await c.connect();
    changes.length = 0;
    manager.disconnect(c);
    assert.deepEqual(changes, ['demo'], 'the event carries the connection that closed');
    const next = manager.current(c)!;
    assert.notEqual(next, c);
    assert.equal(next.disposed, false);
    assert.equal(manager.active(), next, 'the active profile\'s connection now');
    assert.equal(manager.activeConnection(), undefined, 'not connected yet');
    manager.disconnect(c);
    assert.equal(next.disposed, false, 'a closed connection closes nothing more');
    assert.deepEqual(changes, ['demo']);
    await profiles.remove('demo');
    assert.equal(manager.current(next), undefined, 'its profile went');
  });

  /** Runs `use` with a profile "silent" of a host that accepts and never answers. */
  async function withSilentHost(use: (silent: ConnectionProfile) => Promise<void>): Promise<void> {
    const sockets: net.Socket[] = [];
    const host = net.createServer((s) => void sockets.push(s.resume()));
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    try {
      await profiles.save({ ...profile, id: 'silent', url: `http://127.0.0.1:${(host.address() as net.AddressInfo).port}` });
      await use(profiles.get('silent')!);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => host.close(r));
    }
  }

  it('Cancel of a connect in progress, on its connection', () =>
    withSilentHost(async (silent) => {
      const c = manager.connectionFor(silent);
      const connecting = c.connect();
      assert.equal(c.state.state, 'connecting');
      assert.equal(c.cancelConnect(), true);
      await assert.rejects(connecting, CancelledError);
      assert.equal(c.state.state, 'disconnected');
      assert.equal(c.cancelConnect(), false);
    }));

  it('a connect gives up after cantonLedger.connectTimeoutSeconds, not the request timeout', () =>
    withSilentHost(async (silent) => {
      fake.setSetting('cantonLedger.requestTimeoutSeconds', 120);
      fake.setSetting('cantonLedger.connectTimeoutSeconds', 0.3);
      const error = await manager.connectionFor(silent).connect().then(() => assert.fail('connected to a silent host'), (e: unknown) => e);
      assert.ok(error instanceof TimeoutError, String(error));
      assert.equal(error.timeoutMs, 300);
      assert.equal(manager.connectionFor(silent).state.state, 'error');
    }));

  it('disconnect drops the connection, forgets its token and says so', async () => {
    await manager.connectionFor(profile).connect();
    const c = manager.connection('demo')!;
    changes.length = 0;
    manager.disconnect(c);
    assert.equal(c.disposed, true);
    assert.equal(c.state.state, 'disconnected');
    assert.equal(c.ledger, undefined);
    assert.ok(tokens.calls.includes('invalidate demo'));
    assert.deepEqual(changes, ['demo']);
    assert.deepEqual(manager.all(), []);
  });

  it('a removed profile closes its connection', async () => {
    await manager.connectionFor(profile).connect();
    const c = manager.connection('demo')!;
    await profiles.remove('demo');
    assert.equal(c.disposed, true);
    assert.deepEqual(manager.all(), []);
  });

  it("a write through the connection moves its ledger state; the model's event names the connection", async () => {
    await manager.connectionFor(profile).connect();
    const seen: LedgerStateChange[] = [];
    manager.onDidChangeLedger((e) => seen.push(e));
    const c = manager.connection('demo')!;
    const commands = { commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: p.parties.bank, owner: p.parties.alice, currency: 'USD', amount: '1.0', observers: [] } } }], commandId: `m-${Date.now()}`, actAs: [p.parties.bank], userId: 'demo-admin' };
    const result = await c.write('transaction', (client, signal) => client.submitAndWaitForTransaction({ commands }, { signal }), { offsetOf: (r) => r.transaction.offset });
    assert.equal(c.ledger?.ledgerEnd, result.transaction.offset);
    assert.ok(seen.some((e) => e.connection === c && e.change.ledgerEnd?.current === result.transaction.offset), JSON.stringify(seen.map((e) => e.change)));
  });

  it('dispose closes every connection', async () => {
    await manager.connectionFor(profile).connect();
    const c = manager.connection('demo')!;
    manager.dispose();
    assert.equal(c.disposed, true);
  });
});

describe('LedgerPackages (the packages the editor uses now)', function () {
  this.timeout(20_000);
  let p: DemoParticipant;
  before(async () => {
    p = await start({ port: 0 });
  });
  after(() => p.close());

  it("the active connection's packages once it is connected; with none and no .dar in the workspace, unavailable", async () => {
    fake.reset();
    const profiles = new ProfileStore(new MemoryMemento() as never);
    const manager = new ConnectionManager(profiles, recordingTokens(), silentLogger, new Redactor(), new PackageStore(() => ({ PackageCache, PackageIndex, readDar })));
    const packages = new LedgerPackages(manager, manager.packageStore!, vscode.Uri.file('/nonexistent/daml-packages'), silentLogger);
    try {
      const profile: ConnectionProfile = { id: 'demo', name: 'Demo', url: p.url, auth: 'none', userId: 'demo-admin', source: 'user' };
      await profiles.save(profile);
      assert.deepEqual(packages.stateOf(manager.connectionFor(profile)), { state: 'none' }, 'not connected: nothing read');
      await waitUntil(() => packages.current() === 'unavailable', 'no packages anywhere');
      let changed = 0;
      packages.onDidChange(() => changed++);
      await manager.connectionFor(profile).connect();
      assert.equal(packages.current(), undefined, 'reading the connection\'s packages');
      await waitUntil(() => packages.stateOf(manager.connectionFor(profile)).state === 'ready', "the connection's packages");
      const current = packages.current();
      assert.ok(current && current !== 'unavailable');
      assert.equal(current.source, 'on Demo');
      assert.ok(packages.indexFor(manager.connectionFor(profile))?.template('#demo-iou:Iou:Iou'));
      assert.ok(changed > 0);
      manager.disconnect(manager.connectionFor(profile));
      assert.deepEqual(packages.stateOf(manager.connectionFor(profile)), { state: 'none' });
      assert.equal(packages.current(), 'unavailable');
    } finally {
      packages.dispose();
      manager.dispose();
      profiles.dispose();
    }
  });

  it('a .dar that arrives inside a new folder is read, though the watcher names only the folder', async function () {
    requireDarBytes(this, DARS.ping);
    fake.reset();
    const workspaceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dar-folder-'));
    // findFiles over the temporary workspace (the DAR globs are **/*.dar and .daml/dist/*.dar).
    const dars = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? dars(path.join(dir, e.name)) : e.name.endsWith('.dar') ? [path.join(dir, e.name)] : []));
    fake.state.findFiles = (glob) => (glob === '**/*.dar' ? dars(workspaceDir).map((f) => vscode.Uri.file(f)) : []);
    const profiles = new ProfileStore(new MemoryMemento() as never);
    const manager = new ConnectionManager(profiles, recordingTokens(), silentLogger, new Redactor(), new PackageStore(() => ({ PackageCache, PackageIndex, readDar })));
    const packages = new LedgerPackages(manager, manager.packageStore!, vscode.Uri.file('/nonexistent/daml-packages'), silentLogger);
    try {
      await waitUntil(() => packages.current() === 'unavailable', 'no .dar yet');
      const folder = path.join(workspaceDir, 'daml-dars');
      fs.mkdirSync(folder);
      fs.copyFileSync(path.join(DAR_DIR, DARS.ping), path.join(folder, DARS.ping));
      // What a watcher reports when the folder's files came before it watched the folder: the folder only.
      const everything = fake.state.watchers.find((w) => w.pattern === '**/*')!;
      everything.create.fire(vscode.Uri.file(folder));
      await waitUntil(() => {
        const c = packages.current();
        return typeof c === 'object' && c.source.includes(DARS.ping);
      }, 'the packages of the .dar in the new folder');
    } finally {
      packages.dispose();
      manager.dispose();
      profiles.dispose();
      fs.rmSync(workspaceDir, { recursive: true, force: true });
    }
  });
  /** The problem codes of a commands file creating `templateId`, checked as the editor checks it. */
  const codesFor = (templateId: string, context: ReturnType<LedgerPackages['current']>) =>
    validateText('commands', JSON.stringify({ commandId: 'c', actAs: [p.parties.bank], commands: [{ CreateCommand: { templateId, createArguments: {} } }] }), { packages: context }).problems.map((x) => x.code);

  it("one package of the connection that cannot be read: the others are used, and only its templates are 'cannot check'", async () => {
    fake.reset();
    const proxy = await startFaultProxy(p.url);
    const profiles = new ProfileStore(new MemoryMemento() as never);
    const manager = new ConnectionManager(profiles, recordingTokens(), silentLogger, new Redactor(), new PackageStore(() => ({ PackageCache, PackageIndex, readDar })));
    const packages = new LedgerPackages(manager, manager.packageStore!, vscode.Uri.file('/nonexistent/daml-packages'), silentLogger);
    try {
      // The demo-asset package answers 500; every other package is served.
      const client = manager.connectionFor({ id: 'probe', name: 'Probe', url: p.url, auth: 'none', source: 'user' }).client;
      const store = new PackageStore(() => ({ PackageCache, PackageIndex, readDar }));
      const all = await store.read(client, new AbortController().signal);
      const asset = all.packages.find((x) => x.name === 'demo-asset')!;
      proxy.add({ method: 'GET', path: `/v2/packages/${asset.id}`, fault: { kind: 'answer', status: 500, body: 'internal error' }, times: 5 });
      const profile: ConnectionProfile = { id: 'demo', name: 'Demo', url: proxy.url, auth: 'none', userId: 'demo-admin', source: 'user' };
      await profiles.save(profile);
      await profiles.setActive(profile.id);
      const connection = manager.connectionFor(profile);
      await connection.connect();
      await waitUntil(() => packages.stateOf(connection).state !== 'loading' && packages.stateOf(connection).state !== 'none', "the connection's packages");
      const current = packages.current();
      assert.ok(current && current !== 'unavailable', `ready, not ${JSON.stringify(packages.stateOf(connection))}`);
      assert.deepEqual(current.unreadable?.map((u) => u.packageId), [asset.id]);
      assert.ok(current.packages.template('#demo-iou:Iou:Iou'), 'the readable packages are there');
      assert.ok(!codesFor('#demo-iou:Iou:Iou', current).includes('package-unreadable'));
      assert.ok(codesFor('#demo-iou:Iou:Iou', current).includes('missing-field'), 'checked as usual');
      assert.deepEqual(codesFor('#demo-asset:Asset:Asset', current), ['package-unreadable']);
    } finally {
      packages.dispose();
      manager.dispose();
      profiles.dispose();
      await proxy.close();
    }
  });

  it('a workspace .dar that cannot be read: named, and the other .dar files are used', async function () {
    requireDarBytes(this, DARS.ping);
    fake.reset();
    const workspaceDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dar-bad-'));
    fs.copyFileSync(path.join(DAR_DIR, DARS.ping), path.join(workspaceDir, DARS.ping));
    fs.writeFileSync(path.join(workspaceDir, 'broken.dar'), 'not a zip');
    fake.state.findFiles = (glob) => (glob === '**/*.dar' ? fs.readdirSync(workspaceDir).map((f) => vscode.Uri.file(path.join(workspaceDir, f))) : []);
    const profiles = new ProfileStore(new MemoryMemento() as never);
    const manager = new ConnectionManager(profiles, recordingTokens(), silentLogger, new Redactor(), new PackageStore(() => ({ PackageCache, PackageIndex, readDar })));
    const packages = new LedgerPackages(manager, manager.packageStore!, vscode.Uri.file('/nonexistent/daml-packages'), silentLogger);
    try {
      // Before, one unreadable .dar failed them all: the packages stayed unavailable.
      await waitUntil(() => typeof packages.current() === 'object', 'the packages of the readable .dar');
      const current = packages.current();
      assert.ok(current && current !== 'unavailable', 'the readable .dar is used');
      assert.deepEqual(current.unreadable?.map((u) => u.name), ['broken.dar']);
      assert.ok(current.packages.templates().length > 0, 'the templates of the readable .dar');
      assert.deepEqual(codesFor('#not-in-ping:M:T', current), ['package-unreadable'], 'a template of no readable package may be in broken.dar');
    } finally {
      packages.dispose();
      manager.dispose();
      profiles.dispose();
      fs.rmSync(workspaceDir, { recursive: true, force: true });
    }
  });
});
