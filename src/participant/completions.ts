/**
 * The command completions of the demo participant: `POST /v2/commands/completions` (every release)
 * and `POST /v2/commands/command-completions` (from 3.5.7), HTTP lists with the same `limit` and
 * `stream_idle_timeout_ms` rules as the updates list.
 *
 * What gets a completion follows Canton: a submission that reached the synchronization layer, i.e.
 * a committed transaction (status absent) or a rejection found there — the demo's is DUPLICATE_COMMAND
 * (deduplication runs in the sync protocol). A command that fails while it is interpreted (an unknown
 * or archived contract, missing authorization, unknown template or choice, bad arguments) is answered
 * to its submitter only and has no completion: `CommandSubmissionServiceImpl.evaluateAndSubmit`
 * (digital-asset/canton, ledger-api-core, 3.x) fails the call before anything is submitted.
 *
 * A rejection's status is rendered as Canton's JSON API renders a `google.rpc.Status`
 * (`GrpcStatusEncoderSpec`, ledger-json-api): `CODE(category,correlationId): cause` as the message, and
 * ErrorInfo (code as `reason`, the context as `metadata`), RequestInfo and one ResourceInfo per
 * resource as details, each as its protobuf bytes (`value`).
 */
import { normaliseResourceKey } from '../core/errors';
import type * as wire from '../core/models/wire';
import type { LedgerApiError } from './errors';
import { formatInstant, type Micros } from './time';

export interface CompletionRecord {
  offset: number;
  commandId: string;
  submissionId: string;
  userId: string;
  actAs: readonly string[];
  synchronizerId: string;
  recordTime: Micros;
  /** Set when the command committed. */
  updateId?: string;
  /** Set when it was rejected. */
  status?: wire.JsStatus;
  /** The deduplication period the submission was checked with (Canton reports it; 3.3's spec requires it). */
  deduplication: { kind: 'duration'; micros: number } | { kind: 'offset'; offset: number };
}

/** The gRPC status of a rejection, as the JSON API writes a completion's `status`. */
export function rejectionStatus(error: LedgerApiError, correlationId: string): wire.JsStatus {
  const metadata: Record<string, string> = { ...error.details.context, category: String(error.category), definite_answer: 'false' };
  const details: unknown[] = [
    // ErrorInfo { reason = 1, metadata = 3 (map entries: key = 1, value = 2) }
    detail('google.rpc.ErrorInfo', proto([str(1, error.code), ...Object.entries(metadata).map(([k, v]) => bytes(3, proto([str(1, k), str(2, v)])))])),
    // RequestInfo { request_id = 1 }
    detail('google.rpc.RequestInfo', proto([str(1, correlationId)])),
  ];
  for (const [key, value] of error.details.resources ?? []) {
    const type = normaliseResourceKey(key);
    // ResourceInfo { resource_type = 1, resource_name = 2 }
    details.push(detail('google.rpc.ResourceInfo', proto([str(1, type), str(2, value)])));
  }
  // `unknownFields`: 3.3's spec requires it on a status (its encoder wrote it on every message).
  const status = { code: error.grpcCode, message: `${error.code}(${error.category},${correlationId.slice(0, 8)}): ${error.causeText}`, details, unknownFields: { fields: {} } };
  return status;
}

/**
 * One detail as bytes only: Canton's encoder adds `valueDecoded` as an object, but every spec types it
 * a string (and 3.3's has no such field), so the demo sends what all of them allow; clients read the
 * bytes (the core does).
 */
function detail(type: string, value: Buffer): unknown {
  return { typeUrl: `type.googleapis.com/${type}`, value: value.toString('base64'), unknownFields: { fields: {} } };
}

/** Protobuf: a length-delimited field (strings, bytes and nested messages alike). */
function bytes(field: number, content: Buffer): Buffer {
  return Buffer.concat([varint(field * 8 + 2), varint(content.length), content]);
}
function str(field: number, value: string): Buffer {
  return bytes(field, Buffer.from(value, 'utf8'));
}
function proto(fields: Buffer[]): Buffer {
  return Buffer.concat(fields);
}
function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
}

export function completionJson(c: CompletionRecord): wire.Completion & { deduplicationPeriod: unknown } {
  return {
    commandId: c.commandId,
    status: c.status ?? null,
    updateId: c.updateId ?? '',
    userId: c.userId,
    actAs: [...c.actAs],
    submissionId: c.submissionId,
    deduplicationPeriod:
      c.deduplication.kind === 'duration'
        ? { DeduplicationDuration: { value: { seconds: Math.floor(c.deduplication.micros / 1_000_000), nanos: (c.deduplication.micros % 1_000_000) * 1000 } } }
        : { DeduplicationOffset: { value: c.deduplication.offset } },
    offset: c.offset,
    synchronizerTime: { synchronizerId: c.synchronizerId, recordTime: formatInstant(c.recordTime) },
    paidTrafficCost: null,
    transactionHash: null,
  };
}
