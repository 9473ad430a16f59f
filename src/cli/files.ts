/** Reading a `*.commands.json` / `*.vetting.json` file and validating it against its schema. */
import { basename } from 'node:path';
import { checkBeforeSending, FILE_KIND_SUFFIXES, fileKindOf, fileKindSuffix, validateText, type FileKind, type Problem } from '../core/files/validate';
import type { ArgumentContext } from '../core/files/argumentChecks';
import { FileRefusedError, MAX_JSON_FILE_BYTES, readRegularFile } from '../core/localFile';
import { UsageError } from './args';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './command';
import type { CliContext } from './context';
import { formatProblem } from './format';


export interface CheckedFile {
  kind: FileKind;
  value: unknown;
  problems: Problem[];
  /** True when a problem has error severity: the file must not be sent. */
  hasErrors: boolean;
}

/** The kind of a file by its name; a usage error when the name says neither, or not `expected`. */
export function kindOfFile(file: string, command: string, expected?: FileKind): FileKind {
  const kind = fileKindOf(basename(file));
  if (!kind) throw new UsageError(`${file}: the name must end in ${FILE_KIND_SUFFIXES.join(' or ')}, so that its kind is known`, command);
  if (expected && kind !== expected) throw new UsageError(`${command} takes a ${fileKindSuffix(expected)} file, not ${file}`, command);
  return kind;
}

/** The file's text as VS Code reads it: UTF-8, a byte-order mark dropped. */
export async function readInput(file: string, command: string): Promise<string> {
  return new TextDecoder().decode(await readUserFile(file, MAX_JSON_FILE_BYTES, command));
}

/** A file the user named: a regular file of at most `maxBytes`, else a usage error that says why. */
export async function readUserFile(file: string, maxBytes: number, command: string): Promise<Uint8Array> {
  try {
    return await readRegularFile(file, maxBytes);
  } catch (e) {
    if (e instanceof FileRefusedError) throw new UsageError(`cannot read ${e.message}`, command);
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code}`, command);
  }
}

/** Reads and validates a file, which must be of kind `expected`. */
export async function checkFile(file: string, command: string, expected?: FileKind, packages?: ArgumentContext): Promise<CheckedFile> {
  const kind = kindOfFile(file, command, expected);
  const { value, problems } = validateText(kind, await readInput(file, command), { packages });
  return { kind, value, problems, hasErrors: problems.some(isError) };
}

/**
 * The file's content when it is valid enough to send; otherwise undefined, after printing each
 * problem and that nothing was sent (warnings are printed too, and do not stop it). `packages`: the
 * participant's, read once the file passes on its own, to refuse a Daml value's placeholder too.
 */
export async function sendableFile(ctx: CliContext, file: string, command: string, kind: FileKind, notDone = 'not sent', packages?: () => Promise<ArgumentContext | undefined>): Promise<unknown | undefined> {
  kindOfFile(file, command, kind);
  const text = await readInput(file, command);
  let checked = checkBeforeSending(kind, text);
  if (packages && !checked.problems.some(isError)) {
    const context = await packages();
    if (context) checked = checkBeforeSending(kind, text, context);
  }
  for (const p of checked.problems) ctx.err(formatProblem(file, p));
  if (!checked.problems.some(isError)) return checked.value;
  ctx.err(`${file}: ${notDone}: fix the errors above.`);
  return undefined;
}

/** The participant's packages, or undefined when they cannot be read (then nothing is checked against them). */
export async function participantPackages(ctx: CliContext): Promise<ArgumentContext | undefined> {
  const state = await ctx.connection().readPackages(ctx.signal);
  return state.state === 'ready' ? state.context : undefined;
}

function isError(p: Problem): boolean {
  return p.severity === 'error';
}

/**
 * Gives each file its own verdict, so that one bad file never hides the others': `judge` says whether
 * a file passes. A file that cannot be read or is of the wrong kind (a UsageError) is said on stderr and
 * makes the run's status EXIT_USAGE; a failing one makes it EXIT_FAILURE unless it is worse already.
 * Any other error ends the run, unless `couldNotCheck` is given: then that file fails with its error.
 */
export async function judgeEachFile(ctx: CliContext, files: readonly string[], judge: (file: string) => Promise<boolean>, o: { couldNotCheck?: boolean } = {}): Promise<number> {
  let status = EXIT_OK;
  const failed = () => {
    if (status === EXIT_OK) status = EXIT_FAILURE;
  };
  for (const file of files) {
    try {
      if (!(await judge(file))) failed();
    } catch (e) {
      if (e instanceof UsageError) {
        ctx.err(`error: ${e.message}`);
        status = EXIT_USAGE;
      } else if (o.couldNotCheck) {
        ctx.err(`${file}: error: could not be checked: ${e instanceof Error ? e.message : String(e)}`);
        failed();
      } else throw e;
    }
  }
  return status;
}
