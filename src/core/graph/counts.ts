/**
 * A count with the sign of its direction (`+3` created, `−1` consumed). Zero has no direction: it is
 * printed bare, never as `+0` or `−0`, which read as a change that did not happen.
 */
export function signedCount(sign: '+' | '−' | '-', n: number): string {
  return n === 0 ? '0' : `${sign}${n}`;
}
