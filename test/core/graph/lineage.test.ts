import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { CancelledError } from '../../../src/core/errors';
import { lineageInOrder, walkLineage, type LineageReader } from '../../../src/core/graph/lineage';
import { lineageReaderOf } from '../../../src/core/graph/read';
import { rangeDiff } from '../../../src/core/graph/rangeDiff';
import type { DemoParticipant } from '../../../src/participant/index';
import type * as wire from '../../../src/core/models/wire';
import { createdEvents, createIou, start, submit } from '../../participant/helpers';
import type { CallOptions } from '../../../src/core/api/http';
import { UPDATES_CONTRACT_ID_FIELD } from '../../../src/core/api/contractIdFilter';
import { checkCompatibility } from '../../../src/core/compat/check';
import type { OpenApiDocument } from '../../../src/core/compat/openapi';
import { UnsupportedOperationError } from '../../../src/core/errors';
import type { Exchange } from '../../../src/participant/index';
import { loadSpec, requireSpec } from '../../support/spec';
import { derive38Spec } from '../../support/spec38';

const IOU = '#demo-iou:Iou:Iou';

function exercise(contractId: string, choice: string, choiceArgument: unknown): wire.Command {
  return { ExerciseCommand: { templateId: IOU, contractId, choice, choiceArgument } };
}

/** Counts the reads, so that the cost of a walk is checked, not assumed. */
function counting(reader: LineageReader): LineageReader & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    contractEvents: (id, o) => (calls.push(`events ${id.slice(0, 8)}`), reader.contractEvents(id, o)),
    transactionAt: (offset, o) => (calls.push(`tx ${offset}`), reader.transactionAt(offset, o)),
    ...(reader.transactionsTouching ? { transactionsTouching: (id: string, o: CallOptions) => (calls.push(`touching ${id.slice(0, 8)}`), reader.transactionsTouching!(id, o)) } : {}),
  };
}

/** Alice's Iou → Bob (transfer) → Charlie (transfer) → two halves (split), with the offsets of the issue and the split. */
async function iouChain(p: DemoParticipant): Promise<{ ious: { alice: string; bob: string; charlie: string; halves: string[] }; offsets: { issue: number; split: number } }> {
  const { bank, alice, bob, charlie } = p.parties;
  const effects: wire.TransactionFormat = { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' };
  const issue = await submit(p, [bank], [createIou(bank, alice, '100')], { format: effects });
  const first = createdEvents(issue)[0].contractId;
  const toBob = createdEvents(await submit(p, [alice], [exercise(first, 'Iou_Transfer', { newOwner: bob })], { format: effects }))[0].contractId;
  const toCharlie = createdEvents(await submit(p, [bob], [exercise(toBob, 'Iou_Transfer', { newOwner: charlie })], { format: effects }))[0].contractId;
  const split = await submit(p, [charlie], [exercise(toCharlie, 'Iou_Split', { splitAmount: '40.0' })], { format: effects });
  const halves = createdEvents(split).map((e) => e.contractId);
  assert.equal(halves.length, 2);
  return { ious: { alice: first, bob: toBob, charlie: toCharlie, halves }, offsets: { issue: issue.offset, split: split.offset } };
}

describe('transaction graph: contract lineage (demo participant)', () => {
  let p: DemoParticipant;
  let client: LedgerClient;
  /** Alice's Iou → Bob (transfer) → Charlie (transfer) → two halves (split). */
  let ious: { alice: string; bob: string; charlie: string; halves: string[] };
  /** Offsets of the issue and of the split. */
  let offsets: { issue: number; split: number };

  before(async () => {
    p = await start({ port: 0 });
    client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
    ({ ious, offsets } = await iouChain(p));
  });
  after(() => p.close());

  it('answers "where did this Iou come from?": back through two transfers and a split to its issue', async () => {
    const reader = counting(lineageReaderOf(client, { parties: [], anyParty: true }));
    const l = await walkLineage(reader, ious.halves[0]);
    const chain = lineageInOrder(l).map((c) => c.contractId);
    assert.deepEqual(chain, [ious.alice, ious.bob, ious.charlie, ious.halves[0]]);
    assert.deepEqual(
      l.links.map((k) => [k.parent, k.child, k.choice]).sort(),
      [
        [ious.alice, ious.bob, 'Iou_Transfer'],
        [ious.bob, ious.charlie, 'Iou_Transfer'],
        [ious.charlie, ious.halves[0], 'Iou_Split'],
      ].sort(),
    );
    assert.equal(l.contracts.get(ious.alice)!.state, 'archived');
    assert.equal(l.contracts.get(ious.halves[0])!.state, 'active');
    assert.equal(l.contracts.get(ious.alice)!.distance, 3);
    assert.deepEqual(l.frontier, []);
    // Two reads per contract back (its events, the transaction that created it; the first Iou's says it
    // was issued at the root), and the start's events are read once for both directions.
    assert.deepEqual(reader.calls.filter((c) => c.startsWith('tx')).length, 4);
    assert.equal(l.requests, reader.calls.length);
    assert.equal(l.requests, 2 * 4, reader.calls.join(', '));
  });

  it('forward from the first Iou: both transfers and the split’s two halves', async () => {
    const l = await walkLineage(lineageReaderOf(client, { parties: [], anyParty: true }), ious.alice);
    const children = (id: string) => l.links.filter((k) => k.parent === id).map((k) => k.child).sort();
    assert.deepEqual(children(ious.alice), [ious.bob]);
    assert.deepEqual(children(ious.bob), [ious.charlie]);
    assert.deepEqual(children(ious.charlie), [...ious.halves].sort());
    assert.equal(l.contracts.size, 5);
  });

  it('stops at the bound, says where, and goes on from there when asked', async () => {
    const reader = lineageReaderOf(client, { parties: [], anyParty: true });
    const first = await walkLineage(reader, ious.halves[1], { maxDistance: 1 });
    assert.deepEqual(first.frontier, [{ contractId: ious.charlie, direction: 'back' }]);
    assert.ok(!first.contracts.has(ious.bob));
    const more = await walkLineage(reader, ious.halves[1], { maxDistance: 1 }, {}, first);
    assert.ok(more.contracts.has(ious.bob));
    assert.deepEqual(more.frontier, [{ contractId: ious.bob, direction: 'back' }]);
  });

  it('without a bound given (undefined, as the CLI and the panel pass it), a walk stops at the default 10 transactions', async () => {
    const { bank, alice, bob } = p.parties;
    const format: wire.TransactionFormat = { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' };
    let id = createdEvents(await submit(p, [bank], [createIou(bank, alice, '7')], { format }))[0].contractId;
    const chain = [id];
    // Twelve transfers back and forth: a lineage longer than the default bound, far smaller than the contract bound.
    for (let i = 0; i < 12; i++) {
      const [from, to] = i % 2 === 0 ? [alice, bob] : [bob, alice];
      id = createdEvents(await submit(p, [from], [exercise(id, 'Iou_Transfer', { newOwner: to })], { format }))[0].contractId;
      chain.push(id);
    }
    const l = await walkLineage(lineageReaderOf(client, { parties: [], anyParty: true }), chain[0], { maxDistance: undefined });
    assert.deepEqual(lineageInOrder(l).map((c) => c.contractId), chain.slice(0, 11));
    assert.deepEqual(l.frontier, [{ contractId: chain[10], direction: 'forward' }]);
  });

  it('a contract the parties cannot see ends the walk there with the participant’s code', async () => {
    // As Bob: his own Iou and the transfer he made (with what it created) are visible; Charlie's Iou's
    // events are not (Bob is no stakeholder), and neither is Alice's choice that created Bob's Iou.
    const l = await walkLineage(lineageReaderOf(client, { parties: [p.parties.bob], anyParty: false }), ious.bob);
    assert.equal(l.contracts.get(ious.charlie)!.problem?.code, 'CONTRACT_EVENTS_NOT_FOUND');
    assert.ok(!l.contracts.has(ious.alice));
    assert.ok(!l.contracts.has(ious.halves[0]));
    const hidden = await walkLineage(lineageReaderOf(client, { parties: [p.parties.bob], anyParty: false }), ious.halves[0]);
    assert.equal(hidden.contracts.get(ious.halves[0])!.problem?.code, 'CONTRACT_EVENTS_NOT_FOUND');
  });

  it('cancels between requests', async () => {
    const ac = new AbortController();
    const reader = lineageReaderOf(client, { parties: [], anyParty: true });
    const slow: LineageReader = {
      contractEvents: async (id, o) => {
        ac.abort();
        return reader.contractEvents(id, o);
      },
      transactionAt: (offset, o) => reader.transactionAt(offset, o),
    };
    await assert.rejects(walkLineage(slow, ious.halves[0], {}, { signal: ac.signal }), (e: unknown) => e instanceof CancelledError || (e as Error).name === 'AbortError');
  });

  it('the net change of a range: the issued Iou removed, the halves added, the two in between transient', async () => {
    const d = await rangeDiff(client, { beginExclusive: offsets.issue, endInclusive: offsets.split }, { parties: [], anyParty: true }, { pageSize: 2 });
    assert.equal(d.transactions, 3);
    assert.deepEqual(d.templates.map((t) => t.templateId), [IOU]);
    const [iou] = d.templates;
    assert.deepEqual(iou.removed, [ious.alice]);
    assert.deepEqual([...iou.added].sort(), [...ious.halves].sort());
    assert.equal(iou.transient, 2);
  });
});

describe('contract lineage with the contract-id filter on updates (3.8)', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let ious: { alice: string; bob: string; charlie: string; halves: string[] };
  const exchanges: Exchange[] = [];
  before(async function () {
    requireSpec(this, 'main-3.6');
    p = await start({ port: 0, apiVersion: '3.8', onExchange: (x: Exchange) => exchanges.push(x) });
    ({ ious } = await iouChain(p));
  });
  after(() => p?.close());
  beforeEach(() => (exchanges.length = 0));

  /** A client that holds the participant to `document`, as a connect does with the participant's own. */
  const clientWith = (document: OpenApiDocument, participant: DemoParticipant = p) => {
    const c = new LedgerClient({ baseUrl: participant.url, timeoutMs: 10_000 });
    c.useCompatibility(checkCompatibility(document, '3.8.0'));
    return c;
  };

  it('where the participant has it: one read per hop, the same lineage, and the request the participant\'s description declares', async () => {
    const derived = derive38Spec({ scopes: false });
    const reader = counting(lineageReaderOf(clientWith(derived.document), { parties: [], anyParty: true }));
    const l = await walkLineage(reader, ious.halves[0]);
    assert.deepEqual(lineageInOrder(l).map((c) => c.contractId), [ious.alice, ious.bob, ious.charlie, ious.halves[0]]);
    assert.equal(l.contracts.get(ious.alice)!.state, 'archived');
    assert.equal(l.contracts.get(ious.halves[0])!.state, 'active');
    // One read per contract (four), against two per contract without the filter; and the start's events,
    // since no archive among what the parties see is no answer to "is it still active?".
    assert.deepEqual(reader.calls.map((c) => c.split(' ')[0]).sort(), ['events', 'touching', 'touching', 'touching', 'touching'], reader.calls.join(', '));
    assert.equal(reader.calls.find((c) => c.startsWith('events')), `events ${ious.halves[0].slice(0, 8)}`);
    assert.equal(l.requests, 5);
    // Each filtered read is a GetUpdatesRequest of the derived description's shape: the ids as a list of strings at its root.
    const bodies = exchanges.filter((x) => x.path === '/v2/updates').map((x) => JSON.parse(x.requestBody) as Record<string, unknown>);
    assert.equal(bodies.length, 4);
    assert.equal(exchanges.filter((x) => x.path === '/v2/events/events-by-contract-id').length, 1);
    const declared = (derived.document.components!.schemas!.GetUpdatesRequest as { properties: Record<string, { type: string; items: { type: string } }> }).properties[UPDATES_CONTRACT_ID_FIELD];
    assert.deepEqual(declared, { type: 'array', items: { type: 'string' } });
    for (const body of bodies) {
      const ids = body[UPDATES_CONTRACT_ID_FIELD] as unknown[];
      assert.ok(Array.isArray(ids) && ids.length === 1 && ids.every((id) => typeof id === 'string'), JSON.stringify(body));
      assert.ok(body.updateFormat);
    }
  });

  it('where the participant\'s description lacks it: two reads per hop, and the field is never sent', async function () {
    const client = clientWith(loadSpec('main-3.6') as unknown as OpenApiDocument);
    assert.equal(client.filtersUpdatesByContractId, false);
    const reader = counting(lineageReaderOf(client, { parties: [], anyParty: true }));
    const l = await walkLineage(reader, ious.halves[0]);
    assert.deepEqual(lineageInOrder(l).map((c) => c.contractId), [ious.alice, ious.bob, ious.charlie, ious.halves[0]]);
    assert.equal(l.requests, 2 * 4);
    assert.equal(reader.calls.filter((c) => c.startsWith('touching')).length, 0);
    assert.equal(exchanges.some((x) => x.path === '/v2/updates' && UPDATES_CONTRACT_ID_FIELD in (JSON.parse(x.requestBody) as object)), false);
    await assert.rejects(client.listUpdates({ beginExclusive: 0 }, { filter: { anyParty: true } }, { contractIds: [ious.bob] }), UnsupportedOperationError);
  });

  it('a participant that refuses the filtered read (pruned below its start): one refused read, then two reads per hop', async () => {
    const pruned = await start({ port: 0, apiVersion: '3.8' });
    try {
      const chain = await iouChain(pruned);
      pruned.state.prune(chain.offsets.issue - 1);
      const reader = counting(lineageReaderOf(clientWith(derive38Spec({ scopes: false }).document, pruned), { parties: [], anyParty: true }));
      const l = await walkLineage(reader, chain.ious.halves[0]);
      assert.deepEqual(lineageInOrder(l).map((c) => c.contractId), [chain.ious.alice, chain.ious.bob, chain.ious.charlie, chain.ious.halves[0]]);
      assert.deepEqual(reader.calls.filter((c) => c.startsWith('touching')), [`touching ${chain.ious.halves[0].slice(0, 8)}`]);
      assert.equal(l.requests, 1 + 2 * 4);
    } finally {
      await pruned.close();
    }
  });

  it('a contract the parties cannot see: its events say why, as without the filter', async () => {
    const reader = lineageReaderOf(clientWith(derive38Spec({ scopes: false }).document), { parties: [p.parties.bob], anyParty: false });
    const l = await walkLineage(reader, ious.bob);
    assert.equal(l.contracts.get(ious.charlie)!.problem?.code, 'CONTRACT_EVENTS_NOT_FOUND');
    assert.ok(!l.contracts.has(ious.alice));
  });
});
