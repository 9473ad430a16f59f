/**
 * One shape for "why a command failed", whichever way the participant said it: a JsCantonError body
 * answering a submit, or the gRPC status of a completion (`Completion.status`), whose `details` carry
 * Canton's `ErrorInfo` (the code as `reason`, the error's context as `metadata`) and one `ResourceInfo`
 * per resource. The cause mapping (`errorCauses.ts`) and the explanation read this shape only.
 *
 * How the JSON API renders a status: Canton's `GrpcStatusEncoderSpec` (digital-asset/canton,
 * community/ledger/ledger-json-api, JsSchema.DirectScalaPbRwImplicits): each detail is
 * `{typeUrl, value: base64 of the message, valueDecoded: {…}}`; releases without `valueDecoded` send
 * the bytes only, so those are decoded here too. The message is `CODE(category,correlationId): cause`
 * (`ErrorCode.toMsg`; `ErrorCodeUtils.errorCategoryFromString` parses the same form).
 */
import { ErrorCategory, hintForCode } from './errorCatalog';
import { CantonApiError, normaliseResourceKey } from './errors';
import type { JsStatus } from './models/wire';

export interface CantonFailure {
  /** Canton's error code id (`CONTRACT_NOT_FOUND`); undefined when the status names none. */
  code?: string;
  /** Canton's error category (`ErrorCategory`), when known. */
  category?: number;
  /** The gRPC status code. */
  grpcCode?: number;
  /** What went wrong, in Canton's words (without the `CODE(…): ` prefix). */
  cause: string;
  correlationId?: string;
  /** The error's context: `ErrorInfo.metadata`, or the body's `context`. */
  metadata: Readonly<Record<string, string>>;
  /** Resources with normalised keys (`CONTRACT_ID`, `TEMPLATE_ID`, `PARTY`…). */
  resources: ReadonlyArray<readonly [string, string]>;
}

export function failureFromError(e: CantonApiError): CantonFailure {
  return {
    code: e.code,
    category: e.category,
    grpcCode: e.grpcCode,
    cause: e.cause_,
    correlationId: e.correlationId,
    metadata: e.context,
    resources: e.resources,
  };
}

const MESSAGE = /^([0-9A-Z_]+)\((\d+),([^)]*)\): ([\s\S]*)$/;

/** The failure a completion's status describes (undefined for a success: code 0 or no status). */
export function failureFromStatus(status: JsStatus | null | undefined): CantonFailure | undefined {
  if (!status || !status.code) return undefined;
  const metadata: Record<string, string> = {};
  const resources: Array<readonly [string, string]> = [];
  let reason: string | undefined;
  let requestId: string | undefined;
  for (const detail of Array.isArray(status.details) ? status.details : []) {
    const d = readDetail(detail);
    if (d?.kind === 'error-info') {
      reason ??= d.reason || undefined;
      Object.assign(metadata, d.metadata);
    } else if (d?.kind === 'resource-info') {
      resources.push([normaliseResourceKey(d.type), d.name]);
    } else if (d?.kind === 'request-info') {
      requestId = d.requestId || undefined;
    }
  }
  const m = MESSAGE.exec(status.message ?? '');
  const code = reason ?? m?.[1];
  const categoryText = metadata.category ?? m?.[2];
  const category = categoryText !== undefined && /^-?\d+$/.test(categoryText) ? Number(categoryText) : undefined;
  return {
    code,
    category,
    grpcCode: status.code,
    cause: m && (!reason || m[1] === reason) ? m[4] : (status.message ?? ''),
    correlationId: requestId ?? (m?.[3] || undefined),
    metadata,
    resources,
  };
}

type Detail =
  | { kind: 'error-info'; reason: string; metadata: Record<string, string> }
  | { kind: 'resource-info'; type: string; name: string }
  | { kind: 'request-info'; requestId: string };

/** One `details` entry: `valueDecoded` where the release sends it, else the protobuf bytes of `value`. */
function readDetail(detail: unknown): Detail | undefined {
  if (typeof detail !== 'object' || detail === null) return undefined;
  const d = detail as { typeUrl?: unknown; '@type'?: unknown; value?: unknown; valueDecoded?: unknown };
  const typeUrl = typeof d.typeUrl === 'string' ? d.typeUrl : typeof d['@type'] === 'string' ? d['@type'] : '';
  const type = typeUrl.slice(typeUrl.lastIndexOf('/') + 1);
  const decoded = typeof d.valueDecoded === 'object' && d.valueDecoded !== null ? (d.valueDecoded as Record<string, unknown>) : undefined;
  const fields = decoded ?? (typeof d.value === 'string' ? protoStrings(d.value) : undefined);
  if (!fields) return undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  switch (type) {
    case 'google.rpc.ErrorInfo': {
      const metadata = decoded ? stringRecord(decoded.metadata) : (fields.metadata as Record<string, string>);
      return { kind: 'error-info', reason: text(fields.reason), metadata };
    }
    case 'google.rpc.ResourceInfo':
      return { kind: 'resource-info', type: text(fields.resourceType), name: text(fields.resourceName) };
    case 'google.rpc.RequestInfo':
      return { kind: 'request-info', requestId: text(fields.requestId) };
    default:
      return undefined;
  }
}

function stringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

/**
 * The string fields of the three detail messages from their protobuf bytes (google/rpc/error_details.proto):
 * ErrorInfo {1 reason, 2 domain, 3 map metadata}, ResourceInfo {1 resource_type, 2 resource_name},
 * RequestInfo {1 request_id}. Field numbers are read per message type by name below; unknown fields
 * are skipped. Undefined when the bytes do not parse.
 */
function protoStrings(base64: string): Record<string, unknown> | undefined {
  let bytes: Buffer;
  try {
    bytes = Buffer.from(base64, 'base64');
  } catch {
    return undefined;
  }
  const fields = readFields(bytes);
  if (!fields) return undefined;
  const first = (n: number) => fields.find((f) => f.field === n)?.text ?? '';
  const metadata: Record<string, string> = {};
  for (const f of fields.filter((f) => f.field === 3 && f.bytes)) {
    const entry = readFields(f.bytes!);
    const key = entry?.find((e) => e.field === 1)?.text;
    if (key !== undefined) metadata[key] = entry?.find((e) => e.field === 2)?.text ?? '';
  }
  // The same positions mean different things per message; readDetail picks by type name.
  return { reason: first(1), resourceType: first(1), requestId: first(1), resourceName: first(2), metadata };
}

interface ProtoField {
  field: number;
  bytes?: Buffer;
  text?: string;
}

function readFields(buf: Buffer): ProtoField[] | undefined {
  const out: ProtoField[] = [];
  let i = 0;
  const varint = (): number | undefined => {
    let result = 0;
    let shift = 0;
    while (i < buf.length) {
      const b = buf[i++];
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
      if (shift > 49) return undefined;
    }
    return undefined;
  };
  while (i < buf.length) {
    const tag = varint();
    if (tag === undefined) return undefined;
    const field = Math.floor(tag / 8);
    switch (tag & 7) {
      case 0:
        if (varint() === undefined) return undefined;
        break;
      case 1:
        i += 8;
        break;
      case 5:
        i += 4;
        break;
      case 2: {
        const length = varint();
        if (length === undefined || i + length > buf.length) return undefined;
        const bytes = buf.subarray(i, i + length);
        i += length;
        out.push({ field, bytes, text: bytes.toString('utf8') });
        break;
      }
      default:
        return undefined;
    }
  }
  return i === buf.length ? out : undefined;
}

/** "InvalidGivenCurrentSystemStateResourceMissing (11)"; "unknown category" when the failure has none. */
export function categoryText(category: number | undefined): string {
  if (category === undefined) return 'unknown category';
  const name = ErrorCategory[category];
  return name ? `${name} (${category})` : `category ${category}`;
}

/** The catalog's advice for the failure's code, or what to do with a code the catalog does not know. */
export function failureHint(f: CantonFailure): string {
  const hint = f.code ? hintForCode(f.code) : undefined;
  if (hint) return hint;
  return f.code ? `${f.code} is not in this extension's catalog: the cause above is the participant's own explanation.` : 'The participant named no Canton error code: the message above is all it said.';
}

/** A failure a command file can carry as its own value: the body of the submit that failed. */
export function failureOf(e: unknown): CantonFailure | undefined {
  return e instanceof CantonApiError ? failureFromError(e) : undefined;
}

/** What a category says about a failure, for people (Canton's `ErrorCategory` documentation, shortened). */
export const CATEGORY_MEANING: Record<number, string> = {
  [ErrorCategory.TransientServerFailure]: 'The participant could not serve the request just then: retrying later may succeed.',
  [ErrorCategory.ContentionOnSharedResources]: 'Another command used the same contracts or keys at the same time: retrying may succeed.',
  [ErrorCategory.DeadlineExceededRequestStateUnknown]: 'The participant stopped waiting: whether the command executed is unknown.',
  [ErrorCategory.SystemInternalAssumptionViolated]: 'The participant failed internally; its log has the details under the trace id.',
  [ErrorCategory.SecurityAlert]: 'The request was refused as a security risk.',
  [ErrorCategory.AuthInterceptorInvalidAuthenticationCredentials]: 'The token was refused.',
  [ErrorCategory.InsufficientPermission]: 'The user lacks a right the command needs.',
  [ErrorCategory.InvalidIndependentOfSystemState]: 'The command itself is wrong: sending it again unchanged fails again.',
  [ErrorCategory.InvalidGivenCurrentSystemStateOther]: 'The command does not fit the ledger as it is now: it may succeed once the ledger changes.',
  [ErrorCategory.InvalidGivenCurrentSystemStateResourceExists]: 'Something the command would create exists already.',
  [ErrorCategory.InvalidGivenCurrentSystemStateResourceMissing]: 'Something the command uses does not exist, is no longer active, or is not visible to the submitting parties.',
  [ErrorCategory.InvalidGivenCurrentSystemStateSeekAfterEnd]: 'The request reads beyond the ledger end.',
  [ErrorCategory.BackgroundProcessDegradationWarning]: 'A background process of the participant is degraded.',
  [ErrorCategory.InternalUnsupportedOperation]: 'The participant does not support this operation.',
};

/** The command a failure belongs to, as far as it is known (a completion, or the file that was sent). */
