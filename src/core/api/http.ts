/**
 * One HTTP exchange with a participant: URL building (with the optional path prefix), the bearer token,
 * a deadline merged with the caller's AbortSignal, redirects that never carry the token to another
 * origin, one log line per request, and the mapping of failures to typed errors.
 */
import nodeFetch, { Response as FetchResponse } from 'node-fetch';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import {
  AuthError,
  CancelledError,
  CantonApiError,
  HttpError,
  LedgerError,
  ListTooLargeError,
  NetworkError,
  ProtocolError,
  RedirectedError,
  RequestInfo,
  TimeoutError,
} from '../errors';
import type { JsCantonError } from '../models/wire';
import { decodeClaims, type TokenClaims, type TokenProvider } from '../auth/jwt';
import { stringifyJson } from '../json';
import { Redactor } from '../redact';
import type { FetchLike } from '../fetch';
import { Logger, silentLogger, traceLazily } from '../log';

export interface HttpOptions {
  /** `http(s)://host:port[/path-prefix]`. */
  baseUrl: string;
  token?: TokenProvider;
  /** Default deadline of one request, in ms. */
  timeoutMs?: number;
  fetch?: FetchLike;
  logger?: Logger;
  redactor?: Redactor;
  /** Extra headers on every request (never put credentials here; use `token`). */
  headers?: Record<string, string>;
  /**
   * A request that is not safe to send twice (a submission) goes over a kept-alive connection only
   * when that connection has been idle for less than this; else over a new one. Default 2000 ms.
   */
  briefReuseMs?: number;
  /**
   * Largest answer held in memory whole (every answer but the streamed update lists), in bytes; a
   * larger one fails with a ProtocolError (`too-large`) instead of exhausting memory. Default 64 MiB.
   */
  maxResponseBytes?: number;
}

/** The default of {@link HttpOptions.maxResponseBytes}. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * Servers close idle connections after a while (Node 5 s, pekko-http 60 s). A request written just as
 * the server closes its connection fails with a reset, and for a submission that means an unknown
 * outcome (it may have been received). Reads are simply sent again; a submission must not be. So a
 * submission only reuses a connection idle for much less than any server's idle timeout — a burst of
 * submissions shares one connection, a submission after a pause opens its own.
 */
const DEFAULT_BRIEF_REUSE_MS = 2000;

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's default deadline for this call. */
  timeoutMs?: number;
  /**
   * Statuses that are an answer the caller expects and handles (a 403 where a right may be missing):
   * still thrown as typed errors, but logged at debug level rather than as a failure.
   */
  expectedStatuses?: readonly number[];
}

export interface HttpRequest extends CallOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** A binary body, sent as application/octet-stream instead of `body` (a DAR upload). */
  bytes?: Uint8Array;
  /**
   * Safe to send twice (reads). Default: true for GET only. Idempotent requests share kept-alive
   * connections and are retried once when such a connection turns out to be dead; the others are
   * never retried and reuse only briefly idle connections (see `briefReuseMs`).
   */
  idempotent?: boolean;
  /** The Accept header; default `application/json`. */
  accept?: string;
}

/** A successful response whose body has not been read yet. */
export interface OpenResponse {
  status: number;
  headers: { get(name: string): string | null };
  body: Readable;
  /** Ends the deadline timer and detaches from the caller's signal; call when the body is consumed. */
  done(): void;
  /** Wraps a failure while reading the body into the right typed error. */
  mapBodyError(err: unknown): LedgerError;
}

/**
 * Passes a caller's abort on to the requests in flight under its signal, with one listener on the
 * signal while it is in use rather than one per request: a signal that many requests share in turn
 * (a connection's lifetime, a script run's) would otherwise have a listener added and removed at every
 * request, each a walk of its listeners (a few µs, at every step of a script). A signal left without
 * requests is let go by a sweep every {@link ABORT_RELAY_SWEEP_MS}, not at once: Node keeps a composite
 * or timeout signal alive while it has a listener, so it must be let go, but scheduling that after
 * every request would cost as much as the listener did.
 */
class AbortRelay {
  /** Usually one at a time: a list, not a set (a set shrinks its table, a call into the runtime, whenever it empties). */
  private readonly inFlight: AbortController[] = [];
  private listening = false;
  /** In the sweep's list. */
  queued = false;

  constructor(private readonly signal: AbortSignal) {}

  add(request: AbortController): void {
    this.inFlight.push(request);
    if (this.listening) return;
    this.signal.addEventListener('abort', this.onAbort, { once: true });
    this.listening = true;
  }

  delete(request: AbortController): void {
    const at = this.inFlight.indexOf(request);
    if (at === -1) return;
    const last = this.inFlight.pop()!;
    if (at < this.inFlight.length) this.inFlight[at] = last;
    if (this.inFlight.length === 0 && this.listening && !this.queued) sweepLater(this);
  }

  /** Removes the listener if no request is in flight (one that is queues the relay again when it ends). */
  releaseIfIdle(): void {
    if (this.inFlight.length > 0 || !this.listening) return;
    this.signal.removeEventListener('abort', this.onAbort);
    this.listening = false;
  }

  private readonly onAbort = () => {
    this.listening = false;
    for (const request of this.inFlight) request.abort();
  };
}

/** How often signals without requests are let go (at most this long after their last request ends). */
export const ABORT_RELAY_SWEEP_MS = 250;

const abortRelays = new WeakMap<AbortSignal, AbortRelay>();
let sweepList: AbortRelay[] = [];
let sweepTimer: ReturnType<typeof setTimeout> | undefined;

function abortRelayOf(signal: AbortSignal): AbortRelay {
  let relay = abortRelays.get(signal);
  if (!relay) abortRelays.set(signal, (relay = new AbortRelay(signal)));
  return relay;
}

function sweepLater(relay: AbortRelay): void {
  relay.queued = true;
  sweepList.push(relay);
  // Unref'd: a pending sweep never keeps the process alive.
  sweepTimer ??= setTimeout(sweepAbortRelays, ABORT_RELAY_SWEEP_MS).unref();
}

/** Lets go of every relayed signal that has no request in flight (the timer's work; tests call it directly). */
export function sweepAbortRelays(): void {
  if (sweepTimer) clearTimeout(sweepTimer);
  sweepTimer = undefined;
  const list = sweepList;
  sweepList = [];
  for (const relay of list) {
    relay.queued = false;
    relay.releaseIfIdle();
  }
}

const MAX_REDIRECTS = 5;
const ERROR_BODY_LIMIT = 64 * 1024;

export class HttpTransport {
  readonly baseUrl: URL;
  private readonly fetchImpl: FetchLike;
  readonly logger: Logger;
  readonly redactor: Redactor;
  private readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  private readonly agents: Record<'reads' | 'writes', { http: http.Agent; https: https.Agent }>;

  constructor(private readonly opts: HttpOptions) {
    // An agent's `timeout` destroys its idle (free) sockets after that long; it does not cut requests in flight.
    const brief = { keepAlive: true, timeout: opts.briefReuseMs ?? DEFAULT_BRIEF_REUSE_MS };
    this.agents = {
      reads: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
      writes: { http: new http.Agent(brief), https: new https.Agent(brief) },
    };
    this.baseUrl = parseBaseUrl(opts.baseUrl);
    this.fetchImpl = opts.fetch ?? nodeFetch;
    this.logger = opts.logger ?? silentLogger;
    this.redactor = opts.redactor ?? new Redactor();
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /** The absolute URL of an API path, keeping the base URL's path prefix. */
  url(path: string, query?: HttpRequest['query']): URL {
    const u = new URL(this.baseUrl.href);
    u.pathname = u.pathname.replace(/\/+$/, '') + path;
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u;
  }

  /** Sends a request and returns the parsed JSON body (or undefined for an empty body). */
  async json<T>(req: HttpRequest): Promise<T> {
    const res = await this.open(req);
    try {
      const text = await this.readCapped(res, req);
      if (!text) return undefined as T;
      try {
        return JSON.parse(text) as T;
      } catch (e) {
        throw new ProtocolError(`The response to ${req.method} ${req.path} is not JSON`, info(req), e);
      }
    } catch (e) {
      throw e instanceof LedgerError ? e : res.mapBodyError(e);
    } finally {
      res.done();
    }
  }

  /**
   * Sends a request and returns the body as bytes (for binary endpoints such as a package's
   * archive), refusing a body larger than `limit` bytes with a ProtocolError rather than holding it.
   */
  async bytes(req: HttpRequest, limit: number): Promise<{ bytes: Uint8Array; headers: OpenResponse['headers'] }> {
    const res = await this.open({ ...req, accept: req.accept ?? 'application/octet-stream' });
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > limit) throw new ProtocolError(`The response to ${req.method} ${req.path} is larger than ${limit} bytes`, info(req));
        chunks.push(chunk as Buffer);
      }
      return { bytes: new Uint8Array(Buffer.concat(chunks)), headers: res.headers };
    } catch (e) {
      throw e instanceof LedgerError ? e : res.mapBodyError(e);
    } finally {
      res.body.destroy();
      res.done();
    }
  }

  /** Sends a request and returns the body text (for plain-text endpoints such as /readyz). */
  async text(req: HttpRequest, acceptStatuses: number[] = []): Promise<{ status: number; text: string }> {
    const res = await this.open(req, acceptStatuses);
    try {
      return { status: res.status, text: await this.readCapped(res, req) };
    } catch (e) {
      throw res.mapBodyError(e);
    } finally {
      res.done();
    }
  }

  /** The whole body as text, refusing (and dropping the connection of) one above `maxResponseBytes`. */
  private async readCapped(res: OpenResponse, req: HttpRequest): Promise<string> {
    const limit = this.maxResponseBytes;
    const declared = Number(res.headers.get('content-length') ?? NaN);
    const tooLarge = () => {
      res.body.destroy();
      return new ProtocolError(`The response to ${req.method} ${req.path} is larger than ${limit} bytes`, info(req), undefined, { problem: 'too-large', limitBytes: limit });
    };
    if (declared > limit) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > limit) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /**
   * Sends a request and hands back the unread body of a 2xx response, for streaming decoders.
   * Non-2xx answers (except `acceptStatuses`) are read and thrown as typed errors.
   */
  async open(req: HttpRequest, acceptStatuses: number[] = []): Promise<OpenResponse> {
    const started = Date.now();
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort();
    }, timeoutMs);
    if (req.signal?.aborted) {
      clearTimeout(timer);
      throw new CancelledError(false, info(req));
    }
    const relay = req.signal && abortRelayOf(req.signal);
    relay?.add(deadline);
    const done = () => {
      clearTimeout(timer);
      relay?.delete(deadline);
    };
    const mapAbortOr = (err: unknown, requestSent: boolean): LedgerError => {
      if (timedOut) return new TimeoutError(timeoutMs, requestSent, info(req));
      if (req.signal?.aborted) return new CancelledError(requestSent, info(req));
      return toNetworkError(err, requestSent, req);
    };

    let res: FetchResponse;
    const idempotent = req.idempotent ?? req.method === 'GET';
    try {
      const token = await this.opts.token?.(deadline.signal);
      this.lastToken = token;
      // Canton answers an empty bearer with a 400 decode error; say what is really wrong instead.
      if (token === '') throw new AuthError(0, 'empty-token', undefined, info(req));
      if (token !== undefined) this.redactor.register(token);
      try {
        res = await this.send(req, token, deadline.signal, idempotent);
      } catch (e) {
        // A kept-alive connection the server had already closed: a read may safely go again, once.
        if (!idempotent || (e as { code?: string }).code !== 'ECONNRESET' || deadline.signal.aborted) throw e;
        this.logger.debug(`${req.method} ${req.path}: connection reset, retrying once`);
        res = await this.send(req, token, deadline.signal, idempotent);
      }
    } catch (e) {
      done();
      const err = e instanceof LedgerError ? e : mapAbortOr(e, requestMayHaveBeenSent(e));
      this.logger.info(`${req.method} ${req.path} failed after ${Date.now() - started} ms: ${err.name}${codeOf(err)}`);
      throw err;
    }

    const status = res.status;
    if ((status >= 200 && status < 300) || acceptStatuses.includes(status)) {
      this.logger.info(`${req.method} ${req.path} ${status} ${Date.now() - started} ms`);
      return {
        status,
        headers: res.headers,
        body: asStream(res.body),
        done,
        mapBodyError: (err) => (err instanceof LedgerError ? err : mapAbortOr(err, true)),
      };
    }

    let text = '';
    try {
      text = await readText(asStream(res.body), ERROR_BODY_LIMIT);
    } catch (e) {
      done();
      throw mapAbortOr(e, true);
    }
    done();
    const err = this.errorFromResponse(status, res.headers.get('content-type') ?? undefined, text, req, declaredLength(res.headers));
    const line = `${req.method} ${req.path} ${status} ${Date.now() - started} ms${describeFailure(err)}`;
    if (req.expectedStatuses?.includes(status)) this.logger.debug(`${line} (expected)`);
    else this.logger.info(line);
    traceLazily(this.logger, () => `${req.method} ${req.path} error body: ${this.redactor.redact(text)}`);
    throw err;
  }

  private lastToken: string | undefined;
  private lastClaims: { token: string; claims: TokenClaims | undefined } | undefined;

  /** The claims of the token the last request carried (undefined before the first, or without a token). */
  lastTokenClaims(): TokenClaims | undefined {
    const token = this.lastToken;
    if (!token) return undefined;
    if (this.lastClaims?.token !== token) this.lastClaims = { token, claims: decodeClaims(token) };
    return this.lastClaims.claims;
  }

  /** The token the next request would carry (undefined without one). */
  async currentToken(signal?: AbortSignal): Promise<string | undefined> {
    return this.opts.token?.(signal);
  }

  /** Closes kept-alive connections (the transport stays usable). */
  close(): void {
    for (const group of Object.values(this.agents)) for (const agent of Object.values(group)) agent.destroy();
  }

  private async send(req: HttpRequest, token: string | undefined, signal: AbortSignal, idempotent: boolean): Promise<FetchResponse> {
    const agents = idempotent ? this.agents.reads : this.agents.writes;
    const agent = (u: URL) => (u.protocol === 'https:' ? agents.https : agents.http);
    let url = this.url(req.path, req.query);
    const origin = url.origin;
    const json = req.body === undefined ? undefined : stringifyJson(req.body);
    if (json !== undefined) traceLazily(this.logger, () => `${req.method} ${req.path} body: ${this.redactor.redact(json)}`);
    const body = req.bytes === undefined ? json : Buffer.from(req.bytes);
    let method: string = req.method;
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = { Accept: req.accept ?? 'application/json', ...this.opts.headers };
      if (body !== undefined && method !== 'GET') headers['Content-Type'] = req.bytes === undefined ? 'application/json' : 'application/octet-stream';
      // The token goes only to the origin the user configured, never to a redirect target elsewhere.
      if (token !== undefined && url.origin === origin) headers.Authorization = `Bearer ${token}`;
      // node-fetch refuses a GET with a body, which one endpoint has (3.4's vetting list): node:http sends it.
      const fetchImpl = method === 'GET' && json !== undefined ? getWithBody : this.fetchImpl;
      const res = await fetchImpl(url.href, { method, headers, body, redirect: 'manual', signal: signal as never, agent });
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return res;
      if (hop >= MAX_REDIRECTS) return res;
      res.body?.resume?.();
      url = new URL(location, url);
      // Another origin is not the participant the user configured: say where it pointed rather than
      // follow it (without the token, the answer would only be a confusing 401 or 405).
      if (url.origin !== origin) throw new RedirectedError(res.status, url.origin, token !== undefined, info(req));
      this.logger.debug(`${req.method} ${req.path} redirected (${res.status}) within the same origin`);
      // 303 (and 301/302 on POST, as browsers do) turn into GET; 307/308 keep method and body.
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) method = 'GET';
    }
  }

  /** The typed error of a failed answer (websocket refusals included). */
  errorFromResponse(status: number, contentType: string | undefined, text: string, req: RequestInfo, length?: number): LedgerError {
    const body = parseCantonError(contentType, text);
    if (body || status === 401 || status === 403) return errorOfStatus(status, body, req);
    // A body cut on its way is not the answer it began: a cut 404 is no sign that the path is not served.
    if ((length !== undefined && Buffer.byteLength(text) < Math.min(length, ERROR_BODY_LIMIT)) || isCutJson(contentType, text)) {
      const start = this.redactor.redact(text.slice(0, 200));
      return new ProtocolError(`HTTP ${status} with an incomplete answer: its body was cut${start ? ` after ${JSON.stringify(start)}` : ' before it began'}`, info(req), undefined, { problem: 'incomplete-answer' });
    }
    return new HttpError(status, this.redactor.redact(text.slice(0, 2000)), contentType, info(req));
  }

  /** Extra headers every request carries (no credentials). */
  get extraHeaders(): Readonly<Record<string, string>> {
    return this.opts.headers ?? {};
  }
}

/** The typed error of a status with its JsCantonError body (an error frame of a websocket has its gRPC code's status). */
export function errorOfStatus(status: number, body: JsCantonError | undefined, req: RequestInfo): LedgerError {
  if (status === 401 || status === 403) {
    const unknownUser = status === 403 && body?.context?.ledger_api_error === 'invalid token';
    return new AuthError(status, status === 401 ? 'unauthenticated' : unknownUser ? 'unknown-user' : 'permission-denied', body, info(req));
  }
  if (!body) return new HttpError(status, '', undefined, info(req));
  if (status === 413) return new ListTooLargeError(status, body, info(req));
  return new CantonApiError(status, body, info(req));
}

/** A GET that carries a JSON body, over node:http, answered as a fetch Response. */
const getWithBody = ((url: string, init: { headers: Record<string, string>; body: string; signal: AbortSignal; agent: (u: URL) => http.Agent }) =>
  new Promise<FetchResponse>((resolve, reject) => {
    const u = new URL(url);
    const headers = { ...init.headers, 'Content-Length': String(Buffer.byteLength(init.body)) };
    const req = (u.protocol === 'https:' ? https : http).request(u, { method: 'GET', headers, agent: init.agent(u), signal: init.signal }, (res) => {
      const pairs = Object.entries(res.headers).flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, v]) : value === undefined ? [] : [[name, value]]));
      resolve(new FetchResponse(res, { status: res.statusCode ?? 0, statusText: res.statusMessage, headers: pairs, url }));
    });
    req.on('error', reject);
    req.end(init.body);
  })) as unknown as FetchLike;

function parseBaseUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new TypeError(`Not a URL: ${raw}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`The participant URL must be http or https, not ${u.protocol}`);
  u.search = '';
  u.hash = '';
  return u;
}

function parseCantonError(contentType: string | undefined, text: string): JsCantonError | undefined {
  if (!text || (contentType && !/json/i.test(contentType) && !text.startsWith('{'))) return undefined;
  try {
    return asCantonError(JSON.parse(text));
  } catch {
    return undefined; // not JSON: the caller makes an HttpError of it
  }
}

/** A body that says it is JSON (its type, or its first character) and ends before its JSON does. */
function isCutJson(contentType: string | undefined, text: string): boolean {
  if (!text || !(/json/i.test(contentType ?? '') || text.startsWith('{'))) return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/** The body length an answer declares, when its bytes are the body's own (not compressed). */
function declaredLength(headers: { get(name: string): string | null }): number | undefined {
  const length = Number(headers.get('content-length') ?? NaN);
  const encoding = headers.get('content-encoding');
  return Number.isSafeInteger(length) && (!encoding || encoding === 'identity') ? length : undefined;
}

/** A parsed value that is a JsCantonError (it has a code and a cause), normalised; else undefined. */
export function asCantonError(v: unknown): JsCantonError | undefined {
  const o = v as Partial<JsCantonError> | null;
  if (o && typeof o === 'object' && typeof o.code === 'string' && typeof o.cause === 'string') {
    return { ...(o as JsCantonError), errorCategory: typeof o.errorCategory === 'number' ? o.errorCategory : -1 };
  }
  return undefined;
}

const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ERR_INVALID_URL']);

/** Conservative: unless the connection was surely never made, the server may have received the request. */
function requestMayHaveBeenSent(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return !(code && NEVER_CONNECTED.has(code));
}

function toNetworkError(err: unknown, requestSent: boolean, req: HttpRequest): NetworkError {
  const e = err as { code?: string; errno?: string; message?: string };
  const code = e?.code ?? e?.errno;
  return new NetworkError(`Could not reach the participant${code ? ` (${code})` : ''}`, code, requestSent && !NEVER_CONNECTED.has(code ?? ''), info(req), err);
}

function info(req: RequestInfo): RequestInfo {
  return { method: req.method, path: req.path };
}

function codeOf(err: LedgerError): string {
  const code = (err as { code?: string }).code;
  return code ? ` ${code}` : '';
}

/** ` CODE correlationId=… traceId=…` for the log line of a failed request. */
function describeFailure(err: LedgerError): string {
  const body = err instanceof CantonApiError ? err.body : err instanceof AuthError ? err.body : undefined;
  if (!body) return '';
  return [` ${body.code}`, body.correlationId && ` correlationId=${body.correlationId}`, body.traceId && ` traceId=${body.traceId}`].filter(Boolean).join('');
}

/** Fetch implementations hand over a stream, or (for bodies built in memory) a Buffer or string. */
function asStream(body: unknown): Readable {
  if (body instanceof Readable) return body;
  if (body === null || body === undefined) return Readable.from([]);
  if (typeof body === 'string' || Buffer.isBuffer(body)) return Readable.from([Buffer.from(body)]);
  return Readable.from(body as AsyncIterable<Buffer>);
}

/** Reads a whole body as UTF-8, up to `limit` bytes (the rest is discarded). */
export async function readText(body: Readable | null | undefined, limit = Infinity): Promise<string> {
  if (!body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    if (size < limit) chunks.push(size + buf.length > limit ? buf.subarray(0, limit - size) : buf);
    size += buf.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}
