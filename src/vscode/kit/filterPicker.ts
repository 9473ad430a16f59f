import vscode = require('vscode');
import { readableParties, shortParty } from '../../core/models/users';
import { parseIdentifier } from '../../core/daml/identifiers';
import { checkViewFilter, defaultViewFilter, filterSummary, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type UpdatesViewFilter } from '../../core/updates/viewFilter';
import { RequestValidationError } from '../../core/errors';
import type { ParticipantInfo } from '../connections/manager';
import type { Prompts } from './prompts';

type Choice = vscode.QuickPickItem & { apply?: (f: UpdatesViewFilter) => Promise<UpdatesViewFilter | undefined> | UpdatesViewFilter | undefined; done?: 'apply' | 'reset' };

const onOff = (v: boolean | undefined) => (v ? 'on' : 'off');

/**
 * Edits the Updates filter in one QuickPick: each entry shows its current value and changes it;
 * "Apply" returns the new filter, Escape keeps the old one.
 */
export async function editUpdatesFilter(prompts: Prompts, current: UpdatesViewFilter, info: ParticipantInfo | undefined): Promise<UpdatesViewFilter | undefined> {
  let draft: UpdatesViewFilter = { ...current };
  for (;;) {
    const choices: Choice[] = [
      { label: '$(check) Apply', description: filterSummary(draft), done: 'apply' },
      { label: '$(discard) Reset to defaults', done: 'reset' },
      { label: 'Filter', kind: vscode.QuickPickItemKind.Separator },
      { label: '$(person) Parties', description: draft.anyParty ? '(any party is on)' : (draft.parties ?? []).map((p) => shortParty(p)).join(', ') || 'none', apply: (f) => pickParties(prompts, f, info) },
      { label: '$(globe) Any party', description: onOff(draft.anyParty), detail: 'Read as any party (needs CanReadAsAnyParty)', apply: (f) => ({ ...f, anyParty: !f.anyParty }) },
      { label: '$(symbol-class) Templates', description: (draft.templateIds ?? []).join(', ') || 'all', apply: (f) => askIds(prompts, f, 'templateIds', 'Template ids') },
      { label: '$(symbol-interface) Interfaces', description: (draft.interfaceIds ?? []).join(', ') || 'none', apply: (f) => askIds(prompts, f, 'interfaceIds', 'Interface ids') },
      {
        label: '$(list-tree) Transaction shape',
        description: draft.shape === 'ledger-effects' ? 'ledger effects' : 'ACS delta',
        detail: 'ACS delta: created and archived events; ledger effects: also exercised events',
        apply: (f) => ({ ...f, shape: f.shape === 'ledger-effects' ? 'acs-delta' : 'ledger-effects' }),
      },
      { label: '$(arrow-swap) Include reassignments', description: onOff(draft.includeReassignments !== false), apply: (f) => ({ ...f, includeReassignments: f.includeReassignments === false }) },
      { label: '$(organization) Include topology events', description: onOff(draft.includeTopologyEvents), apply: (f) => ({ ...f, includeTopologyEvents: !f.includeTopologyEvents }) },
      { label: '$(list-flat) Verbose', description: onOff(draft.verbose), detail: 'Record field names in arguments and values', apply: (f) => ({ ...f, verbose: !f.verbose }) },
      { label: '$(debug-step-back) Begin offset (exclusive)', description: String(draft.beginExclusive ?? '0 (ledger start)'), apply: (f) => askOffset(prompts, f, 'beginExclusive') },
      { label: '$(debug-step-over) End offset (inclusive)', description: String(draft.endInclusive ?? 'ledger end when loaded'), apply: (f) => askOffset(prompts, f, 'endInclusive') },
      { label: '$(sort-precedence) Order', description: draft.descending ? 'newest first' : 'oldest first', apply: (f) => ({ ...f, descending: !f.descending }) },
      { label: '$(symbol-number) Page size', description: String(draft.pageSize ?? DEFAULT_PAGE_SIZE), detail: "At most the participant's list cap; a smaller page is used when it says so", apply: (f) => askPageSize(prompts, f) },
      {
        label: '$(warning) Legacy request form',
        description: `${onOff(draft.legacyForm)} — deprecated`,
        detail: 'The `filter`/`verbose` form for participants that predate `updateFormat`; no topology events, no descending order',
        apply: (f) => ({ ...f, legacyForm: !f.legacyForm }),
      },
    ];
    const choice = await prompts.pick(choices, { title: 'Updates Filter', placeHolder: 'Change entries, then Apply (Enter)', ignoreFocusOut: true });
    if (!choice) return undefined;
    if (choice.done === 'reset') draft = defaultViewFilter(info?.rights);
    if (choice.done) {
      try {
        checkViewFilter(draft);
        return draft;
      } catch (e) {
        if (!(e instanceof RequestValidationError)) throw e;
        void prompts.message('warning', `Updates filter: ${e.message}`, []);
        continue;
      }
    }
    draft = (await choice.apply?.(draft)) ?? draft;
  }
}

async function pickParties(prompts: Prompts, f: UpdatesViewFilter, info: ParticipantInfo | undefined): Promise<UpdatesViewFilter | undefined> {
  const known = new Set([...(info?.parties ?? []).map((p) => p.party), ...(info?.rights ? readableParties(info.rights) : []), ...(f.parties ?? [])]);
  const mine = new Set(info?.rights ? readableParties(info.rights) : []);
  const items = [...known].sort().map((party) => ({ label: shortParty(party), description: mine.has(party) ? 'in your rights' : undefined, detail: party, party, picked: f.parties?.includes(party) }));
  const picked = await prompts.pickMany(items, { title: 'Read as parties', matchOnDetail: true, ignoreFocusOut: true });
  return picked && { ...f, parties: picked.map((p) => p.party), anyParty: picked.length > 0 ? false : f.anyParty };
}

async function askIds(prompts: Prompts, f: UpdatesViewFilter, field: 'templateIds' | 'interfaceIds', title: string): Promise<UpdatesViewFilter | undefined> {
  const value = await prompts.input({
    title,
    prompt: 'Comma-separated, in the package-name form #package-name:Module:Entity (empty: no restriction)',
    value: (f[field] ?? []).join(', '),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const bad = splitIds(v).find((id) => !parseIdentifier(id));
      if (bad) return `Not an id of the form #package-name:Module:Entity: ${bad}`;
      const pkgIdForm = splitIds(v).find((id) => parseIdentifier(id)?.form === 'package-id');
      return pkgIdForm ? { message: 'Canton 3.5+ rejects the package-id form in filters: use #package-name:Module:Entity', severity: vscode.InputBoxValidationSeverity.Warning } : undefined;
    },
  });
  return value === undefined ? undefined : { ...f, [field]: splitIds(value) };
}

function splitIds(v: string): string[] {
  return v.split(',').map((s) => s.trim()).filter(Boolean);
}

async function askOffset(prompts: Prompts, f: UpdatesViewFilter, field: 'beginExclusive' | 'endInclusive'): Promise<UpdatesViewFilter | undefined> {
  const value = await prompts.input({
    title: field === 'beginExclusive' ? 'Begin offset (exclusive)' : 'End offset (inclusive)',
    prompt: field === 'beginExclusive' ? 'Updates after this offset (empty: from the ledger start)' : 'Updates up to this offset (empty: the ledger end when the view loads)',
    value: f[field]?.toString() ?? '',
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' || /^\d+$/.test(v.trim()) ? undefined : 'An offset is a non-negative integer'),
  });
  return value === undefined ? undefined : { ...f, [field]: value.trim() === '' ? undefined : Number(value.trim()) };
}

async function askPageSize(prompts: Prompts, f: UpdatesViewFilter): Promise<UpdatesViewFilter | undefined> {
  const value = await prompts.input({
    title: 'Page size',
    value: String(f.pageSize ?? DEFAULT_PAGE_SIZE),
    ignoreFocusOut: true,
    validateInput: (v) => (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_PAGE_SIZE ? undefined : `Between 1 and ${MAX_PAGE_SIZE}`),
  });
  return value === undefined ? undefined : { ...f, pageSize: Number(value) };
}
