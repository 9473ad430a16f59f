/**
 * The HTTP side: routing, the order in which Canton's JSON layer checks a request (authorization
 * header, then body decoding, then the token, then the handler), and error rendering. Handlers
 * live in `handlers/`; they throw the participant's errors and write their answers with `send*`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPEN, bearerToken, type Authenticator, type Caller } from './auth';
import { firstMissingField, type RequestSchemaName } from '../core/versions';
import { parseBody } from './decode';
import { AuthFailure, DecodeFailure, LedgerApiError, authErrorBody, cantonErrorBody, type ErrorSite } from './errors';

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
}

export interface ServerOptions {
  routes: Route[];
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

  constructor(private readonly options: ServerOptions) {
    this.routes = options.routes.map(compile);
    this.server = createServer((req, res) => void this.serve(req, res));
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
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://participant');
    const header = req.headers.traceparent;
    const traceparent = typeof header === 'string' && TRACEPARENT.test(header) ? header : undefined;
    const site: ErrorSite = {
      traceId: traceparent ? traceparent.slice(3, 35) : randomBytes(16).toString('hex'),
      participant: `'${this.options.participantName}'`,
    };
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
    const caller = r.public || !authenticator ? OPEN : await authenticator.authenticate(token);
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
