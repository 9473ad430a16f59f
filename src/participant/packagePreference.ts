/**
 * Canton's package preference over a demo topology: it answers `preferred-packages` and decides
 * which version a demo network's submission may use. The choice itself is the core's
 * (`core/network/preference.ts`, after Canton's `PackagePreferenceBackend.scala`); here, what each
 * party has vetted (what all its hosts have, valid now) and Canton's answers around it.
 */
import { cantonReason, choosePreferred, type PackageRef, type VettingRequirements } from '../core/network/preference';
import { LedgerApiError } from './errors';
import type { DemoLedger } from './ledger';
import type { Micros } from './time';
import type { Topology } from './topology';

export type Preference = { ok: true; packages: PackageRef[]; synchronizerId: string } | { ok: false; reason: string };

/** One synchronizer's answer: the package chosen per name, or Canton's reason none could be (and for which name). */
export function preferenceOn(
  topology: Topology,
  local: DemoLedger,
  requirements: VettingRequirements,
  synchronizerId: string,
  at: Micros,
): { ok: true; packages: PackageRef[] } | { ok: false; reason: string; packageName: string } {
  const answer = choosePreferred(requirements, (party) => {
    const ids = topology.partyVetting(party, synchronizerId, at);
    // Names and versions come from this participant's package store; ids it does not have are left out, as in Canton.
    return ids && [...ids].flatMap((id) => {
      const p = local.packages.get(id);
      return p ? [{ packageId: p.id, packageName: p.name, packageVersion: p.version }] : [];
    });
  });
  return answer.ok ? answer : { ok: false, reason: cantonReason(answer.failure), packageName: answer.failure.packageName };
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
