/** Checks JSON Schema cannot express: duplicate keys and package-id template references. */
import type { Node } from 'jsonc-parser';
import { isPackageHash, parseIdentifier, qualifiedNameOf } from '../daml/identifiers';
import { joinPointer } from '../jsonPointer';
import { isJsonObject, pointerOf, rangeOf, type JsonDocument } from './jsonDocument';
import { TEMPLATE_ID_PLACEHOLDER, VETTING_PACKAGE_PLACEHOLDER } from './placeholders';
import type { ProblemDraft } from './problems';

/** Every repeated key in every object, Daml payloads included (which of the values wins depends on the parser). */
export function duplicateKeyProblems(doc: JsonDocument): ProblemDraft[] {
  if (!doc.hasDuplicateKeys) return [];
  const problems: ProblemDraft[] = [];
  const stack: Node[] = doc.root ? [doc.root] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'array') {
      for (const child of node.children ?? []) stack.push(child);
    } else if (node.type === 'object') {
      const seen = new Set<string>();
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        if (!keyNode) continue;
        const key = String(keyNode.value);
        if (seen.has(key)) {
          problems.push({
            path: pointerOf(valueNode ?? keyNode),
            message: `Duplicate key "${key}": keep only one (parsers disagree on which value wins).`,
            severity: 'warning',
            code: 'duplicate-key',
            ...rangeOf(keyNode),
          });
        }
        seen.add(key);
        if (valueNode) stack.push(valueNode);
      }
    }
  }
  return problems;
}

const COMMAND_KINDS = ['CreateCommand', 'ExerciseCommand', 'CreateAndExerciseCommand', 'ExerciseByKeyCommand'] as const;

/** A template or interface id in a commands file, and whether it sits in a transaction filter. */
interface IdentifierSite {
  pointer: string;
  id: unknown;
  inFilter: boolean;
}

/**
 * Template/interface ids written as `<package id>:Module:Entity`. In commands that form is deprecated
 * (the package-name form lets Canton pick the package version); in filters Canton 3.5+ rejects it.
 * `disclosedContracts[].templateId` is meant to be in package-id form and is not checked.
 * Sites in `skip` (which already have a schema problem) are left alone.
 */
export function packageIdTemplateProblems(value: unknown, doc: JsonDocument, skip: ReadonlySet<string>): ProblemDraft[] {
  const problems: ProblemDraft[] = [];
  for (const site of identifierSites(value)) {
    const id = typeof site.id === 'string' ? parseIdentifier(site.id) : undefined;
    if (id?.form !== 'package-id' || !isPackageHash(id.packageId) || skip.has(site.pointer)) continue;
    const { packageId } = id;
    const qualifiedName = qualifiedNameOf(id);
    const node = doc.nodeAt(site.pointer);
    if (!node) continue;
    problems.push({
      path: site.pointer,
      message: site.inFilter
        ? `Filters need the package-name form "#<package-name>:${qualifiedName}": Canton 3.5+ rejects package ids here ("expected a package name").`
        : `The package-id form is deprecated in commands: use "#<package-name>:${qualifiedName}" so Canton can pick the package version (upgrades).`,
      severity: site.inFilter ? 'error' : 'warning',
      code: 'package-id-template',
      ...rangeOf(node),
      data: { packageId, qualifiedName },
    });
  }
  return problems;
}

/**
 * The placeholders a new file is written with that pass the schema (a template id of the right form,
 * a vetting file's package name): flagged wherever they stand, with or without packages to check against.
 */
export function placeholderProblems(kind: 'commands' | 'vetting', value: unknown, doc: JsonDocument, base = ''): ProblemDraft[] {
  const sites: Array<{ pointer: string; message: string }> = [];
  if (kind === 'commands') {
    for (const site of identifierSites(value)) {
      if (site.id === TEMPLATE_ID_PLACEHOLDER) sites.push({ pointer: site.pointer, message: `Replace the placeholder ${TEMPLATE_ID_PLACEHOLDER} with a template's id, e.g. "#demo-iou:Iou:Iou" (completions list the packages' templates).` });
    }
  } else if (isJsonObject(value)) {
    forEachRecord(value.changes, (i, change) => {
      const operation = isJsonObject(change.operation) ? change.operation : undefined;
      for (const [name, op] of Object.entries(operation ?? {})) {
        const packages = isJsonObject(op) && isJsonObject(op.value) ? op.value.packages : undefined;
        forEachRecord(packages, (j, ref) => {
          if (ref.packageName === VETTING_PACKAGE_PLACEHOLDER.packageName) {
            sites.push({ pointer: `/changes/${i}/operation/${name}/value/packages/${j}/packageName`, message: `Replace the placeholder "${VETTING_PACKAGE_PLACEHOLDER.packageName}" with the name of a package (or give its packageId).` });
          }
        });
      }
    });
  }
  return sites.flatMap(({ pointer, message }) => {
    const node = doc.nodeAt(base + pointer);
    return node ? [{ path: base + pointer, message, severity: 'error' as const, code: 'placeholder' as const, ...rangeOf(node) }] : [];
  });
}

export type CommandKind = (typeof COMMAND_KINDS)[number];

/** A command of a commands file: its kind, its object, and the JSON pointer of that object. */
export interface CommandSite {
  kind: CommandKind;
  command: Record<string, unknown>;
  pointer: string;
}

/** The JsCommands of a file: the file itself, or `commands` of a full submit-and-wait-for-transaction request. */
function jsCommandsOf(root: unknown): { jsCommands: Record<string, unknown>; base: string; isRequest: boolean } | undefined {
  const isRequest = isJsonObject(root) && isJsonObject(root.commands);
  const jsCommands = isRequest ? root.commands : root;
  return isJsonObject(jsCommands) ? { jsCommands, base: isRequest ? '/commands' : '', isRequest } : undefined;
}

/** Every command object of a commands file. */
export function commandSites(root: unknown): CommandSite[] {
  const sites: CommandSite[] = [];
  const of = jsCommandsOf(root);
  if (!of) return sites;
  forEachRecord(of.jsCommands.commands, (index, entry) => {
    for (const kind of COMMAND_KINDS) {
      const command = entry[kind];
      if (isJsonObject(command)) sites.push({ kind, command, pointer: `${of.base}/commands/${index}/${kind}` });
    }
  });
  return sites;
}

function identifierSites(root: unknown): IdentifierSite[] {
  const sites: IdentifierSite[] = commandSites(root).map((site) => ({ pointer: `${site.pointer}/templateId`, id: site.command.templateId, inFilter: false }));
  const of = jsCommandsOf(root);
  if (!of) return sites;
  const { jsCommands, base, isRequest } = of;
  forEachRecord(jsCommands.prefetchContractKeys, (index, prefetch) => sites.push({ pointer: `${base}/prefetchContractKeys/${index}/templateId`, id: prefetch.templateId, inFilter: false }));

  if (!isRequest || !isJsonObject(root) || !isJsonObject(root.transactionFormat) || !isJsonObject(root.transactionFormat.eventFormat)) return sites;
  const eventFormat = root.transactionFormat.eventFormat;
  const filters: Array<[string, unknown]> = [['/transactionFormat/eventFormat/filtersForAnyParty', eventFormat.filtersForAnyParty]];
  if (isJsonObject(eventFormat.filtersByParty)) {
    for (const [party, partyFilters] of Object.entries(eventFormat.filtersByParty)) {
      filters.push([joinPointer('/transactionFormat/eventFormat/filtersByParty', party), partyFilters]);
    }
  }
  for (const [pointer, filter] of filters) {
    if (!isJsonObject(filter)) continue;
    forEachRecord(filter.cumulative, (index, cumulative) => {
      const identifierFilter = cumulative.identifierFilter;
      if (!isJsonObject(identifierFilter)) return;
      const at = `${pointer}/cumulative/${index}/identifierFilter`;
      const template = identifierFilter.TemplateFilter;
      if (isJsonObject(template) && isJsonObject(template.value)) {
        sites.push({ pointer: `${at}/TemplateFilter/value/templateId`, id: template.value.templateId, inFilter: true });
      }
      const iface = identifierFilter.InterfaceFilter;
      if (isJsonObject(iface) && isJsonObject(iface.value)) {
        sites.push({ pointer: `${at}/InterfaceFilter/value/interfaceId`, id: iface.value.interfaceId, inFilter: true });
      }
    });
  }
  return sites;
}

/** Calls `visit` with each object of `list` (when it is an array) and its index. */
function forEachRecord(list: unknown, visit: (index: number, item: Record<string, unknown>) => void): void {
  if (!Array.isArray(list)) return;
  for (let index = 0; index < list.length; index++) {
    const item: unknown = list[index];
    if (isJsonObject(item)) visit(index, item);
  }
}
