/** `graph`: what one transaction did, a contract's lineage, or the net change of a range, drawn as text, Mermaid, DOT or JSON. */
import { parseOffsetRange } from '../../core/updates/compare';
import { exportGraph, exportLineage, GRAPH_FORMATS, type GraphFormat } from '../../core/graph/export';
import { partyLens } from '../../core/graph/lens';
import { walkLineage } from '../../core/graph/lineage';
import { rangeDiff, rangeDiffText } from '../../core/graph/rangeDiff';
import { lineageReaderOf, readTransactionGraph, transactionKeyOf } from '../../core/graph/read';
import { participantDescriptions } from '../../core/compat/descriptions';
import { integerOption, stringOption, UsageError, type OptionValues } from '../args';
import { EXIT_OK, type Command } from '../command';
import type { CliContext } from '../context';
import { PARTY_DETAILS, PARTY_OPTIONS, resolvePartyArgs, resolveReadAs } from '../parties';

const NAME = 'graph';

export const graphCommand: Command = {
  name: NAME,
  synopsis:
    'graph UPDATE_ID|OFFSET | --lineage CONTRACT_ID [--max-distance N] | --diff FIRST..LAST  [--format text|mermaid|dot|json] [--lens PARTY] [--party P]… [--any-party]',
  summary: 'Draw what a transaction did, where a contract came from and went, or what a range changed',
  details: [
    'UPDATE_ID|OFFSET   the transaction, by its update id or its offset',
    '--lineage C        contract C back to where it came from and forward to what it became',
    '--max-distance N   with --lineage: at most N transactions each way (default 10)',
    '--diff FIRST..LAST the net change of the active contracts over offsets FIRST to LAST (both included), per template',
    '--format F         text (default), mermaid (for Markdown), dot (Graphviz), json; --diff: text or json',
    '--lens PARTY       with a transaction: mark what PARTY does not see (full id, or its hint when unique)',
    ...PARTY_DETAILS,
    '--json             the same as --format json',
  ],
  options: { format: { type: 'string' }, lens: { type: 'string' }, lineage: { type: 'string' }, 'max-distance': { type: 'string' }, diff: { type: 'string' }, ...PARTY_OPTIONS },
  async run(ctx, args) {
    const v = args.values;
    const lineage = stringOption(v, 'lineage');
    const diff = stringOption(v, 'diff');
    const chosen = [args.positionals.length > 0, lineage !== undefined, diff !== undefined].filter(Boolean).length;
    if (chosen !== 1 || args.positionals.length > 1) throw new UsageError('give one of: an update id or offset, --lineage CONTRACT_ID, --diff FIRST..LAST', NAME);
    const format = (stringOption(v, 'format') ?? (ctx.globals.json ? 'json' : 'text')) as GraphFormat;
    if (!GRAPH_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${GRAPH_FORMATS.join(', ')}`, NAME);
    if (stringOption(v, 'lens') !== undefined && args.positionals.length === 0) throw new UsageError('--lens goes with a transaction', NAME);
    const maxDistance = integerOption(v, 'max-distance', 1, NAME);
    const readAs = await resolveReadAs(ctx, v);
    const client = ctx.client();
    let text: string;
    if (lineage !== undefined) {
      // The participant's own description says whether it filters updates by contract id (3.8): one read per hop then.
      client.useCompatibility(await participantDescriptions.check(client, (await client.version(ctx.callOptions)).version, ctx.callOptions));
      text = exportLineage(await walkLineage(lineageReaderOf(client, readAs), lineage, { maxDistance }, ctx.callOptions), format);
    } else if (diff !== undefined) {
      if (format !== 'text' && format !== 'json') throw new UsageError('--diff prints text or json', NAME);
      const range = parseOffsetRange(diff, await client.ledgerEnd(ctx.callOptions));
      if ('problem' in range) throw new UsageError(`--diff ${range.problem}`, NAME);
      const d = await rangeDiff(client, range, readAs, ctx.callOptions);
      text = format === 'json' ? JSON.stringify(d, null, 2) : rangeDiffText(d);
    } else {
      const graph = await readTransactionGraph(client, transactionKeyOf(args.positionals[0]), readAs, ctx.callOptions);
      text = exportGraph(graph, format, { lens: await lensOf(ctx, v, graph) });
    }
    await ctx.out(text.replace(/\n$/, ''));
    return EXIT_OK;
  },
};

async function lensOf(ctx: CliContext, v: OptionValues, graph: Parameters<typeof partyLens>[0]) {
  const name = stringOption(v, 'lens');
  return name === undefined ? undefined : partyLens(graph, (await resolvePartyArgs(ctx, [name]))[0]);
}
