/**
 * Following the update stream: reads from a source (the participant's websocket where it has one,
 * else repeated open-ended list reads), each resuming where the last one stopped, so that a dropped
 * connection loses nothing and repeats nothing, whichever source delivered.
 */
import type { LedgerClient } from '../api/client';
import type { UpdatesSelection } from '../api/updatesRequest';
import { AuthError, CancelledError, CantonApiError, HttpError, ListTooLargeError, NetworkError, ProtocolError, StreamStalledError, TimeoutError, UnsupportedOperationError, WebSocketUnavailableError } from '../errors';
import type { CompletionElement, CompletionsSelection } from '../models/completions';
import type { Update } from '../models/updates';
import { OPERATION_TITLES, shortVersion } from '../versions';

export type UpdateSourceKind = 'websocket' | 'polling';

/** Where the elements of a follower come from; the resume and dedup logic of {@link followElements} sits above it. */
export interface ElementSource<T> {
  readonly kind: UpdateSourceKind;
  /**
   * One read of the elements after `beginExclusive`, in ledger order, until it ends: a list read
   * when no new element came for a while, a websocket when the socket goes. Failures are the typed
   * errors of the client.
   */
  read(beginExclusive: number, o: { signal: AbortSignal; batchSize: number }): AsyncIterable<T[]>;
}

/** Where the updates of a follower come from. */
export type UpdateSource = ElementSource<Update>;

/** What a follower delivers: an element placed at an offset (checkpoints too), or one with none. */
interface Positioned {
  readonly offset?: number;
}

/** Polling: open-ended list reads (`stream_idle_timeout_ms` + `limit`). */
export function pollingSource(client: LedgerClient, selection: UpdatesSelection, idleTimeoutMs: number): UpdateSource {
  return {
    kind: 'polling',
    read: (beginExclusive, o) =>
      client.streamUpdates({ beginExclusive }, selection, {
        signal: o.signal,
        limit: o.batchSize,
        idleTimeoutMs,
        // The participant holds the read open up to the idle time; the deadline must outlast it.
        timeoutMs: idleTimeoutMs + 30_000,
      }),
  };
}

/** The participant's websocket stream: one socket per read, open until it fails or is aborted. */
export function websocketSource(client: LedgerClient, selection: UpdatesSelection, o: { connectTimeoutMs?: number } = {}): UpdateSource {
  return {
    kind: 'websocket',
    read: (beginExclusive, r) => client.subscribeUpdates({ beginExclusive }, selection, { signal: r.signal, connectTimeoutMs: o.connectTimeoutMs }),
  };
}

/** Which source to read: the websocket where the participant offers it, else polling (`auto`); or one of them only. */
export type SourcePreference = 'auto' | UpdateSourceKind;

/** The source a follower reads, and why it polls when it does. */
export type FollowSource =
  | { kind: 'websocket' }
  /** Polling was asked for. */
  | { kind: 'polling'; reason: 'chosen' }
  /** The participant's version has no update stream over a websocket. */
  | { kind: 'polling'; reason: 'not-offered'; version: string }
  /** The socket could not be opened (a proxy that does not pass websockets on, say). */
  | { kind: 'polling'; reason: 'refused'; error: WebSocketUnavailableError };

/** For people: "websocket", "polling (the websocket could not be opened: HTTP 404 instead of the upgrade)". */
export function describeSource(s: FollowSource): string {
  if (s.kind === 'websocket') return 'websocket';
  switch (s.reason) {
    case 'chosen':
      return 'polling';
    case 'not-offered':
      return `polling (Canton ${shortVersion(s.version)} has no websocket stream)`;
    case 'refused':
      return `polling (${s.error.message.charAt(0).toLowerCase()}${s.error.message.slice(1)})`;
  }
}

/** What every follower is given, whatever it follows. */
export interface FollowBase<T> {
  /**
   * Where to start: after this offset (exclusive; usually the ledger end when following starts), or
   * the position an earlier follower reached, to resume it with no gap and no repeat after a failure
   * that ended it (say, an expired token). A position is moved in place past each delivered update.
   */
  from: number | FollowPosition;
  signal: AbortSignal;
  /**
   * Polling: how long one read waits for more updates before the participant answers (it collects
   * until idle): the latency of the tail. Default 1 s.
   */
  idleTimeoutMs?: number;
  /** Polling: updates per read (at least 2; shrunk to the participant's cap on 413). Default 200. */
  batchSize?: number;
  /** Called with each new batch, in ledger order, never with an element seen before. */
  onBatch(elements: T[]): void;
  /**
   * Called when a read failed and following resumes after `delayMs`, when it is back, and (websocket)
   * when a liveness check found the stream silent because the ledger is: nothing visible to the
   * selection was written since (`quiet`, with how long it has been silent and the ledger end seen).
   */
  onStatus?(status: FollowStatus): void;
  /**
   * Polling: called after each read that answered to its end, with the position reached: everything up
   * to the participant's idle point is delivered (the first call: the backlog is read, following is live).
   */
  onCaughtUp?(position: FollowPosition): void;
  /** Delay before the n-th retry in a row (1-based). Default: 0.5 s doubling up to 15 s. */
  retryDelayMs?(attempt: number): number;
}

export interface FollowOptions extends FollowBase<Update> {
  selection: UpdatesSelection;
  /**
   * `auto` (default): the websocket where the participant's version has it, falling back to polling
   * when the socket cannot be opened; `websocket`: only the websocket (a socket that cannot be
   * opened ends following with the error); `polling`: only polling.
   */
  source?: SourcePreference;
  /** How long opening the websocket may take. Default 10 s. */
  connectTimeoutMs?: number;
  /**
   * Websocket: after this long without an element, check whether the ledger is quiet or the stream
   * stalled (a socket that stays open, pings answered, but carries nothing): read the ledger end, and
   * at the next check, if an update visible to the selection lies between the stream's last element
   * and that end, the stream is stalled and following resumes on a new socket from where it stood.
   * A check the participant does not answer within the interval counts as a stall too. Default 15 s.
   */
  livenessIntervalMs?: number;
  /** Called with the source once it is chosen, and again when following falls back to polling. */
  onSource?(source: FollowSource): void;
}

export type FollowStatus =
  | { state: 'following' }
  | { state: 'reconnecting'; error: Error; delayMs: number }
  | { state: 'quiet'; silentMs: number; ledgerEnd: number };

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
  const preference = o.source ?? 'auto';
  let source: UpdateSource | undefined;
  const use = (next: UpdateSource, why: FollowSource) => {
    source = next;
    o.onSource?.(why);
    return next;
  };
  const polling = () => pollingSource(client, o.selection, o.idleTimeoutMs ?? 1000);
  return followElements<Update>(o, {
    async choose() {
      if (source) return source;
      if (preference === 'polling') return use(polling(), { kind: 'polling', reason: 'chosen' });
      const caps = await client.capabilities({ signal: o.signal });
      if (caps.has('subscribeUpdates')) return use(websocketSource(client, o.selection, { connectTimeoutMs: o.connectTimeoutMs }), { kind: 'websocket' });
      if (preference === 'websocket') throw new UnsupportedOperationError(OPERATION_TITLES.subscribeUpdates, caps.version, 'subscribeUpdates');
      return use(polling(), { kind: 'polling', reason: 'not-offered', version: caps.version });
    },
    // The participant has the stream, but no socket gets through to it: poll, from where we are.
    fallback: (e) => (preference === 'auto' ? use(polling(), { kind: 'polling', reason: 'refused', error: e }) : undefined),
    watch: (from, position, quiet, stall) => (from.kind === 'websocket' ? watchLiveness(client, o, position, o.livenessIntervalMs ?? 15_000, quiet, stall) : undefined),
  });
}

/** How {@link followElements} gets its source, and what it does around a socket. */
export interface FollowSourcing<T> {
  /** The source to read next (called before each read; it may keep one). */
  choose(): Promise<ElementSource<T>>;
  /** A socket could not be opened: the source to go on with, or undefined to end with the error. */
  fallback?(e: WebSocketUnavailableError): ElementSource<T> | undefined;
  /** Watches one read for a silent stall (websocket updates). */
  watch?(from: ElementSource<T>, position: FollowPosition, quiet: (status: FollowStatus) => void, stall: (reason: Error) => void): LivenessWatch | undefined;
}

/**
 * The resume policy of every follower (updates, completions): follows new elements until
 * `signal` aborts (then resolves) or a failure that retrying cannot cure (authentication, a rejected
 * request: then rejects). Network failures, timeouts, 5xx and retryable Canton errors are retried
 * with backoff from the last position.
 *
 * Gap-free resumption: an offset checkpoint carries the offset of the element before it, so several
 * elements can share one offset, and a read may stop between them. Each read therefore starts one
 * offset early and skips the elements at that offset it has already delivered.
 */
export async function followElements<T extends Positioned>(o: FollowBase<T>, sourcing: FollowSourcing<T>): Promise<FollowPosition> {
  const position = typeof o.from === 'number' ? startingPosition(o.from) : o.from;
  let batchSize = Math.max(MIN_BATCH, o.batchSize ?? 200);
  let failures = 0;
  let socketWorked = false;
  // A quiet report holds until the stream delivers again; then following is said to go on.
  let quiet = false;
  const recovered = () => {
    if (failures === 0 && !quiet) return;
    failures = 0;
    quiet = false;
    o.onStatus?.({ state: 'following' });
  };
  const reportQuiet = (status: FollowStatus) => {
    quiet = true;
    o.onStatus?.(status);
  };
  const retryAfter = async (e: Error) => {
    failures++;
    const delayMs = (o.retryDelayMs ?? backoff)(failures);
    o.onStatus?.({ state: 'reconnecting', error: e, delayMs });
    await sleep(delayMs, o.signal);
  };
  while (!o.signal.aborted) {
    const overlap = Number.isFinite(position.seenAtOffset) && position.offset > 0;
    // Each read has a signal of its own, so that a stalled stream can be ended without ending following.
    const reading = new AbortController();
    const endRead = () => reading.abort();
    o.signal.addEventListener('abort', endRead, { once: true });
    let stalled: Error | undefined;
    let liveness: LivenessWatch | undefined;
    try {
      const from = await sourcing.choose();
      const read = startRead<T>(position);
      liveness = sourcing.watch?.(from, position, reportQuiet, (reason) => {
        stalled = reason;
        reading.abort();
      });
      for await (const batch of from.read(overlap ? position.offset - 1 : position.offset, { signal: reading.signal, batchSize })) {
        liveness?.sawElements();
        const fresh = batch.filter(read);
        if (from.kind === 'websocket') socketWorked = true;
        if (fresh.length > 0) o.onBatch(fresh);
        if (fresh.length > 0 || failures > 0) recovered();
      }
      if (failures > 0) recovered();
      if (!reading.signal.aborted) o.onCaughtUp?.(position);
    } catch (e) {
      if (o.signal.aborted) break;
      if (stalled) {
        await retryAfter(stalled);
        continue;
      }
      if (e instanceof CancelledError) break;
      if (e instanceof WebSocketUnavailableError && !refusal(e, socketWorked)) {
        // A handshake dropped after sockets have worked here: the network, not the participant's choice.
        await retryAfter(e);
        continue;
      }
      if (e instanceof WebSocketUnavailableError && sourcing.fallback?.(e)) continue;
      if (e instanceof ListTooLargeError) {
        // Smaller reads: to the cap the participant names, else half. Below the smallest read that
        // can hold an update and its checkpoint no size can succeed: stop with the error instead of
        // asking again and again.
        const smaller = smallerListRead(e, batchSize);
        if (smaller < MIN_BATCH) throw e;
        batchSize = smaller;
        await retryAfter(e);
        continue;
      }
      // Reading one offset early reached into pruned history: resume exactly at the offset instead.
      if (e instanceof CantonApiError && e.code === 'PARTICIPANT_PRUNED_DATA_ACCESSED' && overlap) {
        position.seenAtOffset = Number.POSITIVE_INFINITY;
        continue;
      }
      if (!isTransient(e)) throw e;
      await retryAfter(e as Error);
    } finally {
      liveness?.stop();
      o.signal.removeEventListener('abort', endRead);
    }
  }
  return position;
}

export interface LivenessWatch {
  /** The stream delivered something (any element, new or not): it is alive. */
  sawElements(): void;
  stop(): void;
}

/**
 * Watches an open stream for silence. Silence alone proves nothing (a quiet ledger, or updates the
 * selection does not see), so a silent stream is compared with the participant: the ledger end is
 * read at each check, and an update visible to the selection between the stream's position and the
 * end read one check earlier (so it had a whole interval to arrive) means the stream stalled. Quiet is
 * said only when no update visible to the selection lies past the stream's position at all.
 */
function watchLiveness(
  client: LedgerClient,
  o: FollowOptions,
  position: FollowPosition,
  intervalMs: number,
  quiet: (status: FollowStatus) => void,
  stall: (reason: Error) => void,
): LivenessWatch {
  let lastElementAt = Date.now();
  let endAtLastCheck: number | undefined;
  let checking = false;
  let stopped = false;
  const call = { signal: o.signal, timeoutMs: intervalMs };
  const check = async () => {
    const silentMs = Date.now() - lastElementAt;
    if (checking || stopped || silentMs < intervalMs) return;
    checking = true;
    try {
      const end = await client.ledgerEnd(call);
      const earlierEnd = endAtLastCheck;
      endAtLastCheck = end;
      if (end > position.offset) {
        const missed = await firstUpdateAfter(client, o.selection, position.offset, end, call);
        if (stopped) return;
        if (missed !== undefined && missed > position.offset) {
          // Written by the last check: it had a whole interval to arrive, and did not.
          if (earlierEnd !== undefined && missed <= earlierEnd) return stall(new StreamStalledError(position.offset, missed, Date.now() - lastElementAt));
          // Written since: it may be on its way. Neither quiet nor stalled yet; the next check decides.
          return;
        }
      }
      // Nothing the selection sees lies past the stream's position: the ledger is quiet for it.
      if (!stopped) quiet({ state: 'quiet', silentMs, ledgerEnd: end });
    } catch (e) {
      // The participant does not answer the check either: the stream cannot be trusted.
      if (!stopped && !o.signal.aborted) stall(e instanceof Error ? e : new Error(String(e)));
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), Math.max(20, Math.min(1000, intervalMs / 4)));
  return {
    sawElements() {
      lastElementAt = Date.now();
      endAtLastCheck = undefined;
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/** The offset of the first update (not a checkpoint) visible to `selection` in (`after`, `upTo`], if any. */
async function firstUpdateAfter(client: LedgerClient, selection: UpdatesSelection, after: number, upTo: number, call: { signal: AbortSignal; timeoutMs: number }): Promise<number | undefined> {
  for await (const batch of client.streamUpdates({ beginExclusive: after, endInclusive: upTo }, selection, { ...call, limit: 200 })) {
    const update = batch.find((u) => u.kind !== 'checkpoint' && u.offset !== undefined && u.offset > after);
    if (update) return update.offset;
  }
  return undefined;
}

/** The smallest read: an update and the checkpoint sharing its offset must fit in one. */
const MIN_BATCH = 2;

/**
 * The size of the next list read after a 413 (the participant's list cap): the cap the participant
 * names when it is smaller, else half. A caller stops below the smallest read it can use.
 */
export function smallerListRead(e: ListTooLargeError, size: number): number {
  return e.cap !== undefined && e.cap < size ? e.cap : Math.floor(size / 2);
}

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
function startRead<T extends Positioned>(position: FollowPosition): (u: T) => boolean {
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

/**
 * Whether a socket that could not be opened means "no websockets here": an HTTP answer instead of
 * the upgrade always does; a dropped or unanswered handshake does only until a socket has worked.
 */
function refusal(e: WebSocketUnavailableError, socketWorked: boolean): boolean {
  return e.status !== undefined || !socketWorked;
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

// ---------------------------------------------------------------- command completions

export interface FollowCompletionsOptions extends FollowBase<CompletionElement> {
  selection: CompletionsSelection;
}

/**
 * Follows the command completions of a selection with the same resume policy as the updates (no
 * gap, no duplicate, retries from the last position), reading open-ended lists: the participant's
 * completions websocket is not used. A release without the endpoint ends following with an
 * UnsupportedOperationError before any completions request is sent.
 */
export function followCompletions(client: LedgerClient, o: FollowCompletionsOptions): Promise<FollowPosition> {
  const idleTimeoutMs = o.idleTimeoutMs ?? 1000;
  const source: ElementSource<CompletionElement> = {
    kind: 'polling',
    read: (beginExclusive, r) => client.streamCompletions(beginExclusive, o.selection, { signal: r.signal, limit: r.batchSize, idleTimeoutMs, timeoutMs: idleTimeoutMs + 30_000 }),
  };
  return followElements(o, { choose: async () => source });
}
