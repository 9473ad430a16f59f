// The live tail over the participant's websocket: cuts on a hostile network, the fall back to
// polling where no socket gets through, auth failures that must not fall back, and the token kept
// to the socket's subprotocol.
import assert from 'node:assert/strict';
import net from 'node:net';
import { LedgerClient } from '../../../src/core/api/client';
import { AuthError, CantonApiError, UnsupportedOperationError, WebSocketUnavailableError } from '../../../src/core/errors';
import type { Logger } from '../../../src/core/log';
import type { Update } from '../../../src/core/models/updates';
import { capabilitiesOf } from '../../../src/core/versions';
import { type DemoParticipant } from '../../../src/participant';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { assertNoSpecViolations, startCheckedParticipant } from '../../support/specCheck';
import { ANY, follow, followThroughCuts, ledgerAfter, updateKey as key } from '../../support/tailScenario';
import { followUpdates, type FollowSource } from '../../../src/core/updates/tail';

for (const apiVersion of ['3.4', '3.5'] as const) {
  describe(`live tail over the websocket through connection cuts (${apiVersion})`, function () {
    this.timeout(120_000);
    let p: DemoParticipant;
    let proxy: FaultProxy;

    before(async () => {
      p = await startCheckedParticipant({ seed: 21, apiVersion });
      proxy = await startFaultProxy(p.url);
    });
    after(async () => {
      await proxy.close();
      await p.close();
    });

    it('100 cuts while 2,000 transactions are written: no gap, no duplicate', async () => {
      // Cut the socket after a varying number of bytes, always past the 101 answer (about 150
      // bytes): inside a frame, between frames, between an update and its checkpoint.
      proxy.add({ method: 'WS', path: '/v2/updates', fault: (n) => ({ kind: 'cut-socket', afterBytes: 300 + ((n * 733) % 1500) }), times: 100 });
      const { sources } = await followThroughCuts({ participant: p, proxy, source: 'websocket', cutKind: 'cut-socket', cuts: 100, writes: 2000 });
      assert.deepEqual(sources, [{ kind: 'websocket' }]);
      assert.equal(proxy.count('POST', '/v2/updates'), 0, 'no polling');
      // Every frame against the asyncapi spec here, in this test's time, rather than in the hook.
      assertNoSpecViolations();
    });
  });
}

describe('live tail: which source', function () {
  this.timeout(30_000);

  it('falls back to polling when the participant does not open the socket (plain 404), and says why', async () => {
    const p = await startCheckedParticipant({ seed: 3, websockets: false });
    try {
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 5000 });
      const start = p.state.ledgerEnd;
      p.state.appendSynthetic(30, { checkpointEvery: 4 });
      const { got, sources } = await follow(client, { from: start, until: (g) => g.length >= ledgerAfter(p, start).length });
      assert.deepEqual(got.map(key), ledgerAfter(p, start));
      assert.equal(sources.length, 2);
      assert.deepEqual(sources[0], { kind: 'websocket' });
      const fallback = sources[1];
      assert.ok(fallback.kind === 'polling' && fallback.reason === 'refused', JSON.stringify(fallback));
      assert.equal(fallback.error.status, 404);
    } finally {
      await p.close();
    }
  });

  it('falls back to polling when a proxy refuses the upgrade, from where it stood', async () => {
    const p = await startCheckedParticipant({ seed: 3 });
    const proxy = await startFaultProxy(p.url);
    try {
      proxy.add({ method: 'WS', path: '/v2/updates', fault: { kind: 'refuse-upgrade', status: 502 }, times: 5 });
      const client = new LedgerClient({ baseUrl: proxy.url, timeoutMs: 5000 });
      const start = p.state.ledgerEnd;
      p.state.appendSynthetic(30, { checkpointEvery: 4 });
      const { got, sources } = await follow(client, { from: start, until: (g) => g.length >= ledgerAfter(p, start).length });
      assert.deepEqual(got.map(key), ledgerAfter(p, start));
      const last = sources[sources.length - 1];
      assert.ok(last.kind === 'polling' && last.reason === 'refused' && last.error.status === 502, JSON.stringify(last));
      assert.equal(proxy.fired['refuse-upgrade'], 1, 'the socket was tried once, then polling');
      assert.ok(proxy.count('POST', '/v2/updates') > 0);
    } finally {
      await proxy.close();
      await p.close();
    }
  });

  it('does not fall back when only the websocket was asked for: the refusal ends following', async () => {
    const p = await startCheckedParticipant({ seed: 3, websockets: false });
    try {
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 5000 });
      const err = await follow(client, { from: p.state.ledgerEnd, source: 'websocket', until: () => false }).catch((e) => e);
      assert.ok(err instanceof WebSocketUnavailableError, String(err));
      assert.equal(err.status, 404);
    } finally {
      await p.close();
    }
  });

  it('polls where the version has no websocket stream (not-offered), and refuses websocket-only there', async () => {
    const p = await startCheckedParticipant({ seed: 3 });
    try {
      // No release the version table knows lacks the channel: a participant that reports one is imitated here.
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 5000 });
      const real = capabilitiesOf('3.5.10-demo');
      client.capabilities = async () => ({ ...real, version: '3.2.0', has: (op) => op !== 'subscribeUpdates' && real.has(op), endpoint: (op) => (op === 'subscribeUpdates' ? undefined : real.endpoint(op)) });
      const start = p.state.ledgerEnd;
      p.state.appendSynthetic(10);
      const { got, sources } = await follow(client, { from: start, until: (g) => g.length >= ledgerAfter(p, start).length });
      assert.deepEqual(got.map(key), ledgerAfter(p, start));
      assert.deepEqual(sources, [{ kind: 'polling', reason: 'not-offered', version: '3.2.0' }]);
      const err = await follow(client, { from: start, source: 'websocket', until: () => false }).catch((e) => e);
      assert.ok(err instanceof UnsupportedOperationError && err.operationName === 'subscribeUpdates', String(err));
    } finally {
      await p.close();
    }
  });

  it('gives up opening a socket that gets no answer (connect timeout), as unavailable', async () => {
    const p = await startCheckedParticipant({ seed: 3 });
    // Accepts connections and never answers: an upgrade there hangs.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 5000 });
      const port = (silent.address() as net.AddressInfo).port;
      const caps = await client.capabilities();
      const hanging = new LedgerClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 5000 });
      hanging.capabilities = async () => caps;
      const err = await follow(hanging, { from: 0, source: 'websocket', connectTimeoutMs: 200, until: () => false }).catch((e) => e);
      assert.ok(err instanceof WebSocketUnavailableError && err.timedOut, String(err));
    } finally {
      silent.close();
      await p.close();
    }
  });
});

describe('live tail over the websocket: auth, errors, the token', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  before(async () => {
    p = await startCheckedParticipant({ seed: 3, auth: { secret: 'test-secret-websocket' } });
  });
  after(() => p.close());

  it('a token the socket is refused with is an AuthError (Update Token), not a fall back to polling', async () => {
    const good = await p.mintToken('demo-admin');
    let calls = 0;
    // Good for the version check, rejected when the socket starts its stream.
    const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 5000, token: async () => (calls++ === 0 ? good : 'not-a-token') });
    const err = await follow(client, { from: p.state.ledgerEnd, until: () => false }).catch((e) => e);
    assert.ok(err instanceof AuthError, String(err));
    assert.equal(err.failure, 'unauthenticated');
    assert.equal(err.status, 401);
    assert.ok(calls >= 2, 'the socket was tried');
  });

  it('a user without the rights for the filter gets the permission-denied AuthError over the socket', async () => {
    const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 5000, token: () => p.mintToken('alice') });
    const { sources } = await follow(client, { from: p.state.ledgerEnd, until: () => false }).catch((e) => {
      assert.ok(e instanceof AuthError && e.failure === 'permission-denied', String(e));
      return { sources: [] as FollowSource[] };
    });
    assert.deepEqual(sources.filter((s) => s.kind === 'polling'), []);
    await assert.rejects(follow(client, { from: p.state.ledgerEnd, until: () => false }), (e) => e instanceof AuthError && e.failure === 'permission-denied');
  });

  it('an error frame is the typed Canton error (OFFSET_AFTER_LEDGER_END)', async () => {
    const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 5000, token: () => p.mintToken('demo-admin') });
    const stream = client.subscribeUpdates({ beginExclusive: p.state.ledgerEnd + 10 }, ANY);
    await assert.rejects(stream.next(), (e) => e instanceof CantonApiError && e.code === 'OFFSET_AFTER_LEDGER_END' && e.status === 400);
  });

  it('a bounded stream ends at endInclusive with what the list has', async () => {
    const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 5000, token: () => p.mintToken('demo-admin') });
    const end = p.state.ledgerEnd;
    const streamed: Update[] = [];
    for await (const batch of client.subscribeUpdates({ beginExclusive: 0, endInclusive: end }, ANY)) streamed.push(...batch);
    const listed = await client.listUpdates({ beginExclusive: 0, endInclusive: end }, ANY, { limit: 200 });
    assert.ok(streamed.length > 10);
    assert.deepEqual(streamed.map(key), listed.map(key));
  });

  it('never logs the token, at any level, while the socket is used and fails', async () => {
    const lines: string[] = [];
    const logger: Logger = { trace: (m) => lines.push(m), debug: (m) => lines.push(m), info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) };
    const token = await p.mintToken('demo-admin');
    const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 5000, token: async () => token, logger });
    const start = p.state.ledgerEnd;
    p.state.appendSynthetic(5);
    p.faults.updatesSocket = { cutAfterFrames: 3, times: 1 };
    await follow(client, { from: start, source: 'websocket', until: (g) => g.length >= ledgerAfter(p, start).length });
    assert.ok(lines.some((l) => l.startsWith('WS /v2/updates open')), 'the socket was logged');
    assert.ok(lines.some((l) => /WS \/v2\/updates ended .*NetworkError/.test(l)), 'and its cut');
    assert.deepEqual(lines.filter((l) => l.includes(token) || l.includes('jwt.token') || l.includes(token.split('.')[2])), []);
  });

  it('aborting closes the socket', async () => {
    let closed = 0;
    const q = await startCheckedParticipant({ seed: 3, onExchange: (x) => x.status === 101 && closed++ });
    try {
      const client = new LedgerClient({ baseUrl: q.url, timeoutMs: 5000 });
      const stop = new AbortController();
      const done = followUpdates(client, { selection: ANY, from: q.state.ledgerEnd, signal: stop.signal, source: 'websocket', onBatch: () => undefined, onSource: () => setTimeout(() => stop.abort(), 100) });
      const position = await done;
      assert.equal(position.offset, q.state.ledgerEnd);
      for (let i = 0; i < 100 && closed === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(closed, 1, 'the participant saw the socket close');
    } finally {
      await q.close();
    }
  });
});
