/**
 * Time to the first page of the Updates view: the view's pager (the core's UpdatesPager with the
 * view's default page query) loads one page and the tree rows are built from it, for ranges of
 * different sizes on the same participant. The first page must cost the same whatever the range.
 */
import { LedgerClient } from '../../../src/core/api/client';
import { UpdatesPager } from '../../../src/core/updates/pager';
import { updateRow } from '../../../src/core/updates/rows';
import { pageQueryOf } from '../../../src/core/updates/viewFilter';
import { workerMain } from '../lib';

export interface PagingInput {
  url: string;
  /** Range ends (from offset 0), measured alternately. */
  ends: number[];
  reps: number;
}

export interface PagingOutput {
  /** Per range end: milliseconds to the first page's rows, and what that page held. */
  ranges: Array<{ end: number; ms: number[]; loaded: number; complete: boolean }>;
}

workerMain<PagingInput, PagingOutput>(async (input) => {
  const client = new LedgerClient({ baseUrl: input.url, timeoutMs: 60_000 });
  await client.capabilities(); // the view's client has asked once already
  const ranges: PagingOutput['ranges'] = input.ends.map((end) => ({ end, ms: [], loaded: 0, complete: false }));
  for (let rep = 0; rep < input.reps; rep++) {
    for (const r of rep % 2 ? [...ranges].reverse() : ranges) {
      const t0 = performance.now();
      const pager = new UpdatesPager(client, pageQueryOf({ anyParty: true, verbose: true, includeReassignments: true, endInclusive: r.end }));
      await pager.loadMore();
      const rows = pager.state.updates.map(updateRow);
      r.ms.push(performance.now() - t0);
      r.loaded = rows.length;
      r.complete = pager.state.complete;
    }
  }
  return { ranges };
});
