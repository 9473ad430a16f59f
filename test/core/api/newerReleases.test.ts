// What the client sends to releases after 3.6.0 (3.6.1, 3.7, 3.8), whose specs are not published: a
// demo participant playing 3.6 answers, and the client is told the newer version, as such a
// participant would report it. The requests are read as the participant received them.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { legacySelection } from '../../../src/core/api/updatesRequest';
import { ActiveContractsPager } from '../../../src/core/acs/pager';
import { checkCompatibility } from '../../../src/core/compat/check';
import { CantonApiError, PageTokenRefusedError } from '../../../src/core/errors';
import type { OpenApiDocument } from '../../../src/core/compat/openapi';
import { allEndpoints } from '../../../src/core/versions';
import type { DemoParticipant, Exchange } from '../../../src/participant';
import { sendJson, TestServer } from '../../support/httpServer';
import { loadSpec, requireSpec } from '../../support/spec';
import { startCheckedParticipant } from '../../support/specCheck';
import { ALICE, BOB, CID, createdEvent, SYNC } from '../../support/wireSamples';

/** A client to `p` that takes the participant for Canton `version`. */
function clientSeeing(p: DemoParticipant, version: string): LedgerClient {
  const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
  const real = client.version.bind(client);
  client.version = async (o) => ({ ...(await real(o)), version });
  return client;
}

describe('requests to releases after 3.6.0', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  const exchanges: Exchange[] = [];
  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 11, apiVersion: '3.6', onExchange: (x: Exchange) => exchanges.push(x) });
  });
  after(() => p.close());
  beforeEach(() => {
    exchanges.length = 0;
  });

  const bodiesTo = (path: string) => exchanges.filter((x) => x.path === path).map((x) => JSON.parse(x.requestBody) as Record<string, unknown>);

  for (const version of ['3.6.1', '3.7.0', '3.8.0']) {
    it(`${version}: update requests carry no top-level filter or verbose; the legacy form is sent as its updateFormat, and reads the same`, async () => {
      const client = clientSeeing(p, version);
      const end = await client.ledgerEnd();
      const selection = legacySelection({ parties: [p.parties.alice] });
      const got = await client.listUpdates({ beginExclusive: 0, endInclusive: end }, selection);
      await client.listUpdates({ beginExclusive: 0, endInclusive: end }, { filter: { parties: [p.parties.alice] } });
      const bodies = bodiesTo('/v2/updates');
      assert.equal(bodies.length, 2);
      for (const body of bodies) {
        assert.equal('filter' in body, false, JSON.stringify(body));
        assert.equal('verbose' in body, false, JSON.stringify(body));
        assert.ok(body.updateFormat);
      }
      // The same updates as the legacy form itself reads on a release that still takes it.
      const legacyRead = await new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 }).listUpdates({ beginExclusive: 0, endInclusive: end }, selection);
      assert.ok(legacyRead.length > 0);
      assert.deepEqual(got.map((u) => u.offset), legacyRead.map((u) => u.offset));
    });

    it(`${version}: the active contracts are read with the POST page and an eventFormat only`, async () => {
      const client = clientSeeing(p, version);
      await client.pageActiveContracts({ filter: { anyParty: true }, pageSize: 2 });
      assert.deepEqual(exchanges.filter((x) => x.path.startsWith('/v2/state/active-contracts')).map((x) => `${x.method} ${x.path}`), ['POST /v2/state/active-contracts-page']);
      for (const body of bodiesTo('/v2/state/active-contracts-page')) {
        assert.equal('filter' in body, false);
        assert.equal('verbose' in body, false);
        assert.ok(body.eventFormat);
      }
    });
  }

  it('the client never uses the GET active-contracts-page (disabled in 3.7) nor the preferred-package-version route (deleted)', () => {
    const used = allEndpoints().map((e) => `${e.method} ${e.path}`);
    assert.ok(used.includes('POST /v2/state/active-contracts-page'));
    assert.ok(used.includes('POST /v2/interactive-submission/preferred-packages'));
    assert.equal(used.includes('GET /v2/state/active-contracts-page'), false);
    assert.equal(used.some((e) => e.includes('preferred-package-version')), false);
  });
});

describe('incomplete reassignments in the active contracts (multi-synchronizer participants, 3.7)', function () {
  this.timeout(20_000);
  const server = new TestServer();
  let url: string;
  const OTHER = 'other-synchronizer::1220' + '4'.repeat(64);
  const cid = (n: number) => CID.slice(0, -1) + String(n);
  before(async () => {
    url = await server.start();
    server.handler = (r, res) => {
      if (r.url === '/v2/version') return sendJson(res, 200, { version: '3.7.0' });
      if (r.url === '/v2/state/active-contracts-page') {
        return sendJson(res, 200, {
          activeAtOffset: 9,
          nextPageToken: '',
          activeContracts: [
            { workflowId: '', contractEntry: { JsActiveContract: { createdEvent: createdEvent({ contractId: cid(1) }), synchronizerId: SYNC, reassignmentCounter: 0 } } },
            { workflowId: '', contractEntry: { JsIncompleteUnassigned: { createdEvent: createdEvent({ contractId: cid(2) }), unassignedEvent: { source: SYNC, target: OTHER, reassignmentCounter: 1 } } } },
            { workflowId: '', contractEntry: { JsIncompleteAssigned: { assignedEvent: { source: OTHER, target: SYNC, reassignmentCounter: 2, createdEvent: createdEvent({ contractId: cid(3) }) } } } },
          ],
        });
      }
      sendJson(res, 404, {});
    };
  });
  after(() => server.stop());
  beforeEach(() => server.received.splice(0));

  const pageBody = () => JSON.parse(server.received.find((r) => r.url === '/v2/state/active-contracts-page')!.body) as Record<string, unknown>;

  it('in-flight contracts are read as contracts, marked as such, with the synchronizer they leave or reach', async () => {
    const page = await new LedgerClient({ baseUrl: url, timeoutMs: 5_000 }).pageActiveContracts({ filter: { parties: [ALICE, BOB] } });
    assert.deepEqual(
      page.contracts.map((c) => [c.event.contractId, c.synchronizerId, c.reassignmentCounter, c.inFlight]),
      [
        [cid(1), SYNC, 0, undefined],
        [cid(2), SYNC, 1, 'unassigned'],
        [cid(3), SYNC, 2, 'assigned'],
      ],
    );
  });

  it('includeIncompleteReassignments is sent where the participant\'s description has it, and only there', async function () {
    requireSpec(this, 'main-3.6');
    const withField = structuredClone(loadSpec('main-3.6')) as unknown as OpenApiDocument & { components: { schemas: Record<string, unknown> } };
    const page = withField.components.schemas.GetActiveContractsPageRequest as { properties: Record<string, unknown> };
    page.properties.includeIncompleteReassignments = { type: 'boolean' };
    const client = new LedgerClient({ baseUrl: url, timeoutMs: 5_000 });
    client.useCompatibility(checkCompatibility(withField, '3.7.0'));
    await client.pageActiveContracts({ filter: { parties: [ALICE] } });
    assert.equal(pageBody().includeIncompleteReassignments, true);

    server.received.splice(0);
    const without = new LedgerClient({ baseUrl: url, timeoutMs: 5_000 });
    const check = checkCompatibility(loadSpec('main-3.6') as unknown as OpenApiDocument, '3.7.0');
    without.useCompatibility(check);
    await without.pageActiveContracts({ filter: { parties: [ALICE] } });
    assert.equal('includeIncompleteReassignments' in pageBody(), false);
    // A description without it is not a finding: the field goes only where it is declared.
    assert.equal(check.report.operations.find((o) => o.operation === 'activeContractsPage')!.findings.length, 0);
  });
});

describe('a page token refused after an upgrade', function () {
  this.timeout(20_000);
  const server = new TestServer();
  let url: string;
  const cid = (n: number) => CID.slice(0, -1) + String(n);
  const entry = (n: number) => ({ workflowId: '', contractEntry: { JsActiveContract: { createdEvent: createdEvent({ contractId: cid(n) }), synchronizerId: SYNC, reassignmentCounter: 0 } } });
  const INVALID = { code: 'INVALID_ARGUMENT', cause: 'The submitted request has invalid arguments: Invalid page token', errorCategory: 8, grpcCodeValue: 3, context: {} };
  /** The participant before the upgrade wrote `old-token`; after it, it refuses that token. */
  let upgraded = false;
  before(async () => {
    url = await server.start();
    server.handler = (r, res) => {
      if (r.url === '/v2/version') return sendJson(res, 200, { version: upgraded ? '3.7.0' : '3.6.0' });
      if (r.url === '/v2/state/active-contracts-page') {
        const body = JSON.parse(r.body) as { pageToken?: string; eventFormat?: { filtersByParty?: Record<string, unknown> } };
        if (body.eventFormat?.filtersByParty?.[BOB]) return sendJson(res, 400, INVALID);
        if (body.pageToken) return upgraded ? sendJson(res, 400, INVALID) : sendJson(res, 200, { activeAtOffset: 5, activeContracts: [entry(2)], nextPageToken: '' });
        return upgraded
          ? sendJson(res, 200, { activeAtOffset: 9, activeContracts: [entry(1), entry(2), entry(3)], nextPageToken: '' })
          : sendJson(res, 200, { activeAtOffset: 5, activeContracts: [entry(1)], nextPageToken: 'old-token' });
      }
      sendJson(res, 404, {});
    };
  });
  after(() => server.stop());

  it('the refusal is typed, with the token; an invalid first page is not a token refused', async () => {
    upgraded = false;
    const first = await new LedgerClient({ baseUrl: url, timeoutMs: 5_000 }).pageActiveContracts({ filter: { parties: [ALICE] }, pageSize: 1 });
    upgraded = true;
    await assert.rejects(new LedgerClient({ baseUrl: url, timeoutMs: 5_000 }).pageActiveContracts(first.next!), (e) => e instanceof PageTokenRefusedError && e.pageToken === 'old-token' && e.code === 'INVALID_ARGUMENT');
    await assert.rejects(new LedgerClient({ baseUrl: url, timeoutMs: 5_000 }).pageActiveContracts({ filter: { parties: [BOB] } }), (e) => e instanceof CantonApiError && !(e instanceof PageTokenRefusedError));
  });

  it('the Active Contracts pager restarts from the first page, and says why in one line', async () => {
    upgraded = false;
    const client = new LedgerClient({ baseUrl: url, timeoutMs: 5_000 });
    const pager = new ActiveContractsPager(client, { filter: { parties: [ALICE] }, pageSize: 3 });
    await pager.loadMore();
    assert.deepEqual(pager.state.contracts.map((c) => c.event.contractId), [cid(1)]);
    assert.equal(pager.state.restarted, undefined);
    upgraded = true;
    await pager.loadMore();
    assert.deepEqual(pager.state.contracts.map((c) => c.event.contractId), [cid(1), cid(2), cid(3)], 'each contract once, from the new snapshot');
    assert.equal(pager.state.activeAtOffset, 9);
    assert.equal(pager.state.complete, true);
    assert.equal(
      pager.state.restarted,
      'The participant refused the page token (INVALID_ARGUMENT; after an upgrade it refuses the tokens of an earlier version): read again from the first page at offset 9 (was 5), the 1 contracts loaded before dropped.',
    );
  });
});
