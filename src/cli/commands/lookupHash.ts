/** `lookup-hash HASH`: an externally signed transaction and its command's completions, by transaction hash (3.6+). */
import type { Completion } from '../../core/models/completions';
import { lookUpByHash } from '../../core/updates/byHash';
import { expectPositionals } from '../args';
import { EXIT_FAILURE, EXIT_OK, type Command } from '../command';
import { formatUpdate, shortId } from '../format';
import { PARTY_DETAILS, PARTY_OPTIONS, resolveReadAs } from '../parties';

const NAME = 'lookup-hash';

function completionLine(c: Completion): string {
  const outcome = c.status && c.status.code !== 0 ? `rejected (${c.status.code}) ${c.status.message}` : `accepted, update ${c.updateId ? shortId(c.updateId) : '-'}`;
  return `  ${String(c.offset).padEnd(8)} cmd ${c.commandId}  submission ${c.submissionId ?? '-'}  ${outcome}`;
}

export const lookupHashCommand: Command = {
  name: NAME,
  synopsis: 'lookup-hash HASH [--party P]… [--any-party]',
  summary: 'Find an externally signed transaction and its completions by transaction hash (Canton 3.6+)',
  details: [
    'HASH               the transaction hash, hex (as transactions show externalTransactionHash) or base64',
    ...PARTY_DETAILS,
    '--json             the raw responses: {"update": …, "completions": …}',
    'Only transactions committed since the upgrade to 3.6 are found; exit code 1 when nothing is.',
  ],
  options: { ...PARTY_OPTIONS },
  async run(ctx, args) {
    const [hash] = expectPositionals(args, NAME, 'HASH', 1);
    const readAs = await resolveReadAs(ctx, args.values);
    const found = await lookUpByHash(ctx.client(), hash, readAs, ctx.callOptions);
    if (ctx.globals.json) {
      await ctx.out(JSON.stringify({ update: found.update?.raw ?? null, completions: found.completions ? { accepted: found.completions.accepted?.raw ?? null, rejected: found.completions.rejected.map((c) => c.raw) } : null }, null, 2));
    } else {
      if (found.update && found.update.kind !== 'checkpoint') for (const line of formatUpdate(found.update)) await ctx.out(line);
      else await ctx.out('No update with this transaction hash is visible.');
      const c = found.completions;
      if (c && (c.accepted || c.rejected.length > 0)) {
        await ctx.out('Completions:');
        for (const completion of [...(c.accepted ? [c.accepted] : []), ...c.rejected]) await ctx.out(completionLine(completion));
      } else await ctx.out('No completion with this transaction hash is visible.');
    }
    return found.update || found.completions ? EXIT_OK : EXIT_FAILURE;
  },
};
