import assert from 'node:assert/strict';
import type * as wire from '../../src/core/models/wire';
import { IOU as IOU_TEMPLATE } from '../../src/participant/catalog';
import type { DemoParticipant } from '../../src/participant/index';
import { OFF_SPEC_HEADER } from '../support/specCheck';
import {
  ASSET,
  IOU,
  assertCantonError,
  assertDecodeFailure,
  assertSpecValid,
  createIou,
  eventFormat,
  get,
  kinds,
  offsetOf,
  post,
  start,
  submit,
  templates,
  transactions,
  transactionsFormat,
} from './helpers';

type Updates = wire.JsGetUpdatesResponse[];

describe('demo participant: POST /v2/updates', () => {
  let p: DemoParticipant;
  let end: number;
  before(async () => {
    p = await start();
    end = p.state.ledgerEnd;
  });
  after(() => p.close());

  const list = (body: unknown, query?: Record<string, string | number>, path = '/v2/updates') => post<Updates>(p, path, body, { query });
  const bounded = (updateFormat: wire.UpdateFormat, extra: object = {}) => list({ beginExclusive: 0, endInclusive: end, updateFormat, ...extra });

  it('returns every kind of update, each valid per the 3.5 spec', async () => {
    const reply = await bounded({
      ...transactionsFormat('any', 'LEDGER_EFFECTS'),
      includeReassignments: eventFormat('any'),
      includeTopologyEvents: { includeParticipantAuthorizationEvents: {} },
    });
    assert.equal(reply.status, 200);
    const seen = new Set(kinds(reply.json));
    assert.deepEqual([...seen].sort(), ['OffsetCheckpoint', 'TopologyTransaction', 'Transaction']);
    for (const update of reply.json) assertSpecValid(update, 'JsGetUpdatesResponse');
    // Offsets increase; a checkpoint carries the offset of the update before it.
    const offsets = reply.json.map(offsetOf);
    assert.deepEqual(offsets, [...offsets].sort((a, b) => a - b));
    assert.equal(Math.max(...offsets), end);
  });

  it('renders the topology events of party allocation (added, changed, revoked)', async () => {
    const reply = await bounded({ includeTopologyEvents: { includeParticipantAuthorizationEvents: {} } });
    const events = reply.json.flatMap((u) => (u.update && 'TopologyTransaction' in u.update ? u.update.TopologyTransaction.value.events ?? [] : [])) as wire.WrappedTopologyEvent[];
    const cases = events.map((e) => Object.keys(e.event!)[0]);
    assert.deepEqual([...new Set(cases)].sort(), ['ParticipantAuthorizationAdded', 'ParticipantAuthorizationChanged', 'ParticipantAuthorizationRevoked']);
    const added = events.find((e) => e.event && 'ParticipantAuthorizationAdded' in e.event) as { event: { ParticipantAuthorizationAdded: { value: object } } };
    assert.deepEqual(added.event.ParticipantAuthorizationAdded.value, {
      partyId: p.parties.bank,
      participantId: p.participantId,
      participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION',
    });
    const onlyAlice = await bounded({ includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [p.parties.alice] } } });
    assert.equal(onlyAlice.json.length, 1);
  });

  it('/v2/updates/flats is the same list on 3.5', async () => {
    const body = { beginExclusive: 0, endInclusive: end, updateFormat: transactionsFormat('any') };
    const flats = await list(body, undefined, '/v2/updates/flats');
    const updates = await list(body);
    assert.equal(flats.status, 200);
    assert.deepEqual(flats.json, updates.json);
  });

  it('ACS delta: only creates and archives where a requesting party is a stakeholder', async () => {
    const reply = await bounded(transactionsFormat([p.parties.charlie]));
    const txs = transactions(reply.json);
    assert.ok(txs.length >= 3);
    for (const tx of txs) {
      assert.ok(tx.events!.length > 0, 'transactions without visible events are left out');
      for (const event of tx.events!) {
        assert.ok('CreatedEvent' in event || 'ArchivedEvent' in event);
        const e = 'CreatedEvent' in event ? event.CreatedEvent : (event as { ArchivedEvent: wire.ArchivedEvent }).ArchivedEvent;
        assert.deepEqual(e.witnessParties, [p.parties.charlie]);
      }
    }
    // Charlie's 300 USD came from Bob's transfer: Charlie sees the create, but not the archive of Bob's Iou.
    const fromBob = txs.find((tx) => tx.events!.some((e) => 'CreatedEvent' in e && (e.CreatedEvent.createArgument as { amount: string }).amount === '300.0000000000'));
    assert.ok(fromBob);
    assert.equal(fromBob.events!.length, 1);
    assert.equal(fromBob.commandId, '', 'the command id is shown to submitters only');
    const renamed = await bounded(transactionsFormat([p.parties.charlie, p.parties.alice], 'ACS_DELTA', templates(ASSET)));
    assert.equal(transactions(renamed.json)[0].workflowId, 'garage', 'the workflow id is shown to everyone');
  });

  it('ledger effects: exercised events for witnesses, with acsDelta per requesting party', async () => {
    const reply = await bounded(transactionsFormat([p.parties.bob], 'LEDGER_EFFECTS'));
    const transfer = transactions(reply.json).find((tx) =>
      tx.events!.some((e) => 'ExercisedEvent' in e && e.ExercisedEvent.choice === 'Iou_Transfer' && e.ExercisedEvent.actingParties!.includes(p.parties.bob)),
    )!;
    assert.ok(transfer);
    assert.notEqual(transfer.commandId, '', 'Bob submitted it');
    const [exercised, created] = transfer.events! as [{ ExercisedEvent: wire.ExercisedEvent }, { CreatedEvent: wire.CreatedEvent }];
    assert.equal(exercised.ExercisedEvent.nodeId, 0);
    assert.equal(exercised.ExercisedEvent.lastDescendantNodeId, 1);
    assert.equal(exercised.ExercisedEvent.consuming, true);
    assert.equal(exercised.ExercisedEvent.acsDelta, true);
    assert.equal(exercised.ExercisedEvent.exerciseResult, created.CreatedEvent.contractId);
    // Bob sees the new Iou as a witness of the exercise, but it is not in his ACS delta: he is no stakeholder.
    assert.deepEqual(created.CreatedEvent.witnessParties, [p.parties.bob]);
    assert.equal(created.CreatedEvent.acsDelta, false);
  });

  it('the null-heavy rendering of absent fields', async () => {
    const reply = await bounded(transactionsFormat([p.parties.alice]));
    const tx = transactions(reply.json)[0];
    assert.equal(tx.externalTransactionHash, null);
    assert.equal(tx.paidTrafficCost, null);
    assert.equal(tx.workflowId, '');
    assert.equal(tx.traceContext!.tracestate, null);
    assert.match(tx.traceContext!.traceparent!, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const created = (tx.events![0] as { CreatedEvent: wire.CreatedEvent }).CreatedEvent;
    assert.equal(created.contractKey, null);
    assert.equal(created.contractKeyHash, '');
    assert.equal(created.createdEventBlob, '');
    assert.deepEqual(created.interfaceViews, []);
    assert.match(created.templateId, /^[0-9a-f]{64}:Iou:Iou$/, 'responses use the package-id form');
    assert.match(tx.recordTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6})?Z$/);
  });

  it('template filters match by package name; blobs when asked for', async () => {
    const assets = await bounded(transactionsFormat([p.parties.alice], 'ACS_DELTA', templates(ASSET)));
    const events = transactions(assets.json).flatMap((tx) => tx.events!);
    assert.equal(events.length, 3, 'create, then archive and create again when renamed');
    for (const e of events) assert.match(Object.values(e)[0].templateId, /:Asset:Asset$/);
    const created = events.find((e) => 'CreatedEvent' in e) as { CreatedEvent: wire.CreatedEvent };
    assert.deepEqual(created.CreatedEvent.contractKey, { _1: p.parties.alice, _2: 'car-1' });
    assert.match(created.CreatedEvent.contractKeyHash!, /^[A-Za-z0-9+/]{43}=$/);

    const withBlob = await bounded(
      transactionsFormat([p.parties.alice], 'ACS_DELTA', { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: IOU, includeCreatedEventBlob: true } } } }] }),
    );
    const blobs = transactions(withBlob.json).flatMap((tx) => tx.events!.flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent.createdEventBlob] : [])));
    assert.ok(blobs.length > 0);
    for (const blob of blobs) assert.ok(blob && Buffer.from(blob, 'base64').length > 0);
  });

  it('rejects package-id template ids in filters (3.5), unknown names and templates', async () => {
    const byId = await bounded(transactionsFormat([p.parties.alice], 'ACS_DELTA', templates(IOU_TEMPLATE.id)));
    const body = assertCantonError(byId, 400, 'INVALID_ARGUMENT', 8);
    assert.match(body.cause, /packageId/);
    assertCantonError(await bounded(transactionsFormat([p.parties.alice], 'ACS_DELTA', templates('#no-such-package:Iou:Iou'))), 404, 'PACKAGE_NAMES_NOT_FOUND', 11);
    assertCantonError(await bounded(transactionsFormat([p.parties.alice], 'ACS_DELTA', templates('#demo-iou:Iou:Nope'))), 404, 'TEMPLATES_OR_INTERFACES_NOT_FOUND', 11);
    assertDecodeFailure(await bounded(transactionsFormat([p.parties.alice], 'ACS_DELTA', templates('not-an-identifier'))));
  });

  it('applies the legacy filter/verbose rules', async () => {
    const filter = { filtersByParty: { [p.parties.alice]: {} } };
    const legacy = await list({ beginExclusive: 0, endInclusive: end, filter, verbose: true });
    assert.equal(legacy.status, 200);
    assert.ok(transactions(legacy.json).length > 0);
    const both = await list({ beginExclusive: 0, endInclusive: end, filter, updateFormat: transactionsFormat([p.parties.alice]) });
    assert.match(assertCantonError(both, 400, 'INVALID_ARGUMENT', 8).cause, /Both filter\/verbose and update_format/);
    const verbose = await list({ beginExclusive: 0, endInclusive: end, verbose: true, updateFormat: transactionsFormat([p.parties.alice]) });
    assertCantonError(verbose, 400, 'INVALID_ARGUMENT', 8);
    const neither = await list({ beginExclusive: 0, endInclusive: end });
    assert.match(assertCantonError(neither, 400, 'INVALID_ARGUMENT', 8).cause, /Either filter\/verbose or update_format is required/);
    const emptyFormat = await list({ beginExclusive: 0, endInclusive: end, updateFormat: { includeTransactions: { eventFormat: {}, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } } });
    assert.match(assertCantonError(emptyFormat, 400, 'INVALID_ARGUMENT', 8).cause, /cannot be empty simultaneously/);
  });

  it('validates offsets like Canton', async () => {
    const format = transactionsFormat('any');
    assertCantonError(await list({ beginExclusive: -1, updateFormat: format }), 400, 'NEGATIVE_OFFSET', 8);
    assertCantonError(await list({ beginExclusive: 0, endInclusive: 0, updateFormat: format }), 400, 'NON_POSITIVE_OFFSET', 8);
    const after = assertCantonError(await list({ beginExclusive: 0, endInclusive: end + 5, updateFormat: format }), 400, 'OFFSET_AFTER_LEDGER_END', 12);
    assert.equal(after.cause, `End offset (${end + 5}) is after ledger end (${end})`);
    assert.equal(after.retryInfo, '1 second');
    assert.equal(after.grpcCodeValue, 11);
    assertCantonError(await list({ beginExclusive: end + 1, updateFormat: format }), 400, 'OFFSET_AFTER_LEDGER_END', 12);
    assertCantonError(await list({ beginExclusive: 0, descendingOrder: true, updateFormat: format }), 400, 'INVALID_ARGUMENT', 8);
    assertCantonError(await list({ beginExclusive: 5, endInclusive: 3, updateFormat: format }), 400, 'OFFSET_OUT_OF_RANGE', 9);
  });

  it('refuses undecodable bodies with 400 text/plain, ignores unknown fields, accepts numeric strings', async () => {
    assertDecodeFailure(await list('{not json'));
    assertDecodeFailure(await list({ updateFormat: transactionsFormat('any') }));
    const wrongType = await list({ beginExclusive: 'zero', updateFormat: transactionsFormat('any') });
    assertDecodeFailure(wrongType);
    assert.match(wrongType.text, /beginExclusive/);
    assertDecodeFailure(await list({ beginExclusive: 0, endInclusive: end, updateFormat: { includeTransactions: { eventFormat: {}, transactionShape: 'SHAPELESS' } } }));
    // Canton's decoder (circe) reads numbers from strings too, though the spec says integer.
    const lenient = await post(p, '/v2/updates', { beginExclusive: '0', endInclusive: String(end), updateFormat: transactionsFormat('any'), applicationId: 'old-name' }, { headers: { [OFF_SPEC_HEADER]: 'numeric strings' } });
    assert.equal(lenient.status, 200);
    assertDecodeFailure(await list({ beginExclusive: 0, updateFormat: transactionsFormat('any') }, { limit: 'ten' }), 'Invalid value for: query parameter limit');
  });

  it('descending order: newest first, limit applies to the newest', async () => {
    const reply = await list({ beginExclusive: 0, endInclusive: end, descendingOrder: true, updateFormat: transactionsFormat('any') }, { limit: 3 });
    assert.equal(reply.status, 200);
    const offsets = reply.json.map(offsetOf);
    assert.equal(offsets.length, 3);
    assert.deepEqual(offsets, [...offsets].sort((a, b) => b - a));
    assert.equal(offsets[0], end);
    assert.ok(!kinds(reply.json).includes('OffsetCheckpoint'));
  });
});

describe('demo participant: list cap, limit and idle timeout', () => {
  let p: DemoParticipant;
  before(async () => {
    p = await start({ listCap: 5, listWaitMs: 300 });
  });
  after(() => p.close());

  const body = () => ({ beginExclusive: 0, endInclusive: p.state.ledgerEnd, updateFormat: transactionsFormat('any') });

  it('413 when more elements match than the cap, with the cap+1 count', async () => {
    const reply = await post(p, '/v2/updates', body());
    const error = assertCantonError(reply, 413, 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', 9);
    assert.equal(error.cause, 'The number of matching elements (6) is greater than the node limit (5).');
  });

  it('limit at or below the cap truncates; above the cap it is ignored', async () => {
    const three = await post<Updates>(p, '/v2/updates', body(), { query: { limit: 3 } });
    assert.equal(three.status, 200);
    assert.equal(three.json.length, 3);
    const five = await post<Updates>(p, '/v2/updates', body(), { query: { limit: 5 } });
    assert.equal(five.json.length, 5);
    assert.deepEqual(five.json.slice(0, 3), three.json);
    assert.equal((await post(p, '/v2/updates', body(), { query: { limit: 50 } })).status, 413);
  });

  it('an open-ended request returns [] after the idle time when nothing new arrives', async () => {
    const started = Date.now();
    const reply = await post<Updates>(p, '/v2/updates', { beginExclusive: p.state.ledgerEnd, updateFormat: transactionsFormat('any') });
    const took = Date.now() - started;
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json, []);
    assert.ok(took >= 280 && took < 2000, `took ${took} ms`);
  });

  it('an open-ended request picks up an update committed while it waits', async () => {
    const begin = p.state.ledgerEnd;
    const waiting = post<Updates>(p, '/v2/updates', { beginExclusive: begin, updateFormat: transactionsFormat([p.parties.alice]) }, { query: { stream_idle_timeout_ms: 1500 } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const tx = await submit(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.alice, '5')]);
    const reply = await waiting;
    assert.equal(reply.status, 200);
    assert.deepEqual(
      transactions(reply.json).map((t) => t.updateId),
      [tx.updateId],
    );
  });
});

describe('demo participant: closing', () => {
  it('close() ends waiting open-ended requests and returns promptly', async () => {
    const p = await start();
    const waiting = post(p, '/v2/updates', { beginExclusive: p.state.ledgerEnd, updateFormat: transactionsFormat('any') }, { query: { stream_idle_timeout_ms: 30000 } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await p.close();
    assert.ok(Date.now() - started < 1000);
    await waiting.then(
      (reply) => assert.deepEqual(reply.json, []),
      () => undefined, // or the connection is gone: either way the request is over
    );
  });
});

describe('demo participant: pruning', () => {
  let p: DemoParticipant;
  before(async () => {
    p = await start();
  });
  after(() => p.close());

  it('refuses to read below the pruning offset, and reports it', async () => {
    const format = transactionsFormat('any');
    p.state.prune(10);
    const offsets = await get<wire.GetLatestPrunedOffsetsResponse>(p, '/v2/state/latest-pruned-offsets');
    assert.equal(offsets.json.participantPrunedUpToInclusive, 10);
    const below = await post(p, '/v2/updates', { beginExclusive: 5, endInclusive: p.state.ledgerEnd, updateFormat: format });
    const error = assertCantonError(below, 400, 'PARTICIPANT_PRUNED_DATA_ACCESSED', 9);
    assert.equal(error.context!.earliest_offset, '10');
    assert.equal(error.cause, `Transactions request from 6 to ${p.state.ledgerEnd} precedes pruned offset 10`);
    const at = await post<Updates>(p, '/v2/updates', { beginExclusive: 10, endInclusive: p.state.ledgerEnd, updateFormat: format });
    assert.equal(at.status, 200);
    assert.ok(at.json.every((u) => offsetOf(u) > 10));
    assert.ok(at.json.length > 0);
  });
});
