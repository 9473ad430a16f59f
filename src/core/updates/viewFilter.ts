/** The Updates view's filter: what to read (an UpdateFilter) plus which range, order and page size. */
import type { UpdatesPageQuery } from '../api/client';
import { legacySelection, type UpdateFilter, type UpdatesSelection } from '../api/updatesRequest';
import { RequestValidationError } from '../errors';
import { readableParties, shortParty, type UserRights } from '../models/users';
import { entityName } from '../daml/identifiers';

export interface UpdatesViewFilter extends UpdateFilter {
  beginExclusive?: number;
  endInclusive?: number;
  descending?: boolean;
  pageSize?: number;
  /** The deprecated `filter`/`verbose` request form, for participants before 3.3's `updateFormat`. */
  legacyForm?: boolean;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

/** Read as any party when the user may, else as the parties of its rights. */
export function defaultViewFilter(rights: UserRights | undefined): UpdatesViewFilter {
  if (!rights || rights.readAsAnyParty || rights.participantAdmin) return { anyParty: true, verbose: true, includeReassignments: true };
  return { parties: readableParties(rights), verbose: true, includeReassignments: true };
}

/** The parties a read of the connection's own choosing is made as: any party when the user may, else its own. */
export function defaultReadAs(rights: UserRights | undefined): { parties: string[]; anyParty: boolean } {
  const f = defaultViewFilter(rights);
  return { parties: f.parties ?? [], anyParty: f.anyParty === true };
}

/** Refuses what the participant would refuse, before anything is sent (field names as in the filter). */
export function checkViewFilter(f: UpdatesViewFilter): void {
  if (!f.anyParty && !(f.parties?.length)) throw new RequestValidationError('parties', 'Choose at least one party, or read as any party');
  if (f.pageSize !== undefined && (!Number.isSafeInteger(f.pageSize) || f.pageSize < 1 || f.pageSize > MAX_PAGE_SIZE)) {
    throw new RequestValidationError('pageSize', `The page size must be between 1 and ${MAX_PAGE_SIZE}`);
  }
  for (const [field, v] of [['beginExclusive', f.beginExclusive], ['endInclusive', f.endInclusive]] as const) {
    if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) throw new RequestValidationError(field, `${field} must be a non-negative integer`);
  }
  if (f.beginExclusive !== undefined && f.endInclusive !== undefined && f.endInclusive <= f.beginExclusive) {
    throw new RequestValidationError('endInclusive', 'The end offset must be after the begin offset');
  }
  if (f.legacyForm && f.descending) throw new RequestValidationError('descending', 'Participants that need the legacy request form cannot list newest first');
}

export function selectionOf(f: UpdatesViewFilter): UpdatesSelection {
  const filter: UpdateFilter = {
    parties: f.anyParty ? undefined : f.parties,
    anyParty: f.anyParty,
    templateIds: f.templateIds,
    interfaceIds: f.interfaceIds,
    shape: f.shape,
    includeTransactions: f.includeTransactions,
    // In the view, reassignments are shown unless turned off (the picker and the summary say so).
    includeReassignments: f.includeReassignments !== false,
    includeTopologyEvents: f.includeTopologyEvents,
    verbose: f.verbose,
    includeInterfaceViews: f.includeInterfaceViews,
  };
  return f.legacyForm ? legacySelection(filter) : { filter };
}

export function pageQueryOf(f: UpdatesViewFilter): UpdatesPageQuery {
  checkViewFilter(f);
  return { selection: selectionOf(f), beginExclusive: f.beginExclusive, endInclusive: f.endInclusive, descending: f.descending, pageSize: f.pageSize ?? DEFAULT_PAGE_SIZE };
}

/**
 * The filter with its range moved so that the update at `offset` is on the first page: the range
 * starts just before it (ascending) or ends at it (newest first). Who and what are kept.
 */
export function rangeStartingAt(f: UpdatesViewFilter, offset: number): UpdatesViewFilter {
  if (!Number.isSafeInteger(offset) || offset < 1) throw new RequestValidationError('offset', `An update's offset is a positive integer, not ${offset}`);
  return f.descending
    ? { ...f, endInclusive: offset, beginExclusive: f.beginExclusive !== undefined && f.beginExclusive < offset ? f.beginExclusive : undefined }
    : { ...f, beginExclusive: offset - 1, endInclusive: undefined };
}

/** One line for the view's description: who, what, which order. */
export function filterSummary(f: UpdatesViewFilter): string {
  const who = f.anyParty ? 'any party' : (f.parties ?? []).map((p) => shortParty(p).split('::')[0]).join(', ') || 'no party';
  const what = [...(f.templateIds ?? []), ...(f.interfaceIds ?? [])].map(entityName);
  return [
    who,
    what.length ? what.join(', ') : undefined,
    f.shape === 'ledger-effects' ? 'ledger effects' : undefined,
    f.includeTopologyEvents ? '+topology' : undefined,
    f.includeReassignments === false ? '−reassignments' : undefined,
    f.beginExclusive || f.endInclusive ? `offsets ${f.beginExclusive ?? 0}–${f.endInclusive ?? 'end'}` : undefined,
    f.descending ? 'newest first' : undefined,
    f.legacyForm ? 'legacy form (deprecated)' : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}
