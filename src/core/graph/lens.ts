/**
 * The party lens: what one party sees of a transaction graph, by the rules Compare Parties uses
 * (stakeholder / actor / witness). A party sees an event when the participant listed it among the
 * event's witness parties — so the transaction must have been read as that party (or as any party).
 */
import { seenAs, type ContractParties, type SeenAs, type SeenAsEvent } from '../updates/compare';
import type { ActionNode, TransactionGraph } from './model';

export interface PartyLens {
  party: string;
  /** By node id: how the party sees the action; absent = it does not see it. */
  actions: Map<number, SeenAs>;
  /** Contract ids the party sees: a stakeholder of it, or it sees an action on it. */
  contracts: Set<string>;
}

function eventOf(a: ActionNode): SeenAsEvent {
  if (a.kind === 'create') return { kind: 'created', signatories: a.signatories ?? [], observers: a.observers ?? [] };
  if (a.kind === 'archive') return { kind: 'archived' };
  return { kind: 'exercised', contractId: a.contractId, actingParties: a.actingParties, consuming: a.consuming === true };
}

export function partyLens(g: TransactionGraph, party: string): PartyLens {
  const stakeholders = new Map<string, ContractParties>();
  for (const c of g.contracts.values()) {
    if (c.signatories) stakeholders.set(c.contractId, { signatories: c.signatories, observers: c.observers ?? [] });
  }
  const actions = new Map<number, SeenAs>();
  const contracts = new Set<string>();
  for (const a of g.actions.values()) {
    if (!a.witnessParties.includes(party)) continue;
    actions.set(a.nodeId, seenAs(party, eventOf(a), stakeholders));
    contracts.add(a.contractId);
  }
  for (const [id, p] of stakeholders) if (p.signatories.includes(party) || p.observers.includes(party)) contracts.add(id);
  return { party, actions, contracts };
}

/** Actions and contracts that exactly one of two lenses sees: what sets two parties' views apart. */
export function lensDifference(a: PartyLens, b: PartyLens): { onlyFirst: number[]; onlySecond: number[]; differentRole: number[] } {
  const onlyFirst: number[] = [];
  const onlySecond: number[] = [];
  const differentRole: number[] = [];
  for (const [nodeId, role] of a.actions) {
    const other = b.actions.get(nodeId);
    if (other === undefined) onlyFirst.push(nodeId);
    else if (other !== role) differentRole.push(nodeId);
  }
  for (const nodeId of b.actions.keys()) if (!a.actions.has(nodeId)) onlySecond.push(nodeId);
  const byId = (x: number, y: number) => x - y;
  return { onlyFirst: onlyFirst.sort(byId), onlySecond: onlySecond.sort(byId), differentRole: differentRole.sort(byId) };
}
