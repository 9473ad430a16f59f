/** Vetted packages per synchronizer and the difference an update makes to them. */
import type * as wire from './wire';

export interface VettedPackage {
  packageId: string;
  packageName?: string;
  packageVersion?: string;
  validFromInclusive?: string;
  validUntilExclusive?: string;
}

export interface VettedPackagesState {
  participantId: string;
  synchronizerId: string;
  topologySerial: number;
  packages: VettedPackage[];
}

export function decodeVettedPackages(v: wire.VettedPackages): VettedPackagesState {
  return {
    participantId: v.participantId,
    synchronizerId: v.synchronizerId,
    topologySerial: v.topologySerial,
    packages: (v.packages ?? []).map((p) => ({
      packageId: p.packageId,
      packageName: p.packageName || undefined,
      packageVersion: p.packageVersion || undefined,
      validFromInclusive: p.validFromInclusive || undefined,
      validUntilExclusive: p.validUntilExclusive || undefined,
    })),
  };
}

export interface ValidityChange {
  before: VettedPackage;
  after: VettedPackage;
}

export interface VettingDiff {
  added: VettedPackage[];
  removed: VettedPackage[];
  validityChanged: ValidityChange[];
  unchanged: VettedPackage[];
}

/** What changes from `past` (absent: nothing vetted yet) to `next`, keyed by package id. */
export function diffVettedPackages(past: VettedPackagesState | undefined, next: VettedPackagesState): VettingDiff {
  const before = new Map((past?.packages ?? []).map((p) => [p.packageId, p]));
  const diff: VettingDiff = { added: [], removed: [], validityChanged: [], unchanged: [] };
  for (const p of next.packages) {
    const old = before.get(p.packageId);
    if (!old) diff.added.push(p);
    else if (old.validFromInclusive !== p.validFromInclusive || old.validUntilExclusive !== p.validUntilExclusive) diff.validityChanged.push({ before: old, after: p });
    else diff.unchanged.push(p);
    before.delete(p.packageId);
  }
  diff.removed.push(...before.values());
  return diff;
}

export function isEmptyDiff(d: VettingDiff): boolean {
  return d.added.length === 0 && d.removed.length === 0 && d.validityChanged.length === 0;
}

/** `name 1.0.0 (1a2b3c4d…)` or the bare id when the participant does not know the metadata. */
export function describePackage(p: VettedPackage): string {
  const short = p.packageId.slice(0, 12);
  return p.packageName ? `${p.packageName}${p.packageVersion ? ` ${p.packageVersion}` : ''} (${short}…)` : p.packageId;
}

export interface VettingUpdateResult {
  past?: VettedPackagesState;
  next: VettedPackagesState;
  diff: VettingDiff;
  dryRun: boolean;
  raw: wire.UpdateVettedPackagesResponse;
}
