/** `acs`: the active contract set at the ledger end or an offset, page by page, grouped by template. */
import type { ActiveContract, ActiveContractsCursor, ActiveContractsQuery } from '../../core/api/client';
import { templateGroup } from '../../core/acs/rows';
import { expectPositionals, integerOption, stringList } from '../args';
import { EXIT_OK, type Command } from '../command';
import { PARTY_DETAILS, PARTY_OPTIONS, resolveReadAs } from '../parties';

const NAME = 'acs';

export const acsCommand: Command = {
  name: NAME,
  synopsis: 'acs [--at N] [--party P]… [--any-party] [--template T]… [--page-size N]',
  summary: 'List the active contracts (at the ledger end or an offset), grouped by template with counts',
  details: [
    '--at N             the active contracts at offset N (default: the ledger end)',
    ...PARTY_DETAILS,
    '--template T       only these templates, as #package-name:Module:Entity (repeatable)',
    '--page-size N      contracts per request (default 100)',
    '--json             one raw created event per line (NDJSON)',
  ],
  options: { at: { type: 'string' }, ...PARTY_OPTIONS, template: { type: 'string', multiple: true }, 'page-size': { type: 'string' } },
  async run(ctx, args) {
    expectPositionals(args, NAME, '', 0);
    const v = args.values;
    const readAs = await resolveReadAs(ctx, v);
    const templateIds = stringList(v, 'template');
    const query: ActiveContractsQuery = {
      filter: { parties: readAs.parties, anyParty: readAs.anyParty, ...(templateIds.length ? { templateIds } : {}) },
      activeAtOffset: integerOption(v, 'at', 0, NAME),
      pageSize: integerOption(v, 'page-size', 1, NAME),
    };
    const groups = new Map<string, ActiveContract[]>();
    let cursor: ActiveContractsQuery | ActiveContractsCursor | undefined = query;
    let offset = 0;
    while (cursor) {
      const page = await ctx.client().pageActiveContracts(cursor, ctx.callOptions);
      offset = page.activeAtOffset;
      for (const c of page.contracts) {
        if (ctx.globals.json) await ctx.out(JSON.stringify(c.event.raw));
        else groups.set(templateGroup(c), [...(groups.get(templateGroup(c)) ?? []), c]);
      }
      cursor = page.next;
    }
    if (ctx.globals.json) return EXIT_OK;
    const total = [...groups.values()].reduce((n, g) => n + g.length, 0);
    await ctx.out(`${total} active contract${total === 1 ? '' : 's'} at offset ${offset}`);
    for (const [template, contracts] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
      await ctx.out(`${template} (${contracts.length})`);
      for (const c of contracts) await ctx.out(`  ${c.event.contractId}  ${JSON.stringify(c.event.createArgument)}`);
    }
    return EXIT_OK;
  },
};
