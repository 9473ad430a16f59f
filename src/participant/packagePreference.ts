/**
 * Canton's package preference: for each package name, the highest version vetted by every
 * participant hosting each party that needs it. It answers `preferred-packages` and decides which
 * version a demo network's submission may use. After `PackagePreferenceBackend.scala`
 * (digital-asset/canton, `community/ledger/ledger-api-core/.../platform/`): a party "vets" a package
 * when all its hosts have; a package name's candidates are the intersection over the parties that
 * require it; the highest version of what is left wins; each discarded choice keeps its reason, in
 * Canton's words. Not simulated: the dependency check on candidates (the demo's packages are
 * vetted with their dependencies) and the package-id filter of a submission's preference set.
 */
import { comparePackageVersions } from '../core/daml/packageVersions';
import { LedgerApiError } from './errors';
import type { DemoLedger } from './ledger';
import type { PackageDef } from './packages';
import type { Micros } from './time';
import type { Topology } from './topology';

/** Package name → the parties whose every host must have vetted the version chosen. */
export type VettingRequirements = ReadonlyMap<string, ReadonlySet<string>>;

export type Preference = { ok: true; packages: PackageDef[]; synchronizerId: string } | { ok: false; reason: string };

/** One synchronizer's answer: the package chosen per name, or why none could be (and for which name). */
export function preferenceOn(
  topology: Topology,
  local: DemoLedger,
  requirements: VettingRequirements,
  synchronizerId: string,
  at: Micros,
): { ok: true; packages: PackageDef[] } | { ok: false; reason: string; packageName: string } {
  const byParty = new Map<string, Set<string>>();
  for (const [name, parties] of requirements) for (const party of parties) (byParty.get(party) ?? byParty.set(party, new Set()).get(party)!).add(name);

  // The candidates per package name: the intersection, over the parties requiring it, of the ids
  // of that name each party has vetted (a party whose hosts agree on none discards the name).
  const candidates = new Map<string, { ok: true; ids: Set<string> } | { ok: false; reason: string }>();
  for (const [party, names] of byParty) {
    const vetted = topology.partyVetting(party, synchronizerId, at);
    for (const name of names) {
      const previous = candidates.get(name);
      if (previous && !previous.ok) continue;
      if (vetted === undefined) {
        // Canton's wording, including its missing word.
        candidates.set(name, { ok: false, reason: `No package is consistently by all hosting participants of ${party}.` });
        continue;
      }
      const ofName = new Set([...vetted].filter((id) => local.packages.get(id)?.name === name));
      if (ofName.size === 0) {
        candidates.set(name, { ok: false, reason: `No package with package-name '${name}' is consistently vetted by all hosting participants of party ${party}.` });
        continue;
      }
      if (!previous) {
        candidates.set(name, { ok: true, ids: ofName });
        continue;
      }
      const common = new Set([...previous.ids].filter((id) => ofName.has(id)));
      candidates.set(
        name,
        common.size > 0
          ? { ok: true, ids: common }
          : {
              ok: false,
              reason: `No package candidates for '${name}' after considering candidates for party ${party}.\nCurrent candidates: ${references(local, previous.ids)}.\nCandidates for party ${party}: ${references(local, ofName)}`,
            },
      );
    }
  }
  const chosen: PackageDef[] = [];
  for (const name of requirements.keys()) {
    const c = candidates.get(name);
    if (!c) return { ok: false, packageName: name, reason: `No package is consistently vetted by all hosting participants of the requested parties for package-name '${name}'` };
    if (!c.ok) return { ...c, packageName: name };
    chosen.push([...c.ids].map((id) => local.packages.get(id)!).sort((a, b) => comparePackageVersions(b.version, a.version))[0]);
  }
  return { ok: true, packages: chosen };
}

function references(local: DemoLedger, ids: Iterable<string>): string {
  return `SortedSet(${[...ids].map((id) => local.packages.get(id)!).map((p) => `${p.name}:${p.version}(${p.id})`).join(', ')})`;
}

/**
 * The preference on the requested synchronizer, else on the first connected one that has an answer
 * (Canton takes the valid candidate with the lowest synchronizer id); with every synchronizer's
 * reason when none has. Package names this participant does not know are refused first, as Canton does.
 */
export function preferPackages(topology: Topology, local: DemoLedger, requirements: VettingRequirements, options: { synchronizerId?: string; at?: Micros } = {}): Preference {
  const known = new Set(local.packages.all().map((p) => p.name));
  const unknown = [...requirements.keys()].filter((name) => !known.has(name)).sort();
  if (unknown.length > 0) {
    throw new LedgerApiError('PACKAGE_NAMES_NOT_FOUND', `The following package names do not match upgradable packages uploaded on this participant: [${unknown.join(', ')}]`);
  }
  const at = options.at ?? local.now();
  const synchronizers = local.synchronizers.filter((s) => !options.synchronizerId || s.id === options.synchronizerId).map((s) => s.id).sort();
  const discarded: string[] = [];
  for (const synchronizerId of synchronizers) {
    const answer = preferenceOn(topology, local, requirements, synchronizerId, at);
    if (answer.ok) return { ...answer, synchronizerId };
    discarded.push(`(${synchronizerId},${answer.reason})`);
  }
  return { ok: false, reason: `No synchronizer satisfies the vetting requirements. Discarded synchronizers: List(${discarded.join(', ')})` };
}

/** NO_PREFERRED_PACKAGES_FOUND (LedgerApiErrors.scala, ledger-common; FAILED_PRECONDITION), as the preferred-packages service answers a preference that fails. */
export function noPreferredPackages(reason: string): LedgerApiError {
  return new LedgerApiError('NO_PREFERRED_PACKAGES_FOUND', `Could not compute valid package preferences. Reason: ${reason}`);
}
