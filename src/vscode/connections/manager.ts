import * as vscode from 'vscode';
import { LedgerClient } from '../../core/api/client';
import type { ConnectionProfile } from '../../core/connections';
import { AuthError, CancelledError, LedgerError } from '../../core/errors';
import { LedgerState, type LedgerChange, type LedgerWrite } from '../../core/ledger/state';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import type * as wire from '../../core/models/wire';
import { readableParties, type UserRights } from '../../core/models/users';
import type { ProfileStore } from './profiles';
import type { TokenProviders } from './tokens';

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
}

export type ConnectionState =
  | { state: 'disconnected' }
  | { state: 'connecting' }
  | { state: 'connected'; info: ParticipantInfo; at: Date }
  | { state: 'error'; error: LedgerError | Error };

export interface LedgerStateChange {
  connectionId: string;
  change: LedgerChange;
}

/**
 * Connections at run time: one LedgerClient per profile (rebuilt when the profile changes), and the
 * status of each (what the participant said when last asked).
 */
export class ConnectionManager implements vscode.Disposable {
  private readonly clients = new Map<string, { key: string; client: LedgerClient }>();
  private readonly states = new Map<string, ConnectionState>();
  private readonly changed = new vscode.EventEmitter<string | undefined>();
  /** Fires with a connection id, or undefined when the list of profiles changed. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Per connected connection: its ledger end and vetting state, which every view follows. */
  private readonly ledgers = new Map<string, { key: string; state: LedgerState }>();
  private readonly ledgerChanged = new vscode.EventEmitter<LedgerStateChange>();
  /** Fires when a connection's ledger state moved (its end, its vetting state, its packages). */
  readonly onDidChangeLedger = this.ledgerChanged.event;
  /** The connect in progress per connection: a second connect joins it; Cancel aborts it. */
  private readonly connecting = new Map<string, { controller: AbortController; done: Promise<ParticipantInfo> }>();

  constructor(
    readonly profiles: ProfileStore,
    readonly tokens: TokenProviders,
    private readonly logger: Logger,
    private readonly redactor: Redactor,
  ) {
    this.subscriptions.push(profiles.onDidChange(() => this.changed.fire(undefined)));
  }

  client(profile: ConnectionProfile): LedgerClient {
    // A changed URL or auth kind must never reuse a client (and its token) built for the old one.
    const key = clientKey(profile);
    const cached = this.clients.get(profile.id);
    if (cached?.key === key) return cached.client;
    const timeoutSeconds = vscode.workspace.getConfiguration('cantonLedger').get<number>('requestTimeoutSeconds', 30);
    const client = new LedgerClient({ baseUrl: profile.url, token: this.tokens.providerFor(profile), timeoutMs: timeoutSeconds * 1000, logger: this.logger, redactor: this.redactor });
    this.clients.set(profile.id, { key, client });
    return client;
  }

  state(id: string): ConnectionState {
    return this.states.get(id) ?? { state: 'disconnected' };
  }

  /**
   * Asks the participant for its status; the result (or error) becomes the connection's state. A
   * connect while one is in progress for the same connection joins it; `cancelConnect` (or `signal`)
   * aborts it, and the connection goes back to the state it had.
   */
  connect(profile: ConnectionProfile, signal?: AbortSignal): Promise<ParticipantInfo> {
    const running = this.connecting.get(profile.id);
    if (running) return running.done;
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) controller.abort();
    const before = this.state(profile.id);
    // Each connect asks anew where the token may go (a refusal holds for this attempt only).
    this.tokens.newAttempt(profile.id);
    this.setState(profile.id, { state: 'connecting' });
    // A disconnect meanwhile takes the connection over: this attempt then leaves its state alone.
    const current = () => this.connecting.get(profile.id)?.controller === controller;
    const done = (async () => {
      try {
        const { info, ledgerEnd } = await this.readInfo(profile, controller.signal);
        if (controller.signal.aborted) throw new CancelledError(true);
        this.connected(profile, info, ledgerEnd);
        return info;
      } catch (e) {
        if (controller.signal.aborted) {
          if (current()) this.setState(profile.id, before.state === 'connecting' ? { state: 'disconnected' } : before);
          throw e instanceof CancelledError ? e : new CancelledError(true);
        }
        if (current()) {
          this.dropLedger(profile.id);
          this.setState(profile.id, { state: 'error', error: e as Error });
        }
        throw e;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        if (current()) this.connecting.delete(profile.id);
      }
    })();
    this.connecting.set(profile.id, { controller, done });
    return done;
  }

  /** Aborts the connect in progress of this connection (the Cancel of its "connecting…" row). */
  cancelConnect(id: string): boolean {
    const running = this.connecting.get(id);
    running?.controller.abort();
    return Boolean(running);
  }

  disconnect(id: string): void {
    const running = this.connecting.get(id);
    this.connecting.delete(id);
    running?.controller.abort();
    this.clients.delete(id);
    this.tokens.invalidate(id);
    this.dropLedger(id);
    this.setState(id, { state: 'disconnected' });
  }

  /** True when there is an active connection and it is connected (what the ledger commands need). */
  activeConnected(): boolean {
    const active = this.profiles.active();
    return active !== undefined && this.state(active.id).state === 'connected';
  }

  /** The ledger state of a connected connection (undefined otherwise). */
  ledger(id: string): LedgerState | undefined {
    return this.ledgers.get(id)?.state;
  }

  /** After a write of ours on this connection: the ledger state takes it and reads what it changed. */
  afterWrite(connectionId: string, write: LedgerWrite = {}): Promise<void> {
    return this.ledger(connectionId)?.afterWrite(write) ?? Promise.resolve();
  }

  private connected(profile: ConnectionProfile, info: ParticipantInfo, ledgerEnd: number): void {
    const key = clientKey(profile);
    const known = this.ledgers.get(profile.id);
    if (known?.key === key) {
      // Connected again (a Refresh): what the state had read is read again too.
      known.state.advanceTo(ledgerEnd);
      if (known.state.vetting.state !== 'unknown') known.state.refreshVetting().catch(() => undefined);
    } else {
      this.dropLedger(profile.id);
      const client = this.client(profile);
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
      state.onDidChange((change) => this.ledgerChanged.fire({ connectionId: profile.id, change }));
      this.ledgers.set(profile.id, { key, state });
    }
    this.setState(profile.id, { state: 'connected', info, at: new Date() });
  }

  private dropLedger(id: string): void {
    this.ledgers.get(id)?.state.dispose();
    this.ledgers.delete(id);
  }

  /** True when the last answer of this connection was an auth failure. */
  tokenRejected(id: string): boolean {
    const s = this.state(id);
    return s.state === 'error' && s.error instanceof AuthError;
  }

  private async readInfo(profile: ConnectionProfile, signal?: AbortSignal): Promise<{ info: ParticipantInfo; ledgerEnd: number }> {
    const client = this.client(profile);
    const o = { signal };
    // A 403 of these is an answer (no admin right), not a failure: the log says so at debug level.
    const mayBeForbidden = { signal, expectedStatuses: [403] };
    // Some status needs admin rights (listing all parties, for one): an ordinary user still connects
    // and sees what its rights allow. Other failures fail the connection.
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
    return { info: { version: version.version, participantId, synchronizers: synchronizers ?? [], user, rights, parties: parties ?? fromRights, partiesFromRights: !parties }, ledgerEnd };
  }

  private setState(id: string, s: ConnectionState): void {
    this.states.set(id, s);
    this.changed.fire(id);
  }

  dispose(): void {
    for (const c of this.connecting.values()) c.controller.abort();
    for (const id of [...this.ledgers.keys()]) this.dropLedger(id);
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
    this.ledgerChanged.dispose();
  }
}

/** What a client is built from: a change of any of it needs a new client (and a new ledger state). */
function clientKey(profile: ConnectionProfile): string {
  return JSON.stringify([profile.url, profile.auth, profile.userId, profile.tokenForm, profile.participantId, profile.tokenUrl, profile.clientId, profile.source]);
}

