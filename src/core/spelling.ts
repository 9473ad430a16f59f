/** "Did you mean …?" for misspelt names: fields, variants, constructors, templates. */

/**
 * The known name closest to `name`: a case-insensitive match, else the one within a small edit distance
 * (1 for short names, 2 from 6 characters on), so that `workflowID`, `comandId` and `readsAs` get a suggestion
 * but unrelated names don't.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const budget = name.length >= 6 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = budget + 1;
  for (const candidate of candidates) {
    const candidateLower = candidate.toLowerCase();
    if (candidateLower === lower) return candidate;
    if (Math.abs(candidate.length - name.length) > budget) continue;
    const distance = editDistance(lower, candidateLower, bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal-string-alignment distance (Levenshtein plus adjacent swaps); stops early once it exceeds `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  let previousPrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, previousPrevious[j - 2] + 1);
      }
      current[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return rowMin;
    previousPrevious = previous;
    previous = current;
  }
  return previous[b.length];
}

/**
 * How far apart two names are, for ranking (not for "did you mean"): 0 when one holds the other
 * (`validator`, `validatorParty`), else their edit distance, case ignored.
 */
export function nameDistance(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x.includes(y) || y.includes(x)) return 0;
  return editDistance(x, y);
}
