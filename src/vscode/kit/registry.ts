// Every command of the extension is registered through this: one wrapper reports what a handler throws (once,
// through the error reporter and so through the prompts tests answer), and the commands that act on a
// connection find it one way. Nothing comes from 'vscode': the API is handed in, so that this runs in
// unit tests without VS Code.
import type { ConnectionProfile } from '../../core/connections';
import { LedgerConnection } from '../../core/ledger/connection';
import { Disposable, toDisposable, type IDisposable } from './lifecycle';
import type { ErrorReporter, Prompts } from './prompts';
import { Commands, type CommandId } from './ids';

/** The part of `vscode.commands` the registry uses. */
export interface CommandHost {
  registerCommand(command: string, callback: (...args: any[]) => unknown): IDisposable;
  executeCommand(command: string, ...rest: unknown[]): PromiseLike<unknown>;
}

/** The part of the profiles the target resolution reads. */
export interface TargetProfiles {
  active(): ConnectionProfile | undefined;
  all(): ConnectionProfile[];
  lookup(target: string | { profile: ConnectionProfile }): ConnectionProfile | undefined;
}

/** The part of the connections the target resolution reads: the profiles, and the connection of each. */
export interface TargetConnections {
  readonly profiles: TargetProfiles;
  connectionFor(profile: ConnectionProfile): LedgerConnection;
}

/**
 * How a command that acts on a connection finds it when it was given no row (a connection's tree
 * item or id). `purpose`: the active connection, and when there is none, one question offering Select
 * Connection. `question`: a pick among the connections that `fits` — for row actions of the
 * Connections view, where taking the active one unasked would act on a connection nobody chose; with
 * `preferActive`, the active one (or the only one) that fits is taken without asking.
 */
export type TargetPolicy =
  | { /** "No active connection: choose the participant to <purpose>." */ purpose: string }
  | { /** Names the action in the log and in "no connection fits". */ action: string; question: string; fits: (c: LedgerConnection) => boolean; preferActive?: boolean };

export const SELECT_CONNECTION = 'Select Connection';

/**
 * The connection a command acts on, as the object its handler is handed (after git's `createCommand`,
 * which resolves its argument to a `Repository`): the row's, else the active one, else asked (see
 * TargetPolicy). A row names its connection by object, by a tree item that carries its profile, or by
 * the profile's id (a menu, a link, a test): each is resolved here, once.
 */
export class ConnectionTargets {
  constructor(
    private readonly connections: TargetConnections,
    private readonly prompts: Pick<Prompts, 'message' | 'pick'>,
    private readonly host: Pick<CommandHost, 'executeCommand'>,
    private readonly errors: Pick<ErrorReporter, 'notice'>,
  ) {}

  async resolve(row: unknown, policy: TargetPolicy): Promise<LedgerConnection | undefined> {
    if (isRow(row)) return this.ofRow(row);
    if ('purpose' in policy) {
      const active = this.active();
      if (active) return active;
      const choice = await this.prompts.message('error', `No active connection: choose the participant to ${policy.purpose}.`, [SELECT_CONNECTION]);
      if (choice !== SELECT_CONNECTION) return undefined;
      await this.host.executeCommand(Commands.selectConnection);
      return this.active();
    }
    const candidates = this.connections.profiles.all().map((p) => this.connections.connectionFor(p)).filter(policy.fits);
    const active = this.active();
    if (policy.preferActive) {
      if (active && policy.fits(active)) return active;
      if (candidates.length === 1) return candidates[0];
    }
    // VS Code can hand a row's menu command no row at all (the menu was chosen while the tree was being
    // listed again): ask which one was meant rather than do nothing.
    this.errors.notice(`${policy.action}: the command was given no connection, so the user is asked`);
    if (candidates.length === 0) {
      await this.prompts.message('info', `${policy.action}: no connection fits.`, []);
      return undefined;
    }
    const picked = await this.prompts.pick(
      candidates.map((c) => ({ label: c.profile.name, description: c.profile.url, detail: c === active ? 'active' : undefined, connection: c })),
      { title: policy.question },
    );
    return picked?.connection;
  }

  private active(): LedgerConnection | undefined {
    const profile = this.connections.profiles.active();
    return profile && this.connections.connectionFor(profile);
  }

  /** The row's connection as it is now: a connection closed since the row was drawn gives way to its profile's current one. */
  private ofRow(row: string | { profile: ConnectionProfile } | LedgerConnection): LedgerConnection | undefined {
    const profile = this.connections.profiles.lookup(row instanceof LedgerConnection ? row.id : row);
    return profile && this.connections.connectionFor(profile);
  }
}

/** A connection, its profile's id, or a tree item that carries its profile. */
function isRow(arg: unknown): arg is string | { profile: ConnectionProfile } | LedgerConnection {
  if (typeof arg === 'string' || arg instanceof LedgerConnection) return true;
  const profile = typeof arg === 'object' && arg !== null ? (arg as { profile?: unknown }).profile : undefined;
  return typeof profile === 'object' && profile !== null && typeof (profile as { id?: unknown }).id === 'string';
}

/**
 * Registers the extension's commands. A handler's failure is reported once, as "<command title>
 * failed: …" with Show Log, and the command then resolves to undefined; cancellation stays silent.
 * Disposing the registry unregisters every command it registered.
 */
export class CommandRegistry extends Disposable {
  private readonly ids = new Set<CommandId>();

  constructor(
    private readonly host: CommandHost,
    private readonly errors: Pick<ErrorReporter, 'report'>,
    readonly targets: ConnectionTargets,
    /** The commands' titles as package.json gives them, for the failure messages. */
    private readonly titles: (id: CommandId) => string | undefined = () => undefined,
  ) {
    super();
  }

  register<A extends unknown[], R>(id: CommandId, handler: (...args: A) => R): IDisposable {
    if (this.ids.has(id)) throw new Error(`${id} is registered twice`);
    this.ids.add(id);
    const registration = this.host.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...(args as A));
      } catch (e) {
        await this.errors.report(`${this.titles(id)?.replace(/\u2026$/, '') ?? id} failed`, e);
        return undefined;
      }
    });
    return this._register(
      toDisposable(() => {
        this.ids.delete(id);
        registration.dispose();
      }),
    );
  }

  /**
   * A command that acts on a connection: its first argument (a row, or anything else: a file, nothing)
   * gives way to the resolved connection; without one the handler does not run.
   */
  registerForConnection<A extends unknown[], R>(id: CommandId, policy: TargetPolicy, handler: (target: LedgerConnection, ...rest: A) => R): IDisposable {
    return this.register(id, async (row?: unknown, ...rest: unknown[]) => {
      const target = await this.targets.resolve(row, policy);
      return target ? handler(target, ...(rest as A)) : undefined;
    });
  }

  /** The ids registered now (for the check against package.json). */
  registeredIds(): CommandId[] {
    return [...this.ids];
  }
}
