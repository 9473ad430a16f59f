/**
 * `updates --compare-parties A,B[,C]`: the same range read as each party, and what each one sees; with
 * `--url` given more than once, each party read on its own participant (`Alice@app-user`, or the first
 * given that hosts it).
 */
import { compareSides, comparisonJson } from '../../core/updates/compare';
import { sidesOnParticipants } from '../../core/updates/compareAcross';
import { participantsOf } from '../participants';
import { stringList, UsageError, type OptionValues } from '../args';
import { EXIT_OK } from '../command';
import type { CliContext } from '../context';
import { formatComparison } from '../format';

/** Options that choose how a single read looks; a comparison reads as each party in the ledger-effects shape. */
const NOT_WITH_COMPARE = ['party', 'any-party', 'template', 'shape', 'reassignments', 'topology', 'descending', 'limit', 'legacy'];

export async function compareUpdates(ctx: CliContext, v: OptionValues, range: { beginExclusive?: number; endInclusive?: number }, pageSize: number | undefined, command: string): Promise<number> {
  const clash = NOT_WITH_COMPARE.find((name) => v[name] !== undefined && v[name] !== false && !(Array.isArray(v[name]) && v[name].length === 0));
  if (clash) throw new UsageError(`--compare-parties reads as each of its parties in the ledger-effects shape: drop --${clash}`, command);
  const names = stringList(v, 'compare-parties').flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  if (new Set(names).size < 2) throw new UsageError('--compare-parties needs at least two different parties, separated by commas (A,B[,C])', command);
  const participants = participantsOf(ctx, v, command);
  const sides = await sidesOnParticipants(names, participants, ctx.callOptions);
  const onProgress = (p: { party: string; transactions: number }) => {
    if (p.transactions === 0) ctx.logger.info(`Reading as ${p.party}`);
  };
  // On several participants each side reads its own participant's whole ledger (offsets are each one's own).
  const comparison = await compareSides(sides, { ...range, pageSize }, { ...ctx.callOptions, onProgress });
  if (ctx.globals.json) {
    await ctx.out(JSON.stringify(comparisonJson(comparison)));
    return EXIT_OK;
  }
  for (const line of formatComparison(comparison)) await ctx.out(line);
  return EXIT_OK;
}

export function wantsCompare(v: OptionValues): boolean {
  return stringList(v, 'compare-parties').length > 0;
}
