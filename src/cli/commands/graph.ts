/** `graph UPDATE`: what one transaction did, as Mermaid, Graphviz DOT, a text tree or JSON. */
import { resolvePartyNames } from '../../core/updates/compare';
import { exportGraph, GRAPH_FORMATS, type GraphFormat } from '../../core/graph/export';
import { partyLens } from '../../core/graph/lens';
import { readTransactionGraph, transactionKeyOf } from '../../core/graph/read';
import { expectPositionals, stringOption, UsageError } from '../args';
import { EXIT_OK, type Command } from '../command';
import { PARTY_DETAILS, PARTY_OPTIONS, resolveReadAs } from '../parties';

const NAME = 'graph';

export const graphCommand: Command = {
  name: NAME,
  synopsis: 'graph UPDATE_ID|OFFSET [--format mermaid|dot|text|json] [--lens PARTY] [--party P]… [--any-party]',
  summary: 'Draw what one transaction did: exercises, creates and the contracts they consumed and created',
  details: [
    'UPDATE_ID|OFFSET   the transaction, by its update id or its offset',
    '--format F         text (default: an indented tree), mermaid (for Markdown), dot (Graphviz), json',
    '--lens PARTY       mark what PARTY does not see (full id, or its hint when unique: Alice)',
    ...PARTY_DETAILS,
    '--json             the same as --format json',
  ],
  options: { format: { type: 'string' }, lens: { type: 'string' }, ...PARTY_OPTIONS },
  async run(ctx, args) {
    const [keyText] = expectPositionals(args, NAME, 'UPDATE_ID|OFFSET', 1);
    const v = args.values;
    const format = (stringOption(v, 'format') ?? (ctx.globals.json ? 'json' : 'text')) as GraphFormat;
    if (!GRAPH_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${GRAPH_FORMATS.join(', ')}`, NAME);
    const readAs = await resolveReadAs(ctx, v);
    const client = ctx.client();
    const graph = await readTransactionGraph(client, transactionKeyOf(keyText), readAs, ctx.callOptions);
    const lensName = stringOption(v, 'lens');
    let lens;
    if (lensName !== undefined) {
      const known = lensName.includes('::') ? [] : (await client.parties(ctx.callOptions)).map((p) => p.party);
      lens = partyLens(graph, resolvePartyNames([lensName], known)[0]);
    }
    await ctx.out(exportGraph(graph, format, { lens }).replace(/\n$/, ''));
    return EXIT_OK;
  },
};
