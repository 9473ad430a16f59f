/**
 * Listing and updating vetted packages: `POST /v2/package-vetting/list` and `/update` (3.4.12+), and
 * their 3.4.0–3.4.11 forms `GET` (request in the body) and `POST /v2/package-vetting`.
 */
import type * as wire from '../../core/models/wire';
import { ensureAllowed, isAdmin } from '../auth';
import { decodeListVettedPackagesRequest, decodeUpdateVettedPackagesRequest } from '../decode';
import { LedgerApiError, invalidArgument, missingField } from '../errors';
import { route, sendJson, type Route } from '../server';
import { formatInstant, parseInstant } from '../time';
import type { PackageStore } from '../packages';
import type { ExpectedSerial, PackageRef, VettingChange, VettingState } from '../vetting';
import { vettingSynchronizer, type Services } from './services';

const MAX_PAGE_SIZE = 100;
const ALLOW_UNVETTED_DEPENDENCIES = 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES';

function vettedPackagesJson(
  state: VettingState,
  uploaded: PackageStore,
  participantId: string,
  synchronizerId: string,
  include: (id: string) => boolean = () => true,
): wire.VettedPackages {
  const packages = [...state.packages]
    .filter(([id]) => include(id))
    .map(([id, bounds]) => {
      const p = uploaded.get(id);
      return {
        packageId: id,
        validFromInclusive: bounds.validFrom === null ? null : formatInstant(bounds.validFrom),
        validUntilExclusive: bounds.validUntil === null ? null : formatInstant(bounds.validUntil),
        packageName: p?.name ?? null,
        packageVersion: p?.version ?? null,
      };
    })
    .sort((a, b) => `${a.packageName}@${a.packageVersion}`.localeCompare(`${b.packageName}@${b.packageVersion}`));
  return { packages, participantId, synchronizerId, topologySerial: state.serial };
}

function packageRefs(refs: wire.VettedPackagesRef[]): PackageRef[] {
  if (refs.length === 0) throw missingField('packages');
  return refs.map((r) => ({ packageId: r.packageId || undefined, packageName: r.packageName || undefined, packageVersion: r.packageVersion || undefined }));
}

function vettingChange(change: wire.VettedPackagesChange): VettingChange {
  const op = change.operation;
  if (!op || 'Empty' in op) throw missingField('operation');
  if ('Unvet' in op) return { operation: 'unvet', refs: packageRefs(op.Unvet.value.packages) };
  const { packages, newValidFromInclusive, newValidUntilExclusive } = op.Vet.value;
  return {
    operation: 'vet',
    refs: packageRefs(packages),
    validFrom: newValidFromInclusive ? parseInstant(newValidFromInclusive)! : null,
    validUntil: newValidUntilExclusive ? parseInstant(newValidUntilExclusive)! : null,
  };
}

function expectedSerial(expected: wire.PriorTopologySerial | undefined): ExpectedSerial | undefined {
  if (!expected) return undefined;
  const serial = expected.serial;
  if (!serial || 'Empty' in serial) throw missingField('expected_topology_serial.serial');
  return 'Prior' in serial ? { kind: 'prior', serial: serial.Prior.value } : { kind: 'noPrior' };
}

export function vettingRoutes(s: Services): Route[] {
  const { ledger } = s;

  const list = (method: 'GET' | 'POST', path: string) =>
    route({
      method,
      path,
      body: 'ListVettedPackagesRequest',
      decode: decodeListVettedPackagesRequest,
      handle: ({ res, body }) => {
        const pageSize = body.pageSize ?? 0;
        if (pageSize < 0 || pageSize > MAX_PAGE_SIZE) throw invalidArgument(`page_size must be between 0 and ${MAX_PAGE_SIZE}, got ${pageSize}`);
        const ids = body.packageMetadataFilter?.packageIds ?? [];
        const prefixes = body.packageMetadataFilter?.packageNamePrefixes ?? [];
        const filtered = ids.length > 0 || prefixes.length > 0;
        const include = (id: string) => !filtered || ids.includes(id) || prefixes.some((prefix) => ledger.packages.get(id)?.name.startsWith(prefix));
        const participants = body.topologyStateFilter?.participantIds ?? [];
        const synchronizers = body.topologyStateFilter?.synchronizerIds ?? [];
        // The synchronizers' topology state: every participant's vetting (a network's too), names and
        // versions from this participant's own package store.
        const all = s.topology.participants
          .filter((member) => participants.length === 0 || participants.includes(member.participantId))
          .flatMap((member) => member.synchronizers.filter((sync) => ledger.synchronizers.some((own) => own.id === sync.id)).map((sync) => ({ member, sync })))
          .filter(({ sync }) => synchronizers.length === 0 || synchronizers.includes(sync.id))
          .sort((a, b) => (a.sync.id < b.sync.id ? -1 : a.sync.id > b.sync.id ? 1 : a.member.participantId < b.member.participantId ? -1 : 1))
          .map(({ member, sync }) => vettedPackagesJson(member.vetting(sync.id)!, ledger.packages, member.participantId, sync.id, include))
          .filter((v) => !filtered || (v.packages?.length ?? 0) > 0);
        const start = body.pageToken ? Number(Buffer.from(body.pageToken, 'base64').toString('utf8')) : 0;
        if (!Number.isSafeInteger(start) || start < 0) throw invalidArgument('Invalid page token');
        const size = pageSize || MAX_PAGE_SIZE;
        const end = start + size;
        sendJson(res, 200, {
          vettedPackages: all.slice(start, end),
          nextPageToken: end < all.length ? Buffer.from(String(end)).toString('base64') : '',
        });
      },
    });
  const update = (path: string) =>
    route({
      method: 'POST',
      path,
      body: 'UpdateVettedPackagesRequest',
      decode: decodeUpdateVettedPackagesRequest,
      handle: ({ req, res, body, caller }) => {
        ensureAllowed(isAdmin(caller));
        if (body.changes.length === 0) throw missingField('changes');
        const changes = body.changes.map(vettingChange);
        const synchronizerId = vettingSynchronizer(ledger, body.synchronizerId);
        const { past, next } = ledger.updateVetting(
          synchronizerId,
          {
            changes,
            expectedSerial: expectedSerial(body.expectedTopologySerial),
            allowUnvettedDependencies: (body.updateVettedPackagesForceFlags ?? []).includes(ALLOW_UNVETTED_DEPENDENCIES),
            checkOnlyChangedPackages: s.profile.unvetDependenciesOfVetted,
          },
          body.dryRun === true,
        );
        const fault = body.dryRun === true ? undefined : s.faults.vettingUpdate;
        if (fault) {
          if (fault.times !== undefined && --fault.times <= 0) delete s.faults.vettingUpdate;
          req.socket.destroy();
          return;
        }
        sendJson(res, 200, {
          pastVettedPackages: past.serial === 0 ? null : vettedPackagesJson(past, ledger.packages, ledger.participantId, synchronizerId),
          newVettedPackages: vettedPackagesJson(next, ledger.packages, ledger.participantId, synchronizerId),
        });
      },
    });
  return [list('POST', '/v2/package-vetting/list'), update('/v2/package-vetting/update'), list('GET', '/v2/package-vetting'), update('/v2/package-vetting')];
}
