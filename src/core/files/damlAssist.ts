/**
 * Completions and hovers for the Daml parts of a commands file, from the ledger's own packages:
 * template ids, choice names, record fields with their Daml types, enum constructors and variant
 * tags, and a snippet that fills a whole value. Editor-neutral (offsets, not positions): the editor
 * maps these to its own items.
 */
import { getLocation, getNodePath, parse, parseTree, findNodeAtOffset, type Node, type Segment } from 'jsonc-parser';
import { skeletonValue } from '../daml/jsonEncoding';
import type { Choice, DamlType, Field } from '../daml/model';
import { printType, shapeOf, type TypeShape } from '../daml/types';
import { choicesOf, resolveTarget, type ArgumentContext, type ResolvedTarget } from './argumentChecks';
import { isJsonObject } from './jsonDocument';
import type { VersionWords } from '../network/preferredVersions';
import { parseIdentifier } from '../daml/identifiers';
import type { PackageIndex } from '../daml/packageIndex';

/**
 * The version Canton will use of a package name for the file's parties, as far as known when asked:
 * its words, `asking` while the participant has not answered yet, undefined when there is nobody to ask.
 */
export type VersionLookup = (packageName: string) => VersionWords | 'asking' | undefined;

export type AssistKind = 'template' | 'interface' | 'choice' | 'field' | 'constructor' | 'value';

export interface AssistItem {
  label: string;
  kind: AssistKind;
  /** One line: the Daml type or signature. */
  detail?: string;
  /** Markdown. */
  documentation?: string;
  /** The text to insert; a snippet (`${1:…}` placeholders) when `snippet` is set. */
  insertText: string;
  snippet?: boolean;
  /** The text it replaces (the string or key being typed), when not just the word at the cursor. */
  replace?: { offset: number; length: number };
  /** Edits elsewhere that keep the JSON valid (the comma a field inserted after the last one needs). */
  additionalEdits?: Array<{ offset: number; length: number; text: string }>;
  /** Sorts before the others (the snippet that fills everything). */
  preferred?: boolean;
  /** What the typed text is matched against, when not the text the item replaces (a contract's full id). */
  filterText?: string;
}

export interface AssistHover {
  markdown: string;
  offset: number;
  length: number;
}

const COMMAND_KINDS = new Set(['CreateCommand', 'ExerciseCommand', 'CreateAndExerciseCommand', 'ExerciseByKeyCommand']);
const VALUE_FIELDS = new Set(['createArguments', 'choiceArgument', 'contractKey']);

/** Where in a command the cursor is: which command, and the path inside it. */
interface CommandPosition {
  kind: string;
  command: Record<string, unknown>;
  /** The path below the command object, e.g. `['createArguments', 'owner']`. */
  inner: Segment[];
}

function commandPosition(path: Segment[], root: unknown): CommandPosition | undefined {
  for (let k = path.length - 1; k >= 2; k--) {
    const segment = path[k];
    if (typeof segment !== 'string' || !COMMAND_KINDS.has(segment) || path[k - 2] !== 'commands' || typeof path[k - 1] !== 'number') continue;
    const command = valueAt(root, path.slice(0, k + 1));
    if (!isJsonObject(command)) return undefined;
    return { kind: segment, command, inner: path.slice(k + 1) };
  }
  return undefined;
}

function valueAt(root: unknown, path: Segment[]): unknown {
  let v = root;
  for (const s of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[s];
  }
  return v;
}

/** The type of the value at `inner` (a path starting at createArguments/choiceArgument/contractKey). */
function typeAt(position: CommandPosition, target: ResolvedTarget, context: ArgumentContext): DamlType | undefined {
  const [field, ...rest] = position.inner;
  let type = rootType(field, position.command, target, context);
  let value = valueAt(position.command, [field]);
  for (const segment of rest) {
    if (!type) return undefined;
    type = childType(type, segment, value, context);
    value = valueAt(value, [segment]);
  }
  return type;
}

function rootType(field: Segment | undefined, command: Record<string, unknown>, target: ResolvedTarget, context: ArgumentContext): DamlType | undefined {
  if (field === 'createArguments' && target.kind === 'template') return { kind: 'con', con: target.name, args: [] };
  if (field === 'contractKey') return context.packages.template(target.name)?.keyType;
  if (field === 'choiceArgument') return choiceOf(command, target, context)?.argType;
  return undefined;
}

function choiceOf(command: Record<string, unknown>, target: ResolvedTarget, context: ArgumentContext): Choice | undefined {
  return choicesOf(target, context.packages).find((c) => c.choice.name === command.choice)?.choice;
}

/**
 * The type one step down from a value of `type`: a record's field, a list's element, a TextMap's
 * value, a variant's `value` (by the value's own tag); an Optional is its content.
 */
function childType(type: DamlType, segment: Segment, value: unknown, context: ArgumentContext): DamlType | undefined {
  const shape = shapeOf(type, context.packages);
  if (shape.kind === 'record') return shape.fields.find((f) => f.name === segment)?.type;
  if (shape.kind === 'variant') return segment === 'value' && isJsonObject(value) ? shape.constructors.find((c) => c.name === value.tag)?.type : undefined;
  if (shape.kind !== 'builtin') return undefined;
  if (shape.builtin === 'List' || shape.builtin === 'TextMap') return shape.args[0];
  if (shape.builtin === 'Optional') return childType(shape.args[0], segment, value, context);
  return undefined;
}

/**
 * Completions at `offset` of `text`, or [] where the packages have nothing to say. Each item keeps the
 * JSON valid wherever it is accepted: the comma to the field before and after it is added when missing,
 * and never doubled.
 */
export function completionsAt(text: string, offset: number, context: ArgumentContext, versions?: VersionLookup): AssistItem[] {
  const location = cursorLocation(text, offset);
  const items = itemsAt(text, offset, location, context, versions);
  return items.map((item) => withSeparators(text, offset, item, location.isAtPropertyKey));
}

type CursorLocation = Pick<ReturnType<typeof getLocation>, 'path' | 'isAtPropertyKey' | 'previousNode'>;

/**
 * Where the cursor is. jsonc-parser places a cursor after a complete value (`"a": 1 ‸`, the comma not
 * typed yet) at that value; in an object that is where the next key goes.
 */
function cursorLocation(text: string, offset: number): CursorLocation {
  const location = getLocation(text, offset);
  // A key typed after a value with no comma between (`"a": 1 "‸"`): a key all the same.
  if (!location.isAtPropertyKey && location.path.at(-1) === '' && location.previousNode?.type === 'property') return { ...location, isAtPropertyKey: true };
  if (location.isAtPropertyKey || !/\s/.test(text.charAt(offset - 1))) return location;
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const node = tree && findNodeAtOffset(tree, offset);
  if (node?.type !== 'object' || offset <= node.offset || offset >= node.offset + node.length) return location;
  return { path: [...getNodePath(node), ''], isAtPropertyKey: true, previousNode: undefined };
}

function itemsAt(text: string, offset: number, location: CursorLocation, context: ArgumentContext, versions: VersionLookup | undefined): AssistItem[] {
  const root = parse(text, [], { allowTrailingComma: true });
  const position = commandPosition(location.path, root);
  if (!position) return [];
  const { inner, kind, command } = position;
  const stringNode = location.previousNode?.type === 'string' || location.previousNode?.type === 'property' ? location.previousNode : undefined;
  const replace = stringNode ? { offset: stringNode.offset, length: stringNode.length } : undefined;

  if (inner.length === 1 && inner[0] === 'templateId' && !location.isAtPropertyKey) return templateItems(context, kind === 'ExerciseCommand', replace, versions);
  const resolved = resolveTarget(command.templateId, context, kind === 'ExerciseCommand');
  const target = resolved && 'target' in resolved ? resolved.target : undefined;
  if (!target) return [];
  if (inner.length === 1 && inner[0] === 'choice' && !location.isAtPropertyKey) return choiceItems(target, context, replace);
  if (inner.length === 0 || !VALUE_FIELDS.has(String(inner[0]))) return [];

  if (location.isAtPropertyKey) {
    // A key inside an object: the fields of the record the object is (or `tag`/`value` of a variant).
    const type = typeAt({ ...position, inner: inner.slice(0, -1) }, target, context);
    if (!type) return [];
    const present = valueAt(command, inner.slice(0, -1));
    // A key typed over where a value follows already (`"cur‸": ""`): the name alone.
    const keyOnly = replace !== undefined && nextSignificant(text, replace.offset + replace.length).char === ':';
    return keyItems(type, isJsonObject(present) ? present : {}, context, replace, keyOnly);
  }
  // The value of a variant's "tag": its constructors.
  if (inner[inner.length - 1] === 'tag') {
    const variant = typeAt({ ...position, inner: inner.slice(0, -1) }, target, context);
    const shape = variant && shapeOf(variant, context.packages);
    if (shape?.kind === 'variant') return shape.constructors.map((c) => constructorItem(c.name, printType(c.type), replace));
  }
  const type = typeAt(position, target, context);
  return type ? valueItems(type, context, replace) : [];
}

/** A place in a commands file where a contract id goes, and which contracts fit there. */
export interface ContractIdSlot {
  /** The template of the contracts that fit (`#package-name:Module:Entity`, or as the command writes it). */
  templateId?: string;
  /** Or the interface they implement. */
  interfaceId?: string;
  /** The string being typed, which an item replaces. */
  replace?: { offset: number; length: number };
}

/**
 * Whether the cursor is where a contract id goes: an ExerciseCommand's `contractId` (contracts of its
 * template), or, with packages, a choice or create argument of type `ContractId T` (contracts of T).
 */
export function contractIdSlotAt(text: string, offset: number, context?: ArgumentContext): ContractIdSlot | undefined {
  // jsonc-parser's own reading: a cursor right after `"contractId": ` is at that value.
  const location = getLocation(text, offset);
  if (location.isAtPropertyKey) return undefined;
  const root = parse(text, [], { allowTrailingComma: true });
  const position = commandPosition(location.path, root);
  if (!position) return undefined;
  const stringNode = location.previousNode?.type === 'string' ? location.previousNode : undefined;
  const replace = stringNode ? { offset: stringNode.offset, length: stringNode.length } : undefined;
  const { inner, kind, command } = position;
  if (kind === 'ExerciseCommand' && inner.length === 1 && inner[0] === 'contractId') {
    return typeof command.templateId === 'string' && command.templateId !== '' ? { templateId: command.templateId, replace } : { replace };
  }
  if (!context || inner.length === 0 || !VALUE_FIELDS.has(String(inner[0]))) return undefined;
  const resolved = resolveTarget(command.templateId, context, kind === 'ExerciseCommand');
  const target = resolved && 'target' in resolved ? resolved.target : undefined;
  const type = target && typeAt(position, target, context);
  const shape = type && shapeOf(type, context.packages);
  if (shape?.kind !== 'builtin' || shape.builtin !== 'ContractId') return undefined;
  const of = shape.args[0];
  if (of?.kind !== 'con') return { replace };
  const pkg = context.packages.package(of.con.packageId);
  const id = pkg ? `#${pkg.name}:${of.con.moduleName}:${of.con.name}` : `${of.con.packageId}:${of.con.moduleName}:${of.con.name}`;
  if (context.packages.template(of.con)) return { templateId: id, replace };
  if (context.packages.interface(of.con)) return { interfaceId: id, replace };
  return { replace };
}

function templateItems(context: ArgumentContext, withInterfaces: boolean, replace: AssistItem['replace'], versions: VersionLookup | undefined): AssistItem[] {
  const items: AssistItem[] = [];
  const seen = new Set<string>();
  // One entry per package-name form: of the version Canton will use for the file's parties where that
  // is known, else of the version the form resolves to here (as the hover and the checks do).
  for (const t of context.packages.templatesByPackageName()) {
    seen.add(t.packageNameForm);
    const words = versions?.(t.packageName);
    const known = typeof words === 'object' ? words : undefined;
    const shown = (known?.chosen && templateIn(context.packages, known.chosen.packageId, t.name.moduleName, t.name.name)) || { ...t.name };
    const pkg = context.packages.package(shown.packageId);
    const template = context.packages.template(shown);
    const record = context.packages.dataType(shown);
    const version = pkg?.version ?? t.packageVersion;
    const signature = templateMarkdown(shown.moduleName, shown.name, record?.kind === 'record' ? record.fields : [], template?.choices ?? t.template.choices, t.packageName, version, shown.packageId);
    items.push({
      label: t.packageNameForm,
      kind: 'template',
      detail: known ? `template ${t.name.name} · ${known.verdict === 'fails' ? '✗ ' : ''}${known.headline}` : `template ${t.name.name} (${t.packageName} ${t.packageVersion})`,
      documentation: known ? `${versionMarkdown(known, context.packages, t.name.packageId)}\n\n${signature}` : signature,
      insertText: JSON.stringify(t.packageNameForm),
      replace,
      // The templates with a version for the file's parties come first, the first of them preselected.
      ...(known?.verdict === 'ok' ? { preferred: true } : {}),
    });
  }
  if (withInterfaces) {
    for (const p of context.packages.packages()) {
      if (context.packages.resolvePackageName(p.name) !== p.id) continue;
      for (const m of p.modules) {
        for (const i of m.interfaces) {
          const id = `#${p.name}:${m.name}:${i.name}`;
          if (seen.has(id)) continue;
          seen.add(id);
          items.push({ label: id, kind: 'interface', detail: `interface ${i.name} (${p.name} ${p.version})`, insertText: JSON.stringify(id), replace });
        }
      }
    }
  }
  return items;
}

function choiceItems(target: ResolvedTarget, context: ArgumentContext, replace: AssistItem['replace']): AssistItem[] {
  return choicesOf(target, context.packages).map(({ choice, declaredIn, declaredBy }) => ({
    label: choice.name,
    kind: 'choice' as const,
    detail: choiceSignature(choice),
    documentation: declaredIn === 'interface' ? `From the interface ${declaredBy.moduleName}:${declaredBy.name}: exercise it with the interface id.` : undefined,
    insertText: JSON.stringify(choice.name),
    replace,
  }));
}

function keyItems(type: DamlType, present: Record<string, unknown>, context: ArgumentContext, replace: AssistItem['replace'], keyOnly: boolean): AssistItem[] {
  const shape = shapeOf(type, context.packages);
  if (shape.kind === 'variant') {
    return ['tag', 'value']
      .filter((k) => !(k in present))
      .map((k) => ({ label: k, kind: 'field' as const, detail: `variant ${printType(shape.type)}`, insertText: keyOnly ? `"${k}"` : `"${k}": ${k === 'tag' ? '"$1"' : '${1:null}'}`, snippet: !keyOnly, replace }));
  }
  if (shape.kind !== 'record') return [];
  const missing = shape.fields.filter((f) => !(f.name in present));
  const items: AssistItem[] = missing.map((f) => ({
    label: f.name,
    kind: 'field',
    detail: printType(f.type),
    documentation: `Field of ${printType(shape.type)}: ${printType(f.type)}`,
    insertText: keyOnly ? JSON.stringify(f.name) : `"${f.name}": ${placeholder(f.type, context, 1)}`,
    snippet: !keyOnly,
    replace,
  }));
  if (missing.length > 1 && !keyOnly) {
    items.unshift({
      label: `All ${missing.length} fields of ${printType(shape.type)}`,
      kind: 'field',
      detail: missing.map((f) => f.name).join(', '),
      insertText: missing.map((f, i) => `"${f.name}": ${placeholder(f.type, context, i + 1)}`).join(',\n'),
      snippet: true,
      replace,
      preferred: true,
    });
  }
  return items;
}

function valueItems(type: DamlType, context: ArgumentContext, replace: AssistItem['replace']): AssistItem[] {
  const shape = shapeOf(type, context.packages);
  switch (shape.kind) {
    case 'enum':
      return shape.constructors.map((c) => constructorItem(c, printType(shape.type), replace));
    case 'variant':
      return shape.constructors.map((c) => ({
        label: c.name,
        kind: 'constructor' as const,
        detail: `${printType(shape.type)}: ${printType(c.type)}`,
        insertText: `{"tag": "${c.name}", "value": ${placeholder(c.type, context, 1)}}`,
        snippet: true,
        replace,
      }));
    case 'builtin':
      if (shape.builtin === 'Bool') return ['true', 'false'].map((b) => ({ label: b, kind: 'value' as const, detail: 'Bool', insertText: b, replace }));
      if (shape.builtin === 'Optional') return [{ label: 'null', kind: 'value', detail: `${printType(shape.type)}: none`, insertText: 'null', replace }, ...valueItems(shape.args[0], context, replace)];
      break;
    default:
      break;
  }
  return [{ label: `${printType(type)} value`, kind: 'value', detail: printType(type), insertText: placeholder(type, context, 1), snippet: true, replace, preferred: true }];
}

function constructorItem(name: string, typeText: string, replace: AssistItem['replace']): AssistItem {
  return { label: name, kind: 'constructor', detail: typeText, insertText: JSON.stringify(name), replace };
}

/** The first character that is not white space at or after (`direction` 1) or before (-1) `offset`, and where it is. */
function nextSignificant(text: string, offset: number, direction: 1 | -1 = 1): { char: string | undefined; at: number } {
  let at = direction === 1 ? offset : offset - 1;
  while (at >= 0 && at < text.length && /\s/.test(text[at])) at += direction;
  return { char: at >= 0 && at < text.length ? text[at] : undefined, at };
}

/** Characters after which a value or key may start without a comma. */
const OPENS = new Set(['{', '[', ',', ':']);
/** Characters that may follow a value or property without a comma. */
const CLOSES = new Set(['}', ']', ',', ':']);

/**
 * The item with the commas it needs where it lands: one after it when a value or key follows, and
 * (for a key) one after the value before it when that has none. A comma is never doubled.
 */
function withSeparators(text: string, offset: number, item: AssistItem, atKey: boolean): AssistItem {
  const start = item.replace?.offset ?? offset;
  const end = item.replace ? item.replace.offset + item.replace.length : offset;
  const after = nextSignificant(text, end).char;
  const before = nextSignificant(text, start, -1);
  const trailing = after !== undefined && !CLOSES.has(after);
  const leading = atKey && before.char !== undefined && !OPENS.has(before.char);
  if (!trailing && !leading) return item;
  return {
    ...item,
    insertText: trailing ? `${item.insertText},` : item.insertText,
    ...(leading ? { additionalEdits: [{ offset: before.at + 1, length: 0, text: ',' }] } : {}),
  };
}

/** A snippet placeholder holding a complete valid value of `type` (its JSON text selected). */
function placeholder(type: DamlType, context: ArgumentContext, index: number): string {
  const json = JSON.stringify(skeletonValue(type, context.packages));
  return `\${${index}:${json.replace(/[$}\\]/g, (c) => `\\${c}`)}}`;
}

function choiceSignature(choice: Choice): string {
  return `${choice.consuming ? 'consuming' : 'nonconsuming'} choice ${choice.name} : ${printType(choice.argType)} -> ${printType(choice.returnType)}`;
}

function templateMarkdown(moduleName: string, name: string, fields: Field[], choices: Choice[], packageName: string, version: string, packageId: string): string {
  return [
    '```daml',
    `template ${name}  -- ${moduleName}, ${packageName} ${version}`,
    '  with',
    ...fields.map((f) => `    ${f.name} : ${printType(f.type)}`),
    ...choices.map((c) => `  ${choiceSignature(c)}`),
    '```',
    `Package id \`${packageId}\``,
  ].join('\n');
}

/** The template `moduleName:name` of package `packageId`, when the packages hold it. */
function templateIn(packages: PackageIndex, packageId: string, moduleName: string, name: string): { packageId: string; moduleName: string; name: string } | undefined {
  const qualified = { packageId, moduleName, name };
  return packages.template(qualified) ? qualified : undefined;
}

/**
 * The version Canton will use (or why none fits) in Markdown; `localId`: the package this participant
 * alone would resolve the name to, said when Canton's choice differs from it.
 */
function versionMarkdown(words: VersionWords, packages: PackageIndex, localId: string): string {
  const lines = [`**${words.verdict === 'fails' ? '✗ ' : words.verdict === 'unknown' ? '? ' : ''}${words.headline}.**`, '', ...words.why.map((w) => `- ${w}`)];
  const local = packages.package(localId);
  if (words.chosen && local && words.chosen.packageId !== localId) {
    lines.push('', `${local.name} ${local.version}, the highest version known here, is not vetted by every participant hosting these parties: Canton will not use it for them.`);
  }
  return lines.join('\n');
}

/** The Daml type of the key or value at `offset`, or a template's or choice's signature (with the version Canton will use, from `versions`). */
export function hoverAt(text: string, offset: number, context: ArgumentContext, versions?: VersionLookup): AssistHover | undefined {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const node = tree && findNodeAtOffset(tree, offset);
  if (!node || (node.type !== 'string' && node.type !== 'number' && node.type !== 'boolean' && node.type !== 'null' && node.type !== 'object' && node.type !== 'array')) return undefined;
  const isKey = node.parent?.type === 'property' && node.parent.children?.[0] === node;
  const valueNode = isKey ? node.parent!.children?.[1] : node;
  const path = pathOf(isKey ? (valueNode ?? node) : node);
  if (isKey && !valueNode) path.push(String(node.value));
  const root = parse(text, [], { allowTrailingComma: true });
  const position = commandPosition(path, root);
  if (!position) return undefined;
  const range = { offset: node.offset, length: node.length };
  const resolved = resolveTarget(position.command.templateId, context, position.kind === 'ExerciseCommand');
  const target = resolved && 'target' in resolved ? resolved.target : undefined;
  if (!target) return undefined;
  const { inner } = position;
  if (inner.length === 1 && inner[0] === 'templateId' && !isKey) {
    if (!context.packages.template(target.name)) return { markdown: `interface ${target.name.moduleName}:${target.name.name}`, ...range };
    // A package-name form: Canton picks the version for the parties; shown is the template of that version where known.
    const id = typeof position.command.templateId === 'string' ? parseIdentifier(position.command.templateId) : undefined;
    const words = id?.form === 'package-name' ? versions?.(id.packageName) : undefined;
    const known = typeof words === 'object' ? words : undefined;
    const shown = (known?.chosen && templateIn(context.packages, known.chosen.packageId, target.name.moduleName, target.name.name)) || target.name;
    const record = context.packages.dataType(shown);
    const pkg = context.packages.package(shown.packageId)!;
    const signature = templateMarkdown(shown.moduleName, shown.name, record?.kind === 'record' ? record.fields : [], context.packages.template(shown)!.choices, pkg.name, pkg.version, pkg.id);
    const about = known ? versionMarkdown(known, context.packages, target.name.packageId) : words === 'asking' ? '_Which version Canton will use for the file\'s parties is being asked: hover again in a moment._' : undefined;
    // The version first: it is what the hover over a template id answers now; the signature below.
    return { markdown: about ? `${about}\n\n---\n\n${signature}` : signature, ...range };
  }
  if (inner.length === 1 && inner[0] === 'choice' && !isKey) {
    const choice = choiceOf(position.command, target, context);
    return choice ? { markdown: '```daml\n' + choiceSignature(choice) + '\n```', ...range } : undefined;
  }
  if (inner.length === 0 || !VALUE_FIELDS.has(String(inner[0]))) return undefined;
  const type = typeAt(position, target, context);
  if (!type) return undefined;
  const parent = inner.length > 1 ? typeAt({ ...position, inner: inner.slice(0, -1) }, target, context) : undefined;
  const parentShape: TypeShape | undefined = parent && shapeOf(parent, context.packages);
  const where = parentShape?.kind === 'record' ? `\n\nA field of the record \`${printType(parentShape.type)}\`` : '';
  const label = typeof inner[inner.length - 1] === 'string' ? `${String(inner[inner.length - 1])} : ` : '';
  // The closing fence on a line of its own, or the rest would render as code.
  return { markdown: '```daml\n' + label + printType(type) + '\n```' + where, ...range };
}

/** The package name of the package-name form `templateId` of a command that `offset` is on; undefined anywhere else. */
export function templatePackageNameAt(text: string, offset: number): string | undefined {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const node = tree && findNodeAtOffset(tree, offset);
  if (node?.type !== 'string' || node.parent?.type !== 'property' || node.parent.children?.[1] !== node) return undefined;
  const position = commandPosition(pathOf(node), parse(text, [], { allowTrailingComma: true }));
  if (position?.inner.length !== 1 || position.inner[0] !== 'templateId') return undefined;
  const id = parseIdentifier(String(node.value));
  return id?.form === 'package-name' ? id.packageName : undefined;
}

function pathOf(node: Node): Segment[] {
  const path: Segment[] = [];
  let current: Node | undefined = node;
  while (current?.parent) {
    const parent: Node = current.parent;
    if (parent.type === 'property') {
      path.unshift(String(parent.children![0].value));
      current = parent.parent;
    } else if (parent.type === 'array') {
      path.unshift(parent.children!.indexOf(current));
      current = parent;
    } else current = parent;
  }
  return path;
}
