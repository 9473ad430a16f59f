/**
 * Contract lineage: where a contract came from and what became of it, across transactions.
 *
 * A contract's parent is the contract of the nearest exercise above its create node (the choice whose
 * consequence created it); a contract created at the root of a transaction has none. Inside one
 * transaction the walk follows transient contracts without a request (a transfer proposal created and
 * accepted in the same transaction sits between the old and the new Iou). Across transactions each hop
 * costs two requests: the contract's events (`events-by-contract-id`: where it was created or archived)
 * and the transaction at that offset (ledger-effects shape). Where the participant filters updates by
 * contract id (3.8), a hop is one request: the transactions that touch the contract, which carry both its
 * create and its archive. Everything is cached, so a transaction shared by several hops is read once.
 * Forward, the walk follows the archive only: what non-consuming choices created is not followed.
 */
import { CantonApiError } from '../errors';
import type { CallOptions } from '../api/http';
import type { ContractEvents } from '../models/contracts';
import type { Transaction } from '../models/updates';
import { buildTransactionGraph, type ActionNode, type TransactionGraph } from './model';

/** What the walk reads; the client adapter is `lineageReaderOf`, tests count its calls. */
export interface LineageReader {
  contractEvents(contractId: string, o: CallOptions): Promise<ContractEvents>;
  transactionAt(offset: number, o: CallOptions): Promise<Transaction>;
  /**
   * The transactions that touch a contract, in one request (3.8's contract-id filter); absent where the
   * participant does not have it, undefined where this read cannot be made (the walk then reads as before).
   */
  transactionsTouching?(contractId: string, o: CallOptions): Promise<Transaction[] | undefined>;
}

export interface TransactionRef {
  updateId: string;
  offset: number;
}

export type LineageState = 'active' | 'archived' | 'transient' | 'unknown';

export interface LineageContract {
  contractId: string;
  templateId?: string;
  createdIn?: TransactionRef;
  archivedIn?: TransactionRef;
  state: LineageState;
  /** Transactions between this contract and the start (0 for the start and its transient kin). */
  distance: number;
  /** Why its events could not be read (not visible to the parties, pruned): the participant's code. */
  problem?: { code: string; message: string };
}

/** Parent → child: the child was created by a choice exercised on the parent. */
export interface LineageLink {
  parent: string;
  child: string;
  via: TransactionRef;
  choice: string;
  consuming: boolean;
}

export type Direction = 'back' | 'forward';

export interface LineageBounds {
  /** Transactions away from the start, each way. Default 10. */
  maxDistance?: number;
  /** Contracts in the lineage. Default 200. */
  maxContracts?: number;
}

export interface Lineage {
  start: string;
  contracts: Map<string, LineageContract>;
  links: LineageLink[];
  transactions: Map<number, TransactionGraph>;
  /** Contracts whose lineage goes on past a bound, and which way: "more" continues from here. */
  frontier: { contractId: string; direction: Direction }[];
  /** Requests made so far (events and transactions). */
  requests: number;
}

export const DEFAULT_LINEAGE_BOUNDS: Required<LineageBounds> = { maxDistance: 10, maxContracts: 200 };

/** The nearest exercise above an action, if any. */
function parentExercise(g: TransactionGraph, a: ActionNode): ActionNode | undefined {
  let p = a.parent === undefined ? undefined : g.actions.get(a.parent);
  while (p && p.kind !== 'exercise') p = p.parent === undefined ? undefined : g.actions.get(p.parent);
  return p;
}

function createNodeOf(g: TransactionGraph, contractId: string): ActionNode | undefined {
  const c = g.contracts.get(contractId);
  return c?.createdBy === undefined ? undefined : g.actions.get(c.createdBy);
}

class LineageWalk {
  private readonly events = new Map<string, Promise<ContractEvents>>();
  private readonly touching = new Map<string, Promise<Transaction[] | undefined>>();
  private filterRefused = false;
  private readonly pending: { contractId: string; direction: Direction }[] = [];
  private readonly linked = new Set<string>();
  /** `contractId direction` of every step taken, so that no contract is walked twice the same way. */
  private readonly walked = new Set<string>();

  constructor(
    readonly lineage: Lineage,
    private readonly reader: LineageReader,
    private readonly bounds: Required<LineageBounds>,
    private readonly o: CallOptions,
  ) {
    for (const l of lineage.links) this.linked.add(`${l.parent} ${l.child}`);
  }

  async run(queue: { contractId: string; direction: Direction }[]): Promise<Lineage> {
    this.pending.push(...queue);
    this.lineage.frontier = [];
    while (this.pending.length > 0) {
      this.o.signal?.throwIfAborted();
      const next = this.pending.shift()!;
      const step = `${next.contractId} ${next.direction}`;
      if (this.walked.has(step)) continue;
      const c = this.lineage.contracts.get(next.contractId)!;
      if (c.distance >= this.bounds.maxDistance || this.lineage.contracts.size >= this.bounds.maxContracts) {
        this.lineage.frontier.push(next);
        continue;
      }
      this.walked.add(step);
      if (next.direction === 'back') await this.back(c);
      else await this.forward(c);
    }
    return this.lineage;
  }

  private contract(contractId: string, distance: number): LineageContract {
    let c = this.lineage.contracts.get(contractId);
    if (!c) this.lineage.contracts.set(contractId, (c = { contractId, state: 'unknown', distance }));
    return c;
  }

  private async eventsOf(c: LineageContract): Promise<ContractEvents | undefined> {
    let p = this.events.get(c.contractId);
    if (!p) {
      this.lineage.requests++;
      this.events.set(c.contractId, (p = this.reader.contractEvents(c.contractId, this.o)));
    }
    try {
      const ev = await p;
      c.templateId ??= ev.created?.event.templateId;
      if (ev.created) c.createdIn ??= { updateId: '', offset: ev.created.event.offset };
      if (ev.archived) c.archivedIn ??= { updateId: '', offset: ev.archived.event.offset };
      c.state = ev.archived ? 'archived' : ev.created ? 'active' : c.state;
      return ev;
    } catch (e) {
      // Not visible to these parties, or pruned: the lineage stops here, and says why.
      if (e instanceof CantonApiError) {
        c.problem = { code: e.code, message: e.message };
        return undefined;
      }
      throw e;
    }
  }

  /**
   * Where the contract was created and archived: from the transactions that touch it (one request) where
   * the participant filters updates by contract id, else from its events. None of them visible: its
   * events say why (the participant's code).
   */
  private async locate(c: LineageContract): Promise<{ created: boolean; archived: boolean }> {
    const read = this.filterRefused ? undefined : this.reader.transactionsTouching;
    if (read) {
      let p = this.touching.get(c.contractId);
      if (!p) {
        this.lineage.requests++;
        this.touching.set(c.contractId, (p = read.call(this.reader, c.contractId, this.o)));
      }
      const transactions = await p;
      // Refused once (pruned below the start, say): the rest of the walk reads as without the filter.
      if (transactions === undefined) this.filterRefused = true;
      if (transactions && transactions.length > 0) {
        for (const t of transactions) {
          let g = this.lineage.transactions.get(t.offset);
          if (!g) this.lineage.transactions.set(t.offset, (g = buildTransactionGraph(t)));
          this.learn(c, g);
        }
        return { created: Boolean(c.createdIn?.updateId), archived: Boolean(c.archivedIn?.updateId) };
      }
    }
    const ev = await this.eventsOf(c);
    return { created: Boolean(ev?.created), archived: Boolean(ev?.archived) };
  }

  private async graphAt(offset: number): Promise<TransactionGraph> {
    let g = this.lineage.transactions.get(offset);
    if (!g) {
      this.lineage.requests++;
      g = buildTransactionGraph(await this.reader.transactionAt(offset, this.o));
      this.lineage.transactions.set(offset, g);
    }
    return g;
  }

  private link(parent: LineageContract, child: LineageContract, g: TransactionGraph, exercise: ActionNode): void {
    const key = `${parent.contractId} ${child.contractId}`;
    if (this.linked.has(key)) return;
    this.linked.add(key);
    this.lineage.links.push({ parent: parent.contractId, child: child.contractId, via: { updateId: g.updateId, offset: g.offset }, choice: exercise.choice ?? '', consuming: exercise.consuming === true });
  }

  /** What a transaction says of a contract it touched. */
  private learn(c: LineageContract, g: TransactionGraph): void {
    const node = g.contracts.get(c.contractId);
    if (!node) return;
    c.templateId ??= node.templateId;
    const ref = { updateId: g.updateId, offset: g.offset };
    if (node.createdBy !== undefined) c.createdIn = ref;
    if (node.consumedBy !== undefined) c.archivedIn = ref;
    if (node.state === 'transient') c.state = 'transient';
    else if (node.consumedBy !== undefined) c.state = 'archived';
    else if (node.createdBy !== undefined && c.state === 'unknown') c.state = 'active';
  }

  private async back(c: LineageContract): Promise<void> {
    if (!c.createdIn?.updateId && !(await this.locate(c)).created) return;
    const g = await this.graphAt(c.createdIn!.offset);
    this.learn(c, g);
    // Up through the transaction: each transient parent was created here too, so go on without a request.
    let child = c;
    for (;;) {
      const create = createNodeOf(g, child.contractId);
      const exercise = create && parentExercise(g, create);
      if (!exercise) return;
      const createdHere = g.contracts.get(exercise.contractId)?.createdBy !== undefined;
      const parent = this.contract(exercise.contractId, createdHere ? child.distance : child.distance + 1);
      this.learn(parent, g);
      this.link(parent, child, g, exercise);
      if (!createdHere) {
        if (!parent.createdIn?.updateId) this.pending.push({ contractId: parent.contractId, direction: 'back' });
        return;
      }
      child = parent;
    }
  }

  private async forward(c: LineageContract): Promise<void> {
    if (!c.archivedIn?.updateId && !(await this.locate(c)).archived) {
      // The filtered read shows only what these parties see: no archive among them is no answer (archived
      // out of their sight, or active). The contract's events say which, or why they cannot.
      if (this.touching.has(c.contractId) && !this.events.has(c.contractId)) await this.eventsOf(c);
      if (!c.archivedIn) return;
    }
    const g = await this.graphAt(c.archivedIn!.offset);
    this.learn(c, g);
    // Down through the transaction: what the consuming exercise created, and what its transient
    // creations' choices created in turn.
    const parents = [c];
    while (parents.length > 0) {
      const parent = parents.shift()!;
      for (const a of g.actions.values()) {
        if (a.kind !== 'create') continue;
        const exercise = parentExercise(g, a);
        if (!exercise || exercise.contractId !== parent.contractId) continue;
        const transient = g.contracts.get(a.contractId)?.state === 'transient';
        const child = this.contract(a.contractId, transient ? parent.distance : parent.distance + 1);
        this.learn(child, g);
        this.link(parent, child, g, exercise);
        if (transient) parents.push(child);
        else this.pending.push({ contractId: child.contractId, direction: 'forward' });
      }
    }
  }
}

/**
 * Walks the lineage of `contractId` back and forward within the bounds. Give a previous result to go on
 * from its frontier ("more"); the signal cancels between requests and inside them.
 */
export async function walkLineage(
  reader: LineageReader,
  contractId: string,
  bounds: LineageBounds = {},
  o: CallOptions = {},
  previous?: Lineage,
): Promise<Lineage> {
  // Not a spread of `bounds`: a bound given as undefined (no --max-distance) would replace its default.
  const b: Required<LineageBounds> = { maxDistance: bounds.maxDistance ?? DEFAULT_LINEAGE_BOUNDS.maxDistance, maxContracts: bounds.maxContracts ?? DEFAULT_LINEAGE_BOUNDS.maxContracts };
  if (previous) {
    const more = { ...b, maxDistance: b.maxDistance + Math.max(0, ...previous.frontier.map((f) => previous.contracts.get(f.contractId)!.distance)) };
    return new LineageWalk(previous, reader, more, o).run(previous.frontier);
  }
  const lineage: Lineage = { start: contractId, contracts: new Map(), links: [], transactions: new Map(), frontier: [], requests: 0 };
  lineage.contracts.set(contractId, { contractId, state: 'unknown', distance: 0 });
  return new LineageWalk(lineage, reader, b, o).run([
    { contractId, direction: 'back' },
    { contractId, direction: 'forward' },
  ]);
}

/** The contracts in order from the oldest ancestor to the newest descendant (by creating offset). */
export function lineageInOrder(l: Lineage): LineageContract[] {
  return [...l.contracts.values()].sort((a, b) => (a.createdIn?.offset ?? 0) - (b.createdIn?.offset ?? 0) || a.contractId.localeCompare(b.contractId));
}
