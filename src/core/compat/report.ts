/**
 * The compatibility report: what a participant's own API description says of every request the
 * extension and the CLI send (the catalogue). Plain data (it travels as `--json` and into the
 * editor's tooltips); its words are made in one place, `wording.ts`.
 */
import type { ApiLine } from '../versions';
import type { CataloguedOperation } from './catalogue';

export type FindingKind =
  /** The participant has no such path. */
  | 'endpoint-missing'
  /** It has the path, not with our method. */
  | 'method-missing'
  /** A body field it requires that we never send (error), or do not always send (warning). */
  | 'required-field'
  /** An enum value we send that it does not list. */
  | 'enum-value'
  /** A variant case we send that it does not have. */
  | 'unknown-case'
  /** A body field we send that it does not know: ignored (unknown fields are, in Canton's decoders). */
  | 'unknown-field'
  /** A query parameter we send that it does not know: ignored. */
  | 'unknown-query-parameter'
  /** It takes another kind of body than we send (JSON, bytes). */
  | 'body-kind'
  /** An answer field a decoder relies on that it does not declare (or declares under another name). */
  | 'answer-field';

/** `error`: requests are refused (all of the operation's, or those that use the value); `warning`: sent, but something is lost. */
export type FindingSeverity = 'error' | 'warning';

export interface CompatibilityFinding {
  kind: FindingKind;
  severity: FindingSeverity;
  operation: CataloguedOperation;
  method: string;
  /** The endpoint's path as the version table writes it. */
  path: string;
  /** The body, query or answer position: `GetUpdatesRequest.updateFormat.includeTransactions.transactionShape`, `?limit`. */
  field?: string;
  /** The enum value or variant case (enum-value, unknown-case). */
  value?: string;
  /** What the participant has there instead (its enum values, cases or methods). */
  known?: string[];
  /** required-field: some of our requests carry it (those are accepted). */
  sentSometimes?: boolean;
  /** answer-field: the member the participant declares in its place, when one looks like it. */
  renamedTo?: string;
  /** The report's line for it. */
  line: string;
}

export type OperationStatus =
  /** Nothing found. */
  | 'works'
  /** Sent, but something is ignored or not declared in the answer. */
  | 'limited'
  /** Some of its requests are refused (an enum value, a case, a field sent only sometimes). */
  | 'partly-refused'
  /** Every request is refused: not sent. */
  | 'refused'
  /** The version table says this version does not have it (the client says so without sending). */
  | 'not-in-version'
  /** Not in the OpenAPI document's scope (the websocket channels are in `/docs/asyncapi`). */
  | 'not-checked';

export interface OperationCompatibility {
  operation: CataloguedOperation;
  /** For people: "Listing updates". */
  title: string;
  /** The endpoint the version has for it (absent when not in the version). */
  method?: string;
  path?: string;
  status: OperationStatus;
  findings: CompatibilityFinding[];
}

/** Why only the version table was used: the participant served no usable description. */
export type TableOnlyReason =
  /** `GET /docs/openapi` answered 404 (or 405): an older or proxied participant. */
  | 'not-served'
  /** It refused (401, 403, another status). */
  | 'refused'
  /** It answered with something that is not an OpenAPI document. */
  | 'unreadable'
  /** It did not answer (network, deadline). */
  | 'unreachable';

export type CompatibilitySource =
  | { kind: 'participant-spec'; /** The document's `info.version`. */ documentVersion?: string }
  | { kind: 'version-table'; reason: TableOnlyReason; /** The status or error, for the log. */ detail?: string };

export type ReportSeverity = 'ok' | 'warning' | 'error';

export interface CompatibilityReport {
  /** As the participant reported it. */
  version: string;
  /** The release line of the version table it falls in. */
  releaseLine: ApiLine;
  /** The version is newer than (or unknown to) the version table: treated as its newest line. */
  versionNotice?: string;
  source: CompatibilitySource;
  /** The worst finding; `warning` too for a version the table does not know, checked by the table only. */
  severity: ReportSeverity;
  operations: OperationCompatibility[];
  /** Endpoints the participant has that the extension and the CLI do not use yet. */
  unused: { method: string; path: string }[];
  /** One line: the version, how it was checked, and the count of problems. */
  summary: string;
}

export function findingsOf(report: CompatibilityReport): CompatibilityFinding[] {
  return report.operations.flatMap((o) => o.findings);
}

/** The status of an operation from its findings. */
export function statusOf(findings: readonly CompatibilityFinding[]): OperationStatus {
  if (findings.some(refusesEveryRequest)) return 'refused';
  if (findings.some((f) => f.severity === 'error')) return 'partly-refused';
  return findings.length > 0 ? 'limited' : 'works';
}

/** A finding that refuses every request of its operation (the others refuse only the requests that use what it names). */
export function refusesEveryRequest(f: CompatibilityFinding): boolean {
  return f.kind === 'endpoint-missing' || f.kind === 'method-missing' || f.kind === 'body-kind' || (f.kind === 'required-field' && f.severity === 'error');
}

export function severityOf(findings: readonly CompatibilityFinding[], tableOnlyForUnknownVersion: boolean): ReportSeverity {
  if (findings.some((f) => f.severity === 'error')) return 'error';
  return findings.length > 0 || tableOnlyForUnknownVersion ? 'warning' : 'ok';
}
