/** `events CONTRACT_ID`: the create and archive events of one contract. */
import { expectPositionals } from '../args';
import { EXIT_OK, type Command } from '../command';
import { formatContractEvents } from '../format';
import { PARTY_DETAILS, PARTY_OPTIONS, resolveReadAs } from '../parties';

const NAME = 'events';

export const eventsCommand: Command = {
  name: NAME,
  synopsis: 'events CONTRACT_ID [--party P]… [--any-party]',
  summary: 'Show how a contract was created and whether it is archived',
  details: [...PARTY_DETAILS, '--json             the raw response'],
  options: { ...PARTY_OPTIONS },
  async run(ctx, args) {
    const [contractId] = expectPositionals(args, NAME, 'CONTRACT_ID', 1);
    const readAs = await resolveReadAs(ctx, args.values);
    const events = await ctx.client().eventsByContractId(contractId, { filter: readAs }, ctx.callOptions);
    if (ctx.globals.json) await ctx.out(JSON.stringify(events.raw, null, 2));
    else for (const line of formatContractEvents(events)) await ctx.out(line);
    return EXIT_OK;
  },
};
