// A contract's activity through 3.8's contract-id filter on updates: the demo participant playing 3.8
// answers only the updates that touch the contract; the client sends the filter only where the
// participant's description declares it (a description derived from the 3.6 spec at test time), and a
// participant playing 3.6 ignores the field as any unknown one.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { UPDATES_CONTRACT_ID_FIELD } from '../../../src/core/api/contractIdFilter';
import { checkCompatibility } from '../../../src/core/compat/check';
import type * as wire from '../../../src/core/models/wire';
import { exercisesOn, transactionsTouchingContract } from '../../../src/core/updates/contractActivity';
import type { DemoParticipant, Exchange } from '../../../src/participant/index';
import { createdEvents, createIou, post, start, submit } from '../../participant/helpers';
import { requireSpec } from '../../support/spec';
import { derive38Spec } from '../../support/spec38';

const IOU = '#demo-iou:Iou:Iou';
const ACS_DELTA: wire.TransactionFormat = { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' };

async function transferred(p: DemoParticipant): Promise<{ first: string; second: string; offsets: number[] }> {
  const { bank, alice, bob } = p.parties;
  const issue = await submit(p, [bank], [createIou(bank, alice, '5')], { format: ACS_DELTA });
  const first = createdEvents(issue)[0].contractId;
  const transfer = await submit(p, [alice], [{ ExerciseCommand: { templateId: IOU, contractId: first, choice: 'Iou_Transfer', choiceArgument: { newOwner: bob } } }], { format: ACS_DELTA });
  return { first, second: createdEvents(transfer)[0].contractId, offsets: [issue.offset, transfer.offset] };
}

describe('contract activity with the contract-id filter (3.8)', function () {
  this.timeout(30_000);

  describe('a participant playing 3.8', () => {
    let p: DemoParticipant;
    const exchanges: Exchange[] = [];
    before(async function () {
      requireSpec(this, 'main-3.6');
      p = await start({ apiVersion: '3.8', onExchange: (x: Exchange) => exchanges.push(x) });
    });
    after(() => p?.close());

    it('answers only the updates that create, exercise or archive the contract', async () => {
      const { first, offsets } = await transferred(p);
      const reply = await post<Array<{ update: { Transaction?: { value: wire.JsTransaction } } }>>(p, '/v2/updates', {
        beginExclusive: 0,
        endInclusive: p.state.ledgerEnd,
        updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } },
        [UPDATES_CONTRACT_ID_FIELD]: [first],
      });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json.map((u) => u.update.Transaction?.value.offset), offsets);
    });

    it('the client reads the exercises on a contract in one request, of the shape the description declares', async () => {
      const { first, offsets } = await transferred(p);
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
      client.useCompatibility(checkCompatibility(derive38Spec({ scopes: false }).document, '3.8.0'));
      exchanges.length = 0;
      const transactions = await transactionsTouchingContract(client, first, { anyParty: true }, { endInclusive: p.state.ledgerEnd });
      assert.deepEqual(transactions.map((t) => t.offset), offsets);
      assert.deepEqual(exercisesOn(transactions, first).map((x) => [x.event.choice, x.event.consuming, x.updateId]), [['Iou_Transfer', true, transactions[1].updateId]]);
      const bodies = exchanges.filter((x) => x.path === '/v2/updates').map((x) => JSON.parse(x.requestBody) as Record<string, unknown>);
      assert.equal(bodies.length, 1);
      assert.deepEqual(bodies[0][UPDATES_CONTRACT_ID_FIELD], [first]);
    });
  });

  it('a participant playing 3.6 ignores the field (an unknown field): every update comes back', async () => {
    const p = await start({ apiVersion: '3.6' });
    try {
      const { first } = await transferred(p);
      const reply = await post<unknown[]>(p, '/v2/updates', {
        beginExclusive: 0,
        endInclusive: p.state.ledgerEnd,
        updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } },
        [UPDATES_CONTRACT_ID_FIELD]: [first],
      });
      assert.equal(reply.status, 200, reply.text);
      assert.ok(reply.json.length > 2, `${reply.json.length} updates`);
    } finally {
      await p.close();
    }
  });
});
