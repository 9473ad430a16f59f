/**
 * What a participant can do, from the version it reports (`GET /v2/version`). The table is NOTES §7.
 * Unknown or unparsable versions (snapshots, forks) are treated as the newest we know.
 */

export interface ParticipantCapabilities {
  version: string;
  /** `/v2/updates/flats` (removed in 3.6). */
  flats: boolean;
  /** `/v2/updates/get-updates-page` and `descendingOrder` (3.5.1+). */
  updatesPage: boolean;
  descendingOrder: boolean;
  /** `/v2/package-vetting/list` and `/update` (3.4.12+). */
  vettingUpdate: boolean;
  /** Template ids in filters must use the package-name form (3.5+). */
  packageNameFiltersOnly: boolean;
}

export function parseVersion(v: string): [number, number, number] | undefined {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

function atLeast(v: [number, number, number], major: number, minor: number, patch = 0): boolean {
  if (v[0] !== major) return v[0] > major;
  if (v[1] !== minor) return v[1] > minor;
  return v[2] >= patch;
}

export function capabilitiesOf(version: string): ParticipantCapabilities {
  const v = parseVersion(version) ?? [99, 0, 0];
  return {
    version,
    flats: !atLeast(v, 3, 6),
    updatesPage: atLeast(v, 3, 5, 1),
    descendingOrder: atLeast(v, 3, 5, 1),
    vettingUpdate: atLeast(v, 3, 4, 12),
    packageNameFiltersOnly: atLeast(v, 3, 5),
  };
}
