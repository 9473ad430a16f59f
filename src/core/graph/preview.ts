/**
 * The graph of a prepared transaction (a preview): what the commands would do if submitted, with the
 * nodes a committed transaction does not show — fetches, and rollbacks whose content was undone — and
 * the input contracts it reads, with their stakeholders.
 */
import type { PreparedPreview, PreviewNode } from '../preview/model';
import type { TrafficCostEstimate } from '../trafficCost';
import { linkContracts, type ActionNode, type TransactionGraph } from './model';

export function previewGraph(p: PreparedPreview, costEstimate?: TrafficCostEstimate): TransactionGraph {
  const actions = new Map<number, ActionNode>();
  const roots: number[] = [];
  let next = 0;
  const visit = (n: PreviewNode, parent: ActionNode | undefined, depth: number): void => {
    const nodeId = next++;
    const observers = n.stakeholders.filter((s) => !n.signatories.includes(s));
    const a: ActionNode = {
      id: `n${nodeId}`,
      nodeId,
      kind: n.kind,
      parent: parent?.nodeId,
      children: [],
      depth,
      // A lookup's contract is the one it found, if any.
      contractId: n.contractId ?? n.found?.[0] ?? '',
      templateId: n.templateId ?? '',
      packageName: n.packageName ?? '',
      interfaceId: n.interfaceId,
      choice: n.choice,
      consuming: n.kind === 'exercise' ? n.consuming === true : undefined,
      actingParties: n.actingParties,
      witnessParties: n.informees,
      ...(n.kind === 'create' ? { signatories: n.signatories, observers } : {}),
      argument: n.kind === 'create' ? n.argument : n.choiceArgument,
      exerciseResult: n.exerciseResult,
      eventIndex: nodeId,
    };
    actions.set(nodeId, a);
    if (parent) parent.children.push(nodeId);
    else roots.push(nodeId);
    for (const c of n.children) visit(c, a, depth + 1);
  };
  for (const r of p.roots) visit(r, undefined, 0);
  const { contracts, edges, problems } = linkContracts(actions);
  // The inputs' stakeholders come with the prepared transaction: the lens can tell stakeholders from witnesses.
  for (const input of p.inputContracts) {
    const c = contracts.get(input.contractId);
    if (!c) continue;
    c.signatories = input.signatories;
    c.observers = input.stakeholders.filter((s) => !input.signatories.includes(s));
    if (input.templateId) c.templateId = input.templateId;
  }
  return {
    updateId: `preview of ${p.commandId}`,
    offset: 0,
    commandId: p.commandId,
    effectiveAt: p.preparationTime ?? '',
    recordTime: '',
    synchronizerId: p.synchronizerId,
    ledgerEffects: true,
    ...(costEstimate ? { costEstimate } : {}),
    roots,
    actions,
    contracts,
    edges,
    problems,
  };
}
