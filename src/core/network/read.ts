/**
 * Reads the network from the participants we hold: who each is, every participant's vetting (a
 * participant lists the whole synchronizer's, so participants we hold no connection to appear too),
 * and where each party asked about is hosted (`connected-synchronizers` with the party and each
 * participant id). Every call takes the caller's AbortSignal and deadline; what cannot be read
 * becomes a {@link NetworkProblem}, and a cancel is thrown, never swallowed.
 */
import type { CallOptions } from '../api/http';
import { mapLimited } from '../ledger/packages';
import { AuthError, CancelledError, HttpError, LedgerError, NetworkError, NotServedError, TimeoutError, UnsupportedOperationError } from '../errors';
import type * as wire from '../models/wire';
import type { OperationName } from '../versions';
import { labelOfParticipant, type Host, type HostPermission, type Hosting, type NetworkMember, type NetworkProblem, type NetworkReading, type NetworkSnapshot } from './model';
import { getOrCreate } from '../maps';
import type { VettedPackagesState } from '../models/vetting';

export interface ReadNetworkOptions extends CallOptions {
  /**
   * The parties whose hosting to read: these, or `hosted`: every party a member lists as its own
   * (`/v2/parties`, which needs an admin token). None: only the participants and their vetting.
   */
  parties?: readonly string[] | 'hosted';
}

/** Hosting questions in flight at once (parties × participants can be many). */
const HOSTING_CONCURRENCY = 8;

interface Identified {
  member: NetworkMember;
  participantId: string;
  version: string;
  has(operation: OperationName): boolean;
}

export async function readNetwork(members: readonly NetworkMember[], o: ReadNetworkOptions = {}): Promise<NetworkSnapshot> {
  const problems: NetworkProblem[] = [];
  const attempt = async <T>(member: NetworkMember, reading: NetworkReading, run: () => Promise<T>, party?: string): Promise<T | undefined> => {
    try {
      return await run();
    } catch (e) {
      problems.push(networkProblem(member.label, reading, e, party));
      return undefined;
    }
  };

  const identified = (
    await Promise.all(
      members.map((member) =>
        attempt(member, 'identity', async (): Promise<Identified> => {
          const caps = await member.client.capabilities(o);
          const participantId = await member.client.participantId(o);
          return { member, participantId, version: caps.version, has: (operation) => caps.has(operation) };
        }),
      ),
    )
  ).filter((x): x is Identified => x !== undefined);

  // Every participant's vetting, each as its own participant tells it where we hold it.
  const vetting = new Map<string, VettedPackagesState[]>();
  const answeredBy = new Map<string, string>();
  const lists = await Promise.all(
    identified.map(async (m) => {
      if (!m.has('listVettedPackages')) {
        problems.push({ kind: 'unavailable', member: m.member.label, reading: 'vetting', operation: 'listVettedPackages', version: m.version });
        return undefined;
      }
      return attempt(m.member, 'vetting', () => m.member.client.listVettedPackages({}, o)).then((states) => states && { m, states });
    }),
  );
  for (const list of lists) {
    if (!list) continue;
    const byParticipant = new Map<string, VettedPackagesState[]>();
    for (const s of list.states) getOrCreate(byParticipant, s.participantId, () => []).push(s);
    for (const [participantId, states] of byParticipant) {
      const own = participantId === list.m.participantId;
      if (vetting.has(participantId) && !(own && answeredBy.get(participantId) !== participantId)) continue;
      vetting.set(participantId, states);
      answeredBy.set(participantId, list.m.participantId);
    }
  }

  // People know a member by its label, a participant by its name: both, when they differ.
  const labelOf = (m: Identified) => (m.member.label === labelOfParticipant(m.participantId) ? m.member.label : `${labelOfParticipant(m.participantId)} (${m.member.label})`);
  const hosts: Host[] = identified.map((m) => ({ participantId: m.participantId, label: labelOf(m), member: m.member.label, version: m.version }));
  for (const participantId of vetting.keys()) if (!hosts.some((h) => h.participantId === participantId)) hosts.push({ participantId, label: labelOfParticipant(participantId) });

  const parties = o.parties === 'hosted' ? await hostedParties(identified.map((m) => m.member), attempt, o) : (o.parties ?? []);
  const hosting = new Map<string, { hosts: Hosting[]; complete: boolean }>();
  const fallback = identified[0];
  for (const party of parties) hosting.set(party, { hosts: [], complete: fallback !== undefined });
  const questions = parties.flatMap((party) => hosts.map((host) => ({ party, host })));
  await mapLimited(questions, HOSTING_CONCURRENCY, async ({ party, host }) => {
    const entry = hosting.get(party)!;
    const asker = identified.find((m) => m.participantId === host.participantId) ?? fallback;
    if (!asker) return;
    const answer = await attempt(asker.member, 'hosting', () => asker.member.client.connectedSynchronizers({ ...o, party, participantId: host.participantId, expectedStatuses: [403] }), party);
    if (!answer) {
      entry.complete = false;
      return;
    }
    for (const s of answer) entry.hosts.push({ participantId: host.participantId, permission: permissionOf(s.permission), synchronizerId: s.synchronizerId });
  });
  const order = new Map(hosts.map((h, i) => [h.participantId, i]));
  for (const entry of hosting.values()) entry.hosts.sort((a, b) => order.get(a.participantId)! - order.get(b.participantId)!);

  return { hosts, vetting, hosting, problems, readAt: new Date().toISOString() };
}

/** Every party some member hosts (lists as local), once, in the members' order. */
async function hostedParties(
  members: readonly NetworkMember[],
  attempt: <T>(member: NetworkMember, reading: NetworkReading, run: () => Promise<T>) => Promise<T | undefined>,
  o: CallOptions,
): Promise<string[]> {
  const lists = await Promise.all(members.map((m) => attempt(m, 'hosting', () => m.client.parties(o))));
  return [...new Set(lists.flatMap((list) => (list ?? []).filter((p) => p.isLocal !== false).map((p) => p.party)))];
}

function permissionOf(p: wire.ParticipantPermission | null | undefined): HostPermission {
  switch (p) {
    case 'PARTICIPANT_PERMISSION_SUBMISSION':
      return 'submission';
    case 'PARTICIPANT_PERMISSION_CONFIRMATION':
      return 'confirmation';
    case 'PARTICIPANT_PERMISSION_OBSERVATION':
      return 'observation';
    default:
      return 'unknown';
  }
}

/** What a failed read means for the network model; a cancel is not a problem of the network: it is thrown on. */
export function networkProblem(member: string, reading: NetworkReading, e: unknown, party?: string): NetworkProblem {
  if (e instanceof CancelledError) throw e;
  if (!(e instanceof LedgerError)) throw e;
  if (e instanceof AuthError) return { kind: 'forbidden', member, reading, party, error: e };
  if (e instanceof UnsupportedOperationError) return { kind: 'unavailable', member, reading, operation: (e.operationName ?? 'version') as OperationName, version: e.version };
  if (e instanceof NetworkError || e instanceof TimeoutError || (e instanceof HttpError && e.status >= 502 && e.status <= 504)) return { kind: 'unreachable', member, error: e };
  if (e instanceof NotServedError && reading === 'identity') return { kind: 'unreachable', member, error: e };
  return { kind: 'failed', member, reading, party, error: e };
}
