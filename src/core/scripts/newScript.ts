/**
 * The text of a new ledger script for a participant: its parties by alias and a first step that
 * creates a contract of one of its templates with real values, so that it runs green as written.
 */
import { exampleValue } from '../daml/exampleValue';
import type { PackageIndex, TemplateEntry } from '../daml/packageIndex';
import { commandFor } from '../files/templates';
import { TEMPLATE_ID_PLACEHOLDER } from '../files/placeholders';

export interface NewScriptFacts {
  /** The participant's parties (ids). */
  partyIds: readonly string[];
  /** The party the connection's user acts as: its alias comes first and is the one that creates. */
  actingParty?: string;
  /** The participant's packages: the template to create is chosen among them. */
  packages?: PackageIndex;
}

/** A template the new script creates, with the arguments for `party` (undefined: to fill in). */
interface TemplateChoice {
  templateId: string;
  createArguments: (party: string) => unknown;
}

/**
 * A starting script: an alias for each of the participant's first parties (by the prefix of its id, so
 * the script runs unchanged on another participant that has parties of those names; a prefix several
 * parties share is left out, since it would match more than one), a step that creates a contract and a
 * read that checks it, as a pattern to copy. The template is one whose every field can be given a
 * real value (no ContractId), a template without a key first (a key may already be taken); every
 * Party field is the acting alias, which makes it the signatory. Without one, the first template's
 * fields as placeholders to fill in, or a placeholder template.
 */
export function newScriptText(facts: NewScriptFacts): string {
  const prefixOf = (party: string) => party.split('::')[0];
  const counts = new Map<string, number>();
  for (const p of new Set(facts.partyIds)) counts.set(prefixOf(p), (counts.get(prefixOf(p)) ?? 0) + 1);
  const usable = [...counts.keys()].filter((p) => counts.get(p) === 1 && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(p));
  const acting = facts.actingParty && usable.includes(prefixOf(facts.actingParty)) ? prefixOf(facts.actingParty) : undefined;
  const aliases = [...new Set([...(acting ? [acting] : []), ...usable])].slice(0, 3);
  if (aliases.length === 0) aliases.push('Alice');
  const [first] = aliases;
  const chosen = facts.packages ? templateToCreate(facts.packages) : undefined;
  const templateId = chosen?.templateId ?? TEMPLATE_ID_PLACEHOLDER;
  const createArguments = chosen?.createArguments(`\${${first}}`) ?? {};
  const script = {
    description: 'What this script checks',
    parties: Object.fromEntries(aliases.map((a) => [a, {}])),
    steps: [
      {
        name: `${first} creates a contract`,
        submit: { actAs: [`\${${first}}`], commands: [{ CreateCommand: { templateId, createArguments } }] },
        capture: { created: { contractId: templateId } },
        expect: { created: [{ template: templateId, count: 1 }], visibleTo: [first] },
      },
      { name: `${first} sees it`, contractEvents: { party: first, contractId: '${created}' }, expect: { archivedContract: false } },
    ],
  };
  return JSON.stringify(script, null, 2) + '\n';
}

/** The user's own templates (not the Daml libraries'), the first whose fields can all be filled, keyless first. */
function templateToCreate(packages: PackageIndex): TemplateChoice | undefined {
  const own = packages.templatesByPackageName().filter((t) => !/^(daml-|ghc-)/.test(t.packageName));
  const fillable = (t: TemplateEntry) => exampleValue({ kind: 'con', con: t.name, args: [] }, packages, { party: 'p' }) !== undefined;
  const ordered = [...own.filter((t) => !t.template.keyType), ...own.filter((t) => t.template.keyType)];
  const filled = ordered.find(fillable);
  if (filled) return { templateId: filled.packageNameForm, createArguments: (party) => exampleValue({ kind: 'con', con: filled.name, args: [] }, packages, { party }) };
  const [any] = own;
  if (!any) return undefined;
  // Its fields as marked placeholders: flagged in the editor until filled in.
  return { templateId: any.packageNameForm, createArguments: (party) => (commandFor(packages, any.packageNameForm, undefined, party)?.CreateCommand as { createArguments?: unknown } | undefined)?.createArguments ?? {} };
}
