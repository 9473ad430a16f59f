/** `validate FILE…`: check commands and vetting files against their schemas, as CI would. */
import { UsageError } from '../args';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type Command } from '../command';
import { checkFile } from '../files';
import { formatProblem } from '../format';

const NAME = 'validate';

export const validateCommand: Command = {
  name: NAME,
  synopsis: 'validate FILE…',
  summary: 'Validate *.commands.json and *.vetting.json files',
  details: [
    'Prints file:line:col: severity: message [code] per problem.',
    'Exit 1 if any file has an error-severity problem, 2 if a file is unreadable or of unknown kind.',
    '--json             one line per file: {"file", "kind", "problems"}',
  ],
  options: {},
  async run(ctx, args) {
    if (args.positionals.length === 0) throw new UsageError(`missing FILE`, NAME);
    let status = EXIT_OK;
    // Every file is checked even after a failure, so that one run reports everything.
    for (const file of args.positionals) {
      let checked;
      try {
        checked = await checkFile(file, NAME);
      } catch (e) {
        // Each file gets its own verdict: one that cannot be checked does not end the batch.
        if (e instanceof UsageError) {
          ctx.err(`error: ${e.message}`);
          status = EXIT_USAGE;
        } else {
          ctx.err(`${file}: error: could not be checked: ${e instanceof Error ? e.message : String(e)}`);
          if (status === EXIT_OK) status = EXIT_FAILURE;
        }
        continue;
      }
      if (checked.hasErrors && status === EXIT_OK) status = EXIT_FAILURE;
      if (ctx.globals.json) await ctx.out(JSON.stringify({ file, kind: checked.kind, problems: checked.problems }));
      else if (checked.problems.length === 0) await ctx.out(`${file}: ok`);
      else for (const p of checked.problems) await ctx.out(formatProblem(file, p));
    }
    return status;
  },
};
