/**
 * The net change of the active contract set over an offset range: what exists at the end that did not
 * at the start ("added"), what existed at the start and is gone ("removed"), and what came and went
 * inside the range ("transient"), per template. Read page by page in the ACS-delta shape, holding only
 * the contracts created in the range and still open, never the updates themselves.
 */
import type { LedgerClient, UpdatesPageQuery } from '../api/client';
import type { CallOptions } from '../api/http';
import { entityName } from '../daml/identifiers';
import { addTrafficCost, labelledTrafficCost, trafficCostSumText, type TrafficCostSum } from '../trafficCost';
import { signedCount } from './counts';
import type { GraphReadAs } from './read';

export interface TemplateNetChange {
  /** `#package-name:Module:Entity`: every version of a template together. */
  templateId: string;
  added: string[];
  removed: string[];
  /** Created and archived inside the range: counted, not listed. */
  transient: number;
}

export interface RangeDiff {
  beginExclusive: number;
  endInclusive: number;
  transactions: number;
  /** Sorted by template id. */
  templates: TemplateNetChange[];
  /** The paid traffic cost over the range's transactions (reported to their submitters' reads). */
  trafficCost?: TrafficCostSum;
}

export interface RangeDiffOptions extends CallOptions {
  pageSize?: number;
  onProgress?: (p: { offset: number; transactions: number }) => void;
}

export async function rangeDiff(client: LedgerClient, range: { beginExclusive: number; endInclusive: number }, readAs: GraphReadAs, o: RangeDiffOptions = {}): Promise<RangeDiff> {
  const byTemplate = new Map<string, { added: Set<string>; removed: string[]; transient: number }>();
  const of = (templateId: string) => {
    let t = byTemplate.get(templateId);
    if (!t) byTemplate.set(templateId, (t = { added: new Set(), removed: [], transient: 0 }));
    return t;
  };
  const query: UpdatesPageQuery = {
    selection: { filter: { parties: [...readAs.parties], anyParty: readAs.anyParty, shape: 'acs-delta' } },
    beginExclusive: range.beginExclusive,
    endInclusive: range.endInclusive,
    pageSize: o.pageSize,
  };
  let transactions = 0;
  const trafficCost: TrafficCostSum = { total: 0, paid: 0, unreported: 0 };
  for await (const page of client.walkUpdates(query, o)) {
    for (const u of page) {
      if (u.kind !== 'transaction') continue;
      transactions++;
      addTrafficCost(trafficCost, u.paidTrafficCost);
      for (const e of u.events) {
        const templateId = `#${e.packageName}:${entityName(e.templateId)}`;
        if (e.kind === 'created') of(templateId).added.add(e.contractId);
        else if (e.kind === 'archived') {
          const t = of(templateId);
          if (t.added.delete(e.contractId)) t.transient++;
          else t.removed.push(e.contractId);
        }
      }
      o.onProgress?.({ offset: u.offset, transactions });
    }
  }
  const templates = [...byTemplate]
    .map(([templateId, t]) => ({ templateId, added: [...t.added], removed: t.removed, transient: t.transient }))
    .sort((a, b) => (a.templateId < b.templateId ? -1 : a.templateId > b.templateId ? 1 : 0));
  return { ...range, transactions, templates, trafficCost };
}

/** `+3 -1 (2 transient)` per template, as a table's text. */
export function rangeDiffText(d: RangeDiff): string {
  const lines = [`Active contracts over offsets ${d.beginExclusive + 1}..${d.endInclusive}: ${d.transactions} transactions`];
  if (d.templates.length === 0) lines.push('  no change');
  for (const t of d.templates) lines.push(`  ${t.templateId}  ${signedCount('+', t.added.length)} ${signedCount('-', t.removed.length)}${t.transient ? `  (${t.transient} transient)` : ''}`);
  if (d.trafficCost) lines.push(labelledTrafficCost(trafficCostSumText(d.trafficCost))!);
  return lines.join('\n') + '\n';
}
