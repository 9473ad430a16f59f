import vscode = require('vscode');
import { LedgerClient } from '../../core/api/client';
import type { TokenSource } from '../../core/auth/jwt';
import type { ConnectionProfile } from '../../core/connections';
import { clientKey, LedgerConnection } from '../../core/ledger/connection';
import type { Subscription } from '../../core/ledger/events';
import type { PackageStore } from '../../core/ledger/packages';
import type { LedgerChange } from '../../core/ledger/state';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import type { ProfileStore } from './profiles';
import { Disposable, disposeAll, toDisposable } from '../kit/lifecycle';

export type { ConnectionState, ParticipantInfo } from '../../core/ledger/connection';

/** Makes a connection's token source when the connection is made (undefined: it sends no token). */
export interface TokenSourceFactory {
  sourceFor(profile: ConnectionProfile): TokenSource | undefined;
}

export interface LedgerStateChange {
  connection: LedgerConnection;
  change: LedgerChange;
}

/**
 * The connections of this window, after VS Code's git extension (a `Model` of `Repository` objects):
 * one LedgerConnection per profile in use (a new one when the profile's URL, auth or user changes, or
 * after a disconnect, so that no client or token outlives what it was built for), the active one, and
 * events that carry the connection that moved. Commands, views and panels are handed the connection
 * object and keep it; a profile id is looked up once, where it comes in from outside (`connection(id)`).
 */
export class ConnectionManager extends Disposable {
  private readonly open = new Map<string, { key: string; connection: LedgerConnection; subscriptions: Subscription[] }>();
  private readonly changed = this._register(new vscode.EventEmitter<LedgerConnection | undefined>());
  /** Fires with a connection whose state moved (or that a disconnect closed), or undefined when the profiles changed (the list, the active one, an edit). */
  readonly onDidChange = this.changed.event;
  private readonly ledgerChanged = this._register(new vscode.EventEmitter<LedgerStateChange>());
  /** Fires when a connection's ledger state moved (its end, its vetting state, its packages). */
  readonly onDidChangeLedger = this.ledgerChanged.event;
  private readonly packagesChanged = this._register(new vscode.EventEmitter<LedgerConnection>());
  /** Fires with a connection when what is known of its Daml packages moved. */
  readonly onDidChangePackages = this.packagesChanged.event;
  private readonly compatibilityChanged = this._register(new vscode.EventEmitter<LedgerConnection>());
  /** Fires with a connection whose compatibility report arrived (after its connect) or went. */
  readonly onDidChangeCompatibility = this.compatibilityChanged.event;
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
  connectionFor(profile: ConnectionProfile): LedgerConnection {
    const key = clientKey(profile);
    const known = this.open.get(profile.id);
    if (known?.key === key) return known.connection;
    if (known) {
      // Asked with an older version of the profile (a row drawn before an edit): the connection in use stays.
      const stored = this.profiles.get(profile.id);
      if (stored && clientKey(stored) === known.key) return known.connection;
      this.close(profile.id);
      // A listener of the close may have asked for the profile's connection already: that one it is.
      const madeMeanwhile = this.open.get(profile.id);
      if (madeMeanwhile?.key === key) return madeMeanwhile.connection;
      if (madeMeanwhile) this.close(profile.id);
    }
    const connection = this.make(profile);
    // Asked for while the window closes (a listener of a closing connection): made, but kept by no one.
    if (this.isDisposed) {
      connection.dispose();
      return connection;
    }
    const subscriptions = [
      connection.onDidChangeState(() => this.changed.fire(connection)),
      connection.onDidChangeLedger((change) => this.ledgerChanged.fire({ connection, change })),
      connection.onDidChangePackages(() => this.packagesChanged.fire(connection)),
      connection.onDidChangeCompatibility(() => this.compatibilityChanged.fire(connection)),
    ];
    this.open.set(profile.id, { key, connection, subscriptions });
    this.opened.fire(connection);
    return connection;
  }

  private make(profile: ConnectionProfile): LedgerConnection {
    const settings = vscode.workspace.getConfiguration('cantonLedger');
    const timeoutSeconds = settings.get<number>('requestTimeoutSeconds', 30);
    const connectTimeoutSeconds = settings.get<number>('connectTimeoutSeconds', 10);
    // Its own token source, made with it: a new connection (a changed URL, auth or user) starts with no token, no destination allowed.
    const tokens = this.tokens.sourceFor(profile);
    // Made when first used (a connect, a read): the first view of a window lists connections without loading the client.
    const client = () => new LedgerClient({ baseUrl: profile.url, token: tokens?.provider, timeoutMs: timeoutSeconds * 1000, logger: this.logger, redactor: this.redactor });
    return new LedgerConnection({ profile, client, tokens, packages: this.packageStore, logger: this.logger, connectTimeoutMs: connectTimeoutSeconds * 1000 });
  }

  /**
   * The connection of the profile with this id (undefined when there is no such profile): for an id
   * that comes from outside (a setting, a record kept in storage, a command's argument), looked up once.
   */
  connection(id: string): LedgerConnection | undefined {
    const profile = this.profiles.get(id);
    return profile ? this.connectionFor(profile) : undefined;
  }

  /** The active profile's connection, connected or not (undefined when no profile is active). */
  active(): LedgerConnection | undefined {
    const profile = this.profiles.active();
    return profile && this.connectionFor(profile);
  }

  /** The active profile's connection, when it is connected (what the ledger commands need). */
  activeConnection(): LedgerConnection | undefined {
    const active = this.profiles.active();
    const c = active && this.open.get(active.id)?.connection;
    return c?.state.state === 'connected' ? c : undefined;
  }

  /** True when there is an active connection and it is connected. */
  activeConnected(): boolean {
    return this.activeConnection() !== undefined;
  }

  /**
   * The connection that stands for `connection` now: itself while it is open; once a disconnect or a
   * changed profile closed it, the one its profile has now (undefined when the profile went). What a
   * view or panel holds stays the same participant across a reconnect.
   */
  current(connection: LedgerConnection): LedgerConnection | undefined {
    if (this.open.get(connection.id)?.connection === connection) return connection;
    const profile = this.profiles.get(connection.id);
    return profile && this.connectionFor(profile);
  }

  /** The connections made so far (connected or not). */
  all(): LedgerConnection[] {
    return [...this.open.values()].map((e) => e.connection);
  }

  /** Drops the connection (a connect in progress is aborted, its tokens forgotten); the next use of its profile makes a new one. */
  disconnect(connection: LedgerConnection): void {
    if (this.open.get(connection.id)?.connection !== connection) return;
    this.close(connection.id);
    this.changed.fire(connection);
  }

  /** A connection whose profile changed what its client is built from, or went, is closed; the others take the new version of their profile. */
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
    this.packagesChanged.fire(entry.connection);
  }
}
