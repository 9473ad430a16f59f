import assert from 'node:assert/strict';
import { lineageDocument, transactionDocument } from '../../../src/core/graph/document';
import { layoutDocument, type LaidOutBox } from '../../../src/core/graph/layout';
import { buildTransactionGraph } from '../../../src/core/graph/model';
import type { Lineage } from '../../../src/core/graph/lineage';
import { decodeTransaction } from '../../../src/core/models/updates';
import type * as wire from '../../../src/core/models/wire';
import { createdEvent, exercisedEvent, generatedTransaction } from '../../support/transactions';

const IOU = '#demo-iou:Iou:Iou';
const ev = {
  created: (nodeId: number, contractId: string): wire.Event => createdEvent(nodeId, contractId, { signatories: ['A::1'] }),
  exercised: (nodeId: number, last: number, contractId: string, consuming = true): wire.Event => exercisedEvent(nodeId, last, contractId, { choice: 'C', consuming, actors: ['A::1'] }),
};
const doc = (events: wire.Event[]) =>
  transactionDocument(buildTransactionGraph(decodeTransaction({ updateId: 'u', offset: 9, effectiveAt: 't', recordTime: 't', synchronizerId: 's', events })));

function overlaps(a: LaidOutBox, b: LaidOutBox): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function assertNoOverlap(boxes: LaidOutBox[]): void {
  // Sweep by row: boxes of one row share their y.
  const rows = new Map<number, LaidOutBox[]>();
  for (const b of boxes) rows.set(b.y, [...(rows.get(b.y) ?? []), b]);
  for (const row of rows.values()) {
    row.sort((a, b) => a.x - b.x);
    for (let i = 1; i < row.length; i++) assert.ok(!overlaps(row[i - 1], row[i]), `${row[i - 1].id} overlaps ${row[i].id}`);
  }
}

describe('transaction graph: layout', () => {
  // #in is consumed by the root exercise, which creates #t; a second root exercise consumes #t (a cross edge).
  const transfer = doc([ev.exercised(0, 1, '#in'), ev.created(1, '#t'), ev.exercised(2, 3, '#t'), ev.created(3, '#out')]);

  it('puts every action and contract in a box, inputs above their exercise and created contracts under their create', () => {
    const l = layoutDocument(transfer);
    assert.equal(l.boxes.length, transfer.actions.length + transfer.contracts.length);
    const box = (id: string) => l.boxes.find((b) => b.id === id)!;
    const input = transfer.contracts.find((c) => c.contractId === '#in')!;
    const t = transfer.contracts.find((c) => c.contractId === '#t')!;
    assert.equal(box('n0').parent, input.id);
    assert.ok(box(input.id).y < box('n0').y);
    assert.equal(box(t.id).parent, 'n1');
    assert.ok(box('n1').y < box(t.id).y);
    assertNoOverlap(l.boxes);
    // #t is consumed by the second root exercise: an edge across the tree.
    const cross = l.edges.filter((e) => e.cross);
    assert.deepEqual(cross.map((e) => [e.from, e.to, e.kind]), [[t.id, 'n2', 'consumes']]);
    assert.ok(l.width >= Math.max(...l.boxes.map((b) => b.x + b.width)));
  });

  it('collapsing a box hides its descendants and says how many', () => {
    const input = transfer.contracts.find((c) => c.contractId === '#in')!;
    const l = layoutDocument(transfer, new Set([input.id]));
    const box = l.boxes.find((b) => b.id === input.id)!;
    assert.equal(box.hidden, 3, 'the exercise, its create and the created contract');
    assert.ok(!l.boxes.some((b) => b.id === 'n0' || b.id === 'n1'));
    assert.ok(l.edges.every((e) => l.boxes.some((b) => b.id === e.from) && l.boxes.some((b) => b.id === e.to)), 'no edge to a hidden box');
  });

  for (const size of [1_000, 5_000]) {
    it(`lays out ${size.toLocaleString('en')} nodes without overlap, parents above children`, () => {
      const d = transactionDocument(buildTransactionGraph(decodeTransaction(generatedTransaction(size))));
      const l = layoutDocument(d);
      assert.equal(l.boxes.length, d.actions.length + d.contracts.length);
      assertNoOverlap(l.boxes);
      const byId = new Map(l.boxes.map((b) => [b.id, b]));
      for (const b of l.boxes) if (b.parent) assert.ok(byId.get(b.parent)!.y < b.y);
    });
  }

  it('lays out a lineage as a tree from the oldest contract, with the choice on each link', () => {
    const ref = (offset: number) => ({ updateId: `u${offset}`, offset });
    const lineage: Lineage = {
      start: 'b',
      contracts: new Map([
        ['a', { contractId: 'a', state: 'archived', distance: 1, createdIn: ref(1), archivedIn: ref(2) }],
        ['b', { contractId: 'b', state: 'archived', distance: 0, createdIn: ref(2), archivedIn: ref(3) }],
        ['c', { contractId: 'c', state: 'active', distance: 1, createdIn: ref(3) }],
        ['d', { contractId: 'd', state: 'active', distance: 1, createdIn: ref(3) }],
      ]),
      links: [
        { parent: 'a', child: 'b', via: ref(2), choice: 'Iou_Transfer', consuming: true },
        { parent: 'b', child: 'c', via: ref(3), choice: 'Iou_Split', consuming: true },
        { parent: 'b', child: 'd', via: ref(3), choice: 'Iou_Split', consuming: true },
      ],
      transactions: new Map(),
      frontier: [],
      requests: 7,
    };
    const d = lineageDocument(lineage);
    const l = layoutDocument(d);
    const byContract = (id: string) => l.boxes[d.contracts.findIndex((c) => c.contractId === id)] && l.boxes.find((b) => b.id === `c${d.contracts.findIndex((c) => c.contractId === id)}`)!;
    assert.equal(byContract('b').parent, byContract('a').id);
    assert.deepEqual(byContract('b').children.sort(), [byContract('c').id, byContract('d').id].sort());
    assert.equal(l.edges.find((e) => e.to === byContract('b').id)!.label!.text, 'Iou_Transfer @2');
    assertNoOverlap(l.boxes);
  });
});
