// The live tail over a websocket whose frames arrive twice (a relay or a participant that resends a
// frame): neither an update nor an offset checkpoint is delivered twice.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { LedgerClient } from '../../src/core/api/client';
import { OffsetOrder } from '../../src/core/api/protocol';
import { ProtocolError } from '../../src/core/errors';
import type { Update } from '../../src/core/models/updates';
import type { DemoParticipant } from '../../src/participant';
import { startCheckedParticipant } from '../support/specCheck';
import { follow, ledgerAfter, updateKey as key } from '../support/tailScenario';

/** A relay in front of the participant: plain requests pass; on `/v2/updates` sockets, frames matching `repeat` are sent twice (the first `times` of them). */
async function frameRepeatingRelay(target: string, repeat: (frame: string) => boolean, times: number) {
  let left = times;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const answer = await fetch(new URL(req.url ?? '/', target), { method: req.method, headers: { 'content-type': req.headers['content-type'] ?? 'application/json' }, body: chunks.length ? Buffer.concat(chunks) : undefined });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  const sockets = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => [...protocols][0] ?? false });
  server.on('upgrade', (req, socket, head) => {
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter(Boolean);
    sockets.handleUpgrade(req, socket, head, (client) => {
      const upstream = new WebSocket(new URL(req.url ?? '/', target.replace(/^http/, 'ws')), protocols);
      const pending: WebSocket.RawData[] = [];
      client.on('message', (m) => (upstream.readyState === WebSocket.OPEN ? upstream.send(m.toString()) : pending.push(m)));
      upstream.on('open', () => pending.splice(0).forEach((m) => upstream.send(m.toString())));
      upstream.on('message', (m) => {
        const frame = m.toString();
        client.send(frame);
        if (left > 0 && repeat(frame)) {
          left--;
          client.send(frame);
        }
      });
      upstream.on('close', () => client.close());
      upstream.on('error', () => client.terminate());
      client.on('close', () => upstream.close());
      client.on('error', () => upstream.terminate());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    repeated: () => times - left,
    close: async () => {
      sockets.clients.forEach((c) => c.terminate());
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const isCheckpoint = (frame: string) => frame.includes('"OffsetCheckpoint"');
const isTransaction = (frame: string) => frame.includes('"Transaction"');

describe('live tail over a websocket that repeats frames', function () {
  this.timeout(60_000);
  let p: DemoParticipant;
  before(async () => {
    p = await startCheckedParticipant({ seed: 5, apiVersion: '3.5' });
  });
  after(() => p.close());

  for (const [what, repeat] of [
    ['an offset checkpoint', isCheckpoint],
    ['a transaction', isTransaction],
  ] as const) {
    it(`delivers ${what} sent twice once, and everything after it`, async () => {
      const relay = await frameRepeatingRelay(p.url, repeat, 3);
      try {
        const client = new LedgerClient({ baseUrl: relay.url, timeoutMs: 5000 });
        const start = p.state.ledgerEnd;
        p.state.appendSynthetic(40, { checkpointEvery: 3 });
        const expected = ledgerAfter(p, start);
        assert.ok(expected.some((k) => k.endsWith('/checkpoint')), 'the ledger has checkpoints to repeat');
        const { got, sources } = await follow(client, { from: start, source: 'websocket', until: (g: Update[]) => g.length >= expected.length, guardMs: 20_000 });
        assert.ok(relay.repeated() > 0, `the relay repeated ${what}`);
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
  const checkpoint = (offset: number) => ({ kind: 'checkpoint', offset }) as unknown as Update;
  const transaction = (offset: number) => ({ kind: 'transaction', offset }) as unknown as Update;

  it('takes an update and its checkpoint at one offset, and refuses a second checkpoint there (also across pages)', () => {
    const order = new OffsetOrder(req, {});
    order.check(transaction(4), 0);
    order.check(checkpoint(4), 1);
    assert.throws(() => order.check(checkpoint(4), 2), (e: unknown) => e instanceof ProtocolError && e.problem === 'offset-order');
    const next = new OffsetOrder(req, {}, order.end);
    assert.throws(() => next.check(checkpoint(4), 0), (e: unknown) => e instanceof ProtocolError && e.problem === 'offset-order');
    next.check(transaction(5), 0);
  });

  it('still refuses a second update at one offset', () => {
    const order = new OffsetOrder(req, {});
    order.check(checkpoint(7), 0);
    order.check(transaction(7), 1);
    assert.throws(() => order.check(transaction(7), 2), (e: unknown) => e instanceof ProtocolError);
  });
});
