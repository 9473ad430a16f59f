/** The contract-id filter on updates (Canton 3.8): the request field, apart so that the catalogue can name it. */
import type * as wire from '../models/wire';

/**
 * Canton 3.8 "filters updates by contract id" (its release notes). No published spec, proto or client
 * we can read confirms the request field, so this name is ours: the client sends it only where the
 * participant's own description declares it at the root of the GetUpdatesRequest (the catalogue's
 * `ifDeclared`), and reads the contract's updates as before everywhere else.
 */
export const UPDATES_CONTRACT_ID_FIELD = 'contractIds';

/** A GetUpdatesRequest with the contract-id filter (the wire types follow the published specs, which lack it). */
export type UpdatesRequestWithContractIds = wire.GetUpdatesRequest & { [UPDATES_CONTRACT_ID_FIELD]?: string[] };
