/**
 * The Compare Parties view's rows: the summary, then one row per transaction with a column per party
 * ("Alice ✓ · Bob —"), its events with how each party sees them ("Alice witness · Bob stakeholder"),
 * and the fields that differ between the parties' views, marked.
 */
import {
  comparisonSummaryText, isUniformEvent, comparisonNames, presenceText, rolesText, SEEN_AS_MEANING,
  type EventComparison, type FieldDifference, type PartyComparison, type UpdateComparison,
} from './compare';
import type { LedgerRow } from '../rows';
import { code, md, plural } from '../text';
import { labelledTrafficCost, paidTrafficCostInline, trafficCostSumText } from '../trafficCost';
import { transactionEventRow, withoutRaw } from './rows';

/** The colour of what differs between the parties (a theme colour id). */
export const DIFFERS_COLOR = 'list.warningForeground';

function clip(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function differenceRow(d: FieldDifference, names: readonly string[], index: number): LedgerRow {
  const each = names.map((name, i) => `${name} ${d.values[i] === undefined ? '—' : clip(d.values[i]!)}`);
  return {
    key: `differs-${index}-${d.field}`,
    kind: 'detail',
    label: `${d.field} differs`,
    description: each.join(' · '),
    tooltip: names.map((name, i) => `**${md(name)}**: ${d.values[i] === undefined ? 'does not see it' : code(d.values[i]!)}`).join('  \n'),
    icon: 'diff',
    iconColor: DIFFERS_COLOR,
  };
}

/** Per party: what it sees, keyed by name (null: nothing), readable and raw. */
function perParty<T>(names: readonly string[], views: readonly (T | undefined)[], pick: (view: T) => unknown): Record<string, unknown> {
  return Object.fromEntries(names.map((name, i) => [name, views[i] === undefined ? null : pick(views[i]!)]));
}

function eventRow(e: EventComparison, u: UpdateComparison, names: readonly string[], parties: readonly string[]): LedgerRow {
  const sample = transactionEventRow(e.views.find((v) => v !== undefined)!.event, u.updateId);
  const uniform = isUniformEvent(e, u);
  const roles = rolesText(e, names);
  return {
    key: `event-${e.nodeId}`,
    kind: 'compare.event',
    label: sample.label,
    description: uniform ? roles : `${roles}${e.differences.length ? ` · ${e.differences.map((d) => d.field).join(', ')} differ${e.differences.length === 1 ? 's' : ''}` : ''}`,
    tooltip: [
      `**${md(sample.label)}** (node ${e.nodeId})`,
      `Contract ${code(e.contractId)}`,
      ...names.map((name, i) => {
        const v = e.views[i];
        return `${md(name)}: ${v ? `**${v.seenAs}**, ${md(SEEN_AS_MEANING[v.seenAs])}` : 'does not see it'}`;
      }),
    ].join('  \n'),
    icon: uniform ? sample.icon : 'diff',
    iconColor: uniform ? undefined : DIFFERS_COLOR,
    contractId: e.contractId,
    updateId: u.updateId,
    offset: u.offset,
    json: {
      name: `compare-${u.offset}-node${e.nodeId}`,
      value: perParty(names, e.views, (v) => ({ seenAs: v.seenAs, event: withoutRaw(v.event) })),
      raw: perParty(names, e.views, (v) => v.event.raw),
    },
    children: () => [
      ...e.differences.map((d, i) => differenceRow(d, names, i)),
      ...names.map((name, i): LedgerRow => {
        const v = e.views[i];
        if (!v) {
          return { key: `party-${i}`, kind: 'detail', label: name, description: 'does not see this event', tooltip: code(parties[i]), icon: 'eye-closed', copyValue: parties[i] };
        }
        const row = transactionEventRow(v.event, u.updateId);
        return { ...row, key: `party-${i}`, label: name, description: v.seenAs, tooltip: `${code(parties[i])} sees this as **${v.seenAs}**: ${md(SEEN_AS_MEANING[v.seenAs])}`, icon: 'person' };
      }),
    ],
  };
}

function updateRow(u: UpdateComparison, names: readonly string[], parties: readonly string[], sides?: readonly string[]): LedgerRow {
  const presence = presenceText(u.views, names);
  // On several participants each side has its own offset: they are listed, and the update id is the key.
  const offsets = sides ? sides.flatMap((side, i) => (u.views[i] ? [`${side} ${u.views[i]!.offset}`] : [])).join(', ') : undefined;
  // Marked when the parties that see it see it differently; who sees it at all is in the columns.
  const differing = [...u.differences.map((d) => d.field), ...(u.events.some((e) => !isUniformEvent(e, u)) ? ['event views'] : [])];
  const uniform = differing.length === 0;
  return {
    key: offsets ? `update-${u.updateId}` : `update-${u.offset}`,
    kind: 'compare.update',
    label: offsets ? 'Transaction' : `${u.offset}  Transaction`,
    description: [offsets ? `at ${offsets}` : undefined, presence, differing.length ? `${differing.join(', ')} differ` : undefined].filter(Boolean).join(' · '),
    tooltip: [
      offsets ? `**Transaction** at offsets ${offsets}` : `**Transaction** at offset ${u.offset}`,
      `Update ID ${code(u.updateId)}`,
      ...names.map((name, i) => `${md(name)}: ${u.views[i] ? plural(u.views[i]!.events.length, 'event') : 'does not see it'}`),
    ].join('  \n'),
    icon: uniform ? 'git-commit' : 'git-compare',
    iconColor: uniform ? undefined : DIFFERS_COLOR,
    updateId: u.updateId,
    offset: u.offset,
    json: {
      name: `compare-${u.offset}`,
      value: { updateId: u.updateId, offset: u.offset, views: perParty(names, u.views, (t) => withoutRaw(t)) },
      raw: perParty(names, u.views, (t) => t.raw),
    },
    children: () => [...u.differences.map((d, i) => differenceRow(d, names, i)), ...u.events.map((e) => eventRow(e, u, names, parties))],
  };
}

/** The summary row (expanded, with a row per party), then a row per transaction. */
export function comparisonRows(c: PartyComparison): LedgerRow[] {
  const names = comparisonNames(c);
  const s = c.summary;
  const only = (i: number) => c.updates.filter((u) => u.views[i] !== undefined && u.views.every((v, j) => j === i || v === undefined)).length;
  const summary: LedgerRow = {
    key: 'summary',
    kind: 'group',
    label: comparisonSummaryText(c, names),
    description: [c.sides ? "each participant's whole ledger" : `offsets ${c.beginExclusive + 1}–${c.endInclusive}`, 'ledger effects', c.trafficCost.paid ? paidTrafficCostInline(c.trafficCost.total) : undefined].filter(Boolean).join(' · '),
    tooltip: [
      c.sides ? "Each party read on its own participant, over that participant's whole ledger (ledger-effects shape); offsets are each participant's own." : `Offsets ${c.beginExclusive + 1} to ${c.endInclusive}, read once per party (ledger-effects shape).`,
      ...c.parties.map((p, i) => `${md(names[i])}: ${code(p)}`),
      md(labelledTrafficCost(trafficCostSumText(c.trafficCost))!),
    ].join('  \n'),
    icon: 'organization',
    expanded: true,
    children: () =>
      c.parties.map((p, i): LedgerRow => ({
        key: `party-${i}`,
        kind: 'detail',
        label: names[i],
        description: `sees ${s.seenBy[i]} of ${s.total} · ${only(i)} only ${names[i]} sees`,
        tooltip: code(p),
        icon: 'person',
        copyValue: p,
      })),
  };
  if (c.updates.length === 0) return [summary];
  return [summary, ...c.updates.map((u) => updateRow(u, names, c.parties, c.sides))];
}

/** "Alice vs Bob": the view's description. */
export function comparisonTitle(c: PartyComparison): string {
  return comparisonNames(c).join(' vs ');
}
