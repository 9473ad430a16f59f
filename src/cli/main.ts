/**
 * `canton-ledger`: the core from a terminal or CI. `run` does all the work and can be called
 * in-process (tests); the bottom of the file is the executable's wiring of signals and exit status.
 */
import { version } from '../../package.json';
import { Redactor } from '../core/redact';
import { terminalText } from '../core/text';
import { checkedParticipantUrl, flag, integerOption, parseCommandArgs, rejectSecretsOnArgv, splitCommand, stringOption, UsageError, type OptionValues } from './args';
import { EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, type Command } from './command';
import { CliContext, maskSecrets, DEFAULT_URL, TOKEN_ENV, URL_ENV, type CliIo, type Env, type GlobalOptions } from './context';
import { commandHelp, overview } from './help';
import { reportError, type ErrorSink } from './report';
import { acsCommand } from './commands/acs';
import { doctorCommand } from './commands/doctor';
import { eventsCommand } from './commands/events';
import { graphCommand } from './commands/graph';
import { lookupHashCommand } from './commands/lookupHash';
import { mcpCommand } from './commands/mcp';
import { participantCommand } from './commands/participant';
import { pqsCommand } from './commands/pqs';
import { preflightCommand } from './commands/preflight';
import { submitCommand } from './commands/submit';
import { testCommand } from './commands/test';
import { tokenCommand } from './commands/token';
import { updatesCommand } from './commands/updates';
import { uploadDarCommand } from './commands/uploadDar';
import { validateCommand } from './commands/validate';
import { vetCommand } from './commands/vet';

export const COMMANDS: readonly Command[] = [participantCommand, tokenCommand, doctorCommand, updatesCommand, acsCommand, eventsCommand, graphCommand, lookupHashCommand, submitCommand, vetCommand, uploadDarCommand, validateCommand, preflightCommand, pqsCommand, testCommand, mcpCommand];

export type { CliIo, Env };

export async function run(argv: readonly string[], env: Env, io: CliIo): Promise<number> {
  // Until the context exists (parse errors), messages still mask the token.
  const token = env[TOKEN_ENV] || undefined;
  const redactor = new Redactor();
  redactor.register(token);
  let sink: ErrorSink = { err: (line) => void io.stderr.write(terminalText(maskSecrets(line, token ? [token] : [])) + '\n'), redact: (text) => redactor.redact(text) };
  let verbose = false;
  const write = (lines: string[]) => io.stdout.write(lines.join('\n') + '\n');
  try {
    rejectSecretsOnArgv(argv);
    const { command: name, rest } = splitCommand(argv);
    const command = COMMANDS.find((c) => c.name === name);
    if (name !== undefined && !command) throw new UsageError(`unknown command "${name}"; the commands are: ${COMMANDS.map((c) => c.name).join(', ')}`);
    const args = parseCommandArgs(rest, command?.options ?? {}, command?.name);
    verbose = flag(args.values, 'verbose');
    if (flag(args.values, 'version')) {
      write([version]);
      return EXIT_OK;
    }
    if (flag(args.values, 'help')) {
      write(command ? commandHelp(command) : overview(COMMANDS));
      return EXIT_OK;
    }
    if (!command) {
      if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
      io.stderr.write(overview(COMMANDS).join('\n') + '\n');
      return EXIT_USAGE;
    }
    const ctx = new CliContext(io, env, globalOptions(args.values, env), argv);
    sink = ctx;
    return await command.run(ctx, args);
  } catch (e) {
    return reportError(sink, e, {
      tokenSet: token !== undefined,
      verbose,
      usage: (name) => {
        const c = COMMANDS.find((x) => x.name === name);
        return c && `canton-ledger ${c.synopsis}`;
      },
    });
  }
}

function globalOptions(values: OptionValues, env: Env): GlobalOptions {
  const url = checkedParticipantUrl(stringOption(values, 'url') ?? (env[URL_ENV] || DEFAULT_URL));
  const maxResponseMb = integerOption(values, 'max-response-mb', 1);
  return {
    url,
    urlGiven: stringOption(values, 'url') !== undefined || !!env[URL_ENV],
    timeoutMs: integerOption(values, 'timeout', 1),
    maxResponseBytes: maxResponseMb === undefined ? undefined : maxResponseMb * 1024 * 1024,
    json: flag(values, 'json'),
    verbose: flag(values, 'verbose'),
  };
}

/** The executable: Ctrl-C/SIGTERM abort the running command (a second one exits at once). */
function main(): void {
  const interrupt = new AbortController();
  const onSignal = () => {
    if (interrupt.signal.aborted) process.exit(EXIT_INTERRUPTED);
    interrupt.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `canton-ledger updates | head` closes the pipe early: that is not a failure.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? EXIT_OK);
    throw e;
  });
  void run(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr, signal: interrupt.signal }).then((status) => {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    process.exitCode = status;
  });
}

if (require.main === module) main();
