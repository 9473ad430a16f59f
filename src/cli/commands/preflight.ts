/** `preflight FILE…`: before sending a commands file, whether every host of its parties has vetted a version of each package it uses. */
import { preflightCommands, preflightPasses, preflightReport } from '../../core/network/preflight';
import { UsageError } from '../args';
import type { Command } from '../command';
import { PARTICIPANTS_OPTIONS, participantsOf } from '../participants';
import { judgeEachFile, kindOfFile, readInput } from '../files';
import { formatProblem } from '../format';

const NAME = 'preflight';

export const preflightCommand: Command = {
  name: NAME,
  synopsis: 'preflight [--url URL]… FILE…',
  summary: 'Check *.commands.json files against the network: the package version Canton will use, or which host lacks it',
  details: [
    'For each package name a file uses, asks the first participant (preferred-packages) which version Canton',
    'will pick for the file\'s parties (actAs, readAs and the parties its arguments name); when none fits, reads',
    'every participant given to say which party, hosted where, lacks which vetting.',
    '--url URL          a participant of the network (repeatable; the first is the one the file is for; default',
    '                   CANTON_LEDGER_URL). The token for the n-th --url is CANTON_LEDGER_TOKEN_n, else CANTON_LEDGER_TOKEN.',
    'Prints file:line:col: severity: message [code] per command that will fail or could not be checked, then a',
    'report per package name. Exit 0 when every command will find its version, 1 when one will fail or could',
    'not be checked (a participant that does not answer, a token that may not read), 2 for unreadable files.',
    '--json             one line per file: {"file", "passes", "packages", "problems", "notes"}',
  ],
  options: PARTICIPANTS_OPTIONS,
  async run(ctx, args) {
    if (args.positionals.length === 0) throw new UsageError('missing FILE', NAME);
    const members = participantsOf(ctx, args.values, NAME).map(({ label, client }) => ({ label, client }));
    return judgeEachFile(ctx, args.positionals, async (file) => {
      kindOfFile(file, NAME, 'commands');
      const result = await preflightCommands(await readInput(file, NAME), members, ctx.callOptions);
      const passes = preflightPasses(result);
      if (ctx.globals.json) {
        await ctx.out(JSON.stringify({ file, passes, packages: result.packages, problems: result.problems, notes: result.notes }, (key, value: unknown) => (key === 'error' && value instanceof Error ? value.message : value)));
      } else {
        for (const p of result.problems.filter((p) => p.severity !== 'info')) await ctx.out(formatProblem(file, p));
        for (const line of preflightReport(file, result)) await ctx.out(line);
      }
      return passes;
    });
  },
};
