/**
 * After (or before) a DAR upload to one participant: on which other hosts of the parties it hosts the
 * DAR's packages must also be vetted, since Canton refuses a command of a party when any of its hosts
 * has not vetted a package the transaction uses (and picks no version that one host lacks).
 */
import type { CallOptions } from '../api/http';
import { hostOf, vettedByHost, type NetworkMember, type NetworkProblem } from './model';
import { networkProblem, readNetwork } from './read';
import { getOrCreate } from '../maps';
import type { HostRef } from './explain';

export interface DarPackage {
  id: string;
  name: string;
  version: string;
}

export interface DarVettingNeed {
  /** The other host that lacks the packages. */
  host: HostRef;
  /** The DAR's packages it has not vetted (`name version`). */
  packages: string[];
  /** The parties of the uploading participant it hosts too (first part of the id). */
  parties: string[];
}

export interface DarVettingNeeds {
  needs: DarVettingNeed[];
  problems: NetworkProblem[];
}

/** Reads the network (every member; `target` first) for the parties `target` hosts, and names each other host that has not vetted `packages`. */
export async function darVettingNeeds(packages: readonly DarPackage[], target: NetworkMember, members: readonly NetworkMember[], o: CallOptions = {}): Promise<DarVettingNeeds> {
  const problems: NetworkProblem[] = [];
  let parties: string[] = [];
  let participantId: string | undefined;
  try {
    participantId = await target.client.participantId(o);
    parties = (await target.client.parties(o)).filter((p) => p.isLocal !== false).map((p) => p.party);
  } catch (e) {
    problems.push(networkProblem(target.label, 'hosting', e));
  }
  if (!participantId || parties.length === 0 || packages.length === 0) return { needs: [], problems };
  const snapshot = await readNetwork(members.includes(target) ? members : [target, ...members], { ...o, parties });
  problems.push(...snapshot.problems);
  const byHost = new Map<string, DarVettingNeed>();
  for (const party of parties) {
    const hosts = snapshot.hosting.get(party)?.hosts ?? [];
    if (!hosts.some((h) => h.participantId === participantId)) continue;
    for (const h of hosts) {
      if (h.participantId === participantId) continue;
      const vetted = vettedByHost(snapshot, h.participantId);
      if (!vetted) continue; // not read: among the problems
      const lacking = packages.filter((p) => !vetted.some((v) => v.packageId === p.id)).map((p) => `${p.name} ${p.version}`);
      if (lacking.length === 0) continue;
      const need = getOrCreate(byHost, h.participantId, (): DarVettingNeed => ({ host: { participantId: h.participantId, label: hostOf(snapshot, h.participantId).label }, packages: lacking, parties: [] }));
      const hint = party.split('::', 1)[0];
      if (!need.parties.includes(hint)) need.parties.push(hint);
    }
  }
  return { needs: [...byHost.values()], problems };
}

/** One sentence per host, for the upload's message and report. */
export function describeDarVettingNeed(n: DarVettingNeed): string {
  return `Vet ${n.packages.join(', ')} on ${n.host.label} too: it hosts ${n.parties.join(', ')}, whose commands using ${n.packages.length === 1 ? 'it' : 'them'} fail until then.`;
}
