/**
 * A preview beside what was committed: the prepared transaction's graph and the committed one's,
 * action by action. The same templates, choices, parties and arguments are expected. What legitimately
 * differs is matched, not flagged: the ids of the contracts the transaction creates (a prepared
 * transaction holds ids the synchronizer completes), times, node ids, and what the ledger's transaction
 * never shows (fetches, and rollbacks with what they undid).
 */
import { entityName } from '../daml/identifiers';
import type { ActionNode, TransactionGraph } from './model';

export type DifferenceKind =
  /** An action the preview had and the committed transaction has not, or the reverse. */
  | 'only-prepared'
  | 'only-committed'
  /** The same module and entity from another package (an upgrade vetted in between). */
  | 'package'
  | 'interface'
  | 'consuming'
  | 'acting-parties'
  | 'signatories'
  | 'observers'
  | 'argument'
  | 'result'
  /** An input contract that is not the one the preview read, or a created contract matched twice. */
  | 'contract';

export interface GraphDifference {
  kind: DifferenceKind;
  /** Node ids in each graph (one of them is missing for only-prepared / only-committed). */
  prepared?: number;
  committed?: number;
  /** Where inside a value (`.amount`, `[0].owner`), for argument and result differences. */
  path?: string;
  /** Each side's value at that place, as JSON text (short). */
  preparedValue?: string;
  committedValue?: string;
}

export interface GraphComparison {
  /** Matched actions: prepared node id → committed node id, in tree order. */
  pairs: [number, number][];
  /** Created contracts: the prepared transaction's id → the committed id. */
  createdIds: Map<string, string>;
  differences: GraphDifference[];
  /** What the committed transaction never shows, so nothing was compared for it (`fetches`: fetches and key lookups). */
  notCompared: { fetches: number; rolledBack: number };
}

/** Differences within one value: the first few are enough to point at the cause. */
const MAX_VALUE_DIFFERENCES = 5;

export function compareWithCommitted(prepared: TransactionGraph, committed: TransactionGraph): GraphComparison {
  const createdIds = new Map<string, string>();
  const differences: GraphDifference[] = [];
  const pairs: [number, number][] = [];
  const notCompared = { fetches: 0, rolledBack: 0 };

  /** The prepared actions a committed transaction can show: no fetches, nothing under a rollback. */
  const comparable = (ids: readonly number[]): ActionNode[] => {
    const out: ActionNode[] = [];
    for (const id of ids) {
      const a = prepared.actions.get(id)!;
      // A lookup is a read too: committed transactions show neither.
      if (a.kind === 'fetch' || a.kind === 'lookup') notCompared.fetches++;
      else if (a.kind === 'rollback') notCompared.rolledBack += 1 + descendants(prepared, a);
      else out.push(a);
    }
    return out;
  };

  const compareLevel = (p: ActionNode[], c: ActionNode[]): void => {
    for (const step of align(p, c)) {
      if (step.prepared && step.committed) comparePair(step.prepared, step.committed);
      else if (step.prepared) differences.push({ kind: 'only-prepared', prepared: step.prepared.nodeId });
      else differences.push({ kind: 'only-committed', committed: step.committed!.nodeId });
    }
  };

  const comparePair = (p: ActionNode, c: ActionNode): void => {
    pairs.push([p.nodeId, c.nodeId]);
    const at = { prepared: p.nodeId, committed: c.nodeId };
    if (p.templateId !== c.templateId) differences.push({ ...at, kind: 'package', preparedValue: p.templateId, committedValue: c.templateId });
    if ((p.interfaceId ?? '') !== (c.interfaceId ?? '')) differences.push({ ...at, kind: 'interface', preparedValue: p.interfaceId ?? '—', committedValue: c.interfaceId ?? '—' });
    if (p.kind === 'exercise' && p.consuming !== c.consuming) differences.push({ ...at, kind: 'consuming', preparedValue: String(p.consuming), committedValue: String(c.consuming) });
    if (!sameSet(p.actingParties, c.actingParties)) differences.push({ ...at, kind: 'acting-parties', preparedValue: p.actingParties.join(', '), committedValue: c.actingParties.join(', ') });
    if (p.kind === 'create') {
      if (!sameSet(p.signatories ?? [], c.signatories ?? [])) differences.push({ ...at, kind: 'signatories', preparedValue: (p.signatories ?? []).join(', '), committedValue: (c.signatories ?? []).join(', ') });
      if (!sameSet(p.observers ?? [], c.observers ?? [])) differences.push({ ...at, kind: 'observers', preparedValue: (p.observers ?? []).join(', '), committedValue: (c.observers ?? []).join(', ') });
      const earlier = createdIds.get(p.contractId);
      if (earlier !== undefined && earlier !== c.contractId) differences.push({ ...at, kind: 'contract', preparedValue: p.contractId, committedValue: c.contractId });
      createdIds.set(p.contractId, c.contractId);
    } else if ((createdIds.get(p.contractId) ?? p.contractId) !== c.contractId) {
      differences.push({ ...at, kind: 'contract', preparedValue: p.contractId, committedValue: c.contractId });
    }
    for (const d of valueDifferences(p.argument, c.argument, createdIds)) differences.push({ ...at, kind: 'argument', ...d });
    compareLevel(comparable(p.children), c.children.map((id) => committed.actions.get(id)!));
    // After the children: a result names the contracts they created.
    if (p.kind === 'exercise') for (const d of valueDifferences(p.exerciseResult, c.exerciseResult, createdIds)) differences.push({ ...at, kind: 'result', ...d });
  };

  compareLevel(
    comparable(prepared.roots),
    committed.roots.map((id) => committed.actions.get(id)!),
  );
  return { pairs, createdIds, differences, notCompared };
}

function descendants(g: TransactionGraph, a: ActionNode): number {
  return a.children.reduce((n, id) => n + 1 + descendants(g, g.actions.get(id)!), 0);
}

/** What must agree for two actions to be the same step: the kind, the module and entity, the choice. */
function signature(a: ActionNode): string {
  // An archive is the ACS-delta shape's consuming exercise.
  const kind = a.kind === 'archive' ? 'exercise' : a.kind;
  return `${kind}|${entityName(a.templateId)}|${a.choice ?? ''}`;
}

interface AlignedStep {
  prepared?: ActionNode;
  committed?: ActionNode;
}

/** Siblings paired in order by their longest common subsequence of signatures; the rest stand alone. */
function align(p: ActionNode[], c: ActionNode[]): AlignedStep[] {
  const sp = p.map(signature);
  const sc = c.map(signature);
  // lcs[i][j]: the common length of p[i..] and c[j..].
  const lcs = Array.from({ length: p.length + 1 }, () => new Array<number>(c.length + 1).fill(0));
  for (let i = p.length - 1; i >= 0; i--) for (let j = c.length - 1; j >= 0; j--) lcs[i][j] = sp[i] === sc[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: AlignedStep[] = [];
  let i = 0;
  let j = 0;
  while (i < p.length || j < c.length) {
    if (i < p.length && j < c.length && sp[i] === sc[j]) out.push({ prepared: p[i++], committed: c[j++] });
    else if (j >= c.length || (i < p.length && lcs[i + 1][j] >= lcs[i][j + 1])) out.push({ prepared: p[i++] });
    else out.push({ committed: c[j++] });
  }
  return out;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** A decimal without its trailing zeros, so that `5.0` and `5.0000000000` (a Numeric 10) are one value. */
function decimal(s: string): string {
  const [whole, fraction = ''] = s.split('.');
  const f = fraction.replace(/0+$/, '');
  return f ? `${whole}.${f}` : whole;
}

/** A timestamp without trailing zeros in its fraction: writers differ in how many digits they print. */
function timestamp(s: string): string {
  return s.replace(/(\.\d*?)0*Z$/, '$1Z').replace(/\.Z$/, 'Z');
}

function sameScalar(p: string, c: string, createdIds: ReadonlyMap<string, string>): boolean {
  if (p === c || createdIds.get(p) === c) return true;
  if (DECIMAL.test(p) && DECIMAL.test(c)) return decimal(p) === decimal(c);
  if (TIMESTAMP.test(p) && TIMESTAMP.test(c)) return timestamp(p) === timestamp(c);
  return false;
}

function short(v: unknown): string {
  const s = v === undefined ? '—' : JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

/**
 * Where two Daml-LF JSON values differ. A prepared transaction may carry records without field labels
 * (`#0`, `#1` for their positions): those compare field by field in order. A missing field is None.
 */
export function valueDifferences(p: unknown, c: unknown, createdIds: ReadonlyMap<string, string> = new Map()): { path: string; preparedValue: string; committedValue: string }[] {
  const out: { path: string; preparedValue: string; committedValue: string }[] = [];
  const visit = (x: unknown, y: unknown, path: string): void => {
    if (out.length >= MAX_VALUE_DIFFERENCES) return;
    const differ = () => out.push({ path: path || '(the value)', preparedValue: short(x), committedValue: short(y) });
    if ((x === null || x === undefined) && (y === null || y === undefined)) return;
    if (typeof x === 'string' && typeof y === 'string') return sameScalar(x, y, createdIds) ? undefined : void differ();
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return void differ();
      x.forEach((v, i) => visit(v, y[i], `${path}[${i}]`));
      return;
    }
    if (isObject(x) && isObject(y)) {
      const positional = Object.keys(x).some((k) => /^#\d+$/.test(k)) || Object.keys(y).some((k) => /^#\d+$/.test(k));
      if (positional) {
        const xs = Object.values(x);
        const ys = Object.values(y);
        if (xs.length !== ys.length) return void differ();
        xs.forEach((v, i) => visit(v, ys[i], `${path}[#${i}]`));
        return;
      }
      for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) visit(x[k], y[k], `${path}.${k}`);
      return;
    }
    if (x !== y) differ();
  };
  visit(p, c, '');
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const DIFFERENCE_TEXT: Record<DifferenceKind, string> = {
  'only-prepared': 'in the preview only',
  'only-committed': 'committed only',
  package: 'another package',
  interface: 'another interface',
  consuming: 'consuming differs',
  'acting-parties': 'other acting parties',
  signatories: 'other signatories',
  observers: 'other observers',
  argument: 'argument differs',
  result: 'result differs',
  contract: 'another contract',
};

/** One line per difference, naming the action on each side by its label. */
export function differenceLine(d: GraphDifference, label: (side: 'prepared' | 'committed', nodeId: number) => string): string {
  const where = [d.prepared !== undefined ? `preview: ${label('prepared', d.prepared)}` : '', d.committed !== undefined ? `committed: ${label('committed', d.committed)}` : ''].filter(Boolean).join(' / ');
  const values = d.preparedValue !== undefined || d.committedValue !== undefined ? ` — ${d.path ? `${d.path}: ` : ''}${d.preparedValue ?? '—'} → ${d.committedValue ?? '—'}` : '';
  return `${DIFFERENCE_TEXT[d.kind]} (${where})${values}`;
}
