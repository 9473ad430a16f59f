/**
 * Time as the participant keeps it: epoch microseconds (Canton works in microseconds, and
 * microseconds since 1970 stay well inside JavaScript's safe integers).
 */

export type Micros = number;

export function microsOf(date: Date): Micros {
  return date.getTime() * 1000;
}

/** The date-time part of the last second formatted: consecutive updates mostly share it. */
let cachedSecond = NaN;
let cachedBase = '';

/** Formats like Java's `Instant.toString`: `Z`, and 0, 3 or 6 fractional digits as precision needs. */
export function formatInstant(micros: Micros): string {
  const seconds = Math.floor(micros / 1_000_000);
  const fraction = micros - seconds * 1_000_000;
  if (seconds !== cachedSecond) {
    cachedSecond = seconds;
    cachedBase = new Date(seconds * 1000).toISOString().slice(0, 19);
  }
  const base = cachedBase;
  if (fraction === 0) return `${base}Z`;
  if (fraction % 1000 === 0) return `${base}.${String(fraction / 1000).padStart(3, '0')}Z`;
  return `${base}.${String(fraction).padStart(6, '0')}Z`;
}

const INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;

/** Parses an ISO instant as `Instant.parse` does (the `Z` is required); sub-microsecond digits are dropped. */
export function parseInstant(text: string): Micros | undefined {
  const m = INSTANT.exec(text);
  if (!m) return undefined;
  const millis = Date.parse(`${m[1]}Z`);
  if (Number.isNaN(millis)) return undefined;
  const micros = Number((m[2] ?? '').padEnd(6, '0').slice(0, 6));
  return millis * 1000 + micros;
}
