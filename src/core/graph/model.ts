/**
 * The transaction graph: what one transaction did, as actions (exercises, creates, archives) in their
 * tree order and the contracts they touched, each with its state in this transaction. Built from a
 * decoded transaction, ideally read in the ledger-effects shape (every exercise and its children); an
 * ACS-delta transaction gives creates and archives only.
 *
 * The tree comes from `nodeId` and `lastDescendantNodeId` (JSON Ledger API v2: an exercise's
 * descendants are the events whose node ids lie in (nodeId, lastDescendantNodeId]).
 */
import type { Transaction, TransactionEvent } from '../models/updates';
import type { TrafficCostEstimate } from '../trafficCost';

/** `fetch`, `lookup` (of a contract key) and `rollback` come only from a prepared transaction (a preview): the ledger's transactions have none. */
export type ActionKind = 'exercise' | 'create' | 'archive' | 'fetch' | 'lookup' | 'rollback';

/**
 * A contract's part in the transaction. `consumed`: an input that a consuming exercise (or an archive)
 * ended; `used`: an input only exercised non-consumingly, still active afterwards; `created`: new and
 * still active; `transient`: created and consumed inside the transaction (never in any ACS).
 */
export type ContractState = 'consumed' | 'used' | 'created' | 'transient';

export interface ActionNode {
  /** Graph-wide id: `n<nodeId>`. */
  id: string;
  nodeId: number;
  kind: ActionKind;
  /** Node id of the enclosing exercise; undefined for a root action. */
  parent?: number;
  /** Node ids of the direct children, in order. */
  children: number[];
  /** 0 for a root action. */
  depth: number;
  contractId: string;
  templateId: string;
  packageName: string;
  interfaceId?: string;
  choice?: string;
  consuming?: boolean;
  actingParties: string[];
  /** The requesting parties that see this event (as the participant listed them). */
  witnessParties: string[];
  /** Signatories and observers, for creates. */
  signatories?: string[];
  observers?: string[];
  /** Create argument or choice argument. */
  argument?: unknown;
  exerciseResult?: unknown;
  /** The node's index in the transaction's event list (for "open the JSON at this node"). */
  eventIndex: number;
}

export interface ContractNode {
  /** Graph-wide id: `c<index>`, in order of first appearance. */
  id: string;
  contractId: string;
  templateId: string;
  packageName: string;
  state: ContractState;
  /** Node id of the create, when the contract was created here. */
  createdBy?: number;
  /** Node id of the consuming exercise or archive, when it ended here. */
  consumedBy?: number;
  /** Node ids of non-consuming exercises on it. */
  usedBy: number[];
  signatories?: string[];
  observers?: string[];
}

/**
 * `child`: an exercise to an action of its consequences; `creates`: a create to its contract;
 * `consumes` / `uses`: a contract to the exercise (or archive) that consumed or used it.
 */
export type EdgeKind = 'child' | 'creates' | 'consumes' | 'uses';

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

/** Something in the events that does not fit a tree; the graph is still built from the rest. */
export interface GraphProblem {
  nodeId: number;
  problem: 'duplicate-node-id' | 'outside-parent' | 'contract-created-twice';
}

export interface TransactionGraph {
  updateId: string;
  offset: number;
  commandId?: string;
  workflowId?: string;
  effectiveAt: string;
  recordTime: string;
  synchronizerId: string;
  /** True when the transaction was read in the ledger-effects shape (it has exercises or no archives). */
  ledgerEffects: boolean;
  /** What the submitting participant paid (3.4.12+; only to the submitters' reads). */
  paidTrafficCost?: number;
  /** A preview's: the participant's estimate of the cost (3.4+). */
  costEstimate?: TrafficCostEstimate;
  /** Node ids of the root actions, in order. */
  roots: number[];
  actions: Map<number, ActionNode>;
  /** By contract id. */
  contracts: Map<string, ContractNode>;
  edges: GraphEdge[];
  problems: GraphProblem[];
}

function actionOf(e: TransactionEvent, eventIndex: number): ActionNode {
  const base = {
    id: `n${e.nodeId}`,
    nodeId: e.nodeId,
    children: [] as number[],
    depth: 0,
    contractId: e.contractId,
    templateId: e.templateId,
    packageName: e.packageName,
    witnessParties: e.witnessParties,
    eventIndex,
  };
  switch (e.kind) {
    case 'created':
      return { ...base, kind: 'create', actingParties: [], signatories: e.signatories, observers: e.observers, argument: e.createArgument };
    case 'archived':
      return { ...base, kind: 'archive', actingParties: [] };
    case 'exercised':
      return {
        ...base,
        kind: 'exercise',
        interfaceId: e.interfaceId,
        choice: e.choice,
        consuming: e.consuming,
        actingParties: e.actingParties,
        argument: e.choiceArgument,
        exerciseResult: e.exerciseResult,
      };
  }
}

/** Builds the graph of one transaction. Events may come in any order; the tree is rebuilt from node ids. */
export function buildTransactionGraph(tx: Transaction): TransactionGraph {
  const problems: GraphProblem[] = [];
  const indexed = tx.events.map((event, eventIndex) => ({ event, eventIndex })).sort((a, b) => a.event.nodeId - b.event.nodeId);
  const actions = new Map<number, ActionNode>();
  const roots: number[] = [];
  // The exercises whose descendant range is still open, innermost last.
  const open: { nodeId: number; last: number }[] = [];
  for (const { event, eventIndex } of indexed) {
    if (actions.has(event.nodeId)) {
      problems.push({ nodeId: event.nodeId, problem: 'duplicate-node-id' });
      continue;
    }
    while (open.length > 0 && open[open.length - 1].last < event.nodeId) open.pop();
    const node = actionOf(event, eventIndex);
    const parent = open[open.length - 1];
    if (parent) {
      node.parent = parent.nodeId;
      node.depth = open.length;
      actions.get(parent.nodeId)!.children.push(node.nodeId);
    } else roots.push(node.nodeId);
    actions.set(node.nodeId, node);
    if (event.kind === 'exercised') {
      if (parent && event.lastDescendantNodeId > parent.last) problems.push({ nodeId: event.nodeId, problem: 'outside-parent' });
      open.push({ nodeId: event.nodeId, last: Math.max(event.nodeId, event.lastDescendantNodeId) });
    }
  }

  const linked = linkContracts(actions);
  const { contracts, edges } = linked;
  problems.push(...linked.problems);

  const kinds = new Set(tx.events.map((e) => e.kind));
  return {
    updateId: tx.updateId,
    offset: tx.offset,
    commandId: tx.commandId,
    workflowId: tx.workflowId,
    effectiveAt: tx.effectiveAt,
    recordTime: tx.recordTime,
    synchronizerId: tx.synchronizerId,
    ledgerEffects: kinds.has('exercised') || !kinds.has('archived'),
    ...(tx.paidTrafficCost !== undefined ? { paidTrafficCost: tx.paidTrafficCost } : {}),
    roots,
    actions,
    contracts,
    edges,
    problems,
  };
}

/**
 * The contracts the actions touch, each with its state, and the edges: parent to child, create to its
 * contract, contract to the exercise (or fetch, or archive) on it. A rollback touches no contract.
 */
export function linkContracts(actions: ReadonlyMap<number, ActionNode>): { contracts: Map<string, ContractNode>; edges: GraphEdge[]; problems: GraphProblem[] } {
  const problems: GraphProblem[] = [];
  const contracts = new Map<string, ContractNode>();
  const contractOf = (a: ActionNode): ContractNode => {
    let c = contracts.get(a.contractId);
    if (!c) {
      c = { id: `c${contracts.size}`, contractId: a.contractId, templateId: a.templateId, packageName: a.packageName, state: 'used', usedBy: [] };
      contracts.set(a.contractId, c);
    }
    return c;
  };
  const edges: GraphEdge[] = [];
  // What a rollback node holds was undone: it is drawn, and changes no contract's state.
  const rolledBack = (a: ActionNode): boolean => {
    for (let p = a.parent === undefined ? undefined : actions.get(a.parent); p; p = p.parent === undefined ? undefined : actions.get(p.parent)) if (p.kind === 'rollback') return true;
    return false;
  };
  // Tree order, so that contracts are numbered as a reader meets them.
  const inTreeOrder = [...actions.values()].sort((a, b) => a.nodeId - b.nodeId);
  for (const a of inTreeOrder) {
    if (a.parent !== undefined) edges.push({ from: `n${a.parent}`, to: a.id, kind: 'child' });
    // A lookup that found nothing touches no contract either.
    if (a.kind === 'rollback' || (a.kind === 'lookup' && !a.contractId)) continue;
    const c = contractOf(a);
    if (rolledBack(a)) {
      edges.push({ from: a.kind === 'create' ? a.id : c.id, to: a.kind === 'create' ? c.id : a.id, kind: a.kind === 'create' ? 'creates' : 'uses' });
      continue;
    }
    if (a.kind === 'create') {
      if (c.createdBy !== undefined) problems.push({ nodeId: a.nodeId, problem: 'contract-created-twice' });
      c.createdBy ??= a.nodeId;
      c.signatories = a.signatories;
      c.observers = a.observers;
      c.templateId = a.templateId;
      edges.push({ from: a.id, to: c.id, kind: 'creates' });
    } else if (a.kind === 'archive' || a.consuming) {
      c.consumedBy ??= a.nodeId;
      edges.push({ from: c.id, to: a.id, kind: 'consumes' });
    } else {
      c.usedBy.push(a.nodeId);
      edges.push({ from: c.id, to: a.id, kind: 'uses' });
    }
  }
  for (const c of contracts.values()) {
    const created = c.createdBy !== undefined;
    const consumed = c.consumedBy !== undefined;
    c.state = created ? (consumed ? 'transient' : 'created') : consumed ? 'consumed' : 'used';
  }

  return { contracts, edges, problems };
}

/** The actions in tree order (depth first, children in order). */
export function actionsInTreeOrder(g: TransactionGraph): ActionNode[] {
  const out: ActionNode[] = [];
  const stack = [...g.roots].reverse();
  while (stack.length > 0) {
    const a = g.actions.get(stack.pop()!)!;
    out.push(a);
    for (let i = a.children.length - 1; i >= 0; i--) stack.push(a.children[i]);
  }
  return out;
}
