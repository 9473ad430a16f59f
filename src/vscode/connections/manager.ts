import * as vscode from 'vscode';
import { LedgerClient } from '../../core/api/client';
import type { ConnectionProfile } from '../../core/connections';
import { clientKey, LedgerConnection, type ConnectionState, type ParticipantInfo } from '../../core/ledger/connection';
import type { Subscription } from '../../core/ledger/events';
import type { PackageStore } from '../../core/ledger/packages';
import type { LedgerChange, LedgerState } from '../../core/ledger/state';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import type { ProfileStore } from './profiles';
import type { TokenSource } from '../../core/auth/jwt';
import { Disposable, disposeAll, toDisposable } from '../lifecycle';

export type { ConnectionState, ParticipantInfo } from '../../core/ledger/connection';

/** Makes a connection's token source when the connection is made (undefined: it sends no token). */
export interface TokenSourceFactory {
  sourceFor(profile: ConnectionProfile): TokenSource | undefined;
}

export interface LedgerStateChange {
  connectionId: string;
  change: LedgerChange;
}

/**
 * The connections of this window: one LedgerConnection per profile in use (a new one when the
 * profile's URL, auth or user changes, so that no client or token outlives what it was built for),
 * the active one, and events that name the connection that moved.
 */
export class ConnectionManager extends Disposable {
  private readonly open = new Map<string, { key: string; connection: LedgerConnection; subscriptions: Subscription[] }>();
  private readonly changed = this._register(new vscode.EventEmitter<string | undefined>());
  /** Fires with a connection id, or undefined when the list of profiles changed. */
  readonly onDidChange = this.changed.event;
  private readonly ledgerChanged = this._register(new vscode.EventEmitter<LedgerStateChange>());
  /** Fires when a connection's ledger state moved (its end, its vetting state, its packages). */
  readonly onDidChangeLedger = this.ledgerChanged.event;
  private readonly packagesChanged = this._register(new vscode.EventEmitter<string>());
  /** Fires with a connection id when what is known of its Daml packages moved. */
  readonly onDidChangePackages = this.packagesChanged.event;
  private readonly opened = this._register(new vscode.EventEmitter<LedgerConnection>());
  /** A connection object was made for a profile (at first use, or after its profile changed). */
  readonly onDidOpenConnection = this.opened.event;
  private readonly closed = this._register(new vscode.EventEmitter<LedgerConnection>());
  /** A connection object went (disconnected, its profile changed or went): it is disposed after this. */
  readonly onDidCloseConnection = this.closed.event;
  constructor(
    readonly profiles: ProfileStore,
    private readonly tokens: TokenSourceFactory,
    private readonly logger: Logger,
    private readonly redactor: Redactor,
    /** Where every connection's Daml packages are decoded and kept. */
    readonly packageStore?: PackageStore,
  ) {
    super();
    this._register(
      profiles.onDidChange(() => {
        this.closeOutdated();
        this.changed.fire(undefined);
      }),
    );
    // Last registered, first disposed: the connections close while their emitters still fire.
    this._register(toDisposable(() => [...this.open.keys()].forEach((id) => this.close(id))));
  }

  /** The connection of a profile, made when first asked for (disconnected until it connects). */
  connectionOf(profile: ConnectionProfile): LedgerConnection {
    const key = clientKey(profile);
    const known = this.open.get(profile.id);
    if (known?.key === key) return known.connection;
    if (known) this.close(profile.id);
    const settings = vscode.workspace.getConfiguration('cantonLedger');
    const timeoutSeconds = settings.get<number>('requestTimeoutSeconds', 30);
    const connectTimeoutSeconds = settings.get<number>('connectTimeoutSeconds', 10);
    // Its own token source, made with it: a new connection (a changed URL, auth or user) starts with no token, no destination allowed.
    const tokens = this.tokens.sourceFor(profile);
    const client = new LedgerClient({ baseUrl: profile.url, token: tokens?.provider, timeoutMs: timeoutSeconds * 1000, logger: this.logger, redactor: this.redactor });
    const connection = new LedgerConnection({ profile, client, tokens, packages: this.packageStore, logger: this.logger, connectTimeoutMs: connectTimeoutSeconds * 1000 });
    const id = profile.id;
    this.open.set(id, {
      key,
      connection,
      subscriptions: [
        connection.onDidChangeState(() => this.changed.fire(id)),
        connection.onDidChangeLedger((change) => this.ledgerChanged.fire({ connectionId: id, change })),
        connection.onDidChangePackages(() => this.packagesChanged.fire(id)),
      ],
    });
    this.opened.fire(connection);
    return connection;
  }

  /** The connection of the profile with this id (undefined when there is no such profile). */
  connection(id: string): LedgerConnection | undefined {
    const profile = this.profiles.get(id);
    return profile ? this.connectionOf(profile) : undefined;
  }

  /** The active profile's connection, when it is connected. */
  activeConnection(): LedgerConnection | undefined {
    const active = this.profiles.active();
    const c = active && this.open.get(active.id)?.connection;
    return c?.state.state === 'connected' ? c : undefined;
  }

  /** The connections made so far (connected or not). */
  all(): LedgerConnection[] {
    return [...this.open.values()].map((e) => e.connection);
  }

  client(profile: ConnectionProfile): LedgerClient {
    return this.connectionOf(profile).client;
  }

  state(id: string): ConnectionState {
    return this.open.get(id)?.connection.state ?? { state: 'disconnected' };
  }

  /**
   * Asks the participant for its status; the result (or error) becomes the connection's state. A
   * connect while one is in progress joins it; `cancelConnect` (or `signal`) aborts it.
   */
  connect(profile: ConnectionProfile, signal?: AbortSignal): Promise<ParticipantInfo> {
    return this.connectionOf(profile).connect(signal);
  }

  /** Aborts the connect in progress of this connection (the Cancel of its "connecting…" row). */
  cancelConnect(id: string): boolean {
    return this.open.get(id)?.connection.cancelConnect() ?? false;
  }

  /** Drops the connection (a connect in progress is aborted, its tokens forgotten); the next use makes a new one. */
  disconnect(id: string): void {
    this.close(id);
    this.changed.fire(id);
  }

  /** True when there is an active connection and it is connected (what the ledger commands need). */
  activeConnected(): boolean {
    return this.activeConnection() !== undefined;
  }

  /** The ledger state of a connected connection (undefined otherwise). */
  ledger(id: string): LedgerState | undefined {
    return this.open.get(id)?.connection.ledger;
  }

  /** True when the last answer of this connection was an auth failure. */
  tokenRejected(id: string): boolean {
    return this.open.get(id)?.connection.tokenRejected ?? false;
  }

  /** A connection whose profile changed what its client is built from, or went, is closed. */
  private closeOutdated(): void {
    for (const [id, entry] of [...this.open]) {
      const profile = this.profiles.get(id);
      // Its tokens went with it: they were made for what changed (a participant id is their audience).
      if (!profile || clientKey(profile) !== entry.key) this.close(id);
      else entry.connection.useProfile(profile);
    }
  }

  private close(id: string): void {
    const entry = this.open.get(id);
    if (!entry) return;
    this.open.delete(id);
    this.closed.fire(entry.connection);
    disposeAll(entry.subscriptions);
    entry.connection.dispose();
    this.packagesChanged.fire(id);
  }

}
