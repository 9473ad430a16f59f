/**
 * `POST /v2/updates` (and its 3.5 alias `/flats`) and `POST /v2/updates/get-updates-page`,
 * including the HTTP list rules: the element cap (413), `limit`, and the idle timeout that ends
 * open-ended requests (updates committed while waiting are included); and the `/v2/updates`
 * websocket channel, which has none of those rules.
 */
import { createHash } from 'node:crypto';
import type * as wire from '../../core/models/wire';
import { UPDATES_CONTRACT_ID_FIELD, type UpdatesRequestWithContractIds } from '../../core/api/contractIdFilter';
import { decodeGetUpdateByIdRequest, decodeGetUpdateByOffsetRequest, decodeGetUpdatesPageRequest, decodeGetUpdatesRequest } from '../decode';
import { isVisible, updateJson } from '../encode';
import { LedgerApiError, invalidArgument, offsetAfterLedgerEnd } from '../errors';
import { parseLegacyFilter, parseUpdateFormat, type UpdateFilter } from '../filters';
import type { DemoLedger } from '../ledger';
import type { Caller } from '../auth';
import { entryKey, type CheckpointRecord, type LogEntry } from '../model';
import { channel, queryInt, route, sendRawJson, streamJsonArray, type Channel, type ChannelContext, type RequestContext, type Route } from '../server';
import { ensureCanRead, ensureCanReadUpdates, filterRules, type Services } from './services';

const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;


export function negativeOffset(offset: number, field: string): LedgerApiError {
  return new LedgerApiError(
    'NEGATIVE_OFFSET',
    `Offset ${offset} in ${field} is a negative integer: the offset in ${field} field has to be a non-negative integer (>=0)`,
  );
}

function nonPositiveOffset(offset: number, field: string): LedgerApiError {
  return new LedgerApiError(
    'NON_POSITIVE_OFFSET',
    `Offset ${offset} in ${field} is not a positive integer: the offset has to be either a positive integer (>0) or not defined at all`,
  );
}

export function prunedDataAccessed(from: number, to: number, prunedUpTo: number): LedgerApiError {
  return new LedgerApiError('PARTICIPANT_PRUNED_DATA_ACCESSED', `Transactions request from ${from} to ${to} precedes pruned offset ${prunedUpTo}`, {
    context: { earliest_offset: String(prunedUpTo) },
  });
}

const EITHER_FORM = 'Please use either backwards compatible arguments (filter and verbose) or update_format, but not both.';

/** The update filter of a GetUpdatesRequest: the modern `updateFormat`, or the legacy `filter`/`verbose`. */
function updateFilterOf(s: Services, req: wire.GetUpdatesRequest): UpdateFilter {
  const rules = filterRules(s);
  if (req.updateFormat) {
    if (req.filter || req.verbose === true) throw invalidArgument(`Both filter/verbose and update_format is specified. ${EITHER_FORM}`);
    return parseUpdateFormat(req.updateFormat, rules);
  }
  if (!req.filter) throw invalidArgument(`Either filter/verbose or update_format is required. ${EITHER_FORM}`);
  return parseLegacyFilter(req.filter, rules);
}

/** Visible entries with offsets in (begin, end], newest first (checkpoints are left out of descending lists). */
function collectDescending(ledger: DemoLedger, filter: UpdateFilter, begin: number, end: number, max: number): LogEntry[] {
  const out: LogEntry[] = [];
  for (let i = ledger.indexAfterKey(end * 2 + 1) - 1; i >= 0 && out.length < max; i--) {
    const entry = ledger.entries[i];
    if (entry.offset <= begin) break;
    if (isVisible(entry, filter, false)) out.push(entry);
  }
  return out;
}

/**
 * Visible entries after offset `begin`, oldest first: up to `end` if given, else tailing the ledger
 * until no new element arrived for `idleMs` (the timer also runs before the first one).
 */
async function collectAscending(
  ledger: DemoLedger,
  filter: UpdateFilter,
  range: { begin: number; end?: number },
  max: number,
  idleMs: number,
  signal: AbortSignal,
): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  const lastKey = range.end === undefined ? Infinity : range.end * 2 + 1;
  let cursor = range.begin * 2 + 1;
  const scan = (): number => {
    const before = out.length;
    for (let i = ledger.indexAfterKey(cursor); i < ledger.entries.length && out.length < max; i++) {
      const entry = ledger.entries[i];
      if (entryKey(entry) > lastKey) break;
      cursor = entryKey(entry);
      if (isVisible(entry, filter, true)) out.push(entry);
    }
    return out.length - before;
  };
  scan();
  if (range.end !== undefined) return out;

  let deadline = Date.now() + idleMs;
  while (out.length < max && !signal.aborted) {
    const grew = await appendedWithin(ledger, deadline - Date.now(), signal);
    if (!grew) break;
    if (scan() > 0) deadline = Date.now() + idleMs;
  }
  return out;
}

/** Resolves true when the ledger grows within `ms`, false on timeout or abort. */
function appendedWithin(ledger: DemoLedger, ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0 || signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const finish = (grew: boolean) => {
      clearTimeout(timer);
      ledger.off('appended', onAppend);
      signal.removeEventListener('abort', onAbort);
      resolve(grew);
    };
    const onAppend = () => finish(true);
    const onAbort = () => finish(false);
    const timer = setTimeout(() => finish(false), ms);
    ledger.on('appended', onAppend);
    signal.addEventListener('abort', onAbort);
  });
}

/** 3.8's contract-id filter (earlier releases ignore the field, as any unknown field). */
function withContractIds(s: Services, filter: UpdateFilter, req: wire.GetUpdatesRequest): UpdateFilter {
  const ids = (req as UpdatesRequestWithContractIds)[UPDATES_CONTRACT_ID_FIELD];
  return s.profile.contractIdFilter && ids && ids.length > 0 ? { ...filter, contractIds: new Set(ids) } : filter;
}

/** The checks a GetUpdatesRequest passes before anything is read, list or stream alike. */
function checkedUpdatesRequest(s: Services, req: wire.GetUpdatesRequest, caller: Caller): { begin: number; end?: number; descending: boolean; filter: UpdateFilter } {
  const { ledger } = s;
  ensureCanReadUpdates(caller, req.updateFormat);
  ensureCanRead(caller, req.filter);
  const { beginExclusive: begin, endInclusive: end } = req;
  // Before 3.5.1 there is no descendingOrder field: the server ignores it like any unknown field.
  const descending = s.profile.descendingOrder && req.descendingOrder === true;
  if (begin < 0) throw negativeOffset(begin, 'begin_exclusive');
  if (end !== undefined && end <= 0) throw nonPositiveOffset(end, 'end_inclusive');
  if (descending && end === undefined) throw invalidArgument('descending_order requires end_inclusive to be set');
  if (begin > ledger.ledgerEnd) throw offsetAfterLedgerEnd('Begin', begin, ledger.ledgerEnd);
  if (end !== undefined && end > ledger.ledgerEnd) throw offsetAfterLedgerEnd('End', end, ledger.ledgerEnd);
  if (end !== undefined && begin > end) {
    throw new LedgerApiError('OFFSET_OUT_OF_RANGE', `Begin offset (${begin}) is after end offset (${end})`);
  }
  const filter = withContractIds(s, updateFilterOf(s, req), req);
  if (begin < ledger.prunedUpTo) throw prunedDataAccessed(begin + 1, end ?? ledger.ledgerEnd, ledger.prunedUpTo);
  return { begin, end, descending, filter };
}

async function listUpdates(s: Services, ctx: RequestContext<wire.GetUpdatesRequest>): Promise<void> {
  const { ledger } = s;
  const limit = queryInt(ctx.url, 'limit');
  const idleParam = queryInt(ctx.url, 'stream_idle_timeout_ms');
  const { begin, end, descending, filter } = checkedUpdatesRequest(s, ctx.body, ctx.caller);

  // Canton collects up to cap+1 elements: more than the cap is an error, not a truncated list.
  const max = limit === undefined || limit > s.listCap ? s.listCap + 1 : Math.max(0, limit);
  const entries = descending
    ? collectDescending(ledger, filter, begin, end!, max)
    : await collectAscending(ledger, filter, { begin, end }, max, idleParam ?? s.listWaitMs, ctx.signal);
  if (entries.length > s.listCap) {
    throw new LedgerApiError(
      'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
      `The number of matching elements (${entries.length}) is greater than the node limit (${s.listCap}).`,
    );
  }
  const render = (entry: LogEntry) => updateJson(entry, filter, s.profile.wire);
  const cut = s.faults.updatesList;
  if (cut && entries.length > cut.cutAfterElements) {
    if (cut.times !== undefined && --cut.times <= 0) delete s.faults.updatesList;
    await streamJsonArray(ctx.res, entries.slice(0, cut.cutAfterElements), render, ctx.signal, { leaveOpen: true });
    // Let the elements reach the client before the connection goes.
    setTimeout(() => ctx.res.destroy(), 20);
    return;
  }
  await streamJsonArray(ctx.res, entries, render, ctx.signal);
}

// ---------------------------------------------------------------- the websocket stream

/**
 * The `/v2/updates` channel: every visible element after `beginExclusive` as a frame, then the new
 * ones as they are written; with `endInclusive` the socket closes after that offset. A stream that
 * goes idle sends an offset checkpoint at the ledger end once, as Canton does (below). No cap and no
 * `limit`: those are HTTP list rules.
 */
async function streamUpdates(s: Services, ctx: ChannelContext<wire.GetUpdatesRequest>): Promise<void> {
  const { ledger } = s;
  const { begin, end, descending, filter } = checkedUpdatesRequest(s, ctx.body, ctx.caller);
  const render = (entry: LogEntry) => updateJson(entry, filter, s.profile.wire);
  const fault = s.faults.updatesSocket;
  if (fault && fault.times !== undefined && --fault.times <= 0) delete s.faults.updatesSocket;
  let sent = 0;
  const send = async (json: string): Promise<boolean> => {
    if (fault && sent >= fault.cutAfterFrames) {
      ctx.cut();
      return false;
    }
    sent++;
    await ctx.send(json);
    return !ctx.signal.aborted;
  };
  if (descending) {
    for (const entry of collectDescending(ledger, filter, begin, end!, Number.MAX_SAFE_INTEGER)) if (!(await send(render(entry)))) return;
    return ctx.close();
  }
  const lastKey = end === undefined ? Infinity : end * 2 + 1;
  let cursor = begin * 2 + 1;
  // The offset of the last checkpoint sent (the ledger's own or an idle one).
  let lastCheckpoint = -1;
  // The idle checkpoint sent last, while no element has followed it.
  let idle: CheckpointRecord | undefined;
  const checkpointNow = (offset: number): CheckpointRecord => {
    const now = ledger.now();
    return { kind: 'checkpoint', offset, synchronizerTimes: ledger.synchronizers.map((x) => ({ synchronizerId: x.id, recordTime: now })) };
  };
  while (!ctx.signal.aborted) {
    // As Canton when the next range begins after an idle checkpoint (injectCheckpoints, the RangeBegin
    // case): the checkpoint fetched then still names the offset just before the range, with later
    // times, and differs from the one streamed last, so it is sent again — one offset, two checkpoints.
    if (idle && ledger.indexAfterKey(cursor) < ledger.entries.length) {
      const again = checkpointNow(idle.offset);
      const later = again.synchronizerTimes.some((t, i) => t.recordTime !== idle?.synchronizerTimes[i]?.recordTime);
      idle = undefined;
      if (later && !(await send(render(again)))) return;
    }
    // Looked up again after every frame: pruning may have shifted the entries meanwhile.
    for (let i = ledger.indexAfterKey(cursor); i < ledger.entries.length; i = ledger.indexAfterKey(cursor)) {
      const entry = ledger.entries[i];
      if (entryKey(entry) > lastKey) break;
      cursor = entryKey(entry);
      if (!isVisible(entry, filter, true)) continue;
      if (!(await send(render(entry)))) return;
      if (entry.kind === 'checkpoint') lastCheckpoint = entry.offset;
    }
    // The end was at most the ledger end when the request came: everything up to it has been sent.
    if (end !== undefined) return ctx.close();
    const grew = await appendedWithin(ledger, s.idleCheckpointMs, ctx.signal);
    // As Canton's idle stream (IndexServiceImpl.injectCheckpoints, the Timeout case): a checkpoint at the
    // end of what the stream has gone through, only once the stream has gone past its begin, and only
    // at an offset past the last checkpoint sent. An idle stream that began at the ledger end gets
    // none, and a ledger that stays idle gets one, not one per interval.
    const offset = ledger.ledgerEnd;
    if (!grew && !ctx.signal.aborted && offset > begin && offset > lastCheckpoint && isVisible(IDLE_CHECKPOINT, filter, true)) {
      const checkpoint = checkpointNow(offset);
      if (!(await send(render(checkpoint)))) return;
      lastCheckpoint = offset;
      idle = checkpoint;
    }
  }
}

const IDLE_CHECKPOINT: CheckpointRecord = { kind: 'checkpoint', offset: 0, synchronizerTimes: [] };

// ---------------------------------------------------------------- pages

/** Stable JSON (sorted keys, no undefined members): the page token fingerprints the request with it. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

function requestFingerprint(req: wire.GetUpdatesPageRequest): string {
  const fixed = { updateFormat: req.updateFormat, begin: req.beginOffsetExclusive ?? 0, end: req.endOffsetInclusive, descending: req.descendingOrder === true };
  return createHash('sha256').update(canonicalJson(fixed)).digest('hex').slice(0, 32);
}

interface PageToken {
  /** Ascending: the exclusive lower bound of the next page; descending: its inclusive upper bound. */
  position: number;
  fingerprint: string;
}

function encodePageToken(token: PageToken): string {
  return Buffer.from(JSON.stringify({ p: token.position, f: token.fingerprint })).toString('base64');
}

function decodePageToken(text: string, fingerprint: string): number {
  let token: { p?: unknown; f?: unknown };
  try {
    token = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    throw invalidArgument('Invalid page token: it was not issued by this participant');
  }
  if (typeof token.p !== 'number' || typeof token.f !== 'string') throw invalidArgument('Invalid page token: it was not issued by this participant');
  if (token.f !== fingerprint) {
    throw invalidArgument('Invalid page token: it was issued for a request with different parameters (offsets, update format and order must stay the same)');
  }
  return token.p;
}

async function updatesPage(s: Services, ctx: RequestContext<wire.GetUpdatesPageRequest>): Promise<void> {
  const { ledger } = s;
  const req = ctx.body;
  ensureCanReadUpdates(ctx.caller, req.updateFormat);
  const pageSize = req.maxPageSize || DEFAULT_PAGE_SIZE;
  if (pageSize < 0 || pageSize > MAX_PAGE_SIZE) throw invalidArgument(`max_page_size must be between 1 and ${MAX_PAGE_SIZE}, got ${pageSize}`);
  const requestedBegin = req.beginOffsetExclusive ?? 0;
  if (requestedBegin < 0) throw negativeOffset(requestedBegin, 'begin_offset_exclusive');
  const endGiven = req.endOffsetInclusive !== undefined;
  if (endGiven && req.endOffsetInclusive! <= 0) throw nonPositiveOffset(req.endOffsetInclusive!, 'end_offset_inclusive');
  if (endGiven && req.endOffsetInclusive! > ledger.ledgerEnd) throw offsetAfterLedgerEnd('End', req.endOffsetInclusive!, ledger.ledgerEnd);
  const end = req.endOffsetInclusive ?? ledger.ledgerEnd;
  if (requestedBegin > end) throw new LedgerApiError('OFFSET_OUT_OF_RANGE', `Begin offset (${requestedBegin}) is after end offset (${end})`);
  const filter = parseUpdateFormat(req.updateFormat, filterRules(s));
  if (requestedBegin > 0 && requestedBegin < ledger.prunedUpTo) throw prunedDataAccessed(requestedBegin + 1, end, ledger.prunedUpTo);
  // Zero (or unset) means "from the earliest offset still available".
  const begin = Math.max(requestedBegin, ledger.prunedUpTo);

  const fingerprint = requestFingerprint(req);
  const position = req.pageToken ? decodePageToken(req.pageToken, fingerprint) : undefined;
  const descending = req.descendingOrder === true;
  let updates: LogEntry[];
  let lowest: number;
  let highest: number;
  let next: number | undefined;
  // Pages leave offset checkpoints out: their bounds already tell the client where it stands.
  if (descending) {
    highest = Math.min(position ?? end, end);
    if (highest < ledger.prunedUpTo) throw prunedDataAccessed(begin + 1, highest, ledger.prunedUpTo);
    updates = collectDescending(ledger, filter, begin, highest, pageSize);
    const full = updates.length === pageSize;
    lowest = full ? updates[updates.length - 1].offset - 1 : begin;
    next = full && lowest > begin ? lowest : undefined;
  } else {
    lowest = position ?? begin;
    if (lowest < ledger.prunedUpTo) throw prunedDataAccessed(lowest + 1, end, ledger.prunedUpTo);
    updates = [];
    for (let i = ledger.indexAfterKey(lowest * 2 + 1); i < ledger.entries.length && updates.length < pageSize; i++) {
      const entry = ledger.entries[i];
      if (entry.offset > end) break;
      if (entry.kind !== 'checkpoint' && isVisible(entry, filter, false)) updates.push(entry);
    }
    const full = updates.length === pageSize;
    highest = full ? updates[updates.length - 1].offset : end;
    // Without an end offset an ascending page always has a next token: it tails the ledger.
    next = (full && highest < end) || !endGiven ? highest : undefined;
  }
  const token = next === undefined ? '' : encodePageToken({ position: next, fingerprint });
  const rendered = updates.map((entry) => updateJson(entry, filter, s.profile.wire)).join(',');
  sendRawJson(
    ctx.res,
    200,
    `{"updates":[${rendered}],"lowestPageOffsetExclusive":${lowest},"highestPageOffsetInclusive":${highest},"nextPageToken":${JSON.stringify(token)}}`,
  );
}

/**
 * One update by id or offset, in the requested format. Canton answers UPDATE_NOT_FOUND both when there
 * is no such update and when the format filters out every event of it (openapi: /v2/updates/update-by-id).
 */
function sendOneUpdate(s: Services, ctx: RequestContext<{ updateFormat: wire.UpdateFormat }>, find: () => LogEntry | undefined, key: string): void {
  ensureCanReadUpdates(ctx.caller, ctx.body.updateFormat);
  const filter = parseUpdateFormat(ctx.body.updateFormat, filterRules(s));
  const entry = find();
  if (!entry || entry.kind === 'checkpoint' || !isVisible(entry, filter, false)) {
    throw new LedgerApiError('UPDATE_NOT_FOUND', `Update not found, or not visible.`, { resources: [['ErrorResource(UPDATE_ID)', key]] });
  }
  sendRawJson(ctx.res, 200, updateJson(entry, filter, s.profile.wire));
}

function entryAtOffset(ledger: DemoLedger, offset: number): LogEntry | undefined {
  const i = ledger.indexAfterKey(offset * 2) - 1;
  const entry = i >= 0 ? ledger.entries[i] : undefined;
  return entry && entry.offset === offset ? entry : undefined;
}

export function updateChannels(s: Services): Channel[] {
  return [channel({ path: '/v2/updates', body: 'GetUpdatesRequest', decode: decodeGetUpdatesRequest, handle: (ctx) => streamUpdates(s, ctx) })];
}

export function updateRoutes(s: Services): Route[] {
  const list = (path: string) => route({ method: 'POST', path, body: 'GetUpdatesRequest', decode: decodeGetUpdatesRequest, handle: (ctx) => listUpdates(s, ctx) });
  return [
    list('/v2/updates'),
    list('/v2/updates/flats'),
    route({ method: 'POST', path: '/v2/updates/get-updates-page', body: 'GetUpdatesPageRequest', decode: decodeGetUpdatesPageRequest, handle: (ctx) => updatesPage(s, ctx) }),
    route({
      method: 'POST',
      path: '/v2/updates/update-by-id',
      body: 'GetUpdateByIdRequest',
      decode: decodeGetUpdateByIdRequest,
      handle: (ctx) => sendOneUpdate(s, ctx, () => s.ledger.entries.find((e) => e.kind !== 'checkpoint' && e.updateId === ctx.body.updateId), ctx.body.updateId),
    }),
    route({
      method: 'POST',
      path: '/v2/updates/update-by-offset',
      body: 'GetUpdateByOffsetRequest',
      decode: decodeGetUpdateByOffsetRequest,
      handle: (ctx) => {
        if (ctx.body.offset <= 0) throw nonPositiveOffset(ctx.body.offset, 'offset');
        return sendOneUpdate(s, ctx, () => entryAtOffset(s.ledger, ctx.body.offset), String(ctx.body.offset));
      },
    }),
  ];
}
