/**
 * The package service: listing packages, downloading one (its ArchivePayload bytes), its status, and
 * DAR upload (`POST /v2/dars`, 3.4+, and its older alias `POST /v2/packages`) with its dry run
 * `POST /v2/dars/validate` (3.4+).
 */
import { ensureAllowed, isAdmin } from '../auth';
import { LfDecodeError } from '../../core/errors';
import { DecodeFailure, LedgerApiError, invalidArgument } from '../errors';
import { packagesOfDar, type PackageDef } from '../packages';
import { route, sendBytes, sendJson, type RequestContext, type Route } from '../server';
import { vettingSynchronizer, type Services } from './services';

const PACKAGE_ID = /^[0-9a-f]{64}$/;

function packageNotFound(packageId: string): LedgerApiError {
  return new LedgerApiError('PACKAGE_NOT_FOUND', 'Could not find package.', { resources: [['PACKAGE', packageId]] });
}

/** The packages of an uploaded DAR; bytes that are not a DAR are refused as Canton refuses them. */
function readUploadedDar(bytes: Buffer): PackageDef[] {
  if (bytes.length === 0) throw new LedgerApiError('INVALID_DAR', 'Dar file is corrupt: the request body is empty');
  try {
    return packagesOfDar(bytes, 'upload').packages;
  } catch (error) {
    if (!(error instanceof LfDecodeError)) throw error;
    if (error.stage === 'dar') throw new LedgerApiError('INVALID_DAR', `Dar file is corrupt: ${error.message}`);
    throw new LedgerApiError('DAR_PARSE_ERROR', `Failed to parse the dar file content: ${error.message}`);
  }
}

/** `?name=true|false`; anything else fails decoding, as in Canton. */
function queryBool(url: URL, name: string): boolean | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null) return undefined;
  if (raw !== 'true' && raw !== 'false') throw DecodeFailure.query(name);
  return raw === 'true';
}

export function packageRoutes(s: Services): Route[] {
  const { ledger } = s;
  // 3.3 has no vetting parameters: an upload vets on every connected synchronizer.
  const uploadParameters = s.profile.line !== '3.3';

  /** Where an upload vets its packages: nowhere, the requested or only synchronizer, or (3.3) all of them. */
  const vettingTargets = (url: URL, vetAllPackages: boolean): string[] => {
    if (!uploadParameters) return ledger.synchronizers.map((sync) => sync.id);
    if (!vetAllPackages) return [];
    return [vettingSynchronizer(ledger, url.searchParams.get('synchronizerId') || undefined)];
  };

  const upload = (path: string) =>
    route({
      method: 'POST',
      path,
      handle: ({ res, url, rawBody, caller }: RequestContext) => {
        const vetAllPackages = uploadParameters ? (queryBool(url, 'vetAllPackages') ?? true) : true;
        ensureAllowed(isAdmin(caller));
        const targets = vettingTargets(url, vetAllPackages);
        const packages = readUploadedDar(rawBody);
        ledger.addPackages(packages);
        ledger.vetPackages(packages, targets);
        sendJson(res, 200, {});
      },
    });

  return [
    route({ method: 'GET', path: '/v2/packages', handle: ({ res }) => sendJson(res, 200, { packageIds: ledger.packages.all().map((p) => p.id) }) }),
    route({
      method: 'GET',
      path: '/v2/packages/:packageId',
      handle: ({ res, params }) => {
        if (!PACKAGE_ID.test(params.packageId)) throw invalidArgument(`Invalid package id: ${params.packageId}`);
        const found = ledger.packages.get(params.packageId);
        if (!found) throw packageNotFound(params.packageId);
        sendBytes(res, found.payload, { 'Canton-Package-Hash': found.id });
      },
    }),
    route({
      method: 'GET',
      path: '/v2/packages/:packageId/status',
      handle: ({ res, params }) =>
        sendJson(res, 200, { packageStatus: ledger.packages.get(params.packageId) ? 'PACKAGE_STATUS_REGISTERED' : 'PACKAGE_STATUS_UNSPECIFIED' }),
    }),
    upload('/v2/packages'),
    upload('/v2/dars'),
    route({
      method: 'POST',
      path: '/v2/dars/validate',
      handle: ({ res, url, rawBody, caller }) => {
        ensureAllowed(isAdmin(caller));
        const requested = url.searchParams.get('synchronizerId');
        if (requested) vettingSynchronizer(ledger, requested);
        readUploadedDar(rawBody);
        res.writeHead(200).end();
      },
    }),
  ];
}
