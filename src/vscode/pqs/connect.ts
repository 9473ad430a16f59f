/**
 * Attaching a Participant Query Store to the active participant connection as a second reader:
 * Connect to PQS… (the URL kept per connection profile in global state, the password in secret
 * storage, both only once the store answered), Disconnect, the store a profile used before attached
 * again without asking, and the demo participant's own PQS attached by itself (nothing kept; its
 * password is the one "Set Up PQS for the Demo…" kept, else PGPASSWORD). Each attach checks the store's
 * interface and whether the role could write.
 */
import vscode = require('vscode');
import * as path from 'node:path';
import type { CallOptions } from '../../core/api/http';
import type { LedgerConnection } from '../../core/ledger/connection';
import type { Logger } from '../../core/log';
import { describeSettings, parsePqsUrl } from '../../core/pqs/settings';
import { PqsStore, type PgDriver } from '../../core/pqs/store';
import { Commands } from '../kit/ids';
import type { CommandRegistry } from '../kit/registry';
import type { ConnectionManager } from '../connections/manager';
import { Disposable } from '../kit/lifecycle';
import type { ErrorReporter, Prompts } from '../kit/prompts';
import type { SecretStore } from '../kit/secrets';

export const PQS_CAVEAT = 'Database credentials bypass Daml’s party authorization: PQS shows every contract the participant stores, not filtered by party rights.';
export const READ_ONLY_ROLE_ADVICE = 'Connect with a read-only role (one granted pg_read_all_data and nothing more).';
const URL_KEY = (profileId: string) => `cantonLedger.pqs.url/${profileId}`;

export interface PqsConnectDeps {
  extensionPath: string;
  globalState: vscode.Memento;
  connections: ConnectionManager;
  secrets: Pick<SecretStore, 'get' | 'set' | 'delete'>;
  prompts: Prompts;
  errors: Pick<ErrorReporter, 'record'>;
  logger: Logger;
  /** The demo participant's PQS database (cantonLedger.demo.pqsUrl), attached to the demo connection by itself. */
  demoPqsUrl?: () => string | undefined;
  /** The password kept for the demo's PQS database, if any. */
  demoPqsPassword?: () => Promise<string | undefined>;
  /** The environment (PGPASSWORD for the demo's PQS when no password is kept). */
  env?: Readonly<Record<string, string | undefined>>;
  /** node-postgres; default: dist/pqs.js of the extension, loaded on the first connection. */
  driver?: () => PgDriver;
}

/** Whether the role the store was connected with could change it, and what gives it that right. */
export interface WriteAccess {
  canWrite: boolean;
  reasons: string[];
}

export class PqsConnecting extends Disposable {
  private readonly attachedEmitter = this._register(new vscode.EventEmitter<LedgerConnection>());
  /** A store was attached to a connection or detached from it. */
  readonly onDidAttach = this.attachedEmitter.event;
  private readonly access = new WeakMap<PqsStore, WriteAccess>();
  /** The last attach without asking, started when the connections changed. */
  private autoAttaching: Promise<void> = Promise.resolve();

  constructor(private readonly deps: PqsConnectDeps) {
    super();
    this._register(deps.connections.onDidChange(() => void (this.autoAttaching = this.autoAttach().catch((err) => this.deps.errors.record('PQS not attached', err)))));
  }

  register(commands: CommandRegistry): void {
    commands.register(Commands.pqsConnect, (arg?: { url?: string; password?: string }) => this.connect(arg));
    commands.register(Commands.pqsDisconnect, () => this.disconnect());
  }

  /** What the attach found of the role's rights (undefined: not known). */
  writeAccessOf(store: PqsStore): WriteAccess | undefined {
    return this.access.get(store);
  }

  private driver = (): PgDriver => (this.deps.driver ?? (() => require(path.join(this.deps.extensionPath, 'dist', 'pqs.js')) as PgDriver))();

  /** Attaches the store this profile used before (its URL and password kept), without asking. */
  private async autoAttach(): Promise<void> {
    const c = this.deps.connections.activeConnection();
    if (!c || c.pqs) return;
    const kept = this.deps.globalState.get<string>(URL_KEY(c.id));
    // The demo participant's own PQS (cantonLedger.demo.pqsUrl), read with the password of the environment.
    const url = kept ?? (c.profile.source === 'demo' ? this.deps.demoPqsUrl?.() : undefined);
    if (!url) return;
    const password = kept ? await this.deps.secrets.get(c.id, 'pqsPassword') : await this.demoPassword();
    await this.attach(c, url, password, !kept).catch((err) => this.deps.errors.record(`PQS of ${c.profile.name} not attached`, err));
  }

  private async demoPassword(): Promise<string | undefined> {
    return (await this.deps.demoPqsPassword?.()) ?? this.deps.env?.PGPASSWORD;
  }

  /**
   * Attaches the demo participant's own PQS (its mirror's database) to the active demo connection, in
   * place of any other store: the one attached already when it is that one. Undefined when the active
   * connection is not the demo's or the demo has no PQS database.
   */
  async attachDemo(): Promise<PqsStore | undefined> {
    await this.autoAttaching;
    const c = this.deps.connections.activeConnection();
    const url = this.deps.demoPqsUrl?.();
    if (!c || c.profile.source !== 'demo' || !url) return undefined;
    if (c.pqs && describeSettings(c.pqs.settings) === describeSettings(parsePqsUrl(url).settings)) return c.pqs;
    // The user chose the demo's mirror: a store connected to the demo by hand before is forgotten.
    await this.deps.globalState.update(URL_KEY(c.id), undefined);
    return this.attach(c, url, await this.demoPassword(), true);
  }

  private async connect(arg?: { url?: string; password?: string }): Promise<void> {
    const c = this.deps.connections.activeConnection();
    if (!c) {
      await this.deps.prompts.message('warning', 'Connect to a participant first: its PQS database attaches to the connection.', []);
      return;
    }
    const url =
      arg?.url ??
      (await this.deps.prompts.input({
        title: 'Connect to PQS',
        prompt: `postgresql://user@host:5432/database?schema=…&sslmode=…  (${PQS_CAVEAT})`,
        value: this.deps.globalState.get<string>(URL_KEY(c.id)) ?? 'postgresql://pqs@localhost:5432/pqs?schema=public',
        ignoreFocusOut: true,
        validateInput: (v) => {
          try {
            parsePqsUrl(v);
            return undefined;
          } catch (e) {
            return (e as Error).message;
          }
        },
      }));
    if (url === undefined) return;
    const parsed = parsePqsUrl(url);
    const password =
      arg?.password ?? parsed.password ?? (await this.deps.prompts.input({ title: 'PQS password', prompt: `Password of ${parsed.settings.user} (kept in the editor’s secret storage)`, password: true, ignoreFocusOut: true }));
    if (password === undefined) return;
    const store = await this.attach(c, url, password);
    const access = this.access.get(store);
    // Not awaited: the command is done once the store is attached, whenever the warning is dismissed.
    if (access?.canWrite) void this.deps.prompts.message('warning', `PQS attached, but ${store.settings.user} could write to the store: ${access.reasons.join('; ')}. ${READ_ONLY_ROLE_ADVICE}`, []);
  }

  /** `transient`: the demo's store, attached for this session only (nothing kept). */
  private async attach(c: LedgerConnection, url: string, password: string | undefined, transient = false): Promise<PqsStore> {
    const { settings } = parsePqsUrl(url);
    const store = new PqsStore(settings, async () => password, this.driver);
    try {
      const check = await this.deps.prompts.progress(`Connecting to PQS ${describeSettings(settings)}`, async (signal) => {
        const found = await store.connect({ signal });
        await this.checkWriteAccess(store, { signal });
        return found;
      });
      // Kept only once it worked: the URL without its password, the password in secret storage.
      if (!transient) {
        await this.deps.globalState.update(URL_KEY(c.id), describeSettings(settings));
        if (password) await this.deps.secrets.set(c.id, 'pqsPassword', password);
      }
      c.attachPqs(store);
      this.deps.logger.info(`PQS attached to ${c.profile.name}: ${describeSettings(settings)} (interface ${check.verdict} as ${check.knows})`);
      this.attachedEmitter.fire(c);
      return store;
    } catch (err) {
      await store.dispose();
      throw err;
    }
  }

  /** A role that could write is worth a warning, not a refusal: every session is read-only anyway. */
  private async checkWriteAccess(store: PqsStore, o: CallOptions): Promise<void> {
    try {
      this.access.set(store, await store.roleCanWrite(o));
    } catch (err) {
      if (o.signal?.aborted) throw err;
      this.deps.errors.record(`PQS: whether ${store.settings.user} could write is not known`, err);
    }
  }

  private async disconnect(): Promise<void> {
    const c = this.deps.connections.activeConnection();
    if (!c) return;
    c.attachPqs(undefined);
    await this.deps.globalState.update(URL_KEY(c.id), undefined);
    await this.deps.secrets.delete(c.id, 'pqsPassword');
    this.attachedEmitter.fire(c);
  }
}
