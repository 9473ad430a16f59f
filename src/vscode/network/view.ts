import type { LedgerConnection } from '../../core/ledger/connection';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import { describeNetworkProblem, networkProblemTitle, type NetworkProblem, type NetworkSnapshot } from '../../core/network/model';
import { readNetwork } from '../../core/network/read';
import { networkRows } from '../../core/network/rows';
import { CancelledError } from '../../core/errors';
import { Commands, Views } from '../kit/ids';
import type { ConnectionManager } from '../connections/manager';
import type { Prompts } from '../kit/prompts';
import { errorRows } from '../kit/errorRows';
import { childrenOf, LedgerTreeView, MessageNode, statusNodes, uniqueNodes, type ViewNode } from '../kit/rowsTree';

interface Read {
  /** The connections read, in the order they were given. */
  members: LedgerConnection[];
  abort: AbortController;
  snapshot: Promise<NetworkSnapshot>;
  settled: boolean;
}

/**
 * The Network view: every connected connection's participant (not only the active one's), the parties
 * each hosts with their permission, and the vetting matrix with its drift, read with `readNetwork`
 * and read again when a connection connects or goes, or its ledger (vetting, packages, end) moves.
 * What could not be read is a row of its own, with the member it is about.
 */
export class NetworkView extends LedgerTreeView {
  private read: Read | undefined;
  /** A ledger moved while a read was under way: read once more after it. */
  private movedDuringRead = false;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly logger: Logger,
    private readonly redactor: Redactor,
    private readonly prompts: Pick<Prompts, 'viewProgress'>,
  ) {
    super(Views.network);
    this._registerAll(
      connections.onDidChange(() => this.membersMayHaveChanged()),
      connections.onDidChangeLedger((e) => this.read?.members.includes(e.connection) && this.ledgerMoved()),
      { dispose: () => this.read?.abort.abort() },
    );
  }

  /** The connected connections the view reads from, in the Connections view's order. */
  members(): LedgerConnection[] {
    // Only the connections made so far: asking for every profile's would make one for each.
    const connected = new Map(this.connections.all().filter((c) => c.state.state === 'connected').map((c) => [c.id, c]));
    return this.connections.profiles.all().flatMap((p) => connected.get(p.id) ?? []);
  }

  /** What the view shows now (reading it first when needed), for commands and tests; undefined when nothing is connected. */
  async snapshot(): Promise<{ snapshot: NetworkSnapshot; members: LedgerConnection[] } | undefined> {
    for (;;) {
      const members = this.members();
      if (members.length === 0) return undefined;
      const read = this.current(members);
      try {
        return { snapshot: await read.snapshot, members };
      } catch (e) {
        // Superseded (a refresh, a ledger moved, a connection came or went): the newer read answers.
        if (!(e instanceof CancelledError) || this.read === read) throw e;
      }
    }
  }

  /** Reads the network again (Refresh). */
  refresh(): void {
    this.drop();
    this.changed.fire(undefined);
  }

  private current(members: LedgerConnection[]): Read {
    if (this.read && sameMembers(this.read.members, members)) return this.read;
    this.drop();
    const abort = new AbortController();
    const read: Read = {
      members,
      abort,
      snapshot: readNetwork(
        members.map((c) => ({ label: c.profile.name, client: c.client })),
        { parties: 'hosted', signal: abort.signal },
      ),
      settled: false,
    };
    void read.snapshot.catch(() => undefined).finally(() => {
      read.settled = true;
      if (this.read === read && this.movedDuringRead) {
        this.movedDuringRead = false;
        this.refresh();
      }
    });
    this.read = read;
    return read;
  }

  private drop(): void {
    this.read?.abort.abort();
    this.read = undefined;
    this.movedDuringRead = false;
  }

  private membersMayHaveChanged(): void {
    if (this.read && sameMembers(this.read.members, this.members())) return;
    this.refresh();
  }

  private ledgerMoved(): void {
    // A read under way finishes first (a busy ledger moves often): one more read follows it.
    if (this.read?.settled) this.refresh();
    else this.movedDuringRead = true;
  }

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (node) return childrenOf(node);
    let read: Awaited<ReturnType<NetworkView['snapshot']>>;
    try {
      read = await this.prompts.viewProgress(Views.network, () => this.snapshot());
    } catch (e) {
      this.logger.warn(`Network: ${this.redactor.redactError(e)}`);
      return statusNodes(errorRows('network', e, { retry: { command: Commands.refreshNetwork, title: 'Retry' }, redact: (x) => this.redactor.redact(x) }));
    }
    if (!read) return noMemberNodes();
    return [...problemNodes(read.snapshot.problems, read.members, (x) => this.redactor.redact(x)), ...uniqueNodes(networkRows(read.snapshot), 'network')];
  }
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
export function problemNodes(problems: readonly NetworkProblem[], members: readonly LedgerConnection[], redact: (s: string) => string): MessageNode[] {
  return problems.flatMap((p, i) => {
    const id = `network/problem-${i}`;
    const connection = members.find((c) => c.profile.name === p.member);
    if (p.kind === 'unavailable') return [new MessageNode(id, describeNetworkProblem(p), { icon: 'info', tooltip: `A 3.3 participant cannot tell this over the JSON Ledger API: the network is read from what the other participants tell.` })];
    const title = networkProblemTitle(p);
    return statusNodes(errorRows(id, p.error, { title, profileId: connection?.id, retry: { command: Commands.refreshNetwork, title: 'Retry' }, redact }));
  });
}
