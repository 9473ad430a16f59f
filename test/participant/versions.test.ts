import assert from 'node:assert/strict';
import { LedgerClient } from '../../src/core/api/client';
import { HttpError } from '../../src/core/errors';
import type * as wire from '../../src/core/models/wire';
import { decodeUpdate, type TopologyTransaction } from '../../src/core/models/updates';
import { ASSET as ASSET_TEMPLATE, CATALOG } from '../../src/participant/catalog';
import type { ApiVersion, DemoParticipant } from '../../src/participant/index';
import { assertCantonError, assertDecodeFailure, assertSpecValid, eventFormat, get, kinds, offsetOf, post, start, templates, transactionsFormat } from './helpers';

type Updates = wire.JsGetUpdatesResponse[];

const everything = (): wire.UpdateFormat => ({
  ...transactionsFormat('any', 'LEDGER_EFFECTS'),
  includeReassignments: eventFormat('any'),
  includeTopologyEvents: { includeParticipantAuthorizationEvents: {} },
});

describe('demo participant: two synchronizers', () => {
  let p: DemoParticipant;
  before(async () => {
    p = await start({ synchronizers: 2 });
  });
  after(() => p.close());

  it('is connected to both, and the seed reassigns a contract between them', async () => {
    const synchronizers = await get(p, '/v2/state/connected-synchronizers');
    assert.deepEqual(
      synchronizers.json.connectedSynchronizers.map((s: wire.ConnectedSynchronizer) => s.synchronizerAlias),
      ['demo-sync', 'demo-sync-2'],
    );
    const reply = await post<Updates>(p, '/v2/updates', { beginExclusive: 0, endInclusive: p.state.ledgerEnd, updateFormat: everything() });
    assert.equal(reply.status, 200);
    const reassignments = reply.json.flatMap((u) => (u.update && 'Reassignment' in u.update ? [u.update.Reassignment.value] : []));
    assert.equal(reassignments.length, 2);
    const [unassigned, assigned] = reassignments;
    const out = (unassigned.events![0] as { JsUnassignedEvent: { value: wire.UnassignedEvent } }).JsUnassignedEvent.value;
    const into = (assigned.events![0] as { JsAssignmentEvent: wire.JsAssignmentEvent }).JsAssignmentEvent;
    assert.equal(out.reassignmentId, into.reassignmentId);
    assert.equal(out.source, p.state.synchronizers[0].id);
    assert.equal(into.target, p.state.synchronizers[1].id);
    assert.equal(unassigned.synchronizerId, out.source);
    assert.equal(assigned.synchronizerId, into.target);
    assert.equal(into.createdEvent.contractId, out.contractId);
    assert.equal(into.reassignmentCounter, 1);
    assert.equal(into.createdEvent.offset, assigned.offset);
    // The next transaction on that contract happens on the second synchronizer.
    const later = reply.json.filter((u) => offsetOf(u) > assigned.offset && u.update && 'Transaction' in u.update);
    assert.equal((later[0].update as { Transaction: { value: wire.JsTransaction } }).Transaction.value.synchronizerId, into.target);
    for (const update of reply.json) assertSpecValid(update, 'JsGetUpdatesResponse');
    // A checkpoint reports the time of both synchronizers.
    const checkpoint = reply.json.find((u) => u.update && 'OffsetCheckpoint' in u.update)!.update as { OffsetCheckpoint: { value: wire.OffsetCheckpoint } };
    assert.equal(checkpoint.OffsetCheckpoint.value.synchronizerTimes!.length, 2);
  });

  it('the legacy filter form includes reassignments, but no topology', async () => {
    const reply = await post<Updates>(p, '/v2/updates', { beginExclusive: 0, endInclusive: p.state.ledgerEnd, filter: { filtersByParty: { [p.parties.bob]: {} } } });
    assert.ok(kinds(reply.json).includes('Reassignment'));
    assert.ok(!kinds(reply.json).includes('TopologyTransaction'));
  });

  it('bulk data mixes in reassignments', () => {
    const before = p.state.entries.length;
    p.state.appendSynthetic(400, { seed: 3 });
    const added = p.state.entries.slice(before);
    assert.ok(added.some((e) => e.kind === 'reassignment'));
    assert.ok(added.some((e) => e.kind === 'checkpoint'));
  });
});

describe('demo participant: imitating other Canton versions', () => {
  const started: DemoParticipant[] = [];
  after(() => Promise.all(started.map((p) => p.close())));
  const startVersion = async (apiVersion: ApiVersion, synchronizers: 1 | 2 = 1) => {
    const p = await start({ apiVersion, synchronizers });
    started.push(p);
    return p;
  };

  it('3.6: /v2/updates/flats is gone, /v2/updates and pages work', async () => {
    const p = await startVersion('3.6');
    const body = { beginExclusive: 0, endInclusive: p.state.ledgerEnd, updateFormat: transactionsFormat('any') };
    assert.equal((await post(p, '/v2/updates/flats', body)).status, 404);
    const updates = await post<Updates>(p, '/v2/updates', body);
    assert.equal(updates.status, 200);
    const tx = updates.json.find((u) => u.update && 'Transaction' in u.update)!.update as { Transaction: { value: wire.JsTransaction } };
    assert.equal(tx.Transaction.value.transactionHash, null);
    assertSpecValid(updates.json[0], 'JsGetUpdatesResponse', 'main-3.6');
    assert.equal((await post(p, '/v2/updates/get-updates-page', { updateFormat: transactionsFormat('any') })).status, 200);
    assert.equal((await get(p, '/v2/version')).json.version, '3.6.0-demo');
  });

  it('3.4: no pages or descending order, package-id filters are accepted, dependencies of vetted packages stay vetted', async () => {
    const p = await startVersion('3.4');
    assert.equal((await get(p, '/v2/version')).json.version, '3.4.12-demo');
    assert.equal((await post(p, '/v2/updates/get-updates-page', { updateFormat: transactionsFormat('any') })).status, 404);
    const descending = await post<Updates>(p, '/v2/updates', { beginExclusive: 0, endInclusive: p.state.ledgerEnd, descendingOrder: true, updateFormat: transactionsFormat('any') });
    const offsets = descending.json.map(offsetOf);
    assert.deepEqual(offsets, [...offsets].sort((a, b) => a - b), 'the unknown field is ignored');
    const byId = await post<Updates>(p, '/v2/updates', {
      beginExclusive: 0,
      endInclusive: p.state.ledgerEnd,
      updateFormat: transactionsFormat([p.parties.alice], 'ACS_DELTA', templates(ASSET_TEMPLATE.id)),
    });
    assert.equal(byId.status, 200, byId.text);
    assert.ok(byId.json.some((u) => u.update && 'Transaction' in u.update));
    const unvet = await post(p, '/v2/package-vetting/update', { changes: [{ operation: { Unvet: { value: { packages: [{ packageId: CATALOG.find((x) => x.name === 'daml-prim')!.id }] } } } }] });
    assertCantonError(unvet, 400, 'TOPOLOGY_DEPENDENCIES_NOT_VETTED', 9);
    for (const update of descending.json) assertSpecValid(update, 'JsGetUpdatesResponse', '3.4.12');
  });

  it('3.4.11: vetting on GET/POST /v2/package-vetting with the strict request fields, no /list or /update', async () => {
    const p = await startVersion('3.4.11');
    assert.equal((await post(p, '/v2/package-vetting/list', {})).status, 404);
    assert.equal((await post(p, '/v2/package-vetting/update', { changes: [] })).status, 404);
    assertDecodeFailure(await get(p, '/v2/package-vetting'), 'Invalid value for: body');
    // fetch cannot send a GET with a body; the client's transport can.
    const client = new LedgerClient({ baseUrl: p.url });
    assert.equal((await client.listVettedPackages()).length, 1);
    await assert.rejects(client.http.json({ method: 'GET', path: '/v2/package-vetting', body: {} }), (e) => e instanceof HttpError && e.status === 400 && e.bodyText === 'Invalid value for: body (DecodingFailure at .pageSize: Missing required field)');
    const vet = { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }] };
    assertDecodeFailure(await post(p, '/v2/package-vetting', { ...vet, dryRun: true, synchronizerId: '' }), 'Invalid value for: body (DecodingFailure at .changes[0].operation.Vet.value.packages[0].packageId: Missing required field)');
    assertDecodeFailure(await post(p, '/v2/package-vetting', vet), 'Invalid value for: body (DecodingFailure at .dryRun: Missing required field)');
    const strict = { changes: [{ operation: { Vet: { value: { packages: [{ packageId: '', packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }], dryRun: true, synchronizerId: '' };
    const dry = await post(p, '/v2/package-vetting', strict);
    assert.equal(dry.status, 200, dry.text);
    assertSpecValid(dry.json, 'UpdateVettedPackagesResponse', '3.4.11');
    const version = await get(p, '/v2/version');
    assert.equal(version.json.version, '3.4.11-demo');
  });

  it('3.3: no package vetting endpoints, the 3.3 shapes (unassignId, bare topology events with int permissions)', async () => {
    const p = await startVersion('3.3', 2);
    assert.equal((await post(p, '/v2/package-vetting/list', {})).status, 404);
    assert.equal((await post(p, '/v2/package-vetting/update', { changes: [] })).status, 404);
    assert.equal((await post(p, '/v2/package-vetting', { changes: [] })).status, 404);
    assert.equal((await get(p, '/v2/authenticated-user')).status, 404, 'first in 3.4');
    // The 3.3 decoder requires `verbose` beside `beginExclusive`.
    const body = { beginExclusive: 0, endInclusive: p.state.ledgerEnd, updateFormat: everything() };
    assertDecodeFailure(await post(p, '/v2/updates', body), 'Invalid value for: body (DecodingFailure at .verbose: Missing required field)');
    const reply = await post<Updates>(p, '/v2/updates', { ...body, verbose: false });
    assert.equal(reply.status, 200, reply.text);
    const unassigned = reply.json.find((u) => u.update && 'Reassignment' in u.update)!.update as { Reassignment: { value: wire.JsReassignment } };
    const event = (unassigned.Reassignment.value.events![0] as { JsUnassignedEvent: { value: wire.UnassignedEvent } }).JsUnassignedEvent.value;
    assert.equal(typeof event.unassignId, 'string');
    assert.equal(event.reassignmentId, undefined);
    assert.equal(unassigned.Reassignment.value.synchronizerId, undefined);
    const topology = reply.json.find((u) => u.update && 'TopologyTransaction' in u.update)!.update as { TopologyTransaction: { value: wire.JsTopologyTransaction } };
    const added = topology.TopologyTransaction.value.events![0] as { ParticipantAuthorizationAdded: wire.ParticipantAuthorizationValue };
    assert.equal(added.ParticipantAuthorizationAdded.participantPermission, 1);
    assert.equal(decodeUpdate(topology).kind === 'topology' && (decodeUpdate(topology) as TopologyTransaction).events[0].permission, 'submission', 'the client reads the 3.3 shape');
    // 3.3 finds a contract's events for `requestingParties` as well as for an event format.
    const created = reply.json.flatMap((u) => (u.update && 'Transaction' in u.update ? (u.update.Transaction.value.events ?? []) : [])).find((e) => 'CreatedEvent' in e) as { CreatedEvent: wire.CreatedEvent };
    const events = await post(p, '/v2/events/events-by-contract-id', { contractId: created.CreatedEvent.contractId, requestingParties: created.CreatedEvent.signatories });
    assert.equal(events.status, 200, events.text);
    assertSpecValid(events.json, 'JsGetEventsByContractIdResponse', '3.3');
    const version = await get(p, '/v2/version');
    assert.equal(version.json.version, '3.3.0-demo');
    assert.equal(version.json.features.packageFeature, undefined);
    for (const update of reply.json) assertSpecValid(update, 'JsGetUpdatesResponse', '3.3');
  });
});
