// LedgerConnection against the demo participant over real loopback HTTP: the connect lifecycle, writes
// that move the ledger state themselves, packages read through a storage port, and dispose.
import assert from 'node:assert/strict';
import { readDar } from '../../../src/core/daml/lf/archive';
import * as net from 'node:net';
import { randomUUID } from 'node:crypto';
import { LedgerClient } from '../../../src/core/api/client';
import type { ConnectionProfile } from '../../../src/core/connections';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import type { DamlPackage } from '../../../src/core/daml/model';
import { AuthError, CancelledError, CantonApiError, isOutcomeUnknown, NetworkError, TimeoutError } from '../../../src/core/errors';
import { LedgerConnection, type ConnectionState } from '../../../src/core/ledger/connection';
import { packagesInUse, PackageStore, type PackagesState, type PackageStorage } from '../../../src/core/ledger/packages';
import type { LedgerChange } from '../../../src/core/ledger/state';
import { silentLogger } from '../../../src/core/log';
import type * as wire from '../../../src/core/models/wire';
import { uploadDarWithReport } from '../../../src/core/submit/darUpload';
import type { DemoParticipant } from '../../../src/participant';
import { DARS, requireDar, requireDarBytes } from '../../support/dars';
import { start } from '../../participant/helpers';

const IOU = '#demo-iou:Iou:Iou';
const decoder = () => ({ PackageCache, PackageIndex, readDar });

function profile(url: string, extra: Partial<ConnectionProfile> = {}): ConnectionProfile {
  return { id: `c-${randomUUID()}`, name: 'Test', url, auth: 'none', userId: 'demo-admin', source: 'user', ...extra };
}

function connectionTo(url: string, options: { store?: PackageStore; timeoutMs?: number; connectTimeoutMs?: number; extra?: Partial<ConnectionProfile> } = {}): LedgerConnection {
  return new LedgerConnection({ profile: profile(url, options.extra), client: new LedgerClient({ baseUrl: url, timeoutMs: options.timeoutMs ?? 10_000 }), packages: options.store, connectTimeoutMs: options.connectTimeoutMs });
}

/** Resolves with the first ledger change that `matches`; fails after 5 s. */
function ledgerChange(c: LedgerConnection, matches: (change: LedgerChange) => boolean, what: string): Promise<LedgerChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (sub.dispose(), reject(new Error(`no ledger change: ${what}`))), 5_000);
    const sub = c.onDidChangeLedger((change) => {
      if (!matches(change)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(change);
    });
  });
}

/** Counts the calls of one client method (the requests the connection makes through it). */
function countCalls(client: LedgerClient, method: 'ledgerEnd' | 'packageArchive' | 'listVettedPackages' | 'packages'): { count: number } {
  const counter = { count: 0 };
  const original = (client[method] as (...a: unknown[]) => unknown).bind(client);
  (client as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
    counter.count++;
    return original(...args);
  };
  return counter;
}

/** A host that accepts connections and never answers. */
async function silentHost(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((s) => {
    sockets.push(s);
    s.resume();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      sockets.forEach((s) => s.destroy());
      return new Promise((r) => server.close(() => r()));
    },
  };
}

function memoryStorage(): PackageStorage & { stored: Map<string, DamlPackage> } {
  const stored = new Map<string, DamlPackage>();
  return {
    stored,
    read: async (id) => stored.get(id),
    write: async (pkg) => void stored.set(pkg.id, pkg),
  };
}

describe('LedgerConnection against the demo participant', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let silent: Awaited<ReturnType<typeof silentHost>>;
  const made: LedgerConnection[] = [];
  const connection = (options: Parameters<typeof connectionTo>[1] = {}, url = p.url) => {
    const c = connectionTo(url, options);
    made.push(c);
    return c;
  };

  before(async () => {
    p = await start({ port: 0 });
    silent = await silentHost();
  });
  after(async () => {
    made.forEach((c) => c.dispose());
    await silent.close();
    await p.close();
  });

  const iouCommands = (): wire.JsCommands => ({
    commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: p.parties.bank, owner: p.parties.alice, currency: 'USD', amount: '1.00', observers: [] } } }],
    commandId: randomUUID(),
    actAs: [p.parties.bank],
    userId: 'demo-admin',
  });

  describe('connect', () => {
    it('goes connecting → connected with what the participant said, and holds a ledger state at its end', async () => {
      const c = connection();
      const states: ConnectionState['state'][] = [];
      c.onDidChangeState((s) => states.push(s.state));
      assert.equal(c.state.state, 'disconnected');
      assert.equal(c.ledger, undefined);
      const info = await c.connect();
      assert.deepEqual(states, ['connecting', 'connected']);
      assert.match(info.version, /^3\.5/);
      assert.ok(info.parties.some((x) => x.party === p.parties.alice));
      assert.equal(info.synchronizers.length, 1);
      const now = (c as LedgerConnection).state;
      assert.equal(now.state === 'connected' && now.info, info);
      assert.equal((c as LedgerConnection).ledger?.ledgerEnd, p.state.ledgerEnd);
    });

    it('a participant newer than the newest known release connects as the newest, and says so once: in its facts and in the log', async () => {
      const warnings: string[] = [];
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
      const version = client.version.bind(client);
      client.version = async (o) => ({ ...(await version(o)), version: '3.7.0' });
      const c = new LedgerConnection({ profile: profile(p.url, { name: 'Next' }), client, logger: { ...silentLogger, warn: (m) => warnings.push(m) } });
      made.push(c);
      const info = await c.connect();
      assert.equal(info.version, '3.7.0');
      assert.equal(info.versionNotice, 'Canton 3.7.0 is newer than the newest release this extension knows (3.6): treated as 3.6.');
      assert.deepEqual(warnings, ['Next: Canton 3.7.0 is newer than the newest release this extension knows (3.6): treated as 3.6.']);
      const known = await connection().connect();
      assert.equal(known.versionNotice, undefined);
    });

    it('a connect in progress is joined; Cancel aborts it and the state goes back to what it was', async () => {
      const c = connection({}, silent.url);
      const first = c.connect();
      assert.equal(c.connect(), first, 'joined');
      assert.equal(c.state.state, 'connecting');
      assert.equal(c.cancelConnect(), true);
      await assert.rejects(first, CancelledError);
      assert.equal(c.state.state, 'disconnected');
      assert.equal(c.cancelConnect(), false, 'nothing left to cancel');
    });

    it("the caller's signal aborts a connect too", async () => {
      const c = connection({}, silent.url);
      const controller = new AbortController();
      const connecting = c.connect(controller.signal);
      controller.abort();
      await assert.rejects(connecting, CancelledError);
      assert.equal(c.state.state, 'disconnected');
    });

    it('a participant that cannot be reached: the error is the state, there is no ledger state', async () => {
      const closed = await silentHost();
      const url = closed.url;
      await closed.close();
      const c = connection({ timeoutMs: 5_000 }, url);
      await assert.rejects(c.connect(), NetworkError);
      assert.equal(c.state.state, 'error');
      assert.ok(c.state.state === 'error' && c.state.error instanceof NetworkError);
      assert.equal(c.ledger, undefined);
      assert.equal(c.tokenRejected, false);
    });

    it('a host that does not answer: the connect gives up after its own deadline, not the requests\' (the error is the state)', async () => {
      const c = connection({ timeoutMs: 120_000, connectTimeoutMs: 300 }, silent.url);
      const error = await c.connect().then(() => assert.fail('connected to a silent host'), (e: unknown) => e);
      assert.ok(error instanceof TimeoutError, String(error));
      assert.equal(error.timeoutMs, 300);
      assert.equal(c.state.state, 'error');
      assert.equal(c.ledger, undefined);
    });

    it('a token refused: the state says so (tokenRejected)', async () => {
      const secured = await start({ port: 0, auth: { secret: 'connection-test-secret' } });
      try {
        const c = connectionTo(secured.url, { extra: { auth: 'jwt' } });
        made.push(c);
        await assert.rejects(c.connect(), AuthError);
        assert.equal(c.tokenRejected, true);
      } finally {
        await secured.close();
      }
    });

    it('connected again (a Refresh): the ledger state stays and takes the new end; packages read before are read again', async () => {
      const c = connection({ store: new PackageStore(decoder) });
      await c.connect();
      const ledger = c.ledger!;
      const first = await c.readPackages();
      await c.client.submitAndWaitForTransaction({ commands: iouCommands() });
      const lists = countCalls(c.client, 'packages');
      await c.connect();
      assert.equal(c.ledger, ledger);
      assert.equal(ledger.ledgerEnd, p.state.ledgerEnd);
      assert.equal(lists.count, 1, 'the package list read again');
      const again = await c.readPackages();
      assert.notEqual(again, first);
      assert.ok(again.state === 'ready' && first.state === 'ready' && again.packageIds.length === first.packageIds.length);
    });
  });

  describe('write', () => {
    it('a transaction: the ledger end takes its offset at once, then is read again once the writes pause', async () => {
      const c = connection();
      await c.connect();
      const reads = countCalls(c.client, 'ledgerEnd');
      const write = () => c.write('transaction', (client, signal) => client.submitAndWaitForTransaction({ commands: iouCommands() }, { signal }), { offsetOf: (r) => r.transaction.offset });
      const result = await write();
      assert.equal(c.ledger?.ledgerEnd, result.transaction.offset, 'at once, before any read');
      const second = await write();
      assert.equal(c.ledger?.ledgerEnd, second.transaction.offset);
      // The end is read again for the writes of others (this joins the pending read and waits for it;
      // that a burst shares one read is the state's own test).
      await c.ledger!.afterWrite({ offset: second.transaction.offset });
      assert.ok(reads.count >= 1, 'the end is read again');
    });

    it('an outcome unknown (the answer lost): the error is thrown and the state still moves to what the participant did', async () => {
      const c = connection();
      await c.connect();
      const before = c.ledger!.ledgerEnd!;
      p.faults.submit = { dropResponse: true, times: 1 };
      const moved = ledgerChange(c, (ch) => (ch.ledgerEnd?.current ?? 0) > before, 'the end after an unknown outcome');
      const error = await c.write('transaction', (client, signal) => client.submitAndWaitForTransaction({ commands: iouCommands() }, { signal })).then(
        () => assert.fail('expected the write to fail'),
        (e: unknown) => e,
      );
      assert.ok(isOutcomeUnknown(error), String(error));
      await moved;
      assert.equal(c.ledger?.ledgerEnd, p.state.ledgerEnd, 'the command was executed: the end read again shows it');
    });

    it('a definite refusal moves nothing (nothing was written)', async () => {
      const c = connection();
      await c.connect();
      const reads = countCalls(c.client, 'ledgerEnd');
      const bad = { ...iouCommands(), commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:NoSuchTemplate', createArguments: {} } }] } as wire.JsCommands;
      await assert.rejects(c.write('transaction', (client, signal) => client.submitAndWaitForTransaction({ commands: bad }, { signal })), CantonApiError);
      assert.equal(reads.count, 0);
    });

    it('a vetting change (an unknown outcome too): the vetting state is read again', async () => {
      const c = connection();
      await c.connect();
      const sync = p.state.synchronizers[0].id;
      const serial = async () => (await c.ledger!.vettedPackages()).find((s) => s.synchronizerId === sync)!.topologySerial;
      const before = await serial();
      const change = (op: 'Vet' | 'Unvet') => ({ changes: [{ operation: { [op]: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }] }) as unknown as wire.UpdateVettedPackagesRequest;
      // Beside the connection: its state does not know.
      await c.client.updateVettedPackages(change('Vet'));
      assert.equal(await serial(), before);
      await c.write('vetting', (client, signal) => client.updateVettedPackages(change('Unvet'), { signal }));
      assert.equal(await serial(), before + 2);
      p.faults.vettingUpdate = { dropResponse: true, times: 1 };
      await assert.rejects(c.write('vetting', (client, signal) => client.updateVettedPackages(change('Vet'), { signal })), (e: unknown) => isOutcomeUnknown(e));
      assert.equal(await serial(), before + 3, 'applied, its answer lost: read again all the same');
      await c.client.updateVettedPackages(change('Unvet'));
    });

    it('a DAR upload: the packages and the vetting state are read again', async function () {
      const dar = requireDarBytes(this, DARS.holding);
      const main = requireDar(this, DARS.holding).mainPackageId;
      const own = await start({ port: 0 });
      try {
        const c = connectionTo(own.url, { store: new PackageStore(decoder) });
        made.push(c);
        await c.connect();
        const before = await c.readPackages();
        assert.equal(before.state, 'ready');
        assert.ok(before.state === 'ready' && !before.packageIds.includes(main));
        const vettedBefore = (await c.ledger!.vettedPackages()).flatMap((s) => s.packages.map((x) => x.packageId));
        assert.ok(!vettedBefore.includes(main));
        const seen: PackagesState['state'][] = [];
        c.onDidChangePackages((s) => seen.push(s.state));
        await c.write('packages', (client, signal) => uploadDarWithReport(client, dar, { mode: 'upload', signal, readDar }));
        assert.equal(c.packages().state, 'loading', 'read again at once');
        const after = await c.readPackages();
        assert.ok(after.state === 'ready' && after.packageIds.includes(main), JSON.stringify(after.state));
        assert.ok(after.state === 'ready' && after.context.packages.package(main), 'decoded into the index');
        assert.deepEqual(seen, ['loading', 'ready']);
        const vettedAfter = (await c.ledger!.vettedPackages()).flatMap((s) => s.packages.map((x) => x.packageId));
        assert.ok(vettedAfter.includes(main), 'vetting read again');
      } finally {
        await own.close();
      }
    });

    it('without a connected participant, a write only runs (there is no state to move)', async () => {
      const c = connection();
      const result = await c.write('transaction', (client, signal) => client.submitAndWaitForTransaction({ commands: iouCommands() }, { signal }), { offsetOf: (r) => r.transaction.offset });
      assert.ok(result.transaction.offset > 0);
      assert.equal(c.ledger, undefined);
    });
  });

  describe('packages', () => {
    it('are read once connected; none before', async () => {
      const c = connection({ store: new PackageStore(decoder) });
      assert.deepEqual(c.packages(), { state: 'none' });
      await c.connect();
      assert.equal(c.packages().state, 'loading');
      const ready = await c.readPackages();
      assert.ok(ready.state === 'ready');
      assert.deepEqual([...ready.packageIds].sort(), [...(await c.client.packages())].sort());
      assert.equal(ready.context.source, 'on Test');
      assert.ok(ready.context.packages.template(IOU), 'the demo template, decoded');
      assert.equal(c.packages(), ready, 'kept');
    });

    it('go through the storage port: a second connection, with a store of its own, fetches no archive again', async () => {
      const storage = memoryStorage();
      const first = connection({ store: new PackageStore(decoder, storage) });
      const fetched = countCalls(first.client, 'packageArchive');
      const one = await first.readPackages();
      assert.ok(one.state === 'ready' && one.packageIds.length > 0);
      assert.equal(fetched.count, one.packageIds.length);
      assert.deepEqual([...storage.stored.keys()].sort(), [...one.packageIds].sort());

      const second = connection({ store: new PackageStore(decoder, storage) });
      const fetchedAgain = countCalls(second.client, 'packageArchive');
      const two = await second.readPackages();
      assert.ok(two.state === 'ready');
      assert.deepEqual(two.packageIds, one.packageIds);
      assert.equal(fetchedAgain.count, 0, 'every package came from the storage');
    });

    it('a store shared by two connections decodes each package once (no storage at all)', async () => {
      const store = new PackageStore(decoder);
      const first = connection({ store });
      await first.readPackages();
      const second = connection({ store });
      const fetched = countCalls(second.client, 'packageArchive');
      const two = await second.readPackages();
      assert.ok(two.state === 'ready' && two.packageIds.length > 0);
      assert.equal(fetched.count, 0);
    });

    it('a read superseded by a reload (a DAR upload meanwhile): who waited for it gets the newer read', async () => {
      const c = connection({ store: new PackageStore(decoder) });
      await c.connect();
      const waiting = c.readPackages();
      c.reloadPackages();
      const current = c.packages();
      assert.equal(current.state, 'loading');
      const got = await waiting;
      assert.equal(got.state, 'ready');
      assert.equal(got, c.packages(), 'the state of the newer read');
    });

    it('a reload while packages are being fetched (a reconnect meanwhile) fetches none of them again', async () => {
      const c = connection({ store: new PackageStore(decoder) });
      await c.connect();
      const fetched = countCalls(c.client, 'packageArchive');
      const waiting = c.readPackages();
      while (fetched.count === 0) await new Promise((r) => setImmediate(r));
      c.reloadPackages();
      const got = await waiting;
      assert.ok(got.state === 'ready');
      assert.equal(got, c.packages(), 'the state of the newer read');
      assert.equal(fetched.count, got.packageIds.length, 'each package fetched once');
    });

    it('a failed read is the state (failed), not a throw', async () => {
      const closed = await silentHost();
      const url = closed.url;
      await closed.close();
      const c = connection({ store: new PackageStore(decoder), timeoutMs: 5_000 }, url);
      const s = await c.readPackages();
      assert.equal(s.state, 'failed');
      assert.ok(s.state === 'failed' && s.error instanceof NetworkError);
    });
  });

  describe('its token source and its profile', () => {
    it('asks its own token source anew at each connect (not for a connect it joins), and drops it when it goes', async () => {
      const calls: string[] = [];
      const tokens = { provider: async () => undefined, claims: () => undefined, newAttempt: () => void calls.push('newAttempt'), dispose: () => void calls.push('dispose') };
      const c = new LedgerConnection({ profile: profile(p.url), client: new LedgerClient({ baseUrl: p.url, token: tokens.provider, timeoutMs: 10_000 }), tokens });
      assert.equal(c.tokens, tokens);
      const first = c.connect();
      assert.equal(c.connect(), first, 'joined');
      await first;
      await c.connect();
      assert.deepEqual(calls, ['newAttempt', 'newAttempt'], 'one per attempt');
      c.dispose();
      assert.deepEqual(calls, ['newAttempt', 'newAttempt', 'dispose']);
    });

    it('takes a newer version of its profile that its client is not built from, and refuses one it is', () => {
      const c = connection();
      c.useProfile({ ...c.profile, name: 'Renamed' });
      assert.equal(c.profile.name, 'Renamed');
      assert.throws(() => c.useProfile({ ...c.profile, url: `${p.url}/elsewhere` }));
      assert.equal(c.profile.url, p.url);
    });
  });

  describe('dispose', () => {
    it('aborts the connect, the package read and the writes in progress; the state is disconnected', async () => {
      const c = connectionTo(silent.url, { store: new PackageStore(decoder) });
      const connecting = c.connect();
      const reading = c.readPackages();
      let writeSignal: AbortSignal | undefined;
      const writing = c.write('transaction', (client, signal) => ((writeSignal = signal), client.submitAndWaitForTransaction({ commands: iouCommands() }, { signal })));
      const events: string[] = [];
      c.onDidChangeState((s) => events.push(s.state));
      c.dispose();
      await assert.rejects(connecting, CancelledError);
      await assert.rejects(reading, CancelledError);
      await assert.rejects(writing, CancelledError);
      assert.equal(writeSignal?.aborted, true);
      assert.equal(c.state.state, 'disconnected');
      assert.deepEqual(events, [], 'no event after dispose');
      await assert.rejects(c.connect(), CancelledError, 'a disposed connection does not connect again');
    });

    it('drops the ledger state: it reads nothing more', async () => {
      const c = connectionTo(p.url);
      await c.connect();
      const ledger = c.ledger!;
      c.dispose();
      assert.equal(c.ledger, undefined);
      assert.equal(ledger.disposed, true);
    });
  });
});

describe('packagesInUse (the editor and validate choose alike)', () => {
  const ready = (source: string): PackagesState => ({ state: 'ready', context: { packages: new PackageIndex([]), source }, packageIds: [] });

  it("a connection's packages while it has them or reads them; else the DARs'; else unavailable", () => {
    let darsAsked = 0;
    const dars = (s: PackagesState) => () => (darsAsked++, s);
    assert.equal((packagesInUse(ready('on P'), dars(ready('in x.dar'))) as { source: string }).source, 'on P');
    assert.equal(packagesInUse({ state: 'loading', source: 'on P' }, dars(ready('in x.dar'))), undefined, 'wait for the connection');
    assert.equal(darsAsked, 0, 'the DARs are not asked for while the connection serves');
    assert.equal((packagesInUse({ state: 'failed', source: 'on P', error: new Error('x') }, dars(ready('in x.dar'))) as { source: string }).source, 'in x.dar');
    assert.equal((packagesInUse(undefined, dars(ready('in x.dar'))) as { source: string }).source, 'in x.dar');
    assert.equal(packagesInUse(undefined, dars({ state: 'loading', source: 'in x.dar' })), undefined);
    assert.equal(packagesInUse({ state: 'none' }, dars({ state: 'none' })), 'unavailable');
  });
});
