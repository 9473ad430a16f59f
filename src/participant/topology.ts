/**
 * The topology every participant on the synchronizer sees alike: which participants there are, which
 * parties each hosts and with what permission, and what each has vetted. A demo participant on its
 * own is a topology of one; a demo network shares one among its participants, so that each answers
 * `connected-synchronizers`, the vetting list and `preferred-packages` about the others too, as a
 * Canton participant answers from the synchronizer's topology state.
 */
import type { DemoLedger } from './ledger';
import type { Permission } from './model';

export interface Hosting {
  ledger: DemoLedger;
  permission: Permission;
}

export class Topology {
  private readonly members: DemoLedger[] = [];

  constructor(participants: Iterable<DemoLedger> = []) {
    for (const p of participants) this.join(p);
  }

  join(participant: DemoLedger): void {
    if (!this.members.includes(participant)) this.members.push(participant);
  }

  /** Every participant, in the order they joined. */
  get participants(): readonly DemoLedger[] {
    return this.members;
  }

  participant(participantId: string): DemoLedger | undefined {
    return this.members.find((p) => p.participantId === participantId);
  }

  /** The participants hosting `party` now (a revoked hosting no longer counts), with their permission. */
  hostsOf(party: string): Hosting[] {
    return this.members.flatMap((ledger) => {
      const record = ledger.parties.get(party);
      return record && !record.revoked ? [{ ledger, permission: record.permission }] : [];
    });
  }

  /** The permission `participantId` hosts `party` with, or undefined when it does not host it. */
  permission(party: string, participantId: string): Permission | undefined {
    return this.hostsOf(party).find((h) => h.ledger.participantId === participantId)?.permission;
  }

  /**
   * The package ids `party` has vetted on `synchronizerId`: those every participant hosting it has
   * vetted (Canton: "a party vets a package if all its hosting participants have vetted it"), valid
   * at `at`. Undefined when no participant hosts the party.
   */
  partyVetting(party: string, synchronizerId: string, at: number): Set<string> | undefined {
    const hosts = this.hostsOf(party);
    if (hosts.length === 0) return undefined;
    const [first, ...rest] = hosts.map((h) => vettedAt(h.ledger, synchronizerId, at));
    return new Set([...first].filter((id) => rest.every((other) => other.has(id))));
  }
}

/** The package ids a participant has vetted on a synchronizer whose validity includes `at`. */
export function vettedAt(ledger: DemoLedger, synchronizerId: string, at: number): Set<string> {
  const state = ledger.vetting(synchronizerId);
  const vetted = new Set<string>();
  for (const [id, bounds] of state?.packages ?? []) {
    if ((bounds.validFrom === null || bounds.validFrom <= at) && (bounds.validUntil === null || at < bounds.validUntil)) vetted.add(id);
  }
  return vetted;
}
