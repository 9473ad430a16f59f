/**
 * Failed Commands' Load more: the view's pager (the core's CompletionsPager) reads older completions a
 * window of offsets at a time, from the window's start up to the first element past it (the
 * completions lists read forwards only). A page far back must cost what the first older page costs,
 * with one completions read each.
 */
import { LedgerClient } from '../../../src/core/api/client';
import type { CompletionsSelection } from '../../../src/core/models/completions';
import { CompletionsPager } from '../../../src/core/updates/completionsPager';
import { workerMain } from '../lib';

export interface CompletionsInput {
  url: string;
  /** The party the commands act as (the seeded Bank). */
  party: string;
  /** Commands to send first: each a completion at an offset of its own. */
  commands: number;
  /** Offsets per page. */
  window: number;
  /** How many pages back the far page is. */
  depth: number;
  reps: number;
}

export interface CompletionsOutput {
  firstOlderMs: number[];
  deepMs: number[];
  /** Completions per page read. */
  perPage: number;
  /** Completions reads (requests) per timed page, the most seen. */
  readsPerPage: number;
}

workerMain<CompletionsInput, CompletionsOutput>(async (input) => {
  const client = new LedgerClient({ baseUrl: input.url, timeoutMs: 60_000 });
  for (let i = 0; i < input.commands; i++) {
    await client.submitAndWaitForTransaction({
      commands: {
        commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: input.party, owner: input.party, currency: 'CHF', amount: `${i + 1}.00`, observers: [] } } }],
        commandId: `bench-completion-${i}`,
        actAs: [input.party],
        userId: 'demo-admin',
      },
    });
  }
  const end = await client.ledgerEnd();
  const selection: CompletionsSelection = { parties: [input.party], userId: 'demo-admin' };
  let reads = 0;
  const stream = client.streamCompletions.bind(client);
  client.streamCompletions = (...args: Parameters<LedgerClient['streamCompletions']>) => (reads++, stream(...args));
  const timed = async (pager: CompletionsPager) => {
    reads = 0;
    const before = pager.completions.length;
    const t0 = performance.now();
    await pager.loadMore();
    const ms = performance.now() - t0;
    return { ms, reads, added: pager.completions.length - before };
  };
  const out: CompletionsOutput = { firstOlderMs: [], deepMs: [], perPage: 0, readsPerPage: 0 };
  for (let rep = 0; rep < input.reps; rep++) {
    // The first page reaches the ledger end and waits for the participant's idle end: not timed.
    const pager = new CompletionsPager(client, { selection, endInclusive: end, firstBeginExclusive: end - input.window, window: input.window, idleTimeoutMs: 200 });
    await pager.loadMore();
    const first = await timed(pager);
    for (let page = 2; page < input.depth; page++) await pager.loadMore();
    const deep = await timed(pager);
    out.firstOlderMs.push(first.ms);
    out.deepMs.push(deep.ms);
    out.perPage = deep.added;
    out.readsPerPage = Math.max(out.readsPerPage, first.reads, deep.reads);
  }
  return out;
});
