/**
 * Live tail memory: follows the update stream the way the Updates view's live tail does (the core's
 * followUpdates into an UpdateWindow of the view's default size) while the participant keeps
 * writing, and reads the heap after full collections as the count grows.
 */
import { LedgerClient } from '../../../src/core/api/client';
import { followUpdates } from '../../../src/core/updates/tail';
import { UpdateWindow } from '../../../src/core/updates/window';
import { settledHeap, workerMain } from '../lib';
import { BENCH_SELECTION } from '../selection';

export interface TailInput {
  url: string;
  fromOffset: number;
  /** Stop after this many updates. */
  total: number;
  windowSize: number;
  /** Read the heap each time this many more updates arrived. */
  sampleEvery: number;
}

export interface TailOutput {
  received: number;
  ms: number;
  /** Heap after collection when following began (client connected, nothing received yet). */
  heapStart: number;
  /** [updates received, heap after collection] pairs. */
  samples: Array<[number, number]>;
  windowSize: number;
  /** Offsets only ever increased: nothing came twice or out of order. */
  inOrder: boolean;
}

/** What the parent gets while following, to keep the participant writing ahead of the reader. */
export interface TailProgress {
  offset: number;
  received: number;
}

workerMain<TailInput, TailOutput>(async (input) => {
  const client = new LedgerClient({ baseUrl: input.url, timeoutMs: 60_000 });
  await client.capabilities();
  const window = new UpdateWindow(input.windowSize);
  const controller = new AbortController();
  const samples: Array<[number, number]> = [];
  let nextSample = input.sampleEvery;
  let lastOffset = input.fromOffset;
  let lastReported = 0;
  let inOrder = true;
  const heapStart = settledHeap();
  const t0 = performance.now();
  await followUpdates(client, {
    selection: BENCH_SELECTION,
    from: input.fromOffset,
    signal: controller.signal,
    onBatch: (updates) => {
      window.push(updates);
      for (const u of updates) {
        if (u.offset === undefined) continue;
        // A checkpoint shares its offset with the update before it; anything else must move forward.
        if (u.offset < lastOffset || (u.offset === lastOffset && u.kind !== 'checkpoint')) inOrder = false;
        lastOffset = u.offset;
      }
      const received = window.totalReceived;
      if (received >= nextSample) {
        samples.push([received, settledHeap()]);
        nextSample += input.sampleEvery;
      }
      if (received - lastReported >= 2000) {
        lastReported = received;
        process.send!({ offset: lastOffset, received } satisfies TailProgress);
      }
      if (received >= input.total) controller.abort();
    },
  });
  return { received: window.totalReceived, ms: performance.now() - t0, heapStart, samples, windowSize: window.size, inOrder };
});
