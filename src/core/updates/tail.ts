/**
 * Following the update stream: repeated open-ended list reads (`stream_idle_timeout_ms` + `limit`),
 * each resuming where the last one stopped, so that a dropped connection loses nothing and repeats
 * nothing; and a bounded window of the newest updates for a view to show.
 */
import type { LedgerClient } from '../api/client';
import type { UpdatesSelection } from '../api/updatesRequest';
import { AuthError, CancelledError, CantonApiError, HttpError, ListTooLargeError, NetworkError, ProtocolError, TimeoutError } from '../errors';
import type { Update } from '../models/updates';

export interface FollowOptions {
  selection: UpdatesSelection;
  /**
   * Where to start: after this offset (exclusive; usually the ledger end when following starts), or
   * the position an earlier follower reached, to resume it with no gap and no repeat after a failure
   * that ended it (say, an expired token). A position is moved in place past each delivered update.
   */
  from: number | FollowPosition;
  signal: AbortSignal;
  /**
   * How long one read waits for more updates before the participant answers (it collects until idle):
   * the latency of the tail. Default 1 s.
   */
  idleTimeoutMs?: number;
  /** Updates per read (at least 2; shrunk to the participant's cap on 413). Default 200. */
  batchSize?: number;
  /** Called with each new batch, in ledger order, never with an update seen before. */
  onBatch(updates: Update[]): void;
  /** Called when a read failed and following resumes after `delayMs`, and when it is back. */
  onStatus?(status: { state: 'following' } | { state: 'reconnecting'; error: Error; delayMs: number }): void;
  /** Delay before the n-th retry in a row (1-based). Default: 0.5 s doubling up to 15 s. */
  retryDelayMs?(attempt: number): number;
}

/** Where a follower stands: after `offset`, having seen `seenAtOffset` elements carrying that offset. */
export interface FollowPosition {
  offset: number;
  seenAtOffset: number;
}

/**
 * Follows new updates until `signal` aborts (then resolves) or a failure that retrying cannot cure
 * (authentication, a rejected request: then rejects). Network failures, timeouts, 5xx and retryable
 * Canton errors are retried with backoff from the last position.
 *
 * Gap-free resumption: an offset checkpoint carries the offset of the update before it, so several
 * elements can share one offset, and a read may stop between them. Each read therefore starts one
 * offset early and skips the elements at that offset it has already delivered.
 */
export async function followUpdates(client: LedgerClient, o: FollowOptions): Promise<FollowPosition> {
  const position = typeof o.from === 'number' ? startingPosition(o.from) : o.from;
  let batchSize = Math.max(MIN_BATCH, o.batchSize ?? 200);
  const idleTimeoutMs = o.idleTimeoutMs ?? 1000;
  let failures = 0;
  const recovered = () => {
    if (failures === 0) return;
    failures = 0;
    o.onStatus?.({ state: 'following' });
  };
  while (!o.signal.aborted) {
    const overlap = Number.isFinite(position.seenAtOffset) && position.offset > 0;
    try {
      const read = startRead(position);
      const stream = client.streamUpdates({ beginExclusive: overlap ? position.offset - 1 : position.offset }, o.selection, {
        signal: o.signal,
        limit: batchSize,
        idleTimeoutMs,
        // The participant holds the read open up to the idle time; the deadline must outlast it.
        timeoutMs: idleTimeoutMs + 30_000,
      });
      for await (const batch of stream) {
        const fresh = batch.filter(read);
        if (fresh.length > 0) o.onBatch(fresh);
        recovered();
      }
      recovered();
    } catch (e) {
      if (e instanceof CancelledError || o.signal.aborted) break;
      if (e instanceof ListTooLargeError) {
        // Smaller reads: to the cap the participant names, else half. Below the smallest read that
        // can hold an update and its checkpoint no size can succeed: stop with the error instead of
        // asking again and again.
        const smaller = e.cap !== undefined && e.cap < batchSize ? e.cap : Math.floor(batchSize / 2);
        if (smaller < MIN_BATCH) throw e;
        batchSize = smaller;
        failures++;
        const delayMs = (o.retryDelayMs ?? backoff)(failures);
        o.onStatus?.({ state: 'reconnecting', error: e, delayMs });
        await sleep(delayMs, o.signal);
        continue;
      }
      // Reading one offset early reached into pruned history: resume exactly at the offset instead.
      if (e instanceof CantonApiError && e.code === 'PARTICIPANT_PRUNED_DATA_ACCESSED' && overlap) {
        position.seenAtOffset = Number.POSITIVE_INFINITY;
        continue;
      }
      if (!isTransient(e)) throw e;
      failures++;
      const delayMs = (o.retryDelayMs ?? backoff)(failures);
      o.onStatus?.({ state: 'reconnecting', error: e as Error, delayMs });
      await sleep(delayMs, o.signal);
    }
  }
  return position;
}

/** The smallest read: an update and the checkpoint sharing its offset must fit in one. */
const MIN_BATCH = 2;

/** The position of a follower that starts after `offset`. */
export function startingPosition(offset: number): FollowPosition {
  // Nothing at the starting offset is wanted: it was there before following began.
  return { offset, seenAtOffset: Number.POSITIVE_INFINITY };
}

/**
 * The filter of one read: true for elements the follower has not delivered yet, moving `position`
 * past each. The read starts at (or one before) `position.offset`, and the first `seenAtOffset`
 * elements at that offset were delivered by an earlier read.
 */
function startRead(position: FollowPosition): (u: Update) => boolean {
  const startOffset = position.offset;
  const alreadySeen = position.seenAtOffset;
  let skipped = 0;
  return (u) => {
    const offset = u.offset;
    if (offset === undefined) return true;
    if (offset < startOffset) return false;
    if (offset === startOffset && skipped < alreadySeen) {
      skipped++;
      return false;
    }
    if (offset === position.offset) position.seenAtOffset++;
    else {
      position.offset = offset;
      position.seenAtOffset = 1;
    }
    return true;
  };
}

function isTransient(e: unknown): boolean {
  if (e instanceof AuthError) return false;
  if (e instanceof NetworkError || e instanceof TimeoutError || e instanceof ProtocolError) return true;
  if (e instanceof HttpError) return e.status >= 500 || e.status === 429;
  if (e instanceof CantonApiError) return e.retryable;
  return false;
}

function backoff(attempt: number): number {
  return Math.min(15_000, 500 * 2 ** (attempt - 1));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
