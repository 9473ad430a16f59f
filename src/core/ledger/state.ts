import { CancelledError } from '../errors';
import type { VettedPackagesState } from '../models/vetting';
import { Emitter } from './events';

/** How the state reads the participant (a LedgerClient behind it, in the extension). */
export interface LedgerReader {
  ledgerEnd(signal: AbortSignal): Promise<number>;
  /** The participant's own vetted packages, per synchronizer. */
  vettedPackages(signal: AbortSignal): Promise<VettedPackagesState[]>;
}

/** What a write of ours did to the ledger, as far as its answer says. */
export interface LedgerWrite {
  /** The offset the write reached (a transaction's), when the answer names one. */
  offset?: number;
  /** The write changed the vetting state (a vetting apply, a DAR upload that vets). */
  vetting?: boolean;
  /** The write added packages (a DAR upload). */
  packages?: boolean;
}

/** What changed; the listeners of each part look only at theirs. */
export interface LedgerChange {
  ledgerEnd?: { previous?: number; current: number };
  vetting?: true;
  packages?: true;
}

export type VettingSnapshot =
  | { state: 'unknown' }
  | { state: 'ready'; states: VettedPackagesState[]; at: Date }
  | { state: 'failed'; error: unknown; at: Date };

/**
 * What is known of one connection's ledger: its end and its vetting state. Every write we make
 * (`afterWrite`), every update seen (`advanceTo`) and every refresh moves it, and `onDidChange` tells
 * the views, which keep no copy of their own. The end never goes backwards (answers can arrive out of
 * order), and concurrent refreshes share one read (plus one more when asked for during a read, whose
 * answer may predate the write that asked).
 */
export class LedgerState {
  private readonly changed = new Emitter<LedgerChange>();
  readonly onDidChange = this.changed.event;
  private readonly lifetime = new AbortController();
  private end: number | undefined;
  private vettingState: VettingSnapshot = { state: 'unknown' };
  private vettedIds: { states: VettedPackagesState[]; ids: ReadonlySet<string> } | undefined;
  private readonly endReads: CoalescedRead<number>;
  private readonly vettingReads: CoalescedRead<VettedPackagesState[]>;

  /** A write that named its offset: the end is read again once such writes stop for this long. */
  private readonly settleMs: number;
  private settleTimer: ReturnType<typeof setTimeout> | undefined;
  private lastSettlingWrite = 0;
  private settling: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(
    private readonly reader: LedgerReader,
    ledgerEnd?: number,
    options: { settleMs?: number } = {},
  ) {
    this.settleMs = options.settleMs ?? 150;
    this.end = ledgerEnd;
    this.endReads = new CoalescedRead(async () => {
      const end = await this.reader.ledgerEnd(this.lifetime.signal);
      this.advanceTo(end);
      return this.end ?? end;
    });
    this.vettingReads = new CoalescedRead(async () => {
      try {
        const states = await this.reader.vettedPackages(this.lifetime.signal);
        if (!this.disposed) this.vettingState = { state: 'ready', states, at: new Date() };
        return states;
      } catch (error) {
        if (!this.disposed) this.vettingState = { state: 'failed', error, at: new Date() };
        throw error;
      } finally {
        if (!this.disposed) this.changed.fire({ vetting: true });
      }
    });
  }

  /** The highest ledger end seen; undefined before the first read. */
  get ledgerEnd(): number | undefined {
    return this.end;
  }

  get vetting(): VettingSnapshot {
    return this.vettingState;
  }

  /** The ids of the packages vetted on any synchronizer, as last read; undefined while not read. */
  vettedPackageIds(): ReadonlySet<string> | undefined {
    const s = this.vettingState;
    if (s.state !== 'ready') return undefined;
    if (this.vettedIds?.states !== s.states) this.vettedIds = { states: s.states, ids: new Set(s.states.flatMap((v) => v.packages.map((p) => p.packageId))) };
    return this.vettedIds.ids;
  }

  get disposed(): boolean {
    return this.lifetime.signal.aborted;
  }

  /** Takes an offset seen on the ledger (an update delivered, an answer): the end moves only forward. */
  advanceTo(offset: number): boolean {
    if (this.disposed || !Number.isSafeInteger(offset) || (this.end !== undefined && offset <= this.end)) return false;
    const previous = this.end;
    this.end = offset;
    this.changed.fire({ ledgerEnd: { previous, current: offset } });
    return true;
  }

  /** Reads the ledger end (shared with any read in progress); resolves with the end known after it. */
  refreshLedgerEnd(signal?: AbortSignal): Promise<number> {
    return untilAborted(this.endReads.run(), signal);
  }

  /**
   * The vetting state as last read, reading it first when it was never read; while reads run (after a
   * write, say), the answer of the newest one.
   */
  async vettedPackages(signal?: AbortSignal): Promise<VettedPackagesState[]> {
    const s = this.vettingState;
    const pending = this.vettingReads.latest;
    if (s.state === 'ready' && !pending) return s.states;
    if (s.state === 'failed' && !pending) throw s.error;
    return untilAborted(pending ?? this.vettingReads.run(), signal);
  }

  /** Reads the vetting state again (a Refresh, or after a change). */
  refreshVetting(signal?: AbortSignal): Promise<VettedPackagesState[]> {
    return untilAborted(this.vettingReads.run(), signal);
  }

  /**
   * After each write of ours: takes the offset the write reached, then reads what it may have changed
   * (the end always, for the writes of others; the vetting state after vetting or package changes). A
   * write that named its offset moved the end already: its read waits until such writes pause, so a
   * burst of them (a script's steps) costs one read, not one each. Read failures stay in the state (the
   * views show them); this never throws.
   */
  afterWrite(write: LedgerWrite = {}): Promise<void> {
    // Not an async function (a script calls this once a step), but what one would do: a listener's
    // error comes back as the promise's, not thrown at the write that succeeded.
    try {
      if (this.disposed) return Promise.resolve();
      if (write.offset !== undefined) this.advanceTo(write.offset);
      if (write.packages) this.changed.fire({ packages: true });
      if (write.offset !== undefined && !write.vetting && !write.packages) return this.endReadOnceSettled();
      return this.readAfterWrite(write);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private async readAfterWrite(write: LedgerWrite): Promise<void> {
    const reads: Promise<unknown>[] = [this.endReads.run()];
    if (write.vetting || write.packages) reads.push(this.vettingReads.run());
    await Promise.all(reads.map((r) => r.catch(() => undefined)));
  }

  /**
   * One end read after the last of a burst of writes; every write of the burst waits for it. The
   * timer is set once per burst: a write during it only moves the time it waits for (a script's step
   * would otherwise clear and set a timer each).
   */
  private endReadOnceSettled(): Promise<void> {
    this.lastSettlingWrite = performance.now();
    if (this.settling) return this.settling.promise;
    let resolve!: () => void;
    const settling = { promise: new Promise<void>((r) => (resolve = r)), resolve: () => resolve() };
    this.settling = settling;
    const wait = (ms: number) => {
      this.settleTimer = setTimeout(() => {
        const left = this.lastSettlingWrite + this.settleMs - performance.now();
        if (left > 0 && !this.disposed) return wait(left);
        this.settling = undefined;
        if (this.disposed) return settling.resolve();
        void this.endReads.run().then(settling.resolve, settling.resolve);
      }, ms);
      // Nothing waits on it but the writes' followers: it must not hold a CLI process open.
      (this.settleTimer as { unref?: () => void }).unref?.();
    };
    wait(this.settleMs);
    return settling.promise;
  }

  /** Stops reading (the connection went): reads in progress are aborted, listeners dropped. */
  dispose(): void {
    clearTimeout(this.settleTimer);
    this.settling?.resolve();
    this.settling = undefined;
    this.lifetime.abort();
    this.changed.dispose();
  }
}

/**
 * Runs `read` at most once at a time. A run asked for while one is in progress gets one more read
 * after it (the running one may have started before what prompted the request); any number of such
 * requests share that one.
 */
export class CoalescedRead<T> {
  private current: Promise<T> | undefined;
  private queued: Promise<T> | undefined;

  constructor(private readonly read: () => Promise<T>) {}

  get running(): Promise<T> | undefined {
    return this.current;
  }

  /** The read whose answer is the newest asked for: the one queued, else the one running. */
  get latest(): Promise<T> | undefined {
    return this.queued ?? this.current;
  }

  run(): Promise<T> {
    if (!this.current) return this.start();
    this.queued ??= this.current.then(
      () => this.startQueued(),
      () => this.startQueued(),
    );
    return this.queued;
  }

  private startQueued(): Promise<T> {
    this.queued = undefined;
    return this.start();
  }

  private start(): Promise<T> {
    const p: Promise<T> = this.read().finally(() => {
      if (this.current === p) this.current = undefined;
    });
    this.current = p;
    return p;
  }
}

/** `p`, or a CancelledError as soon as the caller's signal aborts (the shared read goes on). */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
