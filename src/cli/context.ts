/**
 * What a command runs with: the output streams, the environment, the global options, the Ctrl-C
 * signal, and a lazily built LedgerConnection (and its LedgerClient) whose token comes only from the
 * environment.
 */
import { LedgerClient } from '../core/api/client';
import type { CallOptions } from '../core/api/http';
import { PackageCache, PackageIndex } from '../core/daml/packageIndex';
import { readDar } from '../core/daml/lf/archive';
import { LedgerConnection } from '../core/ledger/connection';
import { PackageStore } from '../core/ledger/packages';
import type { Logger } from '../core/log';
import { Redactor, REDACTION_MASK } from '../core/redact';
import { terminalText } from '../core/text';
import { TOKEN_ENV } from '../core/cliEnvironment';

export const DEFAULT_URL = 'http://127.0.0.1:7575';
export { TOKEN_ENV, URL_ENV } from '../core/cliEnvironment';

export type Env = Readonly<Record<string, string | undefined>>;

export interface CliIo {
  /** What a command that reads its input from stdin reads (`mcp`); default the process's. */
  stdin?: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Aborted on Ctrl-C / SIGTERM: in-flight requests are cancelled, a running participant closes. */
  signal?: AbortSignal;
}

export interface GlobalOptions {
  url: string;
  /** The URL was given (`--url` or the environment), not the default: commands that may work offline ask the participant only then. */
  urlGiven?: boolean;
  timeoutMs?: number;
  /** Largest answer held in memory, in bytes (default: the core's). */
  maxResponseBytes?: number;
  json: boolean;
  verbose: boolean;
}

export class CliContext {
  private readonly redactor = new Redactor();
  readonly logger: Logger;
  /** The token from the environment; undefined when unset or empty. */
  readonly token?: string;
  /** Exact secrets to mask in every line written (the token, a shared secret). */
  private readonly secrets = new Set<string>();
  private ledgerClient?: LedgerClient;
  private ledgerConnection?: LedgerConnection;
  private store?: PackageStore;

  constructor(
    readonly io: CliIo,
    readonly env: Env,
    readonly globals: GlobalOptions,
    /** The arguments as given, for "run this again" instructions. */
    readonly argv: readonly string[],
  ) {
    this.token = env[TOKEN_ENV] || undefined;
    this.registerSecret(this.token);
    this.logger = stderrLogger(this, globals.verbose);
  }

  get signal(): AbortSignal | undefined {
    return this.io.signal;
  }

  get callOptions(): CallOptions {
    return { signal: this.io.signal };
  }

  client(): LedgerClient {
    this.ledgerClient ??= this.clientFor(this.globals.url, this.token);
    return this.ledgerClient;
  }

  /** A client for another participant (a command that reads several), with this run's deadline, log and redaction. */
  clientFor(url: string, token: string | undefined): LedgerClient {
    this.registerSecret(token);
    return new LedgerClient({
      baseUrl: url,
      token: token === undefined ? undefined : async () => token,
      timeoutMs: this.globals.timeoutMs,
      maxResponseBytes: this.globals.maxResponseBytes,
      logger: this.logger,
      redactor: this.redactor,
    });
  }

  /** The participant at the URL as the editor holds one: its packages are read through it. */
  connection(): LedgerConnection {
    const url = this.globals.url;
    this.ledgerConnection ??= new LedgerConnection({ profile: { id: 'cli', name: url, url, auth: this.token ? 'jwt' : 'none', source: 'user' }, client: this.client(), packages: this.packages });
    return this.ledgerConnection;
  }

  /** Decoded Daml packages of this run (a participant's, DARs'), kept in memory only. */
  get packages(): PackageStore {
    this.store ??= new PackageStore(() => ({ PackageCache, PackageIndex, readDar }));
    return this.store;
  }

  registerSecret(secret: string | undefined): void {
    if (!secret) return;
    this.secrets.add(secret);
    this.redactor.register(secret);
  }

  /**
   * Writes one line of results to stdout, waiting when the pipe is full so that long update walks
   * stay in bounded memory.
   */
  async out(line: string): Promise<void> {
    if (!this.io.stdout.write(terminalText(this.masked(line)) + '\n')) await drained(this.io.stdout, this.io.signal);
  }

  /** The text with the exact known secrets masked: what every output of the CLI (lines, report files) gets. */
  masked(text: string): string {
    return maskSecrets(text, this.secrets);
  }

  /** Writes a line of diagnostics to stderr. Text that came from a server or an error goes through `redact` first. */
  err(line: string): void {
    this.io.stderr.write(terminalText(this.masked(line)) + '\n');
  }

  /** Full redaction (registered secrets, JWT and credential shapes), for error- and server-derived text. */
  redact(text: string): string {
    return this.redactor.redact(text);
  }
}

/**
 * Masks the exact known secrets. Every written line gets this; the pattern-based `Redactor.redact`
 * is kept for error text, because on our own prose and on ledger data it also masks innocent words
 * (the one after "token:") and data that merely looks like a credential.
 */
export function maskSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join(REDACTION_MASK);
  return out;
}

function drained(stream: NodeJS.WritableStream, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.removeListener('drain', done);
      stream.removeListener('close', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Core log lines on stderr, redacted: warnings always, request lines (info/debug) with --verbose. */
function stderrLogger(ctx: CliContext, verbose: boolean): Logger {
  const write = (level: string) => (message: string) => ctx.err(`[${level}] ${ctx.redact(message)}`);
  const quiet = () => {};
  return {
    tracing: false,
    trace: quiet,
    debug: verbose ? write('debug') : quiet,
    info: verbose ? write('info') : quiet,
    warn: write('warn'),
    error: write('error'),
  };
}
