/** Package versions, kept apart from the decoder so that light users (the simulator) do not load it. */

/**
 * Compares Daml package versions (`1.0.0`, `0.1.14`) part by part, numerically; negative when `a` is lower.
 * Parts that are not numbers compare as text.
 */
export function comparePackageVersions(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const [x, y] = [pa[i] ?? '0', pb[i] ?? '0'];
    const d = /^\d+$/.test(x) && /^\d+$/.test(y) ? Number(x) - Number(y) : x.localeCompare(y);
    if (d !== 0) return d;
  }
  return 0;
}
