/** The create and archive events of one contract (`/v2/events/events-by-contract-id`). */
import type * as wire from './wire';
import { ArchivedEvent, CreatedEvent, decodeArchivedEvent, decodeCreatedEvent } from './updates';

export interface ContractEvents {
  contractId: string;
  created?: { event: CreatedEvent; synchronizerId: string };
  archived?: { event: ArchivedEvent; synchronizerId: string };
  /** True when the contract was created and not (yet) archived, as far as this participant shows. */
  active: boolean;
  raw: wire.JsGetEventsByContractIdResponse;
}

export function decodeContractEvents(contractId: string, r: wire.JsGetEventsByContractIdResponse): ContractEvents {
  const created = r.created ? { event: decodeCreatedEvent(r.created.createdEvent), synchronizerId: r.created.synchronizerId } : undefined;
  const archived = r.archived ? { event: decodeArchivedEvent(r.archived.archivedEvent), synchronizerId: r.archived.synchronizerId } : undefined;
  return { contractId, created, archived, active: Boolean(created) && !archived, raw: r };
}

/** A Canton contract id: `00` + discriminator (64 hex) + suffix, in hex; V2 ids start with `01`. */
const CONTRACT_ID = /^0[01][0-9a-f]{64,}$/i;
const CONTRACT_ID_IN_TEXT = /\b0[01][0-9a-f]{64,}\b/gi;

export function looksLikeContractId(s: string | undefined): boolean {
  return s !== undefined && CONTRACT_ID.test(s.trim());
}

/** Every contract id written in `text` (a cause that names the contract it could not find), in order. */
export function contractIdsIn(text: string): string[] {
  return [...text.matchAll(CONTRACT_ID_IN_TEXT)].map((m) => m[0]);
}

/** The contract id in `text` that covers position `at` (e.g. under the cursor), if any. */
export function contractIdAt(text: string, at: number): string | undefined {
  for (const m of text.matchAll(CONTRACT_ID_IN_TEXT)) {
    if (m.index! <= at && at <= m.index! + m[0].length) return m[0];
  }
  return undefined;
}
