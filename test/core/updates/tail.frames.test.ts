// The live tail over a websocket whose frames arrive twice (a relay or a participant that resends a
// frame): neither an update nor an offset checkpoint is delivered twice.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { OffsetOrder } from '../../../src/core/api/protocol';
import { ProtocolError } from '../../../src/core/errors';
import type { Update } from '../../../src/core/models/updates';
import type { DemoParticipant } from '../../../src/participant';
import { isCheckpointFrame, isTransactionFrame, startFrameRelay } from '../../support/frameRelay';
import { startCheckedParticipant } from '../../support/specCheck';
import { follow, ledgerAfter, updateKey as key } from '../../support/tailScenario';

describe('live tail over a websocket that repeats frames', function () {
  this.timeout(60_000);
  let p: DemoParticipant;
  before(async () => {
    p = await startCheckedParticipant({ seed: 5, apiVersion: '3.5' });
  });
  after(() => p.close());

  for (const [what, repeat] of [
    ['an offset checkpoint', isCheckpointFrame],
    ['a transaction', isTransactionFrame],
  ] as const) {
    it(`delivers ${what} sent twice once, and everything after it`, async () => {
      let left = 3;
      const relay = await startFrameRelay(p.url, { frame: (text) => (left > 0 && repeat(text) && left-- > 0 ? 'twice' : 'pass') });
      try {
        const client = new LedgerClient({ baseUrl: relay.url, timeoutMs: 5000 });
        const start = p.state.ledgerEnd;
        p.state.appendSynthetic(40, { checkpointEvery: 3 });
        const expected = ledgerAfter(p, start);
        assert.ok(expected.some((k) => k.endsWith('/checkpoint')), 'the ledger has checkpoints to repeat');
        const { got, sources } = await follow(client, { from: start, source: 'websocket', until: (g: Update[]) => g.length >= expected.length, guardMs: 20_000 });
        assert.ok(relay.counts.twice > 0, `the relay repeated ${what}`);
        assert.deepEqual(sources, [{ kind: 'websocket' }]);
        assert.deepEqual(got.map(key), expected);
      } finally {
        await relay.close();
      }
    });
  }
});

describe('OffsetOrder', () => {
  const req = { method: 'GET', path: '/v2/updates' };
  const at = (time: string) => [{ synchronizerId: 'sync::1', recordTime: time }];
  const checkpoint = (offset: number, time = '2026-12-06T10:00:00Z') => ({ kind: 'checkpoint', offset, synchronizerTimes: at(time) }) as unknown as Update;
  const transaction = (offset: number) => ({ kind: 'transaction', offset }) as unknown as Update;

  it('takes an update and its checkpoint at one offset, and refuses the same checkpoint again there (also across pages)', () => {
    const order = new OffsetOrder(req, {});
    order.check(transaction(4), 0);
    order.check(checkpoint(4), 1);
    assert.throws(() => order.check(checkpoint(4), 2), (e: unknown) => e instanceof ProtocolError && e.problem === 'offset-order');
    const next = new OffsetOrder(req, {}, order.end);
    assert.throws(() => next.check(checkpoint(4), 0), (e: unknown) => e instanceof ProtocolError && e.problem === 'offset-order');
    next.check(transaction(5), 0);
  });

  it('takes a second checkpoint at one offset with other times (Canton, after an idle stream), then refuses it repeated', () => {
    const order = new OffsetOrder(req, {});
    order.check(transaction(4), 0);
    order.check(checkpoint(4, '2026-12-06T10:00:00Z'), 1);
    order.check(checkpoint(4, '2026-12-06T10:01:00Z'), 2);
    const next = new OffsetOrder(req, {}, order.end);
    assert.throws(() => next.check(checkpoint(4, '2026-12-06T10:01:00Z'), 0), (e: unknown) => e instanceof ProtocolError && e.problem === 'offset-order');
    next.check(transaction(5), 0);
  });

  it('takes a checkpoint at the begin of the range (Canton sends one that arrived delayed there), not an update', () => {
    new OffsetOrder(req, { beginExclusive: 4 }).check(checkpoint(4), 0);
    assert.throws(() => new OffsetOrder(req, { beginExclusive: 4 }).check(transaction(4), 0), (e: unknown) => e instanceof ProtocolError && e.problem === 'offset-order');
    assert.throws(() => new OffsetOrder(req, { beginExclusive: 4 }).check(checkpoint(3), 0), (e: unknown) => e instanceof ProtocolError && e.problem === 'offset-order');
  });

  it('still refuses a second update at one offset', () => {
    const order = new OffsetOrder(req, {});
    order.check(checkpoint(7), 0);
    order.check(transaction(7), 1);
    assert.throws(() => order.check(transaction(7), 2), (e: unknown) => e instanceof ProtocolError);
  });
});
