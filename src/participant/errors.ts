/**
 * The three ways the participant refuses a request, each rendered exactly as Canton's JSON API
 * does (NOTES §3): a JsCantonError with the status of its category, a redacted auth error, or a
 * plain-text 400 when the request could not even be decoded.
 */
import {
  ErrorCategory,
  KNOWN_ERROR_CODES,
  grpcCodeForCategory,
  httpStatusForGrpc,
  isRetryableCategory,
  type GrpcCode,
} from '../core/errorCatalog';
import type { JsCantonError } from '../core/models/wire';

function categoryOf(code: string): ErrorCategory {
  const category = KNOWN_ERROR_CODES[code]?.category;
  if (category === undefined) throw new Error(`demo participant: no category for error code ${code}`);
  return category;
}

export interface LedgerApiErrorDetails {
  /** Request-specific context keys, added after Canton's standard ones. */
  context?: Record<string, string>;
  /** `[key, value]` pairs, keys as Canton renders them (e.g. `ErrorResource(CONTRACT_ID)`). */
  resources?: [string, string][];
  correlationId?: string;
}

/** A Canton error code with its cause: becomes a JsCantonError body. */
export class LedgerApiError extends Error {
  readonly category: ErrorCategory;
  constructor(
    readonly code: string,
    readonly causeText: string,
    readonly details: LedgerApiErrorDetails = {},
  ) {
    super(`${code}: ${causeText}`);
    this.category = categoryOf(code);
  }

  get grpcCode(): GrpcCode {
    return grpcCodeForCategory(this.category);
  }

  get httpStatus(): number {
    return KNOWN_ERROR_CODES[this.code]?.httpStatus ?? httpStatusForGrpc(this.grpcCode);
  }
}

export function invalidArgument(reason: string, details?: LedgerApiErrorDetails): LedgerApiError {
  return new LedgerApiError('INVALID_ARGUMENT', `The submitted request has invalid arguments: ${reason}`, details);
}

export function missingField(field: string): LedgerApiError {
  return new LedgerApiError('MISSING_FIELD', `The submitted command is missing a mandatory field: ${field}`);
}

export function offsetAfterLedgerEnd(which: 'Begin' | 'End', offset: number, ledgerEnd: number): LedgerApiError {
  return new LedgerApiError('OFFSET_AFTER_LEDGER_END', `${which} offset (${offset}) is after ledger end (${ledgerEnd})`);
}

/** 401/403 with Canton's redacted body (`code: "NA"`), NOTES §3.3. */
export class AuthFailure extends Error {
  constructor(
    readonly httpStatus: 401 | 403,
    readonly context: Record<string, string> = {},
  ) {
    super(httpStatus === 401 ? 'unauthenticated' : 'permission denied');
  }

  static unauthenticated(): AuthFailure {
    return new AuthFailure(401);
  }
  static permissionDenied(): AuthFailure {
    return new AuthFailure(403);
  }
  /** The token is fine but names a user the participant does not know (or a deactivated one). */
  static invalidToken(): AuthFailure {
    return new AuthFailure(403, { ledger_api_error: 'invalid token' });
  }
}

/** A request that fails decoding: 400 with a text/plain body, not a JsCantonError (NOTES gotcha 9). */
export class DecodeFailure extends Error {
  constructor(readonly text: string) {
    super(text);
  }
  static body(reason: string): DecodeFailure {
    return new DecodeFailure(`Invalid value for: body (${reason})`);
  }
  static query(name: string): DecodeFailure {
    return new DecodeFailure(`Invalid value for: query parameter ${name}`);
  }
  static header(name: string): DecodeFailure {
    return new DecodeFailure(`Invalid value for: header ${name}`);
  }
}

export interface ErrorSite {
  traceId: string;
  /** The participant name as Canton puts it in `context.participant`. */
  participant: string;
}

export function cantonErrorBody(error: LedgerApiError, site: ErrorSite): JsCantonError {
  const retryable = isRetryableCategory(error.category);
  return {
    code: error.code,
    cause: error.causeText,
    correlationId: error.details.correlationId ?? null,
    traceId: site.traceId,
    context: {
      participant: site.participant,
      category: String(error.category),
      tid: site.traceId,
      definite_answer: 'false',
      ...error.details.context,
    },
    resources: error.details.resources ?? [],
    errorCategory: error.category,
    grpcCodeValue: error.grpcCode,
    retryInfo: retryable ? '1 second' : null,
    definiteAnswer: null,
  };
}

export function authErrorBody(failure: AuthFailure, site: ErrorSite): JsCantonError {
  return {
    code: 'NA',
    cause: 'A security-sensitive error has been received',
    correlationId: null,
    traceId: site.traceId,
    context: failure.context,
    resources: [],
    errorCategory: ErrorCategory.Unknown,
    grpcCodeValue: failure.httpStatus === 401 ? 16 : 7,
    retryInfo: null,
    definiteAnswer: null,
  };
}
