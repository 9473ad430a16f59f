/**
 * What the ledger stores. Records are compact and shared: an event references its contract
 * instead of copying the payload, and party lists are interned, so 100k updates stay small.
 * Rendering to the wire format happens on the way out (`encode.ts`), per request.
 */
import type { TemplateDef } from './packages';
import type { Micros } from './time';
import type { DamlRecord } from './values';

export type Permission = 'SUBMISSION' | 'CONFIRMATION' | 'OBSERVATION';

export interface ContractRecord {
  contractId: string;
  template: TemplateDef;
  argument: DamlRecord;
  /** The contract key (normalised Daml value), or null for templates without a key. */
  key: unknown;
  signatories: readonly string[];
  /** As Canton reports them: declared observers minus signatories. */
  observers: readonly string[];
  /** Signatories and observers, sorted. */
  stakeholders: readonly string[];
  /** Ledger effective time of the creating transaction. */
  createdAt: Micros;
  createdOffset: number;
  createdNodeId: number;
  createdSynchronizerId: string;
  /** Where the contract is assigned now (reassignments move it). */
  synchronizerId: string;
  reassignmentCounter: number;
  /**
   * The unassignment of a reassignment whose assignment has not come yet (an incomplete reassignment:
   * the active contracts show the contract as `JsIncompleteUnassigned` from its offset on).
   */
  unassigned?: PendingUnassignment;
  /** Set when the contract is archived. */
  archivedOffset?: number;
  archivedNodeId?: number;
  /** Created and archived by the same transaction: not part of any ACS delta. */
  transient?: boolean;
}

/** What an unassignment left for its assignment (plain data: it is saved with the contract). */
export interface PendingUnassignment {
  offset: number;
  reassignmentId: string;
  source: string;
  target: string;
  submitter: string;
  reassignmentCounter: number;
  assignmentExclusivity: Micros | null;
}

export interface CreatedNode {
  kind: 'created';
  nodeId: number;
  contract: ContractRecord;
  /** Informees of this node and of its ancestors (ledger-effects visibility), sorted. */
  witnesses: readonly string[];
}

export interface ExercisedNode {
  kind: 'exercised';
  nodeId: number;
  contract: ContractRecord;
  /** The template the choice was exercised through (the contract's, in this simulator). */
  template: TemplateDef;
  /** The interface (package-id form) that declares the choice, when it was exercised through one. */
  interfaceId?: string;
  choice: string;
  choiceArgument: unknown;
  actingParties: readonly string[];
  consuming: boolean;
  /** The contract was found by its key (ExerciseByKey). */
  byKey?: true;
  witnesses: readonly string[];
  lastDescendantNodeId: number;
  exerciseResult: unknown;
}

export type TransactionNode = CreatedNode | ExercisedNode;

export interface TransactionRecord {
  kind: 'transaction';
  offset: number;
  updateId: string;
  commandId: string;
  workflowId: string;
  /** The submitting parties: commandId is shown only to them. */
  actAs: readonly string[];
  effectiveAt: Micros;
  recordTime: Micros;
  synchronizerId: string;
  /** The submitter's W3C traceparent, when it sent one (otherwise one is derived from the update id). */
  traceparent?: string;
  nodes: TransactionNode[];
}

export interface ReassignmentRecord {
  kind: 'reassignment';
  offset: number;
  updateId: string;
  commandId: string;
  workflowId: string;
  recordTime: Micros;
  /** The synchronizer the update happened on: the source for an unassignment, the target for an assignment. */
  synchronizerId: string;
  step: 'unassigned' | 'assigned';
  reassignmentId: string;
  contract: ContractRecord;
  source: string;
  target: string;
  submitter: string;
  reassignmentCounter: number;
  assignmentExclusivity: Micros | null;
}

export type TopologyChange = 'Added' | 'Changed' | 'Revoked';

export interface TopologyEventRecord {
  change: TopologyChange;
  partyId: string;
  participantId: string;
  /** Absent for revocations. */
  permission?: Permission;
}

export interface TopologyRecord {
  kind: 'topology';
  offset: number;
  updateId: string;
  recordTime: Micros;
  synchronizerId: string;
  events: TopologyEventRecord[];
}

/** Not an update of its own: it marks the stream position `offset` with the synchronizers' times. */
export interface CheckpointRecord {
  kind: 'checkpoint';
  offset: number;
  synchronizerTimes: { synchronizerId: string; recordTime: Micros }[];
}

export type UpdateRecord = TransactionRecord | ReassignmentRecord | TopologyRecord;
export type LogEntry = UpdateRecord | CheckpointRecord;

/** Orders the log: a checkpoint sorts right after the update at its offset. */
export function entryKey(entry: LogEntry): number {
  return entry.offset * 2 + (entry.kind === 'checkpoint' ? 1 : 0);
}

export type UserRight =
  | { kind: 'CanActAs' | 'CanReadAs' | 'CanExecuteAs'; party: string }
  | { kind: 'ParticipantAdmin' | 'IdentityProviderAdmin' | 'CanReadAsAnyParty' | 'CanExecuteAsAnyParty' };

export interface UserRecord {
  id: string;
  primaryParty: string;
  isDeactivated: boolean;
  rights: UserRight[];
}

export interface PartyRecord {
  party: string;
  permission: Permission;
  /** Revoked parties stay known, but are no longer hosted. */
  revoked: boolean;
}

export interface SynchronizerInfo {
  alias: string;
  id: string;
}
