/** The shape every subcommand module exports; main.ts dispatches on `name`. */
import type { OptionSpecs, ParsedArgs } from './args';
import type { CliContext } from './context';

export interface Command {
  name: string;
  /** `updates [--begin N] …`, shown in the overview and in `<command> --help`. */
  synopsis: string;
  summary: string;
  /** Option and argument details for `<command> --help`, one line each. */
  details: string[];
  options: OptionSpecs;
  /** Returns the exit status. Throws UsageError, LedgerError or FileError; main.ts reports them. */
  run(ctx: CliContext, args: ParsedArgs): Promise<number>;
}

export const EXIT_OK = 0;
/** API, validation or I/O failure. */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
/** A write was sent and no definite answer came back (and no look-up settled it): it may or may not have happened. */
export const EXIT_OUTCOME_UNKNOWN = 3;
/** `doctor`: the participant ignores something we send, or does not declare an answer field we read. */
export const EXIT_LIMITED = 4;
/** `doctor`: the participant would refuse some of our requests (they are not sent). */
export const EXIT_INCOMPATIBLE = 5;
/** 128 + SIGINT, as shells report a process ended by Ctrl-C. */
export const EXIT_INTERRUPTED = 130;
