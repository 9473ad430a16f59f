/** `POST /v2/events/events-by-contract-id` (NOTES §2.3): the create and archive of one contract, ACS-delta shaped. */
import { decodeEventsByContractIdRequest } from '../decode';
import { archivedEventJson, createdEventJson } from '../encode';
import { LedgerApiError, missingField } from '../errors';
import { parseEventFormat } from '../filters';
import { route, sendRawJson, type Route } from '../server';
import { ensureCanRead, filterRules, type Services } from './services';

export function eventRoutes(s: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/v2/events/events-by-contract-id',
      body: 'GetEventsByContractIdRequest',
      decode: decodeEventsByContractIdRequest,
      handle: ({ res, body, caller }) => {
        const eventFormat = body.eventFormat ?? (s.profile.requestingParties && body.requestingParties?.length ? { filtersByParty: Object.fromEntries(body.requestingParties.map((p) => [p, {}])) } : undefined);
        if (!eventFormat) throw missingField('event_format');
        ensureCanRead(caller, eventFormat);
        if (!body.contractId) throw missingField('contract_id');
        const filter = parseEventFormat(eventFormat, filterRules(s));
        // Archived contracts disappear with pruning; contracts created and archived in one transaction were never in an ACS.
        const contract = s.ledger.contracts.get(body.contractId);
        const match = contract && !contract.transient ? filter.match(contract.stakeholders, contract.template) : undefined;
        if (!contract || !match) {
          throw new LedgerApiError('CONTRACT_EVENTS_NOT_FOUND', 'Contract events not found, or not visible.', {
            resources: [['ErrorResource(CONTRACT_ID)', body.contractId]],
          });
        }
        const d = s.profile.wire;
        const created = `{"createdEvent":${createdEventJson(contract, contract.createdOffset, contract.createdNodeId, match, true, d)},"synchronizerId":${JSON.stringify(contract.createdSynchronizerId)}}`;
        const archived =
          contract.archivedOffset === undefined
            ? 'null'
            : `{"archivedEvent":${archivedEventJson(contract, contract.archivedOffset, contract.archivedNodeId!, match)},"synchronizerId":${JSON.stringify(contract.synchronizerId)}}`;
        sendRawJson(res, 200, `{"created":${created},"archived":${archived}}`);
      },
    }),
  ];
}
