/**
 * Event, transaction and update formats (NOTES §2.1.1): validated as Canton validates them, and
 * turned into matchers that decide, per event, which requesting parties see it.
 */
import type * as wire from '../core/models/wire';
import { DecodeFailure, LedgerApiError, invalidArgument } from './errors';
import { isPackageNameRef, parseIdentifierRef, type IdentifierRef, type PackageStore, type TemplateDef } from './packages';

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
  /**
   * The interfaces (package-id form) of the event's template whose filters, for one of `parties`,
   * asked for the view: the `interfaceViews` of a created event, the `implementedInterfaces` of an
   * archive or a consuming exercise.
   */
  interfaces: readonly string[];
}

const NO_INTERFACES: readonly string[] = Object.freeze([]);

/** What an interface filter asked for; several filters for one interface add up. */
interface InterfaceRequest {
  view: boolean;
  blob: boolean;
}

/** What one party's filter selects of an event: whether it matches, with the blob, and which views. */
interface Projection {
  blob: boolean;
  views: readonly string[];
}

const WITH_BLOB: Projection = { blob: true, views: NO_INTERFACES };
const WITHOUT_BLOB: Projection = { blob: false, views: NO_INTERFACES };

/** `list` with the ids of `more` it lacks (a new array only when there are some). */
function withAll(list: readonly string[], more: readonly string[]): readonly string[] {
  const missing = more.filter((id) => !list.includes(id));
  return missing.length === 0 ? list : [...list, ...missing];
}

/**
 * One party's cumulative filter: a template wildcard and/or specific templates (matched by package
 * name) and/or interfaces (matched by the interfaces a template implements, by id). Filters are
 * OR-ed: an event matches when any of them does, and gets the blob when any matching one asks for it.
 */
export class PartyFilter {
  wildcard = false;
  wildcardBlob = false;
  readonly templates = new Map<string, boolean>();
  /** By interface id (package-id form): every package version of a filter's interface is listed. */
  readonly interfaces = new Map<string, InterfaceRequest>();

  /** undefined: no match. */
  project(template: TemplateDef): Projection | undefined {
    const byTemplate = this.templates.get(template.nameKey);
    let matched = this.wildcard || byTemplate !== undefined;
    let blob = (this.wildcard && this.wildcardBlob) || byTemplate === true;
    let views = NO_INTERFACES;
    if (this.interfaces.size > 0) {
      for (const { interfaceId } of template.interfaces) {
        const request = this.interfaces.get(interfaceId);
        if (!request) continue;
        matched = true;
        blob ||= request.blob;
        if (request.view) views = views === NO_INTERFACES ? [interfaceId] : [...views, interfaceId];
      }
    }
    if (!matched) return undefined;
    // Shared results for the common case without views: this runs for every event and party.
    if (views === NO_INTERFACES) return blob ? WITH_BLOB : WITHOUT_BLOB;
    return { blob, views };
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

  /** Which of an event's `candidates` (stakeholders or witnesses, sorted) see an event of `template`. */
  match(candidates: readonly string[], template: TemplateDef): Match | undefined {
    const parties: string[] = [];
    let blob = false;
    let interfaces = NO_INTERFACES;
    const any = this.anyParty?.project(template);
    for (const party of candidates) {
      const own = this.byParty.get(party)?.project(template);
      if (own === undefined && any === undefined) continue;
      parties.push(party);
      blob ||= own?.blob === true || any?.blob === true;
      if (own && own.views.length > 0) interfaces = withAll(interfaces, own.views);
      if (any && any.views.length > 0) interfaces = withAll(interfaces, any.views);
    }
    if (parties.length === 0) return undefined;
    // All of them, the common case: reuse the shared list (its JSON is cached by the encoder).
    return { parties: parties.length === candidates.length ? candidates : parties, blob, interfaces };
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
  /** 3.8's contract-id filter: only the updates that create, exercise, archive or reassign one of these. */
  contractIds?: ReadonlySet<string>;
}

const PARTY = /^[A-Za-z0-9:\-_ ]{1,255}$/;

export function checkParty(party: string): void {
  if (!PARTY.test(party)) throw invalidArgument(`Invalid party id: ${JSON.stringify(party)}`);
}

function filterRef(id: string, rules: FilterRules, field: 'templateId' | 'interfaceId'): IdentifierRef {
  const ref = parseIdentifierRef(id);
  if (!ref) throw DecodeFailure.body(`DecodingFailure at .${field}: invalid identifier ${JSON.stringify(id)}`);
  if (rules.rejectPackageIdForm && !isPackageNameRef(ref)) {
    throw invalidArgument(
      `Invalid field packageId: package-id references are not supported in filters, expected a package name (#<package-name>:${ref.moduleName}:${ref.entityName}) but got ${id}`,
    );
  }
  return ref;
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
      const { templateId, includeCreatedEventBlob } = f.TemplateFilter.value;
      const key = rules.packages.resolveFilterTemplate(templateId, filterRef(templateId, rules, 'templateId'));
      result.templates.set(key, (result.templates.get(key) ?? false) || includeCreatedEventBlob === true);
    } else {
      const { interfaceId, includeInterfaceView, includeCreatedEventBlob } = f.InterfaceFilter.value;
      for (const id of rules.packages.resolveFilterInterface(interfaceId, filterRef(interfaceId, rules, 'interfaceId'))) {
        const request = result.interfaces.get(id) ?? { view: false, blob: false };
        result.interfaces.set(id, { view: request.view || includeInterfaceView === true, blob: request.blob || includeCreatedEventBlob === true });
      }
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
