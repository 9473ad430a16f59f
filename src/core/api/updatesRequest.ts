/**
 * Builds `GetUpdatesRequest` bodies from a filter people think in (parties, templates, what to
 * include), and refuses combinations the participant would reject, before anything is sent.
 */
import { RequestValidationError } from '../errors';
import type * as wire from '../models/wire';

export type TransactionShapeName = 'acs-delta' | 'ledger-effects';

/** What to read from the update stream. */
export interface UpdateFilter {
  /** Read as these parties (ReadAs or ActAs rights needed). */
  parties?: string[];
  /** Read as any party (CanReadAsAnyParty needed). */
  anyParty?: boolean;
  /** `#package-name:Module:Entity` (3.5+ rejects the package-id form in filters). */
  templateIds?: string[];
  interfaceIds?: string[];
  /** Default `acs-delta`. */
  shape?: TransactionShapeName;
  /** Default true. */
  includeTransactions?: boolean;
  includeReassignments?: boolean;
  includeTopologyEvents?: boolean;
  verbose?: boolean;
  includeCreatedEventBlob?: boolean;
  includeInterfaceViews?: boolean;
}

export interface UpdatesRange {
  /** Exclusive lower bound; 0 = from the ledger start. */
  beginExclusive: number;
  /** Inclusive upper bound; absent = open-ended (tail). */
  endInclusive?: number;
  /** Newest first (3.5.1+); needs `endInclusive`. */
  descending?: boolean;
}

/** Either a filter we translate, a ready `updateFormat`, or the deprecated legacy form. */
export type UpdatesSelection =
  | { filter: UpdateFilter; updateFormat?: never; legacy?: never }
  | { updateFormat: wire.UpdateFormat; filter?: never; legacy?: never }
  | { legacy: { filter: wire.LegacyTransactionFilter; verbose?: boolean }; filter?: never; updateFormat?: never };

const SHAPES: Record<TransactionShapeName, wire.TransactionShape> = {
  'acs-delta': 'TRANSACTION_SHAPE_ACS_DELTA',
  'ledger-effects': 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
};

/** A package-id form template id: 64 hex, colon, module, colon, entity. */
const PACKAGE_ID_FORM = /^[0-9a-f]{64}:/i;

function cumulativeFilters(f: UpdateFilter): wire.Filters {
  // Written even when false: the 3.3/3.4.11 specs mark it required, and strict generated clients check.
  const blob = { includeCreatedEventBlob: f.includeCreatedEventBlob ?? false };
  const cumulative: wire.CumulativeFilter[] = [
    ...(f.templateIds ?? []).map((templateId) => ({ identifierFilter: { TemplateFilter: { value: { templateId, ...blob } } } })),
    ...(f.interfaceIds ?? []).map((interfaceId) => ({
      identifierFilter: { InterfaceFilter: { value: { interfaceId, includeInterfaceView: f.includeInterfaceViews ?? true, ...blob } } },
    })),
  ];
  // No template or interface: an explicit wildcard (an empty list would mean the same, but explicit is clearer in logs).
  if (cumulative.length === 0) cumulative.push({ identifierFilter: { WildcardFilter: { value: { ...blob } } } });
  return { cumulative };
}

/**
 * The EventFormat for these parties. `filtersByParty` and `verbose` are always written because the
 * 3.3/3.4.11 specs mark them required, and strict generated clients reject their absence.
 */
export function buildEventFormat(f: UpdateFilter): wire.EventFormat {
  const parties = [...new Set(f.parties ?? [])];
  if (!f.anyParty && parties.length === 0) {
    throw new RequestValidationError('parties', 'Choose at least one party, or read as any party.');
  }
  for (const id of [...(f.templateIds ?? []), ...(f.interfaceIds ?? [])]) {
    if (PACKAGE_ID_FORM.test(id)) {
      throw new RequestValidationError('templateIds', `Filters need the package-name form (#package-name:Module:Entity), not a package id: ${id}`);
    }
  }
  const filters = cumulativeFilters(f);
  const format: wire.EventFormat = { filtersByParty: {}, verbose: f.verbose ?? false };
  if (f.anyParty) format.filtersForAnyParty = filters;
  else for (const p of parties) format.filtersByParty![p] = filters;
  return format;
}

export function buildTransactionFormat(f: UpdateFilter): wire.TransactionFormat {
  return { eventFormat: buildEventFormat(f), transactionShape: SHAPES[f.shape ?? 'acs-delta'] };
}

export function buildUpdateFormat(f: UpdateFilter): wire.UpdateFormat {
  const format: wire.UpdateFormat = {};
  if (f.includeTransactions ?? true) format.includeTransactions = buildTransactionFormat(f);
  if (f.includeReassignments) format.includeReassignments = buildEventFormat(f);
  if (f.includeTopologyEvents) {
    format.includeTopologyEvents = { includeParticipantAuthorizationEvents: { parties: f.anyParty ? [] : [...new Set(f.parties ?? [])] } };
  }
  if (!format.includeTransactions && !format.includeReassignments && !format.includeTopologyEvents) {
    throw new RequestValidationError('updateFormat', 'Include at least one kind of update: transactions, reassignments or topology events.');
  }
  return format;
}

export function validateRange(r: UpdatesRange): void {
  if (!Number.isSafeInteger(r.beginExclusive) || r.beginExclusive < 0) {
    throw new RequestValidationError('beginExclusive', `beginExclusive must be an integer ≥ 0, not ${r.beginExclusive}`);
  }
  if (r.endInclusive !== undefined) {
    if (!Number.isSafeInteger(r.endInclusive) || r.endInclusive <= 0) {
      throw new RequestValidationError('endInclusive', `endInclusive must be an integer > 0, not ${r.endInclusive}`);
    }
    if (r.endInclusive < r.beginExclusive) {
      throw new RequestValidationError('endInclusive', `endInclusive (${r.endInclusive}) is below beginExclusive (${r.beginExclusive})`);
    }
  }
  if (r.descending && r.endInclusive === undefined) {
    throw new RequestValidationError('descendingOrder', 'Descending order needs an end offset.');
  }
}

/**
 * The body of `POST /v2/updates[/flats]`; exactly one of updateFormat or the legacy filter.
 * `topLevelFilterVerbose` false (a release that refuses the top-level `filter`/`verbose`, 3.6.1 on:
 * see `VersionFacts.topLevelFilterVerbose`): neither is written, and a legacy selection is sent as
 * the updateFormat that means the same.
 */
export function buildGetUpdatesRequest(range: UpdatesRange, selection: UpdatesSelection, topLevelFilterVerbose = true): wire.GetUpdatesRequest {
  validateRange(range);
  const req: wire.GetUpdatesRequest = { beginExclusive: range.beginExclusive };
  if (range.endInclusive !== undefined) req.endInclusive = range.endInclusive;
  if (range.descending) req.descendingOrder = true;
  const given = [selection.filter, selection.updateFormat, selection.legacy].filter((x) => x !== undefined).length;
  if (given !== 1) throw new RequestValidationError('updateFormat', 'Give exactly one of a filter, an updateFormat or the legacy filter.');
  if (selection.legacy && topLevelFilterVerbose) {
    req.filter = selection.legacy.filter;
    if (selection.legacy.verbose !== undefined) req.verbose = selection.legacy.verbose;
  } else {
    req.updateFormat = selection.legacy ? legacyUpdateFormat(selection.legacy) : (selection.updateFormat ?? buildUpdateFormat(selection.filter!));
    // The 3.3 spec marks `verbose` required; false is accepted alongside updateFormat (true is not).
    if (topLevelFilterVerbose) req.verbose = false;
  }
  return req;
}

/** What the legacy form reads (ACS-delta transactions and reassignments of these parties), as an updateFormat. */
export function legacyUpdateFormat(legacy: { filter: wire.LegacyTransactionFilter; verbose?: boolean }): wire.UpdateFormat {
  const eventFormat: wire.EventFormat = { filtersByParty: legacy.filter.filtersByParty ?? {}, verbose: legacy.verbose ?? false };
  if (legacy.filter.filtersForAnyParty) eventFormat.filtersForAnyParty = legacy.filter.filtersForAnyParty;
  return { includeTransactions: { eventFormat, transactionShape: SHAPES['acs-delta'] }, includeReassignments: eventFormat };
}

/** The legacy request form of a filter (ACS delta transactions plus reassignments, no topology). */
export function legacySelection(f: UpdateFilter): UpdatesSelection {
  const { filtersByParty, filtersForAnyParty } = buildEventFormat(f);
  return { legacy: { filter: { filtersByParty, ...(filtersForAnyParty ? { filtersForAnyParty } : {}) }, verbose: f.verbose ?? false } };
}
