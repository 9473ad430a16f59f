import assert from 'node:assert/strict';
import { comparisonDocument, rangeDiffDocument, transactionDocument } from '../../src/core/graph/document';
import { toJson, toText } from '../../src/core/graph/export';
import { buildTransactionGraph } from '../../src/core/graph/model';
import { rangeDiffText } from '../../src/core/graph/rangeDiff';
import { decodeTransaction } from '../../src/core/models/updates';
import type { PreparedPreview } from '../../src/core/preview/model';
import { previewDocument, previewText } from '../../src/core/preview/render';
import {
  costEstimateText,
  decodeCostEstimation,
  formatTrafficCost,
  paidBesideEstimateText,
  sumTrafficCost,
  trafficCostLine,
  trafficCostSumText,
} from '../../src/core/trafficCost';
import { buildComparison, comparisonJson } from '../../src/core/updates/compare';
import { comparisonRows } from '../../src/core/updates/compareRows';
import { updateRow } from '../../src/core/updates/rows';
import { ALICE, BOB, SYNC, transaction } from '../support/wireSamples';

const ESTIMATE = {
  confirmationRequestTrafficCostEstimation: 1200,
  confirmationResponseTrafficCostEstimation: 300,
  totalTrafficCostEstimation: 1500,
  estimationTimestamp: '2026-01-02T03:04:05Z',
};

describe('traffic cost: figures and wording', () => {
  it('formats a cost as grouped bytes, the same on every machine', () => {
    assert.equal(formatTrafficCost(1), '1 byte');
    assert.equal(formatTrafficCost(0), '0 bytes');
    assert.equal(formatTrafficCost(1234567), '1,234,567 bytes');
  });

  it('decodes the prepare answer estimate, and its absence (null before 3.4 or when turned off)', () => {
    assert.deepEqual(decodeCostEstimation(ESTIMATE), { request: 1200, response: 300, total: 1500, estimatedAt: '2026-01-02T03:04:05Z' });
    assert.equal(decodeCostEstimation(null), undefined);
    assert.equal(decodeCostEstimation(undefined), undefined);
    assert.equal(costEstimateText(decodeCostEstimation(ESTIMATE)!), 'estimated 1,500 bytes (confirmation request 1,200 bytes + response 300 bytes)');
  });

  it('sums what was reported and counts what was not', () => {
    const sum = sumTrafficCost([{ paidTrafficCost: 1000 }, {}, { paidTrafficCost: 234 }]);
    assert.deepEqual(sum, { total: 1234, paid: 2, unreported: 1 });
    assert.equal(trafficCostSumText(sum), 'paid 1,234 bytes over 2 updates (1 without a reported cost)');
    assert.equal(trafficCostSumText(sumTrafficCost([{}, {}])), 'none reported');
  });

  it('puts the paid cost beside the estimate, and says when the committed transaction reported none', () => {
    const estimate = decodeCostEstimation(ESTIMATE);
    assert.equal(paidBesideEstimateText(1480, estimate), 'paid 1,480 bytes (estimated 1,500 bytes)');
    assert.equal(paidBesideEstimateText(undefined, estimate), 'paid: not reported (estimated 1,500 bytes)');
    assert.equal(paidBesideEstimateText(undefined, undefined), undefined);
    assert.equal(trafficCostLine({ paidTrafficCost: 5, costEstimate: estimate }), 'paid 5 bytes');
    assert.equal(trafficCostLine({}), undefined);
  });
});

describe('traffic cost: where it is shown', () => {
  const paid = decodeTransaction(transaction({ paidTrafficCost: 4321 }));
  const unpaid = decodeTransaction(transaction({ paidTrafficCost: null }));

  it('an update row: the tooltip and a detail row, none when not reported', () => {
    const row = updateRow(paid);
    assert.match(String(row.tooltip), /Traffic cost: paid 4,321 bytes/);
    const details = row.children!().find((r) => r.key === 'details')!.children!();
    const cost = details.find((r) => r.key === 'paidTrafficCost')!;
    assert.equal(cost.description, 'paid 4,321 bytes');
    assert.equal(cost.copyValue, '4321');
    const none = updateRow(unpaid);
    assert.doesNotMatch(String(none.tooltip), /Traffic cost/);
    assert.equal(none.children!().find((r) => r.key === 'details')!.children!().some((r) => r.key === 'paidTrafficCost'), false);
  });

  it("the graph's header (text, document, JSON)", () => {
    const g = buildTransactionGraph(paid);
    assert.equal(toText(g).split('\n')[1], 'Traffic cost: paid 4,321 bytes');
    assert.equal(transactionDocument(g).trafficCost, 'paid 4,321 bytes');
    assert.equal(JSON.parse(toJson(g)).paidTrafficCost, 4321);
    assert.equal(transactionDocument(buildTransactionGraph(unpaid)).trafficCost, undefined);
    assert.doesNotMatch(toText(buildTransactionGraph(unpaid)), /Traffic cost/);
  });

  it('a comparison with the committed transaction: the paid cost beside the estimate', () => {
    const prepared = { ...buildTransactionGraph(unpaid), costEstimate: decodeCostEstimation(ESTIMATE) };
    const doc = comparisonDocument(prepared, buildTransactionGraph(decodeTransaction(transaction({ paidTrafficCost: 1480 }))));
    assert.equal(doc.trafficCost, 'paid 1,480 bytes (estimated 1,500 bytes)');
    assert.match(doc.text, /\nTraffic cost: paid 1,480 bytes \(estimated 1,500 bytes\)$/);
    assert.equal(doc.prepared.trafficCost, 'estimated 1,500 bytes (confirmation request 1,200 bytes + response 300 bytes)');
    assert.equal(comparisonDocument(buildTransactionGraph(unpaid), buildTransactionGraph(unpaid)).trafficCost, undefined);
  });

  it('the preview: the estimate in the document and the text', () => {
    const preview: PreparedPreview = { transactionVersion: '2.1', roots: [], inputContracts: [], actAs: [ALICE], commandId: 'c1', synchronizerId: SYNC, transactionUuid: 'u' };
    const input = (costEstimation?: typeof ESTIMATE) => ({
      preview,
      raw: { preparedTransaction: '', preparedTransactionHash: 'AAAA', hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2' as const, costEstimation },
      hash: { kind: 'cannot-verify' as const, scheme: 'V2', why: 'cannot-encode' as const, reason: 'test' },
      participant: 'demo',
    });
    assert.equal(previewDocument(input(ESTIMATE)).trafficCost, 'estimated 1,500 bytes (confirmation request 1,200 bytes + response 300 bytes)');
    assert.match(previewText(input(ESTIMATE)), /\nTraffic cost: estimated 1,500 bytes/);
    assert.equal(previewDocument(input()).trafficCost, undefined);
    assert.doesNotMatch(previewText(input()), /Traffic cost/);
  });

  it('Compare Parties: one figure per transaction, from whichever party reads it', () => {
    const shared = transaction({ updateId: '1220' + 'a'.repeat(64), offset: 1, paidTrafficCost: 100 });
    const c = buildComparison(
      [ALICE, BOB],
      [
        { party: ALICE, transactions: [decodeTransaction(shared)] },
        { party: BOB, transactions: [decodeTransaction({ ...shared, paidTrafficCost: null }), decodeTransaction(transaction({ updateId: '1220' + 'b'.repeat(64), offset: 2 }))] },
      ],
      { beginExclusive: 0, endInclusive: 2 },
    );
    assert.deepEqual(c.trafficCost, { total: 100, paid: 1, unreported: 1 });
    const summary = comparisonRows(c)[0];
    assert.match(String(summary.description), /traffic cost: paid 100 bytes$/);
    assert.match(String(summary.tooltip), /Traffic cost: paid 100 bytes over 1 update \\\(1 without a reported cost\\\)/);
    assert.deepEqual((comparisonJson(c) as { trafficCost: unknown }).trafficCost, { total: 100, paid: 1, unreported: 1, text: 'paid 100 bytes over 1 update (1 without a reported cost)' });
  });

  it("an offset range's diff", () => {
    const d = { beginExclusive: 0, endInclusive: 4, transactions: 3, templates: [], trafficCost: { total: 2000, paid: 2, unreported: 1 } };
    assert.match(rangeDiffText(d), /\nTraffic cost: paid 2,000 bytes over 2 updates \(1 without a reported cost\)\n$/);
    assert.match(rangeDiffDocument(d).text, /Traffic cost/);
  });
});
