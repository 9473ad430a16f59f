/**
 * What `prepare` answers: the interpreted transaction as the Ledger API's `PreparedTransaction`
 * protobuf (the real message, so any client's decoder reads it), with the seeds of its create and
 * exercise nodes, the contract keys of keyed templates' nodes, and its hash (computed by the core, the
 * same function the preview verifies with): under Canton's hashing scheme V3 where contract keys are
 * involved (V3 covers keys and `by_key`; V2 leaves them out), V2 otherwise.
 */
import { randomUUID } from 'node:crypto';
import { PreparedTransaction, type Create, type DamlTransaction_Node, type Exercise, type Identifier, type Value } from '@canton-network/core-ledger-proto';
import type { TypeLookup } from '../core/daml/packageIndex';
import type { DamlType } from '../core/daml/model';
import { shapeOf } from '../core/daml/types';
import type * as wire from '../core/models/wire';
import { HASHING_SCHEME_VERSION, preparedTransactionHash, type HashingScheme } from '../core/preview/hash';
import { writeKeyFields, type KeyFields } from '../core/preview/keys';
import { contractKeyHashBytes } from './encode';
import type { PreviewedTransaction } from './ledger';
import type { ContractRecord, TransactionNode } from './model';
import type { InterfaceDef, PackageStore, TemplateDef } from './packages';
import type { Micros } from './time';

const LF_VERSION = '2.1';

export interface PrepareMetadata {
  actAs: readonly string[];
  commandId: string;
  preparationTime: Micros;
}

export interface PreparedAnswer {
  /** Base64 of the PreparedTransaction message. */
  preparedTransaction: string;
  preparedTransactionHash: string;
  hashingSchemeVersion: wire.HashingSchemeVersion;
}

export function preparedAnswer(previewed: PreviewedTransaction, meta: PrepareMetadata, lookup: PackageStore): PreparedAnswer {
  const message = preparedMessage(previewed, meta, lookup);
  const keyed = previewed.prepared.nodes.some((node) => node.contract.key !== null);
  const scheme: HashingScheme = keyed ? 'V3' : 'V2';
  return {
    preparedTransaction: Buffer.from(PreparedTransaction.toBinary(message)).toString('base64'),
    preparedTransactionHash: Buffer.from(preparedTransactionHash(message, scheme)).toString('base64'),
    hashingSchemeVersion: HASHING_SCHEME_VERSION[scheme],
  };
}

export function preparedMessage(previewed: PreviewedTransaction, meta: PrepareMetadata, lookup: PackageStore): PreparedTransaction {
  const { prepared, inputs, nodeSeeds } = previewed;
  // The interpreter's nodes are flat, in execution order; an exercise owns the nodes up to its last descendant.
  const roots: string[] = [];
  const children = new Map<number, string[]>();
  const open: { nodeId: number; last: number }[] = [];
  for (const node of prepared.nodes) {
    while (open.length > 0 && open[open.length - 1].last < node.nodeId) open.pop();
    const parent = open[open.length - 1];
    (parent ? children.get(parent.nodeId)! : roots).push(String(node.nodeId));
    if (node.kind === 'exercised') {
      children.set(node.nodeId, []);
      open.push({ nodeId: node.nodeId, last: node.lastDescendantNodeId });
    }
  }
  const nodes = prepared.nodes.map((node): DamlTransaction_Node => ({ nodeId: String(node.nodeId), versionedNode: { oneofKind: 'v1', v1: { nodeType: nodeType(node, children.get(node.nodeId) ?? [], lookup) } } }));
  const message = PreparedTransaction.create({
    transaction: { version: LF_VERSION, roots, nodes, nodeSeeds: nodeSeeds.map(({ nodeId, seed }) => ({ nodeId, seed: Buffer.from(seed, 'hex') })) },
    metadata: {
      submitterInfo: { actAs: [...meta.actAs], commandId: meta.commandId },
      synchronizerId: prepared.synchronizerId,
      mediatorGroup: 0,
      transactionUuid: randomUUID(),
      preparationTime: BigInt(meta.preparationTime),
      inputContracts: inputs.map((c) => ({ contract: { oneofKind: 'v1', v1: createOf(c, lookup) }, createdAt: BigInt(c.createdAt), eventBlob: new Uint8Array() })),
      globalKeyMapping: [],
    },
  });
  // The key fields are not in the library's generated messages: they go onto the created message as the fields it keeps for what it does not know.
  message.transaction!.nodes.forEach((proto, i) => {
    const node = prepared.nodes[i];
    const type = proto.versionedNode.oneofKind === 'v1' ? proto.versionedNode.v1.nodeType : undefined;
    if (type?.oneofKind === 'create') writeKeyFields('create', type.create, keyFields(node.contract, false, lookup));
    else if (type?.oneofKind === 'exercise' && node.kind === 'exercised') writeKeyFields('exercise', type.exercise, keyFields(node.contract, node.byKey === true, lookup));
  });
  message.metadata!.inputContracts.forEach((input, i) => {
    if (input.contract.oneofKind === 'v1') writeKeyFields('create', input.contract.v1, keyFields(inputs[i], false, lookup));
  });
  return message;
}

/** A contract's key as a prepared transaction carries it: the key, its hash and its maintainers. */
function keyFields(c: ContractRecord, byKey: boolean, lookup: PackageStore): KeyFields {
  const key = c.template.key;
  if (!key || c.key === null) return { byKey };
  return {
    key: { key: { templateId: identifier(c.template), packageName: c.template.pkg.name, key: toValue(c.key, key.type, lookup), hash: contractKeyHashBytes(c) }, maintainers: key.maintainers(c.key) },
    byKey,
  };
}

function identifier(t: TemplateDef | InterfaceDef): Identifier {
  return { packageId: t.pkg.id, moduleName: t.moduleName, entityName: t.entityName };
}

function createOf(c: ContractRecord, lookup: PackageStore): Create {
  return {
    lfVersion: LF_VERSION,
    contractId: c.contractId,
    packageName: c.template.pkg.name,
    templateId: identifier(c.template),
    argument: toValue(c.argument, c.template.type, lookup),
    signatories: [...c.signatories],
    stakeholders: [...c.stakeholders],
  };
}

function nodeType(node: TransactionNode, children: string[], lookup: PackageStore): { oneofKind: 'create'; create: Create } | { oneofKind: 'exercise'; exercise: Exercise } {
  if (node.kind === 'created') return { oneofKind: 'create', create: createOf(node.contract, lookup) };
  const c = node.contract;
  // A choice exercised through an interface is the interface's.
  const iface = node.interfaceId === undefined ? undefined : lookup.interface(node.interfaceId);
  const choice = iface ? iface.choices.get(node.choice) : node.template.choices.get(node.choice);
  return {
    oneofKind: 'exercise',
    exercise: {
      lfVersion: LF_VERSION,
      contractId: c.contractId,
      packageName: node.template.pkg.name,
      templateId: identifier(node.template),
      ...(iface ? { interfaceId: identifier(iface) } : {}),
      signatories: [...c.signatories],
      stakeholders: [...c.stakeholders],
      actingParties: [...node.actingParties],
      choiceId: node.choice,
      chosenValue: toValue(node.choiceArgument, choice?.argType, lookup),
      consuming: node.consuming,
      children,
      exerciseResult: toValue(node.exerciseResult, choice?.returnType, lookup),
      choiceObservers: [],
    },
  };
}

/**
 * A Daml-LF JSON value as a protobuf Value, guided by its type (Party, Numeric, Text and ContractId
 * are all strings in JSON); without a type (a choice the package does not describe), by the JSON's
 * own shape.
 */
export function toValue(json: unknown, type: DamlType | undefined, lookup: TypeLookup): Value {
  const shape = type ? shapeOf(type, lookup) : undefined;
  const v = (sum: Value['sum']): Value => ({ sum });
  if (shape?.kind === 'record' && json && typeof json === 'object') {
    const record = json as Record<string, unknown>;
    return v({ oneofKind: 'record', record: { fields: shape.fields.map((f) => ({ label: f.name, value: toValue(record[f.name] ?? null, f.type, lookup) })) } });
  }
  if (shape?.kind === 'variant' && json && typeof json === 'object') {
    const { tag, value } = json as { tag: string; value: unknown };
    const ctor = shape.constructors.find((c) => c.name === tag);
    return v({ oneofKind: 'variant', variant: { constructor: tag, value: toValue(value, ctor?.type, lookup) } });
  }
  if (shape?.kind === 'enum' && typeof json === 'string') return v({ oneofKind: 'enum', enum: { constructor: json } });
  if (shape?.kind === 'builtin') {
    const [first, second] = shape.args;
    switch (shape.builtin) {
      case 'Party':
        return v({ oneofKind: 'party', party: String(json) });
      case 'ContractId':
        return v({ oneofKind: 'contractId', contractId: String(json) });
      case 'Int64':
        return v({ oneofKind: 'int64', int64: String(json) });
      case 'Numeric':
        return v({ oneofKind: 'numeric', numeric: String(json) });
      case 'Text':
        return v({ oneofKind: 'text', text: String(json) });
      case 'Bool':
        return v({ oneofKind: 'bool', bool: json === true });
      case 'Unit':
        return v({ oneofKind: 'unit', unit: {} });
      case 'Date':
        return v({ oneofKind: 'date', date: Math.round(Date.parse(`${String(json)}T00:00:00Z`) / 86_400_000) });
      case 'Timestamp':
        return v({ oneofKind: 'timestamp', timestamp: String(BigInt(Date.parse(String(json))) * 1000n + BigInt(Number(/\.\d{3}(\d{3})/.exec(String(json))?.[1] ?? 0))) });
      case 'List':
        return v({ oneofKind: 'list', list: { elements: (json as unknown[]).map((x) => toValue(x, first, lookup)) } });
      case 'TextMap':
        return v({ oneofKind: 'textMap', textMap: { entries: Object.entries(json as Record<string, unknown>).map(([key, x]) => ({ key, value: toValue(x, first, lookup) })) } });
      case 'GenMap':
        return v({ oneofKind: 'genMap', genMap: { entries: (json as [unknown, unknown][]).map(([k, x]) => ({ key: toValue(k, first, lookup), value: toValue(x, second, lookup) })) } });
      case 'Optional': {
        if (json === null) return v({ oneofKind: 'optional', optional: {} });
        const inner = shapeOf(first, lookup);
        // Optional (Optional a) is written [] / [x].
        if (inner.kind === 'builtin' && inner.builtin === 'Optional') {
          const items = json as unknown[];
          return v({ oneofKind: 'optional', optional: { value: items.length === 0 ? v({ oneofKind: 'optional', optional: {} }) : toValue(items[0], first, lookup) } });
        }
        return v({ oneofKind: 'optional', optional: { value: toValue(json, first, lookup) } });
      }
    }
  }
  return untyped(json);
}

function untyped(json: unknown): Value {
  const v = (sum: Value['sum']): Value => ({ sum });
  if (json === null || json === undefined) return v({ oneofKind: 'optional', optional: {} });
  if (typeof json === 'boolean') return v({ oneofKind: 'bool', bool: json });
  if (typeof json === 'number') return v({ oneofKind: 'int64', int64: String(json) });
  if (typeof json === 'string') return v({ oneofKind: 'text', text: json });
  if (Array.isArray(json)) return v({ oneofKind: 'list', list: { elements: json.map(untyped) } });
  const record = json as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 0) return v({ oneofKind: 'unit', unit: {} });
  if (keys.length === 2 && 'tag' in record && 'value' in record) return v({ oneofKind: 'variant', variant: { constructor: String(record.tag), value: untyped(record.value) } });
  return v({ oneofKind: 'record', record: { fields: keys.map((label) => ({ label, value: untyped(record[label]) })) } });
}
