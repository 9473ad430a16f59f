import assert from 'node:assert/strict';
import type { DemoParticipant } from '../../src/participant/index';
import { assertCantonError, assertSpecValid, get, post, start } from './helpers';

describe('demo participant: supporting endpoints', () => {
  let p: DemoParticipant;
  const logs: string[] = [];
  before(async () => {
    p = await start({ logger: (line) => logs.push(line) });
  });
  after(() => p.close());

  it('says at start that it is a simulator, and marks every response', async () => {
    assert.match(logs[0], /SIMULATOR/);
    assert.match(logs[0], new RegExp(p.url.replace(/[.]/g, '\\.')));
    const reply = await get(p, '/v2/state/ledger-end');
    assert.equal(reply.headers.get('x-demo-participant'), 'true');
    assert.match(p.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('keeps an idle connection open as long as Canton’s pekko-http server does (60 s), not Node’s 5 s', async () => {
    const reply = await get(p, '/v2/state/ledger-end');
    assert.equal(reply.headers.get('keep-alive'), 'timeout=60');
  });

  it('GET /v2/version: the 3.5 demo release and the feature descriptor', async () => {
    const { status, json } = await get(p, '/v2/version');
    assert.equal(status, 200);
    assert.equal(json.version, '3.5.10-demo');
    assert.deepEqual(json.features.offsetCheckpoint.maxOffsetCheckpointEmissionDelay, { seconds: 75, nanos: 0, unknownFields: { fields: {} } });
    assert.equal(json.features.packageFeature.maxVettedPackagesPageSize, 100);
    assertSpecValid(json, 'GetLedgerApiVersionResponse');
  });

  it('GET /v2/state/ledger-end and /latest-pruned-offsets', async () => {
    const end = await get(p, '/v2/state/ledger-end');
    assert.deepEqual(end.json, { offset: p.state.ledgerEnd });
    assert.ok(end.json.offset >= 24, 'a fresh start shows a few dozen updates');
    const pruned = await get(p, '/v2/state/latest-pruned-offsets');
    assert.deepEqual(pruned.json, { participantPrunedUpToInclusive: 0, allDivulgedContractsPrunedUpToInclusive: 0 });
    assertSpecValid(pruned.json, 'GetLatestPrunedOffsetsResponse');
  });

  it('GET /v2/state/connected-synchronizers, with and without a party', async () => {
    const all = await get(p, '/v2/state/connected-synchronizers');
    assert.equal(all.json.connectedSynchronizers.length, 1);
    assert.deepEqual(Object.keys(all.json.connectedSynchronizers[0]), ['synchronizerAlias', 'synchronizerId', 'permission']);
    assert.match(all.json.connectedSynchronizers[0].synchronizerId, /^demo-sync::1220[0-9a-f]{64}$/);
    assert.equal(all.json.connectedSynchronizers[0].permission, 'PARTICIPANT_PERMISSION_UNSPECIFIED');
    const alice = await get(p, `/v2/state/connected-synchronizers?party=${encodeURIComponent(p.parties.alice)}`);
    assert.equal(alice.json.connectedSynchronizers[0].permission, 'PARTICIPANT_PERMISSION_SUBMISSION');
    const stranger = await get(p, '/v2/state/connected-synchronizers?party=Nobody::1220ab');
    assert.deepEqual(stranger.json, { connectedSynchronizers: [] });
    assertSpecValid(alice.json, 'GetConnectedSynchronizersResponse');
  });

  it('GET /v2/parties and /v2/parties/participant-id: full party ids on the participant namespace', async () => {
    const { json } = await get(p, '/v2/parties');
    const ids = json.partyDetails.map((d: { party: string }) => d.party);
    for (const party of Object.values(p.parties)) assert.ok(ids.includes(party), party);
    assert.match(p.parties.alice, /^Alice::1220[0-9a-f]{64}$/);
    assert.equal(json.nextPageToken, '');
    assert.deepEqual(json.partyDetails.find((d: { party: string }) => d.party === p.parties.bob), {
      party: p.parties.bob,
      isLocal: true,
      localMetadata: { resourceVersion: '0', annotations: {} },
      identityProviderId: '',
    });
    assertSpecValid(json, 'ListKnownPartiesResponse');
    const pid = await get(p, '/v2/parties/participant-id');
    assert.deepEqual(pid.json, { participantId: p.participantId });
    assert.equal(p.participantId.split('::')[1], p.parties.alice.split('::')[1], 'parties share the participant namespace');
  });

  it('pages parties with pageSize and pageToken', async () => {
    const first = await get(p, '/v2/parties', { query: { pageSize: 2 } });
    assert.equal(first.json.partyDetails.length, 2);
    assert.notEqual(first.json.nextPageToken, '');
    const second = await get(p, '/v2/parties', { query: { pageSize: 2, pageToken: first.json.nextPageToken } });
    assert.notDeepEqual(second.json.partyDetails, first.json.partyDetails);
    const bad = await get(p, '/v2/parties', { query: { pageSize: 'x' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.text, 'Invalid value for: query parameter pageSize');
  });

  it('POST /v2/parties allocates a party and records its topology transaction', async () => {
    const before = p.state.ledgerEnd;
    const { status, json } = await post(p, '/v2/parties', { partyIdHint: 'Erin' });
    assert.equal(status, 200);
    assert.equal(json.partyDetails.party, `Erin::1220${p.participantId.split('::1220')[1]}`);
    assert.equal(p.state.ledgerEnd, before + 1);
    const again = await post(p, '/v2/parties', { partyIdHint: 'Erin' });
    assertCantonError(again, 409, 'PARTY_ALREADY_EXISTS', 10);
  });

  it('GET /v2/users, /v2/users/{id} and /v2/users/{id}/rights', async () => {
    const users = await get(p, '/v2/users');
    assert.deepEqual(
      users.json.users.map((u: { id: string }) => u.id),
      ['alice', 'auditor', 'bank', 'bob', 'charlie', 'demo-admin', 'former-employee'],
    );
    assertSpecValid(users.json, 'ListUsersResponse');
    const alice = await get(p, '/v2/users/alice');
    assert.deepEqual(alice.json.user, {
      id: 'alice',
      primaryParty: p.parties.alice,
      isDeactivated: false,
      metadata: { resourceVersion: '0', annotations: {} },
      identityProviderId: '',
      primaryPartyAuthentication: false,
    });
    const rights = await get(p, '/v2/users/demo-admin/rights');
    assert.deepEqual(rights.json.rights.slice(0, 3), [
      { kind: { ParticipantAdmin: { value: {} } } },
      { kind: { CanReadAsAnyParty: { value: {} } } },
      { kind: { CanActAs: { value: { party: p.parties.bank } } } },
    ]);
    assertSpecValid(rights.json, 'ListUserRightsResponse');
    const missing = await get(p, '/v2/users/nobody');
    assertCantonError(missing, 404, 'USER_NOT_FOUND', 11);
  });

  it('GET /v2/authenticated-user needs an authenticated user (none without auth)', async () => {
    const reply = await get(p, '/v2/authenticated-user');
    const body = assertCantonError(reply, 400, 'INVALID_ARGUMENT', 8);
    assert.match(body.cause, /only supported if there is an authenticated user/);
  });

  it('GET /v2/packages and package status', async () => {
    const { json } = await get(p, '/v2/packages');
    assert.equal(json.packageIds.length, 6);
    for (const id of json.packageIds) assert.match(id, /^[0-9a-f]{64}$/);
    const status = await get(p, `/v2/packages/${json.packageIds[0]}/status`);
    assert.deepEqual(status.json, { packageStatus: 'PACKAGE_STATUS_REGISTERED' });
    const unknown = await get(p, `/v2/packages/${'0'.repeat(64)}/status`);
    assert.deepEqual(unknown.json, { packageStatus: 'PACKAGE_STATUS_UNSPECIFIED' });
  });

  it('GET /livez (empty) and /readyz (text)', async () => {
    const live = await get(p, '/livez');
    assert.equal(live.status, 200);
    assert.equal(live.text, '');
    const ready = await get(p, '/readyz');
    assert.equal(ready.status, 200);
    assert.match(ready.headers.get('content-type')!, /^text\/plain/);
    assert.equal(ready.text, '[+] ledger ok (SERVING)\nreadyz check passed');
  });

  it('answers unknown paths with 404 and wrong methods with 405, as text', async () => {
    const missing = await get(p, '/v2/nothing-here');
    assert.equal(missing.status, 404);
    assert.equal(missing.text, 'The requested resource could not be found.');
    const method = await get(p, '/v2/updates');
    assert.equal(method.status, 405);
    assert.match(method.text, /supported methods: POST/);
  });

  it('puts the W3C trace id of the request in errors', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const reply = await get(p, '/v2/users/nobody', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    assert.equal(reply.json.traceId, traceId);
    assert.equal(reply.json.context.tid, traceId);
    assert.equal(reply.json.context.participant, "'demo-participant'");
    assertSpecValid(reply.json, 'JsCantonError');
  });
});
