/**
 * Uploading a DAR (or only validating it, where the version can): what the DAR holds, which of its
 * packages are new on the participant, and the vetting change the upload made — the vetting state of
 * the participant before and after, per synchronizer, as the vetting files' reports show it.
 */
import type { LedgerClient } from '../api/client';
import type { DarContents } from '../daml/lf/archive';
import { CancelledError, isOutcomeUnknown, LedgerError, type LfDecodeError } from '../errors';
import { diffVettedPackages, isEmptyDiff, type VettedPackagesState, type VettingUpdateResult } from '../models/vetting';
import { markdownTableRow, vettingChangeMarkdown } from './vetting';

export type DarUploadMode = 'validate' | 'upload';

/** What the participant's version lets an upload do. */
export interface DarUploadAbilities {
  /** `POST /v2/dars/validate` exists (3.4+): a dry run. */
  canValidate: boolean;
  /** The upload takes `vetAllPackages` and `synchronizerId` (3.4+); 3.3 vets on every synchronizer. */
  canChooseVetting: boolean;
  /** The vetting state can be read, to show the change (3.4+). */
  canListVetting: boolean;
}

export async function darUploadAbilities(client: LedgerClient, signal?: AbortSignal): Promise<DarUploadAbilities> {
  const caps = await client.capabilities({ signal });
  return { canValidate: caps.has('validateDar'), canChooseVetting: caps.endpoint('uploadDar')?.path === '/v2/dars', canListVetting: caps.has('listVettedPackages') };
}

export interface DarPackageRow {
  id: string;
  name: string;
  version: string;
  main: boolean;
  /** Not on the participant before (an upload added it, or would). */
  isNew: boolean;
  /** One of the packages every DAR carries (daml-prim, daml-stdlib, ghc-stdlib and their split parts). */
  standardLibrary: boolean;
}

/**
 * The packages every Daml compiler output carries: `daml-prim`, `daml-stdlib`, and the parts the
 * compiler splits off them (`daml-prim-DA-Types`, `daml-stdlib-DA-Time-Types`, `ghc-stdlib-DA-Internal-Any`…).
 */
export function isStandardLibraryPackage(name: string): boolean {
  return /^(daml-prim|daml-stdlib|ghc-stdlib)(-|$)/.test(name);
}

/**
 * The report's order: the DAR's main package, then its own dependencies, then the standard library;
 * within each, the packages the upload added before those already there, then by name.
 */
export function sortDarPackages(rows: DarPackageRow[]): DarPackageRow[] {
  const rank = (p: DarPackageRow) => (p.main ? 0 : p.standardLibrary ? 2 : 1);
  return [...rows].sort((a, b) => rank(a) - rank(b) || Number(b.isNew) - Number(a.isNew) || a.name.localeCompare(b.name));
}

export type VettingChange = Pick<VettingUpdateResult, 'past' | 'next' | 'diff' | 'dryRun'>;

export interface DarUploadResult {
  mode: DarUploadMode;
  packages: DarPackageRow[];
  /** Per synchronizer of this participant: its vetting before and after (after a validation: unchanged). */
  vetting: VettingChange[];
  /** Why no vetting change is shown, when it cannot be read. */
  vettingUnknown?: string;
  /** Why the DAR could not be read here (the participant judged it; its packages are named from the participant's lists). */
  darUnreadable?: string;
  /** An upload that was validated first (a dry run: a DAR that would be refused changes nothing). */
  validatedFirst: boolean;
}

/**
 * What a look-up found after an upload whose answer was lost: whether the DAR's main package is on the
 * participant now. Without the main package (a DAR this reader cannot decode) it names the packages
 * that are new since before the upload.
 */
export type DarUploadLookUp =
  | { found: 'present'; mainPackageId: string; wasThereBefore: boolean }
  /** Not listed (yet: a participant may still be storing a large DAR). */
  | { found: 'absent'; mainPackageId: string }
  | { found: 'new-packages'; packageIds: string[] }
  /** The look-up itself failed (or was cancelled). */
  | { found: 'not-checked'; error: LedgerError };

export type DarUploadOutcome =
  | { kind: 'done'; result: DarUploadResult }
  /**
   * The upload was sent and no definite answer came back: it may or may not have happened. Nothing is
   * sent again by itself; uploading the same DAR again is safe (a package already there stays as it is).
   */
  | { kind: 'unknown'; error: LedgerError; lookUp: DarUploadLookUp };

export interface DarUploadOptions {
  mode: DarUploadMode;
  /** Default (unset): the participant's default, which vets every package of the DAR. */
  vetAllPackages?: boolean;
  synchronizerId?: string;
  /** Upload: validate first where the version can (default); false when the caller just validated it. */
  validateFirst?: boolean;
  /**
   * Reads the DAR to name its packages: the Daml-LF decoder, handed in so that the extension keeps it
   * in its lazy bundle (`PackageStore.readDar`; the CLI passes `readDar` of core/daml/lf/archive).
   */
  readDar(bytes: Uint8Array): DarContents;
  signal?: AbortSignal;
}

/**
 * Validates or uploads a DAR and reports what it did. The DAR is read here to name its packages; one
 * this reader cannot decode (a newer Daml-LF) is still sent — the participant is the judge — and its
 * packages are then found by comparing the participant's package lists before and after. An upload
 * whose answer is lost is an unknown outcome, followed by a look-up of the participant's packages; a
 * definite refusal is thrown (a LedgerError with its Canton code).
 */
export async function uploadDarWithReport(client: LedgerClient, dar: Uint8Array, o: DarUploadOptions): Promise<DarUploadOutcome> {
  let contents: DarContents | undefined;
  let darUnreadable: string | undefined;
  try {
    contents = o.readDar(dar);
  } catch (e) {
    // By kind, not class: the extension's decoder is a bundle of its own, with its own copy of the class.
    if (!(e instanceof Error) || (e as Partial<LfDecodeError>).kind !== 'package-decode') throw e;
    darUnreadable = e.message;
  }
  const signal = o.signal;
  const abilities = await darUploadAbilities(client, signal);
  const known = new Set(await client.packages({ signal }));
  const vettingNow = abilities.canListVetting ? () => ownVettingStates(client, signal) : undefined;
  const before = await vettingNow?.();
  const validatedFirst = o.mode === 'upload' && abilities.canValidate && o.validateFirst !== false;
  if (o.mode === 'validate' || validatedFirst) await client.validateDar(dar, { synchronizerId: o.synchronizerId, signal });
  // 3.3 takes no vetting options: it vets on every synchronizer.
  if (o.mode === 'upload') {
    try {
      await client.uploadDar(dar, abilities.canChooseVetting ? { vetAllPackages: o.vetAllPackages, synchronizerId: o.synchronizerId, signal } : { signal });
    } catch (e) {
      if (!(e instanceof LedgerError) || !isOutcomeUnknown(e)) throw e;
      return { kind: 'unknown', error: e, lookUp: await lookUpUpload(client, contents?.mainPackageId, known, signal) };
    }
  }
  const after = o.mode === 'upload' ? await vettingNow?.() : before;
  const packages = sortDarPackages(
    contents
      ? contents.packages.map((p) => ({ id: p.id, name: p.name, version: p.version, main: p.id === contents.mainPackageId, isNew: !known.has(p.id), standardLibrary: isStandardLibraryPackage(p.name) }))
      : o.mode === 'upload'
        ? namedFromVetting((await client.packages({ signal })).filter((id) => !known.has(id)), after ?? [])
        : [],
  );
  const vetting = (after ?? []).map((next) => {
    const past = before?.find((s) => s.synchronizerId === next.synchronizerId);
    return { past, next, diff: diffVettedPackages(past, next), dryRun: o.mode === 'validate' };
  });
  const result: DarUploadResult = {
    mode: o.mode,
    packages,
    vetting,
    vettingUnknown: abilities.canListVetting ? undefined : 'this version lists no vetting state; an upload vets the packages on every synchronizer',
    darUnreadable,
    validatedFirst,
  };
  return { kind: 'done', result };
}

/** After a lost answer: is the DAR's main package listed now? (`before`: the ids listed before the upload.) */
async function lookUpUpload(client: LedgerClient, mainPackageId: string | undefined, before: Set<string>, signal?: AbortSignal): Promise<DarUploadLookUp> {
  // A cancel by the user ends the command: the look-up is not made behind their back.
  if (signal?.aborted) return { found: 'not-checked', error: new CancelledError(true) };
  let now: string[];
  try {
    now = await client.packages({ signal });
  } catch (e) {
    if (!(e instanceof LedgerError)) throw e;
    return { found: 'not-checked', error: e };
  }
  if (mainPackageId === undefined) return { found: 'new-packages', packageIds: now.filter((id) => !before.has(id)) };
  return now.includes(mainPackageId) ? { found: 'present', mainPackageId, wasThereBefore: before.has(mainPackageId) } : { found: 'absent', mainPackageId };
}

/**
 * What an unknown upload's look-up means, in one sentence for a person, ending with what to do:
 * uploading again is safe either way (the same DAR again changes nothing that is there already).
 */
export function darUploadLookUpText(lookUp: DarUploadLookUp): string {
  const again = 'Uploading the same DAR again is safe: packages already on the participant stay as they are.';
  switch (lookUp.found) {
    case 'present':
      return lookUp.wasThereBefore
        ? `Its main package ${lookUp.mainPackageId} is on the participant, as it was before this upload. ${again}`
        : `Its main package ${lookUp.mainPackageId} is on the participant now: the upload went through.`;
    case 'absent':
      return `Its main package ${lookUp.mainPackageId} is not on the participant (yet: a large DAR may still be being stored). ${again}`;
    case 'new-packages':
      return lookUp.packageIds.length > 0
        ? `The DAR could not be read here; ${lookUp.packageIds.length} package${lookUp.packageIds.length === 1 ? ' is' : 's are'} new on the participant since before the upload: it went through. (${lookUp.packageIds.join(', ')})`
        : `The DAR could not be read here, and no package is new on the participant since before the upload. ${again}`;
    case 'not-checked':
      return `Whether it is there could not be checked (${lookUp.error.message}). ${again}`;
  }
}

/** True when the look-up shows the DAR on the participant now (its main package, or packages new since before the upload). */
export function darUploadIsThere(lookUp: DarUploadLookUp): boolean {
  return lookUp.found === 'present' || (lookUp.found === 'new-packages' && lookUp.packageIds.length > 0);
}

/** New package ids, named where a vetting state knows them. */
function namedFromVetting(ids: string[], states: VettedPackagesState[]): DarPackageRow[] {
  const known = new Map(states.flatMap((s) => s.packages).map((p) => [p.packageId, p]));
  return ids.map((id) => {
    const name = known.get(id)?.packageName ?? '(unknown name)';
    return { id, name, version: known.get(id)?.packageVersion ?? '', main: false, isNew: true, standardLibrary: isStandardLibraryPackage(name) };
  });
}

/** This participant's vetting states (on a shared synchronizer the list holds others' too). */
async function ownVettingStates(client: LedgerClient, signal?: AbortSignal): Promise<VettedPackagesState[]> {
  const own = await client.participantId({ signal }).catch(() => undefined);
  return client.listVettedPackages(own ? { topologyStateFilter: { participantIds: [own] } } : {}, { signal });
}

/** A one-line summary: "3 packages, 2 new; vetting: 2 added on 1 synchronizer". */
export function darUploadSummary(r: DarUploadResult): string {
  const fresh = r.packages.filter((p) => p.isNew).length;
  const changed = r.vetting.filter((v) => !isEmptyDiff(v.diff));
  const added = changed.reduce((n, v) => n + v.diff.added.length, 0);
  const vetting = r.vettingUnknown ? '' : changed.length === 0 ? '; vetting unchanged' : `; ${added} vetted on ${changed.length} synchronizer${changed.length === 1 ? '' : 's'}`;
  return `${r.packages.length} package${r.packages.length === 1 ? '' : 's'}, ${fresh} new${vetting}`;
}

/** The report as Markdown: the DAR's packages (new or already there), then the vetting change per synchronizer. */
export function darUploadMarkdown(r: DarUploadResult, source: string, participant: string): string {
  const title = r.mode === 'validate' ? `Validation of ${source} on ${participant}: valid, nothing was changed` : `${source} uploaded to ${participant}`;
  const lines = [`# ${title}`, '', `- **Packages:** ${darUploadSummary(r)}`, ''];
  if (r.darUnreadable) lines.push(`The DAR could not be read here (${r.darUnreadable}); ${r.mode === 'validate' ? 'its packages are not listed' : 'its packages are those new on the participant'}.`, '');
  const head = ['Package', 'Version', 'Package id', r.mode === 'validate' ? 'Would be' : 'On the participant'];
  const table = (rows: DarPackageRow[]) => {
    lines.push(markdownTableRow(head), markdownTableRow(head.map(() => '---')));
    for (const p of rows) {
      const state = p.isNew ? (r.mode === 'validate' ? 'new' : 'added') : 'already there';
      lines.push(markdownTableRow([`${p.name}${p.main ? ' (main)' : ''}`, p.version, '`' + p.id + '`', state]));
    }
  };
  // The DAR's own packages first; the standard library every DAR carries after them, folded.
  const own = r.packages.filter((p) => !p.standardLibrary);
  const standard = r.packages.filter((p) => p.standardLibrary);
  lines.push('## Packages of the DAR', '');
  table(own);
  if (standard.length > 0) {
    const fresh = standard.filter((p) => p.isNew).length;
    lines.push('', `<details><summary>Standard library: ${standard.length} package${standard.length === 1 ? '' : 's'}, ${fresh} ${r.mode === 'validate' ? 'new' : 'added'}</summary>`, '');
    table(standard);
    lines.push('', '</details>');
  }
  lines.push('');
  lines.push(`## Vetting${r.mode === 'validate' ? ' (unchanged by a validation)' : ''}`, '');
  if (r.vettingUnknown) lines.push(`Not shown: ${r.vettingUnknown}.`, '');
  else if (r.vetting.length === 0) lines.push('This participant has no vetting state on any synchronizer.', '');
  // The vetting tables in the order of the package table: the DAR's own packages before the standard library.
  const order = new Map(r.packages.map((p, i) => [p.id, i]));
  const rank = (id: string) => order.get(id) ?? r.packages.length;
  const inReportOrder = <T>(list: T[], id: (x: T) => string) => [...list].sort((a, b) => rank(id(a)) - rank(id(b)));
  for (const v of r.vetting) {
    const d = v.diff;
    const diff = {
      added: inReportOrder(d.added, (p) => p.packageId),
      removed: inReportOrder(d.removed, (p) => p.packageId),
      validityChanged: inReportOrder(d.validityChanged, (c) => c.after.packageId),
      unchanged: inReportOrder(d.unchanged, (p) => p.packageId),
    };
    lines.push(...vettingChangeMarkdown({ ...v, diff }, 3));
  }
  return lines.join('\n');
}
