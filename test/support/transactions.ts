/** Generated ledger-effects transactions of any size, for the graph's tests and benchmark. */
import type * as wire from '../../src/core/models/wire';

const IOU = '#demo-iou:Iou:Iou';
const ALICE = 'Alice::1220aa';
const BOB = 'Bob::1220bb';

function created(nodeId: number, contractId: string): wire.Event {
  return {
    CreatedEvent: {
      offset: 9,
      nodeId,
      contractId,
      templateId: IOU,
      packageName: 'demo-iou',
      createdAt: '2026-01-01T00:00:00Z',
      createArgument: { issuer: ALICE, owner: BOB, currency: 'USD', amount: '1.0', observers: [] },
      signatories: [ALICE],
      observers: [BOB],
      witnessParties: [ALICE],
    },
  };
}

function exercised(nodeId: number, last: number, contractId: string, choice: string): wire.Event {
  return {
    ExercisedEvent: {
      offset: 9,
      nodeId,
      lastDescendantNodeId: last,
      contractId,
      templateId: IOU,
      packageName: 'demo-iou',
      choice,
      choiceArgument: { splitAmount: '1.0' },
      actingParties: [ALICE],
      consuming: true,
      witnessParties: [ALICE],
    },
  };
}

/**
 * A transaction of `n` nodes: groups of seven under a root exercise, each with creates and a nested
 * exercise on one of its own creations (so some contracts are transient), in node id order.
 */
export function generatedTransaction(n: number): wire.JsTransaction {
  const events: wire.Event[] = [];
  let nodeId = 0;
  while (nodeId < n) {
    const root = nodeId;
    const size = Math.min(7, n - root);
    events.push(exercised(root, root + size - 1, `#in${root}`, 'Split'));
    for (let k = 1; k < size; k++) {
      const id = root + k;
      if (k === 2 && size > 4) events.push(exercised(id, root + 4, `#c${root + 1}`, 'Merge'));
      else events.push(created(id, `#c${id}`));
    }
    nodeId += size;
  }
  return { updateId: '1220ff', offset: 9, effectiveAt: '2026-01-01T00:00:00Z', recordTime: '2026-01-01T00:00:00Z', synchronizerId: 'sync::1', commandId: 'cmd-1', events };
}
