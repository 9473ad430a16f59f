/**
 * The size bounds of tool results: a model reads every character of a result, so a result is a page
 * with counts and how to get the next, never the whole ledger.
 */
import { Redactor } from '../redact';

/** Items in one page of any list a tool returns. */
export const MAX_PAGE = 50;
/** The default page: enough to see a pattern, small enough to read. */
export const DEFAULT_PAGE = 20;
/** A result's text at most; past it, cut with a line that says so. */
export const MAX_RESULT_TEXT = 24_000;
/** A result's data (as JSON) at most; past it, the data is replaced by a note (the text still carries the page). */
export const MAX_RESULT_DATA = 64_000;
/** One Daml value (a contract's argument) in a line of text. */
export const MAX_VALUE_TEXT = 400;

/**
 * Credential shapes (JWTs, bearer credentials, secret fields) masked before any text is cut: a cut
 * through a token would leave a piece the shapes no longer match. Exact secrets are masked after, cut
 * or not (`invoke.ts`).
 */
const shapes = new Redactor();

/** The value as one line of JSON, cut to `max` characters. */
export function valueText(value: unknown, max = MAX_VALUE_TEXT): string {
  const text = shapes.redact(JSON.stringify(value) ?? 'undefined');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The text cut at `max` characters on a line boundary, with a line that says how much was left out. */
export function boundedText(whole: string, max = MAX_RESULT_TEXT): string {
  if (whole.length <= max) return whole;
  const text = shapes.redact(whole);
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  const kept = text.slice(0, cut > max / 2 ? cut : max);
  return `${kept}\n… (${text.length - kept.length} more characters left out: ask for a smaller page or a narrower filter)`;
}

/** The data, or a note in its place when its JSON is larger than `max` characters. */
export function boundedData(data: unknown, max = MAX_RESULT_DATA): unknown {
  const json = JSON.stringify(data) ?? 'null';
  if (json.length <= max) return data;
  return { truncated: true, characters: json.length, note: 'The structured data was too large for one result and is left out; the text carries the page. Ask for a smaller page.' };
}

/** "1 contract", "3 contracts". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
