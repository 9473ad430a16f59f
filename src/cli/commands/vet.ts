/**
 * `vet FILE.vetting.json`: validate, then vet/unvet packages (or preview it) and print the difference.
 * An apply is pinned to the topology serial it was checked against, so that when its answer is lost
 * the printed retry fails instead of applying twice.
 */
import { CancelledError, type LedgerError } from '../../core/errors';
import { isEmptyDiff } from '../../core/models/vetting';
import type * as wire from '../../core/models/wire';
import { diffSummary, expectedSerialValue, pinnedSerial, sendVetting, vettingRequestOf, type VettingLookUp, type VettingOutcome } from '../../core/submit/vetting';
import { expectPositionals, flag, integerOption } from '../args';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTCOME_UNKNOWN, type Command } from '../command';
import type { CliContext } from '../context';
import { sendableFile } from '../files';
import { formatVetting } from '../format';
import { describeLedgerError } from '../report';
import { reportOutcomeUnknown, retryCommandLines } from '../retry';

const NAME = 'vet';

export const vetCommand: Command = {
  name: NAME,
  synopsis: 'vet FILE.vetting.json [--dry-run] [--expected-serial N]',
  summary: 'Vet or unvet packages as a vetting file says, and show what changed',
  details: [
    '--dry-run          preview only: the participant checks the change but applies nothing',
    '                   (this flag chooses, as the editor\'s Dry Run and Apply do: a dryRun field',
    '                   in the file is not read)',
    '--expected-serial N  apply only if the topology serial is still N (0: no vetting yet), as',
    '                   expectedTopologySerial in the file does. An apply is checked first (a dry',
    '                   run) and, without either, applied pinned to the serial it was checked',
    '                   against: the requests the editor sends for the same file',
    '--json             the raw response',
    'Needs participant admin rights.',
    'An apply whose answer is lost (timeout, dropped connection) is reported as an unknown outcome,',
    'never retried automatically, and the state is looked at (a dry run of the file): when the change',
    'is in place it says "already applied" (exit 0), else it prints a retry pinned to the serial',
    'before the attempt (exit 3), which cannot apply twice: a pinned apply refused because the serial',
    'moved on, where the state already is as the file says, is "already applied" too (exit 0).',
  ],
  options: { 'dry-run': { type: 'boolean' }, 'expected-serial': { type: 'string' } },
  async run(ctx, args) {
    const [fileArg] = expectPositionals(args, NAME, 'FILE.vetting.json', 1);
    const expectedOption = integerOption(args.values, 'expected-serial', 0, NAME);
    const content = await sendableFile(ctx, fileArg, NAME, 'vetting');
    if (content === undefined) return EXIT_FAILURE;
    let file = content as wire.UpdateVettedPackagesRequest;
    // The command chooses, as in the editor (Dry Run / Apply): the file's own `dryRun` is not read.
    const mode = flag(args.values, 'dry-run') ? 'dry-run' : 'apply';
    if (expectedOption !== undefined) file = { ...file, expectedTopologySerial: expectedSerialValue(expectedOption) };
    const connection = ctx.connection();
    const pinnedHere = pinnedSerial(file.expectedTopologySerial) === undefined;
    // The check is a dry run (a read); the apply is a write, through the connection.
    let outcome: VettingOutcome = await sendVetting(connection.client, vettingRequestOf(file, 'dry-run'), ctx.signal);
    let request: wire.UpdateVettedPackagesRequest | undefined;
    // An apply is checked first and applies exactly that: the serial the check started from pins it.
    // A change that changes nothing is not applied (as in the editor): the check says so.
    if (mode === 'apply' && outcome.kind === 'done' && isEmptyDiff(outcome.result.diff)) ctx.err(`${fileArg}: nothing to apply: the vetted packages already are as it says.`);
    else if (mode === 'apply' && outcome.kind === 'done') {
      request = vettingRequestOf(file, 'apply', outcome.result.past?.topologySerial ?? 0);
      const apply = request;
      outcome = await connection.write('vetting', (client, signal) => sendVetting(client, apply, signal), { signal: ctx.signal });
    }
    switch (outcome.kind) {
      case 'done':
        if (ctx.globals.json) await ctx.out(JSON.stringify(outcome.result.raw, null, 2));
        else for (const line of formatVetting(outcome.result)) await ctx.out(line);
        return EXIT_OK;
      case 'unknown': {
        if (outcome.lookUp.found === 'applied') {
          reportOutcomeUnknown(ctx, outcome.error, [`The vetting change of ${fileArg} may or may not have been applied by this attempt: no definite answer came back.`, alreadyAppliedText(fileArg, outcome.lookUp.current.next.topologySerial)]);
          return EXIT_OK;
        }
        reportUnknownApply(ctx, outcome.error, fileArg, pinnedSerial(outcome.retry.request.expectedTopologySerial) ?? 0, pinnedHere, outcome.lookUp);
        return outcome.error instanceof CancelledError ? EXIT_INTERRUPTED : EXIT_OUTCOME_UNKNOWN;
      }
      case 'already-applied':
        ctx.err(`${alreadyAppliedText(fileArg, outcome.current.next.topologySerial)} (Refused with ${outcome.error.code}: the serial it was pinned to had moved on.)`);
        return EXIT_OK;
      case 'failed': {
        const e = outcome.error;
        if (outcome.failure?.kind !== 'serial-mismatch') throw e;
        const serial = pinnedSerial((request ?? file).expectedTopologySerial);
        for (const line of describeLedgerError(e, ctx.token !== undefined, (t) => ctx.redact(t))) ctx.err(line);
        ctx.err(
          pinnedHere
            ? `The vetting state changed between the check (serial ${serial}) and the apply; nothing was applied. Run the command again to check against the new state.`
            : `Nothing was applied: the topology serial is no longer ${serial}, and the vetted packages are not as ${fileArg} says (another change was made meanwhile). See the current state with: canton-ledger vet ${fileArg} --dry-run`,
        );
        return EXIT_FAILURE;
      }
    }
  },
};

/** "Already applied": the answer to a retry (or a lost answer) when the state already is as the file says. */
function alreadyAppliedText(file: string, serial: number): string {
  return `Already applied: the vetted packages already are as ${file} says (topology serial ${serial}); nothing was applied twice.`;
}

function reportUnknownApply(ctx: CliContext, e: LedgerError, file: string, serial: number, pinnedHere: boolean, lookUp: VettingLookUp): void {
  const retry = pinnedHere ? retryCommandLines(ctx, ['--expected-serial', String(serial)]) : retryCommandLines(ctx);
  const seen =
    lookUp.found === 'not-applied'
      ? `A dry run now shows the change not in place (yet: the participant may still be applying it): it would still make ${diffSummary(lookUp.current.diff)}.`
      : `Whether it is in place could not be checked (${lookUp.found === 'not-checked' ? lookUp.error.message : ''}).`;
  reportOutcomeUnknown(ctx, e, [
    `The vetting change of ${file} may or may not have been applied: the request may have reached the participant, but no definite answer came back.`,
    seen,
    `To see whether it is now: canton-ledger vet ${file} --dry-run  (the current topology serial; "No change to the vetted packages" means it is in place)`,
    'To retry safely, run:',
    ...retry,
    `It is pinned to topology serial ${serial}, the state before this attempt: if the first attempt went through, the retry says "already applied" instead of applying twice.`,
  ]);
}
