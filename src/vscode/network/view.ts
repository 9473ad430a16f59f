import vscode = require('vscode');
import type { LedgerConnection } from '../../core/ledger/connection';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import { connectedSynchronizers, describeNetworkProblem, networkProblemTitle, networksOf, synchronizerIdsOf, type NetworkGroup, type NetworkProblem, type NetworkSnapshot } from '../../core/network/model';
import { readNetwork } from '../../core/network/read';
import { networkHeading, networkRows, type NamedSynchronizer } from '../../core/network/rows';
import { CancelledError } from '../../core/errors';
import { Commands, Views } from '../kit/ids';
import type { ConnectionManager } from '../connections/manager';
import type { Prompts } from '../kit/prompts';
import { errorRows } from '../kit/errorRows';
import { childrenOf, LedgerTreeView, MessageNode, statusNodes, uniqueNodes, type ViewNode } from '../kit/rowsTree';

interface Read {
  /** The network's key ({@link networkKey}). */
  key: string;
  /** The connections read, in the Connections view's order. */
  members: LedgerConnection[];
  synchronizers: string[];
  abort: AbortController;
  snapshot: Promise<NetworkSnapshot>;
  settled: boolean;
  /** A ledger of a member moved while the read was under way: read once more after it. */
  movedDuringRead: boolean;
}

/** One network as the view shows it: its connections, its synchronizers, and what was read (or why it could not be). */
export interface NetworkRead {
  key: string;
  members: LedgerConnection[];
  synchronizers: NamedSynchronizer[];
  snapshot?: NetworkSnapshot;
  error?: unknown;
}

/** A network's key: its synchronizers, or (when they are not known) its one connection. */
function networkKey(group: NetworkGroup<LedgerConnection>): string {
  return group.synchronizers.length ? group.synchronizers.join(' ') : `unknown:${group.members[0].id}`;
}

const NODE_PREFIX = 'network/';

/**
 * The Network view: the connected connections (not only the active one), grouped into networks as
 * the core groups them (`networksOf`: participants on a common synchronizer), a top-level node per
 * network named by its synchronizers. Within each: the participants, the parties each hosts with
 * their permission, and the vetting matrix with its drift, read with `readNetwork` over that
 * network's connections alone (never across unrelated participants), and read again when a
 * connection connects or goes, or a member's ledger (vetting, packages, end) moves. What could not be
 * read is a row of its own, under its network, with the member it is about.
 */
export class NetworkView extends LedgerTreeView {
  private reads = new Map<string, Read>();

  constructor(
    private readonly connections: ConnectionManager,
    private readonly logger: Logger,
    private readonly redactor: Redactor,
    private readonly prompts: Pick<Prompts, 'viewProgress'>,
  ) {
    super(Views.network);
    this._registerAll(
      connections.onDidChange(() => this.membersMayHaveChanged()),
      connections.onDidChangeLedger((e) => this.ledgerMoved(e.connection)),
      { dispose: () => this.dropAll() },
    );
  }

  /** The connected connections the view reads from, in the Connections view's order. */
  members(): LedgerConnection[] {
    // Only the connections made so far: asking for every profile's would make one for each.
    const connected = new Map(this.connections.all().filter((c) => c.state.state === 'connected').map((c) => [c.id, c]));
    return this.connections.profiles.all().flatMap((p) => connected.get(p.id) ?? []);
  }

  /** The networks the connected connections form, each as the core groups them. */
  groups(): NetworkGroup<LedgerConnection>[] {
    return networksOf(this.members(), (c) => synchronizerIdsOf(c.state));
  }

  /** What the view shows now, a network each (reading first when needed), for commands and tests; empty when nothing is connected. */
  async networks(): Promise<NetworkRead[]> {
    for (;;) {
      const reads = this.currentReads();
      const settled = await Promise.all(reads.map((read) => read.snapshot.then((snapshot) => ({ read, snapshot }), (error: unknown) => ({ read, error }))));
      // Superseded (a refresh, a ledger moved, a connection came or went): the newer read answers.
      if (settled.some((s) => 'error' in s && s.error instanceof CancelledError && this.reads.get(s.read.key) !== s.read)) continue;
      return settled.map(({ read, ...outcome }) => ({ key: read.key, members: read.members, synchronizers: namedSynchronizers(read), ...outcome }));
    }
  }

  /** The network a node of this view is in (its top-level node's). */
  networkOf<N extends NetworkRead>(node: ViewNode, networks: readonly N[]): N | undefined {
    let top = node;
    while (top.parent) top = top.parent;
    return networks.find((n) => top.id === `${NODE_PREFIX}${n.key}`);
  }

  /** Reads every network again (Refresh). */
  refresh(): void {
    this.dropAll();
    this.changed.fire(undefined);
  }

  /** A read per network as the members are grouped now: the reads of unchanged networks kept, the others started. */
  private currentReads(): Read[] {
    const next = new Map<string, Read>();
    for (const group of this.groups()) {
      const key = networkKey(group);
      const kept = this.reads.get(key);
      next.set(key, kept && sameMembers(kept.members, group.members) ? kept : this.startRead(key, group));
    }
    for (const [key, read] of this.reads) if (next.get(key) !== read) read.abort.abort();
    this.reads = next;
    return [...next.values()];
  }

  private startRead(key: string, group: NetworkGroup<LedgerConnection>): Read {
    const abort = new AbortController();
    const read: Read = {
      key,
      members: group.members,
      synchronizers: group.synchronizers,
      abort,
      snapshot: readNetwork(
        group.members.map((c) => ({ label: c.profile.name, client: c.client })),
        { parties: 'hosted', signal: abort.signal },
      ),
      settled: false,
      movedDuringRead: false,
    };
    void read.snapshot.catch(() => undefined).finally(() => {
      read.settled = true;
      if (this.reads.get(key) === read && read.movedDuringRead) this.drop(read);
    });
    return read;
  }

  /** Forgets one network's read (its next showing reads it again) and redraws. */
  private drop(read: Read): void {
    read.abort.abort();
    if (this.reads.get(read.key) === read) this.reads.delete(read.key);
    this.changed.fire(undefined);
  }

  private dropAll(): void {
    for (const read of this.reads.values()) read.abort.abort();
    this.reads.clear();
  }

  private membersMayHaveChanged(): void {
    const groups = this.groups();
    const same = groups.length === this.reads.size && groups.every((g) => {
      const read = this.reads.get(networkKey(g));
      return read !== undefined && sameMembers(read.members, g.members);
    });
    if (!same) this.changed.fire(undefined);
  }

  private ledgerMoved(connection: LedgerConnection): void {
    const read = [...this.reads.values()].find((r) => r.members.includes(connection));
    if (!read) return;
    // A read under way finishes first (a busy ledger moves often): one more read follows it.
    if (read.settled) this.drop(read);
    else read.movedDuringRead = true;
  }

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (node) return childrenOf(node);
    let networks: NetworkRead[];
    try {
      networks = await this.prompts.viewProgress(Views.network, () => this.networks());
    } catch (e) {
      this.logger.warn(`Network: ${this.redactor.redactError(e)}`);
      return statusNodes(errorRows('network', e, { retry: { command: Commands.refreshNetwork, title: 'Retry' }, redact: (x) => this.redactor.redact(x) }));
    }
    if (networks.length === 0) return noMemberNodes();
    return networks.map((n) => this.networkNode(n));
  }

  /** A network's top-level node: its problems first, then its participants and vetting. */
  private networkNode(n: NetworkRead): MessageNode {
    const heading = networkHeading(n.synchronizers, n.members.map((c) => c.profile.name));
    const node = new MessageNode(`${NODE_PREFIX}${n.key}`, heading.label, {
      description: heading.description,
      tooltip: new vscode.MarkdownString(heading.tooltip),
      icon: n.synchronizers.length ? 'globe' : 'question',
      contextValue: 'cantonLedger:network',
    });
    const redact = (x: string) => this.redactor.redact(x);
    if (n.error !== undefined) this.logger.warn(`Network ${heading.label}: ${this.redactor.redactError(n.error)}`);
    node.opts.children = n.snapshot
      ? [...problemNodes(n.snapshot.problems, n.members, redact, node), ...uniqueNodes(networkRows(n.snapshot), node.id, node)]
      : statusNodes(errorRows(`${node.id}/error`, n.error, { retry: { command: Commands.refreshNetwork, title: 'Retry' }, redact }), node);
    return node;
  }
}

/** Each synchronizer of a network with the alias the first of its members that is connected to it gave it. */
function namedSynchronizers(read: Pick<Read, 'members' | 'synchronizers'>): NamedSynchronizer[] {
  return read.synchronizers.map((id) => ({
    id,
    alias: read.members.flatMap((c) => connectedSynchronizers(c.state)).find((s) => s.synchronizerId === id)?.synchronizerAlias,
  }));
}

function sameMembers(a: readonly LedgerConnection[], b: readonly LedgerConnection[]): boolean {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

function noMemberNodes(): MessageNode[] {
  return [
    new MessageNode('network/none', 'No connected participant', { description: 'connect one or more', icon: 'plug', command: { command: Commands.selectConnection, title: 'Select Connection' } }),
    new MessageNode('network/demo', 'Start Demo Network', { description: 'app-provider, app-user and sv on one synchronizer', icon: 'play', command: { command: Commands.startDemoNetwork, title: 'Start Demo Network' } }),
  ];
}

/**
 * A row per problem, first: the one error-row kit for a failure (a rejected token offers Update Token
 * on the member's connection), a fact for a release without the operation. Never a silent "fine".
 */
export function problemNodes(problems: readonly NetworkProblem[], members: readonly LedgerConnection[], redact: (s: string) => string, parent?: ViewNode): MessageNode[] {
  return problems.flatMap((p, i) => {
    const id = `${parent?.id ?? 'network'}/problem-${i}`;
    const connection = members.find((c) => c.profile.name === p.member);
    if (p.kind === 'unavailable') return [new MessageNode(id, describeNetworkProblem(p), { icon: 'info', tooltip: `A 3.3 participant cannot tell this over the JSON Ledger API: the network is read from what the other participants tell.` }, parent)];
    const title = networkProblemTitle(p);
    return statusNodes(errorRows(id, p.error, { title, profileId: connection?.id, retry: { command: Commands.refreshNetwork, title: 'Retry' }, redact }), parent);
  });
}
