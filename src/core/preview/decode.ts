/**
 * Decodes the `preparedTransaction` of a prepare answer (base64 of the Ledger API's
 * `PreparedTransaction` protobuf) into a {@link PreparedPreview}. This module carries the generated
 * protobuf code, so the extension loads it (dist/preview.js) only when it shows a preview.
 */
import { PreparedTransaction, type DamlTransaction_Node, type Identifier } from '@canton-network/core-ledger-proto';
import { ProtocolError } from '../errors';
import type * as wire from '../models/wire';
import { verifyPreparedHash, type HashVerification } from './hash';
import { readKeyFields, readQueryByKey, type GlobalKeyWithMaintainers, type KeyFields } from './keys';
import { informeesOf, type PreparedPreview, type PreviewInputContract, type PreviewKey, type PreviewNode } from './model';
import { microsToIso, valueToJson } from './value';

const PREPARE = { method: 'POST', path: '/v2/interactive-submission/prepare' };

/** The bytes are not a PreparedTransaction, or its node references are broken. */
function broken(why: string, cause?: unknown): ProtocolError {
  return new ProtocolError(`The preparedTransaction of the prepare answer cannot be read: ${why}`, PREPARE, cause, { problem: 'bad-field', field: 'preparedTransaction' });
}

/** A prepare answer as a preview shows it: the transaction, and whether its hash is the hash of that transaction. */
export interface PreparedReading {
  preview: PreparedPreview;
  hash: HashVerification;
}

/** Reads a prepare answer: decodes its transaction and recomputes its hash from it. */
export function readPreparedAnswer(raw: Pick<wire.JsPrepareSubmissionResponse, 'preparedTransaction' | 'preparedTransactionHash' | 'hashingSchemeVersion'>): PreparedReading {
  const message = preparedMessage(raw.preparedTransaction);
  return { preview: previewOf(message), hash: verifyPreparedHash(message, raw) };
}

export function decodePreparedTransaction(base64: string): PreparedPreview {
  return previewOf(preparedMessage(base64));
}

function preparedMessage(base64: string): PreparedTransaction {
  try {
    return PreparedTransaction.fromBinary(Buffer.from(base64, 'base64'));
  } catch (e) {
    throw broken(`it is not a PreparedTransaction protobuf (${e instanceof Error ? e.message : String(e)})`, e);
  }
}

function previewOf(message: PreparedTransaction): PreparedPreview {
  const tx = message.transaction;
  const meta = message.metadata;
  const byId = new Map((tx?.nodes ?? []).map((n) => [n.nodeId, n]));
  const seen = new Set<string>();
  const build = (id: string): PreviewNode => {
    const node = byId.get(id);
    if (!node) throw broken(`the transaction refers to node ${id}, which it does not contain`);
    if (seen.has(id)) throw broken(`node ${id} appears twice in the transaction tree`);
    seen.add(id);
    return toPreviewNode(node, build);
  };
  const time = (micros: bigint | undefined) => (micros === undefined ? undefined : microsToIso(micros));
  return {
    transactionVersion: tx?.version ?? '',
    roots: (tx?.roots ?? []).map(build),
    inputContracts: (meta?.inputContracts ?? []).flatMap((c): PreviewInputContract[] => {
      if (c.contract.oneofKind !== 'v1') return [];
      const create = c.contract.v1;
      return [
        {
          contractId: create.contractId,
          templateId: identifier(create.templateId),
          packageName: create.packageName,
          argument: valueToJson(create.argument),
          signatories: create.signatories,
          stakeholders: create.stakeholders,
          ...keyed(readKeyFields('create', create)),
          createdAt: c.createdAt ? microsToIso(c.createdAt) : undefined,
        },
      ];
    }),
    actAs: meta?.submitterInfo?.actAs ?? [],
    commandId: meta?.submitterInfo?.commandId ?? '',
    synchronizerId: meta?.synchronizerId ?? '',
    transactionUuid: meta?.transactionUuid ?? '',
    preparationTime: meta?.preparationTime ? microsToIso(meta.preparationTime) : undefined,
    minLedgerEffectiveTime: time(meta?.minLedgerEffectiveTime),
    maxLedgerEffectiveTime: time(meta?.maxLedgerEffectiveTime),
    maxRecordTime: time(meta?.maxRecordTime),
  };
}

function identifier(id: Identifier | undefined): string | undefined {
  return id ? `${id.packageId}:${id.moduleName}:${id.entityName}` : undefined;
}

function previewKey(k: GlobalKeyWithMaintainers): PreviewKey {
  return { value: valueToJson(k.key?.key), maintainers: k.maintainers, hash: Buffer.from(k.key?.hash ?? []).toString('hex') };
}

/** The key fields a node has: none on a node of a template without a key. */
function keyed(fields: KeyFields): Pick<PreviewNode, 'key' | 'byKey'> {
  return { ...(fields.key ? { key: previewKey(fields.key) } : {}), ...(fields.byKey ? { byKey: true } : {}) };
}

function toPreviewNode(node: DamlTransaction_Node, build: (id: string) => PreviewNode): PreviewNode {
  const base = { nodeId: node.nodeId, signatories: [] as string[], stakeholders: [] as string[], actingParties: [] as string[], choiceObservers: [] as string[], children: [] as PreviewNode[] };
  const v1 = node.versionedNode.oneofKind === 'v1' ? node.versionedNode.v1 : undefined;
  const v = v1?.nodeType;
  let out: Omit<PreviewNode, 'informees'>;
  switch (v?.oneofKind) {
    case 'create': {
      const c = v.create;
      out = { ...base, kind: 'create', contractId: c.contractId, templateId: identifier(c.templateId), packageName: c.packageName, argument: valueToJson(c.argument), signatories: c.signatories, stakeholders: c.stakeholders, ...keyed(readKeyFields('create', c)) };
      break;
    }
    case 'exercise': {
      const x = v.exercise;
      out = {
        ...base,
        kind: 'exercise',
        contractId: x.contractId,
        templateId: identifier(x.templateId),
        packageName: x.packageName,
        interfaceId: identifier(x.interfaceId),
        signatories: x.signatories,
        stakeholders: x.stakeholders,
        actingParties: x.actingParties,
        choice: x.choiceId,
        choiceArgument: valueToJson(x.chosenValue),
        consuming: x.consuming,
        choiceObservers: x.choiceObservers,
        children: x.children.map(build),
        exerciseResult: x.exerciseResult ? valueToJson(x.exerciseResult) : undefined,
        ...keyed(readKeyFields('exercise', x)),
      };
      break;
    }
    case 'fetch': {
      const f = v.fetch;
      out = { ...base, kind: 'fetch', contractId: f.contractId, templateId: identifier(f.templateId), packageName: f.packageName, interfaceId: identifier(f.interfaceId), signatories: f.signatories, stakeholders: f.stakeholders, actingParties: f.actingParties, ...keyed(readKeyFields('fetch', f)) };
      break;
    }
    case 'rollback':
      out = { ...base, kind: 'rollback', children: v.rollback.children.map(build) };
      break;
    default: {
      const lookup = v1 ? readQueryByKey(v1) : undefined;
      if (!lookup) throw broken(`node ${node.nodeId} has a node version or type this client does not know`);
      out = {
        ...base,
        kind: 'lookup',
        templateId: identifier(lookup.templateId),
        packageName: lookup.packageName,
        ...(lookup.key ? { key: previewKey(lookup.key) } : {}),
        found: lookup.result,
        exhaustive: lookup.exhaustive,
      };
    }
  }
  return { ...out, informees: informeesOf(out) };
}
