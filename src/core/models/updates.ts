/**
 * The update stream as the extension works with it: one discriminated union per variant, with
 * absent values (missing, null, "" or []) normalised to `undefined`/`[]`, variant wrappers removed,
 * and the original wire object kept as `raw` for the JSON views.
 */
import type * as wire from './wire';

export interface CreatedEvent {
  kind: 'created';
  offset: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  packageName: string;
  createArgument: unknown;
  /** The contract's key, when its template has one (Daml-LF 2.3 packages on Canton 3.6). */
  contractKey?: unknown;
  /** The key's hash (3.5+), base64. */
  contractKeyHash?: string;
  createdAt: string;
  signatories: string[];
  observers: string[];
  witnessParties: string[];
  interfaceViews: wire.JsInterfaceView[];
  createdEventBlob?: string;
  representativePackageId?: string;
  acsDelta?: boolean;
  raw: wire.CreatedEvent;
}

export interface ArchivedEvent {
  kind: 'archived';
  offset: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  packageName: string;
  witnessParties: string[];
  implementedInterfaces: string[];
  raw: wire.ArchivedEvent;
}

export interface ExercisedEvent {
  kind: 'exercised';
  offset: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  interfaceId?: string;
  packageName: string;
  choice: string;
  choiceArgument: unknown;
  actingParties: string[];
  consuming: boolean;
  witnessParties: string[];
  lastDescendantNodeId: number;
  exerciseResult?: unknown;
  implementedInterfaces: string[];
  acsDelta?: boolean;
  raw: wire.ExercisedEvent;
}

export type TransactionEvent = CreatedEvent | ArchivedEvent | ExercisedEvent;

export interface Transaction {
  kind: 'transaction';
  offset: number;
  updateId: string;
  commandId?: string;
  workflowId?: string;
  effectiveAt: string;
  recordTime: string;
  synchronizerId: string;
  events: TransactionEvent[];
  traceParent?: string;
  externalTransactionHash?: string;
  /** 3.6: the hash an external party signed (what `update-by-hash` looks up). */
  transactionHash?: string;
  paidTrafficCost?: number;
  raw: wire.JsTransaction;
}

export interface AssignedEvent {
  kind: 'assigned';
  reassignmentId?: string;
  source: string;
  target: string;
  submitter?: string;
  reassignmentCounter: number;
  createdEvent: CreatedEvent;
  raw: wire.JsAssignmentEvent;
}

export interface UnassignedEvent {
  kind: 'unassigned';
  reassignmentId?: string;
  contractId: string;
  templateId: string;
  packageName: string;
  source: string;
  target: string;
  submitter?: string;
  reassignmentCounter: number;
  assignmentExclusivity?: string;
  witnessParties: string[];
  offset: number;
  nodeId: number;
  raw: wire.UnassignedEvent;
}

export type ReassignmentEvent = AssignedEvent | UnassignedEvent;

export interface Reassignment {
  kind: 'reassignment';
  offset: number;
  updateId: string;
  commandId?: string;
  workflowId?: string;
  recordTime: string;
  synchronizerId?: string;
  events: ReassignmentEvent[];
  paidTrafficCost?: number;
  raw: wire.JsReassignment;
}

export type ParticipantAuthorizationChange = 'added' | 'changed' | 'revoked' | 'onboarding';

export interface TopologyEvent {
  kind: 'participant-authorization';
  change: ParticipantAuthorizationChange;
  partyId: string;
  participantId: string;
  /** Short permission name (`submission`, `confirmation`, `observation`); absent for revocations. */
  permission?: string;
}

export interface TopologyTransaction {
  kind: 'topology';
  offset: number;
  updateId: string;
  synchronizerId: string;
  recordTime: string;
  events: TopologyEvent[];
  raw: wire.JsTopologyTransaction;
}

export interface OffsetCheckpoint {
  kind: 'checkpoint';
  offset: number;
  synchronizerTimes: wire.SynchronizerTime[];
  raw: wire.OffsetCheckpoint;
}

/** An update variant this client does not know (a newer participant); kept, not dropped. */
export interface UnknownUpdate {
  kind: 'unknown';
  /** The variant name, e.g. a future `Foo` of `{"Foo": {"value": …}}`. */
  variant: string;
  offset?: number;
  raw: unknown;
}

export type Update = Transaction | Reassignment | TopologyTransaction | OffsetCheckpoint | UnknownUpdate;

// ---------------------------------------------------------------- decoders

/** Absent on the wire is missing, null or "": all become undefined. */
function str(v: string | null | undefined): string | undefined {
  return v === null || v === undefined || v === '' ? undefined : v;
}
function list<T>(v: T[] | null | undefined): T[] {
  return Array.isArray(v) ? v : [];
}
function opt<T>(v: T | null | undefined): T | undefined {
  return v === null ? undefined : v;
}
/** `{"value": x}` → x; tolerates a missing wrapper (some versions and future cases differ). */
function unwrap<T>(v: unknown): T {
  return (v && typeof v === 'object' && 'value' in v ? (v as { value: T }).value : v) as T;
}

export function decodeCreatedEvent(e: wire.CreatedEvent): CreatedEvent {
  return {
    kind: 'created',
    offset: e.offset,
    nodeId: e.nodeId,
    contractId: e.contractId,
    templateId: e.templateId,
    packageName: e.packageName,
    createArgument: opt(e.createArgument),
    contractKey: opt(e.contractKey),
    contractKeyHash: str(e.contractKeyHash),
    createdAt: e.createdAt,
    signatories: list(e.signatories),
    observers: list(e.observers),
    witnessParties: list(e.witnessParties),
    interfaceViews: list(e.interfaceViews),
    createdEventBlob: str(e.createdEventBlob),
    representativePackageId: str(e.representativePackageId),
    acsDelta: opt(e.acsDelta),
    raw: e,
  };
}

export function decodeArchivedEvent(e: wire.ArchivedEvent): ArchivedEvent {
  return {
    kind: 'archived',
    offset: e.offset,
    nodeId: e.nodeId,
    contractId: e.contractId,
    templateId: e.templateId,
    packageName: e.packageName,
    witnessParties: list(e.witnessParties),
    implementedInterfaces: list(e.implementedInterfaces),
    raw: e,
  };
}

export function decodeExercisedEvent(e: wire.ExercisedEvent): ExercisedEvent {
  return {
    kind: 'exercised',
    offset: e.offset,
    nodeId: e.nodeId,
    contractId: e.contractId,
    templateId: e.templateId,
    interfaceId: str(e.interfaceId),
    packageName: e.packageName,
    choice: e.choice,
    choiceArgument: opt(e.choiceArgument),
    actingParties: list(e.actingParties),
    consuming: e.consuming === true,
    witnessParties: list(e.witnessParties),
    lastDescendantNodeId: e.lastDescendantNodeId,
    exerciseResult: opt(e.exerciseResult),
    implementedInterfaces: list(e.implementedInterfaces),
    acsDelta: opt(e.acsDelta),
    raw: e,
  };
}

/** Transaction events carry no `value` wrapper; unknown event kinds are skipped (never seen so far). */
export function decodeTransactionEvent(e: wire.Event): TransactionEvent | undefined {
  if ('CreatedEvent' in e) return decodeCreatedEvent(e.CreatedEvent);
  if ('ArchivedEvent' in e) return decodeArchivedEvent(e.ArchivedEvent);
  if ('ExercisedEvent' in e) return decodeExercisedEvent(e.ExercisedEvent);
  return undefined;
}

export function decodeTransaction(t: wire.JsTransaction): Transaction {
  const events: TransactionEvent[] = [];
  for (const e of list(t.events)) {
    const d = decodeTransactionEvent(e);
    if (d) events.push(d);
  }
  return {
    kind: 'transaction',
    offset: t.offset,
    updateId: t.updateId,
    commandId: str(t.commandId),
    workflowId: str(t.workflowId),
    effectiveAt: t.effectiveAt,
    recordTime: t.recordTime,
    synchronizerId: t.synchronizerId,
    events,
    traceParent: str(t.traceContext?.traceparent),
    externalTransactionHash: str(t.externalTransactionHash),
    transactionHash: str(t.transactionHash),
    paidTrafficCost: opt(t.paidTrafficCost),
    raw: t,
  };
}

function decodeReassignmentEvent(e: wire.JsReassignmentEvent): ReassignmentEvent | undefined {
  if ('JsAssignmentEvent' in e) {
    // Assigned events are bare (no `value`), unlike unassigned ones.
    const a = e.JsAssignmentEvent;
    return {
      kind: 'assigned',
      reassignmentId: str(a.reassignmentId) ?? str(a.unassignId),
      source: a.source,
      target: a.target,
      submitter: str(a.submitter),
      reassignmentCounter: a.reassignmentCounter,
      createdEvent: decodeCreatedEvent(a.createdEvent),
      raw: a,
    };
  }
  if ('JsUnassignedEvent' in e) {
    const u = unwrap<wire.UnassignedEvent>(e.JsUnassignedEvent);
    return {
      kind: 'unassigned',
      reassignmentId: str(u.reassignmentId) ?? str(u.unassignId),
      contractId: u.contractId,
      templateId: u.templateId,
      packageName: u.packageName,
      source: u.source,
      target: u.target,
      submitter: str(u.submitter),
      reassignmentCounter: u.reassignmentCounter,
      assignmentExclusivity: str(u.assignmentExclusivity),
      witnessParties: list(u.witnessParties),
      offset: u.offset,
      nodeId: u.nodeId,
      raw: u,
    };
  }
  return undefined;
}

export function decodeReassignment(r: wire.JsReassignment): Reassignment {
  const events: ReassignmentEvent[] = [];
  for (const e of list(r.events)) {
    const d = decodeReassignmentEvent(e);
    if (d) events.push(d);
  }
  return {
    kind: 'reassignment',
    offset: r.offset,
    updateId: r.updateId,
    commandId: str(r.commandId),
    workflowId: str(r.workflowId),
    recordTime: r.recordTime,
    synchronizerId: str(r.synchronizerId),
    events,
    paidTrafficCost: opt(r.paidTrafficCost),
    raw: r,
  };
}

const AUTHORIZATION_CHANGES: Record<string, ParticipantAuthorizationChange> = {
  ParticipantAuthorizationAdded: 'added',
  ParticipantAuthorizationChanged: 'changed',
  ParticipantAuthorizationRevoked: 'revoked',
  ParticipantAuthorizationOnboarding: 'onboarding',
};
const PERMISSIONS_BY_NUMBER = ['unspecified', 'submission', 'confirmation', 'observation'];

function permissionName(p: wire.ParticipantAuthorizationValue['participantPermission']): string | undefined {
  if (p === null || p === undefined) return undefined;
  // 3.3 sent the enum as a number.
  if (typeof p === 'number') return PERMISSIONS_BY_NUMBER[p] ?? String(p);
  return p.replace(/^PARTICIPANT_PERMISSION_/, '').toLowerCase();
}

export function decodeTopologyTransaction(t: wire.JsTopologyTransaction): TopologyTransaction {
  const events: TopologyEvent[] = [];
  for (const e of list(t.events)) {
    // From 3.4 the variant sits under an extra `event` key; 3.3 sent the variant itself. Empty and
    // unknown cases are skipped.
    const variant = 'event' in e ? (e.event ?? undefined) : e;
    if (!variant) continue;
    const name = Object.keys(variant)[0];
    const change = AUTHORIZATION_CHANGES[name];
    if (!change) continue;
    const v = unwrap<wire.ParticipantAuthorizationValue>((variant as Record<string, unknown>)[name]);
    // A revocation carries no permission (its schema has none): not read there.
    const permission = change === 'revoked' ? undefined : permissionName(v.participantPermission);
    events.push({ kind: 'participant-authorization', change, partyId: v.partyId, participantId: v.participantId, permission });
  }
  return { kind: 'topology', offset: t.offset, updateId: t.updateId, synchronizerId: t.synchronizerId, recordTime: t.recordTime, events, raw: t };
}

export function decodeOffsetCheckpoint(c: wire.OffsetCheckpoint): OffsetCheckpoint {
  return { kind: 'checkpoint', offset: c.offset, synchronizerTimes: list(c.synchronizerTimes), raw: c };
}

/** Decodes one element of an updates list (`{update: {...}}`), or a bare Update. */
export function decodeUpdate(element: wire.JsGetUpdatesResponse | wire.Update): Update {
  const u = (element && typeof element === 'object' && 'update' in element ? element.update : element) as Record<string, unknown> | null | undefined;
  if (!u || typeof u !== 'object') return { kind: 'unknown', variant: '', raw: element };
  if ('Transaction' in u) return decodeTransaction(unwrap(u.Transaction));
  if ('OffsetCheckpoint' in u) return decodeOffsetCheckpoint(unwrap(u.OffsetCheckpoint));
  if ('Reassignment' in u) return decodeReassignment(unwrap(u.Reassignment));
  if ('TopologyTransaction' in u) return decodeTopologyTransaction(unwrap(u.TopologyTransaction));
  const variant = Object.keys(u)[0] ?? '';
  const inner = unwrap<{ offset?: unknown }>(u[variant]);
  return { kind: 'unknown', variant, offset: typeof inner?.offset === 'number' ? inner.offset : undefined, raw: element };
}

/** Counts of the events of a transaction, e.g. for "2 created, 1 archived". */
export function eventCounts(t: Transaction): { created: number; archived: number; exercised: number } {
  const c = { created: 0, archived: 0, exercised: 0 };
  for (const e of t.events) c[e.kind]++;
  return c;
}
