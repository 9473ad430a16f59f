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
