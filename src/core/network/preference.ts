/**
 * Canton's package preference as a pure function: for each package name, the highest version that
 * each party requiring it has vetted, where a party "has vetted" a package when every participant
 * hosting it has (`PackagePreferenceBackend.scala`, digital-asset/canton,
 * `community/ledger/ledger-api-core/.../platform/`). The demo participant answers
 * `preferred-packages` with it, and the network model uses it where a participant cannot answer.
 * Not modelled: Canton's check of the candidates' dependencies (a candidate whose required
 * dependency some party has not vetted is dropped too).
 */
import { comparePackageVersions } from '../daml/packageVersions';
import { getOrCreate } from '../maps';

export interface PackageRef {
  packageId: string;
  packageName: string;
  packageVersion: string;
}

/** Package name → the parties whose every host must have vetted the version chosen. */
export type VettingRequirements = ReadonlyMap<string, ReadonlySet<string>>;

/** Why no version of a package name fits, as Canton decides it. */
export type PreferenceFailure =
  /** No participant hosts the party (on the synchronizer). */
  | { kind: 'party-unknown'; packageName: string; party: string }
  /** The party's hosts have no version of the name vetted in common (or none at all). */
  | { kind: 'party-lacks-name'; packageName: string; party: string }
  /** Each party has versions of the name, but no version is common to them all. */
  | { kind: 'parties-disagree'; packageName: string; party: string; current: PackageRef[]; ofParty: PackageRef[] };

export type PreferenceOutcome = { ok: true; packages: PackageRef[] } | { ok: false; failure: PreferenceFailure };

/**
 * The preferred package of each required name (in the requirements' order), or the first reason
 * none fits. `vettedBy(party)`: the packages the party has vetted (on every host), undefined when
 * no participant hosts it.
 */
export function choosePreferred(requirements: VettingRequirements, vettedBy: (party: string) => readonly PackageRef[] | undefined): PreferenceOutcome {
  const byParty = new Map<string, string[]>();
  for (const [name, parties] of requirements) for (const party of parties) getOrCreate(byParty, party, () => []).push(name);

  const candidates = new Map<string, { refs: PackageRef[] } | { failure: PreferenceFailure }>();
  for (const [party, names] of byParty) {
    const vetted = vettedBy(party);
    for (const packageName of names) {
      const previous = candidates.get(packageName);
      if (previous && 'failure' in previous) continue;
      if (vetted === undefined) {
        candidates.set(packageName, { failure: { kind: 'party-unknown', packageName, party } });
        continue;
      }
      const ofName = vetted.filter((p) => p.packageName === packageName);
      if (ofName.length === 0) {
        candidates.set(packageName, { failure: { kind: 'party-lacks-name', packageName, party } });
        continue;
      }
      if (!previous) {
        candidates.set(packageName, { refs: ofName });
        continue;
      }
      const common = previous.refs.filter((p) => ofName.some((q) => q.packageId === p.packageId));
      candidates.set(packageName, common.length > 0 ? { refs: common } : { failure: { kind: 'parties-disagree', packageName, party, current: previous.refs, ofParty: ofName } });
    }
  }
  const chosen: PackageRef[] = [];
  for (const packageName of requirements.keys()) {
    const c = candidates.get(packageName);
    // A name no party requires cannot happen here: every requirement names at least one party.
    if (!c) return { ok: false, failure: { kind: 'party-lacks-name', packageName, party: '' } };
    if ('failure' in c) return { ok: false, failure: c.failure };
    chosen.push(highest(c.refs));
  }
  return { ok: true, packages: chosen };
}

export function highest(refs: readonly PackageRef[]): PackageRef {
  return [...refs].sort((a, b) => comparePackageVersions(b.packageVersion, a.packageVersion))[0];
}

/** Canton's own words for a failure (a demo participant answers with them). */
export function cantonReason(f: PreferenceFailure): string {
  switch (f.kind) {
    case 'party-unknown':
      // Canton's wording, including the word it leaves out.
      return `No package is consistently by all hosting participants of ${f.party}.`;
    case 'party-lacks-name':
      return `No package with package-name '${f.packageName}' is consistently vetted by all hosting participants of party ${f.party}.`;
    case 'parties-disagree': {
      const set = (refs: PackageRef[]) => `SortedSet(${refs.map((p) => `${p.packageName}:${p.packageVersion}(${p.packageId})`).join(', ')})`;
      return `No package candidates for '${f.packageName}' after considering candidates for party ${f.party}.\nCurrent candidates: ${set(f.current)}.\nCandidates for party ${f.party}: ${set(f.ofParty)}`;
    }
  }
}
