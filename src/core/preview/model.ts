/**
 * A prepared transaction as people read it: the tree of nodes with who sees each, the contracts it
 * reads, and the metadata the hash covers. Plain data, decoded by `decode.ts` (which carries the
 * protobuf code and is loaded only when a preview is shown).
 */

/** `lookup`: a contract key looked up (Canton's QueryByKey node, hashing scheme V3). */
export type PreviewNodeKind = 'create' | 'exercise' | 'fetch' | 'rollback' | 'lookup';

/** A contract key as the prepared transaction carries it (hashing scheme V3 covers it). */
export interface PreviewKey {
  /** The key's value (Daml-LF JSON). */
  value: unknown;
  maintainers: string[];
  /** The key's hash as the participant computed it, hex. */
  hash: string;
}

export interface PreviewNode {
  nodeId: string;
  kind: PreviewNodeKind;
  contractId?: string;
  /** `<package-id>:Module:Entity`, as the prepared transaction names it. */
  templateId?: string;
  packageName?: string;
  interfaceId?: string;
  /** Create: the contract's arguments (Daml-LF JSON). */
  argument?: unknown;
  signatories: string[];
  stakeholders: string[];
  actingParties: string[];
  choice?: string;
  choiceArgument?: unknown;
  exerciseResult?: unknown;
  consuming?: boolean;
  choiceObservers: string[];
  /** The contract's key (creates, exercises and fetches of a keyed template), or the key a lookup looked up. */
  key?: PreviewKey;
  /** Exercise or fetch: the contract was found by its key. */
  byKey?: boolean;
  /** Lookup: the contracts found for the key (none: the key is free). */
  found?: string[];
  /** Lookup: whether every contract with the key was asked for. */
  exhaustive?: boolean;
  /** Who is told about this node (the Daml ledger model's informees). */
  informees: string[];
  children: PreviewNode[];
}

export interface PreviewInputContract {
  contractId: string;
  templateId?: string;
  packageName: string;
  argument?: unknown;
  signatories: string[];
  stakeholders: string[];
  key?: PreviewKey;
  /** ISO-8601, when the participant gave it. */
  createdAt?: string;
}

export interface PreparedPreview {
  transactionVersion: string;
  roots: PreviewNode[];
  inputContracts: PreviewInputContract[];
  actAs: string[];
  commandId: string;
  synchronizerId: string;
  transactionUuid: string;
  preparationTime?: string;
  minLedgerEffectiveTime?: string;
  maxLedgerEffectiveTime?: string;
  maxRecordTime?: string;
}

/** The informees of a node (Daml ledger model): who sees it in a transaction tree. */
export function informeesOf(node: Pick<PreviewNode, 'kind' | 'signatories' | 'stakeholders' | 'actingParties' | 'choiceObservers' | 'consuming' | 'key'>): string[] {
  const parties =
    node.kind === 'create'
      ? node.stakeholders
      : node.kind === 'exercise'
        ? [...(node.consuming ? node.stakeholders : node.signatories), ...node.actingParties, ...node.choiceObservers]
        : node.kind === 'fetch'
          ? [...node.signatories, ...node.actingParties]
          : node.kind === 'lookup'
            ? (node.key?.maintainers ?? [])
            : [];
  return [...new Set(parties)].sort();
}

/** Every node of the tree, depth first, in execution order. */
export function* walkNodes(nodes: readonly PreviewNode[]): Generator<PreviewNode> {
  for (const n of nodes) {
    yield n;
    yield* walkNodes(n.children);
  }
}
