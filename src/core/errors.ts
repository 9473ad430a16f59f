/**
 * Typed errors of the core. Callers branch on the class (or `kind`) and read the data they carry;
 * nothing anywhere compares message text. Every error has a one-line `hint` for people.
 */
import type { JsCantonError } from './models/wire';
import { ErrorCategory, hintForCode, isRetryableCategory } from './errorCatalog';
import { shortVersion } from './versions';
import type { CompatibilityFinding } from './compat/report';
import { REFUSED_REQUEST_HINT } from './compat/wording';

export type LedgerErrorKind =
  | 'canton'
  | 'auth'
  | 'http'
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'invalid-request'
  | 'protocol'
  | 'unsupported'
  | 'incompatible'
  | 'not-served'
  | 'token-withheld'
  | 'redirected'
  | 'websocket-unavailable'
  | 'stream-stalled'
  | 'package-decode';

/** Where a request failed, when it is known: the method and the path (never the full URL with credentials). */
export interface RequestInfo {
  method: string;
  path: string;
}

export abstract class LedgerError extends Error {
  abstract readonly kind: LedgerErrorKind;
  /** One line for people: what to do about it. */
  abstract readonly hint: string;
  readonly request?: RequestInfo;

  constructor(message: string, request?: RequestInfo, options?: { cause?: unknown }) {
    super(message, options);
    this.request = request;
  }
}

/** Strips the `ErrorResource(…)` wrapper that gRPC-origin resource keys carry (`ErrorResource(CONTRACT_ID)`). */
export function normaliseResourceKey(key: string): string {
  const m = /^ErrorResource\((.*)\)$/.exec(key);
  return m ? m[1] : key;
}

/** A JsCantonError body from the participant (any status but 401/403, which are {@link AuthError}). */
export class CantonApiError extends LedgerError {
  readonly kind = 'canton' as const;
  readonly status: number;
  readonly code: string;
  readonly cause_: string;
  readonly category: number;
  readonly grpcCode?: number;
  readonly correlationId?: string;
  readonly traceId?: string;
  readonly context: Readonly<Record<string, string>>;
  /** Resources with normalised keys, e.g. `[['CONTRACT_ID', '00ab…']]`. */
  readonly resources: ReadonlyArray<readonly [string, string]>;
  readonly retryable: boolean;
  readonly retryInfo?: string;
  readonly definiteAnswer?: boolean;
  readonly body: JsCantonError;

  constructor(status: number, body: JsCantonError, request?: RequestInfo) {
    super(`${body.code}: ${body.cause}`, request);
    this.status = status;
    this.body = body;
    this.code = body.code;
    this.cause_ = body.cause;
    this.category = body.errorCategory;
    this.grpcCode = body.grpcCodeValue ?? undefined;
    this.correlationId = body.correlationId || undefined;
    this.traceId = body.traceId || undefined;
    this.context = body.context ?? {};
    this.resources = (body.resources ?? []).map(([k, v]) => [normaliseResourceKey(k), v] as const);
    this.retryInfo = body.retryInfo || undefined;
    this.retryable = Boolean(this.retryInfo) || isRetryableCategory(body.errorCategory);
    const definite = body.definiteAnswer ?? parseBool(body.context?.definite_answer);
    this.definiteAnswer = definite;
  }

  get hint(): string {
    return hintForCode(this.code) ?? (this.retryable ? 'A transient failure: retrying may succeed.' : 'See the cause for details.');
  }

  /** The first resource value with this (normalised) key. */
  resource(key: string): string | undefined {
    return this.resources.find(([k]) => k === key)?.[1];
  }
}

/** 413: the result has more elements than the participant's `http-list-max-elements-limit`. */
export class ListTooLargeError extends CantonApiError {
  /** The participant's cap, parsed from the cause when it names it. */
  readonly cap?: number;
  constructor(status: number, body: JsCantonError, request?: RequestInfo) {
    super(status, body, request);
    const m = /node limit \((\d+)\)/.exec(body.cause ?? '');
    this.cap = m ? Number(m[1]) : undefined;
  }
}

/**
 * A continuation page refused as an invalid argument: its request is the one the page before was
 * answered for, but with the page token, so the token is what the participant refused (as 3.7's
 * active contracts service refuses the tokens of earlier versions after an upgrade). Canton answers
 * INVALID_ARGUMENT (its request-validation error), without a code of its own for the token.
 */
export class PageTokenRefusedError extends CantonApiError {
  constructor(
    status: number,
    body: JsCantonError,
    request: RequestInfo | undefined,
    /** The token refused. */
    readonly pageToken: string,
  ) {
    super(status, body, request);
  }

  /** Whether `e` is a refusal of the page token a continuation request carried. */
  static matches(e: unknown): e is CantonApiError {
    return e instanceof CantonApiError && e.code === 'INVALID_ARGUMENT';
  }
}

export type AuthFailure =
  /** 401: missing, malformed, expired or wrongly scoped token. */
  | 'unauthenticated'
  /** 403: the user lacks a right for the parties or the operation. */
  | 'permission-denied'
  /** 403 with `ledger_api_error: invalid token`: the token's user is unknown or deactivated. */
  | 'unknown-user'
  /** An empty token: refused before sending (Canton would answer a bare 400). */
  | 'empty-token'
  /** The identity provider refused the client credentials (OAuth2). */
  | 'idp-rejected'
  /** A token to mint has no audience: the connection names neither the participant id nor an audience. */
  | 'no-audience';

/** 401/403 (Canton redacts the body to `code: "NA"`), or a token we refused to send. */
export class AuthError extends LedgerError {
  readonly kind = 'auth' as const;
  readonly status: number;
  readonly failure: AuthFailure;
  readonly body?: JsCantonError;
  constructor(status: number, failure: AuthFailure, body?: JsCantonError, request?: RequestInfo) {
    super(AUTH_MESSAGES[failure] + ` (HTTP ${status})`, request);
    this.status = status;
    this.failure = failure;
    this.body = body;
  }
  get hint(): string {
    return AUTH_HINTS[this.failure];
  }
}
/**
 * The token is restricted to API areas (Canton 3.8) and the participant's own description says this
 * operation needs a scope it does not carry: not sent, as the participant would refuse it
 * (PERMISSION_DENIED, redacted). Carries the area, what the operation needs and what the token has.
 */
export class TokenScopeError extends AuthError {
  readonly area: string;
  /** Alternatives: all the scopes of any one of them would do. */
  readonly needs: readonly (readonly string[])[];
  readonly tokenScopes: readonly string[];
  constructor(coverage: { area: string; method: string; path: string; needs: readonly (readonly string[])[]; tokenScopes: readonly string[] }) {
    super(403, 'permission-denied', undefined, { method: coverage.method, path: coverage.path });
    this.area = coverage.area;
    this.needs = coverage.needs;
    this.tokenScopes = coverage.tokenScopes;
    const needs = coverage.needs.map((a) => a.join(' ')).join(' or ');
    this.message = `The token's scope (${coverage.tokenScopes.join(' ') || 'none'}) does not cover the API area "${coverage.area}" (${coverage.method} ${coverage.path} needs ${needs})`;
  }
  override get hint(): string {
    return `Use a token whose scope includes ${this.needs.map((a) => a.join(' ')).join(' or ')}, or one without area scopes: the participant refuses calls outside a token's areas.`;
  }
}
const AUTH_MESSAGES: Record<AuthFailure, string> = {
  unauthenticated: 'The participant rejected the token',
  'permission-denied': 'The user is not allowed to do this',
  'unknown-user': 'The token names a user the participant does not know',
  'empty-token': 'The token is empty',
  'idp-rejected': 'The identity provider rejected the client credentials',
  'no-audience': 'No audience for the token: the connection names neither the participant id nor an audience',
};
const AUTH_HINTS: Record<AuthFailure, string> = {
  unauthenticated: 'Update the token: it may be missing, expired (participants accept at most 5 minutes by default), or have the wrong audience or scope.',
  'permission-denied': 'Grant the user the needed right (ActAs/ReadAs for the parties, or participant admin), or use another user.',
  'unknown-user': 'Create the user on the participant (POST /v2/users) or use a token whose sub is an existing, active user.',
  'empty-token': 'Set a token for this connection, or choose "no auth" for a sandbox without authentication.',
  'idp-rejected': 'Check the token URL, client id, client secret, scope and audience of the connection.',
  'no-audience':
    "Set the connection's participant id (Edit Connection; the Canton console prints it with participant1.id, the demo participant at start), or the target audience the participant is configured with. Canton 3.7 refuses tokens without an audience.",
};

/** A non-JSON error body (pekko's text/plain decode errors, an HTML page from a proxy, …). */
export class HttpError extends LedgerError {
  readonly kind = 'http' as const;
  readonly status: number;
  readonly contentType?: string;
  /** The start of the body, already redacted. */
  readonly bodyText: string;
  constructor(status: number, bodyText: string, contentType?: string, request?: RequestInfo) {
    super(`HTTP ${status}${bodyText ? `: ${firstLine(bodyText)}` : ''}`, request);
    this.status = status;
    this.bodyText = bodyText;
    this.contentType = contentType;
  }
  get hint(): string {
    if (this.status === 400) return 'The participant could not decode the request body: check field names and types.';
    if (this.status === 404) return 'The participant does not serve this path: check the URL and its path prefix, or the participant version.';
    if (this.status === 502 || this.status === 503 || this.status === 504) return 'The participant or a proxy in front of it is unavailable or timed out: retry later.';
    if (/html/i.test(this.contentType ?? '')) return 'An HTML page came back: the URL probably points at a proxy or web server, not the JSON Ledger API.';
    return 'Unexpected HTTP response: see the log for the body.';
  }
}

/** Could not reach the participant (refused, reset, DNS, TLS). */
export class NetworkError extends LedgerError {
  readonly kind = 'network' as const;
  /** The system error code, e.g. `ECONNREFUSED`. */
  readonly code?: string;
  /** True when the request may have reached the server before the failure (its outcome is unknown). */
  readonly requestSent: boolean;
  constructor(message: string, code: string | undefined, requestSent: boolean, request?: RequestInfo, cause?: unknown) {
    super(message, request, { cause });
    this.code = code;
    this.requestSent = requestSent;
  }
  get hint(): string {
    switch (this.code) {
      case 'ECONNREFUSED':
        return 'Nothing listens at that address: is the participant running, and are host, port and path prefix right?';
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return 'The host name does not resolve: check the connection URL.';
      case 'ECONNRESET':
      case 'EPIPE':
        return 'The connection was dropped: retry; if it repeats, check proxies between you and the participant.';
      default:
        return /CERT|SSL|TLS/i.test(this.code ?? '') ? 'TLS failed: check the certificate and that the URL scheme (http/https) is right.' : 'Check the connection URL and the network.';
    }
  }
}

/** The client's own deadline passed. If the request was sent, its outcome is unknown. */
export class TimeoutError extends LedgerError {
  readonly kind = 'timeout' as const;
  readonly timeoutMs: number;
  readonly requestSent: boolean;
  constructor(timeoutMs: number, requestSent: boolean, request?: RequestInfo) {
    super(`No answer within ${timeoutMs} ms`, request);
    this.timeoutMs = timeoutMs;
    this.requestSent = requestSent;
  }
  get hint(): string {
    return 'The participant did not answer in time; raise the timeout for slow operations, or check that it is healthy.';
  }
}

/** The caller aborted (cancel button, disposal). Not a failure to show. */
export class CancelledError extends LedgerError {
  readonly kind = 'cancelled' as const;
  readonly requestSent: boolean;
  constructor(requestSent = false, request?: RequestInfo) {
    super('Cancelled', request);
    this.requestSent = requestSent;
  }
  get hint(): string {
    return 'Cancelled by the user.';
  }
}

/** The request was refused before sending: it would be rejected or is unsafe. */
export class RequestValidationError extends LedgerError {
  readonly kind = 'invalid-request' as const;
  /** The request field at fault, as a dotted path (`beginExclusive`, `updateFormat`). */
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
  get hint(): string {
    return `Fix ${this.field} and send again.`;
  }
}

/** What was wrong with an answer that breaks the protocol. */
export type ProtocolProblem =
  /** Not JSON, or not the JSON value the operation answers with (an empty body, `null`, a list for an object, …). */
  | 'unexpected-body'
  /** A field is missing or has the wrong type (`field` names it). */
  | 'bad-field'
  /** The offsets of a list do not increase (decrease when descending), or lie outside the range asked for. */
  | 'offset-order'
  /** The participant answered with the page token it was sent: following it would never end. */
  | 'repeated-page-token'
  /**
   * A page that cannot be the last one ends the paging: a page that showed more is followed by an
   * empty one, or a full page carries no token where the next page needs one.
   */
  | 'page-ended-early'
  /** The answer is larger than the client's cap for answers it holds in memory. */
  | 'too-large'
  /** An error answer whose body was cut on its way (it ends before its JSON or its declared length does): what it said is unknown. */
  | 'incomplete-answer';

/** Data of a {@link ProtocolError}, for callers that act on it. */
export interface ProtocolDetail {
  problem: ProtocolProblem;
  /** Where in the answer, as a path (`[3].update.Transaction.value.offset`), when it is one field. */
  field?: string;
  /** The offsets that break the order: the earlier element's and the later one's. */
  offsets?: readonly [number, number];
  /** The cap, for `too-large`. */
  limitBytes?: number;
}

/** The response could not be decoded (bad JSON, unexpected shape) or breaks the protocol. */
export class ProtocolError extends LedgerError {
  readonly kind = 'protocol' as const;
  readonly problem: ProtocolProblem;
  readonly field?: string;
  readonly offsets?: readonly [number, number];
  readonly limitBytes?: number;
  constructor(message: string, request?: RequestInfo, cause?: unknown, detail: ProtocolDetail = { problem: 'unexpected-body' }) {
    super(message, request, { cause });
    this.problem = detail.problem;
    this.field = detail.field;
    this.offsets = detail.offsets;
    this.limitBytes = detail.limitBytes;
  }
  get hint(): string {
    switch (this.problem) {
      case 'offset-order':
      case 'repeated-page-token':
      case 'page-ended-early':
        return 'The participant (or a proxy in front of it) broke the Ledger API protocol; reading stopped here rather than show repeated or missing updates. Report it to its operator.';
      case 'too-large':
        return 'Raise the cap on answers held in memory (CLI: --max-response-mb) if the answer is expected to be this large.';
      case 'incomplete-answer':
        return 'The answer was cut on its way (a dropped connection, or a proxy that cut it), so what the participant said is unknown: retry; if it repeats, check the proxies between you and the participant.';
      default:
        return 'The participant answered with something this client does not understand: is the URL a JSON Ledger API v2?';
    }
  }
}

/**
 * The participant redirected to another origin. Not followed: the token is for the configured
 * participant only, and a participant answers API calls itself.
 */
export class RedirectedError extends LedgerError {
  readonly kind = 'redirected' as const;
  readonly status: number;
  /** Where it pointed (scheme, host and port only). */
  readonly origin: string;
  constructor(status: number, origin: string, tokenWithheld: boolean, request?: RequestInfo) {
    super(`The participant redirected to ${origin} (HTTP ${status}); not followed${tokenWithheld ? ' with your token' : ''}`, request);
    this.status = status;
    this.origin = origin;
  }
  get hint(): string {
    return 'If that address is the participant, use it as the connection URL; otherwise check the proxy or load balancer in front of the participant.';
  }
}

/**
 * A websocket could not be opened: the participant (or a proxy in front of it) answered the upgrade
 * with something else, dropped the connection during the handshake, or did not answer in time. Not
 * an auth failure: a refused token is an {@link AuthError}.
 */
export class WebSocketUnavailableError extends LedgerError {
  readonly kind = 'websocket-unavailable' as const;
  /** The HTTP status answered instead of the upgrade (101), when there was an answer. */
  readonly status?: number;
  /** The system error code, when the connection failed during the handshake. */
  readonly code?: string;
  readonly timedOut: boolean;
  constructor(detail: { status?: number; code?: string; timedOut?: boolean }, request?: RequestInfo, cause?: unknown) {
    const why = detail.timedOut ? 'no answer to the upgrade in time' : detail.status !== undefined ? `HTTP ${detail.status} instead of the upgrade` : `the connection failed during the handshake${detail.code ? ` (${detail.code})` : ''}`;
    super(`The websocket could not be opened: ${why}`, request, { cause });
    this.status = detail.status;
    this.code = detail.code;
    this.timedOut = detail.timedOut ?? false;
  }
  get hint(): string {
    return 'The participant or a proxy in front of it does not pass websockets on (the Upgrade request): reads go over HTTP instead.';
  }
}

/**
 * An open update stream stopped delivering: the participant has an update after the stream's last
 * one that the stream did not send within the liveness interval (the socket itself stayed open).
 */
export class StreamStalledError extends LedgerError {
  readonly kind = 'stream-stalled' as const;
  /** The stream's last delivered offset, and an offset it should have delivered by now. */
  readonly deliveredUpTo: number;
  readonly missedOffset: number;
  readonly silentMs: number;
  constructor(deliveredUpTo: number, missedOffset: number, silentMs: number, request?: RequestInfo) {
    super(`The update stream stalled: nothing for ${Math.round(silentMs / 1000)} s, though the participant has an update at offset ${missedOffset} after its last one (${deliveredUpTo})`, request);
    this.deliveredUpTo = deliveredUpTo;
    this.missedOffset = missedOffset;
    this.silentMs = silentMs;
  }
  get hint(): string {
    return 'The socket stayed open but stopped carrying updates (a proxy or the participant holding it): following resumes on a new one from the last update received.';
  }
}

/** The participant's version does not have this operation: refused before sending. */
export class UnsupportedOperationError extends LedgerError {
  readonly kind = 'unsupported' as const;
  /** For people: "Package vetting". */
  readonly operation: string;
  /** The version the participant reported (`3.3.0-SNAPSHOT`). */
  readonly version: string;
  /** The operation's name in the version table (`updateVettedPackages`), when it has one. */
  readonly operationName?: string;
  constructor(operation: string, version: string, operationName?: string) {
    super(`${operation} is not available on Canton ${shortVersion(version)}`);
    this.operation = operation;
    this.version = version;
    this.operationName = operationName;
  }
  get hint(): string {
    return 'This Canton version does not have the operation: upgrade the participant, or use an operation this version has.';
  }
}

/**
 * The participant's own API description (`GET /docs/openapi`) says it would refuse this request:
 * refused before sending. `finding` is the compatibility report's finding, `message` its line.
 */
export class IncompatibleRequestError extends LedgerError {
  readonly kind = 'incompatible' as const;
  readonly finding: CompatibilityFinding;
  /** The version the participant reported. */
  readonly version: string;
  constructor(finding: CompatibilityFinding, version: string) {
    super(finding.line, { method: finding.method, path: finding.path });
    this.finding = finding;
    this.version = version;
  }
  get hint(): string {
    return REFUSED_REQUEST_HINT;
  }
}

/**
 * A plain 404 from a path the participant's version has: something between the client and the
 * participant does not pass it on. Usually the URL misses the participant's path prefix.
 */
export class NotServedError extends LedgerError {
  readonly kind = 'not-served' as const;
  readonly method: string;
  readonly path: string;
  /** The version the participant reported, when it got that far. */
  readonly version?: string;
  constructor(method: string, path: string, version?: string, cause?: unknown) {
    super(`This participant does not serve ${method} ${path}${version ? `, although Canton ${shortVersion(version)} has it` : ''}`, { method, path }, { cause });
    this.method = method;
    this.path = path;
    this.version = version;
  }
  get hint(): string {
    return 'Check the connection URL: the usual cause is a missing or wrong path prefix (http-ledger-api.path-prefix), or a proxy that does not pass the path on.';
  }
}

export type WithheldReason = 'untrusted-url' | 'insecure-http';

/** The user declined to send a stored token to this URL (from workspace settings, or plain http). */
export class TokenWithheldError extends LedgerError {
  readonly kind = 'token-withheld' as const;
  readonly reason: WithheldReason;
  readonly url: string;
  constructor(reason: WithheldReason, url: string) {
    super(reason === 'untrusted-url' ? `The token was not sent to ${url}: its URL comes from workspace settings and was not confirmed` : `The token was not sent over unencrypted http to ${url}`);
    this.reason = reason;
    this.url = url;
  }
  get hint(): string {
    return this.reason === 'untrusted-url' ? 'Confirm the URL when asked, or add the connection to your own settings.' : 'Use https for participants that are not on this machine.';
  }
}

/** Which part of a Daml package could not be read. */
export type LfDecodeStage =
  /** The DAR (zip) or its manifest. */
  | 'dar'
  /** The `Archive` wrapper of a `.dalf`. */
  | 'archive'
  /** `sha256(payload)` differs from the archive's hash (or the id it was fetched by). */
  | 'hash'
  /** The `ArchivePayload` or the Daml-LF `Package` inside it. */
  | 'package'
  /** A Daml-LF major version this decoder does not read (LF 1). */
  | 'unsupported-version';

/** A Daml package (DAR, `.dalf` or the bytes `GET /v2/packages/{id}` serves) could not be decoded. */
export class LfDecodeError extends LedgerError {
  readonly kind = 'package-decode' as const;
  readonly stage: LfDecodeStage;
  /** The package concerned, when known. */
  readonly packageId?: string;
  /** Where in the package, e.g. `module Splice.Amulet, template Amulet`, when known. */
  readonly location?: string;
  constructor(stage: LfDecodeStage, detail: string, packageId?: string, location?: string, cause?: unknown) {
    super(`Cannot read Daml package${packageId ? ` ${packageId}` : ''}${location ? ` (${location})` : ''}: ${detail}`, undefined, { cause });
    this.stage = stage;
    this.packageId = packageId;
    this.location = location;
  }
  get hint(): string {
    return this.stage === 'unsupported-version'
      ? 'Only Daml-LF 2 packages (Canton 3) can be read.'
      : 'The package bytes are damaged or not a Daml-LF package: fetch or build it again.';
  }
}

/**
 * True when a command submission may or may not have been executed: the request went out and no
 * definite answer came back. Such a submission must be retried only with the same commandId.
 */
export function isOutcomeUnknown(err: unknown): boolean {
  if (err instanceof TimeoutError || err instanceof NetworkError || err instanceof CancelledError) return err.requestSent;
  if (err instanceof CantonApiError) {
    if (err.definiteAnswer === true) return false;
    return err.category === ErrorCategory.DeadlineExceededRequestStateUnknown || err.status === 504;
  }
  if (err instanceof HttpError) return err.status === 502 || err.status === 503 || err.status === 504;
  // An answer that cannot be read (a broken or unexpected body after a success status): the
  // participant may well have executed the command.
  if (err instanceof ProtocolError) return true;
  return false;
}

function parseBool(s: string | undefined): boolean | undefined {
  return s === 'true' ? true : s === 'false' ? false : undefined;
}

function firstLine(s: string): string {
  const line = s.split(/\r?\n/, 1)[0];
  return line.length > 200 ? line.slice(0, 200) + '…' : line;
}

/**
 * Each error's `name` is its class's name, set on the prototype from these keys: a minifier renames
 * classes but not property keys, so logs still read "NetworkError ECONNRESET", not "tt ECONNRESET".
 */
const ERROR_CLASSES = {
  CantonApiError,
  PageTokenRefusedError,
  ListTooLargeError,
  AuthError,
  TokenScopeError,
  HttpError,
  NetworkError,
  TimeoutError,
  CancelledError,
  RequestValidationError,
  ProtocolError,
  RedirectedError,
  WebSocketUnavailableError,
  StreamStalledError,
  UnsupportedOperationError,
  IncompatibleRequestError,
  NotServedError,
  TokenWithheldError,
  LfDecodeError,
};
for (const [name, errorClass] of Object.entries(ERROR_CLASSES)) Object.defineProperty(errorClass.prototype, 'name', { value: name, writable: true, configurable: true });
