/**
 * Why no version of a package name fits a set of parties, host by host: which party, hosted where
 * (and with which permission), lacks which vetting. Canton's own answer names one party; this names
 * every host that is missing something, so that one round of vetting fixes it.
 */
import { hostOf, versionsOn, type HostPermission, type NetworkProblem, type NetworkSnapshot } from './model';

export interface HostRef {
  participantId: string;
  label: string;
}

export type MissingVetting =
  /** No participant hosts the party (a typo, or a party of another synchronizer). */
  | { kind: 'party-hosted-nowhere'; party: string }
  /** Where the party is hosted could not be read (completely). */
  | { kind: 'hosting-unknown'; party: string; problems: NetworkProblem[] }
  /** A host's vetting could not be read. */
  | { kind: 'vetting-unknown'; party: string; host: HostRef }
  /** A host of the party has not vetted any version of the package name. */
  | { kind: 'host-lacks-package'; party: string; host: HostRef; permission: HostPermission; packageName: string; elsewhere: Array<{ host: HostRef; versions: string[] }> }
  /** Every host has some version, but no version is on them all. */
  | { kind: 'hosts-disagree'; party: string; packageName: string; hosts: Array<{ host: HostRef; permission: HostPermission; versions: string[] }> }
  /** Each party can use some version, but no version suits every party. */
  | { kind: 'parties-disagree'; packageName: string; parties: Array<{ party: string; versions: string[] }> };

/**
 * Everything that keeps `parties` from a common version of `packageName`, from the snapshot. Empty
 * when the snapshot sees no obstacle (then the version is usable, as far as it can tell).
 */
export function missingVetting(snapshot: NetworkSnapshot, packageName: string, parties: readonly string[]): MissingVetting[] {
  const out: MissingVetting[] = [];
  const usable: Array<{ party: string; versions: string[] }> = [];
  for (const party of parties) {
    const hosting = snapshot.hosting.get(party);
    if (!hosting || !hosting.complete) {
      const problems = snapshot.problems.filter((p) => p.kind === 'unreachable' || ('party' in p && p.party === party) || p.kind === 'unavailable');
      out.push({ kind: 'hosting-unknown', party, problems });
      continue;
    }
    if (hosting.hosts.length === 0) {
      out.push({ kind: 'party-hosted-nowhere', party });
      continue;
    }
    const hosts = uniqueHosts(hosting.hosts).map((h) => ({ host: ref(snapshot, h.participantId), permission: h.permission, versions: versionsOn(snapshot, h.participantId, packageName) }));
    const unread = hosts.filter((h) => h.versions === undefined);
    for (const h of unread) out.push({ kind: 'vetting-unknown', party, host: h.host });
    if (unread.length > 0) continue;
    const read = hosts as Array<{ host: HostRef; permission: HostPermission; versions: string[] }>;
    const lacking = read.filter((h) => h.versions.length === 0);
    for (const h of lacking) {
      out.push({ kind: 'host-lacks-package', party, host: h.host, permission: h.permission, packageName, elsewhere: read.filter((o) => o.versions.length > 0).map((o) => ({ host: o.host, versions: o.versions })) });
    }
    if (lacking.length > 0) continue;
    const common = read[0].versions.filter((v) => read.every((h) => h.versions.includes(v)));
    if (common.length === 0) out.push({ kind: 'hosts-disagree', party, packageName, hosts: read });
    else usable.push({ party, versions: common });
  }
  if (out.length === 0 && usable.length > 1) {
    const shared = usable[0].versions.filter((v) => usable.every((u) => u.versions.includes(v)));
    if (shared.length === 0) out.push({ kind: 'parties-disagree', packageName, parties: usable });
  }
  return out;
}

/** One host per participant (a party hosted on several synchronizers of one participant counts once). */
function uniqueHosts<T extends { participantId: string }>(hosts: readonly T[]): T[] {
  return hosts.filter((h, i) => hosts.findIndex((o) => o.participantId === h.participantId) === i);
}

function ref(snapshot: NetworkSnapshot, participantId: string): HostRef {
  return { participantId, label: hostOf(snapshot, participantId).label };
}

/** One sentence per obstacle, naming the party, the host and what it lacks. */
export function describeMissingVetting(m: MissingVetting): string {
  const party = (p: string) => p.split('::', 1)[0] + (p.includes('::') ? ` (${p})` : '');
  const versions = (vs: string[]) => (vs.length === 1 ? `version ${vs[0]}` : `versions ${vs.join(', ')}`);
  switch (m.kind) {
    case 'party-hosted-nowhere':
      return `${party(m.party)} is not hosted on any participant of the synchronizer: a typo, or a party the participants do not know.`;
    case 'hosting-unknown':
      return `Where ${party(m.party)} is hosted could not be read${m.problems.length > 0 ? `: ${m.problems.map((p) => ('error' in p ? `${p.member}: ${p.error.message}` : `${p.member} cannot tell`)).join('; ')}` : ''}.`;
    case 'vetting-unknown':
      return `${party(m.party)} is hosted on ${m.host.label}, whose vetted packages could not be read.`;
    case 'host-lacks-package':
      return (
        `${party(m.party)} is hosted on ${m.host.label} (${m.permission}), which has not vetted any version of ${m.packageName}` +
        (m.elsewhere.length > 0 ? ` (${m.elsewhere.map((e) => `${e.host.label} has ${versions(e.versions)}`).join('; ')}): vet it on ${m.host.label}.` : ': vet it there.')
      );
    case 'hosts-disagree':
      return `The hosts of ${party(m.party)} have vetted no common version of ${m.packageName}: ${m.hosts.map((h) => `${h.host.label} has ${versions(h.versions)}`).join('; ')}.`;
    case 'parties-disagree':
      return `No version of ${m.packageName} suits every party: ${m.parties.map((p) => `${party(p.party)} can use ${versions(p.versions)}`).join('; ')}.`;
  }
}

/**
 * Why Canton passes over `version` of a package name for `parties`: the hosts of each that have not
 * vetted it, one sentence each ("Alice is hosted on app-provider (confirmation), which has not vetted
 * demo-iou 2.0.0."). Hosts whose vetting or hosting could not be read are left out.
 */
export function hostsLackingVersion(snapshot: NetworkSnapshot, packageName: string, version: string, parties: readonly string[]): string[] {
  const party = (p: string) => p.split('::', 1)[0];
  return parties.flatMap((p) => {
    const hosting = snapshot.hosting.get(p);
    if (!hosting?.complete) return [];
    return uniqueHosts(hosting.hosts).flatMap((h) => {
      const versions = versionsOn(snapshot, h.participantId, packageName);
      return versions && !versions.includes(version) ? [`${party(p)} is hosted on ${ref(snapshot, h.participantId).label} (${h.permission}), which has not vetted ${packageName} ${version}.`] : [];
    });
  });
}
