/** `validate FILE…`: check commands and vetting files against their schemas, as CI would. */
import { basename } from 'node:path';
import type { ArgumentContext } from '../../core/files/argumentChecks';
import { MAX_DAR_BYTES } from '../../core/localFile';
import { packagesInUse, unreadableWarning, type PackagesState } from '../../core/ledger/packages';
import { UsageError } from '../args';
import type { CliContext } from '../context';
import type { Command } from '../command';
import { checkFile, judgeEachFile, readUserFile } from '../files';
import { formatProblem } from '../format';

const NAME = 'validate';

export const validateCommand: Command = {
  name: NAME,
  synopsis: 'validate [--dar FILE]… FILE…',
  summary: 'Validate *.commands.json, *.vetting.json and *.ledger.json files',
  details: [
    'Prints file:line:col: severity: message [code] per problem.',
    'Exit 1 if any file has an error-severity problem, 2 if a file is unreadable or of unknown kind.',
    'The Daml arguments (createArguments, choiceArgument, contractKey) are checked against the packages',
    'of the participant at --url (or CANTON_LEDGER_URL) when one is given, else of the --dar files.',
    'A package (or .dar) that cannot be read is named in one warning with its error; the commands on',
    'templates it may hold get "Cannot check", an error here (exit 1; a warning in the editor), and every',
    'other file is checked as usual.',
    '--dar FILE         a .dar whose packages to check against (repeatable)',
    '--json             one line per file: {"file", "kind", "problems"}',
  ],
  options: { dar: { type: 'string', multiple: true } },
  async run(ctx, args) {
    if (args.positionals.length === 0) throw new UsageError(`missing FILE`, NAME);
    const packages = await packagesFor(ctx, (args.values.dar as string[] | undefined) ?? []);
    let sawCommands = false;
    // Every file is checked even after a failure, so that one run reports everything.
    const status = await judgeEachFile(
      ctx,
      args.positionals,
      async (file) => {
        const checked = await checkFile(file, NAME, undefined, packages);
        sawCommands ||= checked.kind === 'commands';
        // A command that could not be checked (its package unreadable) does not pass: CI never passes
        // unchecked. The editor shows it as a warning; here it is an error, so that what is printed and
        // the exit status say the same.
        const problems = checked.problems.map((p) => (p.code === 'package-unreadable' ? { ...p, severity: 'error' as const } : p));
        if (ctx.globals.json) await ctx.out(JSON.stringify({ file, kind: checked.kind, problems }));
        else if (problems.length === 0) await ctx.out(`${file}: ok`);
        else for (const p of problems) await ctx.out(formatProblem(file, p));
        return !problems.some((p) => p.severity === 'error');
      },
      { couldNotCheck: true },
    );
    if (!packages && sawCommands) ctx.err('note: the Daml arguments were not checked: give --url (a participant) or --dar FILE for their packages.');
    return status;
  },
};

/**
 * The packages to check arguments against, chosen as the editor chooses: the participant's (read
 * through its connection), else the DARs'; undefined for none. A participant that was asked for and
 * could not be read fails the run, so that a CI job never passes unchecked.
 */
async function packagesFor(ctx: CliContext, dars: string[]): Promise<ArgumentContext | undefined> {
  const fromParticipant = ctx.globals.urlGiven ? await ctx.connection().readPackages(ctx.signal) : undefined;
  if (fromParticipant?.state === 'failed') throw fromParticipant.error;
  const fromDars = fromParticipant?.state === 'ready' ? undefined : await darPackages(ctx, dars);
  const chosen = packagesInUse(fromParticipant, () => fromDars ?? { state: 'none' });
  if (chosen === 'unavailable' || chosen === undefined) return undefined;
  // Named once for the run; each file that needs one of them says "cannot check".
  if (chosen.unreadable?.length) ctx.err(`warning: ${unreadableWarning(chosen.unreadable, chosen.source)}`);
  return chosen;
}

async function darPackages(ctx: CliContext, dars: string[]): Promise<PackagesState> {
  if (dars.length === 0) return { state: 'none' };
  const files: Array<{ name: string; bytes: Uint8Array }> = [];
  for (const dar of dars) files.push({ name: basename(dar), bytes: await readUserFile(dar, MAX_DAR_BYTES, NAME) });
  // A .dar whose contents cannot be read is named in the warning; the others are checked against.
  const { packages, unreadable } = ctx.packages.fromDars(files);
  return { state: 'ready', context: ctx.packages.context(packages, `in ${dars.map((d) => basename(d)).join(', ')}`, { unreadable }), packageIds: packages.map((p) => p.id) };
}
