import assert from 'node:assert/strict';
import type * as wire from '../../src/core/models/wire';
import type { DemoParticipant } from '../../src/participant/index';
import {
  ASSET,
  IOU,
  assertCantonError,
  assertDecodeFailure,
  assertSpecValid,
  commands,
  createIou,
  createdEvents,
  post,
  start,
  submit,
} from './helpers';

const SUBMIT = '/v2/commands/submit-and-wait-for-transaction';

describe('demo participant: commands', () => {
  let p: DemoParticipant;
  before(async () => {
    p = await start();
  });
  after(() => p.close());

  const exercise = (contractId: string, choice: string, choiceArgument: unknown, templateId = IOU): wire.Command => ({
    ExerciseCommand: { templateId, contractId, choice, choiceArgument },
  });

  it('creates: the default format shows the ACS delta for actAs and readAs, as Canton renders it', async () => {
    const reply = await post(p, SUBMIT, { commands: commands([p.parties.bank], [createIou(p.parties.bank, p.parties.alice, '999.99')], { readAs: [p.parties.alice] }) });
    assert.equal(reply.status, 200, reply.text);
    assertSpecValid(reply.json, 'JsSubmitAndWaitForTransactionResponse');
    const tx: wire.JsTransaction = reply.json.transaction;
    assert.equal(tx.offset, p.state.ledgerEnd);
    const [created] = createdEvents(tx);
    assert.deepEqual(created.createArgument, { issuer: p.parties.bank, owner: p.parties.alice, currency: 'USD', amount: '999.9900000000', observers: [] });
    assert.deepEqual(created.witnessParties, [p.parties.alice, p.parties.bank].sort());
    assert.deepEqual(created.signatories, [p.parties.bank]);
    assert.deepEqual(created.observers, [p.parties.alice]);
    assert.equal(created.packageName, 'demo-iou');
    assert.match(tx.commandId!, /^test-/);
  });

  it('transfers, splits and archives; results are contract ids and tuples', async () => {
    const [iou] = createdEvents(await submit(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.alice, '100')]));
    // Alice is a witness of her exercise; Bob, the new owner, only of the Iou it creates.
    const moved = await submit(p, [p.parties.alice], [exercise(iou.contractId, 'Iou_Transfer', { newOwner: p.parties.bob })], {
      format: { eventFormat: { filtersByParty: { [p.parties.alice]: {}, [p.parties.bob]: {} } }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
    });
    const exercised = (moved.events![0] as { ExercisedEvent: wire.ExercisedEvent }).ExercisedEvent;
    const bobsIou = createdEvents(moved)[0];
    assert.deepEqual(exercised.witnessParties, [p.parties.alice]);
    assert.deepEqual(bobsIou.witnessParties, [p.parties.alice, p.parties.bob].sort());
    assert.equal(exercised.exerciseResult, bobsIou.contractId);
    assert.equal((bobsIou.createArgument as { owner: string }).owner, p.parties.bob);

    const split = await submit(p, [p.parties.bob], [exercise(bobsIou.contractId, 'Iou_Split', { splitAmount: '30.5' })], {
      format: { eventFormat: { filtersByParty: { [p.parties.bob]: {} } }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
    });
    const [first, second] = createdEvents(split);
    assert.deepEqual((split.events![0] as { ExercisedEvent: wire.ExercisedEvent }).ExercisedEvent.exerciseResult, { _1: first.contractId, _2: second.contractId });
    assert.equal((first.createArgument as { amount: string }).amount, '30.5000000000');
    assert.equal((second.createArgument as { amount: string }).amount, '69.5000000000');

    const archived = await submit(p, [p.parties.bank], [exercise(first.contractId, 'Archive', {})]);
    assert.deepEqual(Object.keys(archived.events![0]), ['ArchivedEvent']);
    assert.equal(p.state.activeContract(first.contractId), undefined);
  });

  it('authorizes as Daml does: creates by all signatories, Archive by the signatories, choices by their controllers', async () => {
    const { alice, bank, bob } = p.parties;
    // A create needs the authority of every signatory: Alice cannot issue an Iou in the bank's name.
    const forged = await post(p, SUBMIT, { commands: commands([alice], [createIou(bank, alice, '5')]) });
    assert.match(assertCantonError(forged, 400, 'DAML_AUTHORIZATION_ERROR', 8).cause, /requires authorizers .*Bank/);
    const [iou] = createdEvents(await submit(p, [bank], [createIou(bank, alice, '5')]));
    // The implicit Archive is controlled by the signatories (the issuer), not by the owner.
    assertCantonError(await post(p, SUBMIT, { commands: commands([alice], [exercise(iou.contractId, 'Archive', {})]) }), 400, 'DAML_AUTHORIZATION_ERROR', 8);
    // Iou_Transfer is the owner's choice: the issuer cannot move Alice's Iou.
    assertCantonError(await post(p, SUBMIT, { commands: commands([bank], [exercise(iou.contractId, 'Iou_Transfer', { newOwner: bob })]) }), 400, 'DAML_AUTHORIZATION_ERROR', 8);
    // A party that is no stakeholder does not see the contract at all.
    assertCantonError(await post(p, SUBMIT, { commands: commands([bob], [exercise(iou.contractId, 'Iou_Transfer', { newOwner: bob })]) }), 404, 'CONTRACT_NOT_FOUND', 11);
    const archived = await submit(p, [bank], [exercise(iou.contractId, 'Archive', {})]);
    assert.deepEqual(Object.keys(archived.events![0]), ['ArchivedEvent']);
  });

  it('rejects a split of zero or of the whole amount (DAML_INTERPRETATION_ERROR), leaving the contract active', async () => {
    const [iou] = createdEvents(await submit(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.alice, '10')]));
    for (const splitAmount of ['0', '10', '-1']) {
      const reply = await post(p, SUBMIT, { commands: commands([p.parties.alice], [exercise(iou.contractId, 'Iou_Split', { splitAmount })]) });
      assertCantonError(reply, 400, 'DAML_INTERPRETATION_ERROR', 9);
    }
    assert.ok(p.state.activeContract(iou.contractId));
  });

  it('create-and-exercise and exercise-by-key', async () => {
    const tx = await submit(p, [p.parties.bank], [
      {
        CreateAndExerciseCommand: {
          templateId: IOU,
          createArguments: { issuer: p.parties.bank, owner: p.parties.bank, currency: 'CHF', amount: 1, observers: [] },
          choice: 'Iou_Transfer',
          choiceArgument: { newOwner: p.parties.charlie },
        },
      },
    ]);
    // The intermediate contract is created and archived in the same transaction: not in the ACS delta.
    assert.equal(tx.events!.length, 1);
    assert.equal((createdEvents(tx)[0].createArgument as { owner: string }).owner, p.parties.charlie);

    await submit(p, [p.parties.bob], [{ CreateCommand: { templateId: ASSET, createArguments: { owner: p.parties.bob, id: 'bike', description: 'old' } } }]);
    const renamed = await submit(p, [p.parties.bob], [
      { ExerciseByKeyCommand: { templateId: ASSET, contractKey: { _1: p.parties.bob, _2: 'bike' }, choice: 'Asset_Rename', choiceArgument: { newDescription: 'new' } } },
    ]);
    assert.deepEqual(renamed.events!.map((e) => Object.keys(e)[0]), ['ArchivedEvent', 'CreatedEvent']);
    const created = createdEvents(renamed)[0];
    assert.deepEqual(created.createArgument, { owner: p.parties.bob, id: 'bike', description: 'new' });
    assert.deepEqual(created.contractKey, { _1: p.parties.bob, _2: 'bike' });

    const duplicate = await post(p, SUBMIT, { commands: commands([p.parties.bob], [{ CreateCommand: { templateId: ASSET, createArguments: { owner: p.parties.bob, id: 'bike', description: 'x' } } }]) });
    assertCantonError(duplicate, 409, 'DUPLICATE_CONTRACT_KEY', 10);
    const missingKey = await post(p, SUBMIT, {
      commands: commands([p.parties.bob], [{ ExerciseByKeyCommand: { templateId: ASSET, contractKey: { _1: p.parties.bob, _2: 'car' }, choice: 'Archive', choiceArgument: {} } }]),
    });
    assertCantonError(missingKey, 404, 'CONTRACT_KEY_NOT_FOUND', 11);
  });

  it('is atomic: when a later command fails, nothing is committed', async () => {
    const end = p.state.ledgerEnd;
    const reply = await post(p, SUBMIT, {
      commands: commands([p.parties.bank], [createIou(p.parties.bank, p.parties.alice, '1'), exercise('00' + 'ab'.repeat(68), 'Archive', {})]),
    });
    assertCantonError(reply, 404, 'CONTRACT_NOT_FOUND', 11);
    assert.equal(p.state.ledgerEnd, end);
  });

  it('CONTRACT_NOT_FOUND for archived and invisible contracts, with the resource', async () => {
    const [iou] = createdEvents(await submit(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.alice, '3')]));
    const invisible = await post(p, SUBMIT, { commands: commands([p.parties.charlie], [exercise(iou.contractId, 'Archive', {})]) });
    const error = assertCantonError(invisible, 404, 'CONTRACT_NOT_FOUND', 11);
    assert.deepEqual(error.resources, [['ErrorResource(CID)', iou.contractId]]);
    assert.equal(error.cause, `Contract could not be found with id ${iou.contractId}`);
    assert.equal(error.correlationId !== null && error.correlationId !== undefined, true, 'the submission id correlates the error');
    await submit(p, [p.parties.bank], [exercise(iou.contractId, 'Archive', {})]);
    const again = await post(p, SUBMIT, { commands: commands([p.parties.bank], [exercise(iou.contractId, 'Archive', {})]) });
    assertCantonError(again, 404, 'CONTRACT_NOT_FOUND', 11);
  });

  it('checks Daml arguments: unexpected fields, missing fields, wrong types', async () => {
    const args = (extra: object) => ({ issuer: p.parties.bank, owner: p.parties.alice, currency: 'USD', amount: '1', observers: [], ...extra });
    const create = (createArguments: object) => post(p, SUBMIT, { commands: commands([p.parties.bank], [{ CreateCommand: { templateId: IOU, createArguments } }]) });
    const unexpected = assertCantonError(await create(args({ colour: 'red' })), 400, 'INVALID_ARGUMENT', 8);
    assert.match(unexpected.cause, /Unexpected fields: colour/);
    const { currency: _, ...withoutCurrency } = args({});
    const missing = assertCantonError(await create(withoutCurrency), 400, 'COMMAND_PREPROCESSING_FAILED', 8);
    assert.match(missing.cause, /Missing non-optional field: currency/);
    assertCantonError(await create(args({ amount: 'lots' })), 400, 'COMMAND_PREPROCESSING_FAILED', 8);
    assertCantonError(await create(args({ amount: '1.00000000001' })), 400, 'COMMAND_PREPROCESSING_FAILED', 8);
    assertCantonError(await create(args({ amount: '0' })), 400, 'DAML_INTERPRETATION_ERROR', 9);
    const choice = await post(p, SUBMIT, { commands: commands([p.parties.bank], [exercise('00ab', 'Iou_Explode', {})]) });
    assertCantonError(choice, 404, 'CONTRACT_NOT_FOUND', 11);
  });

  it('reads a generated placeholder as Canton does: any string is a Text, "<Numeric 10>" is no Numeric', async () => {
    const [created] = createdEvents(await submit(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.alice, '5', '<Text>')]));
    assert.equal((created.createArgument as { currency: string }).currency, '<Text>');
    const notANumeric = assertCantonError(await post(p, SUBMIT, { commands: commands([p.parties.bank], [createIou(p.parties.bank, p.parties.alice, '<Numeric 10>')]) }), 400, 'COMMAND_PREPROCESSING_FAILED', 8);
    assert.match(notANumeric.cause, /mismatching type: Numeric 10 and value: "<Numeric 10>"/);
  });

  it('checks authorization: signatories and controllers must be among actAs', async () => {
    const reply = await post(p, SUBMIT, { commands: commands([p.parties.alice], [createIou(p.parties.bank, p.parties.alice)]) });
    assertCantonError(reply, 400, 'DAML_AUTHORIZATION_ERROR', 8);
  });

  it('accepts package-id template ids in commands; rejects unknown packages and malformed ids', async () => {
    const packageIdForm = createdEvents(await submit(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.bob)]))[0].templateId;
    const tx = await submit(p, [p.parties.bank], [{ CreateCommand: { templateId: packageIdForm, createArguments: { issuer: p.parties.bank, owner: p.parties.bob, currency: 'USD', amount: '2', observers: [] } } }]);
    assert.equal(createdEvents(tx)[0].templateId, packageIdForm);
    const unknownName = await post(p, SUBMIT, { commands: commands([p.parties.bank], [{ CreateCommand: { templateId: '#nope:Iou:Iou', createArguments: {} } }]) });
    assertCantonError(unknownName, 404, 'PACKAGE_NAMES_NOT_FOUND', 11);
    assertDecodeFailure(await post(p, SUBMIT, { commands: commands([p.parties.bank], [{ CreateCommand: { templateId: 'Iou', createArguments: {} } }]) }));
  });

  it('validates the request: required fields (text/plain) and empty ones (MISSING_FIELD)', async () => {
    assertDecodeFailure(await post(p, SUBMIT, { commands: { commands: [], actAs: [p.parties.bank] } }));
    assertDecodeFailure(await post(p, SUBMIT, commands([p.parties.bank], [createIou(p.parties.bank, p.parties.bob)])), 'Invalid value for: body');
    assertCantonError(await post(p, SUBMIT, { commands: commands([p.parties.bank], []) }), 400, 'MISSING_FIELD', 8);
    assertCantonError(await post(p, SUBMIT, { commands: commands([p.parties.bank], [createIou(p.parties.bank, p.parties.bob)], { commandId: '' }) }), 400, 'MISSING_FIELD', 8);
    assertCantonError(await post(p, SUBMIT, { commands: commands([p.parties.bank], [createIou(p.parties.bank, p.parties.bob)], { userId: 'ghost' }) }), 404, 'USER_NOT_FOUND', 11);
  });

  it('POST /v2/commands/submit-and-wait takes the bare JsCommands', async () => {
    const reply = await post(p, '/v2/commands/submit-and-wait', commands([p.parties.bank], [createIou(p.parties.bank, p.parties.charlie)]));
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(Object.keys(reply.json), ['updateId', 'completionOffset']);
    assert.equal(reply.json.completionOffset, p.state.ledgerEnd);
    assertSpecValid(reply.json, 'SubmitAndWaitResponse');
  });

  it('deduplicates by (user, actAs, commandId) and reports the original completion', async () => {
    const cmds = commands([p.parties.bank], [createIou(p.parties.bank, p.parties.alice)], { submissionId: 'first-try' });
    const first = await post(p, '/v2/commands/submit-and-wait', cmds);
    assert.equal(first.status, 200);
    const second = await post(p, '/v2/commands/submit-and-wait', { ...cmds, submissionId: 'second-try' });
    const error = assertCantonError(second, 409, 'DUPLICATE_COMMAND', 10);
    assert.equal(error.context!.existing_submission_id, 'first-try');
    assert.equal(error.context!.completion_offset, String(first.json.completionOffset));
    assert.equal(error.correlationId, 'second-try');
    // Another user with the same command id is a different change.
    const otherUser = await post(p, '/v2/commands/submit-and-wait', { ...cmds, userId: 'bank' });
    assert.equal(otherUser.status, 200);
    // A deduplication period that ended before the first submission lets it through again.
    const offsetPeriod = await post(p, '/v2/commands/submit-and-wait', { ...cmds, deduplicationPeriod: { DeduplicationOffset: { value: first.json.completionOffset } } });
    assert.equal(offsetPeriod.status, 200);
    // So does a zero-length window.
    const noWindow = await post(p, '/v2/commands/submit-and-wait', { ...cmds, deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 0, nanos: 0 } } } });
    assert.equal(noWindow.status, 200);
    const tooLong = await post(p, '/v2/commands/submit-and-wait', { ...cmds, commandId: 'long', deduplicationPeriod: { DeduplicationDuration: { value: { seconds: 86400, nanos: 0 } } } });
    assertCantonError(tooLong, 400, 'INVALID_DEDUPLICATION_PERIOD', 9);
  });

  it('a dropped response still executes the command; the retry is a DUPLICATE_COMMAND, never a second execution', async () => {
    const cmds = commands([p.parties.bank], [createIou(p.parties.bank, p.parties.bob, '77')]);
    const end = p.state.ledgerEnd;
    p.faults.submit = { dropResponse: true, times: 1 };
    await assert.rejects(post(p, '/v2/commands/submit-and-wait', cmds));
    assert.equal(p.state.ledgerEnd, end + 1, 'executed');
    assert.equal(p.faults.submit, undefined, 'the fault cleared itself');
    const retry = await post(p, '/v2/commands/submit-and-wait', cmds);
    const error = assertCantonError(retry, 409, 'DUPLICATE_COMMAND', 10);
    assert.equal(error.context!.completion_offset, String(end + 1));
    // As on Canton, the rejection is a completion at an offset of its own, with no transaction.
    assert.equal(p.state.ledgerEnd, end + 2);
    assert.equal(p.state.entries.filter((e) => e.offset > end && e.kind === 'transaction').length, 1, 'not executed twice');
  });

  it('a delayed response arrives late, after the command was committed', async () => {
    p.faults.submit = { delayMs: 300, times: 1 };
    const end = p.state.ledgerEnd;
    const started = Date.now();
    let answered = false;
    const committed = new Promise<boolean>((resolve) => p.state.on('changed', () => resolve(answered)));
    const pending = post(p, '/v2/commands/submit-and-wait', commands([p.parties.bank], [createIou(p.parties.bank, p.parties.bob)])).finally(() => (answered = true));
    assert.equal(await committed, false, 'committed before the answer');
    assert.equal(p.state.ledgerEnd, end + 1);
    const reply = await pending;
    assert.equal(reply.status, 200);
    assert.ok(Date.now() - started >= 290);
  });
});
