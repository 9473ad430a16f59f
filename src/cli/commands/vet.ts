/** `vet FILE.vetting.json`: validate, then vet/unvet packages (or preview it) and print the difference. */
import type * as wire from '../../core/models/wire';
import { expectPositionals, flag } from '../args';
import { EXIT_FAILURE, EXIT_OK, type Command } from '../command';
import { sendableFile } from '../files';
import { formatVetting } from '../format';

const NAME = 'vet';

export const vetCommand: Command = {
  name: NAME,
  synopsis: 'vet FILE.vetting.json [--dry-run]',
  summary: 'Vet or unvet packages as a vetting file says, and show what changed',
  details: [
    '--dry-run          preview only: the participant checks the change but applies nothing',
    '--json             the raw response',
    'Needs participant admin rights.',
  ],
  options: { 'dry-run': { type: 'boolean' } },
  async run(ctx, args) {
    const [file] = expectPositionals(args, NAME, 'FILE.vetting.json', 1);
    const content = await sendableFile(ctx, file, NAME, 'vetting');
    if (content === undefined) return EXIT_FAILURE;
    const request = content as wire.UpdateVettedPackagesRequest;
    // --dry-run wins over the file: a preview must never apply, whatever `dryRun` the file holds.
    const body = flag(args.values, 'dry-run') ? { ...request, dryRun: true } : request;
    const result = await ctx.client().updateVettedPackages(body, ctx.callOptions);
    if (ctx.globals.json) await ctx.out(JSON.stringify(result.raw, null, 2));
    else for (const line of formatVetting(result)) await ctx.out(line);
    return EXIT_OK;
  },
};
