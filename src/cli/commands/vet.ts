/** `vet FILE.vetting.json`: validate, then vet/unvet packages (or preview it) and print the difference. */
import type * as wire from '../../core/models/wire';
import { expectPositionals, flag } from '../args';
import { EXIT_FAILURE, EXIT_OK, type Command } from '../command';
import { checkFile } from '../files';
import { formatProblem, formatVetting } from '../format';

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
    const checked = await checkFile(file, NAME, 'vetting');
    for (const p of checked.problems) ctx.err(formatProblem(file, p));
    if (checked.hasErrors) {
      ctx.err(`${file}: not sent: fix the errors above.`);
      return EXIT_FAILURE;
    }
    const request = checked.value as wire.UpdateVettedPackagesRequest;
    // --dry-run wins over the file: a preview must never apply, whatever `dryRun` the file holds.
    const body = flag(args.values, 'dry-run') ? { ...request, dryRun: true } : request;
    const result = await ctx.client().updateVettedPackages(body, ctx.callOptions);
    if (ctx.globals.json) await ctx.out(JSON.stringify(result.raw, null, 2));
    else for (const line of formatVetting(result)) await ctx.out(line);
    return EXIT_OK;
  },
};
