/**
 * Decodes a JSON array that arrives as a byte stream, element by element, without holding the
 * whole response: a scanner finds the boundaries of the top-level elements (skipping through
 * strings with indexOf) and each element is handed to JSON.parse on its own. Memory is bounded by
 * one chunk plus the largest single element.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

export class JsonStreamError extends Error {
  constructor(message: string, readonly byteOffset: number) {
    super(`${message} (at byte ${byteOffset})`);
    this.name = 'JsonStreamError';
  }
}

export interface JsonArrayStreamOptions {
  /** Largest single element accepted, in bytes (a guard against unbounded buffering). */
  maxElementBytes?: number;
}

/**
 * Yields the elements of a streamed JSON array in batches (one batch per input chunk that completed
 * at least one element). Throws {@link JsonStreamError} on input that is not a JSON array.
 */
export async function* jsonArrayBatches(
  chunks: AsyncIterable<Buffer | Uint8Array | string>,
  opts: JsonArrayStreamOptions = {},
): AsyncGenerator<unknown[]> {
  const maxElementBytes = opts.maxElementBytes ?? 256 * 1024 * 1024;
  /** 0: before `[`; 1: between elements; ≥2: inside an element; -1: after `]`. */
  let depth = 0;
  let inString = false;
  let escapeNext = false;
  /** A scalar element (number, literal, string) is open at depth 1. */
  let inScalar = false;
  /** Pieces of an element that spans chunks. */
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let consumed = 0;

  for await (const raw of chunks) {
    const buf = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    const len = buf.length;
    const batch: unknown[] = [];
    /** Start of the open element within this chunk, or -1 when it began in an earlier chunk / none is open. */
    let start = pending.length > 0 ? 0 : -1;
    const emit = (end: number) => {
      let text: string;
      if (pending.length > 0) {
        pending.push(buf.subarray(0, end));
        text = Buffer.concat(pending).toString('utf8');
        pending = [];
        pendingBytes = 0;
      } else {
        text = buf.toString('utf8', start, end);
      }
      try {
        batch.push(JSON.parse(text));
      } catch (e) {
        throw new JsonStreamError(`Invalid JSON element: ${(e as Error).message}`, consumed + end);
      }
      start = -1;
    };

    let i = 0;
    if (escapeNext && len > 0) {
      i = 1;
      escapeNext = false;
    }
    while (i < len) {
      if (inString) {
        const q = buf.indexOf(QUOTE, i);
        if (q === -1) {
          let n = 0;
          for (let j = len - 1; j >= i && buf[j] === BACKSLASH; j--) n++;
          escapeNext = n % 2 === 1;
          i = len;
          break;
        }
        let n = 0;
        for (let j = q - 1; j >= i && buf[j] === BACKSLASH; j--) n++;
        i = q + 1;
        if (n % 2 === 0) inString = false;
        continue;
      }
      const c = buf[i];
      if (depth >= 2) {
        if (c === QUOTE) inString = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
        else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (--depth === 1) emit(i + 1);
        }
        i++;
        continue;
      }
      if (depth === 1) {
        if (c === COMMA || c === CLOSE_BRACKET) {
          if (inScalar) {
            emit(i);
            inScalar = false;
          }
          if (c === CLOSE_BRACKET) depth = -1;
        } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          start = i;
          depth = 2;
        } else if (!isSpace(c) && !inScalar) {
          start = i;
          inScalar = true;
          if (c === QUOTE) inString = true;
        }
        i++;
        continue;
      }
      if (depth === 0) {
        if (c === OPEN_BRACKET) depth = 1;
        else if (!isSpace(c)) throw new JsonStreamError('Expected a JSON array', consumed + i);
        i++;
        continue;
      }
      // after the closing bracket only white space may follow
      if (!isSpace(c)) throw new JsonStreamError('Unexpected data after the JSON array', consumed + i);
      i++;
    }

    if (start !== -1) {
      // An element is still open: keep its bytes (copied: the stream may reuse its chunk buffers).
      const piece = buf.subarray(start);
      pending.push(Buffer.from(piece));
      pendingBytes += piece.length;
      if (pendingBytes > maxElementBytes) throw new JsonStreamError(`An element is larger than ${maxElementBytes} bytes`, consumed + len);
    }
    consumed += len;
    if (batch.length > 0) yield batch;
  }
  if (depth !== -1) throw new JsonStreamError(depth === 0 ? 'Empty response: expected a JSON array' : 'The JSON array ended early', consumed);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
