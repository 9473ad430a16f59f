/**
 * Turns ajv errors (from the generated validators, compiled with `allErrors` and `verbose`, so each error
 * carries its `parentSchema` and `data`) into one precise, readable problem per mistake.
 */
import type { ErrorObject } from 'ajv';
import { joinPointer, pointerSegments } from '../jsonPointer';
import { closestName } from '../spelling';
import { isJsonObject, type JsonDocument, type Range, rangeOf } from './jsonDocument';
import { RENAMED_FIELDS } from './names';
import type { ProblemCode, ProblemDraft } from './problems';

/** The parts of our schemas' nodes this module reads (the schemas are in media/schemas/). */
interface SchemaNode {
  properties?: Record<string, unknown>;
  additionalProperties?: unknown;
  minProperties?: number;
  maxProperties?: number;
  anyOf?: SchemaNode[];
  required?: string[];
  errorMessage?: string;
  patternErrorMessage?: string;
  /** On variants that accept the API's `Empty` case: why it is only worth a warning there. */
  unsetCaseMessage?: string;
}

/** Fields whose absence or emptiness gets its own code and explanation. */
const ESSENTIAL_FIELDS: Record<string, { code: ProblemCode; hint: string }> = {
  commandId: {
    code: 'missing-command-id',
    hint: 'Canton deduplicates submissions by (userId, actAs, commandId); use a fresh unique id per change, e.g. a UUID.',
  },
  actAs: {
    code: 'empty-act-as',
    hint: 'List at least one party to submit as; your user needs CanActAs rights for it.',
  },
  changes: {
    code: 'empty-changes',
    hint: 'List at least one change: {"operation": {"Vet": …}} or {"operation": {"Unvet": …}}.',
  },
};

export function schemaProblems(errors: readonly ErrorObject[], doc: JsonDocument): ProblemDraft[] {
  const problems: ProblemDraft[] = [];
  const combinators = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const variantErrors = new Map<string, ErrorObject[]>();
  const missingFields = new Map<string, string[]>();

  for (const error of errors) {
    // Branch errors of anyOf/oneOf are noise; the combinator error itself gets one message.
    if (combinators.some((c) => isInside(error, c))) continue;
    if (isVariantNode(error.parentSchema) && VARIANT_KEYWORDS.has(error.keyword)) {
      addTo(variantErrors, error.instancePath, error);
    } else if (error.keyword === 'required') {
      addTo(missingFields, error.instancePath, String(error.params.missingProperty));
    } else {
      const problem = describe(error, doc);
      if (problem) problems.push(problem);
    }
  }
  for (const [pointer, group] of variantErrors) problems.push(...variantProblems(pointer, group, doc));
  for (const [pointer, fields] of missingFields) problems.push(...missingFieldProblems(pointer, fields, doc));
  return problems;
}

function addTo<T>(groups: Map<string, T[]>, key: string, item: T): void {
  const group = groups.get(key);
  if (group) group.push(item);
  else groups.set(key, [item]);
}

function describe(error: ErrorObject, doc: JsonDocument): ProblemDraft | undefined {
  const parent = schemaNode(error.parentSchema);
  switch (error.keyword) {
    case 'if': // "must match then/else": the branch's own errors say what is wrong
    case 'propertyNames': // reported through the inner error, which names the key
      return undefined;
    case 'additionalProperties':
      return unknownField(error, parent, doc);
    case 'anyOf':
    case 'oneOf':
      return noAlternative(error, parent, doc);
    case 'false schema':
      return forbiddenField(error, doc);
  }

  if (error.propertyName !== undefined) {
    // A key failed `propertyNames` (e.g. a party id in filtersByParty): point at the key.
    const pointer = joinPointer(error.instancePath, error.propertyName);
    return {
      path: pointer,
      message: `Key "${error.propertyName}": ${valueMessage(error, parent)}`,
      severity: 'error',
      code: 'schema',
      ...keyRange(doc, error.instancePath, error.propertyName),
    };
  }

  const field = lastSegment(error.instancePath);
  const essential = field !== undefined ? ESSENTIAL_FIELDS[field] : undefined;
  if (essential && (error.keyword === 'minItems' || error.keyword === 'minLength')) {
    return {
      path: error.instancePath,
      message: `"${field}" is empty. ${essential.hint}`,
      severity: 'error',
      code: essential.code,
      ...valueRange(doc, error.instancePath),
      data: { property: field },
    };
  }
  return {
    path: error.instancePath,
    message: valueMessage(error, parent),
    severity: 'error',
    code: 'schema',
    ...valueRange(doc, error.instancePath),
    // The expected JSON type lets a quick fix turn "30" into 30.
    ...(error.keyword === 'type' ? { data: { expectedType: String(error.params.type) } } : {}),
  };
}

/** The message for a value that fails a plain keyword (type, enum, pattern, length, range, …). */
function valueMessage(error: ErrorObject, parent: SchemaNode): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const expected = String(params.type);
      const found = jsonTypeOf(error.data);
      const numericString =
        (expected === 'integer' || expected === 'number') && typeof error.data === 'string' && /^-?\d+(\.\d+)?$/.test(error.data);
      return (
        `Expected ${withArticle(expected)}, found ${withArticle(found)}.` +
        (numericString ? ` Write ${error.data} without quotes: int64 values such as offsets are JSON numbers in this API.` : '')
      );
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String).join(', ');
      const unset = typeof error.data === 'string' && error.data.endsWith('_UNSPECIFIED');
      return unset
        ? `${error.data} means "unset" and is rejected as a missing value. Expected one of: ${allowed}.`
        : `${JSON.stringify(error.data)} is not allowed. Expected one of: ${allowed}.`;
    }
    case 'pattern':
      return parent.patternErrorMessage ?? `Does not match the expected format ${String(params.pattern)}.`;
    case 'minLength':
      return params.limit === 1 ? 'Must not be empty.' : `Must be at least ${String(params.limit)} characters long.`;
    case 'maxLength':
      return `Must be at most ${String(params.limit)} characters long.`;
    case 'minItems':
      return `Must contain at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}.`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `Must be ${String(params.comparison)} ${String(params.limit)}.`;
    default:
      return capitalise(error.message ?? `Fails "${error.keyword}".`);
  }
}

function unknownField(error: ErrorObject, parent: SchemaNode, doc: JsonDocument): ProblemDraft {
  const key = String(error.params.additionalProperty);
  const known = Object.keys(parent.properties ?? {});
  const present = isJsonObject(error.data) ? error.data : {};
  const common = { path: joinPointer(error.instancePath, key), severity: 'warning' as const, ...keyRange(doc, error.instancePath, key) };

  const replacement = RENAMED_FIELDS[key];
  if (replacement && known.includes(replacement)) {
    return {
      ...common,
      code: 'deprecated-field',
      message:
        `"${key}" is the pre-Canton-3 name of "${replacement}"; Canton ignores it silently.` +
        (replacement in present ? ` Remove it ("${replacement}" is already set).` : ` Rename it to "${replacement}".`),
      data: { field: key, suggestion: replacement },
    };
  }
  const suggestion = closestName(
    key,
    known.filter((name) => !(name in present)),
  );
  return {
    ...common,
    code: 'unknown-field',
    message: `Unknown field "${key}": Canton ignores it silently.` + (suggestion ? ` Did you mean "${suggestion}"?` : ''),
    data: suggestion ? { field: key, suggestion } : { field: key },
  };
}

/** One problem per essential field, and one for all other fields missing from the same object. */
function missingFieldProblems(pointer: string, fields: string[], doc: JsonDocument): ProblemDraft[] {
  const range = anchorRange(doc, pointer);
  const problems: ProblemDraft[] = [];
  const others: string[] = [];
  for (const field of fields) {
    const essential = ESSENTIAL_FIELDS[field];
    if (!essential) others.push(field);
    else {
      problems.push({
        path: pointer,
        message: `Missing required field "${field}". ${essential.hint}`,
        severity: 'error',
        code: essential.code,
        ...range,
        data: { property: field },
      });
    }
  }
  if (others.length > 0) {
    const names = others.map((f) => `"${f}"`).join(', ');
    // In our schemas a required `value` is always the wrapper of a variant case ({"Vet": {"value": {…}}}).
    const wrapperHint = others.includes('value') ? ' This case wraps its content as {"value": …}.' : '';
    problems.push({
      path: pointer,
      message: (others.length === 1 ? `Missing required field ${names}.` : `Missing required fields ${names}.`) + wrapperHint,
      severity: 'error',
      code: 'missing-field',
      ...range,
      data: { properties: others },
    });
  }
  return problems;
}

/** anyOf/oneOf: our schemas only use them for "at least one of these fields". */
function noAlternative(error: ErrorObject, parent: SchemaNode, doc: JsonDocument): ProblemDraft {
  const alternatives = parent[error.keyword as 'anyOf'] ?? [];
  const fieldSets = alternatives.map((a) => a.required ?? []);
  if (fieldSets.every((fields) => fields.length === 1)) {
    const fields = fieldSets.map(([field]) => field);
    return {
      path: error.instancePath,
      message: `Needs at least one of ${fields.map((f) => `"${f}"`).join(', ')}.`,
      severity: 'error',
      code: 'missing-field',
      ...anchorRange(doc, error.instancePath),
      data: { oneOf: fields },
    };
  }
  return {
    path: error.instancePath,
    message: 'Does not match any of the allowed forms.',
    severity: 'error',
    code: 'schema',
    ...anchorRange(doc, error.instancePath),
  };
}

/** A `false` property schema: in our schemas, `dependencies: {a: {properties: {b: false}}}` means "not both". */
function forbiddenField(error: ErrorObject, doc: JsonDocument): ProblemDraft {
  const segments = pointerSegments(error.instancePath);
  const field = segments[segments.length - 1];
  const objectPointer = error.instancePath.slice(0, error.instancePath.lastIndexOf('/'));
  const conflict = /\/dependencies\/([^/]+)\/properties\/[^/]+\/false schema$/.exec(error.schemaPath);
  const range = keyRange(doc, objectPointer, field);
  if (conflict) {
    return {
      path: error.instancePath,
      message: `Set either "${conflict[1]}" or "${field}", not both.`,
      severity: 'error',
      code: 'conflicting-fields',
      ...range,
      data: { fields: [conflict[1], field] },
    };
  }
  return { path: error.instancePath, message: `"${field}" is not allowed here.`, severity: 'error', code: 'schema', ...range };
}

// ------------------------------------------------------------------ variants

/** Keywords that carry the shape of a single-key variant object (see {@link isVariantNode}). */
const VARIANT_KEYWORDS = new Set(['type', 'additionalProperties', 'minProperties', 'maxProperties']);

/**
 * Our schemas encode a Canton variant (`{"CreateCommand": …}`, `{"Vet": …}`, …) as an object with the
 * cases as properties, `additionalProperties: false` and exactly one property. That gives precise errors
 * and completions, where `oneOf` would give one error per case.
 */
function isVariantNode(schema: unknown): boolean {
  const node = schemaNode(schema);
  return node.minProperties === 1 && node.maxProperties === 1 && node.additionalProperties === false;
}

function variantProblems(pointer: string, errors: ErrorObject[], doc: JsonDocument): ProblemDraft[] {
  const parent = schemaNode(errors[0].parentSchema);
  const cases = Object.keys(parent.properties ?? {});
  const expected = parent.errorMessage ?? `Expected one of ${cases.join(', ')}.`;
  const data = isJsonObject(errors[0].data) ? errors[0].data : {};
  const keys = Object.keys(data);
  const knownKeys = keys.filter((k) => cases.includes(k));
  const unknownKeys = keys.filter((k) => !cases.includes(k));
  const base = { severity: 'error' as const, data: { expected: cases } };

  if (errors.some((e) => e.keyword === 'type')) {
    return [{ ...base, path: pointer, code: 'schema', message: expected, ...valueRange(doc, pointer) }];
  }
  if (errors.some((e) => e.keyword === 'minProperties')) {
    return [{ ...base, path: pointer, code: 'schema', message: expected, ...anchorRange(doc, pointer) }];
  }
  if (knownKeys.length === 0 && unknownKeys.length > 1) {
    // Typically the fields of a case written without the case key around them.
    return [
      {
        ...base,
        path: pointer,
        code: 'unknown-variant',
        message: `${expected} Found ${unknownKeys.map((k) => `"${k}"`).join(', ')}; wrap the fields in the case key, e.g. {"${cases[0]}": {…}}.`,
        ...anchorRange(doc, pointer),
      },
    ];
  }

  const problems: ProblemDraft[] = unknownKeys.map((key) => {
    // Some variants take the API's unset case, meaning "as if left out": legal, but better omitted.
    if (key === 'Empty' && typeof parent.unsetCaseMessage === 'string' && knownKeys.length === 0) {
      return { severity: 'warning' as const, path: joinPointer(pointer, key), code: 'unset-variant' as const, message: parent.unsetCaseMessage, ...keyRange(doc, pointer, key), data: { expected: cases } };
    }
    const suggestion = knownKeys.length === 0 ? closestName(key, cases) : undefined;
    const wrapped = isJsonObject(data[key]) ? Object.keys(data[key]).find((k) => cases.includes(k)) : undefined;
    const message =
      key === 'Empty'
        ? `"Empty" is the API's "unset" case and is not accepted here. ${expected}`
        : knownKeys.length > 0
          ? `Unexpected key "${key}" next to "${knownKeys[0]}": this object takes exactly one key.`
          : wrapped
            ? `No "${key}" wrapper here: write {"${wrapped}": …} directly.`
            : `"${key}" is not a valid case here. ${expected}` + (suggestion ? ` Did you mean "${suggestion}"?` : '');
    return {
      ...base,
      path: joinPointer(pointer, key),
      code: 'unknown-variant',
      message,
      ...keyRange(doc, pointer, key),
      // What a quick fix needs: the name to rename to, a wrapper to drop, or a key that must go.
      data: { expected: cases, ...(suggestion ? { suggestion } : {}), ...(wrapped ? { unwrap: true } : {}), ...(knownKeys.length > 0 ? { extraKey: true } : {}) },
    };
  });
  if (knownKeys.length > 1) {
    problems.push({
      ...base,
      path: joinPointer(pointer, knownKeys[1]),
      code: 'unknown-variant',
      message: `Only one of ${cases.join(', ')} per object; found ${knownKeys.map((k) => `"${k}"`).join(' and ')}.`,
      ...keyRange(doc, pointer, knownKeys[1]),
    });
  }
  return problems;
}

// ------------------------------------------------------------------ helpers

function isInside(error: ErrorObject, combinator: ErrorObject): boolean {
  return (
    error !== combinator &&
    error.schemaPath.startsWith(`${combinator.schemaPath}/`) &&
    (error.instancePath === combinator.instancePath || error.instancePath.startsWith(`${combinator.instancePath}/`))
  );
}

/** The whole value if it is a scalar or an empty `[]`/`{}`; for other objects and arrays, just their anchor. */
function valueRange(doc: JsonDocument, pointer: string): Range {
  const node = doc.nodeAt(pointer);
  if (!node) return rootAnchor(doc);
  return node.children?.length ? doc.anchorOf(node) : rangeOf(node);
}

function anchorRange(doc: JsonDocument, pointer: string): Range {
  const node = doc.nodeAt(pointer);
  return node ? doc.anchorOf(node) : rootAnchor(doc);
}

function keyRange(doc: JsonDocument, objectPointer: string, key: string): Range {
  const objectNode = doc.nodeAt(objectPointer);
  const keyNode = objectNode?.type === 'object' ? doc.propertyNode(objectNode, key)?.children?.[0] : undefined;
  return keyNode ? rangeOf(keyNode) : anchorRange(doc, objectPointer);
}

function rootAnchor(doc: JsonDocument): Range {
  return doc.root ? doc.anchorOf(doc.root) : { offset: 0, length: 0 };
}

function schemaNode(schema: unknown): SchemaNode {
  return isJsonObject(schema) ? (schema as SchemaNode) : {};
}

function lastSegment(pointer: string): string | undefined {
  const segments = pointerSegments(pointer);
  return segments[segments.length - 1];
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function withArticle(type: string): string {
  if (type === 'null') return 'null';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1) + (text.endsWith('.') ? '' : '.');
}
