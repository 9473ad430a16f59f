/**
 * The JSON Ledger API v2 client: one object per connection. Every call takes an AbortSignal and a
 * deadline (`CallOptions`), and fails with the typed errors of `../errors`.
 */
import { CallOptions, HttpOptions, HttpTransport } from './http';
import { jsonArrayBatches, JsonStreamError } from './jsonArrayStream';
import {
  buildEventFormat,
  buildGetUpdatesRequest,
  buildUpdateFormat,
  UpdateFilter,
  UpdatesRange,
  UpdatesSelection,
  validateRange,
} from './updatesRequest';
import { HttpError, ListTooLargeError, ProtocolError, RequestValidationError, UnsupportedOperationError } from '../errors';
import type * as wire from '../models/wire';
import { decodeTransaction, decodeUpdate, Transaction, Update } from '../models/updates';
import { ContractEvents, decodeContractEvents } from '../models/contracts';
import { decodeVettedPackages, diffVettedPackages, VettedPackagesState, VettingUpdateResult } from '../models/vetting';
import { decodeRights, UserRights } from '../models/users';
import { capabilitiesOf, ParticipantCapabilities } from '../models/version';

/** The participant's default `http-list-max-elements-limit`. */
export const DEFAULT_LIST_CAP = 200;

export interface LedgerClientOptions extends HttpOptions {
  /** Updates per page for paged reads (at most the participant's list cap; at least 2). Default 100. */
  pageSize?: number;
}

export interface ListUpdatesOptions extends CallOptions {
  /** `?limit=`: cut the list at this many elements (≤ the participant's cap avoids 413). */
  limit?: number;
  /** `?stream_idle_timeout_ms=`: return once no new update arrived for this long (open-ended reads). */
  idleTimeoutMs?: number;
}

/** Where the next page starts. Opaque to callers; keeps the pinned range so paging terminates. */
export interface UpdatesCursor {
  readonly kind: 'cursor';
  readonly beginExclusive: number;
  readonly endInclusive: number;
  readonly descending: boolean;
  readonly pageSize: number;
  readonly selection: UpdatesSelection;
  /** Set when paging with `/v2/updates/get-updates-page`. */
  readonly pageToken?: string;
}

export interface UpdatesPageQuery {
  selection: UpdatesSelection;
  /** Default 0 (the ledger start). */
  beginExclusive?: number;
  /** Default: the ledger end read now, so that paging ends. */
  endInclusive?: number;
  descending?: boolean;
  pageSize?: number;
}

export interface UpdatesPage {
  updates: Update[];
  /** Absent on the last page. */
  next?: UpdatesCursor;
  /** The pinned range this page belongs to. */
  beginExclusive: number;
  endInclusive: number;
}

export interface SubmitResult {
  transaction: Transaction;
  raw: wire.JsSubmitAndWaitForTransactionResponse;
}

export class LedgerClient {
  readonly http: HttpTransport;
  readonly pageSize: number;
  private capabilitiesPromise?: Promise<ParticipantCapabilities>;
  /** Set when `/flats` answered 404 although the version said it exists (proxies, forks). */
  private flatsMissing = false;

  constructor(opts: LedgerClientOptions) {
    this.http = new HttpTransport(opts);
    this.pageSize = Math.max(2, Math.min(opts.pageSize ?? 100, DEFAULT_LIST_CAP));
  }

  get baseUrl(): string {
    return this.http.baseUrl.href;
  }

  // ---------------------------------------------------------------- supporting calls

  version(o: CallOptions = {}): Promise<wire.GetLedgerApiVersionResponse> {
    return this.http.json({ method: 'GET', path: '/v2/version', ...o });
  }

  /** What this participant supports; asked once per client (a failure is not cached). */
  capabilities(o: CallOptions = {}): Promise<ParticipantCapabilities> {
    this.capabilitiesPromise ??= this.version(o).then(
      (v) => capabilitiesOf(v.version),
      (e) => {
        this.capabilitiesPromise = undefined;
        throw e;
      },
    );
    return this.capabilitiesPromise;
  }

  async ledgerEnd(o: CallOptions = {}): Promise<number> {
    const r = await this.http.json<wire.GetLedgerEndResponse>({ method: 'GET', path: '/v2/state/ledger-end', ...o });
    return r?.offset ?? 0;
  }

  async prunedOffsets(o: CallOptions = {}): Promise<{ participantPrunedUpToInclusive: number; allDivulgedContractsPrunedUpToInclusive: number }> {
    const r = await this.http.json<wire.GetLatestPrunedOffsetsResponse>({ method: 'GET', path: '/v2/state/latest-pruned-offsets', ...o });
    return { participantPrunedUpToInclusive: r?.participantPrunedUpToInclusive ?? 0, allDivulgedContractsPrunedUpToInclusive: r?.allDivulgedContractsPrunedUpToInclusive ?? 0 };
  }

  async connectedSynchronizers(o: CallOptions & { party?: string; participantId?: string } = {}): Promise<wire.ConnectedSynchronizer[]> {
    const r = await this.http.json<wire.GetConnectedSynchronizersResponse>({
      method: 'GET',
      path: '/v2/state/connected-synchronizers',
      query: { party: o.party, participantId: o.participantId },
      ...o,
    });
    return r?.connectedSynchronizers ?? [];
  }

  /** All parties known to the participant, following page tokens. */
  async parties(o: CallOptions & { filterParty?: string } = {}): Promise<wire.PartyDetails[]> {
    const all: wire.PartyDetails[] = [];
    let pageToken: string | undefined;
    do {
      const r = await this.http.json<wire.ListKnownPartiesResponse>({
        method: 'GET',
        path: '/v2/parties',
        query: { 'filter-party': o.filterParty, pageToken },
        ...o,
      });
      all.push(...(r?.partyDetails ?? []));
      pageToken = r?.nextPageToken || undefined;
    } while (pageToken);
    return all;
  }

  async participantId(o: CallOptions = {}): Promise<string> {
    return (await this.http.json<wire.GetParticipantIdResponse>({ method: 'GET', path: '/v2/parties/participant-id', ...o })).participantId;
  }

  async authenticatedUser(o: CallOptions = {}): Promise<wire.User> {
    return (await this.http.json<wire.GetUserResponse>({ method: 'GET', path: '/v2/authenticated-user', ...o })).user;
  }

  async userRights(userId: string, o: CallOptions = {}): Promise<UserRights> {
    const r = await this.http.json<wire.ListUserRightsResponse>({ method: 'GET', path: `/v2/users/${encodeURIComponent(userId)}/rights`, ...o });
    return decodeRights(r?.rights);
  }

  async packages(o: CallOptions = {}): Promise<string[]> {
    return (await this.http.json<wire.ListPackagesResponse>({ method: 'GET', path: '/v2/packages', ...o }))?.packageIds ?? [];
  }

  async livez(o: CallOptions = {}): Promise<boolean> {
    const r = await this.http.text({ method: 'GET', path: '/livez', ...o }, [503]);
    return r.status === 200;
  }

  async readyz(o: CallOptions = {}): Promise<{ ready: boolean; text: string }> {
    const r = await this.http.text({ method: 'GET', path: '/readyz', ...o }, [503]);
    return { ready: r.status === 200, text: r.text };
  }

  // ---------------------------------------------------------------- updates

  /**
   * One list request (`POST /v2/updates/flats`, or `/v2/updates` where flats is gone), decoded as the
   * body streams in: yields batches of updates, holding at most one network chunk at a time.
   */
  async *streamUpdates(range: UpdatesRange, selection: UpdatesSelection, o: ListUpdatesOptions = {}): AsyncGenerator<Update[]> {
    const body = buildGetUpdatesRequest(range, selection);
    const caps = await this.capabilities(o);
    if (range.descending && !caps.descendingOrder) throw new UnsupportedOperationError('Descending order', caps.version);
    if (o.limit !== undefined && (!Number.isSafeInteger(o.limit) || o.limit < 1)) throw new RequestValidationError('limit', `limit must be a positive integer, not ${o.limit}`);
    const query = { limit: o.limit, stream_idle_timeout_ms: o.idleTimeoutMs };
    const res = await this.openUpdatesList(body, query, o);
    try {
      for await (const batch of jsonArrayBatches(res.body)) {
        yield batch.map((e) => decodeUpdate(e as wire.JsGetUpdatesResponse));
      }
    } catch (e) {
      if (e instanceof JsonStreamError) throw new ProtocolError(`The updates list is not a valid JSON array: ${e.message}`, { method: 'POST', path: '/v2/updates' }, e);
      throw res.mapBodyError(e);
    } finally {
      res.done();
      res.body.destroy();
    }
  }

  /** {@link streamUpdates}, collected. */
  async listUpdates(range: UpdatesRange, selection: UpdatesSelection, o: ListUpdatesOptions = {}): Promise<Update[]> {
    const all: Update[] = [];
    for await (const batch of this.streamUpdates(range, selection, o)) all.push(...batch);
    return all;
  }

  private async openUpdatesList(body: wire.GetUpdatesRequest, query: Record<string, number | undefined>, o: CallOptions) {
    const caps = await this.capabilities(o);
    if (caps.flats && !this.flatsMissing) {
      try {
        return await this.http.open({ method: 'POST', path: '/v2/updates/flats', query, body, idempotent: true, ...o });
      } catch (e) {
        // A plain 404 (not a Canton error) means the path is not served: use the successor from now on.
        if (!(e instanceof HttpError && e.status === 404)) throw e;
        this.flatsMissing = true;
        this.http.logger.info('/v2/updates/flats is not served here; using /v2/updates');
      }
    }
    return this.http.open({ method: 'POST', path: '/v2/updates', query, body, idempotent: true, ...o });
  }

  /**
   * One page of updates. The first call pins the range (the end defaults to the current ledger end),
   * so that following `next` cursors always terminates; pass the returned cursor to get the next page.
   * Uses `/v2/updates/get-updates-page` where the participant has it, else offsets and `limit`.
   */
  async pageUpdates(query: UpdatesPageQuery | UpdatesCursor, o: CallOptions = {}): Promise<UpdatesPage> {
    const cursor = 'kind' in query ? query : await this.firstCursor(query, o);
    if (cursor.endInclusive <= cursor.beginExclusive) {
      return { updates: [], beginExclusive: cursor.beginExclusive, endInclusive: cursor.endInclusive };
    }
    const caps = await this.capabilities(o);
    if (caps.updatesPage && !cursor.selection.legacy) return this.pageWithToken(cursor, o);
    return this.pageWithOffsets(cursor, o);
  }

  /** Every update of a range, page by page (bounded memory: one page at a time). */
  async *walkUpdates(query: UpdatesPageQuery, o: CallOptions = {}): AsyncGenerator<Update[]> {
    let page = await this.pageUpdates(query, o);
    for (;;) {
      if (page.updates.length > 0) yield page.updates;
      if (!page.next) return;
      page = await this.pageUpdates(page.next, o);
    }
  }

  private async firstCursor(q: UpdatesPageQuery, o: CallOptions): Promise<UpdatesCursor> {
    const beginExclusive = q.beginExclusive ?? 0;
    const endInclusive = q.endInclusive ?? (await this.ledgerEnd(o));
    if (endInclusive > 0) validateRange({ beginExclusive, endInclusive, descending: q.descending });
    else validateRange({ beginExclusive });
    const requested = q.pageSize ?? this.pageSize;
    if (!Number.isSafeInteger(requested) || requested < 1) throw new RequestValidationError('pageSize', `The page size must be a positive integer, not ${requested}`);
    // At least 2 per request: an update and the checkpoint sharing its offset must fit in one page.
    const pageSize = Math.max(2, requested);
    return { kind: 'cursor', beginExclusive, endInclusive, descending: q.descending ?? false, pageSize, selection: q.selection };
  }

  private async pageWithToken(c: UpdatesCursor, o: CallOptions): Promise<UpdatesPage> {
    const updateFormat = c.selection.updateFormat ?? buildUpdateFormat(c.selection.filter!);
    const body: wire.GetUpdatesPageRequest = {
      updateFormat,
      beginOffsetExclusive: c.beginExclusive,
      endOffsetInclusive: c.endInclusive,
      maxPageSize: c.pageSize,
      ...(c.descending ? { descendingOrder: true } : {}),
      ...(c.pageToken ? { pageToken: c.pageToken } : {}),
    };
    const r = await this.http.json<wire.JsGetUpdatesPageResponse>({ method: 'POST', path: '/v2/updates/get-updates-page', body, idempotent: true, ...o });
    const updates = (r.updates ?? []).map((e) => decodeUpdate(e));
    const token = r.nextPageToken || undefined;
    return {
      updates,
      next: token ? { ...c, pageToken: token } : undefined,
      beginExclusive: c.beginExclusive,
      endInclusive: c.endInclusive,
    };
  }

  private async pageWithOffsets(c: UpdatesCursor, o: CallOptions): Promise<UpdatesPage> {
    let limit = c.pageSize;
    let updates: Update[];
    for (;;) {
      try {
        updates = await this.listUpdates({ beginExclusive: c.beginExclusive, endInclusive: c.endInclusive, descending: c.descending }, c.selection, { ...o, limit });
        break;
      } catch (e) {
        // The participant's cap is below our page size: shrink to the cap it names and ask again.
        if (e instanceof ListTooLargeError && e.cap && e.cap < limit) {
          limit = e.cap;
          continue;
        }
        throw e;
      }
    }
    const range = { beginExclusive: c.beginExclusive, endInclusive: c.endInclusive };
    const last = updates[updates.length - 1]?.offset;
    if (updates.length < limit || last === undefined) return { updates, ...range };
    // An offset checkpoint carries the offset of the update before it, so more elements may share the
    // last offset beyond this page. Resuming after that offset would skip them: hand the elements at
    // the last offset to the next page instead, unless the whole page is at that offset.
    let keep = updates.length;
    while (keep > 0 && updates[keep - 1].offset === last) keep--;
    const trimmed = keep > 0;
    const page = trimmed ? updates.slice(0, keep) : updates;
    let next: UpdatesCursor | undefined;
    if (c.descending) {
      // Trimmed: the next page ends at the trimmed offset (inclusive), so it starts with them.
      const endInclusive = trimmed ? last : last - 1;
      if (endInclusive > c.beginExclusive) next = { ...c, endInclusive, pageSize: limit };
    } else {
      const beginExclusive = trimmed ? page[page.length - 1].offset! : last;
      if (beginExclusive < c.endInclusive) next = { ...c, beginExclusive, pageSize: limit };
    }
    return { updates: page, next, ...range };
  }

  // ---------------------------------------------------------------- commands

  /**
   * `POST /v2/commands/submit-and-wait-for-transaction`. Takes the full request or a bare JsCommands.
   * Never retries by itself: a failure whose outcome is unknown (see `isOutcomeUnknown`) must be
   * retried by the caller with the same commandId, so that deduplication keeps it at most once.
   */
  async submitAndWaitForTransaction(request: wire.JsSubmitAndWaitForTransactionRequest | wire.JsCommands, o: CallOptions = {}): Promise<SubmitResult> {
    const body = toSubmitRequest(request);
    const c = body.commands;
    if (!Array.isArray(c.commands) || c.commands.length === 0) throw new RequestValidationError('commands.commands', 'At least one command is needed.');
    if (typeof c.commandId !== 'string' || c.commandId === '') throw new RequestValidationError('commands.commandId', 'A commandId is needed (it makes retries safe).');
    if (!Array.isArray(c.actAs) || c.actAs.length === 0) throw new RequestValidationError('commands.actAs', 'At least one actAs party is needed.');
    const raw = await this.http.json<wire.JsSubmitAndWaitForTransactionResponse>({
      method: 'POST',
      path: '/v2/commands/submit-and-wait-for-transaction',
      body,
      ...o,
    });
    if (!raw?.transaction) throw new ProtocolError('The submission response has no transaction', { method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction' });
    return { transaction: decodeTransaction(raw.transaction), raw };
  }

  // ---------------------------------------------------------------- events

  /** The create and archive events of a contract. Unknown, pruned or invisible: CONTRACT_EVENTS_NOT_FOUND (404). */
  async eventsByContractId(contractId: string, format: { filter: UpdateFilter } | { eventFormat: wire.EventFormat }, o: CallOptions = {}): Promise<ContractEvents> {
    if (!contractId) throw new RequestValidationError('contractId', 'A contract id is needed.');
    const eventFormat = 'eventFormat' in format ? format.eventFormat : buildEventFormat(format.filter);
    const body: wire.GetEventsByContractIdRequest = { contractId, eventFormat };
    const r = await this.http.json<wire.JsGetEventsByContractIdResponse>({ method: 'POST', path: '/v2/events/events-by-contract-id', body, idempotent: true, ...o });
    return decodeContractEvents(contractId, r ?? {});
  }

  // ---------------------------------------------------------------- package vetting

  /** Vetted packages per synchronizer (all pages). */
  async listVettedPackages(req: wire.ListVettedPackagesRequest = {}, o: CallOptions = {}): Promise<VettedPackagesState[]> {
    await this.requireVetting(o);
    const states: VettedPackagesState[] = [];
    let pageToken = req.pageToken;
    do {
      const r = await this.http.json<wire.ListVettedPackagesResponse>({
        method: 'POST',
        path: '/v2/package-vetting/list',
        body: { ...req, ...(pageToken ? { pageToken } : {}) },
        idempotent: true,
        ...o,
      });
      states.push(...(r?.vettedPackages ?? []).map(decodeVettedPackages));
      pageToken = r?.nextPageToken || undefined;
    } while (pageToken);
    return states;
  }

  /** `POST /v2/package-vetting/update` (dry run or apply), with the computed diff. */
  async updateVettedPackages(req: wire.UpdateVettedPackagesRequest, o: CallOptions = {}): Promise<VettingUpdateResult> {
    if (!Array.isArray(req.changes) || req.changes.length === 0) throw new RequestValidationError('changes', 'At least one vetting change is needed.');
    await this.requireVetting(o);
    const raw = await this.http.json<wire.UpdateVettedPackagesResponse>({ method: 'POST', path: '/v2/package-vetting/update', body: req, ...o });
    if (!raw?.newVettedPackages) throw new ProtocolError('The vetting response has no newVettedPackages', { method: 'POST', path: '/v2/package-vetting/update' });
    const next = decodeVettedPackages(raw.newVettedPackages);
    const past = raw.pastVettedPackages ? decodeVettedPackages(raw.pastVettedPackages) : undefined;
    return { past, next, diff: diffVettedPackages(past, next), dryRun: req.dryRun === true, raw };
  }

  private async requireVetting(o: CallOptions): Promise<void> {
    const caps = await this.capabilities(o);
    if (!caps.vettingUpdate) throw new UnsupportedOperationError('Package vetting (/v2/package-vetting/update)', caps.version);
  }
}

/** Accepts the bare JsCommands (as `*.commands.json` may hold) and wraps it. */
export function toSubmitRequest(r: wire.JsSubmitAndWaitForTransactionRequest | wire.JsCommands): wire.JsSubmitAndWaitForTransactionRequest {
  if (r && typeof r === 'object' && r.commands && !Array.isArray(r.commands)) return r as wire.JsSubmitAndWaitForTransactionRequest;
  return { commands: r as wire.JsCommands };
}

