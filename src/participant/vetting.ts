/**
 * Package vetting per synchronizer (NOTES §2.4): applying a list of Vet/Unvet changes in order,
 * the optimistic-concurrency serial, and the dependency check Canton runs before it signs a new
 * vetting topology transaction.
 */
import { LedgerApiError, invalidArgument } from './errors';
import type { PackageDef, PackageStore } from './packages';
import type { Micros } from './time';

export interface VettingBounds {
  validFrom: Micros | null;
  validUntil: Micros | null;
}

export interface VettingState {
  /** The serial of the last vetting topology transaction (0: none yet). */
  serial: number;
  packages: Map<string, VettingBounds>;
}

export interface PackageRef {
  packageId?: string;
  packageName?: string;
  packageVersion?: string;
}

export type VettingChange =
  | { operation: 'vet'; refs: PackageRef[]; validFrom: Micros | null; validUntil: Micros | null }
  | { operation: 'unvet'; refs: PackageRef[] };

export type ExpectedSerial = { kind: 'prior'; serial: number } | { kind: 'noPrior' };

export interface VettingUpdate {
  changes: VettingChange[];
  expectedSerial?: ExpectedSerial;
  allowUnvettedDependencies: boolean;
  /** 3.5.5+ lets you unvet a dependency of a vetted package; older versions check every vetted package. */
  checkOnlyChangedPackages: boolean;
}

function describeRef(ref: PackageRef): string {
  const parts = Object.entries(ref).filter(([, v]) => v);
  return `VettedPackagesRef(${parts.map(([k, v]) => `${k}=${v}`).join(', ')})`;
}

/** Empty fields are wildcards; at least an id or a name must be given. */
function matchRef(ref: PackageRef, packages: PackageStore): PackageDef[] {
  if (!ref.packageId && !ref.packageName) {
    throw invalidArgument(`${describeRef(ref)}: a package reference needs a package id or a package name`);
  }
  return packages.all().filter(
    (p) =>
      (!ref.packageId || p.id === ref.packageId) &&
      (!ref.packageName || p.name === ref.packageName) &&
      (!ref.packageVersion || p.version === ref.packageVersion),
  );
}

function checkSerial(current: VettingState, expected: ExpectedSerial | undefined): void {
  if (!expected) return;
  const ok = expected.kind === 'noPrior' ? current.serial === 0 : current.serial === expected.serial;
  if (!ok) {
    const wanted = expected.kind === 'noPrior' ? 'no prior vetting transaction' : `serial ${expected.serial}`;
    throw new LedgerApiError(
      'TOPOLOGY_SERIAL_MISMATCH',
      `The expected topology serial does not match the current one: expected ${wanted}, but the current serial is ${current.serial}`,
    );
  }
}

function sameBounds(a: VettingBounds | undefined, b: VettingBounds | undefined): boolean {
  return a?.validFrom === b?.validFrom && a?.validUntil === b?.validUntil;
}

/** The state after applying `update` to `current` (which is left unchanged), and whether anything changed. */
export function applyVettingUpdate(current: VettingState, update: VettingUpdate, uploaded: PackageStore): { next: VettingState; changed: boolean } {
  checkSerial(current, update.expectedSerial);
  const packages = new Map(current.packages);
  const touched = new Set<string>();
  for (const change of update.changes) {
    for (const ref of change.refs) {
      const matches = matchRef(ref, uploaded);
      if (matches.length === 0) throw invalidArgument(`${describeRef(ref)} does not match any package uploaded to the participant`);
      if (change.operation === 'vet') {
        if (matches.length > 1) {
          throw invalidArgument(`${describeRef(ref)} is ambiguous: it matches ${matches.map((p) => `${p.name} ${p.version} (${p.id})`).join(', ')}`);
        }
        packages.set(matches[0].id, { validFrom: change.validFrom, validUntil: change.validUntil });
        touched.add(matches[0].id);
      } else {
        for (const p of matches) packages.delete(p.id);
      }
    }
  }
  if (!update.allowUnvettedDependencies) {
    const unvetted = new Set<string>();
    for (const id of packages.keys()) {
      if (update.checkOnlyChangedPackages && !touched.has(id)) continue;
      const p = uploaded.get(id);
      for (const dep of p ? uploaded.transitiveDependencies(p) : []) if (!packages.has(dep)) unvetted.add(dep);
    }
    if (unvetted.size > 0) {
      throw new LedgerApiError('TOPOLOGY_DEPENDENCIES_NOT_VETTED', 'Package vetting failed due to dependencies not being vetted', {
        context: { unvetted: `Set(${[...unvetted].sort().join(', ')})` },
      });
    }
  }
  const changed =
    packages.size !== current.packages.size || [...packages].some(([id, bounds]) => !sameBounds(bounds, current.packages.get(id)));
  return { next: { serial: changed ? current.serial + 1 : current.serial, packages }, changed };
}
