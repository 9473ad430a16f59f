/** `updates`: walk a range of the update stream page by page, printing as it goes. */
import { legacySelection, type UpdateFilter, type UpdatesSelection } from '../../core/api/updatesRequest';
import type { Update } from '../../core/models/updates';
import { addTrafficCost, type TrafficCostSum } from '../../core/trafficCost';
import { flag, integerOption, expectPositionals, stringList, stringOption, UsageError, type OptionValues } from '../args';
import { EXIT_OK, type Command } from '../command';
import type { CliContext } from '../context';
import { formatUpdate, trafficCostFooter, type ListedUpdate } from '../format';
import { PARTY_DETAILS, PARTY_OPTIONS, resolveReadAs } from '../parties';
import { compareUpdates, wantsCompare } from './updatesCompare';
import { PARTICIPANTS_OPTIONS } from '../participants';

const NAME = 'updates';
const SHAPES = ['acs-delta', 'ledger-effects'] as const;

export const updatesCommand: Command = {
  name: NAME,
  synopsis:
    'updates [--begin N] [--end N] [--party P]… [--any-party] [--template T]… [--shape acs-delta|ledger-effects] ' +
    '[--reassignments] [--topology] [--descending] [--limit N] [--page-size N] [--legacy] [--compare-parties A,B[,C] [--url URL]…]',
  summary: 'List updates (transactions, reassignments, topology) in an offset range',
  details: [
    '--begin N          start after offset N (default 0, the ledger start)',
    '--end N            stop at offset N, inclusive (default: the ledger end when the command starts)',
    ...PARTY_DETAILS,
    '--template T       only these templates, as #package-name:Module:Entity (repeatable)',
    '--shape S          acs-delta (created/archived, default) or ledger-effects (created/exercised)',
    '--reassignments    include reassignments between synchronizers',
    '--topology         include party-to-participant topology events',
    '--descending       newest first (participant 3.5.1+)',
    '--limit N          stop after N updates',
    '--page-size N      updates per request (default 100; the participant caps it, usually at 200)',
    '--legacy           use the deprecated filter/verbose request form (transactions and reassignments)',
    '--json             one raw update per line (NDJSON, as on the wire), for jq',
    '--compare-parties A,B[,C]  read the range once as each party (ledger effects) and show who sees',
    '                   which transaction and event, as stakeholder, actor or witness, and what differs;',
    '                   a party is its full id or, when unique, its hint (Alice). With --json: one JSON object',
    '--url URL          with --compare-parties, repeatable: the parties are read each on its own participant,',
    '                   named as party@participant (its URL, host:port or participant name, e.g. Alice@app-user)',
    '                   or, without @, on the first participant given that hosts it; each participant\'s whole',
    '                   ledger is compared (offsets are each one\'s own, so no --begin/--end), transactions',
    '                   matched by update id. The token for the n-th --url is CANTON_LEDGER_TOKEN_n, else',
    '                   CANTON_LEDGER_TOKEN.',
  ],
  options: {
    begin: { type: 'string' },
    end: { type: 'string' },
    ...PARTY_OPTIONS,
    template: { type: 'string', multiple: true },
    shape: { type: 'string' },
    reassignments: { type: 'boolean' },
    topology: { type: 'boolean' },
    descending: { type: 'boolean' },
    limit: { type: 'string' },
    'page-size': { type: 'string' },
    legacy: { type: 'boolean' },
    'compare-parties': { type: 'string', multiple: true },
    ...PARTICIPANTS_OPTIONS,
  },
  async run(ctx, args) {
    expectPositionals(args, NAME, '', 0);
    const v = args.values;
    const range = rangeOf(v);
    const limit = integerOption(v, 'limit', 1, NAME);
    const pageSizeOption = integerOption(v, 'page-size', 1, NAME);
    if (wantsCompare(v)) return compareUpdates(ctx, v, range, pageSizeOption, NAME);
    if (stringList(v, 'url').length > 1) throw new UsageError('--url is given more than once: only --compare-parties reads several participants', NAME);
    const filterOptions = filterOptionsOf(v);
    const legacy = flag(v, 'legacy');
    if (legacy && (filterOptions.includeTopologyEvents || filterOptions.shape === 'ledger-effects')) {
      throw new UsageError('--legacy reads ACS-delta transactions and reassignments only: drop --topology and --shape ledger-effects', NAME);
    }

    const readAs = await resolveReadAs(ctx, v);
    const filter: UpdateFilter = { ...filterOptions, parties: readAs.parties, anyParty: readAs.anyParty };
    const selection: UpdatesSelection = legacy ? legacySelection(filter) : { filter };
    // No point fetching a full page to print a few updates.
    const pageSize = limit !== undefined ? Math.min(limit, pageSizeOption ?? ctx.client().pageSize) : pageSizeOption;

    let printed = 0;
    const trafficCost: TrafficCostSum = { total: 0, paid: 0, unreported: 0 };
    const footer = async () => {
      if (!ctx.globals.json) for (const line of trafficCostFooter(trafficCost)) await ctx.out(line);
      return EXIT_OK;
    };
    for await (const page of ctx.client().walkUpdates({ selection, ...range, pageSize }, ctx.callOptions)) {
      for (const update of page) {
        if (!isListed(update)) continue;
        await printUpdate(ctx, update);
        if (update.kind === 'transaction' || update.kind === 'reassignment') addTrafficCost(trafficCost, update.paidTrafficCost);
        if (++printed === limit) return footer();
      }
    }
    if (printed === 0 && !ctx.globals.json) ctx.err('No updates in this range for these parties.');
    return footer();
  },
};

function isListed(u: Update): u is ListedUpdate {
  return u.kind !== 'checkpoint';
}

function rangeOf(v: OptionValues): { beginExclusive?: number; endInclusive?: number; descending: boolean } {
  const beginExclusive = integerOption(v, 'begin', 0, NAME);
  const endInclusive = integerOption(v, 'end', 1, NAME);
  if (beginExclusive !== undefined && endInclusive !== undefined && endInclusive < beginExclusive) {
    throw new UsageError(`--end (${endInclusive}) is before --begin (${beginExclusive})`, NAME);
  }
  return { beginExclusive, endInclusive, descending: flag(v, 'descending') };
}

function filterOptionsOf(v: OptionValues): Omit<UpdateFilter, 'parties' | 'anyParty'> {
  const shape = stringOption(v, 'shape') ?? 'acs-delta';
  if (!(SHAPES as readonly string[]).includes(shape)) throw new UsageError(`--shape must be ${SHAPES.join(' or ')}, not "${shape}"`, NAME);
  const templateIds = stringList(v, 'template');
  return {
    shape: shape as (typeof SHAPES)[number],
    templateIds: templateIds.length > 0 ? templateIds : undefined,
    includeReassignments: flag(v, 'reassignments'),
    includeTopologyEvents: flag(v, 'topology'),
  };
}

/** The wire element (`{"update": {"Transaction": {"value": …}}}`) the participant sent for this update. */
function wireElement(u: ListedUpdate): unknown {
  switch (u.kind) {
    case 'transaction':
      return { update: { Transaction: { value: u.raw } } };
    case 'reassignment':
      return { update: { Reassignment: { value: u.raw } } };
    case 'topology':
      return { update: { TopologyTransaction: { value: u.raw } } };
    case 'unknown':
      return u.raw;
  }
}

async function printUpdate(ctx: CliContext, u: ListedUpdate): Promise<void> {
  if (ctx.globals.json) return ctx.out(JSON.stringify(wireElement(u)));
  for (const line of formatUpdate(u)) await ctx.out(line);
}
