import assert from 'node:assert/strict';
import { decodeUpdate, eventCounts } from '../../../src/core/models/updates';
import { ALICE, BOB, CID, createdEvent, PKG, SYNC, transaction } from '../../support/wireSamples';

describe('decodeUpdate', () => {
  it('decodes a transaction, normalising "" and null to undefined', () => {
    const u = decodeUpdate({ update: { Transaction: { value: transaction() } } });
    assert.equal(u.kind, 'transaction');
    if (u.kind !== 'transaction') return;
    assert.equal(u.offset, 7);
    assert.equal(u.commandId, undefined);
    assert.equal(u.workflowId, undefined);
    assert.equal(u.externalTransactionHash, undefined);
    assert.equal(u.paidTrafficCost, undefined);
    assert.equal(u.traceParent, undefined);
    const [e] = u.events;
    assert.equal(e.kind, 'created');
    if (e.kind !== 'created') return;
    assert.equal(e.contractKey, undefined);
    assert.equal(e.createdEventBlob, undefined);
    assert.deepEqual(e.signatories, [ALICE]);
    assert.equal((e.createArgument as { amount: string }).amount, '999.9900000000', 'Numerics stay strings');
  });

  it('tolerates missing lists and fields (relaxed spec) and nulls for lists', () => {
    const t = transaction({ events: null, commandId: undefined, traceContext: null });
    const u = decodeUpdate({ update: { Transaction: { value: t } } });
    assert.equal(u.kind, 'transaction');
    if (u.kind === 'transaction') assert.deepEqual(u.events, []);
    const e = createdEvent({ observers: null, witnessParties: undefined, interfaceViews: null });
    const u2 = decodeUpdate({ update: { Transaction: { value: transaction({ events: [{ CreatedEvent: e }] }) } } });
    if (u2.kind !== 'transaction' || u2.events[0].kind !== 'created') return assert.fail('expected a created event');
    assert.deepEqual(u2.events[0].observers, []);
    assert.deepEqual(u2.events[0].witnessParties, []);
    assert.deepEqual(u2.events[0].interfaceViews, []);
  });

  it('decodes archived and exercised events and counts them', () => {
    const events = [
      { ArchivedEvent: { offset: 9, nodeId: 0, contractId: CID, templateId: `${PKG}:Iou:Iou`, witnessParties: [ALICE], packageName: 'demo-iou', implementedInterfaces: null } },
      {
        ExercisedEvent: {
          offset: 9, nodeId: 1, contractId: CID, templateId: `${PKG}:Iou:Iou`, interfaceId: null, choice: 'Iou_Transfer',
          choiceArgument: { newOwner: BOB }, actingParties: [ALICE], consuming: true, witnessParties: [ALICE], lastDescendantNodeId: 2,
          exerciseResult: '00ff', packageName: 'demo-iou', implementedInterfaces: [], acsDelta: true,
        },
      },
      { CreatedEvent: createdEvent({ nodeId: 2 }) },
    ];
    const u = decodeUpdate({ update: { Transaction: { value: transaction({ events, offset: 9 }) } } });
    if (u.kind !== 'transaction') return assert.fail('expected a transaction');
    assert.deepEqual(u.events.map((e) => e.kind), ['archived', 'exercised', 'created']);
    const ex = u.events[1];
    if (ex.kind !== 'exercised') return assert.fail();
    assert.equal(ex.consuming, true);
    assert.equal(ex.interfaceId, undefined);
    assert.deepEqual(eventCounts(u), { created: 1, archived: 1, exercised: 1 });
  });

  it('decodes reassignments: bare assigned events, wrapped unassigned events, and the 3.3 unassignId', () => {
    const u = decodeUpdate({
      update: {
        Reassignment: {
          value: {
            updateId: 'u1', commandId: '', workflowId: '', offset: 11, recordTime: '2025-01-01T00:00:00Z', synchronizerId: SYNC, traceContext: null,
            events: [
              { JsUnassignedEvent: { value: { reassignmentId: 'r1', contractId: CID, templateId: `${PKG}:Iou:Iou`, source: 's1', target: 's2', submitter: ALICE, reassignmentCounter: 1, assignmentExclusivity: null, witnessParties: [ALICE], packageName: 'demo-iou', offset: 11, nodeId: 0 } } },
              { JsAssignmentEvent: { source: 's1', target: 's2', unassignId: 'r0', submitter: '', reassignmentCounter: 1, createdEvent: createdEvent() } },
            ],
          },
        },
      },
    });
    if (u.kind !== 'reassignment') return assert.fail('expected a reassignment');
    assert.equal(u.events[0].kind, 'unassigned');
    assert.equal(u.events[0].reassignmentId, 'r1');
    assert.equal(u.events[1].kind, 'assigned');
    assert.equal(u.events[1].reassignmentId, 'r0');
    assert.equal(u.events[1].submitter, undefined);
    if (u.events[1].kind === 'assigned') assert.equal(u.events[1].createdEvent.contractId, CID);
  });

  it('decodes topology events behind their extra `event` key, string and 3.3 numeric permissions, and skips Empty', () => {
    const u = decodeUpdate({
      update: {
        TopologyTransaction: {
          value: {
            updateId: 't1', offset: 3, synchronizerId: SYNC, recordTime: '2025-01-01T00:00:00Z', traceContext: null,
            events: [
              { event: { ParticipantAuthorizationAdded: { value: { partyId: ALICE, participantId: 'p1', participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' } } } },
              { event: { ParticipantAuthorizationChanged: { value: { partyId: ALICE, participantId: 'p1', participantPermission: 3 } } } },
              { event: { ParticipantAuthorizationRevoked: { value: { partyId: BOB, participantId: 'p1' } } } },
              { event: { ParticipantAuthorizationOnboarding: { value: { partyId: BOB, participantId: 'p1', participantPermission: 'PARTICIPANT_PERMISSION_OBSERVATION' } } } },
              { event: { Empty: {} } },
              { event: null },
            ],
          },
        },
      },
    });
    if (u.kind !== 'topology') return assert.fail('expected topology');
    assert.deepEqual(u.events.map((e) => [e.change, e.permission]), [['added', 'submission'], ['changed', 'observation'], ['revoked', undefined], ['onboarding', 'observation']]);
  });

  it('decodes offset checkpoints with and without synchronizer times', () => {
    const u = decodeUpdate({ update: { OffsetCheckpoint: { value: { offset: 20, synchronizerTimes: [{ synchronizerId: SYNC, recordTime: '2025-01-01T00:00:00Z' }] } } } });
    assert.equal(u.kind, 'checkpoint');
    assert.equal(u.offset, 20);
    const bare = decodeUpdate({ update: { OffsetCheckpoint: { value: { offset: 21, synchronizerTimes: null } } } });
    if (bare.kind !== 'checkpoint') return assert.fail();
    assert.deepEqual(bare.synchronizerTimes, []);
  });

  it('keeps unknown future variants instead of dropping them', () => {
    const u = decodeUpdate({ update: { FutureThing: { value: { offset: 33 } } } } as never);
    assert.equal(u.kind, 'unknown');
    if (u.kind === 'unknown') {
      assert.equal(u.variant, 'FutureThing');
      assert.equal(u.offset, 33);
    }
    assert.equal(decodeUpdate({ update: null }).kind, 'unknown');
  });
});
