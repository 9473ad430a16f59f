/**
 * Quick fixes for the problems of `validateText`, as plain text edits (offsets into the text the problem
 * was found in), so that editors and tests share them. Fixes branch on problem codes and `data`, never
 * on message text.
 */
import { randomUUID } from 'node:crypto';
import { modify, type JSONPath, type Node } from 'jsonc-parser';
import { plainDecimal } from '../daml/jsonEncoding';
import { pointerSegments } from '../jsonPointer';
import { closestName } from '../spelling';
import { JsonDocument } from './jsonDocument';
import type { Problem, ProblemCode } from './problems';

export interface TextEdit {
  offset: number;
  length: number;
  newText: string;
}

export interface Fix {
  title: string;
  /** The code of the problem it fixes. */
  code: ProblemCode;
  edits: TextEdit[];
  /** The one obvious fix (editors apply it with "Auto Fix"); false where the user has to choose. */
  preferred: boolean;
}

/** What fixes may draw on beyond the text: facts from the active connection, all optional. */
export interface FixContext {
  /** A fresh commandId; default a random UUID. */
  newCommandId?: () => string;
  /** Parties the user may act as (from its rights), for an empty `actAs`. */
  actAsParties?: readonly string[];
  /** Package id → package name, for package-id template ids (e.g. from the vetted packages). */
  packageNames?: ReadonlyMap<string, string>;
  /** How inserted JSON is indented; default two spaces. */
  indent?: { insertSpaces: boolean; tabSize: number };
  eol?: string;
}

/** Every fix for `problem`, found in `text`; empty when there is no clear fix. */
export function fixesFor(text: string, problem: Problem, context: FixContext = {}): Fix[] {
  const fixer = FIXERS[problem.code];
  return fixer ? fixer(new FixSite(text, problem, context)) : [];
}

/** The problem, its document and context, with the edit helpers the fixers share. */
class FixSite {
  readonly doc: JsonDocument;
  constructor(
    readonly text: string,
    readonly problem: Problem,
    readonly context: FixContext,
  ) {
    this.doc = new JsonDocument(text);
  }

  fix(title: string, edits: TextEdit[], preferred: boolean): Fix {
    return { title, code: this.problem.code, edits, preferred };
  }

  data(name: string): unknown {
    return this.problem.data?.[name];
  }

  /** Sets the value at `path` (added to its object if absent), as jsonc-parser formats it. */
  setValue(path: JSONPath, value: unknown): TextEdit[] {
    return this.setValueIn(this.text, path, value);
  }

  private setValueIn(text: string, path: JSONPath, value: unknown): TextEdit[] {
    const indent = this.context.indent ?? { insertSpaces: true, tabSize: 2 };
    return modify(text, path, value, { formattingOptions: { ...indent, eol: this.context.eol ?? eolOf(this.text) } }).map((e) => ({
      offset: e.offset,
      length: e.length,
      newText: e.content,
    }));
  }

  /**
   * Sets several values in the object `node` at `path`, as one edit of the object (the edits of one
   * insert after another would overlap).
   */
  setValues(node: Node, path: JSONPath, entries: ReadonlyArray<[string, unknown]>): TextEdit[] {
    const before = this.text;
    let text = before;
    for (const [name, value] of entries) text = applyEdits(text, this.setValueIn(text, [...path, name], value));
    // Only the object changed: it is what lies between the unchanged text before and after it.
    const after = before.length - (node.offset + node.length);
    return [{ offset: node.offset, length: node.length, newText: text.slice(node.offset, text.length - after) }];
  }

  /** The jsonc-parser path of a JSON pointer (array indices as numbers), or undefined if the document lacks it. */
  pathOf(pointer: string): JSONPath | undefined {
    const path: JSONPath = [];
    let node = this.doc.root;
    for (const segment of pointerSegments(pointer)) {
      if (node?.type === 'array' && /^\d+$/.test(segment)) {
        path.push(Number(segment));
        node = node.children?.[Number(segment)];
      } else if (node?.type === 'object') {
        path.push(segment);
        node = this.doc.propertyNode(node, segment)?.children?.[1];
      } else {
        return undefined;
      }
    }
    return path;
  }

  /** The object that holds (or should hold) `property`: the problem's path is either the object or the property's value. */
  ownerPath(property: string): JSONPath | undefined {
    const path = this.pathOf(this.problem.path);
    if (!path) return undefined;
    const node = this.doc.nodeAt(this.problem.path);
    return node?.type !== 'object' && path[path.length - 1] === property ? path.slice(0, -1) : path;
  }

  /** The key node the problem's range covers (unknown/duplicate/conflicting keys are reported on the key). */
  keyAtProblem(): Node | undefined {
    const { offset, length } = this.problem;
    const stack: Node[] = this.doc.root ? [this.doc.root] : [];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.type === 'property') {
        const key = node.children?.[0];
        if (key && key.offset === offset && key.length === length) return key;
      }
      for (const child of node.children ?? []) {
        if (child.offset <= offset && offset < child.offset + child.length) stack.push(child);
      }
    }
    return undefined;
  }

  renameKey(key: Node, name: string): TextEdit[] {
    return [{ offset: key.offset, length: key.length, newText: JSON.stringify(name) }];
  }

  /** Removes a property with the comma that separates it from a neighbour. */
  removeProperty(property: Node): TextEdit[] {
    const siblings = property.parent?.children ?? [property];
    const index = siblings.indexOf(property);
    const next = siblings[index + 1];
    const previous = siblings[index - 1];
    if (next) return [{ offset: property.offset, length: next.offset - property.offset, newText: '' }];
    if (previous) {
      const start = previous.offset + previous.length;
      return [{ offset: start, length: property.offset + property.length - start, newText: '' }];
    }
    return [{ offset: property.offset, length: property.length, newText: '' }];
  }

  hasSiblingKey(key: Node, name: string): boolean {
    return (key.parent?.parent?.children ?? []).some((property) => property.children?.[0]?.value === name);
  }
}

type Fixer = (site: FixSite) => Fix[];

const FIXERS: Partial<Record<ProblemCode, Fixer>> = {
  'missing-command-id': (site) => {
    const owner = site.ownerPath('commandId');
    if (!owner) return [];
    const id = (site.context.newCommandId ?? randomUUID)();
    return [site.fix(`Set "commandId" to a fresh UUID`, site.setValue([...owner, 'commandId'], id), true)];
  },

  'empty-act-as': (site) => {
    const owner = site.ownerPath('actAs');
    const parties = site.context.actAsParties ?? [];
    if (!owner) return [];
    // One fix per party the user may act as: preferred only when there is no choice to make.
    return parties.map((party) => site.fix(`Act as ${party}`, site.setValue([...owner, 'actAs'], [party]), parties.length === 1));
  },

  'deprecated-field': (site) => renameOrRemove(site, true),

  'unknown-field': (site) => renameOrRemove(site, false),

  'unknown-variant': (site) => {
    const suggestion = site.data('suggestion');
    const key = site.keyAtProblem();
    const property = key?.parent;
    if (!key || !property) return [];
    const name = String(key.value);
    if (typeof suggestion === 'string') return [site.fix(`Rename "${name}" to "${suggestion}"`, site.renameKey(key, suggestion), true)];
    const value = property.children?.[1];
    const variant = property.parent;
    if (site.data('unwrap') === true && value && variant) {
      // {"value": {"CreateCommand": …}} → {"CreateCommand": …}
      const inner = site.text.slice(value.offset, value.offset + value.length);
      return [site.fix(`Remove the "${name}" wrapper`, [{ offset: variant.offset, length: variant.length, newText: inner }], true)];
    }
    if (site.data('extraKey') === true) return [site.fix(`Remove "${name}"`, site.removeProperty(property), false)];
    return [];
  },

  'package-id-template': (site) => {
    const packageId = site.data('packageId');
    const qualifiedName = site.data('qualifiedName');
    const name = typeof packageId === 'string' ? site.context.packageNames?.get(packageId) : undefined;
    if (!name || typeof qualifiedName !== 'string') return [];
    const replacement = `#${name}:${qualifiedName}`;
    const { offset, length } = site.problem;
    return [site.fix(`Use the package-name form "${replacement}"`, [{ offset, length, newText: JSON.stringify(replacement) }], true)];
  },

  'duplicate-key': (site) => {
    const key = site.keyAtProblem();
    if (!key?.parent) return [];
    // Which value was meant is the user's call, so this is offered but not preferred.
    return [site.fix(`Remove this duplicate "${String(key.value)}"`, site.removeProperty(key.parent), false)];
  },

  'conflicting-fields': (site) => {
    const key = site.keyAtProblem();
    if (!key?.parent) return [];
    return [site.fix(`Remove "${String(key.value)}"`, site.removeProperty(key.parent), false)];
  },

  'missing-field': (site) => {
    if (typeof site.data('field') === 'string' && 'value' in (site.problem.data ?? {})) return missingDamlField(site);
    // A variant case written without its {"value": …} wrapper: {"Vet": {"packages": …}}.
    const missing = site.data('properties');
    const node = site.doc.nodeAt(site.problem.path);
    const hasFields = node?.type === 'object' && (node.children?.length ?? 0) > 0;
    if (!Array.isArray(missing) || missing.length !== 1 || missing[0] !== 'value' || !hasFields) return [];
    const inner = site.text.slice(node.offset, node.offset + node.length);
    return [site.fix('Wrap the fields in {"value": …}', [{ offset: node.offset, length: node.length, newText: `{"value": ${inner}}` }], true)];
  },

  schema: (site) => {
    // A number written as a string ("3" for 3): int64 values are JSON numbers in this API.
    const expected = site.data('expectedType');
    const node = site.doc.nodeAt(site.problem.path);
    if ((expected !== 'integer' && expected !== 'number') || node?.type !== 'string' || typeof node.value !== 'string') return [];
    const pattern = expected === 'integer' ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/;
    if (!pattern.test(node.value)) return [];
    return [site.fix(`Write ${node.value} as a number`, [{ offset: node.offset, length: node.length, newText: node.value }], true)];
  },

  'wrong-kind': (site) => quoteValue(site),

  'bad-int64': (site) => quoteValue(site),

  'bad-numeric': (site) => quoteValue(site, plainDecimal),

  'numeric-as-number': (site) => quoteValue(site, plainDecimal),

  'unknown-template': (site) => replaceString(site, 'Use'),

  'unknown-choice': (site) => replaceString(site, 'Use'),

  'unknown-constructor': (site) => replaceString(site, 'Use'),

  'json-syntax': (site) => {
    // A trailing comma: the problem points at a comma that only whitespace separates from } or ].
    const { offset, length } = site.problem;
    if (length !== 1 || site.text[offset] !== ',' || !/^\s*[}\]]/.test(site.text.slice(offset + 1))) return [];
    return [site.fix('Remove the trailing comma', [{ offset, length: 1, newText: '' }], true)];
  },
};

/** A number (or boolean) where the Daml type is written as a string: `data.suggestion` is the text to quote. */
function quoteValue(site: FixSite, rewrite: (raw: string) => string | undefined = (raw) => raw): Fix[] {
  const suggestion = site.data('suggestion');
  const node = site.doc.nodeAt(site.problem.path);
  if (typeof suggestion !== 'string' || !node || (node.type !== 'number' && node.type !== 'boolean')) return [];
  // As written (digits a double would change stay), in quotes; a Numeric without its exponent.
  const raw = site.text.slice(node.offset, node.offset + node.length);
  const text = rewrite(raw);
  if (text === undefined) return [];
  return [site.fix(`Write ${raw} as ${text === raw ? 'a string' : `"${text}"`}`, [{ offset: node.offset, length: node.length, newText: JSON.stringify(text) }], true)];
}

/** A misspelt name in a string value (template id, choice, constructor): replace it by `data.suggestion`. */
function replaceString(site: FixSite, verb: string): Fix[] {
  const suggestion = site.data('suggestion');
  const node = site.doc.nodeAt(site.problem.path);
  if (typeof suggestion !== 'string' || node?.type !== 'string') return [];
  return [site.fix(`${verb} "${suggestion}"`, [{ offset: node.offset, length: node.length, newText: JSON.stringify(suggestion) }], true)];
}

/**
 * A missing field of a Daml record: rename a key written for it (misspelt, `data.renames`), add it with
 * a value of its type (`data.value`), or add every missing field of the record at once (`data.missing`).
 */
function missingDamlField(site: FixSite): Fix[] {
  const field = String(site.data('field'));
  const record = site.pathOf(site.problem.path);
  const node = site.doc.nodeAt(site.problem.path);
  if (!record || node?.type !== 'object') return [];
  const fixes: Fix[] = [];
  for (const key of stringsOf(site.data('renames'))) {
    const property = node.children?.find((p) => p.children?.[0]?.value === key);
    // Preferred only when the spelling says so: a rename by type alone is a guess.
    if (property?.children?.[0]) fixes.push(site.fix(`Rename "${key}" to "${field}"`, site.renameKey(property.children[0], field), closestName(key, [field]) === field));
  }
  fixes.push(site.fix(`Add "${field}"`, site.setValue([...record, field], site.data('value')), false));
  const missing = site.data('missing');
  if (missing && typeof missing === 'object' && Object.keys(missing).length > 1) {
    fixes.push(site.fix('Add missing fields', site.setValues(node, record, Object.entries(missing)), false));
  }
  return fixes;
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Deprecated and misspelt field names: rename to the suggestion, or remove when it is already set or
 * there is none. A Daml record's unknown field is offered the closest fields not written yet
 * (`data.candidates`, by name and by type) and removal.
 */
function renameOrRemove(site: FixSite, deprecated: boolean): Fix[] {
  const key = site.keyAtProblem();
  if (!key?.parent) return [];
  const name = String(key.value);
  const suggestion = site.data('suggestion');
  const candidates = stringsOf(site.data('candidates')).filter((c) => !site.hasSiblingKey(key, c));
  if (candidates.length > 0) {
    return [
      ...candidates.map((c) => site.fix(`Rename "${name}" to "${c}"`, site.renameKey(key, c), c === suggestion)),
      site.fix(`Remove "${name}"`, site.removeProperty(key.parent), false),
    ];
  }
  if (typeof suggestion === 'string' && !site.hasSiblingKey(key, suggestion)) {
    return [site.fix(`Rename "${name}" to "${suggestion}"`, site.renameKey(key, suggestion), true)];
  }
  // Canton ignores the field: removing it changes nothing but the noise, yet the user may have meant something else.
  const reason = typeof suggestion === 'string' ? ` ("${suggestion}" is already set)` : '';
  return [site.fix(`Remove "${name}"${reason}`, site.removeProperty(key.parent), deprecated && typeof suggestion === 'string')];
}

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Applies edits (non-overlapping, any order) to a text: for tests and for callers without an editor. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  return [...edits]
    .sort((a, b) => b.offset - a.offset)
    .reduce((result, e) => result.slice(0, e.offset) + e.newText + result.slice(e.offset + e.length), text);
}
