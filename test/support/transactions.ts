/** Ledger-effects transactions for the graph's tests and benchmark: events built by hand, and generated ones of any size. */
import { decodeTransaction, type Transaction } from '../../src/core/models/updates';
import type * as wire from '../../src/core/models/wire';

export const IOU = '#demo-iou:Iou:Iou';
const ALICE = 'Alice::1220aa';
const BOB = 'Bob::1220bb';

export interface CreatedOptions {
  templateId?: string;
  signatories?: string[];
  observers?: string[];
  witnesses?: string[];
  createArgument?: unknown;
}

export function createdEvent(nodeId: number, contractId: string, o: CreatedOptions = {}): wire.Event {
  const signatories = o.signatories ?? [ALICE];
  return {
    CreatedEvent: {
      offset: 9,
      nodeId,
      contractId,
      templateId: o.templateId ?? IOU,
      packageName: 'demo-iou',
      createdAt: '2026-01-01T00:00:00Z',
      createArgument: o.createArgument ?? {},
      signatories,
      observers: o.observers ?? [],
      witnessParties: o.witnesses ?? signatories,
    },
  };
}

export interface ExercisedOptions {
  templateId?: string;
  choice?: string;
  consuming?: boolean;
  actors?: string[];
  witnesses?: string[];
  choiceArgument?: unknown;
}

/** An exercise whose descendants are the events with node ids in (nodeId, last]. */
export function exercisedEvent(nodeId: number, last: number, contractId: string, o: ExercisedOptions = {}): wire.Event {
  const actors = o.actors ?? [ALICE];
  return {
    ExercisedEvent: {
      offset: 9,
      nodeId,
      lastDescendantNodeId: last,
      contractId,
      templateId: o.templateId ?? IOU,
      packageName: 'demo-iou',
      choice: o.choice ?? 'Iou_Transfer',
      choiceArgument: o.choiceArgument ?? {},
      actingParties: actors,
      consuming: o.consuming ?? true,
      witnessParties: o.witnesses ?? actors,
    },
  };
}

/** The wire transaction at offset 9 with these events. */
export function wireTransaction(events: wire.Event[]): wire.JsTransaction {
  return { updateId: '1220ff', offset: 9, effectiveAt: '2026-01-01T00:00:00Z', recordTime: '2026-01-01T00:00:00Z', synchronizerId: 'sync::1', commandId: 'cmd-1', events };
}

export function transactionOf(events: wire.Event[]): Transaction {
  return decodeTransaction(wireTransaction(events));
}

/**
 * A transaction of `n` nodes: groups of seven under a root exercise, each with creates and a nested
 * exercise on one of its own creations (so some contracts are transient), in node id order.
 */
export function generatedTransaction(n: number): wire.JsTransaction {
  const events: wire.Event[] = [];
  const created = (id: number) => createdEvent(id, `#c${id}`, { observers: [BOB], createArgument: { issuer: ALICE, owner: BOB, currency: 'USD', amount: '1.0', observers: [] } });
  let nodeId = 0;
  while (nodeId < n) {
    const root = nodeId;
    const size = Math.min(7, n - root);
    events.push(exercisedEvent(root, root + size - 1, `#in${root}`, { choice: 'Split', choiceArgument: { splitAmount: '1.0' } }));
    for (let k = 1; k < size; k++) {
      const id = root + k;
      if (k === 2 && size > 4) events.push(exercisedEvent(id, root + 4, `#c${root + 1}`, { choice: 'Merge', choiceArgument: { splitAmount: '1.0' } }));
      else events.push(created(id));
    }
    nodeId += size;
  }
  return wireTransaction(events);
}
