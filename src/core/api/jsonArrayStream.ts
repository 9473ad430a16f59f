/**
 * Decodes a JSON array that arrives as a byte stream, element by element, without holding the
 * whole response: memory is bounded by one chunk plus the largest single element.
 *
 * Each chunk is decoded to text (a multi-byte character split between chunks waits for the next
 * one). Two ways find the elements in it, and the benchmark (`npm run bench`) keeps the result about
 * as fast as JSON.parse of the whole body:
 * - A guess, for elements that begin alike (`{"update":` in a list of updates): everything up to the
 *   last `,{"update":` of the text is most likely a run of whole elements, so it goes to JSON.parse
 *   in one call as `[` + text + `]`. That parse succeeds only if the cut really falls between two
 *   elements (a cut inside a string or a nested value is never valid JSON), so a wrong guess costs
 *   one failed parse, and the scanner takes over until the next point between elements.
 * - A scanner that follows strings and nesting to find where each element ends, and hands each
 *   element to JSON.parse on its own. It jumps through strings with String#indexOf (a V8 builtin).
 */
import { StringDecoder } from 'node:string_decoder';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

export type JsonStreamProblem = 'not-an-array' | 'invalid-element' | 'element-too-large' | 'ended-early' | 'data-after-array';

export class JsonStreamError extends Error {
  constructor(
    readonly problem: JsonStreamProblem,
    message: string,
    /** Position in the decoded text (characters from the start of the body). */
    readonly offset: number,
  ) {
    super(`${message} (at character ${offset})`);
    this.name = 'JsonStreamError';
  }
}

export interface JsonArrayStreamOptions {
  /** Largest single element accepted, in characters (a guard against unbounded buffering). */
  maxElementChars?: number;
}

/**
 * Yields the elements of a streamed JSON array in batches (one batch per input chunk that completed
 * at least one element). Throws {@link JsonStreamError} on input that is not a JSON array.
 */
export async function* jsonArrayBatches(
  chunks: AsyncIterable<Buffer | Uint8Array | string>,
  opts: JsonArrayStreamOptions = {},
): AsyncGenerator<unknown[]> {
  const decoder = new StringDecoder('utf8');
  const reader = new JsonArrayReader(opts.maxElementChars ?? 256 * 1024 * 1024);
  for await (const raw of chunks) {
    const batch = reader.push(typeof raw === 'string' ? raw : decoder.write(Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)));
    if (batch.length > 0) yield batch;
  }
  const batch = [...reader.push(decoder.end()), ...reader.end()];
  if (batch.length > 0) yield batch;
}

/** The decoder's state between chunks. */
class JsonArrayReader {
  /** Text not consumed yet. Once the `[` is read, it starts between two elements (or at the first). */
  private text = '';
  /** Characters consumed before `text`, for error positions. */
  private consumed = 0;
  private phase: 'before' | 'elements' | 'after' = 'before';
  /** An element has ended and its comma has not been read yet. */
  private afterElement = false;
  /** A comma was read and its element has not begun yet. */
  private expectingElement = false;
  /** `,` + the way the elements begin (e.g. `,{"update":`); '' when there is no such way; unset until the first element. */
  private separator: string | undefined;
  /** The guess was wrong: the scanner goes on alone until the next point between elements. */
  private guessOff = false;

  // The scanner's progress in `text`, kept across chunks so that a long element is scanned once.
  private pos = 0;
  /** 0: between elements; ≥1: inside a (nested) object or array. */
  private depth = 0;
  private inString = false;
  /** A scalar element (number, literal, string) is open. */
  private inScalar = false;
  /** Where the element being scanned starts in `text`, or -1. */
  private start = -1;

  constructor(private readonly maxElementChars: number) {}

  push(chunk: string): unknown[] {
    const out: unknown[] = [];
    if (!chunk) return out;
    const appendedAt = this.text.length;
    this.text += chunk;
    if (this.phase === 'before' && !this.readOpeningBracket()) return out;
    if (this.phase === 'elements' && !(this.separator && !this.guessOff && this.guess(out, appendedAt))) this.scan(out);
    if (this.phase === 'after') this.readTrailingSpace();
    if (this.start !== -1 && this.text.length - this.start > this.maxElementChars) {
      throw new JsonStreamError('element-too-large', `An element is larger than ${this.maxElementChars} characters`, this.consumed + this.text.length);
    }
    return out;
  }

  /** The elements still in the text (after a guess, the last one waits for this), checking the array ends well. */
  end(): unknown[] {
    const out: unknown[] = [];
    if (this.phase === 'elements') this.scan(out);
    if (this.phase === 'after') {
      this.readTrailingSpace();
      return out;
    }
    throw this.phase === 'before'
      ? new JsonStreamError('not-an-array', 'Empty response: expected a JSON array', this.consumed + this.text.length)
      : new JsonStreamError('ended-early', 'The JSON array ended early', this.consumed + this.text.length);
  }

  private readOpeningBracket(): boolean {
    const i = firstNonSpace(this.text, 0);
    if (i === this.text.length) {
      this.consume(i);
      return false;
    }
    if (this.text.charCodeAt(i) !== OPEN_BRACKET) throw new JsonStreamError('not-an-array', 'Expected a JSON array', this.consumed + i);
    this.phase = 'elements';
    this.consume(i + 1);
    return true;
  }

  private readTrailingSpace(): void {
    const i = firstNonSpace(this.text, this.pos);
    if (i < this.text.length) throw new JsonStreamError('data-after-array', 'Unexpected data after the JSON array', this.consumed + i);
    this.consume(this.text.length);
  }

  /**
   * The guess: parses the text up to the last separator (found in what was just appended) as a run
   * of whole elements. False when there is no separator there, or the parse failed.
   */
  private guess(out: unknown[], appendedAt: number): boolean {
    const sep = this.separator!;
    const from = Math.max(0, appendedAt - sep.length + 1);
    const found = this.text.slice(from).lastIndexOf(sep);
    if (found === -1) return false;
    const cut = from + found;
    let begin = 0;
    if (this.afterElement) {
      begin = firstNonSpace(this.text, 0);
      if (this.text.charCodeAt(begin) !== COMMA) return false;
      begin++;
    }
    if (cut < begin) return false;
    let run: unknown[];
    try {
      run = JSON.parse('[' + this.text.slice(begin, cut) + ']') as unknown[];
    } catch {
      this.guessOff = true;
      return false;
    }
    for (const e of run) out.push(e);
    this.afterElement = false;
    this.expectingElement = true;
    this.resetScanner();
    this.consume(cut + 1);
    return true;
  }

  private scan(out: unknown[]): void {
    const text = this.text;
    const len = text.length;
    let i = this.pos;
    while (i < len) {
      if (this.inString) {
        const q = text.indexOf('"', i);
        if (q === -1) {
          i = len;
          break;
        }
        let backslashes = 0;
        for (let j = q - 1; j >= 0 && text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
        i = q + 1;
        if (backslashes % 2 === 0) {
          this.inString = false;
          if (this.inScalar && this.depth === 0) {
            this.emit(out, i);
            this.inScalar = false;
          }
        }
        continue;
      }
      const c = text.charCodeAt(i);
      if (this.depth > 0) {
        if (c === QUOTE) this.inString = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth++;
        else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (--this.depth === 0) this.emit(out, i + 1);
        }
        i++;
        continue;
      }
      // Between elements, or in a number or literal element.
      if (c === COMMA || c === CLOSE_BRACKET || isSpace(c)) {
        if (this.inScalar) {
          this.emit(out, i);
          this.inScalar = false;
        }
        if (c === COMMA) {
          if (!this.afterElement) throw new JsonStreamError('invalid-element', 'Expected an element before ","', this.consumed + i);
          this.afterElement = false;
          this.expectingElement = true;
        } else if (c === CLOSE_BRACKET) {
          if (this.expectingElement) throw new JsonStreamError('invalid-element', 'Expected an element after ","', this.consumed + i);
          this.phase = 'after';
          i++;
          break;
        }
      } else if (this.start === -1) {
        if (this.afterElement) throw new JsonStreamError('invalid-element', 'Expected "," or "]" after an element', this.consumed + i);
        this.start = i;
        this.expectingElement = false;
        if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth = 1;
        else {
          this.inScalar = true;
          if (c === QUOTE) this.inString = true;
        }
      }
      i++;
    }
    this.pos = i;
    // Drop what is done: keep the text from the open element's start, or nothing when between elements.
    if (this.phase === 'after') return;
    if (this.start === -1) this.consume(i);
    else if (this.start > 0) this.consume(this.start);
  }

  private emit(out: unknown[], end: number): void {
    const element = this.text.slice(this.start, end);
    try {
      out.push(JSON.parse(element));
    } catch (e) {
      throw new JsonStreamError('invalid-element', `Invalid JSON element: ${(e as Error).message}`, this.consumed + end);
    }
    this.start = -1;
    this.afterElement = true;
    this.guessOff = false;
    this.separator ??= separatorOf(element);
  }

  /** Drops the first `n` characters of `text`, moving the scanner's positions with them. */
  private consume(n: number): void {
    if (n === 0) return;
    this.text = this.text.slice(n);
    this.consumed += n;
    this.pos = Math.max(0, this.pos - n);
    if (this.start !== -1) this.start -= n;
  }

  private resetScanner(): void {
    this.pos = 0;
    this.depth = 0;
    this.inString = false;
    this.inScalar = false;
    this.start = -1;
  }
}

/** `,{"key":` for an object element whose first key is short and plain, else '' (no guessing). */
function separatorOf(element: string): string {
  const m = /^\{"[^"\\]{1,64}":/.exec(element);
  return m ? ',' + m[0] : '';
}

function firstNonSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
