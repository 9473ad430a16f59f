// Pages that a test answers one by one (the core's OnDemandPages over a scripted read), standing for a
// participant or a database behind a paged list: every read waits until the test answers or fails it.
// The signal is recorded, not obeyed, so that the code under test must drop a stale page itself.
import assert from 'node:assert/strict';
import type { CallOptions } from '../../src/core/api/http';
import { OnDemandPages, type ReadPage } from '../../src/core/paging';

export interface PageRequest {
  /** The label of the pages that asked (which list). */
  label: string;
  cursor: number | undefined;
  signal?: AbortSignal;
  answer(items: string[], next?: number): void;
  fail(error: Error): void;
}

export class ScriptedPages extends OnDemandPages<string, number> {
  constructor(
    readonly label: string,
    private readonly requests: PageRequest[],
  ) {
    super();
  }
  get items(): readonly string[] {
    return this.loaded;
  }
  protected readPage(cursor: number | undefined, o: CallOptions): Promise<ReadPage<string, number>> {
    return new Promise((resolve, reject) => {
      this.requests.push({ label: this.label, cursor, signal: o.signal, answer: (items, next) => resolve({ items, next }), fail: reject });
    });
  }
}

/** The next page asked for, once the code's promise chain has run far enough to ask. */
export async function nextRequest(requests: PageRequest[]): Promise<PageRequest> {
  for (let i = 0; i < 100 && requests.length === 0; i++) await new Promise((r) => setImmediate(r));
  const request = requests.shift();
  assert.ok(request, 'a page was asked for');
  return request;
}
