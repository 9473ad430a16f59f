import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as wire from '../../src/core/models/wire';
import type { DemoParticipant } from '../../src/participant/index';
import { SPEC_DIR } from '../support/spec';
import { IOU, assertCantonError, assertDecodeFailure, assertSpecValid, createIou, createdEvents, eventFormat, post, start, submit, templates } from './helpers';

const EVENTS = '/v2/events/events-by-contract-id';

describe('demo participant: POST /v2/events/events-by-contract-id', () => {
  let p: DemoParticipant;
  before(async () => {
    p = await start();
  });
  after(() => p.close());

  it('an active contract: the create, and archived: null', async () => {
    const [iou] = createdEvents(await submit(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.alice, '12')]));
    const reply = await post(p, EVENTS, { contractId: iou.contractId, eventFormat: eventFormat([p.parties.alice]) });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json.archived, null);
    assert.deepEqual(Object.keys(reply.json), ['created', 'archived']);
    assert.equal(reply.json.created.createdEvent.contractId, iou.contractId);
    assert.deepEqual(reply.json.created.createdEvent.witnessParties, [p.parties.alice]);
    assert.equal(reply.json.created.synchronizerId, p.state.synchronizers[0].id);
    assertSpecValid(reply.json, 'JsGetEventsByContractIdResponse');
  });

  it('an archived contract: both events (the request body of the Canton tests works as is)', async () => {
    const [iou] = createdEvents(await submit(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.alice, '13')]));
    const archive = await submit(p, [p.parties.bank], [{ ExerciseCommand: { templateId: IOU, contractId: iou.contractId, choice: 'Archive', choiceArgument: {} } }]);
    const example = JSON.parse(readFileSync(join(SPEC_DIR, 'examples/events-by-contract-id/req-01-any-party-wildcard.json'), 'utf8'));
    const reply = await post(p, EVENTS, { ...example, contractId: iou.contractId });
    assert.equal(reply.status, 200, reply.text);
    const archived: wire.ArchivedEvent = reply.json.archived.archivedEvent;
    assert.equal(archived.offset, archive.offset);
    assert.deepEqual(archived.witnessParties, [p.parties.alice, p.parties.bank].sort());
    assertSpecValid(reply.json, 'JsGetEventsByContractIdResponse');
  });

  it('404 CONTRACT_EVENTS_NOT_FOUND when unknown, not visible or filtered out', async () => {
    const [iou] = createdEvents(await submit(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.alice, '14')]));
    const unknown = assertCantonError(await post(p, EVENTS, { contractId: '00' + 'cd'.repeat(68), eventFormat: eventFormat('any') }), 404, 'CONTRACT_EVENTS_NOT_FOUND', 11);
    assert.deepEqual(unknown.resources, [['ErrorResource(CONTRACT_ID)', '00' + 'cd'.repeat(68)]]);
    assert.equal(unknown.cause, 'Contract events not found, or not visible.');
    assertCantonError(await post(p, EVENTS, { contractId: iou.contractId, eventFormat: eventFormat([p.parties.charlie]) }), 404, 'CONTRACT_EVENTS_NOT_FOUND', 11);
    assertCantonError(await post(p, EVENTS, { contractId: iou.contractId, eventFormat: eventFormat('any', templates('#demo-asset:Asset:Asset')) }), 404, 'CONTRACT_EVENTS_NOT_FOUND', 11);
    assertDecodeFailure(await post(p, EVENTS, { contractId: iou.contractId }));
  });

  it('pruning removes archived contracts, not active ones', async () => {
    const [gone, kept] = createdEvents(
      await submit(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.alice, '1'), createIou(p.parties.bank, p.parties.alice, '2')]),
    );
    await submit(p, [p.parties.bank], [{ ExerciseCommand: { templateId: IOU, contractId: gone.contractId, choice: 'Archive', choiceArgument: {} } }]);
    p.state.prune(p.state.ledgerEnd);
    assertCantonError(await post(p, EVENTS, { contractId: gone.contractId, eventFormat: eventFormat('any') }), 404, 'CONTRACT_EVENTS_NOT_FOUND', 11);
    const active = await post(p, EVENTS, { contractId: kept.contractId, eventFormat: eventFormat('any') });
    assert.equal(active.status, 200);
  });
});
