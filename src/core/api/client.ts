/**
 * The JSON Ledger API v2 client: one object per connection. Every call takes an AbortSignal and a
 * deadline (`CallOptions`), and fails with the typed errors of `../errors`.
 */
import { asCantonError, CallOptions, errorOfStatus, HttpOptions, HttpRequest, HttpTransport, OpenResponse } from './http';
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
import { UPDATES_CONTRACT_ID_FIELD, type UpdatesRequestWithContractIds } from './contractIdFilter';
import { HttpError, IncompatibleRequestError, LedgerError, ListTooLargeError, NetworkError, NotServedError, PageTokenRefusedError, ProtocolError, RequestValidationError, TokenScopeError, UnsupportedOperationError, type RequestInfo } from '../errors';
import { httpStatusForGrpc, type GrpcCode } from '../errorCatalog';
import { socketFrames } from './websocket';
import { checkPageToken, decodeAnswer, decodeUpdateElement, expectField, expectList, expectNumber, expectObject, OffsetOrder, type OrderEnd, pageEndedEarly, updateFieldProblem } from './protocol';
import { decodeClaims } from '../auth/jwt';
import type * as wire from '../models/wire';
import { decodeCreatedEvent, decodeTransaction, decodeUpdate, type CreatedEvent, Transaction, Update } from '../models/updates';
import { ContractEvents, decodeContractEvents } from '../models/contracts';
import { type CompletionElement, type CompletionsByHash, type CompletionsSelection, decodeCompletionElement, decodeCompletionsByHash, transactionHashForRequest } from '../models/completions';
import { decodeVettedPackages, diffVettedPackages, VettedPackagesState, VettingUpdateResult } from '../models/vetting';
import { decodeRights, UserRights } from '../models/users';
import { atLeast, capabilitiesOf, type Endpoint, OPERATION_TITLES, type ParticipantCapabilities } from '../versions';
import type { CataloguedOperation } from '../compat/catalogue';
import { refusalOf, type OutgoingRequest } from '../compat/guard';
import { scopeCoverage } from '../auth/scopes';
import { declaresBodyField, type CompatibilityCheck } from '../compat/check';
import { PARTICIPANT_DESCRIPTION_PATH } from '../compat/openapi';

/** The participant's default `http-list-max-elements-limit`. */
export const DEFAULT_LIST_CAP = 200;

export interface LedgerClientOptions extends HttpOptions {
  /** Updates per page for paged reads (at most the participant's list cap; at least 2). Default 100. */
  pageSize?: number;
}

export interface SubscribeUpdatesOptions extends CallOptions {
  /** How long opening the websocket may take; default `timeoutMs`, else 10 s. */
  connectTimeoutMs?: number;
  /** How often the open socket is pinged to find a dead connection. Default 30 s. */
  pingIntervalMs?: number;
}

export interface ListUpdatesOptions extends CallOptions {
  /** `?limit=`: cut the list at this many elements (≤ the participant's cap avoids 413). */
  limit?: number;
  /** `?stream_idle_timeout_ms=`: return once no new update arrived for this long (open-ended reads). */
  idleTimeoutMs?: number;
  /**
   * Only the updates that touch these contracts (3.8's contract-id filter): where the participant's
   * own description has it ({@link LedgerClient.filtersUpdatesByContractId}), else UnsupportedOperationError.
   */
  contractIds?: readonly string[];
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
  /** The page tokens sent so far in this walk: one coming back would make paging endless. */
  readonly sentTokens?: readonly string[];
  /** Where the previous page ended, so that the next one is checked to go on from there. */
  readonly previousEnd?: OrderEnd;
  /** Paging by offsets: the page before saw an update in this cursor's range (its look-ahead), so this page cannot be empty. */
  readonly moreExpected?: boolean;
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

/** What to read of the active contract set. */
export interface ActiveContractsQuery {
  filter: UpdateFilter;
  /** Default: the ledger end (read now, or chosen by the participant on 3.5.1+). */
  activeAtOffset?: number;
  pageSize?: number;
}

/** Where the next page of a snapshot starts; keeps the offset and format, as the participant requires. */
export interface ActiveContractsCursor {
  readonly kind: 'acs-cursor';
  readonly activeAtOffset: number;
  readonly eventFormat: wire.EventFormat;
  readonly pageSize: number;
  readonly token: string;
  readonly sentTokens: readonly string[];
  /** The list form: the page before saw a contract after it (its look-ahead), so this page cannot be empty. */
  readonly moreExpected?: boolean;
  /**
   * The list form without continuation tokens (before 3.5): how many contracts the pages before held,
   * and the last of them, which the re-read list must still have at that position.
   */
  readonly skip?: number;
  readonly lastContractId?: string;
}

export interface ActiveContract {
  event: CreatedEvent;
  synchronizerId: string;
  reassignmentCounter: number;
  /**
   * A contract in the middle of a reassignment (an incomplete one of a multi-synchronizer
   * participant): unassigned from `synchronizerId` and not yet assigned, or assigned to it with its
   * unassignment not seen here. Absent for a plain active contract.
   */
  inFlight?: 'unassigned' | 'assigned';
}

export interface ActiveContractsPage {
  contracts: ActiveContract[];
  activeAtOffset: number;
  /** Absent on the last page. */
  next?: ActiveContractsCursor;
}

export interface PrepareResult {
  /** The body sent. */
  request: wire.JsPrepareSubmissionRequest;
  raw: wire.JsPrepareSubmissionResponse;
}

export interface SubmitResult {
  transaction: Transaction;
  raw: wire.JsSubmitAndWaitForTransactionResponse;
}

export class LedgerClient {
  readonly http: HttpTransport;
  readonly pageSize: number;
  private capabilitiesPromise?: Promise<ParticipantCapabilities>;
  private compatibilityCheck?: CompatibilityCheck;

  constructor(opts: LedgerClientOptions) {
    this.http = new HttpTransport(opts);
    this.pageSize = Math.max(2, Math.min(opts.pageSize ?? 100, DEFAULT_LIST_CAP));
  }

  get baseUrl(): string {
    return this.http.baseUrl.href;
  }

  // ---------------------------------------------------------------- the participant's own description

  /**
   * From now on, requests are held to what the participant's own API description says
   * (`compat/check.ts`): one it would refuse is not sent, and fails with IncompatibleRequestError.
   * Undefined: the version table alone decides, as without a description.
   */
  useCompatibility(check: CompatibilityCheck | undefined): void {
    this.compatibilityCheck = check;
  }

  /** What requests are held to (undefined: the version table alone). */
  get compatibility(): CompatibilityCheck | undefined {
    return this.compatibilityCheck;
  }

  /**
   * The participant's own API description, `GET /docs/openapi` (YAML, or JSON), as text. It is not an
   * operation of the catalogue: it is what the catalogue is checked against.
   */
  async participantDescription(o: CallOptions = {}): Promise<string> {
    return (await this.http.text({ method: 'GET', path: PARTICIPANT_DESCRIPTION_PATH, accept: 'application/yaml, application/json;q=0.9, */*;q=0.5', ...o })).text;
  }

  /**
   * Every request passes here just before it is sent, named by its operation in the catalogue: a
   * request the participant's description says it would refuse is not sent. (The tests wrap this to
   * see every request the client sends.)
   */
  protected beforeSend(operation: CataloguedOperation, request: OutgoingRequest): void {
    const check = this.compatibilityCheck;
    if (!check) return;
    const finding = refusalOf(check, operation, request);
    if (finding) throw new IncompatibleRequestError(finding, check.report.version);
    // The rights check of the token itself: restricted to API areas (3.8) that leave this one out.
    const scope = scopeCoverage(check.scopes, this.http.lastTokenClaims(), request.method, request.path);
    if (scope.kind === 'out-of-scope') throw new TokenScopeError(scope);
  }

  /**
   * Whether update requests may filter by contract id (3.8): decided by the participant's own
   * description, since no published source confirms the field (`UPDATES_CONTRACT_ID_FIELD`).
   */
  get filtersUpdatesByContractId(): boolean {
    return declaresBodyField(this.compatibilityCheck, 'listUpdates', UPDATES_CONTRACT_ID_FIELD);
  }

  // ---------------------------------------------------------------- supporting calls

  async version(o: CallOptions = {}): Promise<wire.GetLedgerApiVersionResponse> {
    const req: HttpRequest = { method: 'GET', path: '/v2/version', ...o };
    this.beforeSend('version', req);
    return this.http.json<wire.GetLedgerApiVersionResponse>(req).catch((e) => Promise.reject(notServed(e, req)));
  }

  /** What this participant supports, from the version it reports; asked once per client (a failure is not cached). */
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
    const r = await this.call<wire.GetLedgerEndResponse>('ledgerEnd', {}, o);
    return r?.offset ?? 0;
  }

  async prunedOffsets(o: CallOptions = {}): Promise<{ participantPrunedUpToInclusive: number; allDivulgedContractsPrunedUpToInclusive: number }> {
    const r = await this.call<wire.GetLatestPrunedOffsetsResponse>('prunedOffsets', {}, o);
    return { participantPrunedUpToInclusive: r?.participantPrunedUpToInclusive ?? 0, allDivulgedContractsPrunedUpToInclusive: r?.allDivulgedContractsPrunedUpToInclusive ?? 0 };
  }

  async connectedSynchronizers(o: CallOptions & { party?: string; participantId?: string } = {}): Promise<wire.ConnectedSynchronizer[]> {
    const r = await this.call<wire.GetConnectedSynchronizersResponse>('connectedSynchronizers', { query: { party: o.party, participantId: o.participantId } }, o);
    return r?.connectedSynchronizers ?? [];
  }

  /**
   * Canton's choice of package version for each requirement (a package name and the parties whose
   * every host must have vetted it): `POST /v2/interactive-submission/preferred-packages`, all names
   * in one request. When no selection fits, Canton answers NO_PREFERRED_PACKAGES_FOUND (a
   * {@link CantonApiError}, FAILED_PRECONDITION) naming the party and package name that fail.
   */
  async preferredPackages(
    requirements: readonly wire.PackageVettingRequirement[],
    o: CallOptions & { synchronizerId?: string; vettingValidAt?: string } = {},
  ): Promise<wire.GetPreferredPackagesResponse> {
    if (requirements.length === 0) throw new RequestValidationError('packageVettingRequirements', 'At least one package name is needed.');
    const { version } = await this.endpoint('preferredPackages', o);
    const body: wire.GetPreferredPackagesRequest = {
      packageVettingRequirements: requirements.map((r) => ({ parties: [...r.parties], packageName: r.packageName })),
      // Before 3.4.12 the decoder insists on the field; empty means every connected synchronizer.
      ...(o.synchronizerId !== undefined || !atLeast(version, '3.4.12') ? { synchronizerId: o.synchronizerId ?? '' } : {}),
      ...(o.vettingValidAt ? { vettingValidAt: o.vettingValidAt } : {}),
    };
    const request: RequestInfo = { method: 'POST', path: '/v2/interactive-submission/preferred-packages' };
    const r = expectObject<wire.GetPreferredPackagesResponse>(await this.call<unknown>('preferredPackages', { body, idempotent: true }, o), request, 'an object {"packageReferences": […], "synchronizerId": …}');
    const references = expectList(r as unknown as Record<string, unknown>, 'packageReferences', request, 'a list of package references').map((ref, i) => {
      const fields = expectObject<Record<string, unknown>>(ref, request, `a package reference at packageReferences[${i}]`);
      for (const key of ['packageId', 'packageName', 'packageVersion']) {
        if (typeof fields[key] !== 'string') throw new ProtocolError(`The answer to POST ${request.path} has no ${key} at packageReferences[${i}]`, request, undefined, { problem: 'bad-field', field: `packageReferences[${i}].${key}` });
      }
      return fields as unknown as wire.PackageReference;
    });
    return { packageReferences: references, synchronizerId: typeof r.synchronizerId === 'string' ? r.synchronizerId : '' };
  }

  /** All parties known to the participant, following page tokens. */
  async parties(o: CallOptions = {}): Promise<wire.PartyDetails[]> {
    const all: wire.PartyDetails[] = [];
    let pageToken: string | undefined;
    const sent: string[] = [];
    do {
      if (pageToken) sent.push(pageToken);
      const r = await this.call<wire.ListKnownPartiesResponse>('parties', { query: { pageToken } }, o);
      all.push(...(r?.partyDetails ?? []));
      pageToken = r?.nextPageToken || undefined;
      checkPageToken(pageToken, sent, { method: 'GET', path: '/v2/parties' });
    } while (pageToken);
    return all;
  }

  /**
   * Allocates a party on this participant (`POST /v2/parties`) with an id hint; the answer names the
   * party id given (`<hint>::<namespace>`). `identityProviderId` is sent empty (the default provider):
   * older decoders insist on the field; 3.4.0–3.4.11 insist on `synchronizerId` and `userId` too, whose
   * empty values mean what leaving them out means later (the only synchronizer, no user given rights).
   */
  async allocateParty(partyIdHint: string, o: CallOptions = {}): Promise<wire.PartyDetails> {
    const { version } = await this.endpoint('allocateParty', o);
    const strict = atLeast(version, '3.4.0') && !atLeast(version, '3.4.12') ? { synchronizerId: '', userId: '' } : {};
    const r = await this.call<{ partyDetails: wire.PartyDetails }>('allocateParty', { body: { partyIdHint, identityProviderId: '', ...strict } }, o);
    return expectObject<wire.PartyDetails>(r?.partyDetails, { method: 'POST', path: '/v2/parties' }, 'the allocated party {"party": …}');
  }

  async participantId(o: CallOptions = {}): Promise<string> {
    return (await this.call<wire.GetParticipantIdResponse>('participantId', {}, o)).participantId;
  }

  /**
   * The user the requests act as. Canton 3.3 has no `/v2/authenticated-user`: there the user is the
   * token's subject (3.x user tokens name the participant user in `sub`), else `fallbackUserId` (the
   * connection's configured user), read with `/v2/users/{id}`.
   */
  async authenticatedUser(o: CallOptions & { fallbackUserId?: string } = {}): Promise<wire.User> {
    const caps = await this.capabilities(o);
    if (caps.has('authenticatedUser')) return (await this.call<wire.GetUserResponse>('authenticatedUser', {}, o)).user;
    const token = await this.http.currentToken(o.signal);
    const userId = (token ? decodeClaims(token)?.sub : undefined) || o.fallbackUserId;
    if (!userId) throw new UnsupportedOperationError('Finding the user without a token that names it (or a configured user id)', caps.version, 'authenticatedUser');
    return (await this.call<wire.GetUserResponse>('user', { params: { 'user-id': userId } }, o)).user;
  }

  /** A participant user by id (`GET /v2/users/{id}`); one that does not exist: USER_NOT_FOUND. */
  async user(userId: string, o: CallOptions = {}): Promise<wire.User> {
    return (await this.call<wire.GetUserResponse>('user', { params: { 'user-id': userId } }, o)).user;
  }

  async userRights(userId: string, o: CallOptions = {}): Promise<UserRights> {
    const r = await this.call<wire.ListUserRightsResponse>('userRights', { params: { 'user-id': userId } }, o);
    return decodeRights(r?.rights);
  }

  async packages(o: CallOptions = {}): Promise<string[]> {
    return (await this.call<wire.ListPackagesResponse>('packages', {}, o))?.packageIds ?? [];
  }

  /**
   * A package's ArchivePayload bytes (decode them with `decodeArchivePayload`). The participant's
   * `Canton-Package-Hash` header must name the package asked for.
   */
  async packageArchive(packageId: string, o: CallOptions & { maxBytes?: number } = {}): Promise<Uint8Array> {
    const { endpoint, version } = await this.endpoint('packageArchive', o);
    const request = toHttpRequest(endpoint, { params: { 'package-id': packageId } }, o);
    this.beforeSend('packageArchive', { method: endpoint.method, path: endpoint.path });
    const { bytes, headers } = await this.http.bytes(request, o.maxBytes ?? MAX_PACKAGE_BYTES).catch((e) => Promise.reject(notServed(e, request, version)));
    const hash = headers.get('canton-package-hash');
    if (hash !== packageId) {
      throw new ProtocolError(`The package served for ${packageId} says its hash is ${hash ?? '(no Canton-Package-Hash header)'}`, { method: request.method, path: request.path });
    }
    return bytes;
  }

  /** Whether a package is uploaded: `PACKAGE_STATUS_REGISTERED`, or `PACKAGE_STATUS_UNSPECIFIED` when it is not. */
  async packageStatus(packageId: string, o: CallOptions = {}): Promise<string> {
    const r = await this.call<wire.GetPackageStatusResponse>('packageStatus', { params: { 'package-id': packageId } }, o);
    return r?.packageStatus ?? 'PACKAGE_STATUS_UNSPECIFIED';
  }

  /**
   * Uploads a DAR (`POST /v2/dars`, or `/v2/packages` before 3.4). By default its packages are vetted
   * (on `synchronizerId`, or the only synchronizer); 3.3 always vets them everywhere, so asking 3.3
   * not to vet, or to vet on one synchronizer, is refused before sending.
   */
  async uploadDar(dar: Uint8Array, o: CallOptions & { vetAllPackages?: boolean; synchronizerId?: string } = {}): Promise<void> {
    const { endpoint, version } = await this.endpoint('uploadDar', o);
    const vettingOptions = o.vetAllPackages !== undefined || o.synchronizerId !== undefined;
    if (vettingOptions && endpoint.path === '/v2/packages') throw new UnsupportedOperationError('Choosing where an uploaded DAR is vetted', version, 'uploadDar');
    const query = { vetAllPackages: o.vetAllPackages, synchronizerId: o.synchronizerId };
    await this.call<wire.UploadDarFileResponse>('uploadDar', { query, bytes: dar }, o);
  }

  /** Checks a DAR as an upload would, without uploading it (3.4+). */
  async validateDar(dar: Uint8Array, o: CallOptions & { synchronizerId?: string } = {}): Promise<void> {
    await this.call<unknown>('validateDar', { query: { synchronizerId: o.synchronizerId }, bytes: dar }, o);
  }

  async livez(o: CallOptions = {}): Promise<boolean> {
    this.beforeSend('livez', { method: 'GET', path: '/livez' });
    const r = await this.http.text({ method: 'GET', path: '/livez', ...o }, [503]);
    return r.status === 200;
  }

  async readyz(o: CallOptions = {}): Promise<{ ready: boolean; text: string }> {
    this.beforeSend('readyz', { method: 'GET', path: '/readyz' });
    const r = await this.http.text({ method: 'GET', path: '/readyz', ...o }, [503]);
    return { ready: r.status === 200, text: r.text };
  }

  // ---------------------------------------------------------------- the version check

  /** The endpoint this participant's version offers for an operation; refuses before sending when it has none. */
  private async endpoint(operation: CataloguedOperation, o: CallOptions, what = OPERATION_TITLES[operation]): Promise<{ endpoint: Endpoint; version: string }> {
    const caps = await this.capabilities(o);
    const endpoint = caps.endpoint(operation);
    if (!endpoint) throw new UnsupportedOperationError(what, caps.version, operation);
    return { endpoint, version: caps.version };
  }

  /** Opens the request of an operation on its endpoint for this version; a plain 404 becomes {@link NotServedError}. */
  private async open(operation: CataloguedOperation, req: OperationRequest, o: CallOptions): Promise<OpenResponse> {
    const { endpoint, version } = await this.endpoint(operation, o);
    const request = toHttpRequest(endpoint, req, o);
    this.beforeSend(operation, { method: endpoint.method, path: endpoint.path, query: req.query, body: req.body });
    return this.http.open(request).catch((e) => Promise.reject(notServed(e, request, version)));
  }

  /** {@link open}, with the JSON body read. */
  private async call<T>(operation: CataloguedOperation, req: OperationRequest, o: CallOptions): Promise<T> {
    const { endpoint, version } = await this.endpoint(operation, o);
    const request = toHttpRequest(endpoint, req, o);
    this.beforeSend(operation, { method: endpoint.method, path: endpoint.path, query: req.query, body: req.body });
    return this.http.json<T>(request).catch((e) => Promise.reject(notServed(e, request, version)));
  }

  // ---------------------------------------------------------------- updates

  /**
   * One list request (`POST /v2/updates`, which every version has with the same body), decoded as the
   * body streams in: yields batches of updates, holding at most one network chunk at a time.
   */
  async *streamUpdates(range: UpdatesRange, selection: UpdatesSelection, o: ListUpdatesOptions = {}): AsyncGenerator<Update[]> {
    const caps = await this.capabilities(o);
    const body: UpdatesRequestWithContractIds = buildGetUpdatesRequest(range, selection, caps.topLevelFilterVerbose);
    if (o.contractIds !== undefined) {
      if (!this.filtersUpdatesByContractId) throw new UnsupportedOperationError('Filtering updates by contract id', caps.version);
      body[UPDATES_CONTRACT_ID_FIELD] = [...o.contractIds];
    }
    if (range.descending && !caps.descendingOrder) throw new UnsupportedOperationError('Descending order', caps.version);
    if (o.limit !== undefined && (!Number.isSafeInteger(o.limit) || o.limit < 1)) throw new RequestValidationError('limit', `limit must be a positive integer, not ${o.limit}`);
    const query = { limit: o.limit, stream_idle_timeout_ms: o.idleTimeoutMs };
    const res = await this.open('listUpdates', { query, body, idempotent: true }, o);
    const req: RequestInfo = { method: 'POST', path: '/v2/updates' };
    yield* orderedListBatches(res, req, 'updates', new OffsetOrder(req, range), (e, at) => decodeUpdateElement(e, at, req, decodeUpdate));
  }

  /**
   * The update stream over the participant's websocket (`/v2/updates` channel): the same request as
   * the list, then batches of updates as they are written, until `endInclusive` (then it returns) or
   * for ever. An error frame becomes the typed error of its gRPC code's status (an AuthError for a
   * rejected token); an open-ended stream that ends is a NetworkError, to be resumed.
   */
  async *subscribeUpdates(range: UpdatesRange, selection: UpdatesSelection, o: SubscribeUpdatesOptions = {}): AsyncGenerator<Update[]> {
    const { endpoint } = await this.endpoint('subscribeUpdates', o);
    const body = buildGetUpdatesRequest(range, selection, (await this.capabilities(o)).topLevelFilterVerbose);
    this.beforeSend('subscribeUpdates', { method: endpoint.method, path: endpoint.path, body });
    const req: RequestInfo = { method: 'GET', path: endpoint.path };
    const order = new OffsetOrder(req, range);
    let index = 0;
    for await (const frames of socketFrames(this.http, { path: endpoint.path, firstFrame: body, signal: o.signal, connectTimeoutMs: o.connectTimeoutMs ?? o.timeoutMs, pingIntervalMs: o.pingIntervalMs })) {
      const batch: Update[] = [];
      let failure: LedgerError | undefined;
      for (const text of frames) {
        const element = parseFrame(text, req);
        const error = asCantonError(element);
        if (error) {
          // The stream ends after an error frame: what came before it still counts.
          failure = errorOfStatus(error.grpcCodeValue ? httpStatusForGrpc(error.grpcCodeValue as GrpcCode) : 500, error, req);
          break;
        }
        const u = decodeUpdateElement(element, index, req, decodeUpdate);
        order.check(u, index++);
        batch.push(u);
      }
      if (batch.length > 0) yield batch;
      if (failure) throw failure;
    }
    if (range.endInclusive === undefined) throw new NetworkError('The participant ended the update stream', 'WS_ENDED', true, req);
  }

  /** {@link streamUpdates}, collected. */
  async listUpdates(range: UpdatesRange, selection: UpdatesSelection, o: ListUpdatesOptions = {}): Promise<Update[]> {
    const all: Update[] = [];
    for await (const batch of this.streamUpdates(range, selection, o)) all.push(...batch);
    return all;
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
    if (caps.has('updatesPage') && !cursor.selection.legacy) return this.pageWithToken(cursor, o);
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
    const req: RequestInfo = { method: 'POST', path: '/v2/updates/get-updates-page' };
    // Canton always writes the `updates` list (empty or not): an answer without one is not a page.
    const r = expectObject<wire.JsGetUpdatesPageResponse>(await this.call<unknown>('updatesPage', { body, idempotent: true }, o), req, 'a page {"updates": […], "nextPageToken": …}');
    const elements = expectList(r as unknown as Record<string, unknown>, 'updates', req, 'the list of updates');
    const order = new OffsetOrder(req, { beginExclusive: c.beginExclusive, endInclusive: c.endInclusive, descending: c.descending }, c.previousEnd);
    const updates = elements.map((e, i) => {
      const u = decodeUpdateElement(e, i, req, decodeUpdate, 'updates');
      order.check(u, i);
      return u;
    });
    // No token: the last page, full or not. The spec defines it so (JsGetUpdatesPageResponse.nextPageToken:
    // "If the value is not populated, this is the last page"), unlike an offsets page, which proves nothing.
    const token = r.nextPageToken || undefined;
    const sentTokens = [...(c.sentTokens ?? []), ...(c.pageToken ? [c.pageToken] : [])];
    checkPageToken(token, sentTokens, req);
    return {
      updates,
      next: token ? { ...c, pageToken: token, sentTokens, previousEnd: order.end ?? c.previousEnd } : undefined,
      beginExclusive: c.beginExclusive,
      endInclusive: c.endInclusive,
    };
  }

  /**
   * A page by offsets and `limit`. One update more than the page is asked for: when it comes, the next
   * page is known to hold it, so an empty next page is a broken answer (an HTTP list cut short by an
   * idle timeout or a proxy), not the end of the ledger.
   */
  private async pageWithOffsets(c: UpdatesCursor, o: CallOptions): Promise<UpdatesPage> {
    let limit = c.pageSize + 1;
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
    if (c.moreExpected && updates.length === 0) {
      throw pageEndedEarly({ method: 'POST', path: '/v2/updates' }, `it is empty, but the page before it showed an update in (${c.beginExclusive}, ${c.endInclusive}]`);
    }
    const pageSize = Math.max(1, limit - 1);
    if (updates.length <= pageSize) return { updates, ...range };
    const lookAhead = updates[pageSize].offset;
    updates = updates.slice(0, pageSize);
    const last = updates[updates.length - 1]?.offset;
    if (last === undefined) return { updates, ...range };
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
      if (endInclusive > c.beginExclusive) next = { ...c, endInclusive, pageSize, moreExpected: lookAhead !== undefined && lookAhead <= endInclusive };
    } else {
      const beginExclusive = trimmed ? page[page.length - 1].offset! : last;
      if (beginExclusive < c.endInclusive) next = { ...c, beginExclusive, pageSize, moreExpected: lookAhead !== undefined && lookAhead > beginExclusive };
    }
    return { updates: page, next, ...range };
  }

  // ---------------------------------------------------------------- commands

  /**
   * `POST /v2/commands/submit-and-wait-for-transaction`, with the request as given (build it from a
   * commands file with `submissionOf`). Never retries by itself: a failure whose outcome is unknown
   * (see `isOutcomeUnknown`) must be retried by the caller with the same request, so that
   * deduplication keeps it at most once.
   */
  async submitAndWaitForTransaction(body: wire.JsSubmitAndWaitForTransactionRequest, o: CallOptions = {}): Promise<SubmitResult> {
    const req: RequestInfo = { method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction' };
    const raw = expectObject<wire.JsSubmitAndWaitForTransactionResponse>(await this.call<unknown>('submitAndWaitForTransaction', { body }, o), req, 'an object {"transaction": …}');
    expectField(raw as unknown as Record<string, unknown>, 'transaction', req, 'the transaction');
    const transaction = decodeAnswer(() => decodeTransaction(raw.transaction), req, 'transaction', () => {
      const p = updateFieldProblem({ Transaction: raw.transaction });
      return p && { ...p, field: p.field.replace(/^\.Transaction/, '') };
    });
    return { transaction, raw };
  }

  // ---------------------------------------------------------------- active contracts

  /**
   * One page of the active contract set at an offset: `/v2/state/active-contracts-page` on 3.5.1+,
   * else the list `/v2/state/active-contracts` cut with `limit` and resumed with the continuation
   * token of its last element (3.5.0), or read again up to the page's end (before 3.5, which has no
   * token). Pass the returned cursor for the next page.
   */
  async pageActiveContracts(query: ActiveContractsQuery | ActiveContractsCursor, o: CallOptions = {}): Promise<ActiveContractsPage> {
    const caps = await this.capabilities(o);
    const cursor =
      'kind' in query
        ? query
        : {
            kind: 'acs-cursor' as const,
            activeAtOffset: query.activeAtOffset ?? (caps.has('activeContractsPage') ? -1 : await this.ledgerEnd(o)),
            eventFormat: buildEventFormat(query.filter),
            pageSize: Math.max(1, Math.min(query.pageSize ?? this.pageSize, DEFAULT_LIST_CAP)),
            token: '',
            sentTokens: [],
          };
    if (cursor.activeAtOffset !== -1 && (!Number.isSafeInteger(cursor.activeAtOffset) || cursor.activeAtOffset < 0)) {
      throw new RequestValidationError('activeAtOffset', `activeAtOffset must be an integer ≥ 0, not ${cursor.activeAtOffset}`);
    }
    const decode = (entries: wire.JsGetActiveContractsResponse[] | undefined, req: RequestInfo): ActiveContract[] =>
      decodeAnswer(() => (entries ?? []).flatMap((e) => activeContractOf(e)), req, 'activeContracts');
    // Where the participant's own description has it (3.7: incomplete reassignments are left out
    // unless asked), in-flight contracts are asked for too, so the view does not under-report them.
    const incomplete = (operation: 'activeContracts' | 'activeContractsPage') =>
      declaresBodyField(this.compatibilityCheck, operation, 'includeIncompleteReassignments') ? { includeIncompleteReassignments: true } : {};
    const advance = (activeAtOffset: number, token: string | undefined, req: RequestInfo, moreExpected?: boolean): ActiveContractsCursor | undefined => {
      if (!token) return undefined;
      checkPageToken(token, cursor.sentTokens, req);
      return { ...cursor, activeAtOffset, token, sentTokens: [...cursor.sentTokens, token], moreExpected };
    };
    if (caps.has('activeContractsPage')) {
      const req: RequestInfo = { method: 'POST', path: '/v2/state/active-contracts-page' };
      const body: wire.GetActiveContractsPageRequest = {
        ...(cursor.activeAtOffset >= 0 ? { activeAtOffset: cursor.activeAtOffset } : {}),
        eventFormat: cursor.eventFormat,
        maxPageSize: cursor.pageSize,
        ...(cursor.token ? { pageToken: cursor.token } : {}),
        ...incomplete('activeContractsPage'),
      };
      const r = expectObject<wire.JsGetActiveContractsPageResponse>(await continuation(cursor.token, () => this.call<unknown>('activeContractsPage', { body, idempotent: true }, o)), req, 'an object {"activeContracts": […]}');
      // Both are required (openapi.yaml, JsGetActiveContractsPageResponse): a page without them, `{}`
      // above all, is no page, and must not read as the last one.
      const entries = expectList(r as unknown as Record<string, unknown>, 'activeContracts', req, 'the list of active contracts') as wire.JsGetActiveContractsResponse[];
      const activeAtOffset = expectNumber(r as unknown as Record<string, unknown>, 'activeAtOffset', req, 'the offset of the snapshot');
      if (entries.length > cursor.pageSize) throw pageEndedEarly(req, `it holds ${entries.length} contracts where at most ${cursor.pageSize} were asked for`);
      // A full page without a token is a last page: Canton reads maxPageSize + 1 contracts and sets the
      // token only when the one more exists (ApiStateService.getActiveContractsPage, canton 3.5).
      return { contracts: decode(entries, req), activeAtOffset, next: advance(activeAtOffset, r.nextPageToken || undefined, req) };
    }
    const req: RequestInfo = { method: 'POST', path: '/v2/state/active-contracts' };
    const resumable = caps.acsContinuationToken;
    const body: wire.GetActiveContractsRequest = {
      activeAtOffset: cursor.activeAtOffset,
      eventFormat: cursor.eventFormat,
      // 3.3–3.4.11 decoders insist on verbose; false goes with eventFormat.
      ...(caps.line === '3.3' || caps.line === '3.4.11' ? { verbose: false } : {}),
      ...(resumable && cursor.token ? { streamContinuationToken: cursor.token } : {}),
      ...incomplete('activeContracts'),
    };
    // One contract more than the page is asked for: when it comes, the next page is known to hold it.
    // Before 3.5 the list cannot be resumed (no continuation token in the 3.3–3.4.12 specs): at a fixed
    // offset the snapshot and its order are fixed, so each page reads the list again up to its own end
    // and drops the pages before; the server's list limit (`http-list-max-elements-limit`) bounds it.
    const skip = resumable ? 0 : (cursor.skip ?? 0);
    const pageSize = resumable ? Math.min(cursor.pageSize, DEFAULT_LIST_CAP - 1) : cursor.pageSize;
    const answer = await continuation(resumable ? cursor.token : '', () => this.call<unknown>('activeContracts', { body, query: { limit: skip + pageSize + 1 }, idempotent: true }, o));
    if (!Array.isArray(answer)) throw new ProtocolError(`The answer to POST ${req.path} is not a list of active contracts`, req, undefined, { problem: 'unexpected-body' });
    if (cursor.moreExpected && answer.length <= skip) throw pageEndedEarly(req, 'it is empty, but the page before it showed another contract');
    const entries = answer as wire.JsGetActiveContractsResponse[];
    if (skip > 0) {
      const seen = entryContractId(entries[skip - 1]);
      if (seen !== cursor.lastContractId) throw pageEndedEarly(req, `read again, the list no longer ends the page before with ${cursor.lastContractId} (it has ${seen ?? 'nothing'} there)`);
    }
    const list = entries.slice(skip, skip + pageSize);
    const contracts = decode(list, req);
    if (entries.length <= skip + pageSize) return { contracts, activeAtOffset: cursor.activeAtOffset };
    if (!resumable) {
      const lastContractId = entryContractId(list[list.length - 1]);
      return { contracts, activeAtOffset: cursor.activeAtOffset, next: { ...cursor, skip: skip + list.length, lastContractId, moreExpected: true } };
    }
    // More follow: the next page resumes after the last contract of this one, with its continuation token.
    const token = list[list.length - 1]?.streamContinuationToken || undefined;
    if (!token) throw pageEndedEarly(req, `more contracts follow, but the last one of the page (element ${list.length - 1}) has no streamContinuationToken to go on from`);
    return { contracts, activeAtOffset: cursor.activeAtOffset, next: advance(cursor.activeAtOffset, token, req, true) };
  }

  // ---------------------------------------------------------------- preview

  /**
   * Prepares the file's commands without submitting them (`POST /v2/interactive-submission/prepare`):
   * the participant interprets them and answers with the transaction they would make. Nothing is
   * written to the ledger; ReadAs rights for the actAs and readAs parties suffice.
   */
  async prepare(request: wire.JsPrepareSubmissionRequest, o: CallOptions = {}): Promise<PrepareResult> {
    const { version } = await this.endpoint('prepare', o);
    const body = atLeast(version, '3.4.12') ? request : strictPrepareRequest(request);
    const req: RequestInfo = { method: 'POST', path: '/v2/interactive-submission/prepare' };
    // Prepare changes nothing, so sending it again is safe.
    const raw = expectObject<wire.JsPrepareSubmissionResponse>(await this.call<unknown>('prepare', { body, idempotent: true }, o), req, 'an object {"preparedTransaction": …}');
    for (const field of ['preparedTransaction', 'preparedTransactionHash'] as const) {
      if (typeof raw[field] !== 'string' || raw[field] === '') {
        throw new ProtocolError(`The answer to POST ${req.path} has no ${field}`, req, undefined, { problem: 'bad-field', field });
      }
    }
    return { request: body, raw };
  }

  // ---------------------------------------------------------------- look-ups by transaction hash (3.6+)

  /**
   * The update of an externally signed transaction, by the hash its parties signed (3.6+, for
   * transactions committed since the upgrade to 3.6). The hash as hex or base64
   * ({@link transactionHashForRequest}). Unknown, filtered out, or older: UPDATE_NOT_FOUND (404).
   */
  async updateByHash(transactionHash: string, selection: { filter: UpdateFilter } | { updateFormat: wire.UpdateFormat }, o: CallOptions = {}): Promise<Update> {
    const updateFormat = 'updateFormat' in selection ? selection.updateFormat : buildUpdateFormat(selection.filter);
    const body: wire.GetUpdateByHashRequest = { transactionHash: transactionHashForRequest(transactionHash), updateFormat };
    const req: RequestInfo = { method: 'POST', path: '/v2/updates/update-by-hash' };
    const r = expectObject<wire.JsGetUpdateResponse>(await this.call<unknown>('updateByHash', { body, idempotent: true }, o), req, 'an object {"update": …}');
    expectField(r as unknown as Record<string, unknown>, 'update', req, 'the update');
    return decodeAnswer(() => decodeUpdate(r), req, '', () => updateFieldProblem(r));
  }

  /**
   * The completions of the command whose transaction has this hash (3.6+; completions since the
   * upgrade to 3.5): the accepted one, if any, and the latest rejected ones. Unknown, invisible, or
   * pruned: COMPLETION_NOT_FOUND (404).
   */
  async completionByHash(transactionHash: string, o: CallOptions = {}): Promise<CompletionsByHash> {
    const body: wire.GetCompletionByHashRequest = { transactionHash: transactionHashForRequest(transactionHash) };
    const req: RequestInfo = { method: 'POST', path: '/v2/commands/completion-by-hash' };
    const r = expectObject<wire.GetCompletionByHashResponse>(await this.call<unknown>('completionByHash', { body, idempotent: true }, o), req, 'an object {"acceptedCompletion": …, "lastRejectedCompletions": […]}');
    return decodeAnswer(() => decodeCompletionsByHash(r), req, '');
  }

  /**
   * One read of command completions after `beginExclusive`: the user's own (`/v2/commands/completions`)
   * or every user's (`/v2/commands/command-completions`, where the release has it; else
   * UnsupportedOperationError and nothing is sent), decoded as the body streams in, in offset order.
   * Open-ended like the updates list: the participant answers once nothing new came for `idleTimeoutMs`.
   */
  async *streamCompletions(beginExclusive: number, selection: CompletionsSelection, o: ListUpdatesOptions = {}): AsyncGenerator<CompletionElement[]> {
    const operation = selection.allUsers ? 'listCommandCompletions' : 'listCompletions';
    const caps = await this.capabilities(o);
    if (!caps.has(operation)) throw new UnsupportedOperationError(OPERATION_TITLES[operation], caps.version, operation);
    const body: wire.CompletionStreamRequest | wire.GetCompletionsRequest = selection.allUsers
      ? { parties: selection.parties, beginExclusive }
      : { userId: selection.userId, parties: selection.parties, beginExclusive };
    const query = { limit: o.limit, stream_idle_timeout_ms: o.idleTimeoutMs };
    const res = await this.open(operation, { query, body, idempotent: true }, o);
    const req: RequestInfo = { method: 'POST', path: selection.allUsers ? '/v2/commands/command-completions' : '/v2/commands/completions' };
    yield* orderedListBatches(res, req, 'completions', new OffsetOrder(req, { beginExclusive }), (e, at) => decodeAnswer(() => decodeCompletionElement(e as wire.CompletionStreamResponse), req, `[${at}]`));
  }

  // ---------------------------------------------------------------- events

  /** The create and archive events of a contract. Unknown, pruned or invisible: CONTRACT_EVENTS_NOT_FOUND (404). */
  async eventsByContractId(contractId: string, format: { filter: UpdateFilter } | { eventFormat: wire.EventFormat }, o: CallOptions = {}): Promise<ContractEvents> {
    if (!contractId) throw new RequestValidationError('contractId', 'A contract id is needed.');
    const eventFormat = 'eventFormat' in format ? format.eventFormat : buildEventFormat(format.filter);
    const body: wire.GetEventsByContractIdRequest = { contractId, eventFormat };
    const req: RequestInfo = { method: 'POST', path: '/v2/events/events-by-contract-id' };
    // A contract the participant does not show is a 404 (CONTRACT_EVENTS_NOT_FOUND): a success always carries its create.
    const r = expectObject<wire.JsGetEventsByContractIdResponse>(await this.call<unknown>('eventsByContractId', { body, idempotent: true }, o), req, 'an object {"created": …, "archived": …}');
    expectField(r as unknown as Record<string, unknown>, 'created', req, 'the create of the contract {"createdEvent": …, "synchronizerId": …}');
    expectField(r.created as unknown as Record<string, unknown>, 'createdEvent', req, 'the created event', 'created.createdEvent');
    if (r.archived !== undefined && r.archived !== null) expectField(r.archived as unknown as Record<string, unknown>, 'archivedEvent', req, 'the archived event', 'archived.archivedEvent');
    return decodeAnswer(() => decodeContractEvents(contractId, r), req, '');
  }

  // ---------------------------------------------------------------- one update

  /**
   * One update by its id or its offset, in the format asked for (`filter`, e.g. ledger-effects shape to
   * see every exercise). Unknown, pruned, or every event filtered out: UPDATE_NOT_FOUND (404).
   */
  async updateByKey(key: { updateId: string } | { offset: number }, format: { filter: UpdateFilter } | { updateFormat: wire.UpdateFormat }, o: CallOptions = {}): Promise<Update> {
    const updateFormat = 'updateFormat' in format ? format.updateFormat : buildUpdateFormat(format.filter);
    const byId = 'updateId' in key;
    if (byId && !key.updateId) throw new RequestValidationError('updateId', 'An update id is needed.');
    if (!byId && !(Number.isSafeInteger(key.offset) && key.offset > 0)) throw new RequestValidationError('offset', 'An offset is a positive whole number.');
    const body: wire.GetUpdateByIdRequest | wire.GetUpdateByOffsetRequest = byId ? { updateId: key.updateId, updateFormat } : { offset: key.offset, updateFormat };
    const req: RequestInfo = { method: 'POST', path: byId ? '/v2/updates/update-by-id' : '/v2/updates/update-by-offset' };
    const r = expectObject<wire.JsGetUpdatesResponse>(await this.call<unknown>(byId ? 'updateById' : 'updateByOffset', { body, idempotent: true }, o), req, 'an object {"update": …}');
    expectField(r as unknown as Record<string, unknown>, 'update', req, 'the update');
    return decodeAnswer(() => decodeUpdate(r), req, '', () => updateFieldProblem(r));
  }

  // ---------------------------------------------------------------- package vetting

  /**
   * Vetted packages per synchronizer (all pages). 3.4.0–3.4.11 list with `GET /v2/package-vetting`,
   * whose body must carry `pageToken` and `pageSize` (empty and 0 mean "first page", "server's choice").
   */
  async listVettedPackages(req: wire.ListVettedPackagesRequest = {}, o: CallOptions = {}): Promise<VettedPackagesState[]> {
    const { endpoint } = await this.endpoint('listVettedPackages', o);
    const legacy = endpoint.method === 'GET';
    const states: VettedPackagesState[] = [];
    let pageToken = req.pageToken;
    const sent: string[] = [];
    const request: RequestInfo = { method: endpoint.method, path: endpoint.path };
    do {
      if (pageToken) sent.push(pageToken);
      const body: wire.ListVettedPackagesRequest = legacy ? { ...req, pageToken: pageToken ?? '', pageSize: req.pageSize ?? 0 } : { ...req, ...(pageToken ? { pageToken } : {}) };
      const r = expectObject<wire.ListVettedPackagesResponse>(await this.call<unknown>('listVettedPackages', { body, idempotent: true }, o), request, 'an object {"vettedPackages": […]}');
      states.push(...decodeAnswer(() => (r.vettedPackages ?? []).map(decodeVettedPackages), request, 'vettedPackages'));
      pageToken = r.nextPageToken || undefined;
      checkPageToken(pageToken, sent, request);
    } while (pageToken);
    return states;
  }

  /**
   * Vets or unvets packages (dry run or apply), with the computed diff: `POST /v2/package-vetting/update`,
   * or on 3.4.0–3.4.11 `POST /v2/package-vetting`.
   */
  async updateVettedPackages(req: wire.UpdateVettedPackagesRequest, o: CallOptions = {}): Promise<VettingUpdateResult> {
    if (!Array.isArray(req.changes) || req.changes.length === 0) throw new RequestValidationError('changes', 'At least one vetting change is needed.');
    const { endpoint } = await this.endpoint('updateVettedPackages', o);
    const body = endpoint.path === '/v2/package-vetting' ? strictVettingRequest(req) : req;
    const request: RequestInfo = { method: endpoint.method, path: endpoint.path };
    const raw = expectObject<wire.UpdateVettedPackagesResponse>(await this.call<unknown>('updateVettedPackages', { body }, o), request, 'an object {"newVettedPackages": …}');
    expectField(raw as unknown as Record<string, unknown>, 'newVettedPackages', request, 'the vetting state after the change');
    const next = decodeAnswer(() => decodeVettedPackages(raw.newVettedPackages), request, 'newVettedPackages');
    const past = raw.pastVettedPackages ? decodeAnswer(() => decodeVettedPackages(raw.pastVettedPackages!), request, 'pastVettedPackages') : undefined;
    return { past, next, diff: diffVettedPackages(past, next), dryRun: req.dryRun === true, raw };
  }
}

/**
 * The update request as 3.4.0–3.4.11 decode it: `dryRun`, `synchronizerId` and every package
 * reference field must be present. Their proto3 defaults (false, "") mean what leaving them out
 * means later: no dry run, the only connected synchronizer, a wildcard.
 */
function strictVettingRequest(req: wire.UpdateVettedPackagesRequest): wire.UpdateVettedPackagesRequest {
  const refs = (packages: wire.VettedPackagesRef[]) => packages.map((r) => ({ packageId: r.packageId ?? '', packageName: r.packageName ?? '', packageVersion: r.packageVersion ?? '' }));
  const changes = req.changes.map((c): wire.VettedPackagesChange => {
    const op = c.operation;
    if (op && 'Vet' in op) return { operation: { Vet: { value: { ...op.Vet.value, packages: refs(op.Vet.value.packages ?? []) } } } };
    if (op && 'Unvet' in op) return { operation: { Unvet: { value: { ...op.Unvet.value, packages: refs(op.Unvet.value.packages ?? []) } } } };
    return c;
  });
  return { ...req, changes, dryRun: req.dryRun ?? false, synchronizerId: req.synchronizerId ?? '' };
}

/** The largest package archive the client reads (the largest real packages are a few MB). */
const MAX_PACKAGE_BYTES = 64 * 1024 * 1024;

/** What an operation sends, besides the method and path its endpoint gives. */
interface OperationRequest {
  /** Values of the endpoint's `{name}` path parameters. */
  params?: Record<string, string>;
  query?: HttpRequest['query'];
  body?: unknown;
  bytes?: Uint8Array;
  idempotent?: boolean;
}

function toHttpRequest(endpoint: Endpoint, req: OperationRequest, o: CallOptions): HttpRequest {
  const path = endpoint.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = req.params?.[name];
    if (value === undefined) throw new RequestValidationError(name, `${name} is needed for ${endpoint.path}`);
    return encodeURIComponent(value);
  });
  return { method: endpoint.method, path, query: req.query, body: req.body, bytes: req.bytes, idempotent: req.idempotent, signal: o.signal, timeoutMs: o.timeoutMs, expectedStatuses: o.expectedStatuses };
}

/** A plain 404 (not a Canton error) means the path is not served: say so, with the likely cause. */
function notServed(e: unknown, req: HttpRequest, version?: string): unknown {
  return e instanceof HttpError && e.status === 404 ? new NotServedError(req.method, req.path, version, e) : e;
}

function parseFrame(text: string, req: RequestInfo): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ProtocolError(`A frame of ${req.method} ${req.path} is not JSON`, req, e);
  }
}

/**
 * Before 3.4.12 the prepare decoder insists on `userId`, `synchronizerId` and `verboseHashing`: their
 * empty defaults mean what leaving them out means later ("the token's user", "any synchronizer", "not verbose").
 */
function strictPrepareRequest(req: wire.JsPrepareSubmissionRequest): wire.JsPrepareSubmissionRequest {
  return { ...req, userId: req.userId ?? '', synchronizerId: req.synchronizerId ?? '', verboseHashing: req.verboseHashing ?? false };
}

/**
 * An open-ended list answer (a JSON array streamed in), decoded element by element (`decode` answers
 * undefined for an element to leave out) and checked for offset order, in the batches the network
 * brings; a body that is no JSON array is a PROTOCOL error, and the body is released whatever happens.
 */
async function* orderedListBatches<T extends { kind: string; offset?: number }>(
  res: OpenResponse,
  req: RequestInfo,
  what: string,
  order: OffsetOrder,
  decode: (element: unknown, index: number) => T | undefined,
): AsyncGenerator<T[]> {
  let index = 0;
  try {
    for await (const batch of jsonArrayBatches(res.body)) {
      const out: T[] = [];
      for (const e of batch) {
        const at = index++;
        const element = decode(e, at);
        if (element === undefined) continue;
        order.check(element, at);
        out.push(element);
      }
      yield out;
    }
  } catch (e) {
    if (e instanceof JsonStreamError) throw new ProtocolError(`The ${what} list is not a valid JSON array: ${e.message}`, req, e);
    throw res.mapBodyError(e);
  } finally {
    res.done();
    res.body.destroy();
  }
}

/**
 * A continuation page's call (`token` set): an invalid argument there is the page token refused,
 * since the rest of the request is the one the page before was answered for.
 */
async function continuation<T>(token: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (token && PageTokenRefusedError.matches(e)) throw new PageTokenRefusedError(e.status, e.body, e.request, token);
    throw e;
  }
}

/** An active-contracts element as a contract: an active one, or one in the middle of a reassignment. */
function activeContractOf(e: wire.JsGetActiveContractsResponse): ActiveContract[] {
  const entry = e.contractEntry as
    | {
        JsActiveContract?: wire.JsActiveContract;
        JsIncompleteAssigned?: { assignedEvent: { target: string; reassignmentCounter?: number; createdEvent: wire.CreatedEvent } };
        JsIncompleteUnassigned?: { createdEvent: wire.CreatedEvent; unassignedEvent: { source: string; reassignmentCounter?: number } };
      }
    | null
    | undefined;
  if (entry?.JsActiveContract) {
    const active = entry.JsActiveContract;
    return [{ event: decodeCreatedEvent(active.createdEvent), synchronizerId: active.synchronizerId, reassignmentCounter: active.reassignmentCounter ?? 0 }];
  }
  if (entry?.JsIncompleteAssigned) {
    const assigned = entry.JsIncompleteAssigned.assignedEvent;
    return [{ event: decodeCreatedEvent(assigned.createdEvent), synchronizerId: assigned.target, reassignmentCounter: assigned.reassignmentCounter ?? 0, inFlight: 'assigned' }];
  }
  if (entry?.JsIncompleteUnassigned) {
    const { createdEvent, unassignedEvent } = entry.JsIncompleteUnassigned;
    return [{ event: decodeCreatedEvent(createdEvent), synchronizerId: unassignedEvent.source, reassignmentCounter: unassignedEvent.reassignmentCounter ?? 0, inFlight: 'unassigned' }];
  }
  return [];
}

/** The contract an active-contracts element is about, whatever its kind (active, or an incomplete (un)assignment). */
function entryContractId(e: wire.JsGetActiveContractsResponse | undefined): string | undefined {
  const entry = e?.contractEntry as Record<string, { createdEvent?: { contractId?: string }; unassignedEvent?: { contractId?: string }; assignedEvent?: { createdEvent?: { contractId?: string } } }> | null | undefined;
  const variant = entry ? Object.values(entry)[0] : undefined;
  return variant?.createdEvent?.contractId ?? variant?.unassignedEvent?.contractId ?? variant?.assignedEvent?.createdEvent?.contractId;
}
