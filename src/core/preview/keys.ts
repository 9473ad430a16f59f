/**
 * The contract-key fields of a `PreparedTransaction` that hashing scheme V3 covers: a node's key
 * (`GlobalKeyWithMaintainers`), `by_key` on exercises and fetches, and the QueryByKey node (a lookup).
 * The generated code of `@canton-network/core-ledger-proto` predates them, so it keeps them as unknown
 * fields (protobuf-ts stores those on the message and writes them back); this module reads and writes
 * them there, by the field numbers of Canton's `interactive_submission_data.proto` and
 * `interactive_submission_common_data.proto` (ledger API v2, release line 3.5).
 */
import { BinaryReader, BinaryWriter, UnknownFieldHandler, WireType } from '@protobuf-ts/runtime';
import { Identifier, Value, type Create, type DamlTransaction_Node, type Exercise, type Fetch } from '@canton-network/core-ledger-proto';

/** `interactive.GlobalKey`. `hash` is the key's hash as the participant computed it (32 bytes). */
export interface GlobalKey {
  templateId?: Identifier;
  packageName: string;
  key?: Value;
  hash: Uint8Array;
}

/** `interactive.GlobalKeyWithMaintainers`. */
export interface GlobalKeyWithMaintainers {
  key?: GlobalKey;
  maintainers: string[];
}

/** `transaction.v1.QueryByKey`: a key looked up, and the contracts found (none when the key is free). */
export interface QueryByKey {
  lfVersion: string;
  packageName: string;
  templateId?: Identifier;
  exhaustive: boolean;
  key?: GlobalKeyWithMaintainers;
  /** Contract ids, hex. */
  result: string[];
}

/** What a create, exercise or fetch says about keys: the contract's key, and whether it was found by it. */
export interface KeyFields {
  key?: GlobalKeyWithMaintainers;
  /** Always false on a create. */
  byKey: boolean;
}

/** The field numbers, per node kind; a create has no `by_key`. */
const FIELD = {
  create: { key: 8 },
  exercise: { key: 15, byKey: 16 },
  fetch: { key: 9, byKey: 10 },
} as const;
const QUERY_BY_KEY_NODE = 5;

export type KeyedNodeKind = keyof typeof FIELD;
type KeyedNode = { create: Create; exercise: Exercise; fetch: Fetch };
/** A `transaction.v1.Node`: the oneof of node types (the library does not export its name). */
export type NodeV1 = Extract<DamlTransaction_Node['versionedNode'], { oneofKind: 'v1' }>['v1'];

/** The payload of the last unknown field `no` (proto3: the last one wins), if any. */
function lastField(message: object, no: number): { wireType: WireType; data: Uint8Array } | undefined {
  return UnknownFieldHandler.last(message, no);
}
const payload = (data: Uint8Array): Uint8Array => new BinaryReader(data).bytes();

function readGlobalKey(bytes: Uint8Array): GlobalKey {
  const out: GlobalKey = { packageName: '', hash: new Uint8Array() };
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [no, wireType] = r.tag();
    if (no === 1 && wireType === WireType.LengthDelimited) out.templateId = Identifier.fromBinary(r.bytes());
    else if (no === 2 && wireType === WireType.LengthDelimited) out.packageName = r.string();
    else if (no === 3 && wireType === WireType.LengthDelimited) out.key = Value.fromBinary(r.bytes());
    else if (no === 4 && wireType === WireType.LengthDelimited) out.hash = r.bytes();
    else r.skip(wireType);
  }
  return out;
}

function readKeyWithMaintainers(bytes: Uint8Array): GlobalKeyWithMaintainers {
  const out: GlobalKeyWithMaintainers = { maintainers: [] };
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [no, wireType] = r.tag();
    if (no === 1 && wireType === WireType.LengthDelimited) out.key = readGlobalKey(r.bytes());
    else if (no === 2 && wireType === WireType.LengthDelimited) out.maintainers.push(r.string());
    else r.skip(wireType);
  }
  return out;
}

function writeKeyWithMaintainers(k: GlobalKeyWithMaintainers): Uint8Array {
  const w = new BinaryWriter();
  if (k.key) {
    const g = new BinaryWriter();
    if (k.key.templateId) g.tag(1, WireType.LengthDelimited).bytes(Identifier.toBinary(k.key.templateId));
    if (k.key.packageName) g.tag(2, WireType.LengthDelimited).string(k.key.packageName);
    if (k.key.key) g.tag(3, WireType.LengthDelimited).bytes(Value.toBinary(k.key.key));
    if (k.key.hash.length) g.tag(4, WireType.LengthDelimited).bytes(k.key.hash);
    w.tag(1, WireType.LengthDelimited).bytes(g.finish());
  }
  for (const m of k.maintainers) w.tag(2, WireType.LengthDelimited).string(m);
  return w.finish();
}

/** The bytes an unknown field keeps after its tag: a length-delimited payload with its length. */
const delimited = (bytes: Uint8Array): Uint8Array => new BinaryWriter().bytes(bytes).finish();

/** Replaces the unknown field `no` of a message (none when `data` is undefined). */
function setField(message: object, no: number, wireType: WireType, data: Uint8Array | undefined): void {
  const container = message as Record<symbol, { no: number; wireType: WireType; data: Uint8Array }[] | undefined>;
  const kept = (container[UnknownFieldHandler.symbol] ?? []).filter((f) => f.no !== no);
  container[UnknownFieldHandler.symbol] = data === undefined ? kept : [...kept, { no, wireType, data }];
}

/** The key fields of a create, exercise or fetch. */
export function readKeyFields<K extends KeyedNodeKind>(kind: K, node: KeyedNode[K]): KeyFields {
  const fields: { key: number; byKey?: number } = FIELD[kind];
  const key = lastField(node, fields.key);
  const byKey = fields.byKey === undefined ? undefined : lastField(node, fields.byKey);
  return {
    ...(key?.wireType === WireType.LengthDelimited ? { key: readKeyWithMaintainers(payload(key.data)) } : {}),
    byKey: byKey?.wireType === WireType.Varint ? new BinaryReader(byKey.data).bool() : false,
  };
}

/** Sets the key fields of a create, exercise or fetch, so that its bytes carry them (for the demo participant and tests). */
export function writeKeyFields<K extends KeyedNodeKind>(kind: K, node: KeyedNode[K], fields: KeyFields): void {
  const numbers: { key: number; byKey?: number } = FIELD[kind];
  setField(node, numbers.key, WireType.LengthDelimited, fields.key && delimited(writeKeyWithMaintainers(fields.key)));
  if (numbers.byKey !== undefined) setField(node, numbers.byKey, WireType.Varint, fields.byKey ? new BinaryWriter().bool(true).finish() : undefined);
}

/** The QueryByKey of a node whose type the library does not know, if it is one. */
export function readQueryByKey(node: NodeV1): QueryByKey | undefined {
  const field = lastField(node, QUERY_BY_KEY_NODE);
  if (field?.wireType !== WireType.LengthDelimited) return undefined;
  const out: QueryByKey = { lfVersion: '', packageName: '', exhaustive: false, result: [] };
  const r = new BinaryReader(payload(field.data));
  while (r.pos < r.len) {
    const [no, wireType] = r.tag();
    if (no === 1 && wireType === WireType.LengthDelimited) out.lfVersion = r.string();
    else if (no === 2 && wireType === WireType.LengthDelimited) out.packageName = r.string();
    else if (no === 3 && wireType === WireType.LengthDelimited) out.templateId = Identifier.fromBinary(r.bytes());
    else if (no === 4 && wireType === WireType.Varint) out.exhaustive = r.bool();
    else if (no === 5 && wireType === WireType.LengthDelimited) out.key = readKeyWithMaintainers(r.bytes());
    else if (no === 6 && wireType === WireType.LengthDelimited) out.result.push(r.string());
    else r.skip(wireType);
  }
  return out;
}

/** A `transaction.v1.Node` holding a QueryByKey (for the demo participant and tests). */
export function queryByKeyNode(q: QueryByKey): NodeV1 {
  const w = new BinaryWriter();
  if (q.lfVersion) w.tag(1, WireType.LengthDelimited).string(q.lfVersion);
  if (q.packageName) w.tag(2, WireType.LengthDelimited).string(q.packageName);
  if (q.templateId) w.tag(3, WireType.LengthDelimited).bytes(Identifier.toBinary(q.templateId));
  if (q.exhaustive) w.tag(4, WireType.Varint).bool(true);
  if (q.key) w.tag(5, WireType.LengthDelimited).bytes(writeKeyWithMaintainers(q.key));
  for (const id of q.result) w.tag(6, WireType.LengthDelimited).string(id);
  const node: NodeV1 = { nodeType: { oneofKind: undefined } };
  setField(node, QUERY_BY_KEY_NODE, WireType.LengthDelimited, delimited(w.finish()));
  return node;
}
