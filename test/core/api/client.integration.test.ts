// The client against the demo participant over real loopback HTTP.
import assert from 'node:assert/strict';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { LedgerClient } from '../../../src/core/api/client';
import { legacySelection } from '../../../src/core/api/updatesRequest';
import { cachingTokenProvider, mintSandboxToken } from '../../../src/core/auth/jwt';
import {
  AuthError, CantonApiError, isOutcomeUnknown, ListTooLargeError, NetworkError, NotServedError, ProtocolError, RequestValidationError, UnsupportedOperationError,
} from '../../../src/core/errors';
import type { Update } from '../../../src/core/models/updates';
import type * as wire from '../../../src/core/models/wire';
import { DemoParticipant } from '../../../src/participant';
import { startCheckedParticipant } from '../../support/specCheck';
import { decodeArchivePayload } from '../../../src/core/daml/lf/archive';
import { DARS, requireDar, requireDarBytes } from '../../support/dars';
import { TestServer, sendJson } from '../../support/httpServer';

const IOU = '#demo-iou:Iou:Iou';
const ASSET = '#demo-asset:Asset:Asset';
const ANY = { filter: { anyParty: true } } as const;

function iouCreate(issuer: string, owner: string, amount = '100.0'): wire.Command {
  return { CreateCommand: { templateId: IOU, createArguments: { issuer, owner, currency: 'USD', amount, observers: [] } } };
}

function commands(actAs: string, ...cmds: wire.Command[]): wire.JsCommands {
  return { commands: cmds, commandId: randomUUID(), actAs: [actAs], userId: 'demo-admin' };
}

/** A submit request with the API's default transaction format (none sent). */
function submitRequest(actAs: string, ...cmds: wire.Command[]): wire.JsSubmitAndWaitForTransactionRequest {
  return { commands: commands(actAs, ...cmds) };
}

async function collect(gen: AsyncIterable<Update[]>): Promise<Update[]> {
  const all: Update[] = [];
  for await (const b of gen) all.push(...b);
  return all;
}

const offsets = (us: Update[]) => us.map((u) => u.offset);

describe('LedgerClient against the demo participant', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let client: LedgerClient;

  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 7 });
    client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
  });
  after(() => p.close());

  describe('supporting calls', () => {
    it('reads version (cached per client), ledger end, synchronizers, parties, users, packages and health', async () => {
      const caps = await client.capabilities();
      assert.match(caps.version, /^3\.5/);
      assert.equal(caps.has('updatesPage'), true);
      assert.equal(await client.capabilities(), caps, 'cached');
      assert.ok((await client.ledgerEnd()) > 10, 'seeded history');
      const syncs = await client.connectedSynchronizers();
      assert.equal(syncs.length, 1);
      const parties = (await client.parties()).map((x) => x.party);
      for (const party of Object.values(p.parties)) assert.ok(parties.includes(party), party);
      assert.equal(await client.participantId(), p.participantId);
      const rights = await client.userRights('demo-admin');
      assert.equal(rights.participantAdmin, true);
      assert.ok(rights.actAs.includes(p.parties.alice));
      assert.ok((await client.packages()).length >= 2);
      assert.equal(await client.livez(), true);
      assert.equal((await client.readyz()).ready, true);
      const pruned = await client.prunedOffsets();
      assert.equal(pruned.participantPrunedUpToInclusive, 0);
    });
  });

  describe('updates', () => {
    it('lists every kind of update in a range, decoded', async () => {
      const end = await client.ledgerEnd();
      const all = await client.listUpdates({ beginExclusive: 0, endInclusive: end }, { filter: { anyParty: true, includeTopologyEvents: true, includeReassignments: true } });
      const kinds = new Set(all.map((u) => u.kind));
      for (const k of ['transaction', 'topology', 'checkpoint']) assert.ok(kinds.has(k as Update['kind']), `has ${k}: ${[...kinds]}`);
      assert.ok(!kinds.has('unknown'));
      assert.deepEqual(offsets(all), [...offsets(all)].sort((a, b) => a! - b!), 'ascending');
      assert.ok(all.at(-1)!.offset! <= end);
      const tx = all.find((u) => u.kind === 'transaction' && u.events.length > 0);
      assert.ok(tx && tx.kind === 'transaction' && tx.events[0].templateId.includes(':'));
    });

    it('filters by party and template (package-name form)', async () => {
      const end = await client.ledgerEnd();
      const bobs = await client.listUpdates({ beginExclusive: 0, endInclusive: end }, { filter: { parties: [p.parties.bob], templateIds: [IOU] } });
      const txs = bobs.filter((u) => u.kind === 'transaction');
      assert.ok(txs.length > 0);
      for (const t of txs) {
        if (t.kind !== 'transaction') continue;
        for (const e of t.events) {
          assert.match(e.templateId, /:Iou:Iou$/);
          assert.ok(e.witnessParties.includes(p.parties.bob), 'stakeholder Bob');
        }
      }
    });

    it('walks a range larger than the server cap, ascending and descending, with no gaps or duplicates', async () => {
      const local = await startCheckedParticipant({ port: 0, seed: 3, listCap: 20 });
      try {
        local.state.appendSynthetic(150);
        const c = new LedgerClient({ baseUrl: local.url, pageSize: 15 });
        const end = await c.ledgerEnd();
        await assert.rejects(c.listUpdates({ beginExclusive: 0, endInclusive: end }, ANY), (e) => e instanceof ListTooLargeError && e.cap === 20);
        const asc = await collect(c.walkUpdates({ selection: ANY }));
        assert.ok(asc.length > 100, `${asc.length}`);
        assert.equal(new Set(asc.map((u) => `${u.kind}@${u.offset}`)).size, asc.length, 'no duplicates');
        assert.deepEqual(offsets(asc), [...offsets(asc)].sort((a, b) => a! - b!));
        assert.equal(asc.at(-1)!.offset, end);
        const desc = await collect(c.walkUpdates({ selection: ANY, descending: true }));
        assert.deepEqual(new Set(desc.map((u) => `${u.kind}@${u.offset}`)), new Set(asc.map((u) => `${u.kind}@${u.offset}`)));
        assert.deepEqual(offsets(desc), [...offsets(asc)].reverse());
      } finally {
        await local.close();
      }
    });

    it('pages with offsets and limit where get-updates-page is missing, shrinking to the cap on 413', async () => {
      const local = await startCheckedParticipant({ port: 0, seed: 4, listCap: 12, apiVersion: '3.4' });
      try {
        local.state.appendSynthetic(60);
        const c = new LedgerClient({ baseUrl: local.url, pageSize: 50 });
        assert.equal((await c.capabilities()).has('updatesPage'), false);
        const pages: number[] = [];
        let page = await c.pageUpdates({ selection: ANY });
        for (;;) {
          pages.push(page.updates.length);
          if (!page.next) break;
          page = await c.pageUpdates(page.next);
        }
        assert.ok(pages.every((n) => n <= 12), `pages ${pages}`);
        const walked = await collect(c.walkUpdates({ selection: ANY }));
        const end = await c.ledgerEnd();
        // The reference: everything in chunks of the cap's size, each read whole (no limit, so nothing is cut).
        const direct: Update[] = [];
        for (let begin = 0; begin < end; begin += 5) direct.push(...(await c.listUpdates({ beginExclusive: begin, endInclusive: Math.min(begin + 5, end) }, ANY)));
        assert.ok(direct.some((u, i) => i > 0 && u.offset === direct[i - 1].offset), 'the range has a checkpoint sharing an offset');
        assert.deepEqual(walked.map((u) => `${u.kind}@${u.offset}`), direct.map((u) => `${u.kind}@${u.offset}`));
        const descending = await collect(new LedgerClient({ baseUrl: local.url, pageSize: 3 }).walkUpdates({ selection: ANY, pageSize: 3 }));
        assert.deepEqual(descending.map((u) => `${u.kind}@${u.offset}`), direct.map((u) => `${u.kind}@${u.offset}`), 'tiny pages lose nothing either');
        await assert.rejects(c.listUpdates({ beginExclusive: 0, endInclusive: 5, descending: true }, ANY), UnsupportedOperationError);
      } finally {
        await local.close();
      }
    });

    it('pins the end of the first page so that paging ends while the ledger grows', async () => {
      const first = await client.pageUpdates({ selection: ANY, pageSize: 5 });
      const pinned = first.endInclusive;
      await client.submitAndWaitForTransaction(submitRequest(p.parties.alice, iouCreate(p.parties.alice, p.parties.alice)));
      let page = first;
      while (page.next) page = await client.pageUpdates(page.next);
      assert.equal(page.endInclusive, pinned);
      assert.ok((await client.ledgerEnd()) > pinned);
    });

    it('uses /v2/updates on a 3.6 participant (no /flats)', async () => {
      const local = await startCheckedParticipant({ port: 0, seed: 5, apiVersion: '3.6' });
      try {
        const c = new LedgerClient({ baseUrl: local.url });
        assert.equal((await c.capabilities()).has('listUpdatesFlats'), false);
        const end = await c.ledgerEnd();
        assert.ok((await c.listUpdates({ beginExclusive: 0, endInclusive: end }, ANY)).length > 0);
      } finally {
        await local.close();
      }
    });

    it('reports a 404 from a path the version has as not served, naming the likely cause', async () => {
      const local = await startCheckedParticipant({ port: 0, seed: 5, apiVersion: '3.5' });
      const proxy = new TestServer();
      try {
        const target = new URL(local.url);
        // A proxy that passes on everything but the update list, as a wrong path prefix or a strict proxy would.
        proxy.handler = (r, res) => {
          if (r.url.startsWith('/v2/updates')) {
            res.writeHead(404, { 'content-type': 'text/plain' });
            return res.end('The requested resource could not be found.');
          }
          const fwd = http.request({ host: target.hostname, port: target.port, path: r.url, method: r.method, headers: r.headers }, (up) => {
            res.writeHead(up.statusCode ?? 500, up.headers);
            up.pipe(res);
          });
          fwd.end(r.body);
        };
        const c = new LedgerClient({ baseUrl: await proxy.start() });
        const end = await c.ledgerEnd();
        await assert.rejects(c.listUpdates({ beginExclusive: 0, endInclusive: end }, ANY), (e) => {
          assert.ok(e instanceof NotServedError, String(e));
          assert.equal(e.path, '/v2/updates');
          assert.match(e.message, /does not serve POST \/v2\/updates, although Canton 3\.5\.10 has it/);
          assert.match(e.hint, /path prefix/);
          return true;
        });
      } finally {
        await proxy.stop();
        await local.close();
      }
    });

    it('sends the deprecated legacy filter form when asked', async () => {
      const end = await client.ledgerEnd();
      const legacy = await client.listUpdates({ beginExclusive: 0, endInclusive: end }, legacySelection({ parties: [p.parties.alice] }));
      assert.ok(legacy.some((u) => u.kind === 'transaction'));
      assert.ok(!legacy.some((u) => u.kind === 'topology'), 'the legacy form has no topology events');
    });

    it('returns an open-ended read after the idle timeout, including an update submitted while it waits', async () => {
      const begin = await client.ledgerEnd();
      const reading = client.listUpdates({ beginExclusive: begin }, { filter: { parties: [p.parties.alice] } }, { idleTimeoutMs: 400 });
      await new Promise((r) => setTimeout(r, 100));
      const submitted = await client.submitAndWaitForTransaction(submitRequest(p.parties.alice, iouCreate(p.parties.alice, p.parties.alice, '5.0')));
      const got = await reading;
      assert.ok(got.some((u) => u.kind === 'transaction' && u.updateId === submitted.transaction.updateId));
    });

    it('reports Canton errors for offsets beyond the end or below the pruning offset', async () => {
      const end = await client.ledgerEnd();
      await assert.rejects(client.listUpdates({ beginExclusive: 0, endInclusive: end + 100 }, ANY), (e) => e instanceof CantonApiError && e.code === 'OFFSET_AFTER_LEDGER_END' && e.retryable);
      const local = await startCheckedParticipant({ port: 0, seed: 6 });
      try {
        local.state.prune(5);
        const c = new LedgerClient({ baseUrl: local.url });
        await assert.rejects(c.listUpdates({ beginExclusive: 2, endInclusive: 10 }, ANY), (e) => e instanceof CantonApiError && e.code === 'PARTICIPANT_PRUNED_DATA_ACCESSED' && /pruning/.test(e.hint));
        assert.equal((await c.prunedOffsets()).participantPrunedUpToInclusive, 5);
      } finally {
        await local.close();
      }
    });

    it('validates before sending', async () => {
      await assert.rejects(client.listUpdates({ beginExclusive: -1 }, ANY), RequestValidationError);
      await assert.rejects(client.listUpdates({ beginExclusive: 0 }, ANY, { limit: 0 }), RequestValidationError);
    });
  });

  describe('commands and events', () => {
    it('submits each command kind and looks up the contracts\' events', async () => {
      const { alice, bob, bank } = p.parties;
      const created = await client.submitAndWaitForTransaction({ commands: commands(bank, iouCreate(bank, alice, '50.0')) });
      assert.equal(created.transaction.events.length, 1);
      const iou = created.transaction.events[0];
      assert.equal(iou.kind, 'created');
      assert.equal(created.transaction.commandId !== undefined, true);

      const split = await client.submitAndWaitForTransaction(submitRequest(alice, { ExerciseCommand: { templateId: IOU, contractId: iou.contractId, choice: 'Iou_Split', choiceArgument: { splitAmount: '20.0' } } }));
      assert.deepEqual(split.transaction.events.map((e) => e.kind).sort(), ['archived', 'created', 'created']);

      const cae = await client.submitAndWaitForTransaction(
        submitRequest(bank, { CreateAndExerciseCommand: { templateId: IOU, createArguments: { issuer: bank, owner: bank, currency: 'EUR', amount: '7.0', observers: [] }, choice: 'Iou_Transfer', choiceArgument: { newOwner: bob } } }),
      );
      assert.ok(cae.transaction.events.some((e) => e.kind === 'created'));

      const assetId = `asset-${randomUUID()}`;
      await client.submitAndWaitForTransaction(submitRequest(alice, { CreateCommand: { templateId: ASSET, createArguments: { owner: alice, id: assetId, description: 'a bike' } } }));
      const renamed = await client.submitAndWaitForTransaction(
        submitRequest(alice, { ExerciseByKeyCommand: { templateId: ASSET, contractKey: { _1: alice, _2: assetId }, choice: 'Asset_Rename', choiceArgument: { newDescription: 'a red bike' } } }),
      );
      const newAsset = renamed.transaction.events.find((e) => e.kind === 'created');
      assert.ok(newAsset && newAsset.kind === 'created');
      assert.equal((newAsset.createArgument as { description: string }).description, 'a red bike');

      const archived = await client.eventsByContractId(iou.contractId, ANY);
      assert.equal(archived.active, false);
      assert.equal(archived.created?.event.contractId, iou.contractId);
      assert.equal(archived.archived?.event.contractId, iou.contractId);
      const active = await client.eventsByContractId(newAsset.contractId, { filter: { parties: [alice] } });
      assert.equal(active.active, true);
      assert.equal(active.archived, undefined);
      const unknown = await client.eventsByContractId('00' + 'f'.repeat(136), ANY).catch((e) => e);
      assert.ok(unknown instanceof CantonApiError && unknown.code === 'CONTRACT_EVENTS_NOT_FOUND' && unknown.status === 404);
      assert.equal(unknown.resource('CONTRACT_ID'), '00' + 'f'.repeat(136));
    });

    it('answers a second submission with the same commandId with DUPLICATE_COMMAND', async () => {
      const cmd = submitRequest(p.parties.alice, iouCreate(p.parties.alice, p.parties.alice));
      await client.submitAndWaitForTransaction(cmd);
      const dup = await client.submitAndWaitForTransaction(cmd).catch((e) => e);
      assert.ok(dup instanceof CantonApiError && dup.code === 'DUPLICATE_COMMAND' && dup.status === 409);
      assert.match(dup.hint, /not executed again/);
      assert.equal(isOutcomeUnknown(dup), false);
    });

    it('turns a dropped response into an unknown outcome; a retry with the same commandId does not execute twice', async () => {
      const cmd = submitRequest(p.parties.alice, iouCreate(p.parties.alice, p.parties.alice, '1234.5'));
      const before = await client.ledgerEnd();
      p.faults.submit = { dropResponse: true, times: 1 };
      const err = await client.submitAndWaitForTransaction(cmd).catch((e) => e);
      assert.ok(err instanceof NetworkError, String(err));
      assert.equal(isOutcomeUnknown(err), true);
      const retry = await client.submitAndWaitForTransaction(cmd).catch((e) => e);
      assert.ok(retry instanceof CantonApiError && retry.code === 'DUPLICATE_COMMAND');
      const after = await client.ledgerEnd();
      const txs = (await client.listUpdates({ beginExclusive: before, endInclusive: after }, ANY)).filter((u) => u.kind === 'transaction' && u.commandId === cmd.commands.commandId);
      assert.equal(txs.length, 1, 'executed exactly once');
    });

    it('reports Daml-level rejections with their Canton code', async () => {
      const missing = await client.submitAndWaitForTransaction(submitRequest(p.parties.alice, { ExerciseCommand: { templateId: IOU, contractId: '00' + 'e'.repeat(136), choice: 'Archive', choiceArgument: {} } })).catch((e) => e);
      assert.ok(missing instanceof CantonApiError && missing.code === 'CONTRACT_NOT_FOUND', String(missing));
    });
  });

  describe('package vetting', () => {
    it('lists, dry-runs and applies a change with its diff', async () => {
      const [state] = await client.listVettedPackages();
      assert.ok(state.packages.length > 0);
      const v2 = { packageName: 'demo-iou', packageVersion: '2.0.0' };
      const dry = await client.updateVettedPackages({ changes: [{ operation: { Vet: { value: { packages: [v2] } } } }], dryRun: true });
      assert.equal(dry.dryRun, true);
      assert.deepEqual(dry.diff.added.map((x) => x.packageVersion), ['2.0.0']);
      assert.equal((await client.listVettedPackages())[0].topologySerial, state.topologySerial, 'dry run changed nothing');
      const applied = await client.updateVettedPackages({ changes: [{ operation: { Vet: { value: { packages: [v2] } } } }], expectedTopologySerial: { serial: { Prior: { value: state.topologySerial } } } });
      assert.equal(applied.next.topologySerial, state.topologySerial + 1);
      assert.equal(applied.past?.topologySerial, state.topologySerial);
      const stale = await client.updateVettedPackages({ changes: [{ operation: { Unvet: { value: { packages: [v2] } } } }], expectedTopologySerial: { serial: { Prior: { value: state.topologySerial } } } }).catch((e) => e);
      assert.ok(stale instanceof CantonApiError && stale.code === 'TOPOLOGY_SERIAL_MISMATCH', String(stale));
    });

    it('names the missing dependencies, and needs a synchronizer id with two synchronizers', async () => {
      const local = await startCheckedParticipant({ port: 0, seed: 8, synchronizers: 2 });
      try {
        const c = new LedgerClient({ baseUrl: local.url });
        const auto = await c.updateVettedPackages({ changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }], dryRun: true }).catch((e) => e);
        assert.ok(auto instanceof CantonApiError && auto.code === 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER', String(auto));
        const [sync] = await c.connectedSynchronizers();
        const unvetIou = await c.updateVettedPackages({ synchronizerId: sync.synchronizerId, changes: [{ operation: { Unvet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '1.0.0' }] } } } }] }).catch((e) => e);
        // Unvetting a dependency of a vetted package, or vetting without dependencies, is refused with the unvetted ids
        // (demo-asset's key type is daml-prim's DA.Types:Tuple2).
        if (unvetIou instanceof CantonApiError) assert.equal(unvetIou.code, 'TOPOLOGY_DEPENDENCIES_NOT_VETTED');
        const deps = await c.updateVettedPackages({ synchronizerId: sync.synchronizerId, dryRun: true, changes: [{ operation: { Unvet: { value: { packages: [{ packageName: 'daml-prim' }] } } } }, { operation: { Vet: { value: { packages: [{ packageName: 'demo-asset', packageVersion: '1.0.0' }] } } } }] }).catch((e) => e);
        assert.ok(deps instanceof CantonApiError && deps.code === 'TOPOLOGY_DEPENDENCIES_NOT_VETTED', String(deps));
        assert.match(Object.values(deps.context).join(' '), /[0-9a-f]{64}/, 'names the unvetted package ids');
      } finally {
        await local.close();
      }
    });
  });

  describe('packages', () => {
    it('downloads package archives (checked against Canton-Package-Hash) and reads their status', async () => {
      const ids = await client.packages();
      for (const id of ids) assert.equal(decodeArchivePayload(await client.packageArchive(id), id).id, id);
      assert.equal(await client.packageStatus(ids[0]), 'PACKAGE_STATUS_REGISTERED');
      assert.equal(await client.packageStatus('0'.repeat(64)), 'PACKAGE_STATUS_UNSPECIFIED');
      await assert.rejects(client.packageArchive('0'.repeat(64)), (e) => e instanceof CantonApiError && e.status === 404 && e.code === 'PACKAGE_NOT_FOUND');
      await assert.rejects(client.packageArchive(ids[0], { maxBytes: 10 }), ProtocolError);
    });

    it('refuses an archive whose Canton-Package-Hash names another package', async () => {
      const server = new TestServer();
      try {
        server.handler = (r, res) => {
          if (r.url === '/v2/version') return sendJson(res, 200, { version: '3.5.10' });
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'canton-package-hash': 'b'.repeat(64) }).end(Buffer.from([1, 2, 3]));
        };
        const c = new LedgerClient({ baseUrl: await server.start() });
        await assert.rejects(c.packageArchive('a'.repeat(64)), (e) => e instanceof ProtocolError && /says its hash is b{64}/.test(e.message));
      } finally {
        await server.stop();
      }
    });

    it('uploads and validates DARs: POST /v2/dars with its options on 3.5, POST /v2/packages on 3.3', async function () {
      const ping = requireDarBytes(this, DARS.ping);
      const holding = requireDarBytes(this, DARS.holding);
      const pingId = requireDar(this, DARS.ping).mainPackageId;
      const holdingId = requireDar(this, DARS.holding).mainPackageId;
      const local = await startCheckedParticipant({ port: 0, seed: 13 });
      const old = await startCheckedParticipant({ port: 0, seed: 13, apiVersion: '3.3' });
      try {
        const c = new LedgerClient({ baseUrl: local.url });
        await c.validateDar(ping);
        assert.equal(await c.packageStatus(pingId), 'PACKAGE_STATUS_UNSPECIFIED', 'validating uploads nothing');
        await assert.rejects(c.validateDar(new Uint8Array([1, 2, 3])), (e) => e instanceof CantonApiError && e.code === 'INVALID_DAR');
        await c.uploadDar(holding, { vetAllPackages: false });
        await c.uploadDar(ping);
        const vetted = (await c.listVettedPackages())[0].packages.map((x) => x.packageId);
        assert.ok(vetted.includes(pingId) && !vetted.includes(holdingId));
        assert.equal(decodeArchivePayload(await c.packageArchive(holdingId), holdingId).name, 'splice-api-token-holding-v1');

        const c33 = new LedgerClient({ baseUrl: old.url });
        await assert.rejects(c33.validateDar(ping), (e) => e instanceof UnsupportedOperationError && e.operationName === 'validateDar');
        await assert.rejects(c33.uploadDar(ping, { vetAllPackages: false }), (e) => e instanceof UnsupportedOperationError && e.operationName === 'uploadDar');
        await c33.uploadDar(ping);
        assert.equal(await c33.packageStatus(pingId), 'PACKAGE_STATUS_REGISTERED');
      } finally {
        await Promise.all([local.close(), old.close()]);
      }
    });
  });

  describe('older releases', () => {
    it('3.3: the user comes from the token or the configured user id; vetting is refused before sending', async () => {
      const secret = 'client-3-3-shared-secret';
      const local = await startCheckedParticipant({ port: 0, seed: 12, apiVersion: '3.3', auth: { secret } });
      try {
        const withToken = new LedgerClient({ baseUrl: local.url, token: () => local.mintToken('alice') });
        assert.equal((await withToken.authenticatedUser()).id, 'alice');
        assert.equal((await withToken.authenticatedUser({ fallbackUserId: 'bob' })).id, 'alice', 'the token wins');
        const open = await startCheckedParticipant({ port: 0, seed: 12, apiVersion: '3.3' });
        try {
          const c = new LedgerClient({ baseUrl: open.url });
          assert.equal((await c.authenticatedUser({ fallbackUserId: 'bob' })).primaryParty, open.parties.bob);
          await assert.rejects(c.authenticatedUser(), (e) => e instanceof UnsupportedOperationError && e.operationName === 'authenticatedUser' && e.version === '3.3.0-demo');
          const vet = c.updateVettedPackages({ changes: [{ operation: { Unvet: { value: { packages: [{ packageName: 'demo-iou' }] } } } }], dryRun: true });
          await assert.rejects(vet, (e) => e instanceof UnsupportedOperationError && e.message === 'Package vetting is not available on Canton 3.3.0');
          await assert.rejects(c.listVettedPackages(), (e) => e instanceof UnsupportedOperationError && e.operationName === 'listVettedPackages');
        } finally {
          await open.close();
        }
      } finally {
        await local.close();
      }
    });

    it('3.4.11: lists with GET /v2/package-vetting and updates with POST, filling in the fields that release requires', async () => {
      const local = await startCheckedParticipant({ port: 0, seed: 12, apiVersion: '3.4.11', synchronizers: 2 });
      try {
        const c = new LedgerClient({ baseUrl: local.url });
        const states = await c.listVettedPackages();
        assert.equal(states.length, 2);
        const change = { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }], dryRun: true };
        // No synchronizerId on a participant with two: the server's own error, not a decoding failure.
        await assert.rejects(c.updateVettedPackages(change), (e) => e instanceof CantonApiError && e.code === 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER');
        const r = await c.updateVettedPackages({ ...change, synchronizerId: states[0].synchronizerId });
        assert.equal(r.dryRun, true);
        assert.deepEqual(r.diff.added.map((x) => x.packageVersion), ['2.0.0']);
      } finally {
        await local.close();
      }
    });
  });

  describe('auth', () => {
    let secured: DemoParticipant;
    const secret = 'demo-participant-shared-secret';
    before(async () => (secured = await startCheckedParticipant({ port: 0, seed: 9, auth: { secret } })));
    after(() => secured.close());

    it('works with minted sandbox tokens, renewed by the caching provider', async () => {
      let minted = 0;
      const token = cachingTokenProvider(async () => {
        minted++;
        return mintSandboxToken({ secret, userId: 'alice', form: 'audience', participantId: secured.participantId });
      });
      const c = new LedgerClient({ baseUrl: secured.url, token });
      assert.equal((await c.authenticatedUser()).id, 'alice');
      assert.ok((await c.ledgerEnd()) > 0);
      assert.equal(minted, 1);
    });

    it('maps missing or bad tokens to 401 and missing rights to 403', async () => {
      await assert.rejects(new LedgerClient({ baseUrl: secured.url }).ledgerEnd(), (e) => e instanceof AuthError && e.failure === 'unauthenticated');
      const wrong = new LedgerClient({ baseUrl: secured.url, token: () => mintSandboxToken({ secret: 'another-secret-entirely', userId: 'alice', form: 'scope', participantId: 'p::1' }) });
      await assert.rejects(wrong.ledgerEnd(), (e) => e instanceof AuthError && e.status === 401);
      const alice = new LedgerClient({ baseUrl: secured.url, token: () => secured.mintToken('alice') });
      await assert.rejects(alice.updateVettedPackages({ changes: [{ operation: { Unvet: { value: { packages: [{ packageName: 'demo-iou' }] } } } }], dryRun: true }), (e) => e instanceof AuthError && e.failure === 'permission-denied');
      const ghost = new LedgerClient({ baseUrl: secured.url, token: () => secured.mintToken('nobody-here') });
      await assert.rejects(ghost.ledgerEnd(), (e) => e instanceof AuthError && e.failure === 'unknown-user');
    });
  });
});
