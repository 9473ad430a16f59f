import * as vscode from 'vscode';
import { LedgerClient } from '../../core/api/client';
import type { ConnectionProfile } from '../../core/connections';
import { AuthError, LedgerError } from '../../core/errors';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import type * as wire from '../../core/models/wire';
import { readableParties, type UserRights } from '../../core/models/users';
import type { ProfileStore } from './profiles';
import type { TokenProviders } from './tokens';

export interface ParticipantInfo {
  version: string;
  ledgerEnd: number;
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
    const key = JSON.stringify([profile.url, profile.auth, profile.userId, profile.tokenForm, profile.participantId, profile.tokenUrl, profile.clientId, profile.source]);
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

  /** Asks the participant for its status; the result (or error) becomes the connection's state. */
  async connect(profile: ConnectionProfile, signal?: AbortSignal): Promise<ParticipantInfo> {
    this.setState(profile.id, { state: 'connecting' });
    try {
      const info = await this.readInfo(profile, signal);
      this.setState(profile.id, { state: 'connected', info, at: new Date() });
      return info;
    } catch (e) {
      this.setState(profile.id, { state: 'error', error: e as Error });
      throw e;
    }
  }

  disconnect(id: string): void {
    this.clients.delete(id);
    this.tokens.invalidate(id);
    this.setState(id, { state: 'disconnected' });
  }

  /** Re-reads the ledger end of a connected participant (cheap; for the status bar). */
  async refreshLedgerEnd(profile: ConnectionProfile, signal?: AbortSignal): Promise<void> {
    const s = this.state(profile.id);
    if (s.state !== 'connected') return;
    const ledgerEnd = await this.client(profile).ledgerEnd({ signal });
    this.setState(profile.id, { ...s, info: { ...s.info, ledgerEnd }, at: new Date() });
  }

  /** True when the last answer of this connection was an auth failure. */
  tokenRejected(id: string): boolean {
    const s = this.state(id);
    return s.state === 'error' && s.error instanceof AuthError;
  }

  private async readInfo(profile: ConnectionProfile, signal?: AbortSignal): Promise<ParticipantInfo> {
    const client = this.client(profile);
    const o = { signal };
    // Some status needs admin rights (listing all parties, for one): an ordinary user still connects
    // and sees what its rights allow. Other failures fail the connection.
    const unlessForbidden = <T>(p: Promise<T>): Promise<T | undefined> => p.catch((e) => (e instanceof AuthError && e.status === 403 ? undefined : Promise.reject(e)));
    const [version, ledgerEnd, synchronizers, parties, participantId] = await Promise.all([
      client.version(o),
      client.ledgerEnd(o),
      unlessForbidden(client.connectedSynchronizers(o)),
      unlessForbidden(client.parties(o)),
      unlessForbidden(client.participantId(o)),
    ]);
    // Without auth there is no authenticated user: fall back to the profile's user id. Canton 3.3 has
    // no authenticated-user endpoint: the client takes the token's subject, else the profile's user id.
    const user = profile.auth !== 'none' ? await client.authenticatedUser({ ...o, fallbackUserId: profile.userId }) : profile.userId ? { id: profile.userId } : undefined;
    const rights = user ? await unlessForbidden(client.userRights(user.id, o)) : undefined;
    const fromRights = rights ? readableParties(rights).map((party) => ({ party })) : [];
    return { version: version.version, ledgerEnd, participantId, synchronizers: synchronizers ?? [], user, rights, parties: parties ?? fromRights, partiesFromRights: !parties };
  }

  private setState(id: string, s: ConnectionState): void {
    this.states.set(id, s);
    this.changed.fire(id);
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}

