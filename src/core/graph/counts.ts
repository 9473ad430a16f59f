import { plural } from '../text';

/**
 * A count with the sign of its direction (`+3` created, `−1` consumed). Zero has no direction: it is
 * printed bare, never as `+0` or `−0`, which read as a change that did not happen.
 */
export function signedCount(sign: '+' | '−' | '-', n: number): string {
  return n === 0 ? '0' : `${sign}${n}`;
}

/** How many actions and new contract ids a comparison paired, and what it left out (never committed). */
export interface ComparisonCounts {
  matchedActions: number;
  matchedContractIds: number;
  notCompared: { fetches: number; rolledBack: number };
}

/**
 * What a comparison of a preview with its committed transaction matched and left out, in the one
 * wording its text report and its drawing's legend share.
 */
export function comparisonCountsText(c: ComparisonCounts): string[] {
  const { fetches, rolledBack } = c.notCompared;
  const skipped = [fetches ? plural(fetches, 'fetch', 'fetches') : '', rolledBack ? plural(rolledBack, 'rolled-back action') : ''].filter(Boolean);
  return [`${plural(c.matchedActions, 'action')} matched`, `${plural(c.matchedContractIds, 'new contract id')} matched`, ...(skipped.length ? [`not compared (never committed): ${skipped.join(', ')}`] : [])];
}
