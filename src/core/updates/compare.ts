/**
 * The same ledger seen as several parties: the transactions of one offset range, read once per party
 * with that party's filter (ledger-effects shape, so that events a party only witnesses show up), and
 * compared update by update and event by event — who sees what, as what, and which fields differ.
 */
import type { LedgerClient } from '../api/client';
import type { CallOptions } from '../api/http';
import { RequestValidationError } from '../errors';
import type { Transaction, TransactionEvent } from '../models/updates';
import { shortParty } from '../models/users';
import { sumTrafficCost, trafficCostSumText, type TrafficCostSum } from '../trafficCost';

export interface ComparePartiesQuery {
  /** Two or more parties; each is read on its own. */
  parties: readonly string[];
  /**
   * Interfaces (`#package-name:Module:Entity`) to compare through: each party then reads only the
   * contracts whose templates implement them, with their interface views. Default: every contract.
   */
  interfaceIds?: readonly string[];
  /** Exclusive; default 0 (the ledger start). */
  beginExclusive?: number;
  /** Inclusive; default the ledger end, read once so that every party reads the same range. */
  endInclusive?: number;
  /** Updates per request. */
  pageSize?: number;
  /** Every party's transactions are held for the comparison: a range with more for one party is refused. Default 10,000. */
  maxTransactionsPerParty?: number;
}

export const DEFAULT_MAX_TRANSACTIONS_PER_PARTY = 10_000;

export interface CompareProgress {
  party: string;
  /** Position of the party in the query (0-based). */
  index: number;
  /** Transactions read for this party so far. */
  transactions: number;
}

export interface CompareOptions extends CallOptions {
  onProgress?: (p: CompareProgress) => void;
}

/** What one party's read returned. */
export interface PartyRead {
  party: string;
  transactions: Transaction[];
}

/**
 * How a party comes to see an event. `stakeholder`: a signatory or observer of the contract;
 * `actor`: an acting party of the exercise; `witness`: neither — it sees the event only as an informee
 * of an enclosing exercise (divulgence) or as a choice observer; `informee`: it sees the exercise but
 * the contract's stakeholders are unknown here (its create lies before the range).
 */
export type SeenAs = 'stakeholder' | 'actor' | 'witness' | 'informee';

export interface PartyEventView {
  event: TransactionEvent;
  seenAs: SeenAs;
}

/** A field whose value is not the same in every party's view; `values[i]` is party i's (undefined: not seen). */
export interface FieldDifference {
  field: string;
  values: (string | undefined)[];
}

export interface EventComparison {
  /** The node id: the same event has the same node id in every party's view. */
  nodeId: number;
  kind: TransactionEvent['kind'];
  contractId: string;
  templateId: string;
  choice?: string;
  /** Indexed like the parties; undefined where the party does not see the event. */
  views: (PartyEventView | undefined)[];
  /** Fields that differ between the views of the parties that see it (not "seen or not": see `views`). */
  differences: FieldDifference[];
}

export interface UpdateComparison {
  updateId: string;
  offset: number;
  /** Indexed like the parties; undefined where the party does not see the transaction. */
  views: (Transaction | undefined)[];
  /** Every event any party sees, in node order. */
  events: EventComparison[];
  /** Transaction fields that differ between the parties that see it (command id, event count, …). */
  differences: FieldDifference[];
}

export interface ComparisonSummary {
  /** Transactions seen by at least one of the parties. */
  total: number;
  /** Per party (indexed like the parties): how many of them it sees. */
  seenBy: number[];
  /** How many every party sees. */
  seenByAll: number;
}

export interface PartyComparison {
  parties: string[];
  beginExclusive: number;
  endInclusive: number;
  /** In offset order. */
  updates: UpdateComparison[];
  summary: ComparisonSummary;
  /** The paid traffic cost over the compared transactions (a submitter's read reports it, others' do not). */
  trafficCost: TrafficCostSum;
  /** Where the sides are on several participants: each party's participant, indexed like the parties (the offsets of `updates` are then each side's own). */
  sides?: string[];
}

// ---------------------------------------------------------------- reading

/** The parties of a query, checked: at least two, each once. */
export function checkCompareParties(parties: readonly string[]): string[] {
  const unique = [...new Set(parties.map((p) => p.trim()).filter((p) => p !== ''))];
  if (unique.length < 2) throw new RequestValidationError('parties', 'Pick at least two different parties to compare.');
  return unique;
}

/**
 * Reads the transactions of the range once per party, each with a filter of that party alone. The end
 * is pinned before the first read, so every party reads exactly the same offsets. The ledger-effects
 * shape (every supported version has it) shows exercises and the events a party only witnesses.
 */
export async function readAsEachParty(
  client: LedgerClient,
  query: ComparePartiesQuery,
  o: CompareOptions = {},
): Promise<{ parties: string[]; beginExclusive: number; endInclusive: number; reads: PartyRead[] }> {
  const parties = checkCompareParties(query.parties);
  const beginExclusive = query.beginExclusive ?? 0;
  const endInclusive = query.endInclusive ?? (await client.ledgerEnd(o));
  if (!Number.isSafeInteger(beginExclusive) || beginExclusive < 0) {
    throw new RequestValidationError('beginExclusive', `The range must start at an offset ≥ 0, not ${beginExclusive}`);
  }
  if (!Number.isSafeInteger(endInclusive) || endInclusive < beginExclusive) {
    throw new RequestValidationError('endInclusive', `The range must end at or after its start (${beginExclusive}), not at ${endInclusive}`);
  }
  const reads: PartyRead[] = [];
  for (const [index, party] of parties.entries()) reads.push(await readAsParty(client, party, index, { beginExclusive, endInclusive }, query, o));
  return { parties, beginExclusive, endInclusive, reads };
}

/** One party's transactions of the range, with that party's filter alone (see {@link readAsEachParty}). */
async function readAsParty(
  client: LedgerClient,
  party: string,
  index: number,
  range: { beginExclusive: number; endInclusive: number },
  query: Omit<ComparePartiesQuery, 'parties'>,
  o: CompareOptions,
): Promise<PartyRead> {
  const { beginExclusive, endInclusive } = range;
  const max = query.maxTransactionsPerParty ?? DEFAULT_MAX_TRANSACTIONS_PER_PARTY;
  const transactions: Transaction[] = [];
  o.onProgress?.({ party, index, transactions: 0 });
  if (endInclusive > beginExclusive) {
    const interfaces = query.interfaceIds?.length ? { interfaceIds: [...query.interfaceIds], includeInterfaceViews: true } : {};
    const selection = { filter: { parties: [party], shape: 'ledger-effects' as const, ...interfaces } };
    for await (const page of client.walkUpdates({ selection, beginExclusive, endInclusive, pageSize: query.pageSize }, o)) {
      for (const u of page) if (u.kind === 'transaction') transactions.push(u);
      if (transactions.length > max) {
        throw new RequestValidationError('endInclusive', `Offsets ${beginExclusive + 1}–${endInclusive} hold more than ${max} transactions for ${party}: compare a narrower range`);
      }
      o.onProgress?.({ party, index, transactions: transactions.length });
    }
  }
  return { party, transactions };
}

/** Reads as each party and compares. */
export async function compareParties(client: LedgerClient, query: ComparePartiesQuery, o: CompareOptions = {}): Promise<PartyComparison> {
  const r = await readAsEachParty(client, query, o);
  return buildComparison(r.parties, r.reads, { beginExclusive: r.beginExclusive, endInclusive: r.endInclusive });
}

/** One side of a comparison: a party as one participant (its client) tells its transactions. */
export interface CompareSide {
  party: string;
  client: LedgerClient;
  /** The participant's (connection's) name, shown with the party when the sides are on several. */
  label: string;
}

/**
 * Compares parties read each from its own participant. On one participant this is {@link compareParties}.
 * On several, an offset range means nothing across them (each participant numbers its own offsets), so
 * each side reads its participant's whole ledger up to its end, pinned before the first read; the
 * transactions are matched by update id (the same on every host: Canton's transaction id) and ordered
 * by record time. The same party on two hosts is Compare Participants' consistency check, not this.
 */
export async function compareSides(sides: readonly CompareSide[], query: Omit<ComparePartiesQuery, 'parties'> = {}, o: CompareOptions = {}): Promise<PartyComparison> {
  const clients = [...new Set(sides.map((s) => s.client))];
  if (clients.length === 1) return compareParties(clients[0], { ...query, parties: sides.map((s) => s.party) }, o);
  const parties = checkCompareParties(sides.map((s) => s.party));
  if (parties.length !== sides.length) {
    throw new RequestValidationError('parties', 'The same party is picked on two participants: compare its hosts with Compare Participants, and pick different parties here.');
  }
  if (query.beginExclusive !== undefined || query.endInclusive !== undefined) {
    throw new RequestValidationError('beginExclusive', 'An offset range belongs to one participant: parties on several participants are compared over each one\'s whole ledger.');
  }
  const ends = new Map<LedgerClient, number>();
  for (const client of clients) ends.set(client, await client.ledgerEnd(o));
  const reads: PartyRead[] = [];
  for (const [index, side] of sides.entries()) reads.push(await readAsParty(side.client, side.party, index, { beginExclusive: 0, endInclusive: ends.get(side.client)! }, query, o));
  const comparison = buildComparison(parties, reads, { beginExclusive: 0, endInclusive: Math.max(...ends.values()) });
  // Offsets are each participant's own: the record time orders the updates of the one synchronizer alike on every host.
  comparison.updates.sort((a, b) => recordTimeOf(a).localeCompare(recordTimeOf(b)) || a.offset - b.offset);
  return { ...comparison, sides: sides.map((s) => s.label) };
}

function recordTimeOf(u: UpdateComparison): string {
  return u.views.find((v) => v !== undefined)?.recordTime ?? '';
}

// ---------------------------------------------------------------- comparing

/**
 * Fields compared per event kind. `witnessParties` is left out on purpose: each read asks as one
 * party, so the participant lists only that party there; `seenAs` says more.
 */
export const EVENT_FIELDS: Record<TransactionEvent['kind'], readonly string[]> = {
  created: ['templateId', 'createArgument', 'contractKey', 'signatories', 'observers', 'interfaceViews', 'createdEventBlob', 'acsDelta'],
  archived: ['templateId', 'implementedInterfaces'],
  exercised: ['templateId', 'interfaceId', 'choice', 'choiceArgument', 'actingParties', 'consuming', 'exerciseResult', 'lastDescendantNodeId', 'implementedInterfaces', 'acsDelta'],
};

/** Transaction fields compared (besides the events): the command id is shown only to the submitters. */
const TRANSACTION_FIELDS = ['commandId', 'workflowId', 'events', 'externalTransactionHash'] as const;

function shown(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

/** The fields whose values are not all equal among the views present; each view missing a field shows `undefined`. */
export function differingFields<T>(views: (T | undefined)[], fields: readonly string[], read: (view: T, field: string) => unknown): FieldDifference[] {
  const present = views.filter((v): v is T => v !== undefined);
  if (present.length < 2) return [];
  const out: FieldDifference[] = [];
  for (const field of fields) {
    const values = views.map((v) => (v === undefined ? undefined : shown(read(v, field))));
    const seen = values.filter((_, i) => views[i] !== undefined);
    if (seen.some((v) => v !== seen[0])) out.push({ field, values });
  }
  return out;
}

export interface ContractParties {
  signatories: readonly string[];
  observers: readonly string[];
}

/** What `seenAs` reads of an event (a TransactionEvent is one). */
export type SeenAsEvent =
  | { kind: 'created'; signatories: readonly string[]; observers: readonly string[] }
  | { kind: 'archived' }
  | { kind: 'exercised'; contractId: string; actingParties: readonly string[]; consuming: boolean; acsDelta?: boolean };

/** How `party` comes to see event `e`, given the stakeholders of the contracts known so far (see SeenAs). */
export function seenAs(party: string, e: SeenAsEvent, contracts: ReadonlyMap<string, ContractParties>): SeenAs {
  if (e.kind === 'created') return e.signatories.includes(party) || e.observers.includes(party) ? 'stakeholder' : 'witness';
  // An ACS-delta archive goes to stakeholders only.
  if (e.kind === 'archived') return 'stakeholder';
  if (e.actingParties.includes(party)) return 'actor';
  const known = contracts.get(e.contractId);
  // Informees of a consuming exercise are the stakeholders; of a non-consuming one, the signatories.
  if (known) return known.signatories.includes(party) || (e.consuming && known.observers.includes(party)) ? 'stakeholder' : 'witness';
  // A consuming exercise is part of a party's ACS delta exactly when the party is a stakeholder (3.4+ say so).
  if (e.consuming && e.acsDelta !== undefined) return e.acsDelta ? 'stakeholder' : 'witness';
  return 'informee';
}

/** Builds the comparison from each party's read (indexed like `parties`). */
export function buildComparison(parties: readonly string[], reads: readonly PartyRead[], range: { beginExclusive: number; endInclusive: number }): PartyComparison {
  // The stakeholders of every contract whose create any party saw: they say how the others see its exercises.
  const contracts = new Map<string, ContractParties>();
  for (const r of reads) {
    for (const t of r.transactions) {
      for (const e of t.events) if (e.kind === 'created') contracts.set(e.contractId, { signatories: e.signatories, observers: e.observers });
    }
  }
  const byUpdate = new Map<string, (Transaction | undefined)[]>();
  reads.forEach((r, i) => {
    for (const t of r.transactions) {
      let views = byUpdate.get(t.updateId);
      if (!views) byUpdate.set(t.updateId, (views = parties.map(() => undefined)));
      views[i] = t;
    }
  });
  const updates: UpdateComparison[] = [];
  for (const [updateId, views] of byUpdate) {
    const first = views.find((v) => v !== undefined)!;
    const nodes = new Map<number, (PartyEventView | undefined)[]>();
    views.forEach((t, i) => {
      for (const e of t?.events ?? []) {
        let eventViews = nodes.get(e.nodeId);
        if (!eventViews) nodes.set(e.nodeId, (eventViews = parties.map(() => undefined)));
        eventViews[i] = { event: e, seenAs: seenAs(parties[i], e, contracts) };
      }
    });
    const events = [...nodes.entries()]
      .sort(([a], [b]) => a - b)
      .map(([nodeId, eventViews]): EventComparison => {
        const e = eventViews.find((v) => v !== undefined)!.event;
        return {
          nodeId,
          kind: e.kind,
          contractId: e.contractId,
          templateId: e.templateId,
          choice: e.kind === 'exercised' ? e.choice : undefined,
          views: eventViews,
          differences: differingFields(eventViews, EVENT_FIELDS[e.kind], (v, f) => (v.event as unknown as Record<string, unknown>)[f]),
        };
      });
    const differences = differingFields(views, TRANSACTION_FIELDS, (t, f) => (f === 'events' ? t.events.length : (t as unknown as Record<string, unknown>)[f]));
    updates.push({ updateId, offset: first.offset, views, events, differences });
  }
  updates.sort((a, b) => a.offset - b.offset);
  const seenBy = parties.map((_, i) => updates.filter((u) => u.views[i] !== undefined).length);
  const seenByAll = updates.filter((u) => u.views.every((v) => v !== undefined)).length;
  // One figure per transaction: whichever party's read carries it.
  const trafficCost = sumTrafficCost(updates.map((u) => ({ paidTrafficCost: u.views.find((v) => v?.paidTrafficCost !== undefined)?.paidTrafficCost })));
  return { parties: [...parties], ...range, updates, summary: { total: updates.length, seenBy, seenByAll }, trafficCost };
}

// ---------------------------------------------------------------- reading the result

/** Whether every party sees the update, with the same events and fields. */
export function isUniform(u: UpdateComparison): boolean {
  return u.views.every((v) => v !== undefined) && u.differences.length === 0 && u.events.every((e) => isUniformEvent(e, u));
}

/**
 * Whether the parties that see the transaction all see the event, in the same role, with the same
 * fields (a transaction one party alone sees has nothing to compare inside).
 */
export function isUniformEvent(e: EventComparison, u: UpdateComparison): boolean {
  const viewers = e.views.filter((_, i) => u.views[i] !== undefined);
  return viewers.every((v) => v !== undefined && v.seenAs === viewers[0]!.seenAs) && e.differences.length === 0;
}

/**
 * Names to show for parties: the hint before `::` (`Alice`) where no two compared parties share it,
 * else the short id.
 */
export function partyNames(parties: readonly string[]): string[] {
  const hint = (p: string) => (p.includes('::') ? p.slice(0, p.indexOf('::')) : p);
  return parties.map((p) => (parties.filter((q) => hint(q) === hint(p)).length === 1 ? hint(p) : shortParty(p)));
}

/** The names of a comparison's parties, each with its participant where the sides are on several ("Alice on app-user"). */
export function comparisonNames(c: Pick<PartyComparison, 'parties' | 'sides'>): string[] {
  return partyNames(c.parties).map((name, i) => (c.sides?.[i] ? `${name} on ${c.sides[i]}` : name));
}

/**
 * "Alice sees 12 of 15 transactions; Bob sees 9; 6 seen by both" (with three or more parties:
 * "…; 2 seen by all 3").
 */
export function comparisonSummaryText(c: PartyComparison, names = comparisonNames(c)): string {
  const s = c.summary;
  if (s.total === 0) return `No transactions for ${names.join(', ')} in offsets ${c.beginExclusive + 1}–${c.endInclusive}`;
  const each = names.map((name, i) => (i === 0 ? `${name} sees ${s.seenBy[i]} of ${s.total} transaction${s.total === 1 ? '' : 's'}` : `${name} sees ${s.seenBy[i]}`));
  const all = names.length === 2 ? 'both' : `all ${names.length}`;
  return `${each.join('; ')}; ${s.seenByAll} seen by ${all}`;
}

/** "Alice ✓ · Bob — · Charlie ✓". */
export function presenceText(views: readonly unknown[], names: readonly string[]): string {
  return names.map((name, i) => `${name} ${views[i] !== undefined ? '✓' : '—'}`).join(' · ');
}

/** "Alice witness · Bob stakeholder · Charlie —". */
export function rolesText(e: EventComparison, names: readonly string[]): string {
  return names.map((name, i) => `${name} ${e.views[i]?.seenAs ?? '—'}`).join(' · ');
}

/** What each role means, for tooltips. */
export const SEEN_AS_MEANING: Record<SeenAs, string> = {
  stakeholder: 'a signatory or observer of the contract',
  actor: 'an acting party of the exercise',
  witness: 'not a stakeholder: sees it only as an informee of an enclosing exercise (divulgence) or as a choice observer',
  informee: "an informee of the exercise (the contract's create is before the range, so its stakeholders are not known here)",
};

/** A party's value of a field, or null where it does not see it. */
function byParty<T>(parties: readonly string[], values: readonly (T | undefined)[]): Record<string, T | null> {
  return Object.fromEntries(parties.map((p, i) => [p, values[i] ?? null]));
}

/** The comparison as plain JSON keyed by party id (the CLI's `--json`): counts, and per update and event who sees it as what. */
export function comparisonJson(c: PartyComparison): unknown {
  const differences = (ds: FieldDifference[]) => ds.map((d) => ({ field: d.field, values: byParty(c.parties, d.values) }));
  return {
    parties: c.parties,
    beginExclusive: c.beginExclusive,
    endInclusive: c.endInclusive,
    transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
    summary: { total: c.summary.total, seenBy: byParty(c.parties, c.summary.seenBy), seenByAll: c.summary.seenByAll, text: comparisonSummaryText(c) },
    trafficCost: { ...c.trafficCost, text: trafficCostSumText(c.trafficCost) },
    updates: c.updates.map((u) => ({
      offset: u.offset,
      updateId: u.updateId,
      seenBy: c.parties.filter((_, i) => u.views[i] !== undefined),
      differences: differences(u.differences),
      events: u.events.map((e) => ({
        nodeId: e.nodeId,
        kind: e.kind,
        contractId: e.contractId,
        templateId: e.templateId,
        ...(e.choice ? { choice: e.choice } : {}),
        seenAs: byParty(c.parties, e.views.map((v) => v?.seenAs)),
        differences: differences(e.differences),
      })),
    })),
  };
}

/**
 * Party ids for what people type: a full id (`Alice::1220…`) as it is, a bare hint (`Alice`) as the
 * one known party with that hint. Unknown or ambiguous hints are refused, naming the candidates.
 */
export function resolvePartyNames(names: readonly string[], known: readonly string[]): string[] {
  return names.map((name) => {
    if (name.includes('::')) return name;
    const matches = known.filter((p) => p.slice(0, p.indexOf('::')) === name);
    if (matches.length === 1) return matches[0];
    throw new RequestValidationError(
      'parties',
      matches.length === 0 ? `No known party is called ${name}: give its full id (${name}::…)` : `${matches.length} known parties are called ${name}: give the full id of one of ${matches.join(', ')}`,
    );
  });
}

/**
 * An offset range as people type it, `10-42` (also `10..42`, `10–42`, or one offset `42`), both ends
 * included, within 1 and the ledger end: the query's range, or what is wrong with the text.
 */
export function parseOffsetRange(text: string, ledgerEnd: number): { beginExclusive: number; endInclusive: number } | { problem: string } {
  const m = /^\s*(\d+)\s*(?:(?:-|\u2013|\.\.)\s*(\d+)\s*)?$/.exec(text);
  if (!m) return { problem: 'Give the first and last offset, e.g. 10-42' };
  const first = Number(m[1]);
  const last = m[2] === undefined ? first : Number(m[2]);
  if (first < 1) return { problem: 'Offsets start at 1' };
  if (last < first) return { problem: `The last offset (${last}) is before the first (${first})` };
  if (last > ledgerEnd) return { problem: `The ledger ends at offset ${ledgerEnd}` };
  return { beginExclusive: first - 1, endInclusive: last };
}
