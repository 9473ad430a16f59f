/**
 * Renders stored updates as the JSON the 3.x server writes (NOTES §1.4, §2.1.2): field order,
 * `value` wrappers, and the nulls, `""` and `[]` of absent fields. Strings are built directly
 * (this is the hot path when 100k updates are served); every value goes through JSON.stringify.
 */
import { createHash } from 'node:crypto';
import type { EventFilter, Match, TopologyFilter, TransactionFilter, UpdateFilter } from './filters';
import type {
  CheckpointRecord,
  ContractRecord,
  ExercisedNode,
  LogEntry,
  PendingUnassignment,
  Permission,
  ReassignmentRecord,
  TopologyEventRecord,
  TopologyRecord,
  TransactionNode,
  TransactionRecord,
} from './model';
import { formatInstant } from './time';
import { paidReassignmentCost, paidTransactionCost } from './traffic';
import type { WireDialect } from '../core/versions';

const q = JSON.stringify;

/** Party lists are shared (see `DemoLedger.partyList`), so their JSON is computed once. */
const partyJson = new WeakMap<readonly string[], string>();
function parties(list: readonly string[]): string {
  let json = partyJson.get(list);
  if (json === undefined) {
    json = q(list);
    if (Object.isFrozen(list)) partyJson.set(list, json);
  }
  return json;
}

/** Canton attaches the submission's W3C trace context; without one, a stable one is derived from the update id. */
function traceContext(update: { updateId: string; traceparent?: string }): string {
  const traceparent = update.traceparent ?? `00-${update.updateId.slice(4, 36)}-${update.updateId.slice(36, 52)}-01`;
  return `{"traceparent":${q(traceparent)},"tracestate":null}`;
}

/** A stand-in for the serialized contract Canton puts in `createdEventBlob` (base64). */
function createdEventBlob(c: ContractRecord): string {
  return Buffer.from(`demo-participant contract ${c.contractId} ${c.template.id}`).toString('base64');
}

/** A stand-in for the hash Daml-LF computes of a contract key (the same in events and in prepared transactions). */
export function contractKeyHashBytes(c: ContractRecord): Buffer {
  return createHash('sha256').update(`${c.template.nameKey}/${q(c.key)}`).digest();
}

function contractKeyHash(c: ContractRecord): string {
  return c.key === null ? '' : contractKeyHashBytes(c).toString('base64');
}

/** The JSON of a contract's views, by interface id: computed once (a contract's argument never changes). */
const viewJson = new WeakMap<ContractRecord, Map<string, string>>();

/**
 * A JsInterfaceView. The view is what the template's interface instance computes; instances from DARs
 * run Daml code the simulator does not interpret, so their views fail, as a view whose computation
 * failed does in Canton (a status with an error code and no value).
 */
function interfaceViewJson(c: ContractRecord, interfaceId: string, d: WireDialect): string {
  const key = `${interfaceId} ${d.interfaceViewImplementationPackageId}`;
  let views = viewJson.get(c);
  if (!views) viewJson.set(c, (views = new Map()));
  let json = views.get(key);
  if (json === undefined) {
    const view = c.template.interfaces.find((i) => i.interfaceId === interfaceId)?.view;
    const status = view
      ? `{"code":0,"message":"","details":[]}`
      : `{"code":12,"message":${q(`The demo participant is a simulator and does not interpret Daml: it cannot compute the view of ${interfaceId} for ${c.template.id}`)},"details":[]}`;
    // The instance that computed the view is the contract's own template's (no up- or downgrade here).
    const implementation = d.interfaceViewImplementationPackageId ? `,"implementationPackageId":${q(view ? c.template.pkg.id : '')}` : '';
    json = `{"interfaceId":${q(interfaceId)},"viewStatus":${status},"viewValue":${view ? q(view(c.argument)) : 'null'}${implementation}}`;
    views.set(key, json);
  }
  return json;
}

function interfaceViewsJson(c: ContractRecord, interfaceIds: readonly string[], d: WireDialect): string {
  return interfaceIds.length === 0 ? '[]' : `[${interfaceIds.map((id) => interfaceViewJson(c, id, d)).join(',')}]`;
}

export function createdEventJson(c: ContractRecord, offset: number, nodeId: number, match: Match, acsDelta: boolean, d: WireDialect): string {
  return (
    `{"offset":${offset},"nodeId":${nodeId},"contractId":${q(c.contractId)},"templateId":${q(c.template.id)}` +
    `,"contractKey":${c.key === null ? 'null' : q(c.key)}` +
    (d.contractKeyHash ? `,"contractKeyHash":${q(contractKeyHash(c))}` : '') +
    `,"createArgument":${q(c.argument)},"createdEventBlob":${q(match.blob ? createdEventBlob(c) : '')},"interfaceViews":${interfaceViewsJson(c, match.interfaces, d)}` +
    `,"witnessParties":${parties(match.parties)},"signatories":${parties(c.signatories)},"observers":${parties(c.observers)}` +
    `,"createdAt":${q(formatInstant(c.createdAt))},"packageName":${q(c.template.pkg.name)}` +
    (d.acsDeltaFields ? `,"representativePackageId":${q(c.template.pkg.id)},"acsDelta":${acsDelta}` : '') +
    '}'
  );
}

export function archivedEventJson(c: ContractRecord, offset: number, nodeId: number, match: Match): string {
  return (
    `{"offset":${offset},"nodeId":${nodeId},"contractId":${q(c.contractId)},"templateId":${q(c.template.id)}` +
    `,"witnessParties":${parties(match.parties)},"packageName":${q(c.template.pkg.name)},"implementedInterfaces":${q(match.interfaces)}}`
  );
}

function exercisedEventJson(node: ExercisedNode, offset: number, match: Match, acsDelta: boolean, d: WireDialect): string {
  return (
    `{"offset":${offset},"nodeId":${node.nodeId},"contractId":${q(node.contract.contractId)},"templateId":${q(node.template.id)}` +
    `,"interfaceId":${node.interfaceId === undefined ? 'null' : q(node.interfaceId)},"choice":${q(node.choice)},"choiceArgument":${q(node.choiceArgument)}` +
    `,"actingParties":${parties(node.actingParties)},"consuming":${node.consuming},"witnessParties":${parties(match.parties)}` +
    `,"lastDescendantNodeId":${node.lastDescendantNodeId},"exerciseResult":${q(node.exerciseResult)}` +
    `,"packageName":${q(node.template.pkg.name)},"implementedInterfaces":${node.consuming ? q(match.interfaces) : '[]'}` +
    (d.acsDeltaFields ? `,"acsDelta":${acsDelta}` : '') +
    '}'
  );
}

/** How a node appears under `filter`: its witnesses for the event, and its `acsDelta` flag; undefined if hidden. */
function nodeView(node: TransactionNode, filter: TransactionFilter): { match: Match; acsDelta: boolean } | undefined {
  const c = node.contract;
  if (filter.shape === 'ACS_DELTA') {
    // Only creates and archives, seen by stakeholders; contracts created and archived in one transaction are left out.
    if (c.transient || (node.kind === 'exercised' && !node.consuming)) return undefined;
    const match = filter.events.match(c.stakeholders, c.template);
    return match && { match, acsDelta: true };
  }
  const match = filter.events.match(node.witnesses, node.kind === 'created' ? c.template : node.template);
  if (!match) return undefined;
  const acsDelta = !c.transient && (node.kind === 'created' || node.consuming) && match.parties.some((p) => c.stakeholders.includes(p));
  return { match, acsDelta };
}

function transactionEvents(tx: TransactionRecord, filter: TransactionFilter, d: WireDialect): string[] {
  const events: string[] = [];
  for (const node of tx.nodes) {
    const view = nodeView(node, filter);
    if (!view) continue;
    if (node.kind === 'created') {
      events.push(`{"CreatedEvent":${createdEventJson(node.contract, tx.offset, node.nodeId, view.match, view.acsDelta, d)}}`);
    } else if (filter.shape === 'ACS_DELTA') {
      events.push(`{"ArchivedEvent":${archivedEventJson(node.contract, tx.offset, node.nodeId, view.match)}}`);
    } else {
      events.push(`{"ExercisedEvent":${exercisedEventJson(node, tx.offset, view.match, view.acsDelta, d)}}`);
    }
  }
  return events;
}

/** A JsTransaction; `events` may be empty (submit-and-wait answers with it anyway). */
function transactionJson(tx: TransactionRecord, events: readonly string[], filter: EventFilter, d: WireDialect): string {
  // Canton shows the command id only to the submitting parties.
  const commandId = filter.includesAny(tx.actAs) ? tx.commandId : '';
  return (
    `{"updateId":${q(tx.updateId)},"commandId":${q(commandId)},"workflowId":${q(tx.workflowId)}` +
    `,"effectiveAt":${q(formatInstant(tx.effectiveAt))},"events":[${events.join(',')}],"offset":${tx.offset}` +
    `,"synchronizerId":${q(tx.synchronizerId)},"traceContext":${traceContext(tx)}` +
    `,"recordTime":${q(formatInstant(tx.recordTime))},"externalTransactionHash":null` +
    // Canton reports the cost only to the submitting parties (a query for others gets none); another
    // participant's copy has no actAs here, so it reports none, as Canton's does.
    (d.paidTrafficCost ? `,"paidTrafficCost":${filter.includesAny(tx.actAs) ? paidTransactionCost(tx) : 'null'}` : '') +
    (d.transactionHash ? ',"transactionHash":null' : '') +
    '}'
  );
}

/** The transaction as `filter` shows it, even with no events (the submit-and-wait response). */
export function filteredTransactionJson(tx: TransactionRecord, filter: TransactionFilter, d: WireDialect): string {
  return transactionJson(tx, transactionEvents(tx, filter, d), filter.events, d);
}

/** An UnassignedEvent: of a reassignment update, and of an incomplete reassignment in the active contracts. */
export function unassignedEventJson(c: ContractRecord, r: PendingUnassignment, match: Match, d: WireDialect): string {
  return (
    `{${q(d.reassignmentIdField)}:${q(r.reassignmentId)},"contractId":${q(c.contractId)}` +
    `,"templateId":${q(c.template.id)},"source":${q(r.source)},"target":${q(r.target)},"submitter":${q(r.submitter)}` +
    `,"reassignmentCounter":${r.reassignmentCounter},"assignmentExclusivity":${r.assignmentExclusivity === null ? 'null' : q(formatInstant(r.assignmentExclusivity))}` +
    `,"witnessParties":${parties(match.parties)},"packageName":${q(c.template.pkg.name)},"offset":${r.offset},"nodeId":0}`
  );
}

function reassignmentJson(r: ReassignmentRecord, match: Match, d: WireDialect): string {
  const c = r.contract;
  const event =
    r.step === 'unassigned'
      ? `{"JsUnassignedEvent":{"value":${unassignedEventJson(c, r, match, d)}}}`
      : `{"JsAssignmentEvent":{"source":${q(r.source)},"target":${q(r.target)},${q(d.reassignmentIdField)}:${q(r.reassignmentId)}` +
        `,"submitter":${q(r.submitter)},"reassignmentCounter":${r.reassignmentCounter},"createdEvent":${createdEventJson(c, r.offset, 0, match, true, d)}}}`;
  return (
    `{"updateId":${q(r.updateId)},"commandId":${q(r.commandId)},"workflowId":${q(r.workflowId)},"offset":${r.offset}` +
    `,"events":[${event}],"traceContext":${traceContext(r)},"recordTime":${q(formatInstant(r.recordTime))}` +
    (d.reassignmentSynchronizerId ? `,"synchronizerId":${q(r.synchronizerId)}` : '') +
    (d.paidTrafficCost ? `,"paidTrafficCost":${match.parties.includes(r.submitter) ? paidReassignmentCost(r) : 'null'}` : '') +
    '}'
  );
}

const PERMISSION_INTS: Record<Permission, number> = { SUBMISSION: 1, CONFIRMATION: 2, OBSERVATION: 3 };

function topologyEvents(t: TopologyRecord, filter: TopologyFilter): TopologyEventRecord[] {
  return t.events.filter((e) => !filter.parties || filter.parties.has(e.partyId));
}

function topologyJson(t: TopologyRecord, events: TopologyEventRecord[], d: WireDialect): string {
  const rendered = events.map((e) => {
      const permission =
        e.permission === undefined ? '' : `,"participantPermission":${d.permissionAsInt ? PERMISSION_INTS[e.permission] : q(`PARTICIPANT_PERMISSION_${e.permission}`)}`;
    const value = `{"partyId":${q(e.partyId)},"participantId":${q(e.participantId)}${permission}}`;
    return d.topologyEventWrapped ? `{"event":{"ParticipantAuthorization${e.change}":{"value":${value}}}}` : `{"ParticipantAuthorization${e.change}":${value}}`;
  });
  return (
    `{"updateId":${q(t.updateId)},"offset":${t.offset},"synchronizerId":${q(t.synchronizerId)}` +
    `,"recordTime":${q(formatInstant(t.recordTime))},"events":[${rendered.join(',')}],"traceContext":${traceContext(t)}}`
  );
}

function checkpointJson(c: CheckpointRecord): string {
  const times = c.synchronizerTimes.map((t) => `{"synchronizerId":${q(t.synchronizerId)},"recordTime":${q(formatInstant(t.recordTime))}}`);
  return `{"offset":${c.offset},"synchronizerTimes":[${times.join(',')}]}`;
}

/**
 * Whether `filter` lets `entry` through, without rendering it. Offset checkpoints come with
 * transactions (`withCheckpoints`); they are left out of pages and descending lists.
 */
export function isVisible(entry: LogEntry, filter: UpdateFilter, withCheckpoints: boolean): boolean {
  if (filter.contractIds && !touchesContract(entry, filter.contractIds)) return false;
  switch (entry.kind) {
    case 'checkpoint':
      return withCheckpoints && filter.transactions !== undefined;
    case 'transaction':
      return filter.transactions !== undefined && entry.nodes.some((node) => nodeView(node, filter.transactions!) !== undefined);
    case 'reassignment':
      return filter.reassignments?.match(entry.contract.stakeholders, entry.contract.template) !== undefined;
    case 'topology':
      return filter.topology !== undefined && topologyEvents(entry, filter.topology).length > 0;
  }
}

function touchesContract(entry: LogEntry, ids: ReadonlySet<string>): boolean {
  if (entry.kind === 'transaction') return entry.nodes.some((node) => ids.has(node.contract.contractId));
  if (entry.kind === 'reassignment') return ids.has(entry.contract.contractId);
  return false;
}

/** `{"update":{…}}` for an entry `isVisible` let through. */
export function updateJson(entry: LogEntry, filter: UpdateFilter, d: WireDialect): string {
  switch (entry.kind) {
    case 'checkpoint':
      return `{"update":{"OffsetCheckpoint":{"value":${checkpointJson(entry)}}}}`;
    case 'transaction':
      return `{"update":{"Transaction":{"value":${filteredTransactionJson(entry, filter.transactions!, d)}}}}`;
    case 'reassignment': {
      const match = filter.reassignments!.match(entry.contract.stakeholders, entry.contract.template)!;
      return `{"update":{"Reassignment":{"value":${reassignmentJson(entry, match, d)}}}}`;
    }
    case 'topology':
      return `{"update":{"TopologyTransaction":{"value":${topologyJson(entry, topologyEvents(entry, filter.topology!), d)}}}}`;
  }
}
