import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ABORT_RELAY_SWEEP_MS, HttpTransport, sweepAbortRelays } from '../../../src/core/api/http';
import {
  AuthError, CancelledError, CantonApiError, HttpError, isOutcomeUnknown, ListTooLargeError, NetworkError, ProtocolError, RedirectedError, TimeoutError,
} from '../../../src/core/errors';
import type { Logger } from '../../../src/core/log';
import { validateText } from '../../../src/core/files/validate';
import { sendJson, TestServer } from '../../support/httpServer';
import { SPEC_DIR } from '../../support/spec';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXBhcnQ';
const NA = { code: 'NA', cause: 'A security-sensitive error has been received', errorCategory: -1, grpcCodeValue: 16, context: {} };

function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (l: string) => lines.push(l);
  return { lines, trace: push, debug: push, info: push, warn: push, error: push };
}

describe('HttpTransport', () => {
  const server = new TestServer();
  let base = '';
  before(async () => (base = await server.start()));
  after(() => server.stop());
  beforeEach(() => (server.received.length = 0));

  const transport = (over: Partial<ConstructorParameters<typeof HttpTransport>[0]> = {}) =>
    new HttpTransport({ baseUrl: `${base}/prefix/`, token: async () => TOKEN, timeoutMs: 2000, ...over });

  it('keeps the path prefix, sends the bearer token and JSON, and never logs the token', async () => {
    server.handler = (_r, res) => sendJson(res, 200, { ok: true });
    const logger = capturingLogger();
    const r = await transport({ logger }).json<{ ok: boolean }>({ method: 'POST', path: '/v2/x', query: { limit: 5, skip: undefined }, body: { a: TOKEN } });
    assert.deepEqual(r, { ok: true });
    const [got] = server.received;
    assert.equal(got.url, '/prefix/v2/x?limit=5');
    assert.equal(got.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(got.headers['content-type'], 'application/json');
    assert.ok(logger.lines.some((l) => /POST \/v2\/x 200 \d+ ms/.test(l)), logger.lines.join('\n'));
    assert.ok(logger.lines.every((l) => !l.includes(TOKEN)), 'token in log');
    assert.ok(logger.lines.some((l) => l.includes('[REDACTED]')), 'trace line with the redacted body');
  });

  it('builds no trace line (no redacted body) for a logger that drops them', async () => {
    server.handler = (_r, res) => sendJson(res, 500, { error: 'x' });
    const traced: string[] = [];
    const others: string[] = [];
    const logger: Logger = { tracing: false, trace: (l) => traced.push(l), debug: (l) => others.push(l), info: (l) => others.push(l), warn: (l) => others.push(l), error: (l) => others.push(l) };
    await assert.rejects(transport({ logger }).json({ method: 'POST', path: '/v2/x', body: { a: TOKEN } }));
    assert.deepEqual(traced, []);
    assert.ok(others.some((l) => /POST \/v2\/x 500/.test(l)), others.join('\n'));
  });

  it('sends the numbers of a checked file with their digits as written', async () => {
    server.handler = (_r, res) => sendJson(res, 200, {});
    const { value } = validateText('commands', readFileSync(join(__dirname, '../../fixtures/files/valid/dedup-offset.commands.json'), 'utf8').replace('"value": 17', '"value": 9007199254740993'));
    await transport().json({ method: 'POST', path: '/v2/commands/submit-and-wait', body: { commands: value } });
    assert.match(server.received[0].body, /"DeduplicationOffset":\{"value":9007199254740993\}/);
  });

  it('logs a status the caller expects (a 403 where a right may be missing) at debug level, not as a failure', async () => {
    const levels: string[] = [];
    const logger: Logger = { trace: () => {}, debug: (l) => levels.push(`debug ${l}`), info: (l) => levels.push(`info ${l}`), warn: (l) => levels.push(`warn ${l}`), error: (l) => levels.push(`error ${l}`) };
    server.handler = (_r, res) => sendJson(res, 403, { ...NA, grpcCodeValue: 7 });
    await assert.rejects(transport({ logger }).json({ method: 'GET', path: '/v2/parties', expectedStatuses: [403] }), AuthError);
    assert.deepEqual(levels.filter((l) => l.includes('/v2/parties 403')).map((l) => l.split(' ')[0]), ['debug']);
    assert.match(levels.find((l) => l.includes('/v2/parties 403'))!, /\(expected\)$/);
    levels.length = 0;
    await assert.rejects(transport({ logger }).json({ method: 'GET', path: '/v2/parties' }), AuthError);
    assert.deepEqual(levels.filter((l) => l.includes('/v2/parties 403')).map((l) => l.split(' ')[0]), ['info'], 'unexpected: logged as before');
  });

  it('maps 401/403 redacted bodies to AuthError kinds', async () => {
    server.handler = (_r, res) => sendJson(res, 401, NA);
    await assert.rejects(transport().json({ method: 'GET', path: '/v2/version' }), (e) => e instanceof AuthError && e.failure === 'unauthenticated' && e.status === 401);
    server.handler = (_r, res) => sendJson(res, 403, { ...NA, grpcCodeValue: 7 });
    await assert.rejects(transport().json({ method: 'GET', path: '/v2/version' }), (e) => e instanceof AuthError && e.failure === 'permission-denied');
    server.handler = (_r, res) => sendJson(res, 403, { ...NA, grpcCodeValue: 7, context: { ledger_api_error: 'invalid token' } });
    await assert.rejects(transport().json({ method: 'GET', path: '/v2/version' }), (e) => e instanceof AuthError && e.failure === 'unknown-user');
  });

  it('refuses to send an empty bearer token', async () => {
    await assert.rejects(transport({ token: async () => '' }).json({ method: 'GET', path: '/v2/version' }), (e) => e instanceof AuthError && e.failure === 'empty-token');
    assert.equal(server.received.length, 0);
  });

  it('parses a real Canton error body (from the shared examples) with normalised resource keys', async function () {
    const file = join(SPEC_DIR, 'examples/errors/err-02-contract-not-found-cn-quickstart.json');
    let body: string;
    try {
      body = readFileSync(file, 'utf8');
    } catch {
      console.warn(`\n!!! SKIPPED: ${file} is missing (../shared/canton-api beside the repo)\n`);
      return this.skip();
    }
    server.handler = (_r, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(body);
    };
    const err = await transport().json({ method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', body: {} }).catch((e) => e);
    assert.ok(err instanceof CantonApiError);
    assert.equal(err.code, 'CONTRACT_NOT_FOUND');
    assert.equal(err.status, 404);
    assert.equal(err.category, 11);
    assert.equal(err.correlationId, 'create-license');
    assert.equal(err.traceId, '1e8a0ba16a95ef0881b1edb46b6f177a');
    assert.equal(err.definiteAnswer, false, 'from context.definite_answer when the field is null');
    assert.match(err.resource('CID') ?? '', /^0093e43a/);
    assert.equal(err.retryable, false);
    assert.match(err.hint, /archived|unknown/);
    assert.equal(isOutcomeUnknown(err), false);
  });

  it('maps 413 to ListTooLargeError with the cap', async () => {
    server.handler = (_r, res) => sendJson(res, 413, { code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', cause: 'The number of matching elements (201) is greater than the node limit (200).', errorCategory: 9, context: {} });
    await assert.rejects(transport().json({ method: 'POST', path: '/v2/updates', body: {} }), (e) => e instanceof ListTooLargeError && e.cap === 200 && e instanceof CantonApiError);
  });

  it('maps text/plain and HTML bodies to HttpError, redacted', async () => {
    server.handler = (_r, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`Invalid value for: body (Missing required field at 'commands' near ${TOKEN})`);
    };
    const e1 = await transport().json({ method: 'POST', path: '/v2/x', body: {} }).catch((e) => e);
    assert.ok(e1 instanceof HttpError && e1.status === 400);
    assert.match(e1.bodyText, /Missing required field/);
    assert.ok(!e1.bodyText.includes(TOKEN) && !e1.message.includes(TOKEN));
    server.handler = (_r, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
    };
    const e2 = await transport().json({ method: 'GET', path: '/v2/x' }).catch((e) => e);
    assert.ok(e2 instanceof HttpError && e2.status === 502);
    assert.equal(isOutcomeUnknown(e2), true);
  });

  it('reports a non-JSON success body as a ProtocolError', async () => {
    server.handler = (_r, res) => res.end('<html>hi</html>');
    await assert.rejects(transport().json({ method: 'GET', path: '/v2/version' }), ProtocolError);
    // for a submission that means the outcome is unknown: it may have executed
    const err = await transport().json({ method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', body: {} }).catch((e) => e);
    assert.ok(err instanceof ProtocolError, String(err));
    assert.equal(isOutcomeUnknown(err), true);
  });

  it('refuses an answer above the cap on answers held in memory, declared or streamed', async () => {
    const big = JSON.stringify({ filler: 'x'.repeat(5000) });
    for (const declared of [true, false]) {
      server.handler = (_r, res) => {
        res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(big.length) } : {}) });
        // Streamed: in pieces, without a length, so only counting can tell.
        if (declared) res.end(big);
        else {
          for (let i = 0; i < big.length; i += 1000) res.write(big.slice(i, i + 1000));
          res.end();
        }
      };
      const err = await transport({ maxResponseBytes: 2000 }).json({ method: 'POST', path: '/v2/events/events-by-contract-id', body: {} }).catch((e) => e);
      assert.ok(err instanceof ProtocolError, String(err));
      assert.equal(err.problem, 'too-large');
      assert.equal(err.limitBytes, 2000);
    }
    assert.deepEqual(await transport({ maxResponseBytes: 6000 }).json({ method: 'GET', path: '/v2/x' }), JSON.parse(big));
  });

  it('times out with an unknown outcome once the request is out', async () => {
    server.handler = () => {}; // never answers
    const err = await transport({ timeoutMs: 150 }).json({ method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', body: {} }).catch((e) => e);
    assert.ok(err instanceof TimeoutError, String(err));
    assert.equal(err.timeoutMs, 150);
    assert.equal(isOutcomeUnknown(err), true);
  });

  it('cancels a request in flight when the caller aborts, and never starts one already aborted', async () => {
    server.handler = () => {};
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const t0 = Date.now();
    const err = await transport({ timeoutMs: 5000 }).json({ method: 'GET', path: '/v2/slow', signal: ac.signal }).catch((e) => e);
    assert.ok(err instanceof CancelledError, String(err));
    assert.ok(Date.now() - t0 < 2000, 'aborted promptly');
    server.received.length = 0;
    const pre = new AbortController();
    pre.abort();
    const err2 = await transport().json({ method: 'GET', path: '/v2/x', signal: pre.signal }).catch((e) => e);
    assert.ok(err2 instanceof CancelledError && err2.requestSent === false);
    assert.equal(server.received.length, 0);
  });

  it('listens once on a signal that requests share, cancels every one in flight under it, and lets it go when none is', async () => {
    let slow = 0;
    let bothArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (bothArrived = resolve));
    server.handler = (r, res) => {
      if (!r.url.includes('/slow')) return sendJson(res, 200, {});
      if (++slow === 2) bothArrived(); // never answered
    };
    const t = transport({ timeoutMs: 5000 });
    const ac = new AbortController();
    const listeners = () => getEventListeners(ac.signal, 'abort').length;
    // One after another, as a script's steps are sent: the one listener stays between them.
    for (let i = 0; i < 3; i++) {
      await t.json({ method: 'POST', path: '/v2/x', body: {}, signal: ac.signal });
      assert.equal(listeners(), 1);
    }
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(listeners(), 1, 'kept between requests: not let go as soon as none is in flight');
    sweepAbortRelays();
    assert.equal(listeners(), 0, 'let go by the sweep once none is in flight');
    // Queued for the next sweep again, and then used again before it.
    await t.json({ method: 'POST', path: '/v2/x', body: {}, signal: ac.signal });
    const inFlight = ['/v2/slow/1', '/v2/slow/2'].map((path) => t.json({ method: 'GET', path, signal: ac.signal }).catch((e: unknown) => e));
    await arrived;
    assert.equal(listeners(), 1, 'one listener for both');
    sweepAbortRelays();
    assert.equal(listeners(), 1, 'a sweep keeps the listener of requests in flight');
    ac.abort();
    for (const err of await Promise.all(inFlight)) assert.ok(err instanceof CancelledError && err.requestSent, String(err));
    assert.equal(listeners(), 0);
  });

  it('lets a signal go by itself once its requests have ended (the sweep timer)', async () => {
    server.handler = (_r, res) => sendJson(res, 200, {});
    const signal = AbortSignal.any([new AbortController().signal]);
    const listeners = () => getEventListeners(signal, 'abort').length;
    await transport().json({ method: 'GET', path: '/v2/x', signal });
    assert.equal(listeners(), 1);
    // Waits on the state, bounded well above the sweep's period.
    const deadline = Date.now() + 20 * ABORT_RELAY_SWEEP_MS;
    while (listeners() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(listeners(), 0);
  });

  it('reports a refused connection as a NetworkError that was never sent', async () => {
    const dead = new TestServer();
    const url = await dead.start();
    await dead.stop();
    const err = await new HttpTransport({ baseUrl: url, timeoutMs: 2000 }).json({ method: 'POST', path: '/v2/x', body: {} }).catch((e) => e);
    assert.ok(err instanceof NetworkError, String(err));
    assert.equal(err.code, 'ECONNREFUSED');
    assert.equal(isOutcomeUnknown(err), false);
    assert.match(err.hint, /running/);
  });

  it('reports a connection dropped after sending as an unknown outcome', async () => {
    server.handler = (_r, res) => res.socket?.destroy();
    const err = await transport().json({ method: 'POST', path: '/v2/x', body: {} }).catch((e) => e);
    assert.ok(err instanceof NetworkError, String(err));
    assert.equal(isOutcomeUnknown(err), true);
  });

  it('follows a same-origin redirect with the token, and refuses a cross-origin one naming where it pointed', async () => {
    const other = new TestServer();
    const otherUrl = await other.start();
    try {
      other.handler = (_r, res) => sendJson(res, 200, { from: 'other' });
      server.handler = (r, res) => {
        if (r.url.startsWith('/prefix/v2/moved')) {
          res.writeHead(307, { location: '/prefix/v2/here' });
          res.end();
        } else if (r.url.startsWith('/prefix/v2/away')) {
          res.writeHead(r.url.includes('302') ? 302 : 307, { location: `${otherUrl}/v2/there` });
          res.end();
        } else sendJson(res, 200, { from: 'same' });
      };
      assert.deepEqual(await transport().json({ method: 'POST', path: '/v2/moved', body: { a: 1 } }), { from: 'same' });
      assert.equal(server.received[1].headers.authorization, `Bearer ${TOKEN}`);
      assert.equal(server.received[1].body, '{"a":1}', '307 keeps method and body');
      for (const path of ['/v2/away', '/v2/away302']) {
        const err = await transport().json({ method: 'POST', path, body: {} }).catch((e) => e);
        assert.ok(err instanceof RedirectedError, String(err));
        assert.equal(err.origin, new URL(otherUrl).origin);
        assert.equal(err.message, `The participant redirected to ${new URL(otherUrl).origin} (HTTP ${path.endsWith('302') ? 302 : 307}); not followed with your token`);
        assert.equal(isOutcomeUnknown(err), false, 'a redirect is an answer: nothing was done');
      }
      // Without a token the redirect is not followed either (a participant answers API calls itself).
      const noToken = await transport({ token: undefined }).json({ method: 'GET', path: '/v2/away' }).catch((e) => e);
      assert.ok(noToken instanceof RedirectedError);
      assert.doesNotMatch(noToken.message, /token/);
      assert.equal(other.received.length, 0, 'nothing went to the other origin');
    } finally {
      await other.stop();
    }
  });

  it('rejects base URLs that are not http(s)', () => {
    assert.throws(() => new HttpTransport({ baseUrl: 'file:///etc/passwd' }), TypeError);
    assert.throws(() => new HttpTransport({ baseUrl: 'not a url' }), TypeError);
  });
});

describe('HttpTransport connections for requests that must not be sent twice', () => {
  // Each request is recorded with the connection it came on; the server keeps idle connections for 10 s.
  const seen: Array<{ method: string; connection: number }> = [];
  let connections = 0;
  const ids = new WeakMap<object, number>();
  const server = http.createServer((req, res) => {
    if (!ids.has(req.socket)) ids.set(req.socket, ++connections);
    seen.push({ method: req.method ?? '', connection: ids.get(req.socket)! });
    req.resume();
    req.on('end', () => sendJson(res, 200, {}));
  });
  server.keepAliveTimeout = 10_000;
  let base = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  beforeEach(() => (seen.length = 0));
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('share a connection within a burst, and open a new one after a pause (a server may close an idle one just then)', async () => {
    const t = new HttpTransport({ baseUrl: base, briefReuseMs: 300 });
    const submit = () => t.json({ method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', body: {} });
    try {
      await submit();
      await submit();
      await submit();
      await sleep(700);
      await submit();
    } finally {
      t.close();
    }
    const used = seen.map((s) => s.connection);
    assert.equal(new Set(used.slice(0, 3)).size, 1, `the burst went over one connection: ${used}`);
    assert.ok(!used.slice(0, 3).includes(used[3]), `after the pause a new connection: ${used}`);
  });

  it('while reads keep theirs across the pause', async () => {
    const t = new HttpTransport({ baseUrl: base, briefReuseMs: 300 });
    try {
      await t.json({ method: 'GET', path: '/v2/state/ledger-end' });
      await sleep(700);
      await t.json({ method: 'GET', path: '/v2/state/ledger-end' });
    } finally {
      t.close();
    }
    assert.equal(seen[0].connection, seen[1].connection);
  });
});
