/**
 * Runs a command of a given list, as an executable does: parses the arguments, builds the context,
 * reports errors with their exit status, and wires Ctrl-C and a closed pipe. `canton-ledger`
 * (main.ts) runs it over every command; the MCP server's own bundle (mcpMain.ts) over `mcp` alone,
 * so that bundle holds no other command's code.
 */
import { version } from '../../package.json';
import { Redactor } from '../core/redact';
import { terminalText } from '../core/text';
import { checkedParticipantUrl, flag, integerOption, parseCommandArgs, rejectSecretsOnArgv, splitCommand, stringList, UsageError, type OptionValues } from './args';
import { EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, type Command } from './command';
import { CliContext, maskSecrets, DEFAULT_URL, TOKEN_ENV, URL_ENV, type CliIo, type Env, type GlobalOptions } from './context';
import { commandHelp, overview } from './help';
import { reportError, type ErrorSink } from './report';

export type { CliIo, Env };

export type CliRun = (argv: readonly string[], env: Env, io: CliIo) => Promise<number>;

export async function runCommand(commands: readonly Command[], argv: readonly string[], env: Env, io: CliIo): Promise<number> {
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
    const command = commands.find((c) => c.name === name);
    if (name !== undefined && !command) throw new UsageError(`unknown command "${name}"; the commands are: ${commands.map((c) => c.name).join(', ')}`);
    const args = parseCommandArgs(rest, command?.options ?? {}, command?.name);
    verbose = flag(args.values, 'verbose');
    if (flag(args.values, 'version')) {
      write([version]);
      return EXIT_OK;
    }
    if (flag(args.values, 'help')) {
      write(command ? commandHelp(command) : overview(commands));
      return EXIT_OK;
    }
    if (!command) {
      if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
      io.stderr.write(overview(commands).join('\n') + '\n');
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
        const c = commands.find((x) => x.name === name);
        return c && `canton-ledger ${c.synopsis}`;
      },
    });
  }
}

function globalOptions(values: OptionValues, env: Env): GlobalOptions {
  // A command that reads several participants takes --url repeatedly: the first is the run's own.
  const given = stringList(values, 'url')[0];
  const url = checkedParticipantUrl(given ?? (env[URL_ENV] || DEFAULT_URL));
  const maxResponseMb = integerOption(values, 'max-response-mb', 1);
  return {
    url,
    urlGiven: given !== undefined || !!env[URL_ENV],
    timeoutMs: integerOption(values, 'timeout', 1),
    maxResponseBytes: maxResponseMb === undefined ? undefined : maxResponseMb * 1024 * 1024,
    json: flag(values, 'json'),
    verbose: flag(values, 'verbose'),
  };
}

/** The executable: Ctrl-C/SIGTERM abort the running command (a second one exits at once). */
export function runExecutable(run: CliRun): void {
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
