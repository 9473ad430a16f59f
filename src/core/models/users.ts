/** A participant user and its rights, flattened for display and for choosing parties. */
import type * as wire from './wire';

export interface UserRights {
  actAs: string[];
  readAs: string[];
  executeAs: string[];
  participantAdmin: boolean;
  identityProviderAdmin: boolean;
  readAsAnyParty: boolean;
  executeAsAnyParty: boolean;
}

export function decodeRights(rights: wire.Right[] | null | undefined): UserRights {
  const r: UserRights = { actAs: [], readAs: [], executeAs: [], participantAdmin: false, identityProviderAdmin: false, readAsAnyParty: false, executeAsAnyParty: false };
  for (const right of rights ?? []) {
    const kind = right.kind;
    if (!kind) continue;
    if ('CanActAs' in kind) r.actAs.push(kind.CanActAs.value.party);
    else if ('CanReadAs' in kind) r.readAs.push(kind.CanReadAs.value.party);
    else if ('CanExecuteAs' in kind) r.executeAs.push(kind.CanExecuteAs.value.party);
    else if ('ParticipantAdmin' in kind) r.participantAdmin = true;
    else if ('IdentityProviderAdmin' in kind) r.identityProviderAdmin = true;
    else if ('CanReadAsAnyParty' in kind) r.readAsAnyParty = true;
    else if ('CanExecuteAsAnyParty' in kind) r.executeAsAnyParty = true;
  }
  return r;
}

/** Parties whose data the user may read: ActAs implies ReadAs. */
export function readableParties(r: UserRights): string[] {
  return [...new Set([...r.actAs, ...r.readAs])];
}

/** Short form of a party id for labels: `Alice::1220ab…` → `Alice::1220ab12…`. */
export function shortParty(party: string): string {
  const i = party.indexOf('::');
  return i >= 0 && party.length > i + 12 ? `${party.slice(0, i + 10)}…` : party;
}
