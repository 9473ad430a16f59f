import type { UpdatesSelection } from '../../src/core/api/updatesRequest';

/**
 * What every update benchmark reads: the Updates view's default for an admin (any party, verbose,
 * with reassignments), ACS-delta transactions.
 */
export const BENCH_SELECTION: UpdatesSelection = { filter: { anyParty: true, verbose: true, includeReassignments: true } };
