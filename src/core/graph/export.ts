/**
 * The transaction graph as text other tools draw: Mermaid (GitHub and VS Code's Markdown preview
 * render it), Graphviz DOT, an indented text tree for terminals and CI logs, and JSON.
 */
import { shortParty } from '../models/users';
import { shortId } from '../text';
import { labelledTrafficCost, trafficCostLine } from '../trafficCost';
import { entityName } from '../daml/identifiers';
import { signedCount } from './counts';
import { transactionDiff } from './diff';
import type { PartyLens } from './lens';
import { lineageInOrder, type Lineage, type LineageContract } from './lineage';
import { actionsInTreeOrder, type ActionNode, type ContractNode, type EdgeKind, type TransactionGraph } from './model';

export type GraphFormat = 'mermaid' | 'dot' | 'text' | 'json';
export const GRAPH_FORMATS: readonly GraphFormat[] = ['mermaid', 'dot', 'text', 'json'];

export interface ExportOptions {
  /** Dim what this party does not see. */
  lens?: PartyLens;
}

function partyList(parties: readonly string[]): string {
  return parties.map(shortParty).join(', ');
}

/** The lines of an action's label: what it is, then on what and by whom. */
export function actionLabel(a: ActionNode): string[] {
  const template = entityName(a.templateId);
  switch (a.kind) {
    case 'create':
      return [`create ${template}`, `signed by ${partyList(a.signatories ?? []) || '—'}`];
    case 'archive':
      return [`archive ${template}`];
    case 'fetch':
      return [`fetch ${template}`, `by ${partyList(a.actingParties) || '—'}`];
    case 'lookup':
      return [`lookup by key ${template}`, a.contractId ? 'found' : 'not found'];
    case 'rollback':
      return ['rollback', 'what it holds was undone'];
    case 'exercise': {
      const through = a.interfaceId ? ` via ${entityName(a.interfaceId)}` : '';
      return [`${a.consuming ? 'exercise' : 'exercise (non-consuming)'} ${a.choice}${through}`, `on ${template}`, `by ${partyList(a.actingParties) || '—'}`];
    }
  }
}

export function contractLabel(c: ContractNode): string[] {
  return [`${entityName(c.templateId)} ${shortId(c.contractId, 8, 0)}`, c.state];
}

// ---------------------------------------------------------------- Mermaid

/** A Mermaid diagram as a Markdown document, one fenced block: what editors and Markdown previews draw. */
export function mermaidMarkdown(mermaid: string): string {
  return `\`\`\`mermaid\n${mermaid.endsWith('\n') ? mermaid : `${mermaid}\n`}\`\`\`\n`;
}

/** Mermaid's entity codes: a label keeps quotes, angle brackets and hashes as text. */
function mermaidText(s: string): string {
  return s.replace(/#/g, '#35;').replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;');
}

const MERMAID_ARROWS: Record<EdgeKind, string> = {
  child: '-->',
  creates: '-->|creates|',
  consumes: '-.->|consumes|',
  uses: '-.->|uses|',
};

export function toMermaid(g: TransactionGraph, o: ExportOptions = {}): string {
  const lines = ['flowchart TB'];
  const label = (parts: string[]) => `"${parts.map(mermaidText).join('<br/>')}"`;
  for (const a of actionsInTreeOrder(g)) {
    const text = label(actionLabel(a));
    lines.push(`  ${a.id}${a.kind === 'exercise' ? `[${text}]` : `([${text}])`}`);
  }
  for (const c of g.contracts.values()) lines.push(`  ${c.id}[(${label(contractLabel(c))})]`);
  for (const e of g.edges) lines.push(`  ${e.from} ${MERMAID_ARROWS[e.kind]} ${e.to}`);
  lines.push(
    '  classDef created stroke-width:3px',
    '  classDef consumed stroke-dasharray:6 3',
    '  classDef transient stroke-dasharray:2 2',
    '  classDef unseen opacity:0.35',
  );
  for (const state of ['created', 'consumed', 'transient'] as const) {
    const ids = [...g.contracts.values()].filter((c) => c.state === state).map((c) => c.id);
    if (ids.length > 0) lines.push(`  class ${ids.join(',')} ${state}`);
  }
  const unseen = unseenIds(g, o.lens);
  if (unseen.length > 0) lines.push(`  class ${unseen.join(',')} unseen`);
  return lines.join('\n') + '\n';
}

function unseenIds(g: TransactionGraph, lens: PartyLens | undefined): string[] {
  if (!lens) return [];
  return [
    ...[...g.actions.values()].filter((a) => !lens.actions.has(a.nodeId)).map((a) => a.id),
    ...[...g.contracts.values()].filter((c) => !lens.contracts.has(c.contractId)).map((c) => c.id),
  ];
}

// ---------------------------------------------------------------- Graphviz DOT

function dotString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}

const DOT_EDGES: Record<EdgeKind, string> = {
  child: '',
  creates: 'label="creates"',
  consumes: 'label="consumes", style=dashed',
  uses: 'label="uses", style=dotted',
};

const DOT_CONTRACT_STYLE: Record<ContractNode['state'], string> = {
  created: 'penwidth=2.5',
  consumed: 'style=dashed',
  transient: 'style=dotted',
  used: '',
};

export function toDot(g: TransactionGraph, o: ExportOptions = {}): string {
  const unseen = new Set(unseenIds(g, o.lens));
  const dim = (id: string) => (unseen.has(id) ? ', color=gray70, fontcolor=gray60' : '');
  const attrs = (...parts: string[]) => parts.filter((p) => p !== '').join(', ');
  const lines = [
    `digraph ${dotString(`transaction ${g.updateId}`)} {`,
    '  rankdir=TB;',
    '  node [fontname="Helvetica", fontsize=10];',
    '  edge [fontname="Helvetica", fontsize=9];',
  ];
  for (const a of actionsInTreeOrder(g)) {
    lines.push(`  ${a.id} [${attrs(`label=${dotString(actionLabel(a).join('\n'))}`, a.kind === 'exercise' ? 'shape=box' : 'shape=box, style=rounded')}${dim(a.id)}];`);
  }
  for (const c of g.contracts.values()) {
    lines.push(`  ${c.id} [${attrs(`label=${dotString(contractLabel(c).join('\n'))}`, 'shape=cylinder', DOT_CONTRACT_STYLE[c.state])}${dim(c.id)}];`);
  }
  for (const e of g.edges) {
    const a = DOT_EDGES[e.kind];
    lines.push(`  ${e.from} -> ${e.to}${a ? ` [${a}]` : ''};`);
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------- text

export function toText(g: TransactionGraph, o: ExportOptions = {}): string {
  const lines = [`Transaction ${g.updateId} at offset ${g.offset}${g.commandId ? ` (command ${g.commandId})` : ''}`];
  const cost = trafficCostLine(g);
  if (cost) lines.push(labelledTrafficCost(cost)!);
  if (!g.ledgerEffects) lines.push('(read in the ACS-delta shape: exercises are not shown)');
  const seen = (a: ActionNode) => {
    if (!o.lens) return '';
    const role = o.lens.actions.get(a.nodeId);
    return role ? `  [${shortParty(o.lens.party)}: ${role}]` : `  [${shortParty(o.lens.party)}: not seen]`;
  };
  const walk = (nodeId: number, prefix: string, last: boolean, root: boolean) => {
    const a = g.actions.get(nodeId)!;
    const [head, ...rest] = actionLabel(a);
    const branch = root ? '' : last ? '└─ ' : '├─ ';
    lines.push(`${prefix}${branch}${head} ${rest.join(' ')} ${shortId(a.contractId, 8, 0)}${seen(a)}`.replace(/ +$/, ''));
    const childPrefix = root ? prefix : prefix + (last ? '   ' : '│  ');
    a.children.forEach((child, i) => walk(child, childPrefix, i === a.children.length - 1, false));
  };
  for (const root of g.roots) walk(root, '', true, true);
  const diff = transactionDiff(g);
  lines.push('', 'Contracts:');
  for (const c of g.contracts.values()) lines.push(`  ${c.state.padEnd(9)} ${entityName(c.templateId)} ${c.contractId}`);
  lines.push(
    '',
    `Active contracts: ${signedCount('+', diff.created.length)} created, ${signedCount('-', diff.consumed.length)} consumed, ${diff.transient.length} transient, ${diff.used.length} used`,
  );
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------- JSON

export function toJson(g: TransactionGraph, o: ExportOptions = {}): string {
  const { actions, contracts, ...rest } = g;
  const diff = transactionDiff(g);
  return (
    JSON.stringify(
      {
        ...rest,
        actions: actionsInTreeOrder(g),
        contracts: [...contracts.values()],
        diff: { byTemplate: diff.byTemplate, created: diff.created.map((c) => c.contractId), consumed: diff.consumed.map((c) => c.contractId), transient: diff.transient.map((c) => c.contractId) },
        ...(o.lens ? { lens: { party: o.lens.party, actions: Object.fromEntries(o.lens.actions), contracts: [...o.lens.contracts] } } : {}),
      },
      null,
      2,
    ) + '\n'
  );
}

export function exportGraph(g: TransactionGraph, format: GraphFormat, o: ExportOptions = {}): string {
  switch (format) {
    case 'mermaid':
      return toMermaid(g, o);
    case 'dot':
      return toDot(g, o);
    case 'text':
      return toText(g, o);
    case 'json':
      return toJson(g, o);
  }
}

// ---------------------------------------------------------------- lineage

export type LineageFormat = GraphFormat;

export function lineageContractLabel(c: LineageContract): string[] {
  const where = [c.createdIn ? `created at ${c.createdIn.offset}` : '', c.archivedIn ? `archived at ${c.archivedIn.offset}` : ''].filter(Boolean).join(', ');
  return [`${c.templateId ? entityName(c.templateId) : 'contract'} ${shortId(c.contractId, 8, 0)}`, c.problem ? `${c.state}: ${c.problem.code}` : c.state, ...(where ? [where] : [])];
}

export function exportLineage(l: Lineage, format: LineageFormat): string {
  const contracts = lineageInOrder(l);
  const ids = new Map(contracts.map((c, i) => [c.contractId, `c${i}`]));
  switch (format) {
    case 'mermaid': {
      const lines = ['flowchart TB'];
      for (const c of contracts) lines.push(`  ${ids.get(c.contractId)}[("${lineageContractLabel(c).map(mermaidText).join('<br/>')}")]`);
      for (const k of l.links) lines.push(`  ${ids.get(k.parent)} -->|"${mermaidText(`${k.choice} @${k.via.offset}`)}"| ${ids.get(k.child)}`);
      lines.push('  classDef start stroke-width:3px', `  class ${ids.get(l.start)} start`);
      return lines.join('\n') + '\n';
    }
    case 'dot': {
      const lines = [`digraph ${dotString(`lineage ${l.start}`)} {`, '  rankdir=TB;', '  node [fontname="Helvetica", fontsize=10, shape=cylinder];', '  edge [fontname="Helvetica", fontsize=9];'];
      for (const c of contracts) lines.push(`  ${ids.get(c.contractId)} [label=${dotString(lineageContractLabel(c).join('\n'))}${c.contractId === l.start ? ', penwidth=2.5' : ''}];`);
      for (const k of l.links) lines.push(`  ${ids.get(k.parent)} -> ${ids.get(k.child)} [label=${dotString(`${k.choice} @${k.via.offset}`)}];`);
      lines.push('}');
      return lines.join('\n') + '\n';
    }
    case 'text': {
      const lines = [`Lineage of ${l.start}: ${contracts.length} contracts, ${l.transactions.size} transactions, ${l.requests} requests`];
      for (const c of contracts) {
        const parents = l.links.filter((k) => k.child === c.contractId).map((k) => `${k.choice} on ${shortId(k.parent, 8, 0)} @${k.via.offset}`);
        lines.push(`  ${c.contractId === l.start ? '*' : ' '} ${lineageContractLabel(c).join(' · ')}  ${c.contractId}${parents.length ? `\n      from ${parents.join('; ')}` : ''}`);
      }
      for (const f of l.frontier) lines.push(`  … more ${f.direction === 'back' ? 'before' : 'after'} ${f.contractId} (past the bound)`);
      return lines.join('\n') + '\n';
    }
    case 'json': {
      const { contracts: _c, transactions, ...rest } = l;
      return JSON.stringify({ ...rest, contracts, transactions: [...transactions.values()].map((g) => ({ updateId: g.updateId, offset: g.offset })) }, null, 2) + '\n';
    }
  }
}
