/**
 * What a preview shows: one read-only document (the editor's and `submit --preview --json`'s) and
 * the CLI's text. Both say plainly that nothing was submitted and that the ledger may move on.
 */
import type * as wire from '../models/wire';
import { parseIdentifier, printIdentifier, withPackageName } from '../daml/identifiers';
import { costEstimateText, decodeCostEstimation, labelledTrafficCost } from '../trafficCost';
import type { HashVerification } from './hash';
import { walkNodes, type PreparedPreview, type PreviewNode } from './model';

export const PREVIEW_CAVEAT =
  'Nothing was submitted. This is what the commands would do if submitted now; the ledger can move before you submit (contracts archived or created by others, keys taken), so the submission may differ or fail.';

export interface PreviewCounts {
  created: number;
  archived: number;
  exercised: number;
  fetched: number;
}

export function previewCounts(p: PreparedPreview): PreviewCounts {
  const counts = { created: 0, archived: 0, exercised: 0, fetched: 0 };
  for (const n of walkNodes(p.roots)) {
    if (n.kind === 'create') counts.created++;
    else if (n.kind === 'exercise') {
      counts.exercised++;
      if (n.consuming) counts.archived++;
    } else if (n.kind === 'fetch') counts.fetched++;
  }
  return counts;
}

/** "would create 2 contracts, archive 1, exercise 1 choice (Iou_Transfer), fetch 0; reads 1 contract". */
export function previewSummary(p: PreparedPreview): string {
  const c = previewCounts(p);
  const choices = [...new Set([...walkNodes(p.roots)].filter((n) => n.kind === 'exercise').map((n) => n.choice))];
  const lookups = [...walkNodes(p.roots)].filter((n) => n.kind === 'lookup').length;
  const parts = [
    `create ${plural(c.created, 'contract')}`,
    `archive ${c.archived}`,
    `exercise ${plural(c.exercised, 'choice')}${choices.length ? ` (${choices.join(', ')})` : ''}`,
    ...(c.fetched ? [`fetch ${c.fetched}`] : []),
    ...(lookups ? [`look up ${plural(lookups, 'key')}`] : []),
  ];
  return `Would ${parts.join(', ')}; depends on ${plural(p.inputContracts.length, 'input contract')}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The hash as people compare it with signing tools: hex (the answer carries base64). */
export function hashHex(raw: wire.JsPrepareSubmissionResponse): string {
  return Buffer.from(raw.preparedTransactionHash, 'base64').toString('hex');
}

/** Said first, in the document and the CLI's text, when the hash is not the transaction's. */
export const HASH_MISMATCH_WARNING = "DO NOT SIGN: the participant's hash is not the hash of this transaction and its metadata.";

/** The verdict on the hash in one line: "hash verified (V3): …", "HASH DOES NOT MATCH (V2): …", "hash not verified (V4): …". */
export function hashCheckLine(h: HashVerification): string {
  switch (h.kind) {
    case 'verified':
      return `hash verified (${h.scheme}): recomputed here from the transaction and its metadata, it is the hash the participant sent`;
    case 'mismatch':
      return `HASH DOES NOT MATCH (${h.scheme}): the participant sent ${h.expected}, the transaction and its metadata hash to ${h.computed}; do not sign it`;
    case 'cannot-verify':
      return `hash not verified (${h.scheme}): ${h.reason}`;
  }
}

/**
 * A node's template as the commands file names it, `#package-name:Module:Entity` (the prepared
 * transaction names it by package id, 64 hex digits that say nothing to a reader).
 */
function readableTemplate(n: { templateId?: string; packageName?: string }): string | undefined {
  const id = n.templateId ? parseIdentifier(n.templateId) : undefined;
  return id && n.packageName ? printIdentifier(withPackageName(id, n.packageName)) : n.templateId;
}

/** The tree of one node for the JSON document: what it is first, then who sees it, then its children. */
function nodeDocument(n: PreviewNode): Record<string, unknown> {
  const head: Record<string, unknown> =
    n.kind === 'create'
      ? { create: readableTemplate(n), contractId: n.contractId, arguments: n.argument }
      : n.kind === 'exercise'
        ? { exercise: n.choice, on: readableTemplate(n), contractId: n.contractId, consuming: n.consuming, archives: n.consuming ? n.contractId : undefined, actingParties: n.actingParties, choiceArgument: n.choiceArgument, result: n.exerciseResult }
        : n.kind === 'fetch'
          ? { fetch: readableTemplate(n), contractId: n.contractId, actingParties: n.actingParties }
          : n.kind === 'lookup'
            ? { lookupByKey: readableTemplate(n), found: n.found, exhaustive: n.exhaustive }
            : { rollback: `node ${n.nodeId}: its children's effects are rolled back` };
  return {
    ...head,
    ...(n.byKey ? { byKey: true } : {}),
    ...(n.key ? { key: n.key } : {}),
    ...(n.kind === 'rollback' ? {} : { templateId: n.templateId }),
    ...(n.interfaceId ? { interfaceId: n.interfaceId } : {}),
    nodeId: n.nodeId,
    informees: n.informees,
    ...(n.kind === 'rollback' || n.kind === 'lookup' ? {} : { signatories: n.signatories, stakeholders: n.stakeholders }),
    ...(n.choiceObservers.length ? { choiceObservers: n.choiceObservers } : {}),
    ...(n.children.length ? { children: n.children.map(nodeDocument) } : {}),
  };
}

export interface PreviewDocumentInput {
  preview: PreparedPreview;
  raw: wire.JsPrepareSubmissionResponse;
  /** The hash recomputed from the transaction, compared with the answer's. */
  hash: HashVerification;
  /** Where it was prepared: the connection's name or URL. */
  participant: string;
  file?: string;
}

/** The read-only preview document. */
export function previewDocument(input: PreviewDocumentInput): Record<string, unknown> {
  const { preview: p, raw } = input;
  const nodes = [...walkNodes(p.roots)];
  return {
    ...(input.hash.kind === 'mismatch' ? { warning: HASH_MISMATCH_WARNING } : {}),
    preview: PREVIEW_CAVEAT,
    summary: previewSummary(p),
    ...(input.file ? { file: input.file } : {}),
    participant: input.participant,
    commandId: p.commandId,
    actAs: p.actAs,
    synchronizerId: p.synchronizerId,
    hash: hashHex(raw),
    hashingSchemeVersion: raw.hashingSchemeVersion,
    hashCheck: hashCheckLine(input.hash),
    ...(raw.costEstimation ? { costEstimation: raw.costEstimation, trafficCost: costEstimateText(decodeCostEstimation(raw.costEstimation)!) } : {}),
    transaction: p.roots.map(nodeDocument),
    created: nodes.filter((n) => n.kind === 'create').map((n) => ({ contractId: n.contractId, templateId: n.templateId, stakeholders: n.stakeholders })),
    archived: nodes.filter((n) => n.kind === 'exercise' && n.consuming).map((n) => ({ contractId: n.contractId, templateId: n.templateId, by: n.choice })),
    inputContracts: p.inputContracts,
    metadata: {
      transactionVersion: p.transactionVersion,
      transactionUuid: p.transactionUuid,
      preparationTime: p.preparationTime,
      minLedgerEffectiveTime: p.minLedgerEffectiveTime,
      maxLedgerEffectiveTime: p.maxLedgerEffectiveTime,
      maxRecordTime: p.maxRecordTime,
    },
  };
}

/** The CLI's text: the tree indented, one line per node, then the inputs and the hash. */
export function previewText(input: PreviewDocumentInput): string {
  const { preview: p, raw } = input;
  const lines = [...(input.hash.kind === 'mismatch' ? [HASH_MISMATCH_WARNING, ''] : []), `Preview of commandId ${p.commandId} on ${input.participant} (actAs ${p.actAs.join(', ')})`, previewSummary(p), ''];
  const line = (n: PreviewNode, depth: number) => {
    const pad = '  '.repeat(depth + 1);
    const seen = `seen by ${n.informees.join(', ') || 'nobody'}`;
    const key = n.key ? ` key ${JSON.stringify(n.key.value)}` : '';
    const byKey = n.byKey ? ' (by key)' : '';
    if (n.kind === 'create') lines.push(`${pad}create ${readableTemplate(n)} ${n.contractId}${key} ${JSON.stringify(n.argument)} (${seen})`);
    else if (n.kind === 'exercise')
      lines.push(`${pad}exercise ${n.choice} on ${readableTemplate(n)} ${n.contractId}${byKey}${n.consuming ? ' (consuming: archives it)' : ''} by ${n.actingParties.join(', ')} argument ${JSON.stringify(n.choiceArgument)} → ${JSON.stringify(n.exerciseResult ?? null)} (${seen})`);
    else if (n.kind === 'fetch') lines.push(`${pad}fetch ${readableTemplate(n)} ${n.contractId}${byKey} (${seen})`);
    else if (n.kind === 'lookup') lines.push(`${pad}lookup by key ${readableTemplate(n)}${key} → ${n.found?.length ? n.found.join(', ') : 'not found'} (${seen})`);
    else lines.push(`${pad}rollback (its children's effects are undone)`);
    for (const c of n.children) line(c, depth + 1);
  };
  for (const r of p.roots) line(r, 0);
  lines.push('', `Input contracts: ${p.inputContracts.length === 0 ? 'none' : ''}`);
  for (const c of p.inputContracts) lines.push(`  ${c.contractId} ${c.templateId ?? c.packageName} (stakeholders ${c.stakeholders.join(', ')})`);
  lines.push(`Hash: ${hashHex(raw)} (${raw.hashingSchemeVersion})`, `  ${hashCheckLine(input.hash)}`);
  const estimate = decodeCostEstimation(raw.costEstimation);
  if (estimate) lines.push(labelledTrafficCost(costEstimateText(estimate))!);
  lines.push('', PREVIEW_CAVEAT);
  return lines.join('\n') + '\n';
}
