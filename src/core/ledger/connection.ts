import type { PqsStore } from '../pqs/store';
import type { LedgerClient } from '../api/client';
import type { CompatibilityCheck } from '../compat/check';
import type { ParticipantDescriptions } from '../compat/descriptions';
import type { CompatibilityReport } from '../compat/report';
import type { TokenSource } from '../auth/jwt';
import type { ConnectionProfile } from '../connections';
import { AuthError, CancelledError, isOutcomeUnknown, type LedgerError } from '../errors';
import { silentLogger, type Logger } from '../log';
import type * as wire from '../models/wire';
import { readableParties, type UserRights } from '../models/users';
import { unknownVersionNotice } from '../versions';
import { Emitter } from './events';
import { templateCount, unreadableWarning, type PackagesState, type PackageStore } from './packages';
import { LedgerState, untilAborted, type LedgerChange, type LedgerWrite } from './state';

/** What a participant said about itself at connect (its ledger end lives in the connection's LedgerState). */
export interface ParticipantInfo {
  version: string;
  participantId?: string;
  synchronizers: wire.ConnectedSynchronizer[];
  user?: wire.User;
  rights?: UserRights;
  parties: wire.PartyDetails[];
  /** The user may not list all parties: `parties` are those of its rights. */
  partiesFromRights: boolean;
  /** The version is newer than the newest release line known (or unknown): one line saying how it is treated. */
  versionNotice?: string;
}

export type ConnectionState =
  | { state: 'disconnected' }
  | { state: 'connecting' }
  | { state: 'connected'; info: ParticipantInfo; at: Date }
  | { state: 'error'; error: LedgerError | Error };

/**
 * What a write changes, and so what the connection reads again after it: `transaction` the ledger end
 * (a submission), `vetting` the vetting state too, `packages` the package list and the vetting state
 * (a DAR upload, which may vet).
 */
export type LedgerWriteKind = 'transaction' | 'vetting' | 'packages';

export interface WriteOptions<T> {
  /** The caller's cancel; the connection's dispose cancels too. */
  signal?: AbortSignal;
  /** The offset the write reached, from its answer (a transaction's): the ledger end takes it at once. */
  offsetOf?: (result: T) => number | undefined;
}

export interface LedgerConnectionOptions {
  profile: ConnectionProfile;
  /**
   * The client of this profile (the connection owns it from now on), or how to make it: made on its
   * first use, so that a connection listed but never used does not load the client's code.
   */
  client: LedgerClient | (() => LedgerClient);
  /** Where the client's tokens come from (none without auth): made for this connection, disposed with it. */
  tokens?: TokenSource;
  /** Where the connection's Daml packages are decoded and kept; without it, packages are not read. */
  packages?: PackageStore;
  logger?: Logger;
  /**
   * The deadline of each read of a connect (default: the client's request timeout): a participant
   * that does not answer is given up on sooner than a slow request of a connected one.
   */
  connectTimeoutMs?: number;
  /**
   * Where participants' own API descriptions are read and checked, once per version (default: the
   * process's): the connect reads the description, and requests it says would be refused are not sent.
   */
  descriptions?: ParticipantDescriptions;
}

/**
 * One participant as this process sees it: its client, what it said at connect, its ledger state
 * (end, vetting) and its Daml packages. Reads go through `client` and `ledger`; writes go through
 * `write`, which moves the state after the write itself (whatever the answer, as long as the write
 * may have happened), so that every view follows. `dispose()` aborts everything in progress.
 */
export class LedgerConnection {
  readonly id: string;
  private currentProfile: ConnectionProfile;
  private clientOrMake: LedgerClient | (() => LedgerClient);
  /** The source of its client's tokens (undefined without auth): this connection's own. */
  readonly tokens: TokenSource | undefined;
  private readonly store: PackageStore | undefined;
  private readonly logger: Logger;
  private readonly lifetime = new AbortController();
  private readonly signalsWithLifetime = new WeakMap<AbortSignal, AbortSignal>();
  private current: ConnectionState = { state: 'disconnected' };
  private ledgerState: LedgerState | undefined;
  private packageRead: { state: PackagesState; abort: AbortController; done: Promise<PackagesState> } | undefined;
  /** The connect in progress: a second connect joins it; `cancelConnect` aborts it. */
  private connecting: { controller: AbortController; done: Promise<ParticipantInfo> } | undefined;

  private readonly stateChanged = new Emitter<ConnectionState>();
  /** The connection state moved (connecting, connected, error, disconnected). */
  readonly onDidChangeState = this.stateChanged.event;
  private readonly ledgerChanged = new Emitter<LedgerChange>();
  /** The ledger state moved: its end, its vetting state, or packages were added by a write. */
  readonly onDidChangeLedger = this.ledgerChanged.event;
  private readonly packagesChanged = new Emitter<PackagesState>();
  /** The packages' state moved (loading, ready, failed, none). */
  readonly onDidChangePackages = this.packagesChanged.event;
  /** A second reader of this participant's ledger: its Participant Query Store, when one is attached. */
  private pqsStore: PqsStore | undefined;
  private readonly connectTimeoutMs: number | undefined;
  private descriptionsOption: ParticipantDescriptions | undefined;
  /** What the participant's own description says of our requests, from the last connect. */
  private compatibilityCheck: CompatibilityCheck | undefined;
  /** The check of the last connect while it runs (reading and parsing the description), and after. */
  private compatibilityRead: { controller: AbortController; done: Promise<CompatibilityReport | undefined> } | undefined;
  private readonly compatibilityChanged = new Emitter<CompatibilityReport | undefined>();
  /** The compatibility report arrived (after the connect, once the description is read and checked) or went. */
  readonly onDidChangeCompatibility = this.compatibilityChanged.event;
  private readonly pqsChanged = new Emitter<PqsStore | undefined>();
  /** A PQS store was attached or detached. */
  readonly onDidChangePqs = this.pqsChanged.event;

  constructor(options: LedgerConnectionOptions) {
    this.currentProfile = options.profile;
    this.id = options.profile.id;
    this.clientOrMake = options.client;
    this.tokens = options.tokens;
    this.store = options.packages;
    this.logger = options.logger ?? silentLogger;
    this.connectTimeoutMs = options.connectTimeoutMs;
    this.descriptionsOption = options.descriptions;
  }

  /** Its participant's client (made on first use). */
  get client(): LedgerClient {
    if (typeof this.clientOrMake === 'function') this.clientOrMake = this.clientOrMake();
    return this.clientOrMake;
  }

  /** The token scopes its participant's description lists (Canton 3.8's API areas), as its client uses them; absent when it lists none. */
  get compatibilityScopes(): CompatibilityCheck['scopes'] {
    return this.compatibilityCheck?.scopes;
  }

  /** The process's descriptions unless given: required at the first connect, since a list of connections never checks one. */
  private get descriptions(): ParticipantDescriptions {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- in the extension, a bundle of its own (scripts/build.mjs)
    return (this.descriptionsOption ??= (require('../compat/descriptions') as typeof import('../compat/descriptions')).participantDescriptions);
  }

  /** The profile as it reads now (a rename reaches the connection; what its client is built from never changes). */
  get profile(): ConnectionProfile {
    return this.currentProfile;
  }

  /**
   * Takes a newer version of its profile that changes nothing the client is built from (a new name, its
   * parties); a profile that does needs a new connection.
   */
  useProfile(profile: ConnectionProfile): void {
    if (profile.id !== this.id || clientKey(profile) !== clientKey(this.currentProfile)) throw new Error(`The profile ${profile.id} changed what its connection is built from: it needs a new connection`);
    this.currentProfile = profile;
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** The ledger state while connected (undefined otherwise). */
  get ledger(): LedgerState | undefined {
    return this.ledgerState;
  }

  get disposed(): boolean {
    return this.lifetime.signal.aborted;
  }

  /** The attached Participant Query Store (undefined when none). */
  get pqs(): PqsStore | undefined {
    return this.pqsStore;
  }

  /** Attaches a PQS store (closing the one before), or detaches with undefined. */
  attachPqs(store: PqsStore | undefined): void {
    const before = this.pqsStore;
    this.pqsStore = store;
    if (before && before !== store) void before.dispose();
    if (!this.disposed) this.pqsChanged.fire(store);
  }

  /**
   * While connected: what the participant's own API description (`GET /docs/openapi`) says of every
   * request the extension and the CLI send, or that only the version table was used. Render it with
   * `reportText` / `reportMarkdown` (`core/compat/wording.ts`).
   */
  get compatibility(): CompatibilityReport | undefined {
    return this.current.state === 'connected' ? this.compatibilityCheck?.report : undefined;
  }

  /**
   * Connected, and the participant's description still being read and checked: until it is, the
   * version table alone decides what is sent (the connect does not wait for it).
   */
  get compatibilityPending(): boolean {
    return this.current.state === 'connected' && !this.compatibilityCheck && this.compatibilityRead !== undefined;
  }

  /** The report once the connect's check is done (undefined when not connected, or when the check was dropped). */
  async whenCompatibilityChecked(signal?: AbortSignal): Promise<CompatibilityReport | undefined> {
    await untilAborted<unknown>(this.connecting?.done.catch(() => undefined) ?? Promise.resolve(), signal);
    await untilAborted(this.compatibilityRead?.done ?? Promise.resolve(undefined), signal);
    return this.compatibility;
  }

  /** True when the last answer was an auth failure. */
  get tokenRejected(): boolean {
    return this.current.state === 'error' && this.current.error instanceof AuthError;
  }

  /**
   * Asks the participant for its status; the result (or error) becomes the state. A connect while one
   * is in progress joins it; `cancelConnect` (or `signal`) aborts it, and the state goes back to what
   * it was. Connected again (a Refresh), what the ledger state had read is read again.
   */
  connect(signal?: AbortSignal): Promise<ParticipantInfo> {
    if (this.connecting) return this.connecting.done;
    if (this.disposed) return Promise.reject(new CancelledError());
    // Each connect asks anew where the token may go (a refusal holds for this attempt only).
    this.tokens?.newAttempt();
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal?.addEventListener('abort', abort, { once: true });
    this.lifetime.signal.addEventListener('abort', abort, { once: true });
    if (signal?.aborted) controller.abort();
    const before = this.current;
    const checkBefore = this.compatibilityCheck;
    this.setState({ state: 'connecting' });
    const done = (async () => {
      const o = { signal: controller.signal, timeoutMs: this.connectTimeoutMs };
      const capabilities = this.client.capabilities(o);
      // The description is read and parsed beside the connect, which does not wait for it (parsing a
      // large one takes up to seconds): until its report arrives, the version table decides.
      const check = this.startCompatibilityCheck(capabilities.then((caps) => caps.version));
      try {
        const [{ info, ledgerEnd }] = await Promise.all([readParticipantInfo(this.client, this.profile, controller.signal, this.connectTimeoutMs), capabilities]);
        if (controller.signal.aborted) throw new CancelledError(true);
        this.connected(info, ledgerEnd);
        return info;
      } catch (e) {
        check.controller.abort();
        // Back to what it was after a cancel (a connected connection keeps the report it had); none after a failure.
        this.useCompatibilityCheck(controller.signal.aborted && before.state === 'connected' ? checkBefore : undefined);
        if (controller.signal.aborted) {
          this.setState(before.state === 'connecting' ? { state: 'disconnected' } : before);
          throw e instanceof CancelledError ? e : new CancelledError(true);
        }
        this.dropLedger();
        this.setState({ state: 'error', error: e as Error });
        throw e;
      } finally {
        signal?.removeEventListener('abort', abort);
        this.lifetime.signal.removeEventListener('abort', abort);
        this.connecting = undefined;
      }
    })();
    this.connecting = { controller, done };
    return done;
  }

  /**
   * Reads and checks the participant's description for the version the connect learns, in place of
   * the last connect's check (dropped at once: the version may have changed). Ends quietly: a failure
   * to read is a report that says the version table decided, and a dropped check leaves none.
   */
  private startCompatibilityCheck(version: Promise<string>): { controller: AbortController } {
    this.compatibilityRead?.controller.abort();
    this.useCompatibilityCheck(undefined);
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, this.lifetime.signal]);
    const read: { controller: AbortController; done: Promise<CompatibilityReport | undefined> } = { controller, done: Promise.resolve(undefined) };
    read.done = (async () => {
      try {
        const check = await this.descriptions.check(this.client, await version, { signal, timeoutMs: this.connectTimeoutMs });
        if (signal.aborted || this.compatibilityRead !== read) return undefined;
        this.useCompatibilityCheck(check);
        this.logCompatibility(check.report);
        return check.report;
      } catch {
        // The connect failed or was cancelled (it says so), or the check was dropped.
        return undefined;
      }
    })();
    this.compatibilityRead = read;
    return read;
  }

  private useCompatibilityCheck(check: CompatibilityCheck | undefined): void {
    if (this.compatibilityCheck === check) return;
    this.compatibilityCheck = check;
    this.client.useCompatibility(check);
    if (!this.disposed) this.compatibilityChanged.fire(check?.report);
  }

  /** A warning when the description found something; a newer version checked by the table alone is warned of at connect. */
  private logCompatibility(report: CompatibilityReport): void {
    const found = report.operations.some((o) => o.findings.length > 0);
    (found ? this.logger.warn : this.logger.info).call(this.logger, `${this.profile.name}: ${report.summary}`);
  }

  /** Aborts the connect in progress (the Cancel of a "connecting…" row); false when there is none. */
  cancelConnect(): boolean {
    const running = this.connecting;
    running?.controller.abort();
    return Boolean(running);
  }

  /**
   * What is known of the participant's packages. Once connected, the first ask starts reading them;
   * they are kept until the connection goes (packages only come: a DAR upload reads them again).
   */
  packages(): PackagesState {
    if (this.current.state !== 'connected') return { state: 'none' };
    return (this.packageRead ?? this.startPackageRead()).state;
  }

  /**
   * The packages once read, connected or not (the CLI reads them without connecting): resolves with
   * the state that ends the read, 'ready' or 'failed' (a read in progress is joined).
   */
  readPackages(signal?: AbortSignal): Promise<PackagesState> {
    const read = this.packageRead ?? this.startPackageRead();
    return untilAborted(read.done, signal);
  }

  /**
   * Reads the packages again (an upload, a Refresh, a reconnect): new ids are fetched, the rest come
   * from the store. A read in progress is not cut off — the packages it is fetching would be fetched
   * again — but superseded: the new read joins its fetches, and who waited for it gets the new read.
   */
  reloadPackages(): void {
    if (!this.packageRead) return;
    this.packageRead = undefined;
    this.startPackageRead();
  }

  /**
   * Runs a write of ours on this participant, then moves the ledger state as the write did: the offset
   * it reached, the end read again, the vetting state after a vetting or package write, the packages
   * after a package write. The state moves after an answer and after a write whose outcome is unknown
   * (it may have happened), not after a definite refusal or a cancel before sending. The reads run on
   * after this returns; readers of the state join them.
   */
  async write<T>(kind: LedgerWriteKind, run: (client: LedgerClient, signal: AbortSignal) => Promise<T>, options: WriteOptions<T> = {}): Promise<T> {
    const signal = options.signal ? this.withLifetime(options.signal) : this.lifetime.signal;
    let result: T;
    try {
      result = await run(this.client, signal);
    } catch (e) {
      if (isOutcomeUnknown(e)) this.afterWrite(kind, {});
      throw e;
    }
    this.afterWrite(kind, { offset: options.offsetOf?.(result) });
    return result;
  }

  /** `signal` or the connection's end, whichever comes first; one per caller's signal (a script's steps share theirs). */
  private withLifetime(signal: AbortSignal): AbortSignal {
    let both = this.signalsWithLifetime.get(signal);
    if (!both) this.signalsWithLifetime.set(signal, (both = AbortSignal.any([signal, this.lifetime.signal])));
    return both;
  }

  private afterWrite(kind: LedgerWriteKind, write: LedgerWrite): void {
    if (this.disposed) return;
    if (kind === 'packages') this.reloadPackages();
    void this.ledgerState?.afterWrite({ offset: write.offset, vetting: kind === 'vetting', packages: kind === 'packages' });
  }

  private connected(info: ParticipantInfo, ledgerEnd: number): void {
    if (info.versionNotice) this.logger.warn(`${this.profile.name}: ${info.versionNotice}`);
    const known = this.ledgerState;
    if (known) {
      known.advanceTo(ledgerEnd);
      if (known.vetting.state !== 'unknown') known.refreshVetting().catch(() => undefined);
      this.reloadPackages();
    } else {
      const client = this.client;
      const ownParticipant = info.participantId;
      const state = new LedgerState(
        {
          ledgerEnd: (signal) => client.ledgerEnd({ signal }),
          vettedPackages: async (signal) => {
            const participantId = ownParticipant ?? (await client.participantId({ signal }));
            return client.listVettedPackages({ topologyStateFilter: { participantIds: [participantId] } }, { signal });
          },
        },
        ledgerEnd,
      );
      state.onDidChange((change) => this.ledgerChanged.fire(change));
      this.ledgerState = state;
    }
    this.setState({ state: 'connected', info, at: new Date() });
  }

  private startPackageRead(): { state: PackagesState; abort: AbortController; done: Promise<PackagesState> } {
    const abort = new AbortController();
    const source = `on ${this.profile.name}`;
    const entry = { state: { state: 'loading', source } as PackagesState, abort, done: Promise.resolve<PackagesState>({ state: 'none' }) };
    const settle = (state: PackagesState): PackagesState => {
      if (this.packageRead !== entry) return state;
      entry.state = state;
      this.packagesChanged.fire(state);
      return state;
    };
    // Read again meanwhile (a DAR upload, a reconnect): who waited for this read gets the newer one.
    const newerRead = () => {
      const newer = this.packageRead;
      return newer && newer !== entry && !this.disposed ? newer : undefined;
    };
    entry.done = (async (): Promise<PackagesState> => {
      const store = this.store;
      if (!store) return settle({ state: 'none' });
      const signal = AbortSignal.any([abort.signal, this.lifetime.signal]);
      try {
        // Which version a package name stands for depends on the vetting state: read it alongside.
        this.ledgerState?.vettedPackages(signal).catch(() => undefined);
        const { ids, packages, unreadable } = await store.read(this.client, signal);
        const newer = newerRead();
        if (newer) return newer.done;
        this.logger.info(`Daml packages ${source}: ${ids.length} (${templateCount(packages)} templates)`);
        // One package that cannot be read leaves the others usable: it is named, with its error, once.
        if (unreadable.length > 0) this.logger.warn(unreadableWarning(unreadable, source));
        const vettedPackageIds = () => this.ledgerState?.vettedPackageIds();
        return settle({ state: 'ready', context: store.context(packages, source, { unreadable, index: { vettedPackageIds } }), packageIds: ids });
      } catch (e) {
        const newer = newerRead();
        if (newer) return newer.done;
        if (signal.aborted) throw e instanceof CancelledError ? e : new CancelledError();
        this.logger.warn(`Daml packages ${source} could not be read: ${(e as Error).message}`);
        return settle({ state: 'failed', source, error: e as Error });
      }
    })();
    // A read dropped with its connection ends here; its joiners get the CancelledError.
    entry.done.catch(() => undefined);
    this.packageRead = entry;
    this.packagesChanged.fire(entry.state);
    return entry;
  }

  /** The connection lost its participant (a failed connect): its ledger state and packages go. */
  private dropLedger(): void {
    this.ledgerState?.dispose();
    this.ledgerState = undefined;
    if (this.packageRead) {
      this.packageRead.abort.abort();
      this.packageRead = undefined;
      this.packagesChanged.fire({ state: 'none' });
    }
  }

  private setState(s: ConnectionState): void {
    if (this.disposed) return;
    this.current = s;
    this.stateChanged.fire(s);
  }

  /** Aborts the connect, the reads and the writes in progress; the events stop. */
  dispose(): void {
    if (this.disposed) return;
    this.lifetime.abort();
    this.connecting?.controller.abort();
    this.compatibilityRead?.controller.abort();
    this.compatibilityChanged.dispose();
    this.ledgerState?.dispose();
    this.ledgerState = undefined;
    this.packageRead?.abort.abort();
    this.packageRead = undefined;
    this.current = { state: 'disconnected' };
    this.stateChanged.dispose();
    this.ledgerChanged.dispose();
    this.packagesChanged.dispose();
    void this.pqsStore?.dispose();
    this.pqsStore = undefined;
    this.pqsChanged.dispose();
    this.tokens?.dispose();
  }
}

/**
 * What a participant says about itself, and its ledger end. Some of it needs admin rights (listing
 * all parties, for one): an ordinary user still connects and sees what its rights allow. Other
 * failures fail the connect.
 */
export async function readParticipantInfo(client: LedgerClient, profile: ConnectionProfile, signal?: AbortSignal, timeoutMs?: number): Promise<{ info: ParticipantInfo; ledgerEnd: number }> {
  const o = { signal, timeoutMs };
  // A 403 of these is an answer (no admin right), not a failure: the log says so at debug level.
  const mayBeForbidden = { ...o, expectedStatuses: [403] };
  const unlessForbidden = <T>(p: Promise<T>): Promise<T | undefined> => p.catch((e) => (e instanceof AuthError && e.status === 403 ? undefined : Promise.reject(e)));
  const [version, ledgerEnd, synchronizers, parties, participantId] = await Promise.all([
    client.version(o),
    client.ledgerEnd(o),
    unlessForbidden(client.connectedSynchronizers(mayBeForbidden)),
    unlessForbidden(client.parties(mayBeForbidden)),
    unlessForbidden(client.participantId(mayBeForbidden)),
  ]);
  // Without auth there is no authenticated user: fall back to the profile's user id. Canton 3.3 has
  // no authenticated-user endpoint: the client takes the token's subject, else the profile's user id.
  const user = profile.auth !== 'none' ? await client.authenticatedUser({ ...o, fallbackUserId: profile.userId }) : profile.userId ? { id: profile.userId } : undefined;
  const rights = user ? await unlessForbidden(client.userRights(user.id, mayBeForbidden)) : undefined;
  const fromRights = rights ? readableParties(rights).map((party) => ({ party })) : [];
  const versionNotice = unknownVersionNotice(version.version);
  return {
    info: { version: version.version, participantId, synchronizers: synchronizers ?? [], user, rights, parties: parties ?? fromRights, partiesFromRights: !parties, ...(versionNotice ? { versionNotice } : {}) },
    ledgerEnd,
  };
}

/** What makes a client: a change of any of it needs a new client, and so a new connection. */
export function clientKey(profile: ConnectionProfile): string {
  return JSON.stringify([profile.url, profile.auth, profile.userId, profile.tokenForm, profile.participantId, profile.tokenUrl, profile.clientId, profile.source]);
}
