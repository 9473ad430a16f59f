/**
 * A vetting change judged across the network before it is applied: the participant computes the new
 * state (a dry run of the update), and for every party it hosts, the versions that party could use
 * before (every host has them) and would lose after. A party on several participants loses a version
 * when any one of its hosts stops vetting it: that is what this shows and one participant alone cannot.
 */
import type { CallOptions } from '../api/http';
import type * as wire from '../models/wire';
import { describePackage } from '../models/vetting';
import { comparePackageVersions } from '../daml/packageVersions';
import { labelOfParticipant, vettedByParty, type NetworkMember, type NetworkProblem, type NetworkSnapshot } from './model';
import { networkProblem, readNetwork } from './read';

export interface VettingLoss {
  party: string;
  packageName: string;
  /** Versions every host of the party has now, highest first. */
  before: string[];
  /** The same after the change: empty means commands of the party on this package will fail. */
  after: string[];
}

export interface VettingDryRunResult {
  participantId?: string;
  /** What the change adds and removes on its participant (`describePackage` form). */
  added: string[];
  removed: string[];
  losses: VettingLoss[];
  /** The parties judged (hosted on the participant, or the ones asked about). */
  parties: string[];
  problems: NetworkProblem[];
}

/**
 * Runs `request` as a dry run on `target` and judges it for the parties `target` hosts (or
 * `o.parties`), reading the network through `members` (`target` is read too).
 */
export async function vettingDryRun(request: wire.UpdateVettedPackagesRequest, target: NetworkMember, members: readonly NetworkMember[], o: CallOptions & { parties?: readonly string[] } = {}): Promise<VettingDryRunResult> {
  const result = await target.client.updateVettedPackages({ ...request, dryRun: true }, o);
  const participantId = result.next.participantId;
  const problems: NetworkProblem[] = [];
  let parties = o.parties ? [...o.parties] : undefined;
  if (!parties) {
    try {
      parties = (await target.client.parties(o)).filter((p) => p.isLocal !== false).map((p) => p.party);
    } catch (e) {
      problems.push(networkProblem(target.label, 'hosting', e));
      parties = [];
    }
  }
  const readers = members.includes(target) ? members : [target, ...members];
  const now = await readNetwork(readers, { ...o, parties });
  problems.push(...now.problems);
  const after: NetworkSnapshot = {
    ...now,
    vetting: new Map([...now.vetting, [participantId, [{ ...result.next, participantId }]]]),
  };
  const touched = new Set([...result.diff.removed, ...result.diff.validityChanged.map((c) => c.before)].map((p) => p.packageName).filter((n): n is string => !!n));
  const losses: VettingLoss[] = [];
  for (const party of parties) {
    if (!now.hosting.get(party)?.hosts.some((h) => h.participantId === participantId)) continue;
    const versions = (snapshot: NetworkSnapshot, name: string) =>
      [...new Set((vettedByParty(snapshot, party) ?? []).filter((p) => p.packageName === name).map((p) => p.packageVersion))].sort((a, b) => comparePackageVersions(b, a));
    for (const packageName of [...touched].sort()) {
      const before = versions(now, packageName);
      const later = versions(after, packageName);
      if (before.some((v) => !later.includes(v))) losses.push({ party, packageName, before, after: later });
    }
  }
  return { participantId, added: result.diff.added.map(describePackage), removed: result.diff.removed.map(describePackage), losses, parties, problems };
}

/** One line per loss, for people. */
export function describeLoss(l: VettingLoss, participantId?: string): string {
  const party = l.party.split('::', 1)[0];
  const where = participantId ? ` (hosted on ${labelOfParticipant(participantId)})` : '';
  const lost = l.before.filter((v) => !l.after.includes(v));
  return l.after.length === 0
    ? `${party}${where} could no longer use any version of ${l.packageName} (now ${l.before.join(', ')}): its commands on it would fail.`
    : `${party}${where} would lose ${l.packageName} ${lost.join(', ')}; ${l.after.join(', ')} stays usable.`;
}
