// The live tail on a hostile network: connections cut mid-body by a fault-injecting proxy while the
// ledger grows, and 413s that no page size can satisfy.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { ListTooLargeError } from '../../../src/core/errors';
import { followUpdates } from '../../../src/core/updates/tail';
import { type DemoParticipant } from '../../../src/participant';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { startCheckedParticipant } from '../../support/specCheck';
import { ANY, followThroughCuts } from '../../support/tailScenario';

for (const apiVersion of ['3.4', '3.5'] as const) {
  describe(`live tail through connection cuts (polling, ${apiVersion})`, function () {
    this.timeout(120_000);
    let p: DemoParticipant;
    let proxy: FaultProxy;

    before(async () => {
      p = await startCheckedParticipant({ seed: 21, apiVersion, listCap: 200, listWaitMs: 20 });
      proxy = await startFaultProxy(p.url);
    });
    after(async () => {
      await proxy.close();
      await p.close();
    });

    it('100 cuts while 2,000 transactions are written: no gap, no duplicate', async () => {
      // Cut after a varying number of bytes: inside an element, between elements, between an update
      // and the checkpoint that shares its offset.
      proxy.add({ method: 'POST', path: '/v2/updates', fault: (n) => ({ kind: 'cut-body', afterBytes: 40 + ((n * 733) % 2500) }), times: 100 });
      await followThroughCuts({ participant: p, proxy, source: 'polling', cutKind: 'cut-body', cuts: 100, writes: 2000, follow: { batchSize: 60 } });
    });
  });
}

describe('live tail and 413', function () {
  this.timeout(30_000);

  it('stops with the error when the participant caps lists below any page that can succeed, after a bounded number of reads', async () => {
    let reads = 0;
    const p = await startCheckedParticipant({ seed: 4, listCap: 1, onExchange: (x) => x.path === '/v2/updates' && reads++ });
    try {
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 5000 });
      const start = p.state.ledgerEnd;
      p.state.appendSynthetic(10);
      const stop = new AbortController();
      const guard = setTimeout(() => stop.abort(), 10_000);
      const err = await followUpdates(client, { source: 'polling', selection: ANY, from: start, signal: stop.signal, idleTimeoutMs: 50, retryDelayMs: () => 1, onBatch: () => {} })
        .catch((e) => e)
        .finally(() => clearTimeout(guard));
      assert.ok(err instanceof ListTooLargeError, String(err));
      assert.equal(err.cap, 1);
      assert.ok(reads <= 2, `${reads} reads`);
    } finally {
      await p.close();
    }
  });

  it('without a named cap halves the read, backing off between reads, and stops once no size is left', async () => {
    const p = await startCheckedParticipant({ seed: 4 });
    const proxy = await startFaultProxy(p.url);
    try {
      const body = JSON.stringify({ code: 'LIST_TOO_LARGE', cause: 'Too many elements', context: {}, errorCategory: -1 });
      proxy.add({ method: 'POST', path: '/v2/updates', fault: { kind: 'answer', status: 413, body, contentType: 'application/json' }, times: 100 });
      const client = new LedgerClient({ baseUrl: proxy.url, timeoutMs: 5000 });
      const delays: number[] = [];
      const stop = new AbortController();
      const guard = setTimeout(() => stop.abort(), 10_000);
      const err = await followUpdates(client, {
        source: 'polling',
        selection: ANY,
        from: p.state.ledgerEnd,
        signal: stop.signal,
        batchSize: 16,
        idleTimeoutMs: 50,
        retryDelayMs: (n) => (delays.push(n), 1),
        onBatch: () => {},
      })
        .catch((e) => e)
        .finally(() => clearTimeout(guard));
      assert.ok(err instanceof ListTooLargeError, String(err));
      // 16, 8, 4, 2: then no smaller read can hold an update and its checkpoint.
      assert.equal(proxy.count('POST', '/v2/updates'), 4);
      assert.deepEqual(delays, [1, 2, 3]);
    } finally {
      await proxy.close();
      await p.close();
    }
  });
});
