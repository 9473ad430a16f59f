/**
 * What a graph view shows, as plain data (no Maps, no classes): the webview gets it in a message and
 * keeps it in its saved state, so that a reloaded window draws the same graph without the ledger.
 */
import type { SeenAs } from '../updates/compare';
import { compareWithCommitted, differenceLine, type GraphDifference } from './compare';
import { transactionDiff, type TemplateChange } from './diff';
import { actionLabel, contractLabel, lineageContractLabel, toMermaid, toDot, toText, exportLineage } from './export';
import { partyLens } from './lens';
import { lineageInOrder, type Lineage, type LineageContract, type LineageLink } from './lineage';
import { actionsInTreeOrder, type ActionNode, type ContractNode, type GraphEdge, type GraphProblem, type TransactionGraph } from './model';
import { comparisonCountsText } from './counts';
import { rangeDiffText, type RangeDiff } from './rangeDiff';
import { plural } from '../text';
import { labelledTrafficCost, paidBesideEstimateText, trafficCostLine } from '../trafficCost';

export interface LensData {
  /** By node id. */
  actions: Record<number, SeenAs>;
  contracts: string[];
}

export interface TransactionDocument {
  kind: 'transaction';
  title: string;
  updateId: string;
  offset: number;
  commandId?: string;
  effectiveAt: string;
  ledgerEffects: boolean;
  /** The header's traffic cost: paid (a committed transaction) or estimated (a preview). */
  trafficCost?: string;
  roots: number[];
  /** In tree order. */
  actions: (ActionNode & { label: string[] })[];
  contracts: (ContractNode & { label: string[] })[];
  edges: GraphEdge[];
  problems: GraphProblem[];
  /** Every party some event lists as a witness: the lens can show each. */
  parties: string[];
  lenses: Record<string, LensData>;
  byTemplate: TemplateChange[];
  /** The same graph as text: the view's text alternative, and what Copy as Text copies. */
  text: string;
  mermaid: string;
  dot: string;
}

export interface LineageDocument {
  kind: 'lineage';
  title: string;
  start: string;
  /** Oldest first. */
  contracts: (LineageContract & { label: string[] })[];
  links: LineageLink[];
  frontier: Lineage['frontier'];
  requests: number;
  text: string;
  mermaid: string;
  dot: string;
}

export interface RangeDiffDocument {
  kind: 'range-diff';
  title: string;
  diff: RangeDiff;
  text: string;
}

/** A preview's prepared transaction beside the transaction its commands committed, with what differs. */
export interface ComparisonDocument {
  kind: 'comparison';
  title: string;
  prepared: TransactionDocument;
  committed: TransactionDocument;
  /** Matched actions by box id (`n<nodeId>` in each document): prepared → committed. */
  pairs: [string, string][];
  /** Created contracts: the preview's id → the committed id (matched, not flagged). */
  createdIds: [string, string][];
  differences: (GraphDifference & { line: string })[];
  notCompared: { fetches: number; rolledBack: number };
  /** The committed transaction's paid cost beside the preview's estimate. */
  trafficCost?: string;
  text: string;
}

export type GraphDocument = TransactionDocument | LineageDocument | RangeDiffDocument | ComparisonDocument;

/** `title`: what the view calls it (a preview is no transaction at an offset yet). */
export function transactionDocument(g: TransactionGraph, title = `Transaction at offset ${g.offset}`): TransactionDocument {
  const parties = [...new Set([...g.actions.values()].flatMap((a) => a.witnessParties))].sort();
  const lenses: Record<string, LensData> = {};
  for (const party of parties) {
    const lens = partyLens(g, party);
    lenses[party] = { actions: Object.fromEntries(lens.actions), contracts: [...lens.contracts] };
  }
  return {
    kind: 'transaction',
    title,
    updateId: g.updateId,
    offset: g.offset,
    commandId: g.commandId,
    effectiveAt: g.effectiveAt,
    ledgerEffects: g.ledgerEffects,
    ...(trafficCostLine(g) ? { trafficCost: trafficCostLine(g) } : {}),
    roots: g.roots,
    actions: actionsInTreeOrder(g).map((a) => ({ ...a, label: actionLabel(a) })),
    contracts: [...g.contracts.values()].map((c) => ({ ...c, label: contractLabel(c) })),
    edges: g.edges,
    problems: g.problems,
    parties,
    lenses,
    byTemplate: transactionDiff(g).byTemplate,
    text: toText(g),
    mermaid: toMermaid(g),
    dot: toDot(g),
  };
}

export function lineageDocument(l: Lineage): LineageDocument {
  return {
    kind: 'lineage',
    title: `Lineage of ${l.start.slice(0, 12)}…`,
    start: l.start,
    contracts: lineageInOrder(l).map((c) => ({ ...c, label: lineageContractLabel(c) })),
    links: l.links,
    frontier: l.frontier,
    requests: l.requests,
    text: exportLineage(l, 'text'),
    mermaid: exportLineage(l, 'mermaid'),
    dot: exportLineage(l, 'dot'),
  };
}

export function rangeDiffDocument(d: RangeDiff): RangeDiffDocument {
  return { kind: 'range-diff', title: `Active contract changes over offsets ${d.beginExclusive + 1}..${d.endInclusive}`, diff: d, text: rangeDiffText(d) };
}

export function comparisonDocument(prepared: TransactionGraph, committed: TransactionGraph): ComparisonDocument {
  const cmp = compareWithCommitted(prepared, committed);
  const graphs = { prepared, committed };
  const label = (side: 'prepared' | 'committed', nodeId: number) => actionLabel(graphs[side].actions.get(nodeId)!).join(' ');
  const differences = cmp.differences.map((d) => ({ ...d, line: differenceLine(d, label) }));
  const trafficCost = paidBesideEstimateText(committed.paidTrafficCost, prepared.costEstimate);
  const verdict = differences.length === 0 ? 'The committed transaction did what the preview showed.' : `${plural(differences.length, 'difference')} between the preview and the committed transaction:`;
  const text = [
    `Preview of ${prepared.commandId ?? '?'} beside the transaction at offset ${committed.offset} (${committed.updateId})`,
    `${comparisonCountsText({ matchedActions: cmp.pairs.length, matchedContractIds: cmp.createdIds.size, notCompared: cmp.notCompared }).join('; ')}.`,
    verdict,
    ...differences.map((d) => `  - ${d.line}`),
    ...(trafficCost ? [labelledTrafficCost(trafficCost)!] : []),
  ].join('\n');
  return {
    kind: 'comparison',
    title: `Preview of ${prepared.commandId ?? '?'} beside offset ${committed.offset}`,
    prepared: transactionDocument(prepared, `Preview of ${prepared.commandId ?? '?'}`),
    committed: transactionDocument(committed),
    pairs: cmp.pairs.map(([p, c]) => [`n${p}`, `n${c}`]),
    createdIds: [...cmp.createdIds],
    differences,
    notCompared: cmp.notCompared,
    ...(trafficCost ? { trafficCost } : {}),
    text,
  };
}
