/**
 * Command-line parsing on top of `node:util` parseArgs: finding the command among the global options,
 * refusing secrets on argv, and turning parse failures and bad numbers into usage errors (exit 2).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface ParsedArgs {
  values: OptionValues;
  positionals: string[];
}

/** Wrong use of the command line: exit status 2, with the usage of the command when it is known. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage to show, if any. */
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A participant's URL as given (--url, CANTON_LEDGER_URL): refused unless it is http or https. */
export function checkedParticipantUrl(url: string, command?: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`not a URL: ${url}`, command);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`the participant URL must be http or https, not ${parsed.protocol}`, command);
  return url;
}

/** Options every command accepts. */
export const GLOBAL_OPTIONS = {
  url: { type: 'string' },
  timeout: { type: 'string' },
  'max-response-mb': { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const satisfies OptionSpecs;

/**
 * Options that would put a secret on the command line, where `ps` shows it to every local user and
 * shell history keeps it. They are refused by name, before parsing, so the value is never echoed.
 */
const SECRET_OPTIONS: Record<string, string> = {
  '--token':
    '--token is not accepted: a token on the command line is visible to other users (ps) and is kept in shell history.\n' +
    'Set it in the environment instead: export CANTON_LEDGER_TOKEN="$(cat token.jwt)"',
  '--auth-secret':
    '--auth-secret is not accepted: a secret on the command line is visible to other users (ps) and is kept in shell history.\n' +
    'Put it in the environment (export CANTON_LEDGER_AUTH_SECRET=…) or in a file readable only by you (--auth-secret-file FILE).',
};

export function rejectSecretsOnArgv(argv: readonly string[]): void {
  for (const arg of argv) {
    if (arg === '--') return;
    const name = arg.split('=', 1)[0];
    if (name in SECRET_OPTIONS) throw new UsageError(SECRET_OPTIONS[name]);
  }
}

/**
 * The command name: the first argument that is neither a global option nor the value of one
 * (`--url X updates` and `updates --url X` both work). Returns the arguments without it.
 */
export function splitCommand(argv: readonly string[]): { command?: string; rest: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    if (!arg.startsWith('-') || arg === '-') return { command: arg, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
    const name = arg.replace(/^--?/, '').split('=', 1)[0];
    const spec = Object.entries(GLOBAL_OPTIONS as OptionSpecs).find(([long, o]) => long === name || o.short === name)?.[1];
    if (!spec) break; // a command option before any command: parsing reports it
    // A string-valued global option without `=` consumes the next argument.
    if (spec.type === 'string' && !arg.includes('=')) i++;
  }
  return { rest: [...argv] };
}

/** Strict parseArgs with the global options merged in; failures become usage errors of `command`. */
export function parseCommandArgs(argv: readonly string[], options: OptionSpecs, command?: string): ParsedArgs {
  const all: OptionSpecs = { ...GLOBAL_OPTIONS, ...options };
  try {
    const { values, positionals } = parseArgs({
      args: negativeValuesJoined(argv, all),
      options: all,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as OptionValues, positionals };
  } catch (e) {
    // parseArgs errors carry ERR_PARSE_ARGS_* codes and messages that name the offending option.
    const code = (e as { code?: string }).code ?? '';
    if (code.startsWith('ERR_PARSE_ARGS_')) throw new UsageError((e as Error).message, command);
    throw e;
  }
}

/**
 * `--at -1` as `--at=-1`: parseArgs takes a value that starts with a dash for an option ("argument is
 * ambiguous"), where the number's own check says what is wrong with it.
 */
function negativeValuesJoined(argv: readonly string[], options: OptionSpecs): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') return [...out, ...argv.slice(i)];
    const name = /^--([^=]+)$/.exec(arg)?.[1];
    if (name !== undefined && options[name]?.type === 'string' && /^-\d/.test(argv[i + 1] ?? '')) {
      out.push(`${arg}=${argv[++i]}`);
      continue;
    }
    out.push(arg);
  }
  return out;
}

export function stringOption(values: OptionValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

export function stringList(values: OptionValues, name: string): string[] {
  const v = values[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
}

export function flag(values: OptionValues, name: string): boolean {
  return values[name] === true;
}

/** A decimal integer option within bounds; anything else (`1e3`, `12abc`, `-1`) is a usage error. */
export function integerOption(values: OptionValues, name: string, min: number, command?: string): number | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} needs an integer ≥ ${min}, not "${raw}"`, command);
  return n;
}

/** Checks the number of positional arguments of a command. */
export function expectPositionals(args: ParsedArgs, command: string, names: string, min: number, max = min): string[] {
  const p = args.positionals;
  if (p.length < min) throw new UsageError(`missing ${names}`, command);
  if (p.length > max) throw new UsageError(`unexpected argument "${p[max]}"`, command);
  return p;
}
