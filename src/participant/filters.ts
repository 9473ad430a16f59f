/**
 * Event, transaction and update formats (NOTES §2.1.1): validated as Canton validates them, and
 * turned into matchers that decide, per event, which requesting parties see it.
 */
import type * as wire from '../core/models/wire';
import { DecodeFailure, LedgerApiError, invalidArgument } from './errors';
import { isPackageNameRef, parseIdentifier, type PackageStore } from './packages';

export interface FilterRules {
  /** 3.5+ rejects template ids of the package-id form in filters (NOTES gotcha 6). */
  rejectPackageIdForm: boolean;
  /** The packages template ids are resolved in. */
  packages: PackageStore;
}

export interface Match {
  /** The requesting parties that see the event, sorted (its `witnessParties`). */
  parties: readonly string[];
  /** Whether a matching filter asked for `createdEventBlob`. */
  blob: boolean;
}

/** One party's cumulative filter: a template wildcard and/or specific templates (matched by package name). */
export class PartyFilter {
  wildcard = false;
  wildcardBlob = false;
  readonly templates = new Map<string, boolean>();

  /** undefined: no match; otherwise whether the blob was requested. */
  blobFor(nameKey: string): boolean | undefined {
    const template = this.templates.get(nameKey);
    if (!this.wildcard) return template;
    return this.wildcardBlob || template === true;
  }
}

export class EventFilter {
  constructor(
    readonly byParty: ReadonlyMap<string, PartyFilter>,
    readonly anyParty: PartyFilter | undefined,
  ) {}

  /** The parties named in the filter; `any` with a filter for any party. */
  get requesting(): ReadonlySet<string> | 'any' {
    return this.anyParty ? 'any' : new Set(this.byParty.keys());
  }

  /** Which of an event's `candidates` (stakeholders or witnesses, sorted) see an event of this template. */
  match(candidates: readonly string[], nameKey: string): Match | undefined {
    const parties: string[] = [];
    let blob = false;
    const any = this.anyParty?.blobFor(nameKey);
    for (const party of candidates) {
      const own = this.byParty.get(party)?.blobFor(nameKey);
      if (own === undefined && any === undefined) continue;
      parties.push(party);
      blob ||= own === true || any === true;
    }
    if (parties.length === 0) return undefined;
    // All of them, the common case: reuse the shared list (its JSON is cached by the encoder).
    return { parties: parties.length === candidates.length ? candidates : parties, blob };
  }

  /** Whether any of `parties` is among the requesting parties. */
  includesAny(parties: readonly string[]): boolean {
    return this.anyParty !== undefined || parties.some((p) => this.byParty.has(p));
  }
}

export type Shape = 'ACS_DELTA' | 'LEDGER_EFFECTS';

export interface TransactionFilter {
  shape: Shape;
  events: EventFilter;
}

export interface TopologyFilter {
  /** undefined: every party. */
  parties?: ReadonlySet<string>;
}

export interface UpdateFilter {
  transactions?: TransactionFilter;
  reassignments?: EventFilter;
  topology?: TopologyFilter;
}

const PARTY = /^[A-Za-z0-9:\-_ ]{1,255}$/;

export function checkParty(party: string): void {
  if (!PARTY.test(party)) throw invalidArgument(`Invalid party id: ${JSON.stringify(party)}`);
}

function templateKey(templateId: string, rules: FilterRules, field: 'templateId' | 'interfaceId'): string {
  const ref = parseIdentifier(templateId);
  if (!ref) throw DecodeFailure.body(`DecodingFailure at .${field}: invalid identifier ${JSON.stringify(templateId)}`);
  if (rules.rejectPackageIdForm && !isPackageNameRef(ref)) {
    throw invalidArgument(
      `Invalid field packageId: package-id references are not supported in filters, expected a package name (#<package-name>:${ref.moduleName}:${ref.entityName}) but got ${templateId}`,
    );
  }
  if (field === 'interfaceId') {
    // The simulator computes no interface views: interface filters are refused as unknown.
    throw new LedgerApiError('TEMPLATES_OR_INTERFACES_NOT_FOUND', `The following templates or interfaces do not exist: ${templateId}`);
  }
  return rules.packages.resolveFilterTemplate(templateId, ref);
}

function partyFilter(filters: wire.Filters | undefined, rules: FilterRules): PartyFilter {
  const result = new PartyFilter();
  const cumulative = filters?.cumulative ?? [];
  if (cumulative.length === 0) result.wildcard = true;
  for (const { identifierFilter: f } of cumulative) {
    if (!f || 'Empty' in f) {
      result.wildcard = true;
    } else if ('WildcardFilter' in f) {
      result.wildcard = true;
      result.wildcardBlob ||= f.WildcardFilter.value.includeCreatedEventBlob === true;
    } else if ('TemplateFilter' in f) {
      const key = templateKey(f.TemplateFilter.value.templateId, rules, 'templateId');
      result.templates.set(key, (result.templates.get(key) ?? false) || f.TemplateFilter.value.includeCreatedEventBlob === true);
    } else {
      templateKey(f.InterfaceFilter.value.interfaceId, rules, 'interfaceId');
    }
  }
  return result;
}

export function parseEventFormat(format: { filtersByParty?: Record<string, wire.Filters>; filtersForAnyParty?: wire.Filters }, rules: FilterRules): EventFilter {
  const byParty = new Map<string, PartyFilter>();
  for (const [party, filters] of Object.entries(format.filtersByParty ?? {})) {
    checkParty(party);
    byParty.set(party, partyFilter(filters, rules));
  }
  const anyParty = format.filtersForAnyParty ? partyFilter(format.filtersForAnyParty, rules) : undefined;
  if (byParty.size === 0 && !anyParty) throw invalidArgument('filtersByParty and filtersForAnyParty cannot be empty simultaneously');
  return new EventFilter(byParty, anyParty);
}

const SHAPES: Record<string, Shape> = {
  TRANSACTION_SHAPE_ACS_DELTA: 'ACS_DELTA',
  TRANSACTION_SHAPE_LEDGER_EFFECTS: 'LEDGER_EFFECTS',
};

export function parseTransactionFormat(format: wire.TransactionFormat, rules: FilterRules): TransactionFilter {
  const shape = SHAPES[format.transactionShape];
  if (!shape) throw new LedgerApiError('MISSING_FIELD', 'The submitted command is missing a mandatory field: transaction_shape');
  return { shape, events: parseEventFormat(format.eventFormat, rules) };
}

export function parseUpdateFormat(format: wire.UpdateFormat, rules: FilterRules): UpdateFilter {
  const result: UpdateFilter = {};
  if (format.includeTransactions) result.transactions = parseTransactionFormat(format.includeTransactions, rules);
  if (format.includeReassignments) result.reassignments = parseEventFormat(format.includeReassignments, rules);
  const topology = format.includeTopologyEvents?.includeParticipantAuthorizationEvents;
  if (topology) {
    const parties = topology.parties ?? [];
    parties.forEach(checkParty);
    result.topology = { parties: parties.length > 0 ? new Set(parties) : undefined };
  }
  if (!result.transactions && !result.reassignments && !result.topology) {
    throw invalidArgument('update_format must include at least one of transactions, reassignments or topology events');
  }
  return result;
}

/** The deprecated `filter`/`verbose` form: ACS-delta transactions plus reassignments, no topology. */
export function parseLegacyFilter(filter: wire.LegacyTransactionFilter, rules: FilterRules): UpdateFilter {
  const events = parseEventFormat(filter, rules);
  return { transactions: { shape: 'ACS_DELTA', events }, reassignments: events };
}
