/**
 * Traffic cost: what a participant paid the synchronizer's sequencers for an update
 * (`paidTrafficCost` on transactions, reassignments and completions, 3.4.12+) and what it estimates
 * a prepared transaction will cost (`costEstimation` of the prepare answer, 3.4+). One formatter for a
 * cost and one place for the wording, used by the rows, the graph, the preview, Compare Parties, the
 * range diff and the CLI.
 *
 * Canton meters traffic in bytes sequenced (the envelope's size, plus a share per recipient), so a
 * cost is shown as bytes.
 */
import type * as wire from './models/wire';

/** The prepare answer's estimate, typed. */
export interface TrafficCostEstimate {
  /** The confirmation request this participant sends. */
  request: number;
  /** One confirmation response (what each confirming participant pays to answer). */
  response: number;
  total: number;
  /** When the participant estimated it (ISO-8601). */
  estimatedAt: string;
}

export function decodeCostEstimation(raw: wire.CostEstimation | null | undefined): TrafficCostEstimate | undefined {
  if (!raw) return undefined;
  return {
    request: raw.confirmationRequestTrafficCostEstimation,
    response: raw.confirmationResponseTrafficCostEstimation,
    total: raw.totalTrafficCostEstimation,
    estimatedAt: raw.estimationTimestamp,
  };
}

/** A cost as people read it: "12,345 bytes" (grouped the same on every machine). */
export function formatTrafficCost(bytes: number): string {
  return `${bytes.toLocaleString('en-US')} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

/** What every labelled line starts with: "Traffic cost: paid 1,234 bytes". */
export const TRAFFIC_COST_LABEL = 'Traffic cost';

/** "Traffic cost: …" for a CLI line or a tooltip; undefined stays undefined. */
export function labelledTrafficCost(text: string | undefined): string | undefined {
  return text === undefined ? undefined : `${TRAFFIC_COST_LABEL}: ${text}`;
}

/** "paid 1,234 bytes"; undefined when the participant did not report one (another's submission, or before 3.4.12). */
export function paidTrafficCostText(paid: number | undefined): string | undefined {
  return paid === undefined ? undefined : `paid ${formatTrafficCost(paid)}`;
}

/** The paid cost inside a line of other facts: "traffic cost: paid 1,234 bytes"; undefined when not reported. */
export function paidTrafficCostInline(paid: number | undefined): string | undefined {
  return labelledTrafficCost(paidTrafficCostText(paid))?.toLowerCase();
}

/** "estimated 1,500 bytes (confirmation request 1,200 bytes + response 300 bytes)". */
export function costEstimateText(estimate: TrafficCostEstimate): string {
  return `estimated ${formatTrafficCost(estimate.total)} (confirmation request ${formatTrafficCost(estimate.request)} + response ${formatTrafficCost(estimate.response)})`;
}

/** After the transaction was committed: its paid cost beside the estimate, "paid 1,480 bytes (estimated 1,500 bytes)". */
export function paidBesideEstimateText(paid: number | undefined, estimate: TrafficCostEstimate | undefined): string | undefined {
  if (paid === undefined) return estimate ? `paid: not reported (estimated ${formatTrafficCost(estimate.total)})` : undefined;
  return `${paidTrafficCostText(paid)}${estimate ? ` (estimated ${formatTrafficCost(estimate.total)})` : ''}`;
}

/** The paid cost over a set of updates: what was reported, and how many reported none. */
export interface TrafficCostSum {
  total: number;
  /** Updates with a reported cost. */
  paid: number;
  /** Updates without one (submitted by another participant, or read from a participant before 3.4.12). */
  unreported: number;
}

export function sumTrafficCost(updates: Iterable<{ paidTrafficCost?: number }>): TrafficCostSum {
  const sum: TrafficCostSum = { total: 0, paid: 0, unreported: 0 };
  for (const u of updates) addTrafficCost(sum, u.paidTrafficCost);
  return sum;
}

/** Counts one more update into a running sum (a stream that does not keep its updates). */
export function addTrafficCost(sum: TrafficCostSum, paid: number | undefined): void {
  if (paid === undefined) sum.unreported++;
  else {
    sum.total += paid;
    sum.paid++;
  }
}

/** "paid 3,456 bytes over 3 updates (2 without a reported cost)", or "none reported". */
export function trafficCostSumText(sum: TrafficCostSum): string {
  if (sum.paid === 0) return 'none reported';
  const rest = sum.unreported ? ` (${sum.unreported} without a reported cost)` : '';
  return `paid ${formatTrafficCost(sum.total)} over ${sum.paid} ${sum.paid === 1 ? 'update' : 'updates'}${rest}`;
}

/** The one line a header shows: the paid cost of a committed transaction, else a preview's estimate; undefined when neither is known. */
export function trafficCostLine(of: { paidTrafficCost?: number; costEstimate?: TrafficCostEstimate }): string | undefined {
  if (of.paidTrafficCost !== undefined) return paidTrafficCostText(of.paidTrafficCost);
  return of.costEstimate ? costEstimateText(of.costEstimate) : undefined;
}
