/**
 * The Active Contracts view's rows: the contracts loaded so far, grouped by template as
 * `package-name:Module:Entity` with counts; a contract expands to its create arguments and the
 * details of its create event. Counts read "N+" while pages remain, since only what is loaded is counted.
 */
import type { ActiveContract } from '../api/client';
import { parseIdentifier, qualifiedNameOf } from '../daml/identifiers';
import type { LedgerRow } from '../rows';
import { code, md, plural, shortId } from '../text';
import { contractKeyLine, contractKeyText, createdEventRows, valueRows, withoutRaw } from '../updates/rows';

/** What the view has loaded of one snapshot of the active contract set. */
export interface ActiveContractsSnapshot {
  contracts: readonly ActiveContract[];
  /** The offset the snapshot is taken at (from the first page). */
  activeAtOffset?: number;
  /** True once the last page is loaded: only then are the counts totals. */
  complete: boolean;
  /** One line when the paging was restarted from the first page (a page token refused), saying why. */
  restarted?: string;
}

/** `package-name:Module:Entity`: the same template across package versions, as the CLI and the view group it. */
export function templateGroup(c: ActiveContract): string {
  const id = parseIdentifier(c.event.templateId);
  return `${c.event.packageName}:${id ? qualifiedNameOf(id) : c.event.templateId}`;
}

/** "12" once every page is loaded, "12+" while more may follow. */
export function countText(n: number, complete: boolean): string {
  return complete ? String(n) : `${n}+`;
}

/** The party's name without its namespace: enough in a list, the tooltip has the whole id. */
function partyName(party: string): string {
  const i = party.indexOf('::');
  return i > 0 ? party.slice(0, i) : party;
}

function names(parties: readonly string[]): string {
  return parties.length ? parties.map(partyName).join(', ') : '—';
}

/**
 * The first few of a contract's arguments that say what it holds (`currency USD, amount 999.99`):
 * plain values only, a party the row names already (a signatory, an observer) left out.
 */
function argumentsText(argument: unknown, shownParties: readonly string[], max = 3): string | undefined {
  if (!argument || typeof argument !== 'object' || Array.isArray(argument)) return undefined;
  const shown: string[] = [];
  for (const [name, value] of Object.entries(argument)) {
    if (shown.length === max) break;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    if (typeof value === 'string' && shownParties.includes(value)) continue;
    const text = typeof value === 'string' ? (value.includes('::') ? partyName(value) : value) : String(value);
    shown.push(`${name} ${text.length > 24 ? `${text.slice(0, 23)}…` : text}`);
  }
  return shown.length ? shown.join(', ') : undefined;
}

/** One row per template, in name order, each with its contracts in the order the participant sent them. */
export function activeContractRows(snapshot: ActiveContractsSnapshot): LedgerRow[] {
  const groups = new Map<string, ActiveContract[]>();
  for (const c of snapshot.contracts) {
    const key = templateGroup(c);
    const list = groups.get(key);
    if (list) list.push(c);
    else groups.set(key, [c]);
  }
  const rows = [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([group, contracts]) => templateGroupRow(group, contracts, snapshot.complete));
  return snapshot.restarted ? [restartedRow(snapshot.restarted), ...rows] : rows;
}

/** The one line that says why the paging started again from the first page. */
function restartedRow(why: string): LedgerRow {
  return { key: 'restarted', kind: 'detail', label: 'Read again from the first page', description: why, tooltip: md(why), icon: 'debug-restart' };
}

/**
 * A contract in the middle of a reassignment, said as what the participant knows of it: unassigned
 * from its synchronizer and not yet assigned, or assigned to it with its unassignment not seen here.
 * It is still a contract of the set (3.7 leaves such contracts out unless asked, and the view asks).
 */
export function inFlightText(c: ActiveContract): string | undefined {
  if (c.inFlight === 'unassigned') return `in flight: unassigned from ${shortId(c.synchronizerId)}, not yet assigned`;
  if (c.inFlight === 'assigned') return `in flight: assigned to ${shortId(c.synchronizerId)}, its unassignment not seen here`;
  return undefined;
}

function templateGroupRow(group: string, contracts: readonly ActiveContract[], complete: boolean): LedgerRow {
  const count = countText(contracts.length, complete);
  const inFlight = contracts.filter((c) => c.inFlight).length;
  const versions = new Set(contracts.map((c) => c.event.templateId.split(':')[0]));
  return {
    key: `tpl-${group}`,
    kind: 'template',
    label: group,
    description: [`${count} active`, inFlight ? `${inFlight} in flight` : undefined, versions.size > 1 ? `${versions.size} package versions` : undefined].filter(Boolean).join(' · '),
    tooltip: [
      `**${md(group)}**`,
      complete ? `${plural(contracts.length, 'active contract')}` : `${plural(contracts.length, 'active contract')} loaded so far; Load more reads the rest`,
    ].join('  \n'),
    icon: 'symbol-class',
    templateId: `#${group}`,
    copyValue: `#${group}`,
    children: () => contracts.map(activeContractRow),
  };
}

/** A contract: its id, stakeholders and creation offset; expands to its create arguments and details. */
export function activeContractRow(c: ActiveContract): LedgerRow {
  const e = c.event;
  const inFlight = inFlightText(c);
  return {
    key: `c-${e.contractId}`,
    kind: 'contract',
    label: shortId(e.contractId),
    description: [
      inFlight,
      e.contractKey !== undefined ? `key ${contractKeyText(e.contractKey, 40)}` : argumentsText(e.createArgument, [...e.signatories, ...e.observers]),
      `signatories ${names(e.signatories)}`,
      e.observers.length ? `observers ${names(e.observers)}` : undefined,
      `offset ${e.offset}`,
    ]
      .filter(Boolean)
      .join(' · '),
    tooltip: [
      `**Contract** ${code(e.contractId)}`,
      ...(inFlight ? [`**${md(inFlight.replace(/^in flight/, 'In flight'))}**`] : []),
      `Template ${code(e.templateId)}`,
      ...contractKeyLine(e),
      `Signatories ${e.signatories.map(code).join(', ') || '—'}`,
      `Observers ${e.observers.map(code).join(', ') || '—'}`,
      `Created at offset ${e.offset}, ${md(e.createdAt)}`,
    ].join('  \n'),
    icon: inFlight ? 'arrow-swap' : 'symbol-object',
    contractId: e.contractId,
    offset: e.offset,
    synchronizerId: c.synchronizerId,
    templateId: `#${templateGroup(c)}`,
    children: () => [
      ...valueRows(e.createArgument, 'arg-'),
      {
        key: 'details',
        kind: 'group',
        label: 'Details',
        icon: 'info',
        children: () => [
          ...createdEventRows(e).filter((r) => r.key !== 'arguments'),
          { key: 'synchronizer', kind: 'detail', label: 'Synchronizer', description: c.synchronizerId, copyValue: c.synchronizerId, synchronizerId: c.synchronizerId },
          { key: 'reassignments', kind: 'detail', label: 'Reassignment counter', description: String(c.reassignmentCounter), copyValue: String(c.reassignmentCounter) },
        ],
      },
    ],
    json: { name: `created-${shortId(e.contractId, 16, 0)}`, value: withoutRaw(e), raw: e.raw },
  };
}
