/**
 * Time to the first page of the Active Contracts view: the view's pager (the core's
 * ActiveContractsPager with the view's default query) loads one page and the grouped rows are built
 * from it, on participants whose active contract sets differ in size. The first page must cost the
 * same whatever the size of the set.
 */
import { LedgerClient } from '../../../src/core/api/client';
import { ActiveContractsPager, activeContractsQueryOf } from '../../../src/core/acs/pager';
import { activeContractRows } from '../../../src/core/acs/rows';
import { workerMain } from '../lib';

export interface AcsInput {
  /** One participant per set size, measured alternately. */
  urls: string[];
  reps: number;
}

export interface AcsOutput {
  /** Per participant: milliseconds to the first page's rows, and what that page held. */
  sets: Array<{ url: string; ms: number[]; loaded: number; complete: boolean }>;
}

workerMain<AcsInput, AcsOutput>(async (input) => {
  const clients = input.urls.map((url) => new LedgerClient({ baseUrl: url, timeoutMs: 60_000 }));
  for (const c of clients) await c.capabilities(); // the view's client has asked once already
  const sets: AcsOutput['sets'] = input.urls.map((url) => ({ url, ms: [], loaded: 0, complete: false }));
  for (let rep = 0; rep < input.reps; rep++) {
    const order = rep % 2 ? [...sets.keys()].reverse() : [...sets.keys()];
    for (const i of order) {
      const t0 = performance.now();
      const pager = new ActiveContractsPager(clients[i], activeContractsQueryOf({ anyParty: true, verbose: true }));
      await pager.loadMore();
      const rows = activeContractRows(pager.state);
      rows.forEach((r) => r.children?.());
      sets[i].ms.push(performance.now() - t0);
      sets[i].loaded = pager.state.contracts.length;
      sets[i].complete = pager.state.complete;
    }
  }
  return { sets };
});
