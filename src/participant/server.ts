/**
 * The HTTP side: routing, the order in which Canton's JSON layer checks a request (authorization
 * header, then body decoding, then the token, then the handler), and error rendering. Handlers
 * live in `handlers/`; they throw the participant's errors and write their answers with `send*`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { OPEN, bearerToken, type Authenticator, type Caller } from './auth';
import { firstMissingField, type RequestSchemaName } from '../core/versions';
import { parseBody } from './decode';
import { AuthFailure, DecodeFailure, LedgerApiError, authErrorBody, cantonErrorBody, invalidArgument, type ErrorSite } from './errors';
import type { JsCantonError } from '../core/models/wire';

export interface RequestContext<B = unknown> {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  /** Path parameters (`:name` segments), decoded. */
  readonly params: Record<string, string>;
  readonly body: B;
  /** The request body as it came (binary bodies: DAR uploads). */
  readonly rawBody: Buffer;
  readonly caller: Caller;
  /** The W3C traceparent of the request, if it sent one. */
  readonly traceparent?: string;
  /** Aborted when the client goes away or the participant closes. */
  readonly signal: AbortSignal;
}

export interface Route<B = unknown> {
  method: 'GET' | 'POST';
  /** A path with `:name` segments, e.g. `/v2/users/:userId`. */
  path: string;
  /** The spec schema of the JSON body: fields the imitated release requires are checked before decoding. */
  body?: RequestSchemaName;
  /** Decodes the JSON body (POST); failures become 400 text/plain before the token is looked at. */
  decode?: (body: unknown) => B;
  /** `/livez` and `/readyz` answer without a token. */
  public?: boolean;
  handle(ctx: RequestContext<B>): Promise<void> | void;
}

export function route<B>(r: Route<B>): Route {
  return r as Route;
}

/** What a websocket channel's handler gets once the first frame is decoded and the caller known. */
export interface ChannelContext<B = unknown> {
  readonly url: URL;
  readonly body: B;
  readonly caller: Caller;
  /** Aborted when the client goes away or the participant closes. */
  readonly signal: AbortSignal;
  /** Sends one text frame; resolves when the socket can take more (backpressure). */
  send(json: string): Promise<void>;
  /** Ends the socket with a normal close, as Canton does after the last element or an error frame. */
  close(): void;
  /** Drops the connection without a close frame (a fault: a cut network). */
  cut(): void;
}

/**
 * A websocket channel (the asyncapi spec): a GET upgrade, then one text frame with the request; every
 * later frame from the participant is one element or one JsCantonError, after which the stream ends.
 */
export interface Channel<B = unknown> {
  path: string;
  /** The spec schema of the first frame: fields the imitated release requires are checked. */
  body: RequestSchemaName;
  decode: (body: unknown) => B;
  handle(ctx: ChannelContext<B>): Promise<void>;
}

export function channel<B>(c: Channel<B>): Channel {
  return c as Channel;
}

/** How often a running stream's token is checked again. */
const TOKEN_RECHECK_MS = 1000;

/** Canton's subprotocol that marks a Ledger API websocket; the token travels beside it as `jwt.token.<JWT>`. */
export const WS_AUTH_PROTOCOL = 'daml.ws.auth';
const WS_TOKEN_PREFIX = 'jwt.token.';

/** One request and its answer, as they went over the wire (for tests that check them against a spec). */
export interface Exchange {
  method: string;
  /** Without the query. */
  path: string;
  query: string;
  requestHeaders: IncomingMessage['headers'];
  requestBody: string;
  status: number;
  contentType: string;
  responseBody: string;
  /** For a websocket channel (status 101): the frames each way, text as sent (the first received one is also `requestBody`). */
  frames?: { received: string[]; sent: string[] };
}

export interface ServerOptions {
  routes: Route[];
  /** The websocket channels the imitated release has. */
  channels?: Channel[];
  authenticator?: Authenticator;
  /** The participant name for `context.participant` in errors. */
  participantName: string;
  /** The version imitated: whose required request fields apply. */
  version: string;
  log: (line: string) => void;
  /** Called with every finished exchange; costs a copy of each body, so only for tests. */
  onExchange?: (exchange: Exchange) => void;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

function compile(r: Route): CompiledRoute {
  const names: string[] = [];
  const source = r.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z]+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route: r, pattern: new RegExp(`^${source}$`), names };
}

/** An integer query parameter; anything else fails decoding (400 text/plain), as in Canton. */
export function queryInt(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) throw DecodeFailure.query(name);
  return Number(raw);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  sendRawJson(res, status, JSON.stringify(value));
}

export function sendRawJson(res: ServerResponse, status: number, json: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(json);
}

export function sendBytes(res: ServerResponse, bytes: Uint8Array, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream', ...headers }).end(bytes);
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=UTF-8' }).end(text);
}

/** Writes a JSON array element by element, respecting backpressure (lists can be 100k elements). */
export async function streamJsonArray<T>(res: ServerResponse, items: readonly T[], render: (item: T) => string, signal: AbortSignal, opts: { leaveOpen?: boolean } = {}): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const batch = 256;
  for (let i = 0; i < items.length && !signal.aborted; i += batch) {
    const chunk = items.slice(i, i + batch).map(render).join(',');
    if (!res.write(i === 0 ? chunk : `,${chunk}`) && !signal.aborted && !res.destroyed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        res.on('drain', done);
        signal.addEventListener('abort', done);
      });
    }
  }
  if (!opts.leaveOpen) res.end(']');
}

export class DemoServer {
  private readonly server: Server;
  private readonly routes: CompiledRoute[];
  private readonly closing = new AbortController();
  private readonly sockets = new WebSocketServer({
    noServer: true,
    // Canton answers with the marker protocol only: the token is never echoed.
    handleProtocols: (offered) => (offered.has(WS_AUTH_PROTOCOL) ? WS_AUTH_PROTOCOL : false),
  });

  constructor(private readonly options: ServerOptions) {
    this.routes = options.routes.map(compile);
    this.server = createServer((req, res) => void this.serve(req, res));
    // Canton's JSON API runs on pekko-http, whose server idle-timeout is 60 s; Node's 5 s default closed
    // kept-alive sockets under clients whose event loop was busy longer (decoding a large answer), which
    // then wrote their next request onto a socket already closed.
    this.server.keepAliveTimeout = 60_000;
    this.server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => this.upgrade(req, socket, head));
  }

  async listen(port: number, host: string): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }

  /** Stops listening, ends waiting requests and drops open connections. */
  async close(): Promise<void> {
    this.closing.abort();
    // Upgraded sockets are no longer the HTTP server's: close them with "going away".
    for (const ws of this.sockets.clients) ws.close(1001, 'participant shutting down');
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    for (const ws of this.sockets.clients) ws.terminate();
    this.sockets.close();
    await closed;
  }

  // ---------------------------------------------------------------- websockets

  /** An upgrade request: a channel of the release gets a websocket, anything else the plain 404 of HTTP. */
  private upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://participant');
    const found = (this.options.channels ?? []).find((c) => c.path === url.pathname);
    if (!found || req.method !== 'GET') {
      this.options.log(`websocket ${url.pathname} -> 404`);
      return refuseUpgrade(socket, 404, 'The requested resource could not be found.');
    }
    this.sockets.handleUpgrade(req, socket, head, (ws) => void this.serveChannel(found, req, url, ws));
  }

  private async serveChannel(c: Channel, req: IncomingMessage, url: URL, ws: WebSocket): Promise<void> {
    const started = Date.now();
    const site = this.site(req);
    const done = new AbortController();
    const onClose = () => done.abort();
    ws.on('close', onClose);
    ws.on('error', onClose);
    this.closing.signal.addEventListener('abort', onClose);
    const frames = { received: [] as string[], sent: [] as string[] };
    const record = this.options.onExchange;
    const send = (json: string): Promise<void> => {
      if (ws.readyState !== ws.OPEN) return Promise.resolve();
      if (record) frames.sent.push(json);
      return new Promise((resolve) => {
        ws.send(json, () => resolve());
        // Waiting for every write would crawl: wait only while the socket has a backlog.
        if (ws.bufferedAmount < 1024 * 1024) resolve();
      });
    };
    const first = await firstFrame(ws, done.signal);
    try {
      if (first === undefined) return;
      if (record) frames.received.push(first);
      const json = parseFrame(first);
      const missing = firstMissingField(c.body, json, this.options.version);
      if (missing) throw DecodeFailure.body(`DecodingFailure at ${missing.path}.${missing.field}: Missing required field`);
      const body = c.decode(json);
      const token = channelToken(req);
      const authenticator = this.options.authenticator;
      const caller = authenticator ? await authenticator.authenticate(token, c.path) : OPEN;
      // Canton ends a running stream once its token expires (or its user goes): the token is checked
      // again while the stream runs, on the participant's own clock.
      let revoked: unknown;
      const stream = new AbortController();
      const onDone = () => stream.abort();
      done.signal.addEventListener('abort', onDone, { once: true });
      const recheck = authenticator
        ? setInterval(() => authenticator.authenticate(token, c.path).catch((e: unknown) => ((revoked ??= e), stream.abort())), TOKEN_RECHECK_MS)
        : undefined;
      recheck?.unref();
      // And before each frame: what the client reads after the expiry is the error, not more updates.
      const sendWhileValid = async (json: string) => {
        if (authenticator?.expired(token)) {
          revoked ??= AuthFailure.unauthenticated();
          stream.abort();
          return;
        }
        await send(json);
      };
      try {
        await c.handle({ url, body, caller, signal: stream.signal, send: sendWhileValid, close: () => ws.close(1000), cut: () => ws.terminate() });
      } catch (e) {
        if (!revoked) throw e;
      } finally {
        clearInterval(recheck);
        done.signal.removeEventListener('abort', onDone);
      }
      if (revoked) throw revoked;
    } catch (error) {
      // Errors travel as a frame; then the stream ends (a close frame carries no error).
      await send(JSON.stringify(this.errorBody(error, site)));
      ws.close(1000);
    } finally {
      this.closing.signal.removeEventListener('abort', onClose);
      this.options.log(`websocket ${url.pathname}: ${frames.sent.length || 'some'} frames sent, open ${Date.now() - started} ms`);
      const report = () =>
        record?.({
          method: 'GET',
          path: url.pathname,
          query: url.search,
          requestHeaders: req.headers,
          requestBody: frames.received[0] ?? '',
          status: 101,
          contentType: '',
          responseBody: '',
          frames,
        });
      if (ws.readyState === ws.CLOSED) report();
      else ws.once('close', report);
    }
  }

  private errorBody(error: unknown, site: ErrorSite): JsCantonError {
    if (error instanceof AuthFailure) return authErrorBody(error, site);
    if (error instanceof LedgerApiError) return cantonErrorBody(error, site);
    // Over a websocket a request that cannot be decoded is an error frame, not a text/plain 400.
    if (error instanceof DecodeFailure) return cantonErrorBody(invalidArgument(error.text), site);
    this.options.log(`internal error: ${(error as Error)?.stack ?? String(error)}`);
    return cantonErrorBody(new LedgerApiError('LEDGER_API_INTERNAL_ERROR', `Processing the request failed due to an internal error: ${(error as Error)?.message}`), site);
  }

  private site(req: IncomingMessage): ErrorSite {
    const header = req.headers.traceparent;
    const traceparent = typeof header === 'string' && TRACEPARENT.test(header) ? header : undefined;
    return { traceId: traceparent ? traceparent.slice(3, 35) : randomBytes(16).toString('hex'), participant: `'${this.options.participantName}'` };
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://participant');
    const header = req.headers.traceparent;
    const traceparent = typeof header === 'string' && TRACEPARENT.test(header) ? header : undefined;
    const site = this.site(req);
    const requestDone = new AbortController();
    const onClose = () => requestDone.abort();
    res.on('close', onClose);
    this.closing.signal.addEventListener('abort', onClose);
    res.setHeader('x-demo-participant', 'true');
    const request = { body: '' };
    if (this.options.onExchange) this.record(req, res, url, request, this.options.onExchange);
    try {
      await this.dispatch(req, res, url, request, traceparent, requestDone.signal);
    } catch (error) {
      this.fail(res, error, site);
    } finally {
      this.closing.signal.removeEventListener('abort', onClose);
      this.options.log(`${req.method} ${url.pathname} -> ${res.headersSent ? res.statusCode : 'dropped'} (${Date.now() - started} ms)`);
    }
  }

  /** Copies what is written to `res` and reports the exchange when the response is complete. */
  private record(req: IncomingMessage, res: ServerResponse, url: URL, request: { body: string }, report: (exchange: Exchange) => void): void {
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown) => {
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string | Uint8Array));
    };
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    res.write = ((chunk: unknown, ...rest: unknown[]) => (keep(chunk), (write as (...a: unknown[]) => boolean)(chunk, ...rest))) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => (keep(chunk), (end as (...a: unknown[]) => ServerResponse)(chunk, ...rest))) as typeof res.end;
    res.on('finish', () =>
      report({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.search,
        requestHeaders: req.headers,
        requestBody: request.body,
        status: res.statusCode,
        contentType: String(res.getHeader('content-type') ?? ''),
        responseBody: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse, url: URL, request: { body: string }, traceparent: string | undefined, signal: AbortSignal): Promise<void> {
    const matches = this.routes.map((r) => ({ r, m: r.pattern.exec(url.pathname) })).filter((x) => x.m);
    if (matches.length === 0) return sendText(res, 404, 'The requested resource could not be found.');
    const match = matches.find((x) => x.r.route.method === req.method);
    if (!match) {
      return sendText(res, 405, `HTTP method not allowed, supported methods: ${[...new Set(matches.map((x) => x.r.route.method))].join(', ')}`);
    }
    const { route: r, names } = match.r;
    const params = Object.fromEntries(names.map((name, i) => [name, pathParameter(name, match.m![i + 1])]));

    const token = bearerToken(req.headers.authorization);
    const rawBody = await readBody(req);
    const text = rawBody.toString('utf8');
    request.body = text;
    const json = r.decode ? parseBody(text) : undefined;
    const missing = r.body && firstMissingField(r.body, json, this.options.version);
    if (missing) throw DecodeFailure.body(`DecodingFailure at ${missing.path}.${missing.field}: Missing required field`);
    const body = r.decode ? r.decode(json) : undefined;
    const authenticator = this.options.authenticator;
    const caller = r.public || !authenticator ? OPEN : await authenticator.authenticate(token, r.path);
    await r.handle({ req, res, url, params, body, rawBody, caller, traceparent, signal });
  }

  private fail(res: ServerResponse, error: unknown, site: ErrorSite): void {
    if (res.headersSent) {
      res.destroy(); // mid-stream: nothing sensible can be said any more
      return;
    }
    if (error instanceof DecodeFailure) return sendText(res, 400, error.text);
    if (error instanceof BodyTooLarge) return sendText(res, 413, error.message);
    if (error instanceof AuthFailure) return sendJson(res, error.httpStatus, authErrorBody(error, site));
    if (error instanceof LedgerApiError) return sendJson(res, error.httpStatus, cantonErrorBody(error, site));
    const internal = new LedgerApiError('LEDGER_API_INTERNAL_ERROR', `Processing the request failed due to an internal error: ${(error as Error)?.message}`);
    this.options.log(`internal error: ${(error as Error)?.stack ?? String(error)}`);
    sendJson(res, internal.httpStatus, cantonErrorBody(internal, site));
  }
}

/** The token of a websocket: the `jwt.token.<JWT>` subprotocol, else the Authorization header (Canton reads both). */
function channelToken(req: IncomingMessage): string | undefined {
  const offered = String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
  const fromProtocol = offered.find((p) => p.startsWith(WS_TOKEN_PREFIX))?.slice(WS_TOKEN_PREFIX.length);
  if (fromProtocol) return fromProtocol;
  try {
    return bearerToken(req.headers.authorization);
  } catch {
    return undefined;
  }
}

/** The first text frame, or undefined when the socket closes (or the participant stops) before one came. */
function firstFrame(ws: WebSocket, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(undefined);
    const finish = (frame: string | undefined) => {
      ws.off('message', onMessage);
      signal.removeEventListener('abort', onAbort);
      resolve(frame);
    };
    const onMessage = (data: Buffer | ArrayBuffer | Buffer[]) => finish(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8'));
    const onAbort = () => finish(undefined);
    ws.on('message', onMessage);
    signal.addEventListener('abort', onAbort);
  });
}

function parseFrame(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DecodeFailure('Cannot decode frame: not JSON');
  }
}

/** Answers an upgrade request with a plain HTTP response and drops the connection. */
function refuseUpgrade(socket: Socket, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: text/plain; charset=UTF-8\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}

/** A `%`-escaped path segment; a malformed escape is the client's error (400), as in Canton, not an internal one. */
function pathParameter(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new DecodeFailure(`Invalid value for: path parameter ${name}`);
  }
}

class BodyTooLarge extends Error {
  constructor() {
    super(`Request Content-Length exceeds the limit of ${MAX_BODY_BYTES} bytes`);
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
