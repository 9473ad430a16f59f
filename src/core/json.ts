/**
 * JSON numbers as written. JSON.parse reads every number into a double, so `9007199254740993`
 * becomes …992 and `1e-400` becomes 0; JSON.stringify then sends the changed value. Files keep such
 * numbers as `ExactNumber`s and request bodies are written with `stringifyJson`, which puts their
 * digits back exactly as the user wrote them.
 */
import { randomBytes } from 'node:crypto';

/** A JSON number whose written value a double does not hold; sent with its digits unchanged. */
export class ExactNumber {
  constructor(readonly text: string) {}

  /** The nearest double, for code that only compares or displays. */
  valueOf(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }

  /**
   * Within `stringifyJson`, a mark that its digits then replace: JSON.stringify asks each object for
   * this by itself, where a replacer function would be called for every key of the value. Elsewhere
   * the object as it is.
   */
  toJSON(): unknown {
    return exactNumbersWritten ? `${MARK}${exactNumbersWritten.push(this.text) - 1}` : this;
  }
}

/** The digits of the exact numbers `stringifyJson` is writing (JSON.stringify runs to its end without a turn in between). */
let exactNumbersWritten: string[] | undefined;

/** A decimal number as written: `(-1)^negative × digits × 10^exponent`, digits without leading or trailing zeros ('' is zero). */
export interface Decimal {
  negative: boolean;
  digits: string;
  exponent: number;
}

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** The exact value of a JSON number literal; undefined when `text` is not one. */
export function parseDecimal(text: string): Decimal | undefined {
  const m = NUMBER.exec(text);
  if (!m) return undefined;
  const fraction = m[3] ?? '';
  let digits = (m[2] + fraction).replace(/^0+/, '');
  let exponent = Number(m[4] ?? 0) - fraction.length;
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return digits === '' ? { negative: false, digits: '', exponent: 0 } : { negative: m[1] === '-', digits, exponent };
}

/** Whether the written number is a whole number (`1.0`, `1e2` are; `1e-400`, `0.5` are not). */
export function isWholeNumber(d: Decimal): boolean {
  return d.digits === '' || d.exponent >= 0;
}

/** The whole number `d` as a BigInt (call only when `isWholeNumber(d)`). */
export function wholeNumberValue(d: Decimal): bigint {
  if (d.digits === '') return 0n;
  // The exponent of a huge literal (1e999999) would make a huge BigInt: cap it, the range checks only need "too large".
  const magnitude = BigInt(d.digits) * 10n ** BigInt(Math.min(d.exponent, 400));
  return d.negative ? -magnitude : magnitude;
}

/** Whether JSON.parse followed by JSON.stringify keeps the value of the literal `text`. */
export function survivesDoubles(text: string): boolean {
  const written = parseDecimal(text);
  const asDouble = Number(text);
  if (!written || !Number.isFinite(asDouble)) return false;
  const reread = parseDecimal(numberLiteral(asDouble));
  return !!reread && reread.negative === written.negative && reread.digits === written.digits && reread.exponent === written.exponent;
}

/** `String(n)` in JSON form (`1e+21` → `1e21`). */
function numberLiteral(n: number): string {
  return String(n).replace('e+', 'e');
}

const MARK = `exact-number-${randomBytes(8).toString('hex')}-`;
const MARKED = new RegExp(`"${MARK}(\\d+)"`, 'g');

/** JSON.stringify that writes `ExactNumber`s with their digits as written. */
export function stringifyJson(value: unknown, space?: number): string {
  const exact: string[] = [];
  // A getter or toJSON of the value may itself write JSON with exact numbers: each call keeps its own.
  const outer = exactNumbersWritten;
  exactNumbersWritten = exact;
  let text: string;
  try {
    text = JSON.stringify(value, undefined, space);
  } finally {
    exactNumbersWritten = outer;
  }
  return exact.length === 0 ? text : text.replace(MARKED, (_m, i: string) => exact[Number(i)]);
}
