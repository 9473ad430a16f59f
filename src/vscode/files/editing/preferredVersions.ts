import type * as vscode from 'vscode';
import { CancelledError } from '../../../core/errors';
import type { LedgerConnection } from '../../../core/ledger/connection';
import { sameNetwork, synchronizerIdsOf, type NetworkMember } from '../../../core/network/model';
import { describeVersionAnswer, PreferredVersions, type VersionScope } from '../../../core/network/preferredVersions';
import type { VersionLookup } from '../../../core/files/damlAssist';
import type { ConnectionManager } from '../../connections/manager';
import type { PackageIndex } from '../../../core/daml/packageIndex';

/**
 * How long a completion or hover waits for an answer not known yet. Past it, it answers with what is
 * known (an older answer, or "being asked"), and the answer, which goes on arriving, is there for the
 * next request: the editor never freezes on the network.
 */
export const EDITOR_WAIT_MS = 300;

export interface LookupOptions {
  /** A completion's or hover's cancel: stops the wait. */
  token?: vscode.CancellationToken;
  /** The same from a progress the user can cancel. */
  signal?: AbortSignal;
  /** How long to wait for answers not known yet (default: {@link EDITOR_WAIT_MS}). */
  waitMs?: number;
  /** The packages the editor knows: where Canton chooses below the version a name resolves to here, the answer names the hosts that lack it. */
  packages?: PackageIndex;
}

/**
 * The participants of the network as this window holds them: `target` first (Canton is asked there),
 * then every other connected connection on a synchronizer it is connected to.
 */
export function networkMembers(connections: ConnectionManager, target: LedgerConnection): NetworkMember[] {
  return networkConnections(connections, target).map(memberOf);
}

function memberOf(c: LedgerConnection): NetworkMember {
  return { label: c.profile.name, client: c.client };
}

function networkConnections(connections: ConnectionManager, target: LedgerConnection): LedgerConnection[] {
  const connected = connections.all().filter((c) => c !== target && c.id !== target.id && c.state.state === 'connected');
  return [target, ...sameNetwork(target, connected, (c) => synchronizerIdsOf(c.state))];
}

/**
 * The version Canton will use of each package name for a file's parties on the active connection, for
 * the template picker, completions and hovers: the core's `PreferredVersions`, scoped to the active
 * connection and the vetting state of every participant asked (a vetting change through any of them
 * asks anew), waited for at most a short while.
 */
export class EditorVersions {
  private readonly versions = new PreferredVersions();
  /**
   * A number per connection object (a reconnect makes a new object, and its answers are its own) and
   * per vetting state read (each read is a new object: a vetting change through any member asks anew).
   */
  private readonly numbers = new WeakMap<object, number>();
  private next = 0;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly waitMs = EDITOR_WAIT_MS,
  ) {}

  /** Who is asked for the active connection, and what its answers depend on; undefined when it is not connected. */
  scope(): VersionScope | undefined {
    const target = this.connections.activeConnection();
    if (!target) return undefined;
    const network = networkConnections(this.connections, target);
    const connectionKey = `${target.id}#${this.number(target)}`;
    const state = network.map((c) => `${c.id}#${this.number(c)}@${c.ledger ? this.number(c.ledger.vetting) : 'none'}`).join(',');
    return { members: network.map(memberOf), key: `${connectionKey}|${state}`, connectionKey };
  }

  /**
   * A lookup of each of `packageNames` for `parties`: the answers known, after waiting at most the
   * short while for those not known yet (the token's cancel stops the wait; the questions still on
   * their way go on for the next request). Undefined when no connection is active.
   */
  async lookup(packageNames: readonly string[], parties: readonly string[], o: LookupOptions = {}): Promise<VersionLookup | undefined> {
    const scope = this.scope();
    // No party yet (a new file): nothing to ask, nothing to say.
    if (!scope || packageNames.length === 0 || parties.length === 0) return scope && (() => undefined);
    const questions = [...new Set(packageNames)].map((packageName) => ({ packageName, parties, above: o.packages && versionHere(o.packages, packageName) }));
    const cancel = new AbortController();
    const cancelled = o.token?.onCancellationRequested(() => cancel.abort());
    const aborted = () => cancel.abort();
    o.signal?.addEventListener('abort', aborted, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const asking = this.versions.answer(scope, questions, { signal: cancel.signal });
      // Whoever stops waiting, a later failure of the request is no one's to report (a cancel, or the window closing).
      asking.catch(() => undefined);
      await Promise.race([asking, new Promise((resolve) => (timer = setTimeout(resolve, o.waitMs ?? this.waitMs)))]);
    } catch (e) {
      if (!(e instanceof CancelledError)) throw e;
    } finally {
      clearTimeout(timer);
      // From here the wait is over: a cancel no longer aborts what goes on for the next request.
      cancelled?.dispose();
      o.signal?.removeEventListener('abort', aborted);
    }
    const known = new Map(questions.map((q) => [q.packageName, this.versions.known(scope, q)]));
    return (packageName) => {
      const answer = known.get(packageName);
      return answer ? describeVersionAnswer(answer) : known.has(packageName) ? 'asking' : undefined;
    };
  }

  dispose(): void {
    this.versions.dispose();
  }

  private number(o: object): number {
    let n = this.numbers.get(o);
    if (n === undefined) this.numbers.set(o, (n = ++this.next));
    return n;
  }
}

/** The version a package name resolves to in the editor's packages (the highest vetted here, else known). */
function versionHere(packages: PackageIndex, packageName: string): string | undefined {
  const id = packages.resolvePackageName(packageName);
  return id === undefined ? undefined : packages.package(id)?.version;
}
