import type { LedgerClient } from '../api/client';
import type { CallOptions } from '../api/http';
import { ListTooLargeError } from '../errors';
import type { Completion, CompletionsSelection } from '../models/completions';
import { OnDemandPages, type ReadPage } from '../paging';
import { smallerListRead } from './tail';

export interface CompletionsPagerOptions {
  selection: CompletionsSelection;
  /** The pinned end: the ledger end when the pages were opened. What comes after it is the live part's. */
  endInclusive: number;
  /** Where the first page begins (exclusive): it holds the completions in (this, `endInclusive`]. */
  firstBeginExclusive: number;
  /** Offsets per older page to begin with (adapted to how many completions the pages hold). Default 1000. */
  window?: number;
  /** The participant pruned up to here: nothing at or below it is read. */
  prunedUpToInclusive?: number;
  /** Completions per read (≤ the participant's list cap; shrunk to the cap it names on 413). Default 200. */
  batchSize?: number;
  /** How long a read waits for more before the participant answers. Default 1 s (as the live follower). */
  idleTimeoutMs?: number;
}

interface Cursor {
  endInclusive: number;
  window: number;
}

/** About this many completions make a page; a window that held far more is narrowed for the next. */
const PAGE_TARGET = 100;
const MIN_WINDOW = 10;
/**
 * Empty windows read before a page gives up and leaves "Load more" for the rest; each is 8 times the
 * last, so a page looks back over half a million offsets from a window of 1000. Each read that reaches
 * the ledger end waits for the participant's idle end, so a page costs at most this many waits.
 */
const EMPTY_WINDOWS_PER_PAGE = 4;
const WIDENING = 8;

/**
 * A user's command completions page by page, newest first, back from a pinned end. The completions
 * lists read forwards only (after an offset, no end), so a page is a window of offsets read from its
 * start up to the first element past its end. The first window ends at the pinned end, where the live
 * part goes on (no gap, no duplicate between them); each older one ends where the last began. Windows
 * that hold nothing widen the next, and a page reads several before it gives up, so "Load more"
 * reaches back over quiet stretches of the ledger quickly; the ledger start or the pruning offset is the
 * last page.
 */
export class CompletionsPager extends OnDemandPages<Completion, Cursor> {
  private oldestRead: number;
  private batchSize: number;
  private readonly floor: number;

  constructor(private readonly client: LedgerClient, private readonly o: CompletionsPagerOptions) {
    super();
    this.floor = Math.max(0, o.prunedUpToInclusive ?? 0);
    this.oldestRead = o.endInclusive;
    this.batchSize = Math.max(2, o.batchSize ?? 200);
  }

  /** Whose completions the pages read. */
  get selection(): CompletionsSelection {
    return this.o.selection;
  }

  /** The completions loaded, newest first. */
  get completions(): readonly Completion[] {
    return this.loaded;
  }

  /** The offsets the loaded pages cover: (beginExclusive, endInclusive]. */
  get range(): { beginExclusive: number; endInclusive: number; prunedUpToInclusive: number } {
    return { beginExclusive: this.oldestRead, endInclusive: this.o.endInclusive, prunedUpToInclusive: this.floor };
  }

  protected async readPage(cursor: Cursor | undefined, o: CallOptions): Promise<ReadPage<Completion, Cursor>> {
    let window = cursor?.window ?? Math.max(MIN_WINDOW, this.o.window ?? 1000);
    let end = cursor?.endInclusive ?? this.o.endInclusive;
    let begin = Math.max(this.floor, cursor ? end - window : Math.min(this.o.firstBeginExclusive, end));
    for (let empty = 0; ; ) {
      const found = await this.readWindow(begin, end, o);
      this.oldestRead = begin;
      if (found.length > 2 * PAGE_TARGET) window = Math.max(MIN_WINDOW, Math.floor((window * PAGE_TARGET) / found.length));
      else if (found.length === 0) window *= WIDENING;
      const next = begin > this.floor ? { endInclusive: begin, window } : undefined;
      if (found.length > 0 || !next || ++empty >= EMPTY_WINDOWS_PER_PAGE) return { items: found.reverse(), next };
      end = begin;
      begin = Math.max(this.floor, end - window);
    }
  }

  /** The completions in (begin, end], oldest first: reads from `begin` until an element past `end` or the participant's idle end. */
  private async readWindow(begin: number, end: number, o: CallOptions): Promise<Completion[]> {
    const found: Completion[] = [];
    let after = begin;
    for (;;) {
      // Its own signal: a read that went past the window is ended there, not read to its idle end.
      const reading = new AbortController();
      const signal = o.signal ? AbortSignal.any([o.signal, reading.signal]) : reading.signal;
      let elements = 0;
      let past = false;
      try {
        for await (const batch of this.client.streamCompletions(after, this.o.selection, { ...o, signal, limit: this.batchSize, idleTimeoutMs: this.o.idleTimeoutMs ?? 1000 })) {
          for (const e of batch) {
            elements++;
            if (e.offset > end) {
              past = true;
              break;
            }
            after = e.offset;
            if (e.kind === 'completion') found.push(e.completion);
          }
          if (past) break;
        }
      } catch (e) {
        const smaller = e instanceof ListTooLargeError ? smallerListRead(e, this.batchSize) : 0;
        if (smaller < 2) throw e;
        this.batchSize = smaller;
        continue;
      } finally {
        reading.abort();
      }
      // Fewer than asked for: the participant had nothing more when it answered.
      if (past || elements < this.batchSize) return found;
    }
  }
}
