import assert from 'node:assert/strict';
import type * as wire from '../../src/core/models/wire';
import type { DemoParticipant } from '../../src/participant/index';
import type { ApiVersion } from '../../src/participant/versions';
import { startCheckedNetwork } from '../support/demoNetwork';
import { ASSET, commands, createIou, post, start, submit, transactions, transactionsFormat } from './helpers';

const PREPARE = '/v2/interactive-submission/prepare';

function prepare(p: DemoParticipant, actAs: string[], cmds: wire.Command[], extra: object = {}) {
  return post<wire.JsPrepareSubmissionResponse>(p, PREPARE, { ...commands(actAs, cmds), synchronizerId: '', verboseHashing: false, ...extra });
}

async function listedFor(p: DemoParticipant, parties: string[], updateId: string): Promise<wire.JsTransaction> {
  const reply = await post<wire.JsGetUpdatesResponse[]>(p, '/v2/updates', { beginExclusive: 0, endInclusive: p.state.ledgerEnd, updateFormat: transactionsFormat(parties, 'LEDGER_EFFECTS') });
  assert.equal(reply.status, 200, reply.text);
  return transactions(reply.json).find((t) => t.updateId === updateId)!;
}

describe('demo participant: traffic cost', () => {
  const running: DemoParticipant[] = [];
  const at = async (apiVersion: ApiVersion) => {
    const p = await start({ apiVersion });
    running.push(p);
    return p;
  };
  after(() => Promise.all(running.map((p) => p.close())));

  it('3.4.12: the submitters see the paid cost, a read for other parties gets none; the prepared estimate is what the transaction then pays', async () => {
    const p = await at('3.4.12');
    const { bank, alice } = p.parties;
    const estimate = await prepare(p, [bank], [createIou(bank, alice, '7')]);
    assert.equal(estimate.status, 200, estimate.text);
    const e = estimate.json.costEstimation!;
    assert.ok(e.confirmationRequestTrafficCostEstimation > 600, 'the request costs at least its envelope');
    assert.ok(e.confirmationResponseTrafficCostEstimation > 0);
    assert.equal(e.totalTrafficCostEstimation, e.confirmationRequestTrafficCostEstimation + e.confirmationResponseTrafficCostEstimation);
    assert.match(e.estimationTimestamp, /^\d{4}-\d\d-\d\dT/);

    const tx = await submit(p, [bank], [createIou(bank, alice, '7')]);
    assert.equal(tx.paidTrafficCost, e.confirmationRequestTrafficCostEstimation);
    assert.equal((await listedFor(p, [bank], tx.updateId)).paidTrafficCost, tx.paidTrafficCost);
    assert.equal((await listedFor(p, [alice], tx.updateId)).paidTrafficCost, null);
  });

  it('grows with the transaction: a bigger payload pays more', async () => {
    const p = await at('3.4.12');
    const { bank, alice } = p.parties;
    const small = await submit(p, [bank], [createIou(bank, alice, '1')]);
    const big = await submit(p, [bank], [createIou(bank, alice, '1', 'USD'.repeat(200))]);
    assert.ok(big.paidTrafficCost! > small.paidTrafficCost! + 600, `${big.paidTrafficCost} vs ${small.paidTrafficCost}`);
  });

  it('an estimate the request turns off is not sent', async () => {
    const p = await at('3.4.12');
    const reply = await prepare(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.alice)], { estimateTrafficCost: { disabled: true } });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json.costEstimation, undefined);
  });

  it('3.4.11 estimates but reports no paid cost; 3.3 does neither', async () => {
    const p34 = await at('3.4.11');
    const estimated = await prepare(p34, [p34.parties.bank], [createIou(p34.parties.bank, p34.parties.alice)], { userId: 'demo-admin' });
    assert.equal(estimated.status, 200, estimated.text);
    assert.ok(estimated.json.costEstimation!.totalTrafficCostEstimation > 0);
    assert.equal('paidTrafficCost' in (await submit(p34, [p34.parties.bank], [createIou(p34.parties.bank, p34.parties.alice)])), false);

    const p33 = await at('3.3');
    const none = await prepare(p33, [p33.parties.bank], [createIou(p33.parties.bank, p33.parties.alice)], { userId: 'demo-admin' });
    assert.equal(none.status, 200, none.text);
    assert.equal(none.json.costEstimation, undefined);
  });

  it("on a network, only the submitting participant reports a cost: another's copy of the transaction has none", async () => {
    const net = await startCheckedNetwork({ seed: false });
    try {
      const { alice } = net.parties;
      const tx = await submit(net.participant('app-user'), [alice], [{ CreateCommand: { templateId: ASSET, createArguments: { owner: alice, id: 'van-1', description: 'Green van' } } }]);
      assert.equal(typeof tx.paidTrafficCost, 'number');
      const reply = await post<wire.JsGetUpdatesResponse[]>(net.participant('app-provider'), '/v2/updates', { beginExclusive: 0, updateFormat: transactionsFormat([alice], 'LEDGER_EFFECTS') }, { query: { limit: 200 } });
      const copy = transactions(reply.json).find((t) => t.updateId === tx.updateId);
      assert.ok(copy, 'app-provider hosts Alice too');
      assert.equal(copy.paidTrafficCost, null);
    } finally {
      await net.close();
    }
  });
});
