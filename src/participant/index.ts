/**
 * The embedded demo participant: an in-process HTTP server that speaks the Canton JSON Ledger API
 * v2 wire format for what the extension uses, so people can try everything without a Canton node
 * and every test has a participant. It is a SIMULATOR: the built-in templates' choices are
 * TypeScript functions, there is no Daml interpretation.
 */
import { PqsMirror, type PqsMirrorOptions } from './pqs/mirror';
import { readFile } from 'node:fs/promises';
import { Authenticator, type AuthConfig } from './auth';
import { acsRoutes } from './handlers/acs';
import { commandRoutes } from './handlers/commands';
import { byHashRoutes } from './handlers/byHash';
import { completionRoutes } from './handlers/completions';
import { eventRoutes } from './handlers/events';
import { packageRoutes } from './handlers/packages';
import { preferredPackagesRoutes } from './handlers/preferredPackages';
import type { Faults, Services } from './handlers/services';
import { stateRoutes } from './handlers/state';
import { updateChannels, updateRoutes } from './handlers/updates';
import { vettingRoutes } from './handlers/vetting';
import { DemoLedger, newDemoLedgerData } from './ledger';
import { packagesOfDar, type PackageDef } from './packages';
import { StateSaver, loadState } from './persistence';
import { seedLedger, seededParties, type SeededParties } from './seed';
import { DemoServer, route, type Exchange, type Route } from './server';
import { PARTICIPANT_DESCRIPTION_PATH } from '../core/compat/openapi';
import { Topology } from './topology';
import { profileOf, type ApiVersion } from './versions';

export { DemoLedger } from './ledger';
export { PqsMirror, PqsMirrorRefused, type PqsMirrorOptions } from './pqs/mirror';
export { API_VERSIONS, type ApiVersion } from './versions';
export type { Faults, SubmitFault } from './handlers/services';
export type { SeededParties } from './seed';
export type { Exchange } from './server';

export interface DemoParticipantOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** HS256 shared secret (`unsafe-jwt-hmac-256`), or no auth (the default). */
  auth?: AuthConfig | 'none';
  /** 2: connected to two synchronizers (reassignments; vetting then needs a synchronizerId). Default 1. */
  synchronizers?: 1 | 2;
  /** The Canton release line to imitate. Default 3.5. */
  apiVersion?: ApiVersion;
  /** `http-list-max-elements-limit`. Default 200. */
  listCap?: number;
  /** `http-list-wait-time` in ms. Default 500. */
  listWaitMs?: number;
  /**
   * false: the release's websocket channels are not served (upgrades get a plain 404), as behind a
   * proxy that does not pass websockets on. Default true.
   */
  websockets?: boolean;
  /** An idle update stream over the websocket sends an offset checkpoint after this long. Default 60 s. */
  idleCheckpointMs?: number;
  /**
   * true (default): a fresh ledger with a couple of hours of demo history, random ids.
   * A number: the same, with deterministic ids. false: only the parties and users.
   */
  seed?: boolean | number;
  /**
   * DARs to load at the start (their bytes, or file paths to read): their packages are served, listed
   * and vetted on every synchronizer (packages that are new to the participant), and their templates
   * accept creates and `Archive`.
   */
  dars?: ReadonlyArray<Uint8Array | string>;
  /** Keep the state in this JSON file: loaded at start when it exists, saved after changes. */
  statePath?: string;
  logger?: (line: string) => void;
  /** The participant's clock (record times, dedup, token expiry); default the system clock. */
  clock?: () => Date;
  /** Every finished request with its answer, bodies included (for tests that check them against the spec). */
  onExchange?: (exchange: Exchange) => void;
  /** Mirror the ledger into this PostgreSQL database, with PQS's public SQL functions (`participant --pqs URL`). */
  pqs?: PqsMirrorOptions;
  /**
   * The API description to serve at `GET /docs/openapi`, as a Canton participant serves its own: a
   * file (YAML or JSON; the official spec of the release it imitates, `participant --openapi FILE`) or
   * the text itself. Without it, that path gets the plain 404 of a participant that does not serve one.
   */
  openapi?: string | { text: string };
}

export interface DemoParticipant {
  /** e.g. `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly participantId: string;
  /** The seeded parties' full ids (`Alice::1220…`). */
  readonly parties: SeededParties;
  /** The main packages of the DARs loaded at the start (`dars`). */
  readonly dars: readonly LoadedDar[];
  /** Direct access to the ledger, for tests and benchmarks. */
  readonly state: DemoLedger;
  /** Arm a fault, e.g. `faults.submit = { dropResponse: true, times: 1 }`. */
  readonly faults: Faults;
  /** An HS256 token for `userId` (default: audience form, 4 minutes); rejects when auth is off. */
  /** `areas`: restrict the token to these API areas (`commands`, `updates`…; taken from 3.8 on). */
  mintToken(userId: string, opts?: { form?: 'audience' | 'scope'; expiresInSeconds?: number; areas?: readonly string[] }): Promise<string>;
  /** The PQS mirror, when `pqs` was given: `synced()` resolves once the database holds everything appended. */
  readonly pqs?: PqsMirror;
  /** Stops the server, ends waiting requests, and saves the state (with `statePath`). */
  close(): Promise<void>;
}

/** The main package of a DAR loaded at the start. */
export interface LoadedDar {
  packageId: string;
  name: string;
  version: string;
  /** `Module:Template` of each template in the main package. */
  templates: string[];
}

export async function startDemoParticipant(options: DemoParticipantOptions = {}): Promise<DemoParticipant> {
  const clock = options.clock ?? (() => new Date());
  const seed = options.seed ?? true;

  const loaded = options.statePath ? await loadState(options.statePath) : undefined;
  const ledger = new DemoLedger(loaded ?? newDemoLedgerData(typeof seed === 'number' ? seed : undefined, options.synchronizers ?? 1), { clock });
  if (!loaded) seedLedger(ledger, seed !== false);
  const dars = await loadDars(ledger, options.dars ?? []);

  return serveDemoLedger(ledger, options, { topology: new Topology([ledger]), dars, stateFrom: loaded ? options.statePath : undefined });
}

/**
 * Serves a ledger: the one `startDemoParticipant` built, or one participant of a demo network
 * (whose `topology` the network's participants share).
 */
export async function serveDemoLedger(
  ledger: DemoLedger,
  options: DemoParticipantOptions,
  setup: { topology: Topology; dars?: LoadedDar[]; stateFrom?: string },
): Promise<DemoParticipant> {
  const clock = options.clock ?? (() => new Date());
  const log = options.logger ?? (() => undefined);
  const profile = profileOf(options.apiVersion ?? '3.5');
  const dars = setup.dars ?? [];
  const description = options.openapi === undefined ? undefined : typeof options.openapi === 'string' ? await readFile(options.openapi, 'utf8') : options.openapi.text;
  const authenticator = options.auth && options.auth !== 'none' ? new Authenticator(options.auth, ledger.participantId, ledger.users, clock, profile.scopedTokens) : undefined;
  const faults: Faults = {};
  const services: Services = { ledger, topology: setup.topology, profile, listCap: options.listCap ?? 200, listWaitMs: options.listWaitMs ?? 500, idleCheckpointMs: options.idleCheckpointMs ?? 60_000, faults };
  const server = new DemoServer({
    // Exactly the endpoints of the imitated release: the others get the plain 404 of a real participant.
    routes: [
      ...stateRoutes(services),
      ...updateRoutes(services),
      ...commandRoutes(services),
      ...preferredPackagesRoutes(services),
      ...eventRoutes(services),
      ...byHashRoutes(services),
      ...completionRoutes(services),
      ...vettingRoutes(services),
      ...packageRoutes(services),
      ...acsRoutes(services),
    ].filter((r) => profile.serves(r.method, r.path)).concat(descriptionRoutes(description)),
    channels: options.websockets === false ? [] : updateChannels(services).filter((c) => profile.servesChannel(c.path)),
    version: profile.release,
    authenticator,
    participantName: ledger.participantName,
    log,
    onExchange: options.onExchange,
  });
  const url = await server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  const saver = options.statePath ? new StateSaver(ledger, options.statePath, log) : undefined;
  const pqs = options.pqs ? new PqsMirror(ledger, { log, ...options.pqs }) : undefined;
  try {
    await pqs?.start();
  } catch (err) {
    await server.close();
    await pqs?.close().catch(() => undefined);
    throw err;
  }
  log(
    `Demo participant listening on ${url}: a SIMULATOR of the Canton ${profile.release} JSON Ledger API (no Daml interpretation, not a Canton node); ` +
      `${setup.stateFrom ? `state loaded from ${setup.stateFrom}` : 'fresh state'}, ledger end ${ledger.ledgerEnd}, auth ${authenticator ? 'HS256' : 'off'}`,
  );

  return {
    url,
    participantId: ledger.participantId,
    parties: seededParties(ledger),
    dars,
    state: ledger,
    faults,
    pqs,
    async mintToken(userId, opts = {}) {
      if (!authenticator) throw new Error('The demo participant runs without auth: there are no tokens to mint');
      return authenticator.mint(userId, opts.form ?? 'audience', opts.expiresInSeconds ?? 240, opts.areas);
    },
    async close() {
      await server.close();
      await saver?.close();
      await pqs?.close();
    },
  };
}

/** `GET /docs/openapi` with the description given (not an API operation: no token needed, as in Canton). */
function descriptionRoutes(text: string | undefined): Route[] {
  if (text === undefined) return [];
  const contentType = /^\s*\{/.test(text) ? 'application/json' : 'application/yaml';
  return [route({ method: 'GET', path: PARTICIPANT_DESCRIPTION_PATH, public: true, handle: ({ res }) => void res.writeHead(200, { 'content-type': contentType }).end(text) })];
}

/** Loads DARs (bytes or paths) into a ledger: their packages are added, and vetted where new. */
export async function loadDars(ledger: DemoLedger, dars: ReadonlyArray<Uint8Array | string>): Promise<LoadedDar[]> {
  const loaded: LoadedDar[] = [];
  for (const dar of dars) {
    const { main, packages } = packagesOfDar(typeof dar === 'string' ? await readFile(dar) : dar, 'dar');
    vetNew(ledger, packages);
    loaded.push({ packageId: main.id, name: main.name, version: main.version, templates: main.templates.map((t) => t.nameKey.slice(t.nameKey.indexOf(':') + 1)) });
  }
  return loaded;
}

/** Adds a DAR's packages; those new to the participant are vetted on every synchronizer. */
function vetNew(ledger: DemoLedger, packages: PackageDef[]): void {
  const added = ledger.addPackages(packages);
  ledger.vetPackages(added, ledger.synchronizers.map((s) => s.id));
}
