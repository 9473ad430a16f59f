/**
 * A consistency check across the hosts of one party: its transactions as each participant that hosts
 * it tells them, compared by update id. Every host of an informee receives the same transaction on
 * the same synchronizer at the same record time, with the same events as projected for the party; the
 * offsets are each participant's own, so they are shown, never compared — but the order of the
 * updates of one synchronizer must be the same on every host. Whatever differs is listed.
 *
 * Left out of the comparison on purpose: the command id and the traffic cost, which only the
 * submitting participant tells (the spec's `JsTransaction.commandId`: "Missing for everyone except the
 * submitting party"), and the offsets.
 */
import type { CallOptions } from '../api/http';
import { RequestValidationError } from '../errors';
import type { Transaction, TransactionEvent } from '../models/updates';
import { differingFields, EVENT_FIELDS, type FieldDifference } from '../updates/compare';
import type { NetworkMember } from './model';

/** One host's read of the party's transactions, up to its ledger end when the read began. */
export interface HostRead {
  label: string;
  ledgerEnd: number;
  /** In offset order. */
  transactions: Transaction[];
}

/**
 * `agree`: on every host, alike. `differ`: on every host, with fields that differ. `missing`: not on
 * some host although that host has seen a later record time on the synchronizer. `pending`: not on
 * some host yet, whose latest record time there is earlier (it may not have caught up when read).
 */
export type HostsVerdict = 'agree' | 'differ' | 'missing' | 'pending';

export interface EventOnHosts {
  nodeId: number;
  kind: TransactionEvent['kind'];
  contractId: string;
  templateId: string;
  /** Indexed like the hosts: false where the host's projection lacks the event. */
  present: boolean[];
  differences: FieldDifference[];
}

export interface UpdateOnHosts {
  updateId: string;
  synchronizerId: string;
  recordTime: string;
  /** Indexed like the hosts: each host's own offset (undefined: not there). */
  offsets: (number | undefined)[];
  verdict: HostsVerdict;
  /** Transaction fields that differ (record time, effective time, workflow id, the number of events). */
  differences: FieldDifference[];
  /** Only the events that differ or that some host lacks. */
  events: EventOnHosts[];
}

export interface SynchronizerOrder {
  synchronizerId: string;
  /** Whether the updates every host has come in the same order on each. */
  sameOrder: boolean;
}

export interface HostsComparison {
  party: string;
  hosts: Array<{ label: string; ledgerEnd: number; transactions: number }>;
  /** In the first host's offset order, then the others'. */
  updates: UpdateOnHosts[];
  order: SynchronizerOrder[];
  summary: Record<HostsVerdict, number>;
  /** Nothing differs and nothing is missing (pending updates are not a disagreement). */
  consistent: boolean;
}

/** Transactions held per host: more and the check is refused (a party with a long history: compare on a smaller ledger). */
export const MAX_TRANSACTIONS_PER_HOST = 10_000;

export interface CompareHostsOptions extends CallOptions {
  pageSize?: number;
  maxTransactionsPerHost?: number;
}

/** Reads the party's transactions on each host and compares them. */
export async function compareHosts(party: string, hosts: readonly NetworkMember[], o: CompareHostsOptions = {}): Promise<HostsComparison> {
  return compareHostReads(party, await readOnHosts(party, hosts, o));
}

/**
 * The party's transactions on each host (its own filter, ledger-effects shape, from the start up to
 * that host's end). Every end is pinned first; then the hosts are read one after the other.
 */
export async function readOnHosts(party: string, hosts: readonly NetworkMember[], o: CompareHostsOptions = {}): Promise<HostRead[]> {
  if (!party.trim()) throw new RequestValidationError('party', 'Name the party whose transactions to compare.');
  if (hosts.length < 2) throw new RequestValidationError('hosts', 'Pick two or more participants that host the party.');
  const ends = await Promise.all(hosts.map((h) => h.client.ledgerEnd(o)));
  const max = o.maxTransactionsPerHost ?? MAX_TRANSACTIONS_PER_HOST;
  const reads: HostRead[] = [];
  for (const [i, host] of hosts.entries()) {
    const transactions: Transaction[] = [];
    const selection = { filter: { parties: [party], shape: 'ledger-effects' as const } };
    if (ends[i] > 0) {
      for await (const page of host.client.walkUpdates({ selection, beginExclusive: 0, endInclusive: ends[i], pageSize: o.pageSize }, o)) {
        for (const u of page) if (u.kind === 'transaction') transactions.push(u);
        if (transactions.length > max) throw new RequestValidationError('party', `${host.label} holds more than ${max} transactions of ${party}: too many to compare`);
      }
    }
    reads.push({ label: host.label, ledgerEnd: ends[i], transactions });
  }
  return reads;
}

const TRANSACTION_FIELDS = ['synchronizerId', 'recordTime', 'effectiveAt', 'workflowId', 'externalTransactionHash', 'events'] as const;

export function compareHostReads(party: string, reads: readonly HostRead[]): HostsComparison {
  const byId = new Map<string, (Transaction | undefined)[]>();
  for (const [i, r] of reads.entries()) {
    for (const t of r.transactions) {
      let views = byId.get(t.updateId);
      if (!views) byId.set(t.updateId, (views = reads.map(() => undefined)));
      views[i] = t;
    }
  }
  // Each host's latest record time per synchronizer: what it has caught up to.
  const latest = reads.map((r) => {
    const m = new Map<string, number>();
    for (const t of r.transactions) m.set(t.synchronizerId, Math.max(m.get(t.synchronizerId) ?? 0, microsOf(t.recordTime)));
    return m;
  });
  const updates: UpdateOnHosts[] = [];
  for (const [updateId, views] of byId) {
    const first = views.find((v) => v !== undefined)!;
    const differences = differingFields(views, TRANSACTION_FIELDS, (t, f) => (f === 'events' ? t.events.length : (t as unknown as Record<string, unknown>)[f]));
    const events = eventDifferences(views);
    const absent = views.flatMap((v, i) => (v === undefined ? [i] : []));
    const verdict: HostsVerdict = absent.length
      ? absent.every((i) => (latest[i].get(first.synchronizerId) ?? Infinity) < microsOf(first.recordTime))
        ? 'pending'
        : 'missing'
      : differences.length || events.length
        ? 'differ'
        : 'agree';
    updates.push({ updateId, synchronizerId: first.synchronizerId, recordTime: first.recordTime, offsets: views.map((v) => v?.offset), verdict, differences: absent.length ? [] : differences, events: absent.length ? [] : events });
  }
  const summary: Record<HostsVerdict, number> = { agree: 0, differ: 0, missing: 0, pending: 0 };
  for (const u of updates) summary[u.verdict]++;
  const order = synchronizerOrder(reads, byId);
  return {
    party,
    hosts: reads.map((r) => ({ label: r.label, ledgerEnd: r.ledgerEnd, transactions: r.transactions.length })),
    updates,
    order,
    summary,
    consistent: summary.differ === 0 && summary.missing === 0 && order.every((o) => o.sameOrder),
  };
}

/** Microseconds since the epoch of a record time (Canton's are to the microsecond; Date.parse stops at the millisecond). */
function microsOf(iso: string): number {
  const fraction = /\.(\d+)Z$/.exec(iso)?.[1] ?? '';
  return Date.parse(iso.replace(/\.\d+Z$/, 'Z')) * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

/** The events some host lacks or tells differently, compared by node id (the same event has the same node id everywhere). */
function eventDifferences(views: (Transaction | undefined)[]): EventOnHosts[] {
  const nodes = new Map<number, (TransactionEvent | undefined)[]>();
  views.forEach((t, i) => {
    for (const e of t?.events ?? []) {
      let at = nodes.get(e.nodeId);
      if (!at) nodes.set(e.nodeId, (at = views.map(() => undefined)));
      at[i] = e;
    }
  });
  const out: EventOnHosts[] = [];
  for (const [nodeId, events] of [...nodes].sort(([a], [b]) => a - b)) {
    const e = events.find((x) => x !== undefined)!;
    const present = events.map((x) => x !== undefined);
    const differences = differingFields(events, EVENT_FIELDS[e.kind], (v, f) => (v as unknown as Record<string, unknown>)[f]);
    if (present.every(Boolean) && differences.length === 0) continue;
    out.push({ nodeId, kind: e.kind, contractId: e.contractId, templateId: e.templateId, present, differences });
  }
  return out;
}

/** Per synchronizer: the updates every host has, in each host's offset order, must be the same sequence. */
function synchronizerOrder(reads: readonly HostRead[], byId: ReadonlyMap<string, (Transaction | undefined)[]>): SynchronizerOrder[] {
  const everywhere = new Set([...byId].filter(([, views]) => views.every((v) => v !== undefined)).map(([id]) => id));
  const synchronizers = [...new Set(reads.flatMap((r) => r.transactions.map((t) => t.synchronizerId)))].sort();
  return synchronizers.map((synchronizerId) => {
    const sequences = reads.map((r) =>
      r.transactions
        .filter((t) => t.synchronizerId === synchronizerId && everywhere.has(t.updateId))
        .sort((a, b) => a.offset - b.offset)
        .map((t) => t.updateId)
        .join(),
    );
    return { synchronizerId, sameOrder: sequences.every((s) => s === sequences[0]) };
  });
}

/** The comparison as a readable document: the verdict first, then what differs, then every update with each host's offset. */
export function hostsComparisonJson(c: HostsComparison): unknown {
  const labels = c.hosts.map((h) => h.label);
  const at = <T>(values: readonly T[]) => Object.fromEntries(labels.map((l, i) => [l, values[i]]));
  return {
    party: c.party,
    verdict: c.consistent
      ? `consistent: ${labels.join(' and ')} tell the same ${c.summary.agree} transaction${c.summary.agree === 1 ? '' : 's'}${c.summary.pending ? ` (${c.summary.pending} not on every host yet)` : ''}`
      : `INCONSISTENT: ${[c.summary.differ && `${c.summary.differ} differ`, c.summary.missing && `${c.summary.missing} missing on some host`, c.order.some((o) => !o.sameOrder) && 'a different order'].filter(Boolean).join(', ')}`,
    hosts: c.hosts,
    summary: c.summary,
    order: c.order,
    differences: c.updates
      .filter((u) => u.verdict !== 'agree')
      .map((u) => ({
        updateId: u.updateId,
        verdict: u.verdict,
        synchronizerId: u.synchronizerId,
        recordTime: u.recordTime,
        offsets: at(u.offsets),
        ...(u.differences.length ? { fields: u.differences.map((d) => ({ field: d.field, ...at(d.values) })) } : {}),
        ...(u.events.length ? { events: u.events.map((e) => ({ nodeId: e.nodeId, kind: e.kind, templateId: e.templateId, contractId: e.contractId, present: at(e.present), fields: e.differences.map((d) => ({ field: d.field, ...at(d.values) })) })) } : {}),
      })),
    updates: c.updates.map((u) => ({ updateId: u.updateId, verdict: u.verdict, recordTime: u.recordTime, offsets: at(u.offsets) })),
  };
}
