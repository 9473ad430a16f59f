/**
 * The rows of updates, their events, contracts and vetted packages (labels, descriptions, tooltips and
 * the values behind the context actions), in the views' row model (`../rows`).
 */
import { entityName } from '../daml/identifiers';
import type { ContractEvents } from '../models/contracts';
import type {
  ArchivedEvent, AssignedEvent, CreatedEvent, ExercisedEvent, OffsetCheckpoint, Reassignment, TopologyEvent, TopologyTransaction, Transaction,
  TransactionEvent, UnassignedEvent, Update,
} from '../models/updates';
import { eventCounts } from '../models/updates';
import { shortParty } from '../models/users';
import type { VettedPackage, VettedPackagesState } from '../models/vetting';
import type { LedgerRow } from '../rows';
import { code, md, plural, shortCommandId, shortId, shortTime } from '../text';
import { labelledTrafficCost, paidTrafficCostText, TRAFFIC_COST_LABEL } from '../trafficCost';

// ---------------------------------------------------------------- names and parties

function parties(list: string[]): string {
  return list.length === 0 ? '—' : list.map(shortParty).join(', ');
}

/** The decoded form without the `raw` copies nested inside it (they are what "Open Raw JSON" shows). */
export function withoutRaw(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (k, v) => (k === 'raw' ? undefined : v)));
}

function detail(key: string, label: string, value: string | undefined, extra: Partial<LedgerRow> = {}): LedgerRow {
  return { key, kind: 'detail', label, description: value ?? '—', copyValue: value, tooltip: value ? code(value) : undefined, ...extra };
}

function partyList(key: string, label: string, list: string[]): LedgerRow {
  if (list.length <= 1) return detail(key, label, list[0], { description: parties(list) });
  return {
    key,
    kind: 'group',
    label,
    description: parties(list),
    children: () => list.map((p, i) => detail(`${i}`, shortParty(p), p, { description: undefined, icon: 'person' })),
  };
}

// ---------------------------------------------------------------- Daml values

/** A Daml value (JSON-encoded) as rows: records and lists expand, leaves show their value. */
export function valueRows(value: unknown, keyPrefix = ''): LedgerRow[] {
  if (value === null || typeof value !== 'object') return [valueRow(`${keyPrefix}value`, 'value', value)];
  const entries = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v] as const) : Object.entries(value as Record<string, unknown>);
  return entries.map(([name, v]) => valueRow(`${keyPrefix}${name}`, name, v));
}

function valueRow(key: string, name: string, v: unknown): LedgerRow {
  if (v !== null && typeof v === 'object') {
    const size = Array.isArray(v) ? `[${v.length}]` : `{${Object.keys(v).length}}`;
    return { key, kind: 'value', label: name, description: size, icon: 'symbol-structure', children: () => valueRows(v) };
  }
  const text = typeof v === 'string' ? (v.includes('::') ? shortParty(v) : v) : JSON.stringify(v);
  return { key, kind: 'value', label: name, description: text, copyValue: typeof v === 'string' ? v : JSON.stringify(v), icon: 'symbol-field', tooltip: code(String(v)) };
}

// ---------------------------------------------------------------- events

/**
 * A contract key on one line, for a row's description and tooltip: a tuple as `(a, b)`, a record as
 * `{field: value}`, parties without their namespace; long keys are cut (the row's children have it whole).
 */
export function contractKeyText(key: unknown, max = 60): string {
  const text = (v: unknown): string => {
    if (v === null || v === undefined) return 'None';
    if (typeof v === 'string') return v.includes('::') ? shortParty(v) : v;
    if (Array.isArray(v)) return `[${v.map(text).join(', ')}]`;
    if (typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      if (entries.length > 0 && entries.every(([k], i) => k === `_${i + 1}`)) return `(${entries.map(([, x]) => text(x)).join(', ')})`;
      return `{${entries.map(([k, x]) => `${k}: ${text(x)}`).join(', ')}}`;
    }
    return String(v);
  };
  const whole = text(key);
  return whole.length > max ? `${whole.slice(0, max - 1)}…` : whole;
}

function contractKeyRows(e: CreatedEvent): LedgerRow[] {
  if (e.contractKey === undefined) return [];
  return [
    {
      key: 'key',
      kind: 'group',
      label: 'Contract key',
      description: contractKeyText(e.contractKey),
      icon: 'key',
      copyValue: JSON.stringify(e.contractKey),
      children: () => [...valueRows(e.contractKey), ...(e.contractKeyHash ? [detail('keyHash', 'Key hash', e.contractKeyHash)] : [])],
    },
  ];
}

/** The tooltip line of a contract's key, when it has one. */
export function contractKeyLine(e: CreatedEvent): string[] {
  return e.contractKey === undefined ? [] : [`Key ${code(JSON.stringify(e.contractKey))}`];
}

export function createdEventRows(e: CreatedEvent): LedgerRow[] {
  return [
    detail('template', 'Template', e.templateId),
    detail('contractId', 'Contract ID', e.contractId, { contractId: e.contractId }),
    detail('package', 'Package', e.packageName),
    detail('createdAt', 'Created at', e.createdAt),
    detail('offset', 'Offset', String(e.offset), { offset: e.offset }),
    partyList('signatories', 'Signatories', e.signatories),
    partyList('observers', 'Observers', e.observers),
    partyList('witnesses', 'Witnesses', e.witnessParties),
    { key: 'arguments', kind: 'group', label: 'Arguments', icon: 'symbol-structure', children: () => valueRows(e.createArgument) },
    ...contractKeyRows(e),
    ...(e.interfaceViews.length > 0
      ? [{
          key: 'views',
          kind: 'group' as const,
          label: 'Interface views',
          description: String(e.interfaceViews.length),
          children: () => e.interfaceViews.map((v, i): LedgerRow => ({
            key: `${i}`,
            kind: 'group',
            label: entityName(v.interfaceId),
            description: v.viewStatus?.code ? `error ${v.viewStatus.code}: ${v.viewStatus.message}` : undefined,
            children: () => valueRows(v.viewValue ?? null),
          })),
        }]
      : []),
  ];
}

function archivedEventRows(e: ArchivedEvent): LedgerRow[] {
  return [
    detail('template', 'Template', e.templateId),
    detail('contractId', 'Contract ID', e.contractId, { contractId: e.contractId }),
    detail('package', 'Package', e.packageName),
    detail('offset', 'Offset', String(e.offset), { offset: e.offset }),
    partyList('witnesses', 'Witnesses', e.witnessParties),
  ];
}

function exercisedEventRows(e: ExercisedEvent): LedgerRow[] {
  return [
    detail('choice', 'Choice', e.choice, { description: `${e.choice}${e.consuming ? ' (consuming)' : ''}` }),
    detail('template', 'Template', e.templateId),
    ...(e.interfaceId ? [detail('interface', 'Interface', e.interfaceId)] : []),
    detail('contractId', 'Contract ID', e.contractId, { contractId: e.contractId }),
    partyList('acting', 'Acting parties', e.actingParties),
    partyList('witnesses', 'Witnesses', e.witnessParties),
    { key: 'argument', kind: 'group', label: 'Choice argument', icon: 'symbol-structure', children: () => valueRows(e.choiceArgument) },
    ...(e.exerciseResult !== undefined ? [{ key: 'result', kind: 'group' as const, label: 'Exercise result', icon: 'symbol-structure', children: () => valueRows(e.exerciseResult) }] : []),
  ];
}

const EVENT_WORD = { created: 'Created', archived: 'Archived', exercised: 'Exercised' } as const;
const EVENT_ICON = { created: 'add', archived: 'trash', exercised: 'zap' } as const;

/**
 * Contract Events: the exercises on the contract (every choice, consuming or not), where the participant
 * filters updates by contract id (3.8) and so can say them in one read.
 */
export function contractExercisesRow(exercises: readonly { event: ExercisedEvent; updateId: string }[]): LedgerRow {
  return {
    key: 'exercises',
    kind: 'group',
    label: 'Exercised',
    description: exercises.length === 0 ? 'no choice exercised' : `${exercises.length} ${exercises.length === 1 ? 'choice' : 'choices'}`,
    tooltip: 'The choices exercised on this contract, read with the participant\'s contract-id filter on updates (Canton 3.8).',
    icon: 'zap',
    children: () => exercises.map(({ event, updateId }) => ({ ...transactionEventRow(event, updateId), key: `exercise-${event.offset}-${event.nodeId}`, description: `offset ${event.offset} · by ${parties(event.actingParties)}` })),
  };
}

export function transactionEventRow(e: TransactionEvent, updateId?: string): LedgerRow {
  const what = e.kind === 'exercised' ? `${EVENT_WORD[e.kind]} ${e.choice} on ${entityName(e.templateId)}` : `${EVENT_WORD[e.kind]} ${entityName(e.templateId)}`;
  const children = e.kind === 'created' ? () => createdEventRows(e) : e.kind === 'archived' ? () => archivedEventRows(e) : () => exercisedEventRows(e);
  const stakeholders = e.kind === 'created' ? `signatories ${parties(e.signatories)}` : `witnesses ${parties(e.witnessParties)}`;
  return {
    key: `event-${e.nodeId}`,
    kind: `event.${e.kind}`,
    label: what,
    description: [shortId(e.contractId), e.kind === 'created' && e.contractKey !== undefined ? `key ${contractKeyText(e.contractKey, 40)}` : undefined].filter(Boolean).join(' · '),
    tooltip: [`**${md(what)}**`, `Contract ${code(e.contractId)}`, `Template ${code(e.templateId)}`, ...(e.kind === 'created' ? contractKeyLine(e) : []), md(stakeholders)].join('  \n'),
    icon: EVENT_ICON[e.kind],
    children,
    contractId: e.contractId,
    updateId,
    offset: e.offset,
    json: { name: `${e.kind}-${shortId(e.contractId, 16, 0)}-node${e.nodeId}`, value: withoutRaw(e), raw: e.raw },
  };
}

function reassignmentEventRow(e: AssignedEvent | UnassignedEvent, updateId: string, index: number): LedgerRow {
  const contractId = e.kind === 'assigned' ? e.createdEvent.contractId : e.contractId;
  const templateId = e.kind === 'assigned' ? e.createdEvent.templateId : e.templateId;
  const word = e.kind === 'assigned' ? 'Assigned' : 'Unassigned';
  const common: LedgerRow[] = [
    detail('source', 'Source synchronizer', e.source),
    detail('target', 'Target synchronizer', e.target),
    detail('counter', 'Reassignment counter', String(e.reassignmentCounter)),
    ...(e.reassignmentId ? [detail('reassignmentId', 'Reassignment ID', e.reassignmentId)] : []),
    ...(e.submitter ? [detail('submitter', 'Submitter', e.submitter, { description: shortParty(e.submitter) })] : []),
  ];
  return {
    key: `event-${index}`,
    kind: `event.${e.kind}`,
    label: `${word} ${entityName(templateId)}`,
    description: shortId(contractId),
    tooltip: `**${word}** ${code(contractId)}  \n${md(shortId(e.source, 16))} → ${md(shortId(e.target, 16))}`,
    icon: e.kind === 'assigned' ? 'arrow-circle-right' : 'arrow-circle-left',
    children: () => (e.kind === 'assigned' ? [...common, ...createdEventRows(e.createdEvent)] : [...common, ...archivedEventRows({ ...e, kind: 'archived', implementedInterfaces: [], raw: e.raw as never })]),
    contractId,
    updateId,
    json: { name: `${e.kind}-${shortId(contractId, 16, 0)}`, value: withoutRaw(e), raw: e.raw },
  };
}

const CHANGE_WORD = { added: 'added', changed: 'changed', revoked: 'revoked', onboarding: 'onboarding' } as const;

function topologyEventRow(e: TopologyEvent, index: number): LedgerRow {
  return {
    key: `event-${index}`,
    kind: 'event.topology',
    label: `Participant authorization ${CHANGE_WORD[e.change]}`,
    description: shortParty(e.partyId),
    icon: e.change === 'revoked' ? 'circle-slash' : 'shield',
    tooltip: `Party ${code(e.partyId)}  \nParticipant ${code(e.participantId)}${e.permission ? `  \nPermission ${code(e.permission)}` : ''}`,
    children: () => [
      detail('party', 'Party', e.partyId, { description: shortParty(e.partyId) }),
      detail('participant', 'Participant', e.participantId),
      ...(e.permission ? [detail('permission', 'Permission', e.permission)] : []),
    ],
    json: { name: `topology-${index}-${shortParty(e.partyId)}`, value: e, raw: e },
  };
}

// ---------------------------------------------------------------- updates

export function updateRow(u: Update): LedgerRow {
  switch (u.kind) {
    case 'transaction':
      return transactionRow(u);
    case 'reassignment':
      return reassignmentRow(u);
    case 'topology':
      return topologyRow(u);
    case 'checkpoint':
      return checkpointRow(u);
    default:
      return {
        key: `update-${u.offset ?? 'x'}-unknown-${u.variant}`,
        kind: 'update.unknown',
        label: `${u.offset ?? '?'}  ${u.variant}`,
        description: 'not known to this version of the extension',
        icon: 'question',
        offset: u.offset,
        json: { name: `update-${u.offset ?? 'unknown'}-${u.variant}`, value: u.raw, raw: u.raw },
      };
  }
}

/** "2 created, 1 archived" (omits zero counts). */
export function eventSummary(t: Transaction): string {
  const c = eventCounts(t);
  const parts = [c.created && `${c.created} created`, c.archived && `${c.archived} archived`, c.exercised && `${c.exercised} exercised`].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no events for this filter';
}

function transactionRow(t: Transaction): LedgerRow {
  const fields: LedgerRow[] = [
    detail('offset', 'Offset', String(t.offset), { offset: t.offset }),
    detail('updateId', 'Update ID', t.updateId, { updateId: t.updateId }),
    detail('commandId', 'Command ID', t.commandId),
    detail('workflowId', 'Workflow ID', t.workflowId),
    detail('effectiveAt', 'Effective at', t.effectiveAt),
    detail('recordTime', 'Record time', t.recordTime),
    detail('synchronizer', 'Synchronizer', t.synchronizerId, { synchronizerId: t.synchronizerId }),
    ...paidTrafficCostDetail(t.paidTrafficCost),
  ];
  return {
    key: `update-${t.offset}-tx`,
    kind: 'update.transaction',
    label: `${t.offset}  Transaction`,
    description: [eventSummary(t), t.commandId ? `cmd ${shortCommandId(t.commandId)}` : undefined, shortTime(t.effectiveAt)].filter(Boolean).join(' · '),
    tooltip: [
      `**Transaction** at offset ${t.offset}`,
      `Update ID ${code(t.updateId)}`,
      t.commandId ? `Command ID ${code(t.commandId)}` : undefined,
      t.workflowId ? `Workflow ID ${code(t.workflowId)}` : undefined,
      `Effective at ${md(t.effectiveAt)} · record time ${md(t.recordTime)}`,
      `Synchronizer ${code(t.synchronizerId)}`,
      paidTrafficCostLine(t.paidTrafficCost),
    ].filter(Boolean).join('  \n'),
    icon: 'git-commit',
    children: () => [{ key: 'details', kind: 'group', label: 'Details', icon: 'info', children: () => fields }, ...t.events.map((e) => transactionEventRow(e, t.updateId))],
    offset: t.offset,
    updateId: t.updateId,
    synchronizerId: t.synchronizerId,
    json: { name: `transaction-${t.offset}`, value: withoutRaw(t), raw: t.raw },
  };
}

/** The tooltip's line of a paid traffic cost, when the participant reported one. */
function paidTrafficCostLine(paid: number | undefined): string | undefined {
  return md(labelledTrafficCost(paidTrafficCostText(paid)) ?? '') || undefined;
}

function paidTrafficCostDetail(paid: number | undefined): LedgerRow[] {
  return paid === undefined ? [] : [detail('paidTrafficCost', TRAFFIC_COST_LABEL, paidTrafficCostText(paid), { copyValue: String(paid) })];
}

function reassignmentRow(r: Reassignment): LedgerRow {
  const first = r.events[0];
  const route = first ? `${shortId(first.source, 12, 0)} → ${shortId(first.target, 12, 0)}` : undefined;
  const assigned = r.events.filter((e) => e.kind === 'assigned').length;
  const counts = [assigned && `${assigned} assigned`, r.events.length - assigned && `${r.events.length - assigned} unassigned`].filter(Boolean).join(', ');
  return {
    key: `update-${r.offset}-reassignment`,
    kind: 'update.reassignment',
    label: `${r.offset}  Reassignment`,
    description: [counts, route, shortTime(r.recordTime)].filter(Boolean).join(' · '),
    tooltip: [`**Reassignment** at offset ${r.offset}`, `Update ID ${code(r.updateId)}`, first ? `From ${code(first.source)}  \nto ${code(first.target)}` : undefined, `Record time ${md(r.recordTime)}`, paidTrafficCostLine(r.paidTrafficCost)]
      .filter(Boolean)
      .join('  \n'),
    icon: 'arrow-swap',
    children: () => [
      {
        key: 'details',
        kind: 'group',
        label: 'Details',
        icon: 'info',
        children: () => [
          detail('offset', 'Offset', String(r.offset), { offset: r.offset }),
          detail('updateId', 'Update ID', r.updateId, { updateId: r.updateId }),
          detail('commandId', 'Command ID', r.commandId),
          detail('workflowId', 'Workflow ID', r.workflowId),
          detail('recordTime', 'Record time', r.recordTime),
          detail('synchronizer', 'Synchronizer', r.synchronizerId),
          ...paidTrafficCostDetail(r.paidTrafficCost),
        ],
      },
      ...r.events.map((e, i) => reassignmentEventRow(e, r.updateId, i)),
    ],
    offset: r.offset,
    updateId: r.updateId,
    json: { name: `reassignment-${r.offset}`, value: withoutRaw(r), raw: r.raw },
  };
}

function topologyRow(t: TopologyTransaction): LedgerRow {
  return {
    key: `update-${t.offset}-topology`,
    kind: 'update.topology',
    label: `${t.offset}  Topology transaction`,
    description: [t.events.map((e) => `${CHANGE_WORD[e.change]} ${shortParty(e.partyId)}`).join(', '), shortTime(t.recordTime)].filter(Boolean).join(' · '),
    tooltip: `**Topology transaction** at offset ${t.offset}  \nUpdate ID ${code(t.updateId)}  \nSynchronizer ${code(t.synchronizerId)}  \nRecord time ${md(t.recordTime)}`,
    icon: 'organization',
    children: () => t.events.map(topologyEventRow),
    offset: t.offset,
    updateId: t.updateId,
    synchronizerId: t.synchronizerId,
    json: { name: `topology-${t.offset}`, value: withoutRaw(t), raw: t.raw },
  };
}

function checkpointRow(c: OffsetCheckpoint): LedgerRow {
  return {
    key: `update-${c.offset}-checkpoint`,
    kind: 'update.checkpoint',
    label: `${c.offset}  Offset checkpoint`,
    description: c.synchronizerTimes.map((t) => shortTime(t.recordTime)).join(', '),
    tooltip: `**Offset checkpoint** at offset ${c.offset}: the participant has seen every update up to here at these record times.`,
    icon: 'milestone',
    children: () => c.synchronizerTimes.map((t, i) => detail(`sync-${i}`, shortId(t.synchronizerId, 24, 6), t.recordTime, { description: t.recordTime, synchronizerId: t.synchronizerId, icon: 'clock' })),
    offset: c.offset,
    json: { name: `checkpoint-${c.offset}`, value: withoutRaw(c), raw: c.raw },
  };
}

// ---------------------------------------------------------------- contracts

/** The rows under a looked-up contract: its create event and, if archived, its archive event. */
export function contractEventRows(c: ContractEvents): LedgerRow[] {
  const rows: LedgerRow[] = [];
  if (c.created) {
    const e = c.created.event;
    rows.push({
      key: 'created',
      kind: 'event.created',
      label: `Created ${entityName(e.templateId)}`,
      description: `offset ${e.offset} · ${shortTime(e.createdAt)}`,
      icon: 'add',
      expanded: true,
      children: () => [...createdEventRows(e), detail('synchronizer', 'Synchronizer', c.created!.synchronizerId)],
      contractId: c.contractId,
      offset: e.offset,
      json: { name: `created-${shortId(c.contractId, 16, 0)}`, value: withoutRaw(e), raw: c.raw.created },
    });
  }
  if (c.archived) {
    const e = c.archived.event;
    rows.push({
      key: 'archived',
      kind: 'event.archived',
      label: `Archived ${entityName(e.templateId)}`,
      description: `offset ${e.offset}`,
      icon: 'trash',
      children: () => [...archivedEventRows(e), detail('synchronizer', 'Synchronizer', c.archived!.synchronizerId)],
      contractId: c.contractId,
      offset: e.offset,
      json: { name: `archived-${shortId(c.contractId, 16, 0)}`, value: withoutRaw(e), raw: c.raw.archived },
    });
  }
  return rows;
}

// ---------------------------------------------------------------- vetted packages

export function synchronizerVettingRow(s: VettedPackagesState, alias?: string): LedgerRow {
  const sorted = [...s.packages].sort((a, b) => (a.packageName ?? '~').localeCompare(b.packageName ?? '~') || (a.packageVersion ?? '').localeCompare(b.packageVersion ?? '', undefined, { numeric: true }));
  return {
    key: `sync-${s.synchronizerId}`,
    kind: 'synchronizer',
    label: alias ?? shortId(s.synchronizerId, 24, 6),
    description: `serial ${s.topologySerial} · ${plural(s.packages.length, 'package')}`,
    tooltip: `Synchronizer ${code(s.synchronizerId)}  \nParticipant ${code(s.participantId)}  \nTopology serial ${s.topologySerial}`,
    icon: 'server-environment',
    expanded: true,
    children: () => sorted.map(packageRow),
    synchronizerId: s.synchronizerId,
    copyValue: String(s.topologySerial),
    json: { name: `vetted-${shortId(s.synchronizerId, 24, 0)}`, value: s, raw: s },
  };
}

/** "from … until …", "from …", "until …" or "always". */
export function validityWindow(p: VettedPackage): string {
  if (p.validFromInclusive && p.validUntilExclusive) return `valid ${shortTime(p.validFromInclusive)} – ${shortTime(p.validUntilExclusive)}`;
  if (p.validFromInclusive) return `valid from ${shortTime(p.validFromInclusive)}`;
  if (p.validUntilExclusive) return `valid until ${shortTime(p.validUntilExclusive)}`;
  return 'valid without limit';
}

function packageRow(p: VettedPackage): LedgerRow {
  const name = p.packageName ? `${p.packageName}${p.packageVersion ? ` ${p.packageVersion}` : ''}` : shortId(p.packageId, 16, 4);
  return {
    key: `pkg-${p.packageId}`,
    kind: 'package',
    label: name,
    description: `${shortId(p.packageId, 12, 4)} · ${validityWindow(p)}`,
    tooltip: `**${md(name)}**  \nPackage ID ${code(p.packageId)}  \n${md(validityWindow(p))}`,
    icon: 'package',
    packageId: p.packageId,
    copyValue: p.packageId,
  };
}
