/** `participant`: run the demo participant (a simulator) in the foreground until Ctrl-C. */
import { API_VERSIONS, PqsMirrorRefused, startDemoParticipant, type ApiVersion, type DemoParticipant } from '../../participant/index';
import type { UserRecord, UserRight } from '../../participant/model';
import { startDemoNetwork, type DemoNetwork } from '../../participant/network/index';
import { readFile } from 'node:fs/promises';
import { expectPositionals, integerOption, stringList, stringOption, UsageError, type OptionValues } from '../args';
import { EXIT_OK, type Command } from '../command';
import { TOKEN_ENV, URL_ENV, type CliContext } from '../context';
import { readSharedSecret, SECRET_DETAILS, SECRET_OPTIONS, type SharedSecret } from '../secret';

const NAME = 'participant';
const DEFAULT_PORT = 7575;

export const participantCommand: Command = {
  name: NAME,
  synopsis:
    'participant [--port N] [--auth-secret-file F | --auth-secret-env VAR] [--synchronizers 1|2] [--api-version 3.3|3.4.11|3.4|3.5|3.6|3.8] [--state FILE] [--dar FILE]… [--openapi FILE] [--network NAME,NAME,…]',
  summary: 'Run the demo participant: a local simulator of the JSON Ledger API, not a Canton node',
  details: [
    `--port N               listen on 127.0.0.1:N (default ${DEFAULT_PORT}; 0 picks a free port)`,
    ...SECRET_DETAILS,
    '                       with a secret, requests need an HS256 user token (see the token command)',
    '--synchronizers 1|2    connected synchronizers (2 allows reassignments; default 1)',
    `--api-version V        the Canton release to imitate: ${API_VERSIONS.join(', ')} (3.4 is 3.4.12; default 3.5)`,
    '--state FILE           keep the ledger in FILE across restarts (default: in memory only)',
    '--dar FILE             load a DAR (repeatable): its packages are served and vetted; its templates take',
    '                       creates and Archive (the simulator interprets no Daml: it takes a template\'s',
    '                       top-level Party fields as its signatories, and refuses its other choices)',
    '--pqs URL              mirror the ledger into this PostgreSQL database (postgresql://user@host/db), with',
    '                       PQS\'s public SQL functions in schema pqs (or ?schema=…); the password from PGPASSWORD',
    '--openapi FILE         serve this API description at GET /docs/openapi, as a participant serves its own',
    '                       (the official openapi.yaml of the release imitated; without it that path is a 404)',
    '--network A,B,…        a network like Canton\'s LocalNet (e.g. app-provider,app-user,sv): one participant per',
    '                       name on one synchronizer, on ports N, N+1, …, each with its own users, packages and',
    '                       vetting; Bank on the first, Alice on the first (confirmation) and the second, Bob on',
    '                       the second, Charlie on the third; a transaction reaches every host of its informees.',
    '                       With a secret, every participant checks tokens with it (each token names its participant).',
    '                       Not with --state, --pqs or --synchronizers.',
    'Runs until Ctrl-C (SIGINT) or SIGTERM, then closes cleanly.',
  ],
  options: {
    port: { type: 'string' },
    ...SECRET_OPTIONS,
    synchronizers: { type: 'string' },
    'api-version': { type: 'string' },
    state: { type: 'string' },
    dar: { type: 'string', multiple: true },
    pqs: { type: 'string' },
    openapi: { type: 'string' },
    network: { type: 'string' },
  },
  async run(ctx, args) {
    expectPositionals(args, NAME, '', 0);
    const v = args.values;
    const port = integerOption(v, 'port', 0, NAME) ?? DEFAULT_PORT;
    if (port > 65535) throw new UsageError(`--port must be at most 65535, not ${port}`, NAME);
    const network = networkNamesOf(v);
    if (network) return runNetwork(ctx, v, network, port);
    const synchronizers = synchronizersOf(v);
    const apiVersion = apiVersionOf(v);
    const statePath = stringOption(v, 'state');
    const shared = await readSharedSecret(ctx, v, NAME);
    const dars = await Promise.all(stringList(v, 'dar').map((file) => readDarFile(file)));
    const pqs = pqsMirrorOf(v, ctx.env.PGPASSWORD);
    const openapi = await readDescription(stringOption(v, 'openapi'));

    const participant = await startDemoParticipant({
      port,
      auth: shared ? { secret: shared.secret } : 'none',
      synchronizers,
      apiVersion,
      statePath,
      dars,
      pqs,
      openapi,
      // A foreground server: its request log is what people watch, so it always goes to stderr.
      logger: (line) => ctx.err(`[participant] ${ctx.redact(line)}`),
    }).catch((err: unknown) => {
      // The --pqs schema belongs to someone else (a PQS store): the user picks another.
      throw err instanceof PqsMirrorRefused ? new UsageError(err.message, NAME) : err;
    });
    try {
      for (const line of banner(participant, shared, statePath, openapi !== undefined)) await ctx.out(line);
      await interrupted(ctx);
      ctx.err('Stopping the demo participant…');
    } finally {
      await participant.close();
    }
    return EXIT_OK;
  },
};

function networkNamesOf(v: OptionValues): string[] | undefined {
  const raw = stringOption(v, 'network');
  if (raw === undefined) return undefined;
  const names = raw.split(',').map((n) => n.trim());
  const bad = names.find((n) => !/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/.test(n));
  if (bad !== undefined) throw new UsageError(`--network takes participant names (letters, digits, dashes) separated by commas, not "${bad}"`, NAME);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new UsageError(`--network names ${twice} twice`, NAME);
  for (const alone of ['state', 'pqs', 'synchronizers']) if (v[alone] !== undefined) throw new UsageError(`--${alone} is for a single participant, not with --network`, NAME);
  return names;
}

/** `--network`: one demo participant per name on one synchronizer, until Ctrl-C. */
async function runNetwork(ctx: CliContext, v: OptionValues, names: string[], port: number): Promise<number> {
  if (port !== 0 && port + names.length - 1 > 65535) throw new UsageError(`--port ${port} leaves no room for ${names.length} participants`, NAME);
  const shared = await readSharedSecret(ctx, v, NAME);
  const dars = await Promise.all(stringList(v, 'dar').map((file) => readDarFile(file)));
  const network = await startDemoNetwork({
    participants: names,
    port,
    auth: shared ? Object.fromEntries(names.map((name) => [name, { secret: shared.secret }])) : 'none',
    apiVersion: apiVersionOf(v),
    dars,
    logger: (line) => ctx.err(`[participant] ${ctx.redact(line)}`),
  });
  try {
    for (const line of networkBanner(network, shared)) await ctx.out(line);
    await interrupted(ctx);
    ctx.err('Stopping the demo network…');
  } finally {
    await network.close();
  }
  return EXIT_OK;
}

function networkBanner(network: DemoNetwork, shared: SharedSecret | undefined): string[] {
  const hint = (party: string) => party.split('::', 1)[0];
  const lines = [
    `Canton Ledger demo network: ${network.participants.length} participants on synchronizer ${network.synchronizer.alias} (${network.synchronizer.id}).`,
    'A SIMULATOR for development and tests, not a Canton network.',
    `  auth: ${shared ? `HS256 user tokens, shared secret from ${shared.source} (a token names its participant)` : 'none: every request is accepted'}`,
  ];
  for (const p of network.participants) {
    const hosted = Object.entries(network.parties.hosting).flatMap(([party, hosts]) => hosts.filter((h) => h.participant === p.name).map((h) => `${hint(party)} (${h.permission.toLowerCase()})`));
    lines.push('', `${p.name}`, `  URL:             ${p.url}`, `  participant id:  ${p.participantId}`, `  parties:         ${hosted.join(', ') || 'none'}`, '  users:', ...usersOf(p).map((u) => `  ${u}`));
  }
  lines.push('', 'Parties:', ...Object.keys(network.parties.hosting).map((party) => `  ${party}`));
  lines.push('', `Use one:   export ${URL_ENV}=${network.participants[0].url}`);
  lines.push(`Pre-flight across all: canton-ledger preflight ${network.participants.map((p) => `--url ${p.url}`).join(' ')} FILE.commands.json`);
  if (shared) lines.push(`Tokens:    canton-ledger token --user demo-admin --participant-id <participant id>   (the second participant's token for a second --url: ${TOKEN_ENV}_2)`);
  lines.push('', 'Press Ctrl-C to stop.');
  return lines;
}

function pqsMirrorOf(v: OptionValues, password: string | undefined): { url: string; schema: string; password?: string } | undefined {
  const raw = stringOption(v, 'pqs');
  if (raw === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new UsageError(`--pqs must be a postgresql:// URL, not "${raw}"`, NAME);
  }
  if (u.protocol !== 'postgresql:' && u.protocol !== 'postgres:') throw new UsageError(`--pqs must be a postgresql:// URL, not ${u.protocol}//`, NAME);
  if (u.password) throw new UsageError('--pqs must not carry a password (ps and shell history show it): set PGPASSWORD instead', NAME);
  const schema = u.searchParams.get('schema') ?? 'pqs';
  u.searchParams.delete('schema');
  return { url: u.toString(), schema, password };
}

async function readDarFile(file: string): Promise<Uint8Array> {
  return readOrRefuse(file, 'the DAR', () => readFile(file));
}

async function readDescription(file: string | undefined): Promise<{ text: string } | undefined> {
  return file === undefined ? undefined : { text: await readOrRefuse(file, 'the API description', () => readFile(file, 'utf8')) };
}

async function readOrRefuse<T>(file: string, what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read ${what} ${file}: ${code === 'ENOENT' ? 'no such file' : code}`, NAME);
  }
}

function synchronizersOf(v: OptionValues): 1 | 2 | undefined {
  const n = integerOption(v, 'synchronizers', 1, NAME);
  if (n !== undefined && n !== 1 && n !== 2) throw new UsageError(`--synchronizers must be 1 or 2, not ${n}`, NAME);
  return n;
}

function apiVersionOf(v: OptionValues): ApiVersion | undefined {
  const raw = stringOption(v, 'api-version');
  if (raw !== undefined && !(API_VERSIONS as readonly string[]).includes(raw)) {
    throw new UsageError(`--api-version must be one of ${API_VERSIONS.join(', ')}, not "${raw}"`, NAME);
  }
  return raw as ApiVersion | undefined;
}

function banner(p: DemoParticipant, shared: SharedSecret | undefined, statePath: string | undefined, describes: boolean): string[] {
  const lines = [
    'Canton Ledger demo participant: a SIMULATOR for development and tests, not a Canton node.',
    `  URL:             ${p.url}`,
    `  participant id:  ${p.participantId}`,
    `  auth:            ${shared ? `HS256 user tokens, shared secret from ${shared.source}` : 'none: every request is accepted'}`,
    `  state:           ${statePath ? `kept in ${statePath}` : 'in memory, lost on exit'}`,
    ...(describes ? [`  API description: served at ${p.url}/docs/openapi`] : []),
    ...(p.pqs ? [`  PQS mirror:      schema ${p.pqs.schema} (canton-ledger pqs summary --pqs URL?schema=${p.pqs.schema})`] : []),
    ...p.dars.map((d) => `  DAR:             ${d.name} ${d.version} (${d.packageId}): ${d.templates.join(', ') || 'no templates'}`),
    '',
    'Parties:',
    ...Object.values(p.parties).map((party) => `  ${party}`),
    '',
    `Users${shared ? ' (the token subject)' : ''}:`,
    ...usersOf(p),
    '',
    `Use it:  export ${URL_ENV}=${p.url}`,
  ];
  if (shared) {
    lines.push(`Token:   export ${TOKEN_ENV}="$(canton-ledger token --user demo-admin --participant-id ${p.participantId})"`);
    lines.push('         (any user above; needs the same secret in the environment; tokens expire after about 4.5 minutes)');
  }
  lines.push('Then:    canton-ledger updates', '', 'Press Ctrl-C to stop.');
  return lines;
}

function usersOf(p: DemoParticipant): string[] {
  const users = [...p.state.users.values()];
  const width = Math.max(...users.map((u) => u.id.length));
  return users.map((u) => `  ${u.id.padEnd(width)}  ${u.isDeactivated ? '(deactivated) ' : ''}${rightsText(u)}`);
}

/** `act as Alice, read as Bob, participant admin`, with parties by their hint (`Alice::1220…` → `Alice`). */
function rightsText(u: UserRecord): string {
  const hint = (party: string) => party.split('::', 1)[0];
  const byKind = (kind: UserRight['kind']) => u.rights.filter((r): r is UserRight & { party: string } => r.kind === kind && 'party' in r).map((r) => hint(r.party));
  const parts = [
    ...u.rights.filter((r) => !('party' in r)).map((r) => RIGHT_NAMES[r.kind]),
    ...(['CanActAs', 'CanReadAs', 'CanExecuteAs'] as const).flatMap((k) => {
      const parties = byKind(k);
      return parties.length > 0 ? [`${RIGHT_NAMES[k]} ${parties.join(', ')}`] : [];
    }),
  ];
  return parts.join('; ') || 'no rights';
}

const RIGHT_NAMES: Record<UserRight['kind'], string> = {
  ParticipantAdmin: 'participant admin',
  IdentityProviderAdmin: 'identity provider admin',
  CanReadAsAnyParty: 'read as any party',
  CanExecuteAsAnyParty: 'execute as any party',
  CanActAs: 'act as',
  CanReadAs: 'read as',
  CanExecuteAs: 'execute as',
};

/** Resolves on Ctrl-C / SIGTERM (the signal `run` got from the executable). */
function interrupted(ctx: CliContext): Promise<void> {
  const signal = ctx.signal;
  if (!signal) throw new Error('The participant command needs an interrupt signal to know when to stop.');
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
