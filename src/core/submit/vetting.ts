/**
 * Vetting files: the request a file sends (dry run or pinned apply) and its typed outcome, the failures
 * that have a fix (and the data the fix needs), the diff past → new as a readable document, and the
 * edits that write a fix into the file.
 */
import { modify, type Edit, type FormattingOptions, type JSONPath } from 'jsonc-parser';
import type { LedgerClient } from '../api/client';
import { CancelledError, CantonApiError, isOutcomeUnknown, LedgerError } from '../errors';
import type { LedgerWrite } from '../ledger/state';
import type * as wire from '../models/wire';
import { describePackage, isEmptyDiff, type VettedPackage, type VettingDiff, type VettingUpdateResult } from '../models/vetting';

export const ALLOW_UNVETTED_DEPENDENCIES_FLAG = 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES';

export type VettingFailure =
  /** Some vetted package would depend on packages that are not vetted. */
  | { kind: 'dependencies-not-vetted'; packageIds: string[] }
  /** Several synchronizers are connected and the file names none. */
  | { kind: 'cannot-autodetect-synchronizer' }
  /** `expectedTopologySerial` is not the current serial any more. */
  | { kind: 'serial-mismatch' };

/** The fixable failure this error is, if any. */
export function vettingFailureOf(err: unknown): VettingFailure | undefined {
  if (!(err instanceof CantonApiError)) return undefined;
  switch (err.code) {
    case 'TOPOLOGY_DEPENDENCIES_NOT_VETTED':
      return { kind: 'dependencies-not-vetted', packageIds: unvettedPackageIds(err.context) };
    case 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER':
      return { kind: 'cannot-autodetect-synchronizer' };
    case 'TOPOLOGY_SERIAL_MISMATCH':
      return { kind: 'serial-mismatch' };
    default:
      return undefined;
  }
}

/** Canton writes the missing dependencies as a Scala set in the context: `unvetted: Set(id1, id2)`. */
export function unvettedPackageIds(context: Readonly<Record<string, string>>): string[] {
  const raw = context.unvetted ?? context.dependencies ?? '';
  const inner = /^\s*\w*\((.*)\)\s*$/s.exec(raw)?.[1] ?? raw;
  return inner
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** "1 added, 2 removed, 1 validity changed", or "no change". */
export function diffSummary(d: VettingDiff): string {
  if (isEmptyDiff(d)) return 'no change';
  const parts: string[] = [];
  if (d.added.length > 0) parts.push(`${d.added.length} added`);
  if (d.removed.length > 0) parts.push(`${d.removed.length} removed`);
  if (d.validityChanged.length > 0) parts.push(`${d.validityChanged.length} validity changed`);
  return parts.join(', ');
}

function validityText(p: VettedPackage): string {
  const bounds = [p.validFromInclusive && `from ${p.validFromInclusive}`, p.validUntilExclusive && `until ${p.validUntilExclusive}`].filter(Boolean);
  return bounds.length > 0 ? bounds.join(' ') : 'always';
}

/** A Markdown table row; `|` inside a cell escaped. */
export function markdownTableRow(cells: string[]): string {
  return `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
}

function packageCells(p: VettedPackage): string[] {
  return [p.packageName ?? '(unknown name)', p.packageVersion ?? '', '`' + p.packageId + '`'];
}

/** The diff past → new as Markdown: a header with the serials, then a table per kind of change. */
export function vettingDiffMarkdown(r: VettingUpdateResult, source: string): string {
  const title = r.dryRun ? `Dry run of ${source}: nothing was changed` : `Vetting applied from ${source}`;
  return [`# ${title}`, '', ...vettingChangeMarkdown(r, 2)].join('\n');
}

/**
 * One synchronizer's vetting change past → new as Markdown lines: the participant, synchronizer and
 * serials, then a table per kind of change, under headings of `level`.
 */
export function vettingChangeMarkdown(r: Pick<VettingUpdateResult, 'past' | 'next' | 'diff' | 'dryRun'>, level: number): string[] {
  const d = r.diff;
  const serial = r.past ? `${r.past.topologySerial} → ${r.next.topologySerial}` : `${r.next.topologySerial} (no earlier vetting state)`;
  const lines = [
    `- **Participant:** \`${r.next.participantId}\``,
    `- **Synchronizer:** \`${r.next.synchronizerId}\``,
    `- **Topology serial:** ${serial}`,
    `- **Change:** ${diffSummary(d)}${r.dryRun ? ' (would be)' : ''}`,
    '',
  ];
  const header = ['Package', 'Version', 'Package id'];
  const table = (title: string, head: string[], rows: string[][]) => {
    if (rows.length === 0) return;
    lines.push(`${'#'.repeat(level)} ${title}`, '', markdownTableRow(head), markdownTableRow(head.map(() => '---')), ...rows.map(markdownTableRow), '');
  };
  table('Added', [...header, 'Valid'], d.added.map((p) => [...packageCells(p), validityText(p)]));
  table('Removed', header, d.removed.map(packageCells));
  table('Validity changed', [...header, 'Before', 'After'], d.validityChanged.map((c) => [...packageCells(c.after), validityText(c.before), validityText(c.after)]));
  table(`Unchanged (${d.unchanged.length})`, [...header, 'Valid'], d.unchanged.map((p) => [...packageCells(p), validityText(p)]));
  if (isEmptyDiff(d)) lines.push('The vetted packages stay as they are.', '');
  return lines;
}

/** One line per change for a confirmation dialog: `+ demo-iou 2.0.0 (1a2b…)`. */
export function diffLines(d: VettingDiff): string[] {
  return [
    ...d.added.map((p) => `+ ${describePackage(p)}`),
    ...d.removed.map((p) => `− ${describePackage(p)}`),
    ...d.validityChanged.map((c) => `~ ${describePackage(c.after)}: ${validityText(c.before)} → ${validityText(c.after)}`),
  ];
}

/** Names for package ids, from vetting states the participant listed (ids it does not know stay ids). */
export function namePackages(ids: string[], known: VettedPackage[]): string[] {
  return ids.map((id) => {
    const p = known.find((k) => k.packageId === id);
    return p ? describePackage(p) : id;
  });
}

/** The file's indentation, so that an edit looks as if typed there. */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return { insertSpaces: !indent.includes('\t'), tabSize: indent.includes('\t') ? 4 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/** Edits that set `path` to `value` in a JSON text, keeping the rest of it as it is. */
export function setJsonValueEdits(text: string, path: JSONPath, value: unknown): Edit[] {
  return modify(text, path, value, { formattingOptions: formattingOf(text) });
}

/** The serial an `expectedTopologySerial` pins (0 for NoPrior), or undefined when it pins none. */
export function pinnedSerial(expected: unknown): number | undefined {
  const serial = (expected as { serial?: { Prior?: { value?: unknown }; NoPrior?: unknown } } | undefined)?.serial;
  if (!serial || typeof serial !== 'object') return undefined;
  if ('NoPrior' in serial) return 0;
  const value = serial.Prior?.value;
  return typeof value === 'number' ? value : undefined;
}

/** `expectedTopologySerial` for the current serial (0: no vetting transaction yet). */
export function expectedSerialValue(serial: number): wire.PriorTopologySerial {
  return serial > 0 ? { serial: { Prior: { value: serial } } } : { serial: { NoPrior: {} } };
}

/** Adds the force flag to `updateVettedPackagesForceFlags` unless it is there already. */
export function withForceFlag(existing: unknown): string[] {
  const flags = Array.isArray(existing) ? existing.filter((f): f is string => typeof f === 'string') : [];
  return flags.includes(ALLOW_UNVETTED_DEPENDENCIES_FLAG) ? flags : [...flags, ALLOW_UNVETTED_DEPENDENCIES_FLAG];
}

export type VettingMode = 'dry-run' | 'apply';

/**
 * The request a vetting file sends: a dry run, or an apply, as the command chose (the file's own
 * `dryRun` is replaced: Dry Run and Apply mean the same in every front-end). An apply is pinned to `checkedSerial` (the
 * serial its dry run started from) unless the file pins one itself, so that a change made meanwhile,
 * or a first attempt whose answer was lost, makes it fail (TOPOLOGY_SERIAL_MISMATCH) instead of
 * applying something other than what was checked, or applying twice.
 */
export function vettingRequestOf(file: wire.UpdateVettedPackagesRequest, mode: VettingMode, checkedSerial?: number): wire.UpdateVettedPackagesRequest {
  const pin = mode === 'apply' && checkedSerial !== undefined && pinnedSerial(file.expectedTopologySerial) === undefined;
  return { ...file, dryRun: mode === 'dry-run', ...(pin ? { expectedTopologySerial: expectedSerialValue(checkedSerial) } : {}) };
}

/**
 * What a look-up found after an apply whose answer was lost, or after a pinned apply refused because
 * the serial moved on: the file's change as a dry run against the state now. No change left means the
 * state already is as the file says.
 */
export type VettingLookUp =
  | { found: 'applied'; current: VettingUpdateResult }
  /** The change is not (yet) in place: `current.diff` is what it would still do. */
  | { found: 'not-applied'; current: VettingUpdateResult }
  /** The look-up itself failed (or was cancelled). */
  | { found: 'not-checked'; error: LedgerError };

export type VettingOutcome =
  /** `write` only for an apply: what it did to the ledger. */
  | { kind: 'done'; result: VettingUpdateResult; write?: LedgerWrite }
  /**
   * An apply without a definite answer: it may or may not have been applied; `lookUp` says what the
   * state shows now. `retry` is the same, pinned request (never sent by itself).
   */
  | { kind: 'unknown'; error: LedgerError; retry: { request: wire.UpdateVettedPackagesRequest }; write: LedgerWrite; lookUp: VettingLookUp }
  /**
   * A pinned request refused (TOPOLOGY_SERIAL_MISMATCH) where the state already is as the file says: an
   * earlier attempt (the one whose outcome was unknown) or someone else applied it. Nothing was applied twice.
   */
  | { kind: 'already-applied'; error: CantonApiError; current: VettingUpdateResult }
  /** Refused (or never sent); `failure` when the failure has a known fix. */
  | { kind: 'failed'; error: LedgerError; failure?: VettingFailure };

/**
 * Sends a vetting request (dry run or apply) and classifies the answer; never re-sends by itself. An
 * apply whose answer is lost, or a request refused because its pinned serial moved on, is followed by a look-up
 * (a dry run of the same change, unpinned): a change already in place is said to be applied.
 */
export async function sendVetting(client: LedgerClient, request: wire.UpdateVettedPackagesRequest, signal?: AbortSignal): Promise<VettingOutcome> {
  const apply = request.dryRun !== true;
  try {
    const result = await client.updateVettedPackages(request, { signal });
    return apply ? { kind: 'done', result, write: { vetting: true } } : { kind: 'done', result };
  } catch (e) {
    if (!(e instanceof LedgerError)) throw e;
    if (apply && isOutcomeUnknown(e)) return { kind: 'unknown', error: e, retry: { request }, write: { vetting: true }, lookUp: await lookUpVetting(client, request, signal) };
    const failure = vettingFailureOf(e);
    // Pinned to a serial that moved on (a dry run too: the CLI checks a pinned retry first).
    if (failure?.kind === 'serial-mismatch') {
      const lookUp = await lookUpVetting(client, request, signal);
      if (lookUp.found === 'applied') return { kind: 'already-applied', error: e as CantonApiError, current: lookUp.current };
    }
    return { kind: 'failed', error: e, failure };
  }
}

/** The change of `request` as a dry run against the state now, without its pin: is any of it left to do? */
export async function lookUpVetting(client: LedgerClient, request: wire.UpdateVettedPackagesRequest, signal?: AbortSignal): Promise<VettingLookUp> {
  // A cancel by the user ends the command: the look-up is not made behind their back.
  if (signal?.aborted) return { found: 'not-checked', error: new CancelledError(true) };
  const { expectedTopologySerial: _pin, ...unpinned } = request;
  try {
    const current = await client.updateVettedPackages({ ...unpinned, dryRun: true }, { signal });
    return { found: isEmptyDiff(current.diff) ? 'applied' : 'not-applied', current };
  } catch (e) {
    if (!(e instanceof LedgerError)) throw e;
    return { found: 'not-checked', error: e };
  }
}
