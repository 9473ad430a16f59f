/**
 * The active contract set: `POST /v2/state/active-contracts` (a list, resumable with the
 * `streamContinuationToken` of its last element from 3.5 on; before, only cut with `limit`) and `POST /v2/state/active-contracts-page` (3.5.1+).
 * Both read a page from a position in creation order, so a page costs the same however large the set.
 */
import { decodeActiveContractsRequest, type DecodedActiveContractsRequest } from '../decode';
import { createdEventJson, unassignedEventJson } from '../encode';
import { LedgerApiError, invalidArgument } from '../errors';
import { parseEventFormat, parseLegacyFilter, type EventFilter } from '../filters';
import type { ContractRecord } from '../model';
import { queryInt, route, sendRawJson, streamJsonArray, type RequestContext, type Route } from '../server';
import { ensureCanRead, filterRules, type Services } from './services';
import { negativeOffset, prunedDataAccessed } from './updates';

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

interface Position {
  offset: number;
  index: number;
}

function encodeToken(p: Position): string {
  return Buffer.from(JSON.stringify(p)).toString('base64');
}

function decodeToken(token: string, offset: number | undefined): Position {
  let p: Partial<Position> | undefined;
  try {
    p = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Partial<Position>;
  } catch {
    p = undefined;
  }
  if (!p || !Number.isSafeInteger(p.offset) || !Number.isSafeInteger(p.index)) throw invalidArgument('Invalid page token');
  if (offset !== undefined && p.offset !== offset) throw invalidArgument('The page token was issued for another active_at_offset');
  return p as Position;
}

function eventFilterOf(s: Services, req: DecodedActiveContractsRequest): EventFilter {
  if (req.eventFormat) {
    if (req.filter || req.verbose === true) throw invalidArgument('Both filter/verbose and event_format is specified. Please use either backwards compatible arguments (filter and verbose) or event_format, but not both.');
    return parseEventFormat(req.eventFormat, filterRules(s));
  }
  if (!req.filter) throw invalidArgument('Either filter/verbose or event_format is required. Please use either backwards compatible arguments (filter and verbose) or event_format, but not both.');
  const legacy = parseLegacyFilter(req.filter, filterRules(s));
  return legacy.transactions!.events;
}

/** The snapshot offset, checked as Canton checks it. */
function snapshotOffset(s: Services, offset: number): number {
  if (offset < 0) throw negativeOffset(offset, 'active_at_offset');
  if (offset > s.ledger.ledgerEnd) {
    throw new LedgerApiError('OFFSET_AFTER_LEDGER_END', `Active at offset (${offset}) is after ledger end (${s.ledger.ledgerEnd})`);
  }
  if (offset > 0 && offset < s.ledger.prunedUpTo) throw prunedDataAccessed(offset, offset, s.ledger.prunedUpTo);
  return offset;
}

function entryJson(s: Services, c: ContractRecord, offset: number, filter: EventFilter, token: string | undefined): string {
  const match = filter.match(c.stakeholders, c.template)!;
  const tail = token === undefined ? '' : `,"streamContinuationToken":${JSON.stringify(token)}`;
  // Unassigned by the snapshot's offset and not yet assigned: in flight, as the spec's JsContractEntry
  // has it (its created event is the last activation, on the synchronizer it left).
  if (c.unassigned && c.unassigned.offset <= offset) {
    const incomplete = `{"createdEvent":${createdEventJson(c, c.createdOffset, c.createdNodeId, match, true, s.profile.wire)},"unassignedEvent":${unassignedEventJson(c, c.unassigned, match, s.profile.wire)}}`;
    return `{"workflowId":"","contractEntry":{"JsIncompleteUnassigned":${incomplete}}${tail}}`;
  }
  const active =
    `{"createdEvent":${createdEventJson(c, c.createdOffset, c.createdNodeId, match, true, s.profile.wire)}` +
    `,"synchronizerId":${JSON.stringify(c.synchronizerId)},"reassignmentCounter":${c.reassignmentCounter}}`;
  return `{"workflowId":"","contractEntry":{"JsActiveContract":${active}}${tail}}`;
}

function read(s: Services, ctx: RequestContext<DecodedActiveContractsRequest>, offset: number, from: number, max: number) {
  const filter = eventFilterOf(s, ctx.body);
  // Zero is the ledger's beginning: nothing is active there.
  if (offset === 0) return { filter, contracts: [] as ContractRecord[], positions: [] as number[], next: undefined };
  return { filter, ...s.ledger.activeContractsAt(offset, from, max, (c) => filter.match(c.stakeholders, c.template) !== undefined) };
}

async function list(s: Services, ctx: RequestContext<DecodedActiveContractsRequest>): Promise<void> {
  const req = ctx.body;
  ensureCanRead(ctx.caller, req.eventFormat ?? req.filter);
  if (req.activeAtOffset === undefined) throw new LedgerApiError('MISSING_FIELD', 'The submitted command is missing a mandatory field: active_at_offset');
  const offset = snapshotOffset(s, req.activeAtOffset);
  // Before 3.5 the list has no continuation token (3.3–3.4.12 specs): one sent is an unknown field, ignored.
  const resumable = s.profile.acsContinuationToken;
  const from = resumable && req.token ? decodeToken(req.token, offset).index + 1 : 0;
  const limit = queryInt(ctx.url, 'limit');
  // As for updates: more than the cap is an error, not a truncated list, unless `limit` cuts it.
  const max = limit === undefined || limit > s.listCap ? s.listCap + 1 : Math.max(0, limit);
  const { filter, contracts, positions } = read(s, ctx, offset, from, max);
  if (contracts.length > s.listCap) {
    throw new LedgerApiError('JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', `The number of matching elements (${contracts.length}) is greater than the node limit (${s.listCap}).`);
  }
  // Each element's continuation token names its own position, so a cut list resumes after it.
  const entries = contracts.map((c, i) => ({ c, index: positions[i] }));
  await streamJsonArray(ctx.res, entries, (e) => entryJson(s, e.c, offset, filter, resumable ? encodeToken({ offset, index: e.index }) : undefined), ctx.signal);
}

function page(s: Services, ctx: RequestContext<DecodedActiveContractsRequest>): void {
  const req = ctx.body;
  ensureCanRead(ctx.caller, req.eventFormat);
  if (!req.eventFormat) throw new LedgerApiError('MISSING_FIELD', 'The submitted command is missing a mandatory field: event_format');
  const offset = snapshotOffset(s, req.activeAtOffset ?? s.ledger.ledgerEnd);
  const size = req.maxPageSize ?? DEFAULT_PAGE_SIZE;
  if (size < 0 || size > MAX_PAGE_SIZE) throw invalidArgument(`max_page_size must be between 0 and ${MAX_PAGE_SIZE}`);
  const from = req.token ? decodeToken(req.token, offset).index : 0;
  const { filter, contracts, next } = read(s, ctx, offset, from, size || DEFAULT_PAGE_SIZE);
  const token = next === undefined ? '' : encodeToken({ offset, index: next });
  sendRawJson(ctx.res, 200, `{"activeAtOffset":${offset},"activeContracts":[${contracts.map((c) => entryJson(s, c, offset, filter, undefined)).join(',')}],"nextPageToken":${JSON.stringify(token)}}`);
}

export function acsRoutes(s: Services): Route[] {
  return [
    route({ method: 'POST', path: '/v2/state/active-contracts', body: 'GetActiveContractsRequest', decode: decodeActiveContractsRequest, handle: (ctx) => list(s, ctx) }),
    route({ method: 'POST', path: '/v2/state/active-contracts-page', body: 'GetActiveContractsPageRequest', decode: decodeActiveContractsRequest, handle: (ctx) => page(s, ctx) }),
  ];
}
