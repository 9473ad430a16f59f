/** What the request handlers share: the ledger, the imitated version and the list settings. */
import { canReadAs, canReadAsAnyParty, ensureAllowed, type Caller } from '../auth';
import { LedgerApiError, invalidArgument } from '../errors';
import type { FilterRules } from '../filters';
import type { DemoLedger } from '../ledger';
import type { Topology } from '../topology';
import type { VersionProfile } from '../versions';
import type * as wire from '../../core/models/wire';

export interface SubmitFault {
  /** Wait this long before answering (the command is executed first). */
  delayMs?: number;
  /** Execute the command, then destroy the socket without answering: an unknown outcome for the client. */
  dropResponse?: boolean;
  /** Apply to this many submissions, then clear itself; unset: until cleared. */
  times?: number;
}

/** Cuts update-list responses short: a connection that drops in the middle of a stream. */
export interface UpdatesListFault {
  /** Send this many elements, then destroy the socket (the array is never closed). */
  cutAfterElements: number;
  /** Apply to this many responses, then clear itself; unset: until cleared. */
  times?: number;
}

/** Cuts update streams over the websocket: the connection drops without a close frame. */
export interface UpdatesSocketFault {
  /** Send this many frames, then drop the connection. */
  cutAfterFrames: number;
  /** Apply to this many streams, then clear itself; unset: until cleared. */
  times?: number;
}

/** Loses the answer to an applied (not dry-run) vetting change: an unknown outcome for the client. */
export interface VettingFault {
  /** Apply the change, then destroy the socket without answering. */
  dropResponse: true;
  /** Apply to this many updates, then clear itself; unset: until cleared. */
  times?: number;
}

export interface Faults {
  submit?: SubmitFault;
  vettingUpdate?: VettingFault;
  updatesList?: UpdatesListFault;
  updatesSocket?: UpdatesSocketFault;
}

export interface Services {
  ledger: DemoLedger;
  /** The participants on the synchronizer (this one alone, or a demo network's), their parties and vetting. */
  topology: Topology;
  profile: VersionProfile;
  /** `http-list-max-elements-limit`. */
  listCap: number;
  /** `http-list-wait-time` in ms. */
  listWaitMs: number;
  /** An open-ended update stream that has sent nothing for this long sends an offset checkpoint (`idle-stream-offset-checkpoint-timeout`). */
  idleCheckpointMs: number;
  faults: Faults;
}

export function filterRules(s: Services): FilterRules {
  return { rejectPackageIdForm: s.profile.packageNameFiltersOnly, packages: s.ledger.packages };
}

/**
 * The read rights an event format needs (NOTES §2.1.1): ReadAs or ActAs per named party,
 * CanReadAsAnyParty for a filter for any party. Checked before the request is validated.
 */
export function ensureCanRead(caller: Caller, format: { filtersByParty?: Record<string, unknown>; filtersForAnyParty?: unknown } | undefined): void {
  if (!format) return;
  for (const party of Object.keys(format.filtersByParty ?? {})) ensureAllowed(canReadAs(caller, party));
  if (format.filtersForAnyParty !== undefined) ensureAllowed(canReadAsAnyParty(caller));
}

export function ensureCanReadUpdates(caller: Caller, format: wire.UpdateFormat | undefined): void {
  ensureCanRead(caller, format?.includeTransactions?.eventFormat);
  ensureCanRead(caller, format?.includeReassignments);
  const topology = format?.includeTopologyEvents?.includeParticipantAuthorizationEvents;
  if (topology) {
    const parties = topology.parties ?? [];
    if (parties.length === 0) ensureAllowed(canReadAsAnyParty(caller));
    for (const party of parties) ensureAllowed(canReadAs(caller, party));
  }
}

/** The synchronizer a vetting change goes to: the requested one, or the only connected one. */
export function vettingSynchronizer(ledger: DemoLedger, requested: string | undefined): string {
  if (requested) {
    if (!ledger.synchronizers.some((sync) => sync.id === requested)) throw invalidArgument(`The participant is not connected to synchronizer ${requested}`);
    return requested;
  }
  if (ledger.synchronizers.length > 1) {
    throw new LedgerApiError(
      'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER',
      `Cannot autodetect the synchronizer: the participant is connected to ${ledger.synchronizers.length} synchronizers (${ledger.synchronizers.map((x) => x.id).join(', ')}); set synchronizer_id`,
    );
  }
  return ledger.synchronizers[0].id;
}
