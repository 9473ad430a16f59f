/** Wire objects written the way a 3.5 participant writes them: nulls, "" and [] for absent values. */
import type * as wire from '../../src/core/models/wire';

export const PKG = 'a'.repeat(64);
export const ALICE = 'Alice::1220' + '1'.repeat(64);
export const BOB = 'Bob::1220' + '2'.repeat(64);
export const SYNC = 'global-synchronizer::1220' + '3'.repeat(64);
export const CID = '00' + 'c'.repeat(64) + 'ca101220' + 'd'.repeat(64);

export function createdEvent(over: Partial<wire.CreatedEvent> = {}): wire.CreatedEvent {
  return {
    offset: 7,
    nodeId: 0,
    contractId: CID,
    templateId: `${PKG}:Iou:Iou`,
    contractKey: null,
    contractKeyHash: '',
    createArgument: { issuer: ALICE, owner: ALICE, currency: 'USD', amount: '999.9900000000', observers: [] },
    createdEventBlob: '',
    interfaceViews: [],
    witnessParties: [ALICE],
    signatories: [ALICE],
    observers: [],
    createdAt: '2025-01-27T15:30:36.430940Z',
    packageName: 'demo-iou',
    representativePackageId: PKG,
    acsDelta: true,
    ...over,
  };
}

export function transaction(over: Partial<wire.JsTransaction> = {}): wire.JsTransaction {
  return {
    updateId: '1220' + 'e'.repeat(64),
    commandId: '',
    workflowId: '',
    effectiveAt: '2025-01-27T15:30:36.430940Z',
    events: [{ CreatedEvent: createdEvent() }],
    offset: 7,
    synchronizerId: SYNC,
    traceContext: { traceparent: null, tracestate: null },
    recordTime: '2025-01-27T15:30:36.5Z',
    externalTransactionHash: null,
    paidTrafficCost: null,
    ...over,
  };
}
