/**
 * What the client checks of the participant's answers before believing them: the JSON value an
 * operation answers with, the fields a decoder needs, the order of offsets in update lists, and page
 * tokens that would never end. A server (or a proxy) that breaks the protocol gets a ProtocolError
 * naming what is wrong and where, and reading stops, rather than repeated or missing updates shown
 * as if they were the ledger.
 */
import { LedgerError, ProtocolError, type RequestInfo } from '../errors';
import type { Update } from '../models/updates';

const where = (req: RequestInfo) => `${req.method} ${req.path}`;

/** The answer must be a JSON object (not empty, `null`, a list or a scalar); `what` says what was expected. */
export function expectObject<T>(value: unknown, req: RequestInfo, what: string): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ProtocolError(`The answer to ${where(req)} is ${describe(value)}, expected ${what}`, req, undefined, { problem: 'unexpected-body' });
  }
  return value as T;
}

/** `value[key]` must be an object; else a ProtocolError naming the field and what was expected. */
export function expectField(value: Record<string, unknown>, key: string, req: RequestInfo, what: string, path = key): void {
  const v = value[key];
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new ProtocolError(`The answer to ${where(req)} has ${describe(v)} at ${path}, expected ${what}`, req, undefined, { problem: 'bad-field', field: path });
  }
}

/** `value[key]` must be a list; else a ProtocolError naming the field. */
export function expectList(value: Record<string, unknown>, key: string, req: RequestInfo, what: string): unknown[] {
  const v = value[key];
  if (!Array.isArray(v)) throw new ProtocolError(`The answer to ${where(req)} has ${describe(v)} at ${key}, expected ${what}`, req, undefined, { problem: 'bad-field', field: key });
  return v;
}

/**
 * Runs a decoder on (part of) an answer; a failure becomes a ProtocolError naming the request and
 * the field (found by `locate`, else the decoder's own complaint), never a network error.
 */
export function decodeAnswer<T>(decode: () => T, req: RequestInfo, prefix: string, locate?: () => { field: string; expected: string } | undefined): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof LedgerError) throw e;
    const at = locate?.();
    const field = at ? `${prefix}${at.field}` : prefix || undefined;
    const why = at ? `expected ${at.expected}` : (e as Error)?.message ?? String(e);
    throw new ProtocolError(`The answer to ${where(req)} cannot be decoded${field ? ` at ${field}` : ''}: ${why}`, req, e, { problem: 'bad-field', field });
  }
}

/** The updates list of an answer: each element decoded, a failure naming the element and the field. */
export function decodeUpdateElement(element: unknown, index: number, req: RequestInfo, decode: (e: never) => Update, listPath = ''): Update {
  const u = decodeAnswer(() => decode(element as never), req, `${listPath}[${index}]`, () => updateFieldProblem(element));
  // A known kind without an offset cannot be placed in the ledger: it is no update of this protocol.
  if (u.kind !== 'unknown' && typeof u.offset !== 'number') {
    const at = updateFieldProblem(element) ?? { field: '.offset', expected: 'a number' };
    throw new ProtocolError(`The answer to ${where(req)} cannot be decoded at ${listPath}[${index}]${at.field}: expected ${at.expected}`, req, undefined, {
      problem: 'bad-field',
      field: `${listPath}[${index}]${at.field}`,
    });
  }
  return u;
}

/** The first field of an updates-list element that a decoder cannot use, as a path below the element. */
export function updateFieldProblem(element: unknown): { field: string; expected: string } | undefined {
  if (!isObject(element)) return { field: '', expected: 'an object {"update": …}' };
  const u = 'update' in element ? element.update : element;
  const base = 'update' in element ? '.update' : '';
  if (!isObject(u)) return { field: base, expected: 'an object with one of Transaction, Reassignment, TopologyTransaction, OffsetCheckpoint' };
  for (const variant of ['Transaction', 'Reassignment', 'TopologyTransaction', 'OffsetCheckpoint']) {
    if (!(variant in u)) continue;
    const raw = u[variant];
    const wrapped = isObject(raw) && 'value' in raw;
    const v = wrapped ? raw.value : raw;
    const path = `${base}.${variant}${wrapped ? '.value' : ''}`;
    if (!isObject(v)) return { field: path, expected: 'an object' };
    if (typeof v.offset !== 'number') return { field: `${path}.offset`, expected: 'a number' };
    if (variant === 'OffsetCheckpoint') return undefined;
    if (typeof v.updateId !== 'string') return { field: `${path}.updateId`, expected: 'a string' };
    if (v.events !== undefined && v.events !== null && !Array.isArray(v.events)) return { field: `${path}.events`, expected: 'a list' };
    const events = (v.events ?? []) as unknown[];
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      if (!isObject(e)) return { field: `${path}.events[${i}]`, expected: 'an object' };
      const key = Object.keys(e)[0];
      if (key === undefined) continue;
      const inner = variant === 'TopologyTransaction' ? e[key] : key === 'JsUnassignedEvent' && isObject(e[key]) && 'value' in (e[key] as object) ? (e[key] as { value: unknown }).value : e[key];
      if (!isObject(inner)) return { field: `${path}.events[${i}].${key}`, expected: 'an object' };
      if (key === 'JsAssignmentEvent' && !isObject(inner.createdEvent)) return { field: `${path}.events[${i}].${key}.createdEvent`, expected: 'an object' };
    }
    return undefined;
  }
  return undefined;
}

/**
 * Checks that the offsets of a list increase (decrease when descending) and lie in the range asked
 * for. Several elements may share an offset (an offset checkpoint carries the offset of the update
 * before it), but never two updates, and never the same checkpoint twice: a repeated element is
 * refused, so that a follower resumes after it instead of delivering it twice. A second checkpoint at
 * one offset with other synchronizer times is Canton's own: a stream that went idle gets a checkpoint
 * at the ledger end, and when the next range begins Canton sends the checkpoint it fetched then if it
 * differs from the one streamed last and names the offset just before the range — the same offset,
 * later times (IndexServiceImpl.injectCheckpoints, the Timeout and RangeBegin cases).
 * Keep one per read (or per walk of pages) and feed it in order.
 */
export class OffsetOrder {
  private last?: OrderEnd & { index: number };

  constructor(
    private readonly req: RequestInfo,
    private readonly o: { descending?: boolean; beginExclusive?: number; endInclusive?: number },
    /** Where the previous page of the same walk ended. */
    previous?: OrderEnd,
  ) {
    if (previous) this.last = { ...previous, index: -1 };
  }

  /** Where the list checked so far ended, to seed the check of the next page. */
  get end(): OrderEnd | undefined {
    return this.last && { offset: this.last.offset, update: this.last.update, checkpoint: this.last.checkpoint };
  }

  check(u: { kind: string; offset?: number; synchronizerTimes?: readonly SynchronizerTimeLike[] }, index: number): void {
    const offset = u.offset;
    if (offset === undefined) return;
    const isUpdate = u.kind !== 'checkpoint';
    const checkpoint = isUpdate ? undefined : checkpointTimes(u.synchronizerTimes);
    const { beginExclusive, endInclusive } = this.o;
    // A checkpoint may carry the begin itself: Canton streams one that "arrived delayed" at the start of
    // a range when it names the offset just before the range (IndexServiceImpl.injectCheckpoints,
    // the RangeBegin case), and the first range of a stream begins right after `beginExclusive`.
    const beforeBegin = beginExclusive !== undefined && (isUpdate ? offset <= beginExclusive : offset < beginExclusive);
    if (beforeBegin || (endInclusive !== undefined && offset > endInclusive)) {
      const range = `(${beginExclusive ?? 0}, ${endInclusive ?? '∞'}]`;
      throw new ProtocolError(`The answer to ${where(this.req)} has an update at offset ${offset} (element ${index}), outside the range ${range} asked for`, this.req, undefined, {
        problem: 'offset-order',
        offsets: [beginExclusive ?? 0, offset],
      });
    }
    const last = this.last;
    if (last) {
      const backwards = this.o.descending ? offset > last.offset : offset < last.offset;
      const repeated = offset === last.offset && (isUpdate ? last.update : last.checkpoint === checkpoint);
      if (backwards || repeated) {
        const order = this.o.descending ? 'decrease' : 'increase';
        throw new ProtocolError(
          `The answer to ${where(this.req)} breaks the order of offsets: offset ${offset} (element ${index}) follows offset ${last.offset} (${last.index < 0 ? 'the end of the previous page' : `element ${last.index}`}); offsets in a list must ${order}`,
          this.req,
          undefined,
          { problem: 'offset-order', offsets: [last.offset, offset] },
        );
      }
      if (offset === last.offset) {
        this.last = { offset, update: last.update || isUpdate, checkpoint: checkpoint ?? last.checkpoint, index };
        return;
      }
    }
    this.last = { offset, update: isUpdate, checkpoint, index };
  }
}

interface SynchronizerTimeLike {
  synchronizerId: string;
  recordTime: string;
}

/** Where a checked list ended: its last offset, whether an update had it, and the times of the checkpoint there, if any. */
export interface OrderEnd {
  offset: number;
  update: boolean;
  /** The synchronizer times of the last checkpoint at `offset` (see `checkpointTimes`); undefined: none there. */
  checkpoint?: string;
}

/** What tells one checkpoint at an offset from another: its synchronizer times, in a stable order. */
function checkpointTimes(times: readonly SynchronizerTimeLike[] | undefined): string {
  return (times ?? [])
    .map((t) => `${t.synchronizerId}@${t.recordTime}`)
    .sort()
    .join(' ');
}

/** A page token equal to the one sent (or to any one sent before in the walk) would never end. */
export function checkPageToken(next: string | undefined, sent: readonly string[], req: RequestInfo): void {
  if (next && sent.includes(next)) {
    throw new ProtocolError(`The answer to ${where(req)} repeats a page token it was sent ("${next.length > 40 ? next.slice(0, 40) + '…' : next}"): following it would never end`, req, undefined, {
      problem: 'repeated-page-token',
    });
  }
}

/**
 * A page that cannot be the last one must not end the paging silently (a short list shown as the whole
 * ledger): `why` says what the page before (or this one) promised.
 */
export function pageEndedEarly(req: RequestInfo, why: string): ProtocolError {
  return new ProtocolError(`The answer to ${where(req)} ends the paging early: ${why}`, req, undefined, { problem: 'page-ended-early' });
}

/** `value[key]` must be a number (an offset); else a ProtocolError naming the field. */
export function expectNumber(value: Record<string, unknown>, key: string, req: RequestInfo, what: string): number {
  const v = value[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ProtocolError(`The answer to ${where(req)} has ${describe(v)} at ${key}, expected ${what}`, req, undefined, { problem: 'bad-field', field: key });
  return v;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === undefined) return 'empty';
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? 'an empty list' : 'a list';
  if (typeof v === 'object') return Object.keys(v).length === 0 ? 'an empty object' : 'an object';
  return `a ${typeof v}`;
}
