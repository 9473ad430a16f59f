/**
 * The hash an external party signs: Canton's hashing schemes V2 and V3 of a `PreparedTransaction`,
 * computed from the message itself, so a preview can say whether the hash the participant sent is the
 * hash of the transaction shown — the check an external signer must make before signing.
 *
 * Written from Canton's specification "External Signing Hashing Algorithm" (Canton docs, release line
 * 3.5: explanations/external-signing/external_signing_hashing_algorithm) and its reference
 * implementation digital-asset/canton community/app/src/pack/examples/08-interactive-submission/
 * daml_transaction_hashing_{v2,v3,common}.py, which the tests run as the oracle. In short: every field
 * is encoded big-endian, strings and bytes with a 4-byte length, lists with a 4-byte count, optional
 * fields with a 0x00/0x01 marker; each node is hashed on its own and stands in its parent as its
 * SHA-256; the transaction and the metadata are hashed with the purpose prefix 0x00000030, and the
 * final hash is SHA-256(purpose || scheme byte || hash(transaction) || hash(metadata)).
 *
 * V3 is not V2 plus keys: it drops V2's encoding version byte before every node and the metadata,
 * has scheme byte 0x03, and adds a node's contract key, `by_key` on exercises and fetches, the
 * QueryByKey node (a lookup) and the metadata's `max_record_time`.
 */
import { createHash } from 'node:crypto';
import type { Create, DamlTransaction, DamlTransaction_Node, Exercise, Fetch, Identifier, Metadata, PreparedTransaction, Value } from '@canton-network/core-ledger-proto';
import type * as wire from '../models/wire';
import { readKeyFields, readQueryByKey, type GlobalKeyWithMaintainers, type KeyFields, type QueryByKey } from './keys';

/** The hashing schemes this client computes. */
export type HashingScheme = 'V2' | 'V3';
export const HASHING_SCHEMES: readonly HashingScheme[] = ['V2', 'V3'];

const HASH_PURPOSE = Uint8Array.of(0x00, 0x00, 0x00, 0x30);

/** The prepared transaction cannot be encoded under the scheme: what is missing or malformed, and where. */
export class HashEncodingError extends Error {
  constructor(
    readonly problem: 'missing-node' | 'missing-seed' | 'unknown-node' | 'bad-contract-id' | 'bad-value' | 'cycle',
    /** Where in the prepared transaction, e.g. `node 3` or `metadata.inputContracts[0]`. */
    readonly at: string,
    message: string,
  ) {
    super(`${at}: ${message}`);
    this.name = 'HashEncodingError';
  }
}

/** Bytes appended in order; the encoding is one long concatenation. */
class Encoder {
  private readonly parts: Uint8Array[] = [];

  byte(b: number): this {
    this.parts.push(Uint8Array.of(b));
    return this;
  }
  raw(bytes: Uint8Array): this {
    this.parts.push(bytes);
    return this;
  }
  bool(b: boolean): this {
    return this.byte(b ? 1 : 0);
  }
  int32(n: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    return this.raw(b);
  }
  /** Java's signed long: an unsigned protobuf value keeps its bits. */
  int64(n: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(BigInt.asIntN(64, n));
    return this.raw(b);
  }
  bytes(bytes: Uint8Array): this {
    return this.int32(bytes.length).raw(bytes);
  }
  string(s: string): this {
    return this.bytes(Buffer.from(s, 'utf8'));
  }
  list<T>(items: readonly T[], each: (item: T, e: this) => void): this {
    this.int32(items.length);
    for (const item of items) each(item, this);
    return this;
  }
  optional<T>(value: T | undefined, each: (value: T, e: this) => void): this {
    if (value === undefined) return this.byte(0);
    this.byte(1);
    each(value, this);
    return this;
  }
  finish(): Uint8Array {
    return Buffer.concat(this.parts);
  }
}

function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

function contractIdBytes(id: string, at: string): Uint8Array {
  // Contract ids are hex and are encoded as their bytes, never as text.
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(id)) throw new HashEncodingError('bad-contract-id', at, `contract id "${id.slice(0, 24)}${id.length > 24 ? '…' : ''}" is not hexadecimal`);
  return Buffer.from(id, 'hex');
}

function identifier(id: Identifier | undefined, e: Encoder): void {
  const { packageId = '', moduleName = '', entityName = '' } = id ?? {};
  e.string(packageId)
    .list(moduleName.split('.'), (s) => e.string(s))
    .list(entityName.split('.'), (s) => e.string(s));
}

function value(v: Value | undefined, e: Encoder, at: string): void {
  const sum = v?.sum;
  switch (sum?.oneofKind) {
    case 'unit':
      e.byte(0x00);
      return;
    case 'bool':
      e.byte(0x01).bool(sum.bool);
      return;
    case 'int64':
      e.byte(0x02).int64(BigInt(sum.int64));
      return;
    case 'numeric':
      e.byte(0x03).string(sum.numeric);
      return;
    case 'timestamp':
      e.byte(0x04).int64(BigInt(sum.timestamp));
      return;
    case 'date':
      e.byte(0x05).int32(sum.date);
      return;
    case 'party':
      e.byte(0x06).string(sum.party);
      return;
    case 'text':
      e.byte(0x07).string(sum.text);
      return;
    case 'contractId':
      e.byte(0x08).bytes(contractIdBytes(sum.contractId, at));
      return;
    case 'optional':
      e.byte(0x09).optional(sum.optional.value, (x) => value(x, e, at));
      return;
    case 'list':
      e.byte(0x0a).list(sum.list.elements, (x) => value(x, e, at));
      return;
    case 'textMap':
      e.byte(0x0b).list(sum.textMap.entries, (entry) => {
        e.string(entry.key);
        value(entry.value, e, at);
      });
      return;
    case 'record':
      e.byte(0x0c)
        .optional(sum.record.recordId, (id) => identifier(id, e))
        // A label is a proto3 string, always present (empty when not verbose): always marked as set.
        .list(sum.record.fields, (f) => {
          e.byte(1).string(f.label);
          value(f.value, e, at);
        });
      return;
    case 'variant':
      e.byte(0x0d)
        .optional(sum.variant.variantId, (id) => identifier(id, e))
        .string(sum.variant.constructor);
      value(sum.variant.value, e, at);
      return;
    case 'enum':
      e.byte(0x0e)
        .optional(sum.enum.enumId, (id) => identifier(id, e))
        .string(sum.enum.constructor);
      return;
    case 'genMap':
      e.byte(0x0f).list(sum.genMap.entries, (entry) => {
        value(entry.key, e, at);
        value(entry.value, e, at);
      });
      return;
    default:
      throw new HashEncodingError('bad-value', at, 'a value has no kind this scheme encodes');
  }
}

/** What tells the two schemes apart. */
interface SchemeRules {
  /** The byte of the final hash: 0x02, 0x03. */
  byte: number;
  /** V2 starts every node and the metadata with an encoding version byte (0x01); V3 has none. */
  encodingVersion?: number;
  /** V3 covers contract keys: a node's key, `by_key`, QueryByKey nodes, and the metadata's max record time. */
  keys: boolean;
}

const RULES: Record<HashingScheme, SchemeRules> = {
  V2: { byte: 0x02, encodingVersion: 0x01, keys: false },
  V3: { byte: 0x03, keys: true },
};

function versionByte(rules: SchemeRules, e: Encoder): Encoder {
  return rules.encodingVersion === undefined ? e : e.byte(rules.encodingVersion);
}

function keyWithMaintainers(k: GlobalKeyWithMaintainers, e: Encoder, at: string): void {
  const key = k.key ?? { packageName: '', hash: new Uint8Array() };
  e.string(key.packageName);
  identifier(key.templateId, e);
  value(key.key, e, at);
  // The key's hash has a fixed size: no length.
  e.raw(key.hash).list(k.maintainers, (m) => e.string(m));
}

/** V3's tail of a node: `by_key` (exercises and fetches), then the optional key. */
function keyFields(rules: SchemeRules, fields: KeyFields, withByKey: boolean, e: Encoder, at: string): void {
  if (!rules.keys) return;
  if (withByKey) e.bool(fields.byKey);
  e.optional(fields.key, (k) => keyWithMaintainers(k, e, at));
}

function createNode(rules: SchemeRules, c: Create, seed: Uint8Array | undefined, e: Encoder, at: string): void {
  versionByte(rules, e)
    .string(c.lfVersion)
    .byte(0x00)
    .optional(seed, (s) => e.raw(s))
    .bytes(contractIdBytes(c.contractId, at))
    .string(c.packageName);
  identifier(c.templateId, e);
  value(c.argument, e, at);
  e.list(c.signatories, (s) => e.string(s)).list(c.stakeholders, (s) => e.string(s));
  keyFields(rules, readKeyFields('create', c), false, e, at);
}

function fetchNode(rules: SchemeRules, f: Fetch, e: Encoder, at: string): void {
  versionByte(rules, e).string(f.lfVersion).byte(0x02).bytes(contractIdBytes(f.contractId, at)).string(f.packageName);
  identifier(f.templateId, e);
  e.list(f.signatories, (s) => e.string(s))
    .list(f.stakeholders, (s) => e.string(s))
    .optional(f.interfaceId, (id) => identifier(id, e))
    .list(f.actingParties, (s) => e.string(s));
  keyFields(rules, readKeyFields('fetch', f), true, e, at);
}

function queryByKeyNode(q: QueryByKey, e: Encoder, at: string): void {
  e.string(q.lfVersion).byte(0x04).string(q.packageName);
  identifier(q.templateId, e);
  e.bool(q.exhaustive);
  // A lookup's key is required: an absent one is encoded as its empty message, as the reference does.
  keyWithMaintainers(q.key ?? { maintainers: [] }, e, at);
  e.list(q.result, (id) => e.bytes(contractIdBytes(id, at)));
}

/** Encodes nodes by id, each hashed once (a node stands in its parent as its hash). */
class NodeHasher {
  private readonly nodes: Map<string, DamlTransaction_Node>;
  private readonly seeds: Map<string, Uint8Array>;
  private readonly open = new Set<string>();

  constructor(
    private readonly scheme: HashingScheme,
    tx: DamlTransaction,
  ) {
    this.nodes = new Map(tx.nodes.map((n) => [n.nodeId, n]));
    this.seeds = new Map(tx.nodeSeeds.map((s) => [String(s.nodeId), s.seed]));
  }

  hashOf(nodeId: string, parent: string): Uint8Array {
    const node = this.nodes.get(nodeId);
    if (!node) throw new HashEncodingError('missing-node', parent, `refers to node ${nodeId}, which the transaction does not contain`);
    if (this.open.has(nodeId)) throw new HashEncodingError('cycle', `node ${nodeId}`, 'is its own descendant');
    this.open.add(nodeId);
    const e = new Encoder();
    this.encode(node, e);
    this.open.delete(nodeId);
    return sha256(e.finish());
  }

  private children(ids: readonly string[], e: Encoder, at: string): void {
    e.list(ids, (id) => e.raw(this.hashOf(id, at)));
  }

  private encode(node: DamlTransaction_Node, e: Encoder): void {
    const at = `node ${node.nodeId}`;
    const rules = RULES[this.scheme];
    const v1 = node.versionedNode.oneofKind === 'v1' ? node.versionedNode.v1 : undefined;
    const type = v1?.nodeType;
    switch (type?.oneofKind) {
      case 'create':
        createNode(rules, type.create, this.seeds.get(node.nodeId), e, at);
        return;
      case 'exercise':
        this.exercise(type.exercise, node.nodeId, e, at);
        return;
      case 'fetch':
        fetchNode(rules, type.fetch, e, at);
        return;
      case 'rollback':
        versionByte(rules, e).byte(0x03);
        this.children(type.rollback.children, e, at);
        return;
    }
    const lookup = v1 && rules.keys ? readQueryByKey(v1) : undefined;
    if (lookup) return queryByKeyNode(lookup, e, at);
    throw new HashEncodingError('unknown-node', at, `has a node version or type that hashing scheme ${this.scheme} does not encode`);
  }

  private exercise(x: Exercise, nodeId: string, e: Encoder, at: string): void {
    const rules = RULES[this.scheme];
    // An exercise's seed is required (no optional marker): without it there is no hash.
    const seed = this.seeds.get(nodeId);
    if (!seed) throw new HashEncodingError('missing-seed', at, 'is an exercise without a node seed');
    versionByte(rules, e).string(x.lfVersion).byte(0x01).raw(seed).bytes(contractIdBytes(x.contractId, at)).string(x.packageName);
    identifier(x.templateId, e);
    e.list(x.signatories, (s) => e.string(s))
      .list(x.stakeholders, (s) => e.string(s))
      .list(x.actingParties, (s) => e.string(s))
      .optional(x.interfaceId, (id) => identifier(id, e))
      .string(x.choiceId);
    value(x.chosenValue, e, at);
    e.bool(x.consuming).optional(x.exerciseResult, (r) => value(r, e, at));
    e.list(x.choiceObservers, (s) => e.string(s));
    keyFields(rules, readKeyFields('exercise', x), true, e, at);
    this.children(x.children, e, at);
  }
}

function transactionHash(scheme: HashingScheme, tx: DamlTransaction): Uint8Array {
  const nodes = new NodeHasher(scheme, tx);
  const e = new Encoder().string(tx.version);
  e.list(tx.roots, (id) => e.raw(nodes.hashOf(id, 'transaction.roots')));
  return sha256(HASH_PURPOSE, e.finish());
}

function metadataHash(scheme: HashingScheme, m: Metadata): Uint8Array {
  const rules = RULES[scheme];
  const e = versionByte(rules, new Encoder())
    .list(m.submitterInfo?.actAs ?? [], (s, x) => x.string(s))
    .string(m.submitterInfo?.commandId ?? '')
    .string(m.transactionUuid)
    .int32(m.mediatorGroup)
    .string(m.synchronizerId)
    .optional(m.minLedgerEffectiveTime, (t, x) => x.int64(t))
    .optional(m.maxLedgerEffectiveTime, (t, x) => x.int64(t))
    .int64(m.preparationTime);
  m.inputContracts.forEach((c, i) => {
    if (c.contract.oneofKind !== 'v1') throw new HashEncodingError('unknown-node', `metadata.inputContracts[${i}]`, `has a contract version that hashing scheme ${scheme} does not encode`);
  });
  e.list(m.inputContracts, (c, x) => {
    const create = new Encoder();
    // An input contract is its creation time and the hash of its create node, encoded without a seed.
    createNode(rules, (c.contract as { v1: Create }).v1, undefined, create, 'metadata.inputContracts');
    x.int64(c.createdAt).raw(sha256(create.finish()));
  });
  if (rules.keys) e.optional(m.maxRecordTime, (t, x) => x.int64(t));
  return sha256(HASH_PURPOSE, e.finish());
}

/** The hash of a prepared transaction under a scheme (32 bytes). Throws {@link HashEncodingError}. */
export function preparedTransactionHash(prepared: PreparedTransaction, scheme: HashingScheme): Uint8Array {
  const tx = prepared.transaction ?? { version: '', roots: [], nodes: [], nodeSeeds: [] };
  const meta = prepared.metadata ?? { synchronizerId: '', mediatorGroup: 0, transactionUuid: '', preparationTime: 0n, inputContracts: [], globalKeyMapping: [] };
  return sha256(HASH_PURPOSE, Uint8Array.of(RULES[scheme].byte), transactionHash(scheme, tx), metadataHash(scheme, meta));
}

/** The V2 hash of a prepared transaction (32 bytes). Throws {@link HashEncodingError}. */
export function preparedTransactionHashV2(prepared: PreparedTransaction): Uint8Array {
  return preparedTransactionHash(prepared, 'V2');
}

/** What the recomputation says about the hash the participant sent. Hashes are hex. */
export type HashVerification =
  | { kind: 'verified'; scheme: HashingScheme; hash: string }
  | { kind: 'mismatch'; scheme: HashingScheme; expected: string; computed: string }
  /**
   * Never "verified", never a mismatch: `unknown-scheme`, a scheme this client does not compute (its
   * short name, e.g. `V4`); `cannot-encode`, a transaction the scheme cannot encode (the reason names where).
   */
  | { kind: 'cannot-verify'; scheme: string; why: 'unknown-scheme' | 'cannot-encode'; reason: string };

/** The wire's enum value of each scheme (`JsPrepareSubmissionResponse.hashingSchemeVersion`). */
export const HASHING_SCHEME_VERSION: Record<HashingScheme, wire.HashingSchemeVersion> = {
  V2: 'HASHING_SCHEME_VERSION_V2',
  V3: 'HASHING_SCHEME_VERSION_V3',
};

/** The scheme's short name: `HASHING_SCHEME_VERSION_V3` → `V3`. */
function schemeName(version: string | undefined): string {
  return (version ?? '').replace(/^HASHING_SCHEME_VERSION_/, '') || 'none';
}

/** The scheme a prepare answer names, if this client computes it. */
export function hashingSchemeOf(version: string | undefined): HashingScheme | undefined {
  return HASHING_SCHEMES.find((s) => HASHING_SCHEME_VERSION[s] === version);
}

/**
 * Recomputes the hash of a prepare answer's transaction under the scheme the answer names and compares
 * it with the hash the answer carries. Verified only when the bytes are equal; a scheme this client
 * does not compute, or a transaction it cannot encode, is "cannot verify" with the reason — never
 * verified, and never a mismatch (nothing says the participant's hash is wrong).
 */
export function verifyPreparedHash(prepared: PreparedTransaction, answer: Pick<wire.JsPrepareSubmissionResponse, 'preparedTransactionHash' | 'hashingSchemeVersion'>): HashVerification {
  const scheme = hashingSchemeOf(answer.hashingSchemeVersion);
  if (!scheme) {
    const name = schemeName(answer.hashingSchemeVersion);
    return { kind: 'cannot-verify', scheme: name, why: 'unknown-scheme', reason: `the participant hashed with scheme ${name}; this client computes schemes ${HASHING_SCHEMES.join(' and ')}` };
  }
  let computed: string;
  try {
    computed = Buffer.from(preparedTransactionHash(prepared, scheme)).toString('hex');
  } catch (e) {
    if (e instanceof HashEncodingError) return { kind: 'cannot-verify', scheme, why: 'cannot-encode', reason: e.message };
    throw e;
  }
  const expected = Buffer.from(answer.preparedTransactionHash, 'base64').toString('hex');
  return expected === computed ? { kind: 'verified', scheme, hash: computed } : { kind: 'mismatch', scheme, expected, computed };
}
