/** Human-readable output: plain lines, ids kept whole where people copy them into the next command. */
import { parseIdentifier, printIdentifier, withPackageName } from '../core/daml/identifiers';
import type { Problem } from '../core/files/validate';
import { eventCountsText as countsText, transactionSummary } from '../core/submit/outcome';
import type { ContractEvents } from '../core/models/contracts';
import { type OffsetCheckpoint, type Reassignment, type Transaction, type TransactionEvent, type Update } from '../core/models/updates';
import { shortParty } from '../core/models/users';
import { describePackage, isEmptyDiff, type VettedPackage, type VettingUpdateResult } from '../core/models/vetting';
import { labelledTrafficCost, paidTrafficCostText, trafficCostSumText, type TrafficCostSum } from '../core/trafficCost';
import { comparisonNames, comparisonSummaryText, isUniformEvent, partyNames, type PartyComparison } from '../core/updates/compare';

/** `file:line:col: severity: message [code]`, the form editors and CI annotate from. */
export function formatProblem(file: string, p: Problem): string {
  return `${file}:${p.line}:${p.column}: ${p.severity}: ${p.message} [${p.code}]`;
}

export function shortId(id: string, keep = 12): string {
  return id.length > keep + 1 ? `${id.slice(0, keep)}…` : id;
}

/**
 * `#package-name:Module:Entity`: responses name templates by package id, but filters (`--template`)
 * need the package-name form, so show the form people can paste back.
 */
export function templateLabel(templateId: string, packageName?: string): string {
  const id = packageName ? parseIdentifier(templateId) : undefined;
  return id?.form === 'package-id' && packageName ? printIdentifier(withPackageName(id, packageName)) : templateId;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** "1 unassigned", "2 assigned". */
function reassignmentCounts(r: Reassignment): string {
  const kinds = ['unassigned', 'assigned'] as const;
  return kinds.map((k) => [r.events.filter((e) => e.kind === k).length, k] as const).filter(([n]) => n > 0).map(([n, k]) => `${n} ${k}`).join(', ') || 'no events';
}

function eventLine(e: TransactionEvent): string {
  const head = `  ${e.kind.padEnd(10)} ${templateLabel(e.templateId, e.packageName)}  ${e.contractId}`;
  return e.kind === 'exercised' ? `${head}  ${e.choice}${e.consuming ? ' (consuming)' : ''}` : head;
}

/** An update as listed: offset checkpoints are cursor markers, not something that happened. */
export type ListedUpdate = Exclude<Update, OffsetCheckpoint>;

/** One summary line per update, then one indented line per event. */
export function formatUpdate(u: ListedUpdate): string[] {
  switch (u.kind) {
    case 'transaction':
      return [
        `${u.offset}  transaction   ${shortId(u.updateId)}  cmd ${u.commandId ?? '-'}  ${countsText(u)}  ${shortParty(u.synchronizerId)}`,
        ...u.events.map(eventLine),
      ];
    case 'reassignment':
      return [
        `${u.offset}  reassignment  ${shortId(u.updateId)}  cmd ${u.commandId ?? '-'}  ${reassignmentCounts(u)}${u.synchronizerId ? `  ${shortParty(u.synchronizerId)}` : ''}`,
        ...u.events.map((e) => {
          const [tmpl, pkg, cid] = e.kind === 'assigned' ? [e.createdEvent.templateId, e.createdEvent.packageName, e.createdEvent.contractId] : [e.templateId, e.packageName, e.contractId];
          return `  ${e.kind.padEnd(10)} ${templateLabel(tmpl, pkg)}  ${cid}  ${shortParty(e.source)} → ${shortParty(e.target)}`;
        }),
      ];
    case 'topology':
      return [
        `${u.offset}  topology      ${shortId(u.updateId)}  ${plural(u.events.length, 'authorization change')}  ${shortParty(u.synchronizerId)}`,
        ...u.events.map((e) => `  ${e.change.padEnd(10)} ${e.partyId}  on ${e.participantId}${e.permission ? ` (${e.permission})` : ''}`),
      ];
    case 'unknown':
      return [`${u.offset ?? '?'}  unknown update kind ${u.variant || '(empty)'}`];
  }
}

/** The result of a submission: "Transaction <id> at offset N: 2 created, 1 archived", then the events, then what it cost. */
export function formatTransaction(t: Transaction): string[] {
  const cost = labelledTrafficCost(paidTrafficCostText(t.paidTrafficCost));
  return [transactionSummary(t), ...t.events.map(eventLine), ...(cost ? [cost] : [])];
}

/**
 * After a list of updates, what the listed ones paid: "Traffic cost: paid 12,345 bytes over 8 updates";
 * nothing when none reported a cost. A footer, so that update and event lines keep their columns for scripts.
 */
export function trafficCostFooter(sum: TrafficCostSum): string[] {
  return sum.paid ? [labelledTrafficCost(trafficCostSumText(sum))!] : [];
}

function parties(list: string[]): string {
  return list.length > 0 ? list.join(', ') : '(none)';
}

function indent(text: string, by: string): string[] {
  return text.split('\n').map((l) => by + l);
}

export function formatContractEvents(c: ContractEvents): string[] {
  const lines = [`Contract ${c.contractId}`];
  const created = c.created;
  if (created) {
    const e = created.event;
    lines.push(
      `  template:     ${templateLabel(e.templateId, e.packageName)}`,
      `  signatories:  ${parties(e.signatories)}`,
      `  observers:    ${parties(e.observers)}`,
      `  created at:   ${e.createdAt} (offset ${e.offset}, synchronizer ${created.synchronizerId})`,
    );
  } else {
    lines.push('  created:      not visible to these parties');
  }
  if (c.archived) lines.push(`  status:       archived at offset ${c.archived.event.offset} (synchronizer ${c.archived.synchronizerId})`);
  else lines.push(`  status:       ${c.active ? 'active' : 'unknown'}`);
  if (created) {
    lines.push('  arguments:', ...indent(JSON.stringify(created.event.createArgument ?? null, null, 2), '    '));
    if (created.event.contractKey !== undefined) lines.push('  key:', ...indent(JSON.stringify(created.event.contractKey, null, 2), '    '));
  }
  return lines;
}

function validity(p: VettedPackage): string {
  const bounds = [p.validFromInclusive && `from ${p.validFromInclusive}`, p.validUntilExclusive && `until ${p.validUntilExclusive}`].filter(Boolean);
  return bounds.length > 0 ? `valid ${bounds.join(' ')}` : 'always valid';
}

export function formatVetting(r: VettingUpdateResult): string[] {
  const serial = r.past ? `${r.past.topologySerial} → ${r.next.topologySerial}` : `${r.next.topologySerial} (first vetting state)`;
  const lines = [
    r.dryRun ? 'Dry run: nothing was changed. The result would be:' : 'Vetting updated.',
    `  participant:      ${r.next.participantId}`,
    `  synchronizer:     ${r.next.synchronizerId}`,
    `  topology serial:  ${serial}`,
  ];
  const d = r.diff;
  if (isEmptyDiff(d)) return [...lines, 'No change to the vetted packages.'];
  if (d.added.length > 0) lines.push('Added:', ...d.added.map((p) => `  + ${describePackage(p)}  ${validity(p)}`));
  if (d.removed.length > 0) lines.push('Removed:', ...d.removed.map((p) => `  - ${describePackage(p)}`));
  if (d.validityChanged.length > 0) {
    lines.push('Validity changed:', ...d.validityChanged.map((c) => `  ~ ${describePackage(c.after)}  ${validity(c.before)} → ${validity(c.after)}`));
  }
  return lines;
}

/**
 * A comparison of parties: the summary line, which name is which party, then a table with a column
 * per party ("✓ 3 events" or "—") and the fields that differ, and under each transaction its events
 * with how each party sees them.
 */
export function formatComparison(c: PartyComparison): string[] {
  const names = partyNames(c.parties);
  const nameWidth = Math.max(...names.map((n) => n.length));
  const lines = [
    comparisonSummaryText(c, c.sides ? comparisonNames(c) : names),
    ...c.parties.map((p, i) => `  ${names[i].padEnd(nameWidth)}  ${p}${c.sides ? `  on ${c.sides[i]}` : ''}`),
    c.sides
      ? 'Each participant\'s whole ledger, read once per party, ledger-effects shape; transactions matched by update id (offsets are each participant\'s own: the first side\'s that has it is shown).'
      : `Offsets ${c.beginExclusive + 1}–${c.endInclusive}, read once per party, ledger-effects shape.`,
    labelledTrafficCost(trafficCostSumText(c.trafficCost))!,
  ];
  if (c.updates.length === 0) return lines;
  const cell = (i: number, u: PartyComparison['updates'][number]) => (u.views[i] ? `✓ ${plural(u.views[i]!.events.length, 'event')}` : '—');
  const widths = names.map((n, i) => Math.max(n.length, ...c.updates.map((u) => cell(i, u).length)));
  const offsetWidth = Math.max('offset'.length, ...c.updates.map((u) => String(u.offset).length));
  const row = (offset: string, update: string, cells: string[], differs: string) => `${offset.padEnd(offsetWidth)}  ${update.padEnd(13)}  ${cells.map((x, i) => x.padEnd(widths[i])).join('  ')}  ${differs}`.trimEnd();
  lines.push('', row('offset', 'update', names, 'differs'));
  for (const u of c.updates) {
    const differs = [...u.differences.map((d) => d.field), ...(u.events.some((e) => !isUniformEvent(e, u)) ? ['events seen differently'] : [])];
    lines.push(row(String(u.offset), shortId(u.updateId), names.map((_, i) => cell(i, u)), differs.join(', ')));
    for (const e of u.events) {
      const what = e.kind === 'exercised' ? `exercised ${e.choice}` : e.kind;
      const roles = names.map((n, i) => `${n} ${e.views[i]?.seenAs ?? '—'}`).join(', ');
      const fields = e.differences.length ? `  differs: ${e.differences.map((d) => d.field).join(', ')}` : '';
      lines.push(`    ${what}  ${templateLabel(e.templateId, e.views.find((v) => v)?.event.packageName)}  ${e.contractId}  [${roles}]${fields}`);
    }
  }
  return lines;
}
