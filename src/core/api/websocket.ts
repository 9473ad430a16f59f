/**
 * One websocket with a participant (a channel of its asyncapi spec): the URL from the configured base
 * URL (path prefix kept), the token in the `jwt.token.<JWT>` subprotocol beside `daml.ws.auth`, the
 * request as the first frame, then the participant's frames as they come. A connect deadline and the
 * caller's AbortSignal both end the socket; pings find a connection that died silently; one log line
 * when it opens and one when it ends, never with the token.
 *
 * Node 20 has no WebSocket client of its own: this uses the `ws` package.
 */
import WebSocket from 'ws';
import type { IncomingMessage } from 'node:http';
import { AuthError, CancelledError, LedgerError, NetworkError, TimeoutError, WebSocketUnavailableError, type RequestInfo } from '../errors';
import { stringifyJson } from '../json';
import { traceLazily } from '../log';
import { readText, type HttpTransport } from './http';

/** Canton's marker subprotocol of a Ledger API websocket. */
export const WS_AUTH_PROTOCOL = 'daml.ws.auth';

export interface SocketRequest {
  /** The channel, as the spec writes it (`/v2/updates`). */
  path: string;
  /** Sent as the first (and only) frame once the socket is open. */
  firstFrame: unknown;
  signal?: AbortSignal;
  /** How long the upgrade may take. Default 10 s. */
  connectTimeoutMs?: number;
  /** A ping goes out this often; no pong before the next one ends the socket. Default 30 s. */
  pingIntervalMs?: number;
}

/** Frames held before the socket is paused until the reader catches up. */
const HIGH_WATER_FRAMES = 1000;
const ERROR_BODY_LIMIT = 64 * 1024;
/** Connection failures that mean nothing answered at all: the participant is away, not refusing websockets. */
const NOTHING_THERE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Opens the socket and yields the text frames that arrived since the last step, in order. Ends when
 * the participant closes normally (1000); any other end after opening is a NetworkError, so that
 * the caller resumes. Before opening: an AuthError (401/403), a NetworkError when nothing answered, a
 * WebSocketUnavailableError for any other refusal; a CancelledError on abort.
 */
export async function* socketFrames(transport: HttpTransport, r: SocketRequest): AsyncGenerator<string[]> {
  const req: RequestInfo = { method: 'GET', path: r.path };
  if (r.signal?.aborted) throw new CancelledError(false, req);
  const token = await transport.currentToken(r.signal);
  // Canton would take an empty token as none at all; say what is really wrong.
  if (token === '') throw new AuthError(0, 'empty-token', undefined, req);
  if (token !== undefined) transport.redactor.register(token);

  const url = transport.url(r.path);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const protocols = token === undefined ? [WS_AUTH_PROTOCOL] : [WS_AUTH_PROTOCOL, `jwt.token.${token}`];
  const started = Date.now();
  // No redirects: the token goes to the configured origin only.
  const ws = new WebSocket(url, protocols, { followRedirects: false, perMessageDeflate: false, maxPayload: transport.maxResponseBytes, headers: { ...transport.extraHeaders } });

  const queue: string[] = [];
  let ended: { error?: LedgerError } | undefined;
  let opened = false;
  let frames = 0;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const end = (error?: LedgerError) => {
    if (ended) return;
    ended = { error };
    clearTimeout(connectTimer);
    clearInterval(pinger);
    r.signal?.removeEventListener('abort', onAbort);
    transport.logger.info(`WS ${r.path} ${opened ? `ended after ${frames} frames, ${Date.now() - started} ms` : `not opened after ${Date.now() - started} ms`}${error ? `: ${error.name}${codeOf(error)}` : ''}`);
    if (ws.readyState !== WebSocket.CLOSED) ws.terminate();
    notify();
  };
  const onAbort = () => end(new CancelledError(opened, req));
  r.signal?.addEventListener('abort', onAbort, { once: true });
  const connectTimeoutMs = r.connectTimeoutMs ?? 10_000;
  const connectTimer = setTimeout(() => end(new WebSocketUnavailableError({ timedOut: true }, req)), connectTimeoutMs);
  let alive = true;
  let pinger: NodeJS.Timeout | undefined;

  ws.on('open', () => {
    opened = true;
    clearTimeout(connectTimer);
    transport.logger.info(`WS ${r.path} open ${Date.now() - started} ms`);
    const json = stringifyJson(r.firstFrame);
    traceLazily(transport.logger, () => `WS ${r.path} request: ${transport.redactor.redact(json)}`);
    ws.send(json);
    pinger = setInterval(() => {
      if (!alive) return end(new TimeoutError(r.pingIntervalMs ?? 30_000, true, req));
      alive = false;
      ws.ping();
    }, r.pingIntervalMs ?? 30_000);
  });
  ws.on('pong', () => (alive = true));
  ws.on('message', (data: WebSocket.RawData) => {
    alive = true;
    frames++;
    queue.push(textOf(data));
    if (queue.length >= HIGH_WATER_FRAMES) ws.pause();
    notify();
  });
  ws.on('unexpected-response', (_request: unknown, res: IncomingMessage) => {
    const status = res.statusCode ?? 0;
    void readText(res, ERROR_BODY_LIMIT).then(
      (text) => {
        const err = status === 401 || status === 403 ? transport.errorFromResponse(status, res.headers['content-type'], text, req) : new WebSocketUnavailableError({ status }, req);
        traceLazily(transport.logger, () => `WS ${r.path} refused with ${status}: ${transport.redactor.redact(text)}`);
        end(err);
      },
      () => end(new WebSocketUnavailableError({ status }, req)),
    );
  });
  ws.on('error', (e: Error & { code?: string }) => {
    if (opened) return end(new NetworkError('The websocket failed', e.code, true, req, e));
    if (e.code && NOTHING_THERE.has(e.code)) return end(new NetworkError(`Could not reach the participant (${e.code})`, e.code, false, req, e));
    end(new WebSocketUnavailableError({ code: e.code }, req, e));
  });
  ws.on('close', (code: number) => {
    if (!opened) return end(new WebSocketUnavailableError({}, req));
    end(code === 1000 ? undefined : new NetworkError(`The websocket closed (${code})`, `WS_CLOSE_${code}`, true, req));
  });

  try {
    for (;;) {
      if (queue.length > 0) {
        const batch = queue.splice(0);
        if (ws.isPaused) ws.resume();
        yield batch;
        continue;
      }
      if (ended) {
        if (ended.error) throw ended.error;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    // The reader stopped early (break, an error of its own): the socket goes with it.
    end(ended?.error);
  }
}

function textOf(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function codeOf(err: LedgerError): string {
  const code = (err as { code?: string }).code;
  return code ? ` ${code}` : '';
}
