/**
 * The supporting read endpoints (NOTES §5): version, ledger end, pruning, synchronizers,
 * parties, users and their rights, and the health checks.
 */
import type * as wire from '../../core/models/wire';
import { canReadAs, ensureAllowed, isAdmin } from '../auth';
import { decodeAllocatePartyRequest } from '../decode';
import { LedgerApiError, invalidArgument } from '../errors';
import type { PartyRecord, UserRecord, UserRight } from '../model';
import { queryInt, route, sendJson, sendText, type RequestContext, type Route } from '../server';
import type { Services } from './services';


/** A page of `items` (sorted by `id`) after the position in `pageToken`; the token is the last id, base64. */
function page<T>(items: T[], id: (item: T) => string, url: URL, maxPageSize: number): { items: T[]; nextPageToken: string } {
  const pageSize = queryInt(url, 'pageSize') ?? 0;
  if (pageSize < 0) throw invalidArgument('Page size must be non-negative');
  if (pageSize > maxPageSize) throw invalidArgument(`Page size must not exceed the server's maximum of ${maxPageSize}`);
  const token = url.searchParams.get('pageToken');
  const after = token ? Buffer.from(token, 'base64').toString('utf8') : undefined;
  const rest = after === undefined ? items : items.filter((item) => id(item) > after);
  const size = pageSize || maxPageSize;
  const selected = rest.slice(0, size);
  const more = rest.length > size;
  return { items: selected, nextPageToken: more ? Buffer.from(id(selected[selected.length - 1])).toString('base64') : '' };
}

const MAX_USERS_PAGE_SIZE = 1000;
const MAX_PARTIES_PAGE_SIZE = 10000;
const LOCAL_METADATA = { resourceVersion: '0', annotations: {} };

function partyJson(p: PartyRecord): wire.PartyDetails {
  return { party: p.party, isLocal: !p.revoked, localMetadata: LOCAL_METADATA, identityProviderId: '' };
}

function rightJson(right: UserRight): wire.Right {
  return { kind: { [right.kind]: { value: 'party' in right ? { party: right.party } : {} } } as wire.RightKind };
}

function userNotFound(userId: string): LedgerApiError {
  return new LedgerApiError('USER_NOT_FOUND', `getting user failed for unknown user "${userId}"`, {
    resources: [['ErrorResource(USER_ID)', userId]],
  });
}

/** Users may read themselves; anything else about users needs participant admin. */
function ensureSelfOrAdmin(ctx: RequestContext, userId: string): void {
  ensureAllowed((ctx.caller.kind === 'user' && ctx.caller.user.id === userId) || isAdmin(ctx.caller));
}

export function stateRoutes(s: Services): Route[] {
  const { ledger, profile } = s;
  const userJson = (u: UserRecord) => ({
    id: u.id,
    primaryParty: u.primaryParty,
    isDeactivated: u.isDeactivated,
    metadata: LOCAL_METADATA,
    identityProviderId: '',
    ...(profile.wire.primaryPartyAuthentication ? { primaryPartyAuthentication: false } : {}),
  });
  const knownUser = (userId: string): UserRecord => {
    const user = ledger.users.get(userId);
    if (!user) throw userNotFound(userId);
    return user;
  };

  return [
    route({ method: 'GET', path: '/livez', public: true, handle: ({ res }) => void res.writeHead(200).end() }),
    route({ method: 'GET', path: '/readyz', public: true, handle: ({ res }) => sendText(res, 200, '[+] ledger ok (SERVING)\nreadyz check passed') }),
    route({
      method: 'GET',
      path: '/v2/version',
      handle: ({ res }) =>
        sendJson(res, 200, {
          version: profile.release,
          features: {
            experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
            userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: MAX_USERS_PAGE_SIZE },
            partyManagement: { maxPartiesPageSize: MAX_PARTIES_PAGE_SIZE },
            offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 75, nanos: 0, unknownFields: { fields: {} } } },
            ...(profile.wire.packageFeature ? { packageFeature: { maxVettedPackagesPageSize: 100 } } : {}),
          },
        }),
    }),
    route({ method: 'GET', path: '/v2/state/ledger-end', handle: ({ res }) => sendJson(res, 200, { offset: ledger.ledgerEnd }) }),
    route({
      method: 'GET',
      path: '/v2/state/latest-pruned-offsets',
      handle: ({ res }) =>
        sendJson(res, 200, { participantPrunedUpToInclusive: ledger.prunedUpTo, allDivulgedContractsPrunedUpToInclusive: ledger.prunedUpTo }),
    }),
    route({
      method: 'GET',
      path: '/v2/state/connected-synchronizers',
      handle: ({ res, url, caller }) => {
        const party = url.searchParams.get('party') || undefined;
        const participantId = url.searchParams.get('participantId') || undefined;
        if (party) ensureAllowed(canReadAs(caller, party) || isAdmin(caller));
        // From the synchronizer's topology, as CantonSyncService does: whether `participantId` (this
        // participant by default) hosts the party, with which permission; without a party, every synchronizer.
        const hosted = party === undefined ? undefined : s.topology.permission(party, participantId ?? ledger.participantId);
        const visible = party === undefined ? participantId === undefined || participantId === ledger.participantId || s.topology.participant(participantId) !== undefined : hosted !== undefined;
        const permission = hosted ? `PARTICIPANT_PERMISSION_${hosted}` : 'PARTICIPANT_PERMISSION_UNSPECIFIED';
        sendJson(res, 200, {
          connectedSynchronizers: visible ? ledger.synchronizers.map((sync) => ({ synchronizerAlias: sync.alias, synchronizerId: sync.id, permission })) : [],
        });
      },
    }),
    route({ method: 'GET', path: '/v2/parties/participant-id', handle: ({ res }) => sendJson(res, 200, { participantId: ledger.participantId }) }),
    route({
      method: 'GET',
      path: '/v2/parties',
      handle: ({ res, url, caller }) => {
        ensureAllowed(isAdmin(caller));
        const sorted = [...ledger.parties.values()].sort((a, b) => (a.party < b.party ? -1 : 1));
        const { items, nextPageToken } = page(sorted, (p) => p.party, url, MAX_PARTIES_PAGE_SIZE);
        sendJson(res, 200, { partyDetails: items.map(partyJson), nextPageToken });
      },
    }),
    route({
      method: 'POST',
      path: '/v2/parties',
      body: 'AllocatePartyRequest',
      decode: decodeAllocatePartyRequest,
      handle: ({ res, body, caller }) => {
        ensureAllowed(isAdmin(caller));
        const hint = body.partyIdHint || `party-${ledger.ids.hex(8)}`;
        if (!/^[A-Za-z0-9_-]{1,185}$/.test(hint)) throw invalidArgument(`Invalid party id hint: ${JSON.stringify(hint)}`);
        const party = ledger.allocateParty(hint);
        sendJson(res, 200, { partyDetails: partyJson(ledger.parties.get(party)!) });
      },
    }),
    route({
      method: 'GET',
      path: '/v2/parties/:party',
      handle: ({ res, params, caller }) => {
        ensureAllowed(isAdmin(caller) || canReadAs(caller, params.party));
        const known = ledger.parties.get(params.party);
        sendJson(res, 200, { partyDetails: known ? [partyJson(known)] : [] });
      },
    }),
    route({
      method: 'GET',
      path: '/v2/users',
      handle: ({ res, url, caller }) => {
        ensureAllowed(isAdmin(caller));
        const sorted = [...ledger.users.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
        const { items, nextPageToken } = page(sorted, (u) => u.id, url, MAX_USERS_PAGE_SIZE);
        sendJson(res, 200, { users: items.map(userJson), nextPageToken });
      },
    }),
    route({
      method: 'GET',
      path: '/v2/authenticated-user',
      handle: ({ res, caller }) => {
        // Without auth there is no authenticated user (Canton's wildcard auth has no user either).
        if (caller.kind !== 'user') throw invalidArgument('requests with an empty user-id are only supported if there is an authenticated user');
        sendJson(res, 200, { user: userJson(caller.user) });
      },
    }),
    route({
      method: 'GET',
      path: '/v2/users/:userId',
      handle: (ctx) => {
        ensureSelfOrAdmin(ctx, ctx.params.userId);
        sendJson(ctx.res, 200, { user: userJson(knownUser(ctx.params.userId)) });
      },
    }),
    route({
      method: 'GET',
      path: '/v2/users/:userId/rights',
      handle: (ctx) => {
        ensureSelfOrAdmin(ctx, ctx.params.userId);
        sendJson(ctx.res, 200, { rights: knownUser(ctx.params.userId).rights.map(rightJson) });
      },
    }),
  ];
}
