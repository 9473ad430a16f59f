/**
 * The demo's traffic costs, figured as Canton's sequencers charge them: an envelope costs its size in
 * bytes (the write cost) plus, per recipient, that size times a read-vs-write scaling factor in basis
 * points (the read cost). See `EventCostCalculator.computeEnvelopeCost` in digital-asset/canton,
 * community/base/src/main/scala/com/digitalasset/canton/sequencing/traffic/EventCostCalculator.scala.
 * The envelope here is the transaction's nodes as JSON plus a fixed overhead; the recipients are its
 * informees plus the mediator. A transaction's paid cost is its prepared estimate's request cost, so
 * Compare with Committed shows them equal, as they are on a quiet synchronizer.
 */
import type * as wire from '../core/models/wire';
import type { TransactionNode } from './model';
import { formatInstant, type Micros } from './time';

/** Bytes of the envelope around the views (headers, signatures, root hash): a demo figure. */
const ENVELOPE_OVERHEAD_BYTES = 600;
/** A confirmation response's size: a demo figure (it does not grow with the transaction). */
const CONFIRMATION_RESPONSE_BYTES = 350;
/** Basis points of the write cost each recipient adds (the synchronizer's `readVsWriteScalingFactor`). */
const READ_VS_WRITE_SCALING_FACTOR = 200;

function envelopeCost(bytes: number, recipients: number): number {
  return bytes + Math.floor((bytes * recipients * READ_VS_WRITE_SCALING_FACTOR) / 10_000);
}

function nodeBytes(node: TransactionNode): number {
  const payload =
    node.kind === 'created'
      ? [node.contract.contractId, node.contract.template.id, node.contract.argument, node.contract.key, node.contract.stakeholders]
      : [node.contract.contractId, node.template.id, node.choice, node.choiceArgument, node.actingParties, node.exerciseResult];
  return Buffer.byteLength(JSON.stringify(payload, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '');
}

export interface DemoTrafficCost {
  request: number;
  response: number;
}

/** The cost of the confirmation request of a transaction with these nodes, and of one confirmation response. */
export function transactionTrafficCost(nodes: readonly TransactionNode[]): DemoTrafficCost {
  const bytes = ENVELOPE_OVERHEAD_BYTES + nodes.reduce((sum, node) => sum + nodeBytes(node), 0);
  const informees = new Set(nodes.flatMap((node) => node.witnesses));
  return { request: envelopeCost(bytes, informees.size + 1), response: envelopeCost(CONFIRMATION_RESPONSE_BYTES, 1) };
}

/** An (un)assignment request: the contract travels, to its stakeholders and the mediator. */
export function reassignmentTrafficCost(contract: TransactionNode['contract']): number {
  const bytes = ENVELOPE_OVERHEAD_BYTES + Buffer.byteLength(JSON.stringify([contract.contractId, contract.template.id, contract.argument], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  return envelopeCost(bytes, contract.stakeholders.length + 1);
}

// Figured once per record: the updates list encodes the same transaction again and again.
const paidCosts = new WeakMap<object, number>();

/** What the submitting participant paid for this transaction's confirmation request. */
export function paidTransactionCost(tx: { nodes: readonly TransactionNode[] }): number {
  let cost = paidCosts.get(tx);
  if (cost === undefined) paidCosts.set(tx, (cost = transactionTrafficCost(tx.nodes).request));
  return cost;
}

/** What the submitter paid for an (un)assignment request. */
export function paidReassignmentCost(r: { contract: TransactionNode['contract'] }): number {
  let cost = paidCosts.get(r);
  if (cost === undefined) paidCosts.set(r, (cost = reassignmentTrafficCost(r.contract)));
  return cost;
}

/** The prepare answer's `costEstimation` for a transaction with these nodes. */
export function costEstimation(nodes: readonly TransactionNode[], at: Micros): wire.CostEstimation {
  const { request, response } = transactionTrafficCost(nodes);
  return {
    confirmationRequestTrafficCostEstimation: request,
    confirmationResponseTrafficCostEstimation: response,
    totalTrafficCostEstimation: request + response,
    estimationTimestamp: formatInstant(at),
  };
}
