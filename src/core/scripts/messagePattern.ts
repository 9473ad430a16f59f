/**
 * A step's `expect.failed.message`: a regular expression over the failure's message, written by whoever
 * wrote the script. JavaScript's engine backtracks, so a pattern such as `^(.*.*.*.*)*X$` takes minutes
 * on a message of a few hundred characters, and on the event loop nothing else (Cancel, Ctrl-C) would
 * run meanwhile. So a pattern is matched in a worker thread, within a time budget that starts when the
 * worker starts matching; a cancel or a pattern over its budget ends the worker (V8 interrupts a
 * running expression when its thread is terminated), and the next pattern gets a new one.
 */
import { Worker } from 'node:worker_threads';
import { CancelledError } from '../errors';

/** Long enough for any pattern that does not backtrack without end over a message of a few KB. */
export const PATTERN_BUDGET_MS = 1_000;

export type PatternResult = { kind: 'matched'; matches: boolean } | { kind: 'invalid'; message: string } | { kind: 'too-slow'; budgetMs: number };

// The worker's own code (eval'd, so that it needs no file of its own in the bundles): it says when it
// starts matching, then the result.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ pattern, text }) => {
  let re;
  try {
    re = new RegExp(pattern);
  } catch (e) {
    parentPort.postMessage({ kind: 'invalid', message: String((e && e.message) || e) });
    return;
  }
  parentPort.postMessage({ kind: 'started' });
  parentPort.postMessage({ kind: 'matched', matches: re.test(text) });
});
`;

type WorkerMessage = { kind: 'started' } | Exclude<PatternResult, { kind: 'too-slow' }>;

export class MessagePatterns {
  private worker?: Worker;

  constructor(private readonly budgetMs = PATTERN_BUDGET_MS) {}

  /** Whether `text` matches `pattern`; `too-slow` when it took longer than the budget; rejects with CancelledError on `signal`. */
  match(pattern: string, text: string, signal?: AbortSignal): Promise<PatternResult> {
    if (signal?.aborted) return Promise.reject(new CancelledError());
    const worker = (this.worker ??= newWorker());
    return new Promise<PatternResult>((resolve, reject) => {
      let budget: NodeJS.Timeout | undefined;
      const finish = (end: () => void, stop: boolean) => {
        clearTimeout(budget);
        worker.off('message', onMessage);
        worker.off('error', onError);
        signal?.removeEventListener('abort', onAbort);
        if (stop) this.stop(worker);
        else worker.unref();
        end();
      };
      const onMessage = (m: WorkerMessage) => {
        if (m.kind !== 'started') return finish(() => resolve(m), false);
        budget = setTimeout(() => finish(() => resolve({ kind: 'too-slow', budgetMs: this.budgetMs }), true), this.budgetMs);
      };
      const onError = (e: unknown) => finish(() => reject(e), true);
      const onAbort = () => finish(() => reject(new CancelledError()), true);
      // While it matches, the worker keeps the process alive: the answer is awaited.
      worker.ref();
      worker.on('message', onMessage);
      worker.on('error', onError);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ pattern, text });
    });
  }

  /** Ends the worker (a later match starts a new one). */
  dispose(): void {
    if (this.worker) this.stop(this.worker);
  }

  private stop(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
  }
}

function newWorker(): Worker {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  // An idle worker does not keep the process (the CLI) alive.
  worker.unref();
  return worker;
}
