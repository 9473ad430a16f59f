// The live tail on a hostile network: connections cut mid-body by a fault-injecting proxy while the
// ledger grows, and 413s that no page size can satisfy.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../src/core/api/client';
import { ListTooLargeError } from '../../src/core/errors';
import type { Update } from '../../src/core/models/updates';
import { followUpdates } from '../../src/core/updates/tail';
import { type DemoParticipant } from '../../src/participant';
import { startFaultProxy, type FaultProxy } from '../support/faultProxy';
import { startCheckedParticipant } from '../support/specCheck';

const ANY = { filter: { anyParty: true } } as const;
const key = (u: { offset?: number; kind: string }) => `${u.offset}/${u.kind}`;

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
      const CUTS = 100;
      const WRITES = 2000;
      // Cut after a varying number of bytes: inside an element, between elements, between an update
      // and the checkpoint that shares its offset.
      proxy.add({ method: 'POST', path: '/v2/updates', fault: (n) => ({ kind: 'cut-body', afterBytes: 40 + ((n * 733) % 2500) }), times: CUTS });
      const client = new LedgerClient({ baseUrl: proxy.url, timeoutMs: 10_000 });
      const start = p.state.ledgerEnd;
      const got: Update[] = [];
      let reconnects = 0;
      const stop = new AbortController();
      let written = 0;
      const writer = setInterval(() => {
        if (written >= WRITES) return clearInterval(writer);
        p.state.appendSynthetic(25, { checkpointEvery: 4 });
        written += 25;
      }, 5);
      const expected = () => p.state.entries.filter((e) => e.offset > start).map(key);
      const done = followUpdates(client, {
        source: 'polling',
        selection: ANY,
        from: start,
        signal: stop.signal,
        idleTimeoutMs: 50,
        batchSize: 60,
        retryDelayMs: () => 1,
        onStatus: (s) => s.state === 'reconnecting' && reconnects++,
        onBatch: (b) => {
          got.push(...b);
          if (written >= WRITES && proxy.fired['cut-body'] === CUTS && got.length >= expected().length) stop.abort();
        },
      });
      const guard = setTimeout(() => stop.abort(), 100_000);
      await done.finally(() => {
        clearTimeout(guard);
        clearInterval(writer);
      });
      const transactions = got.filter((u) => u.kind === 'transaction').length;
      assert.equal(proxy.fired['cut-body'], CUTS, 'every cut was injected');
      assert.ok(reconnects >= CUTS, `each cut was noticed (${reconnects})`);
      assert.ok(transactions >= WRITES * 0.7, `${transactions} transactions followed`);
      const keys = got.map(key);
      assert.equal(new Set(keys).size, keys.length, '0 duplicates');
      assert.deepEqual(keys, expected(), '0 gaps, in ledger order');
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
