// Compare Parties with each side on its own participant, on the demo network: Bank read on app-provider
// and Bob on app-user. Alice's transfer of a Bank Iou to Bob reaches both hosts (Bank is the Iou's
// signatory, Bob the new owner), under the same update id and at different offsets.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { RequestValidationError } from '../../../src/core/errors';
import { comparisonNames, comparisonSummaryText, compareParties, compareSides, type CompareSide } from '../../../src/core/updates/compare';
import { comparisonRows } from '../../../src/core/updates/compareRows';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { startCheckedNetwork } from '../../support/demoNetwork';

describe('Compare Parties across participants (a party each)', () => {
  let net: DemoNetwork;
  let provider: LedgerClient;
  let user: LedgerClient;
  before(async () => {
    net = await startCheckedNetwork();
    provider = new LedgerClient({ baseUrl: net.participant('app-provider').url });
    user = new LedgerClient({ baseUrl: net.participant('app-user').url });
  });
  after(() => net.close());

  const sides = (): CompareSide[] => [
    { party: net.parties.bank, client: provider, label: 'app-provider' },
    { party: net.parties.bob, client: user, label: 'app-user' },
  ];

  it('reads each side from its own participant and matches the transactions by update id', async () => {
    const c = await compareSides(sides());
    assert.deepEqual(c.sides, ['app-provider', 'app-user']);
    assert.deepEqual(comparisonNames(c), ['Bank on app-provider', 'Bob on app-user']);
    // Each side as its own participant tells it alone: Bank on app-provider, Bob on app-user.
    const bankAlone = await compareParties(provider, { parties: [net.parties.bank, net.parties.alice] });
    const bobAlone = await compareParties(user, { parties: [net.parties.bob, net.parties.alice] });
    assert.deepEqual(c.summary.seenBy, [bankAlone.summary.seenBy[0], bobAlone.summary.seenBy[0]]);
    // Bob on app-provider is not hosted there: the cross-participant read is what finds his view.
    assert.ok(c.summary.seenBy[1] > 0);
    const both = c.updates.filter((u) => u.views.every((v) => v !== undefined));
    assert.ok(both.length >= 1, 'the transfer reaches both hosts');
    assert.equal(c.summary.seenByAll, both.length);
    for (const u of both) {
      const [bankView, bobView] = u.views;
      assert.equal(bankView!.updateId, bobView!.updateId);
      assert.equal(bankView!.recordTime, bobView!.recordTime);
    }
    // The offsets are each participant's own: the order is the record time's.
    const times = c.updates.map((u) => u.views.find((v) => v)!.recordTime);
    assert.deepEqual(times, [...times].sort());
    // The rows: keyed by update id (two participants' offsets may coincide), each side's own offset shown.
    const [summary, ...updates] = comparisonRows(c);
    assert.match(summary.description ?? '', /^each participant's whole ledger/);
    assert.equal(new Set(updates.map((r) => r.key)).size, updates.length);
    const shared = updates.find((r) => r.updateId === both[0].updateId)!;
    assert.equal(shared.label, 'Transaction');
    assert.match(shared.description ?? '', new RegExp(`^at app-provider ${both[0].views[0]!.offset}, app-user ${both[0].views[1]!.offset} · Bank on app-provider ✓ · Bob on app-user ✓`));
    assert.match(comparisonSummaryText(c), /^Bank on app-provider sees \d+ of \d+ transactions; Bob on app-user sees \d+; \d+ seen by both$/);
  });

  it('on one participant it is the single-participant comparison, offset range and all', async () => {
    const one = await compareSides([
      { party: net.parties.alice, client: user, label: 'app-user' },
      { party: net.parties.bob, client: user, label: 'app-user' },
    ], { beginExclusive: 0, endInclusive: 2 });
    assert.equal(one.sides, undefined);
    assert.equal(one.endInclusive, 2);
  });

  it('refuses an offset range across participants, and the same party on two of them', async () => {
    await assert.rejects(compareSides(sides(), { beginExclusive: 1 }), (e) => e instanceof RequestValidationError && e.field === 'beginExclusive');
    await assert.rejects(
      compareSides([
        { party: net.parties.alice, client: provider, label: 'app-provider' },
        { party: net.parties.alice, client: user, label: 'app-user' },
      ]),
      (e) => e instanceof RequestValidationError && e.field === 'parties',
    );
  });
});
