/**
 * The network as a set of participants sees it: every participant on the synchronizer (those we
 * hold a connection to, and those the topology names), what each has vetted, where each party is
 * hosted and with which permission, and what could not be read (a host that does not answer, a
 * token that may not read a party's hosting, a release without an operation). Plain data, read by
 * `read.ts`; the questions the views and the pre-flight ask of it are functions here.
 */
import type { LedgerClient } from '../api/client';
import type { LedgerError } from '../errors';
import { comparePackageVersions } from '../daml/packageVersions';
import type { OperationName } from '../versions';
import type { PackageRef } from './preference';
import { getOrCreate } from '../maps';
import type { VettedPackage, VettedPackagesState } from '../models/vetting';
import type { ConnectionState } from '../ledger/connection';
import type * as wire from '../models/wire';

/** A participant we can ask: a connection's client under the name people know it by. */
export interface NetworkMember {
  label: string;
  client: LedgerClient;
}

/** `unknown`: the participant said it hosts the party, without a permission. */
export type HostPermission = 'submission' | 'confirmation' | 'observation' | 'unknown';

export interface Host {
  participantId: string;
  /** The member's label, else the participant id's name part (`app-user` of `app-user::1220…`). */
  label: string;
  /** The member whose participant this is, when we hold one. */
  member?: string;
  /** The version it reports (members only). */
  version?: string;
}



export interface Hosting {
  participantId: string;
  permission: HostPermission;
  synchronizerId: string;
}

/** Something that could not be read, with whom and why. Never a silent "fine". */
export type NetworkProblem =
  /** The participant did not answer (refused, reset, timed out, not served at that URL). */
  | { kind: 'unreachable'; member: string; error: LedgerError }
  /** The token may not read this (401/403): a party's hosting, the vetting, the preference. */
  | { kind: 'forbidden'; member: string; reading: NetworkReading; party?: string; error: LedgerError }
  /** The participant's release does not have the operation. */
  | { kind: 'unavailable'; member: string; reading: NetworkReading; operation: OperationName; version: string }
  /** Any other refusal or broken answer. */
  | { kind: 'failed'; member: string; reading: NetworkReading; party?: string; error: LedgerError };

export type NetworkReading = 'identity' | 'vetting' | 'hosting' | 'preference';

export interface NetworkSnapshot {
  /** Members first (in the order given), then the participants only the topology names. */
  hosts: Host[];
  /** Per participant id, its vetting on each synchronizer it was read for. */
  vetting: ReadonlyMap<string, readonly VettedPackagesState[]>;
  /**
   * Per party asked about: its hosts (empty: no participant hosts it, as far as could be asked);
   * `complete` false when some participant could not be asked (see `problems`).
   */
  hosting: ReadonlyMap<string, { hosts: Hosting[]; complete: boolean }>;
  problems: NetworkProblem[];
  /** When it was read (ISO), for validity windows. */
  readAt: string;
}

export function hostOf(snapshot: NetworkSnapshot, participantId: string): Host {
  return snapshot.hosts.find((h) => h.participantId === participantId) ?? { participantId, label: labelOfParticipant(participantId) };
}

/** `app-user` of `app-user::1220ab…`. */
export function labelOfParticipant(participantId: string): string {
  return participantId.split('::', 1)[0] || participantId;
}

/** The packages a participant has vetted, valid at `at`, with names (those without are left out: nothing to match them by). */
export function vettedByHost(snapshot: NetworkSnapshot, participantId: string, at = snapshot.readAt): PackageRef[] | undefined {
  const states = snapshot.vetting.get(participantId);
  if (!states) return undefined;
  const refs = new Map<string, PackageRef>();
  for (const state of states) {
    for (const p of state.packages) {
      if (!p.packageName || !validAt(p, at)) continue;
      refs.set(p.packageId, { packageId: p.packageId, packageName: p.packageName, packageVersion: p.packageVersion ?? '' });
    }
  }
  return [...refs.values()];
}

function validAt(p: VettedPackage, at: string): boolean {
  const t = Date.parse(at);
  return (!p.validFromInclusive || Date.parse(p.validFromInclusive) <= t) && (!p.validUntilExclusive || t < Date.parse(p.validUntilExclusive));
}

/**
 * What a party has vetted: what every host of it has. Undefined when that cannot be said: the party
 * is hosted nowhere, its hosting could not be read completely, or a host's vetting is unknown.
 */
export function vettedByParty(snapshot: NetworkSnapshot, party: string): PackageRef[] | undefined {
  const hosting = snapshot.hosting.get(party);
  if (!hosting || !hosting.complete || hosting.hosts.length === 0) return undefined;
  const perHost = hosting.hosts.map((h) => vettedByHost(snapshot, h.participantId));
  if (perHost.some((v) => v === undefined)) return undefined;
  const [first, ...rest] = perHost as PackageRef[][];
  return first.filter((p) => rest.every((other) => other.some((q) => q.packageId === p.packageId)));
}

/** The versions of a package name a participant has vetted, highest first. */
export function versionsOn(snapshot: NetworkSnapshot, participantId: string, packageName: string): string[] | undefined {
  const vetted = vettedByHost(snapshot, participantId);
  return vetted && sortedVersions(vetted.filter((p) => p.packageName === packageName).map((p) => p.packageVersion));
}

function sortedVersions(versions: Iterable<string>): string[] {
  return [...new Set(versions)].sort((a, b) => comparePackageVersions(b, a));
}

// ---------------------------------------------------------------- drift and the vetting matrix

/** A package name whose vetted versions differ between the hosts of a party. */
export interface VettingDrift {
  party: string;
  packageName: string;
  hosts: Array<{ participantId: string; label: string; versions: string[] }>;
  /** The versions every host has (empty: the party cannot use the package at all). */
  common: string[];
}

/**
 * Every drift among the parties asked about: a package name some host of a party has vetted in a
 * version another host of the same party lacks. Parties on one host have none.
 */
export function vettingDrift(snapshot: NetworkSnapshot): VettingDrift[] {
  const drifts: VettingDrift[] = [];
  // Each participant's versions by package name, worked out once for every party it hosts.
  const byName = new Map<string, Map<string, string[]>>();
  const versionsByName = (participantId: string) => {
    let names = byName.get(participantId);
    if (!names) {
      names = new Map();
      for (const p of vettedByHost(snapshot, participantId) ?? []) getOrCreate(names, p.packageName, () => []).push(p.packageVersion);
      for (const [name, versions] of names) names.set(name, sortedVersions(versions));
      byName.set(participantId, names);
    }
    return names;
  };
  for (const [party, hosting] of snapshot.hosting) {
    const hostIds = [...new Set(hosting.hosts.map((h) => h.participantId))];
    if (hostIds.length < 2 || hostIds.some((id) => !snapshot.vetting.has(id))) continue;
    const names = new Set(hostIds.flatMap((id) => [...versionsByName(id).keys()]));
    for (const packageName of [...names].sort()) {
      const hosts = hostIds.map((participantId) => ({ participantId, label: hostOf(snapshot, participantId).label, versions: versionsByName(participantId).get(packageName) ?? [] }));
      const same = hosts.every((h) => h.versions.join() === hosts[0].versions.join());
      if (same) continue;
      const common = hosts[0].versions.filter((v) => hosts.every((h) => h.versions.includes(v)));
      drifts.push({ party, packageName, hosts, common });
    }
  }
  return drifts;
}

/** Package name × version × participant: who has vetted what, and which names drift for some party. */
export interface VettingMatrix {
  participants: Array<{ participantId: string; label: string; read: boolean }>;
  rows: Array<{ packageName: string; drift: boolean; versions: Array<{ packageVersion: string; packageIds: string[]; vettedOn: string[] }> }>;
}

/** `drifts`: the snapshot's drift when the caller has worked it out already. */
export function vettingMatrix(snapshot: NetworkSnapshot, drifts: readonly VettingDrift[] = vettingDrift(snapshot)): VettingMatrix {
  const participants = snapshot.hosts.map((h) => ({ participantId: h.participantId, label: h.label, read: snapshot.vetting.has(h.participantId) }));
  const byName = new Map<string, Map<string, { ids: Set<string>; on: Set<string> }>>();
  for (const { participantId } of participants) {
    for (const p of vettedByHost(snapshot, participantId) ?? []) {
      const versions = getOrCreate(byName, p.packageName, () => new Map());
      const cell = getOrCreate(versions, p.packageVersion, () => ({ ids: new Set(), on: new Set() }));
      cell.ids.add(p.packageId);
      cell.on.add(participantId);
    }
  }
  const drifting = new Set(drifts.map((d) => d.packageName));
  const order = new Map(participants.map((p, i) => [p.participantId, i]));
  const rows = [...byName.keys()].sort().map((packageName) => {
    const versions = byName.get(packageName)!;
    return {
      packageName,
      drift: drifting.has(packageName),
      versions: sortedVersions(versions.keys()).map((packageVersion) => {
        const cell = versions.get(packageVersion)!;
        return { packageVersion, packageIds: [...cell.ids].sort(), vettedOn: [...cell.on].sort((a, b) => order.get(a)! - order.get(b)!) };
      }),
    };
  });
  return { participants, rows };
}

// ---------------------------------------------------------------- problems for people

const READING: Record<NetworkReading, string> = {
  identity: 'who it is',
  vetting: 'its vetted packages',
  hosting: 'where the party is hosted',
  preference: 'the preferred package versions',
};

export function describeNetworkProblem(p: NetworkProblem): string {
  switch (p.kind) {
    case 'unreachable':
      return `${networkProblemTitle(p)}: ${p.error.message}`;
    case 'forbidden':
      return `${networkProblemTitle(p)}: ${p.error.message} (the token's user may not read it)`;
    case 'unavailable':
      return `${p.member} runs Canton ${p.version}, which cannot tell ${READING[p.reading]} over the JSON Ledger API`;
    case 'failed':
      return `${networkProblemTitle(p)}: ${p.error.message}`;
  }
}

/** What could not be read, without why: a row's title (the error's message is its description). */
export function networkProblemTitle(p: Exclude<NetworkProblem, { kind: 'unavailable' }>): string {
  const about = 'reading' in p ? `${READING[p.reading]}${p.party ? ` for ${p.party}` : ''}` : '';
  switch (p.kind) {
    case 'unreachable':
      return `${p.member} did not answer`;
    case 'forbidden':
      return `${p.member} would not tell ${about}`;
    case 'failed':
      return `${p.member} could not tell ${about}`;
  }
}

/**
 * Which of `others` are one network with `target`: those connected to a synchronizer it is connected
 * to, directly or through another of them ({@link networksOf}, as the Network view groups them). A participant of another network (another synchronizer) hosts none of its parties as Canton
 * counts hosts, so it is never asked about them. When the target's synchronizers are not known (an
 * empty list), every other is kept: the reads then say what each one knows.
 */
export function sameNetwork<T>(target: T, others: readonly T[], synchronizersOf: (member: T) => readonly string[]): T[] {
  if (synchronizersOf(target).length === 0) return [...others];
  // The target's network as the Network view groups it (the target first, so its network is the first).
  return networksOf([target, ...others], synchronizersOf)[0].members.slice(1);
}

/**
 * The networks among `members`: those connected to a common synchronizer, directly or through another
 * member, are one network. A member whose synchronizers are not known (not connected, or its token may
 * not ask) cannot be placed: it is a network of its own, never read with participants it may have
 * nothing to do with. Members keep their order; the networks come in the order of their first member.
 */
export function networksOf<T>(members: readonly T[], synchronizersOf: (member: T) => readonly string[]): NetworkGroup<T>[] {
  const groups: Array<{ synchronizers: Set<string>; indexes: number[] }> = [];
  members.forEach((member, index) => {
    const mine = synchronizersOf(member);
    const joined = mine.length === 0 ? [] : groups.filter((g) => mine.some((s) => g.synchronizers.has(s)));
    const into = joined[0] ?? { synchronizers: new Set<string>(), indexes: [] };
    if (!joined.length) groups.push(into);
    into.indexes.push(index);
    for (const s of mine) into.synchronizers.add(s);
    for (const other of joined.slice(1)) {
      for (const s of other.synchronizers) into.synchronizers.add(s);
      into.indexes.push(...other.indexes);
      groups.splice(groups.indexOf(other), 1);
    }
  });
  return groups
    .map((g) => ({ synchronizers: [...g.synchronizers].sort(), indexes: g.indexes.sort((a, b) => a - b) }))
    .sort((a, b) => a.indexes[0] - b.indexes[0])
    .map((g) => ({ synchronizers: g.synchronizers, members: g.indexes.map((i) => members[i]) }));
}

/** One network of {@link networksOf}. */
export interface NetworkGroup<T> {
  /** Its synchronizer ids, sorted; empty: its one member's are not known. */
  synchronizers: string[];
  members: T[];
}

/** The synchronizers a connection's participant said it is connected to (none until it is connected). */
export function connectedSynchronizers(state: ConnectionState): readonly wire.ConnectedSynchronizer[] {
  return state.state === 'connected' ? state.info.synchronizers : [];
}

/** The ids of {@link connectedSynchronizers}: what {@link networksOf} and {@link sameNetwork} group connections by. */
export function synchronizerIdsOf(state: ConnectionState): string[] {
  return connectedSynchronizers(state).map((s) => s.synchronizerId);
}
