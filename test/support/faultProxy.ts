/**
 * A hostile network for tests: a loopback HTTP proxy in front of a (demo) participant that injects
 * faults into chosen exchanges — connections cut before or after the request reached the
 * participant, answers dropped, hung or cut mid-body, 502/504 and HTML pages instead of the answer,
 * JSON answers rewritten (repeated or reordered list elements, a page token sent back), the request
 * headers echoed, redirects.
 *
 * The participant behind it still sees well-formed exchanges, so the spec check of a checked
 * participant stays meaningful: what breaks the protocol is added here, after the participant
 * answered, outside that check.
 *
 * Bounded: every rule fires a limited number of times (`times`, default 1), the proxy fires at most
 * `maxFaults` faults in all, a hung answer is released after `maxHangMs`, and `close()` ends every
 * connection. It listens on 127.0.0.1 only and forwards to loopback targets only.
 */
import http, { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';

export type Fault =
  /** Destroy the connection before forwarding: the participant never sees the request. */
  | { kind: 'cut-request' }
  /** Forward, let the participant answer in full, then destroy the connection instead of answering. */
  | { kind: 'drop' }
  /** Forward, then never answer (until `maxHangMs` or `close()`). */
  | { kind: 'hang' }
  /** Pass status, headers and the first `afterBytes` of the body, then destroy the connection. Counts only when it did cut. */
  | { kind: 'cut-body'; afterBytes: number }
  /** Forward, then answer this instead (a 502/504 from a gateway, an HTML error page, an empty 200, …). */
  | { kind: 'answer'; status: number; body?: string; contentType?: string; headers?: Record<string, string> }
  /** Forward, then answer the participant's status with its JSON body rewritten (`request`: the request's JSON body). */
  | { kind: 'rewrite-json'; rewrite: (body: unknown, request: unknown) => unknown }
  /** Answer 200 with the request's headers as JSON, without forwarding (a server that echoes the Authorization header). */
  | { kind: 'echo-headers' }
  /** Forward; an error answer (4xx, 5xx) comes back with the request's Authorization header quoted in it, as some gateways do (in a Canton error's `cause`, else appended). */
  | { kind: 'quote-authorization' }
  /**
   * Forward; the answer comes back with `secret` planted in it, as a participant that quotes a credential
   * in what it says: `beside` adds it as a field of every JSON object, to every free-text field
   * (`PLANTED_TEXT_FIELDS`: an error's cause, a message, a workflow id, …) and to any text answer that
   * is not JSON; `everywhere` also appends it to every string of a JSON answer (ids and values included, so
   * what the client reads next fails, and those failures quote it again). Status and the rest are the participant's.
   */
  | { kind: 'plant'; secret: string; mode: 'beside' | 'everywhere' }
  /** A websocket upgrade: pass the first `afterBytes` the participant sends (its 101 answer included), then destroy both connections. Counts only when it did cut. */
  | { kind: 'cut-socket'; afterBytes: number }
  /** A websocket upgrade: answer this status instead, without forwarding (a proxy that does not pass websockets on). */
  | { kind: 'refuse-upgrade'; status: number };

export interface FaultRule {
  /** The request method (`WS` for a websocket upgrade); any when unset. */
  method?: string;
  /** The path (without query) exactly, or a pattern. */
  path: string | RegExp;
  /** The fault, or a function of how often this rule fired so far (0-based), to vary it. */
  fault: Fault | ((fired: number) => Fault);
  /** Fire this many times, then stop; default 1. */
  times?: number;
  /** Let this many matching requests through untouched first (e.g. the check before a write). */
  skip?: number;
}

export interface FaultProxyOptions {
  /** At most this many faults over the proxy's life (a guard against runaway tests). Default 1000. */
  maxFaults?: number;
  /** A hung answer is released (the connection destroyed) after this long. Default 30 s. */
  maxHangMs?: number;
}

interface ActiveRule extends FaultRule {
  fired: number;
  skipped: number;
}

export class FaultProxy {
  /** Requests that reached the proxy, per `METHOD path`. */
  readonly requests = new Map<string, number>();
  /** Faults fired, by kind. */
  readonly fired: Record<string, number> = {};
  private readonly rules: ActiveRule[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly server = http.createServer((req, res) => void this.serve(req, res));
  private readonly target: URL;
  private readonly maxFaults: number;
  private readonly maxHangMs: number;
  private totalFired = 0;
  private closing = false;
  /** Hung answers whose client closed the connection (gave up, cancelled) before the proxy let go. */
  abandoned = 0;
  url = '';

  constructor(target: string, o: FaultProxyOptions = {}) {
    this.target = new URL(target);
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(this.target.hostname)) throw new Error(`The fault proxy forwards to loopback only, not to ${this.target.hostname}`);
    this.maxFaults = o.maxFaults ?? 1000;
    this.maxHangMs = o.maxHangMs ?? 30_000;
    this.server.on('connection', (s) => this.track(s));
    this.server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => this.upgrade(req, socket, head));
  }

  private track(s: Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
  }

  /** Websockets: the upgrade request goes on as it came, then bytes both ways, unless a rule cuts or refuses. */
  private upgrade(req: IncomingMessage, client: Socket, head: Buffer): void {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    this.requests.set(`WS ${path}`, this.count('WS', path) + 1);
    const chosen = this.pick('WS', path);
    const fault = chosen?.fault;
    if (fault?.kind === 'refuse-upgrade') {
      this.count_(chosen!.rule, fault.kind);
      const text = 'websockets are not passed on here';
      return void client.end(`HTTP/1.1 ${fault.status} ${STATUS_CODES[fault.status]}\r\ncontent-type: text/plain\r\ncontent-length: ${text.length}\r\nconnection: close\r\n\r\n${text}`);
    }
    const upstream = net.connect(Number(this.target.port), this.target.hostname);
    this.track(upstream);
    const headers = Object.entries({ ...req.headers, host: this.target.host }).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}: ${x}`) : v === undefined ? [] : [`${k}: ${v}`]));
    upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    client.pipe(upstream);
    let cut = fault?.kind === 'cut-socket' ? fault : undefined;
    let sent = 0;
    upstream.on('data', (chunk: Buffer) => {
      if (cut && sent + chunk.length > cut.afterBytes) {
        client.write(chunk.subarray(0, Math.max(0, cut.afterBytes - sent)));
        this.count_(chosen!.rule, cut.kind);
        cut = undefined;
        upstream.destroy();
        // Let the partial write go out before the cut.
        setImmediate(() => client.destroy());
        return;
      }
      sent += chunk.length;
      client.write(chunk);
    });
    upstream.on('end', () => client.end());
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** Adds a rule; rules are tried in the order added, the first that matches and has shots left fires. */
  add(rule: FaultRule): this {
    this.rules.push({ ...rule, fired: 0, skipped: 0 });
    return this;
  }

  /** Removes every rule (faults already under way go on). */
  clear(): void {
    this.rules.length = 0;
  }

  /** How many requests for `METHOD path` reached the proxy. */
  count(method: string, path: string): number {
    return this.requests.get(`${method} ${path}`) ?? 0;
  }

  /** Faults fired in all. */
  get faults(): number {
    return this.totalFired;
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const t of this.timers) clearTimeout(t);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private pick(method: string, path: string): { rule: ActiveRule; fault: Fault } | undefined {
    if (this.totalFired >= this.maxFaults) return undefined;
    for (const rule of this.rules) {
      if (rule.method && rule.method !== method) continue;
      if (typeof rule.path === 'string' ? rule.path !== path : !rule.path.test(path)) continue;
      if (rule.fired >= (rule.times ?? 1)) continue;
      if (rule.skipped < (rule.skip ?? 0)) {
        rule.skipped++;
        return undefined;
      }
      return { rule, fault: typeof rule.fault === 'function' ? rule.fault(rule.fired) : rule.fault };
    }
    return undefined;
  }

  private count_(rule: ActiveRule, kind: string): void {
    rule.fired++;
    this.totalFired++;
    this.fired[kind] = (this.fired[kind] ?? 0) + 1;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    this.requests.set(`${method} ${path}`, this.count(method, path) + 1);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const requestBody = Buffer.concat(chunks);
    const picked = this.pick(method, path);
    // Websocket faults are for upgrades (rules with method `WS`); a plain request passes.
    const chosen = picked && (picked.fault.kind === 'cut-socket' || picked.fault.kind === 'refuse-upgrade') ? undefined : picked;
    const fault = chosen?.fault as Exclude<Fault, { kind: 'cut-socket' | 'refuse-upgrade' }> | undefined;
    const fire = () => chosen && this.count_(chosen.rule, fault!.kind);

    if (fault?.kind === 'cut-request') {
      fire();
      return void req.socket.destroy();
    }
    if (fault?.kind === 'echo-headers') {
      fire();
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ headers: req.headers }));
    }

    let upstream: IncomingMessage;
    try {
      upstream = await this.forward(req, res, requestBody);
    } catch {
      return void req.socket.destroy();
    }

    if (!fault || fault.kind === 'cut-body') return this.pass(upstream, res, fault, fire);
    // The rest let the participant answer in full first: the request took effect there.
    const body = await readAll(upstream);
    fire();
    switch (fault.kind) {
      case 'drop':
        return void req.socket.destroy();
      case 'hang': {
        // A client that gives up on the hung answer closes its connection: counted (not the proxy's own release).
        let released = false;
        req.socket.once('close', () => {
          if (!this.closing && !released) this.abandoned++;
        });
        const t = setTimeout(() => {
          this.timers.delete(t);
          released = true;
          req.socket.destroy();
        }, this.maxHangMs);
        this.timers.add(t);
        return;
      }
      case 'answer':
        res.writeHead(fault.status, { 'content-type': fault.contentType ?? 'text/plain; charset=UTF-8', ...fault.headers });
        return void res.end(fault.body ?? '');
      case 'rewrite-json': {
        let request: unknown;
        try {
          request = requestBody.length > 0 ? JSON.parse(requestBody.toString('utf8')) : undefined;
        } catch {
          request = undefined;
        }
        const rewritten = JSON.stringify(fault.rewrite(JSON.parse(body.toString('utf8')), request));
        res.writeHead(upstream.statusCode ?? 200, { 'content-type': 'application/json' });
        return void res.end(rewritten);
      }
      case 'plant': {
        const status = upstream.statusCode ?? 502;
        // The participant's own headers (a package's hash among them), the body's length aside.
        const headers = { ...upstream.headers };
        delete headers['content-length'];
        delete headers['transfer-encoding'];
        delete headers.connection;
        const contentType = String(headers['content-type'] ?? 'text/plain');
        let planted: string | Buffer;
        try {
          planted = JSON.stringify(plantIn(JSON.parse(body.toString('utf8')), fault.secret, fault.mode));
        } catch {
          // Bytes (a package's archive) have no text to quote a secret in, unless it goes everywhere.
          const bytes = /octet-stream|zip/.test(contentType);
          planted = !bytes ? `${body.toString('utf8')} ${fault.secret}` : fault.mode === 'everywhere' ? Buffer.concat([body, Buffer.from(` ${fault.secret}`)]) : body;
        }
        res.writeHead(status, headers);
        return void res.end(planted);
      }
      case 'quote-authorization': {
        const status = upstream.statusCode ?? 502;
        const contentType = upstream.headers['content-type'] ?? 'text/plain';
        res.writeHead(status, { 'content-type': contentType });
        return void res.end(status < 400 ? body : quoteAuthorization(body.toString('utf8'), `Authorization: ${req.headers.authorization ?? '(none)'}`));
      }
    }
  }

  /** Passes the participant's answer through as it streams, cut after `afterBytes` of body for a cut-body fault. */
  private pass(upstream: IncomingMessage, res: ServerResponse, fault: Extract<Fault, { kind: 'cut-body' }> | undefined, fire: () => void): void {
    const headers = { ...upstream.headers };
    delete headers['content-length'];
    delete headers['transfer-encoding'];
    delete headers.connection;
    res.writeHead(upstream.statusCode ?? 502, headers);
    let sent = 0;
    upstream.on('data', (chunk: Buffer) => {
      if (fault && sent + chunk.length > fault.afterBytes) {
        res.write(chunk.subarray(0, Math.max(0, fault.afterBytes - sent)));
        fire();
        fault = undefined;
        upstream.destroy();
        // Let the partial write go out before the cut.
        setImmediate(() => res.socket?.destroy());
        return;
      }
      sent += chunk.length;
      res.write(chunk);
    });
    upstream.on('end', () => res.end());
    upstream.on('error', () => res.socket?.destroy());
    res.on('close', () => upstream.destroy());
  }

  private forward(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: this.target.host, 'content-length': String(body.length) };
      delete headers['transfer-encoding'];
      const up = http.request({ host: this.target.hostname, port: this.target.port, method: req.method, path: req.url, headers, agent: false }, resolve);
      up.on('error', reject);
      // A client that gives up ends the participant's side too (a long poll must not outlive it).
      res.once('close', () => up.destroy());
      up.end(body);
    });
  }
}

/** A started proxy in front of `target`. */
export async function startFaultProxy(target: string, o: FaultProxyOptions = {}): Promise<FaultProxy> {
  const proxy = new FaultProxy(target, o);
  await proxy.start();
  return proxy;
}

/** The JSON fields that carry free text (Canton's error body, a completion's status, a transaction's workflow id, …): `plant` appends to them in either mode. */
const PLANTED_TEXT_FIELDS: ReadonlySet<string> = new Set(['cause', 'message', 'errorMessage', 'description', 'workflowId', 'synchronizerAlias', 'displayName']);

/** `secret` planted in a JSON value (see the `plant` fault). */
function plantIn(value: unknown, secret: string, mode: 'beside' | 'everywhere', key?: string): unknown {
  if (typeof value === 'string') return mode === 'everywhere' || (key !== undefined && PLANTED_TEXT_FIELDS.has(key)) ? `${value} ${secret}` : value;
  if (Array.isArray(value)) return value.map((v) => plantIn(v, secret, mode));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = plantIn(v, secret, mode, k);
  // A field no decoder knows: passed on by whatever keeps the raw object.
  out.plantedNote = `note ${secret}`;
  return out;
}

/** An error body with `quote` in it: in a JSON body's `cause` (Canton's error shape), else at its end. */
function quoteAuthorization(body: string, quote: string): string {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    if (json && typeof json === 'object' && typeof json.cause === 'string') return JSON.stringify({ ...json, cause: `${json.cause} (the request had ${quote})` });
  } catch {
    // not JSON: appended below
  }
  return `${body}\n(the request had ${quote})`;
}

async function readAll(s: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------- rewrites that break the protocol

/** The list in an answer: a bare array (`/v2/updates`) or the `updates` of a page. */
function listOf(body: unknown): { get(): unknown[]; set(l: unknown[]): unknown } {
  if (Array.isArray(body)) return { get: () => body, set: (l) => l };
  const o = body as { updates?: unknown[] };
  return { get: () => o.updates ?? [], set: (l) => ({ ...o, updates: l }) };
}

/** Repeats the list `times` times over (offsets go back at each repeat). */
export function repeatElements(times = 2): (body: unknown) => unknown {
  return (body) => {
    const l = listOf(body);
    return l.set(Array.from({ length: times }, () => l.get()).flat());
  };
}

/** Reverses the list (offsets go the wrong way). */
export function reverseElements(): (body: unknown) => unknown {
  return (body) => {
    const l = listOf(body);
    return l.set([...l.get()].reverse());
  };
}

/** Answers a page with the `nextPageToken` equal to the `pageToken` it was sent (on the first page: keeps the participant's). */
export function repeatPageToken(): (body: unknown, request: unknown) => unknown {
  return (body, request) => {
    const sent = (request as { pageToken?: string } | undefined)?.pageToken;
    return sent ? { ...(body as object), nextPageToken: sent } : body;
  };
}
