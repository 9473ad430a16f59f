/** `preflight FILE…`: before sending a commands file, whether every host of its parties has vetted a version of each package it uses. */
import { basename } from 'node:path';
import { preflightCommands, preflightPasses, preflightReport } from '../../core/network/preflight';
import type { NetworkMember } from '../../core/network/model';
import { checkedParticipantUrl, stringList, UsageError } from '../args';
import type { Command } from '../command';
import { TOKEN_ENV, type CliContext } from '../context';
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
  // Repeatable here, unlike the other commands' single participant.
  options: { url: { type: 'string', multiple: true } },
  async run(ctx, args) {
    if (args.positionals.length === 0) throw new UsageError('missing FILE', NAME);
    const members = membersOf(ctx, stringList(args.values, 'url'));
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

/** The participants to read: each --url with its token (CANTON_LEDGER_TOKEN_n, else CANTON_LEDGER_TOKEN), else the one URL of the run. */
function membersOf(ctx: CliContext, urls: string[]): NetworkMember[] {
  if (urls.length === 0) return [{ label: labelOf(ctx.globals.url), client: ctx.client() }];
  return urls.map((url, i) => {
    checkedParticipantUrl(url, NAME);
    const token = ctx.env[`${TOKEN_ENV}_${i + 1}`] || ctx.token;
    return { label: labelOf(url), client: ctx.clientFor(url, token) };
  });
}

function labelOf(url: string): string {
  const u = new URL(url);
  return basename(u.pathname) ? `${u.host}${u.pathname.replace(/\/$/, '')}` : u.host;
}
