/** `updates --compare-parties A,B[,C]`: the same range read as each party, and what each one sees. */
import { compareParties, comparisonJson } from '../../core/updates/compare';
import { resolvePartyArgs } from '../parties';
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
  const client = ctx.client();
  const parties = await resolvePartyArgs(ctx, names);
  const onProgress = (p: { party: string; transactions: number }) => {
    if (p.transactions === 0) ctx.logger.info(`Reading as ${p.party}`);
  };
  const comparison = await compareParties(client, { parties, ...range, pageSize }, { ...ctx.callOptions, onProgress });
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
