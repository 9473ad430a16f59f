/**
 * The JSON Ledger API encoding of Daml values, from the package model: a JSON Schema (draft-07) per
 * type, a direct value checker with Daml-aware messages, and placeholder values for snippets.
 *
 * The rules follow "Daml-LF JSON Encoding" (docs.digitalasset.com/build/3.5/reference/json-api/
 * lf-value-specification.html) as Canton applies them: its transcode JSON codec
 * (`com.digitalasset.transcode.codec.json.JsonCodec`) reads the JSON, then the Ledger API's
 * `ValueValidator` (community/ledger/ledger-api-core/…/validation/ValueValidator.scala) checks the
 * literals; docs/daml-values.md lists each rule with its source and release line. Where the lines
 * differ, the newest (3.5/3.6) decides:
 * records are objects (a missing field is None only for Optional fields); variants are
 * `{"tag": C, "value": v}` (other keys are ignored); enums are the constructor's name; Int64 is a
 * string (3.5 reads only strings); Numeric is a decimal string (a JSON number is read through a
 * Double); Party is 1–255 of letters, digits and ` :-_`; ContractId is the lowercase hex of a V1 or V2
 * contract id; Date is `YYYY-MM-DD`; Timestamp is what Java's ISO_DATE_TIME parses, truncated to
 * microseconds; Optional is `null` or the value, but an Optional of an Optional is an array at every
 * level (`[]` / `[v]`, the outermost included: Canton's codec, not the documentation, which nests one
 * level less);
 * List is an array; TextMap an object; GenMap `[[k, v], …]`; Unit `{}` (its content is ignored).
 */
import { joinPointer } from '../jsonPointer';
import { closestName, nameDistance } from '../spelling';
import type { DamlType, Field } from './model';
import type { TypeLookup } from './packageIndex';
import { numericScale, printType, shapeOf, type TypeShape } from './types';

// ---------------------------------------------------------------- literal formats

const INT64_PATTERN = '^-?[0-9]{1,19}$';
// Months and days in range; impossible days (Feb 30) only the checker refuses.
const DAY = '[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])';
const DATE_PATTERN = `^${DAY}$`;
// What Java's DateTimeFormatter.ISO_DATE_TIME parses (case-insensitive; seconds and fraction optional,
// up to nanoseconds; an offset of at most ±18:00, seconds optional; a zone region after it). Canton
// keeps microseconds: the checker warns when digits beyond them are dropped.
const OFFSET = '([Zz]|[+-]((0[0-9]|1[0-7]):[0-5][0-9](:[0-5][0-9])?|18:00(:00)?))';
const TIMESTAMP_PATTERN = `^${DAY}[Tt]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,9})?)?${OFFSET}(\\[[A-Za-z0-9~/._+:-]+\\])?$`;
/** Daml-LF Party (IdString.Party): 1–255 US-ASCII letters, digits, space, colon, minus, underscore. */
const PARTY_PATTERN = '^[A-Za-z0-9:_ -]{1,255}$';
/**
 * A contract id (Value.ContractId.fromString): lowercase hex bytes, either V1 (`00`, a 32-byte
 * discriminator, a suffix of at most 94 bytes) or V2 (`01`, 12 local bytes, a suffix of at most 33).
 */
const CONTRACT_ID_PATTERN = '^(00([0-9a-f]{2}){32,126}|01([0-9a-f]{2}){12,45})$';
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Numeric has 38 significant digits, `scale` of them after the point. */
const NUMERIC_PRECISION = 38;

/** Numeric of `scale`: at most 38 − scale digits before the point and `scale` after (trailing zeros aside). */
function numericPattern(scale: number | undefined): string {
  // ValueValidator's pattern takes a sign of either kind.
  if (scale === undefined) return '^[+-]?[0-9]+(\\.[0-9]*)?$';
  const fraction = scale === 0 ? '(\\.0*)?' : `(\\.[0-9]{0,${scale}}0*)?`;
  return `^[+-]?[0-9]{1,${NUMERIC_PRECISION - scale}}${fraction}$`;
}

// The checker uses the schema's own patterns, so that both accept the same strings.
const DATE_REGEX = new RegExp(DATE_PATTERN);
const TIMESTAMP_REGEX = new RegExp(TIMESTAMP_PATTERN);
const INT64_REGEX = new RegExp(INT64_PATTERN);
const PARTY_REGEX = new RegExp(PARTY_PATTERN);
const CONTRACT_ID_REGEX = new RegExp(CONTRACT_ID_PATTERN);
const numericRegexes = new Map<number | undefined, RegExp>();

function numericRegex(scale: number | undefined): RegExp {
  let regex = numericRegexes.get(scale);
  if (!regex) numericRegexes.set(scale, (regex = new RegExp(numericPattern(scale))));
  return regex;
}

function isValidDate(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  return y >= 1 && daysInMonth !== undefined && d >= 1 && d <= daysInMonth;
}


// ---------------------------------------------------------------- JSON Schema

/** A JSON Schema (draft-07) object; plain data. */
export type JsonSchema = { [keyword: string]: unknown };

export interface SchemaOptions {
  /** The schema's `title` (e.g. the template id). */
  title?: string;
}

/**
 * A JSON Schema (draft-07) for values of `type` in the JSON Ledger API encoding. Data types go to
 * `definitions` and are referenced with `$ref`, so recursive types end. Every node has a
 * `description` naming the Daml type (and the field, for fields).
 */
export function jsonSchemaFor(type: DamlType, lookup: TypeLookup, options: SchemaOptions = {}): JsonSchema {
  const builder = new SchemaBuilder(lookup);
  const root = builder.schema(type, undefined);
  const schema: JsonSchema = { $schema: 'http://json-schema.org/draft-07/schema#', ...(options.title ? { title: options.title } : {}), ...root };
  if (Object.keys(builder.definitions).length > 0) schema.definitions = builder.definitions;
  return schema;
}

class SchemaBuilder {
  readonly definitions: Record<string, JsonSchema> = {};
  private readonly names = new Map<string, string>();
  private readonly used = new Set<string>();

  constructor(private readonly lookup: TypeLookup) {}

  schema(type: DamlType, label: string | undefined): JsonSchema {
    const description = describe(type, label);
    const shape = shapeOf(type, this.lookup);
    if (shape.kind === 'record' || shape.kind === 'variant' || shape.kind === 'enum') {
      return { $ref: `#/definitions/${this.define(shape)}`, description };
    }
    return { ...this.inline(shape), description };
  }

  /** The definition name of a data type instance, building its definition on first use. */
  private define(shape: TypeShape & { kind: 'record' | 'variant' | 'enum' }): string {
    const key = JSON.stringify(shape.type);
    const known = this.names.get(key);
    if (known) return known;
    const name = this.freshName(printType(shape.type, { qualified: true }));
    this.names.set(key, name);
    // Registered before its body is built, so a recursive reference finds it.
    this.definitions[name] = {};
    Object.assign(this.definitions[name], this.dataSchema(shape), { description: printType(shape.type) });
    return name;
  }

  private freshName(printed: string): string {
    const base = printed.replace(/:/g, '.').replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/_+$/, '');
    let name = base;
    for (let i = 2; this.used.has(name); i++) name = `${base}_${i}`;
    this.used.add(name);
    return name;
  }

  private dataSchema(shape: TypeShape & { kind: 'record' | 'variant' | 'enum' }): JsonSchema {
    switch (shape.kind) {
      case 'record':
        return this.record(shape.fields);
      case 'enum':
        return { type: 'string', enum: shape.constructors };
      case 'variant':
        return {
          type: 'object',
          // Other keys than tag and value are allowed: Canton ignores them (the checker warns).
          oneOf: shape.constructors.map((c) => ({
            type: 'object',
            required: ['tag', 'value'],
            properties: { tag: { const: c.name, description: `constructor ${c.name}` }, value: this.schema(c.type, `${c.name}`) },
            description: `${c.name} ${printType(c.type)}`,
          })),
        };
    }
  }

  private record(fields: readonly Field[]): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    for (const f of fields) properties[f.name] = this.schema(f.type, f.name);
    const required = fields.filter((f) => !this.isOptional(f.type)).map((f) => f.name);
    return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  }

  private isOptional(type: DamlType): boolean {
    return optionalKind(type, this.lookup) === 'simple';
  }

  private inline(shape: TypeShape): JsonSchema {
    switch (shape.kind) {
      case 'builtin':
        return this.builtin(shape);
      case 'unknown':
        // The package with the definition is not known: accept anything rather than report false errors.
        return {};
      case 'not-serializable':
        return { not: {} };
      default:
        return { $ref: `#/definitions/${this.define(shape)}` };
    }
  }

  private builtin(shape: TypeShape & { kind: 'builtin' }): JsonSchema {
    const [first, second] = shape.args;
    switch (shape.builtin) {
      case 'Unit':
        // Canton ignores a Unit's JSON: anything passes (the checker warns about anything but {}).
        return {};
      case 'Bool':
        return { type: 'boolean' };
      case 'Text':
        return { type: 'string' };
      case 'Party':
        return { type: 'string', pattern: PARTY_PATTERN, patternErrorMessage: PARTY_RULE };
      case 'ContractId':
        return { type: 'string', pattern: CONTRACT_ID_PATTERN, patternErrorMessage: CONTRACT_ID_RULE };
      case 'Int64':
        return { type: 'string', pattern: INT64_PATTERN, patternErrorMessage: 'An Int64 as a string of digits, e.g. "42".' };
      case 'Numeric':
      case 'BigNumeric': {
        const scale = shape.builtin === 'Numeric' ? numericScale(shape.args) : undefined;
        return {
          anyOf: [{ type: 'string', pattern: numericPattern(scale), patternErrorMessage: numericHint(scale) }, { type: 'number' }],
        };
      }
      case 'Date':
        return { type: 'string', pattern: DATE_PATTERN, patternErrorMessage: 'A date as YYYY-MM-DD.' };
      case 'Timestamp':
        return { type: 'string', pattern: TIMESTAMP_PATTERN, patternErrorMessage: TIMESTAMP_RULE };
      case 'List':
        return { type: 'array', items: first ? this.schema(first, 'element') : {} };
      case 'TextMap':
        return { type: 'object', additionalProperties: first ? this.schema(first, 'value') : {} };
      case 'GenMap':
        return {
          type: 'array',
          items: {
            type: 'array',
            items: [first ? this.schema(first, 'key') : {}, second ? this.schema(second, 'value') : {}],
            minItems: 2,
            additionalItems: false,
            description: '[key, value]',
          },
        };
      case 'Optional':
        if (first && optionalKind(first, this.lookup)) return this.nestedOptional(shape.type, first);
        return { anyOf: [{ type: 'null' }, first ? this.schema(first, undefined) : {}] };
      default:
        return { not: {} };
    }
  }

  /** An Optional of an Optional: an array at every level, `[]` for None and `[x]` for Some x. */
  private nestedOptional(type: DamlType, inner: DamlType): JsonSchema {
    const shape = shapeOf(inner, this.lookup);
    const items = shape.kind === 'builtin' && shape.builtin === 'Optional' && shape.args[0] ? this.nestedOptional(inner, shape.args[0]) : this.schema(inner, undefined);
    return { type: 'array', maxItems: 1, items, description: `${printType(type)} ([] for None, [x] for Some x)` };
  }
}

function describe(type: DamlType, label: string | undefined): string {
  return label ? `${label}: ${printType(type)}` : printType(type);
}

const PARTY_RULE = 'A party id is 1 to 255 characters: letters, digits, space and : - _ (e.g. "Alice::1220…").';
const CONTRACT_ID_RULE = 'A contract id is lowercase hex: 00 followed by at least 64 hex digits, or 01 followed by at least 24 (as found in a created event).';
const TIMESTAMP_RULE = 'A timestamp as ISO-8601 with a zone, e.g. "2025-01-31T12:00:00Z".';

function numericHint(scale: number | undefined): string {
  return scale === undefined
    ? 'A decimal number as a string, e.g. "1.5".'
    : `A Numeric ${scale} as a decimal string: at most ${NUMERIC_PRECISION - scale} digits before the point and ${scale} after, e.g. "1.5".`;
}

// ---------------------------------------------------------------- checking values

/** Stable ids of value problems; editors and quick fixes branch on these, never on the message. */
/** The builtin types whose JSON form is a string. */
const STRING_BUILTINS = new Set<string>(['Text', 'Party', 'ContractId', 'Date', 'Timestamp', 'Int64', 'Numeric']);

export const VALUE_PROBLEM_CODES = [
  'wrong-kind',
  'missing-field',
  'unknown-field',
  'unknown-constructor',
  'bad-int64',
  'bad-numeric',
  'bad-date',
  'bad-timestamp',
  /** A Party that is not a Daml-LF party id (empty, too long, or a character outside ` :-_`, letters and digits). */
  'bad-party',
  /** A ContractId that is not the lowercase hex of a V1 or V2 contract id. */
  'bad-contract-id',
  /** A Timestamp with digits beyond microseconds: Canton drops them (a warning). */
  'truncated-timestamp',
  /** A Numeric given as a JSON number: Canton reads it through a Double (a warning; `data.suggestion` is the string). */
  'numeric-as-number',
  'not-serializable',
  /** The type refers to a package that is not known: the value could not be checked there. */
  'unknown-type',
  /** A generated placeholder (`"<Numeric 10>"`, `skeletonValue`) not replaced yet. */
  'placeholder',
] as const;

export type ValueProblemCode = (typeof VALUE_PROBLEM_CODES)[number];

export interface ValueProblem {
  /** JSON pointer, relative to the checked value, of the value concerned (for missing fields: the record). */
  path: string;
  code: ValueProblemCode;
  /** Names the Daml type (and the field). */
  message: string;
  severity: 'error' | 'warning';
  /** Facts for quick fixes: `suggestion` (a close known name), `field`, `expected` (the Daml type printed; on every problem with the value's kind or literal). */
  data?: Record<string, unknown>;
}

export interface ValueCheckOptions {
  /**
   * `flag` (default): a generated placeholder (`"<Text>"`) is a problem of its own, whatever its type
   * would make of it; `as-values`: it is read as any other value, as the participant reads it (a Text
   * takes any string, `"<Numeric 10>"` is no Numeric).
   */
  placeholders?: 'flag' | 'as-values';
}

/** Checks a JSON value against a Daml type, as the JSON Ledger API would read it. Returns every problem found. */
export function checkValue(type: DamlType, value: unknown, lookup: TypeLookup, options: ValueCheckOptions = {}): ValueProblem[] {
  const problems: ValueProblem[] = [];
  new ValueChecker(lookup, problems, options.placeholders !== 'as-values').check(type, value, '');
  return problems;
}

/**
 * Where a checked value is: made into a JSON pointer only when a problem there is reported, as most
 * values have none (a pointer string per field checked was a tenth of a commands file's argument checks).
 */
type ValuePath = string | { parent: ValuePath; segment: string | number };

function childPath(parent: ValuePath, segment: string | number): ValuePath {
  return { parent, segment };
}

function pointerOfPath(path: ValuePath): string {
  return typeof path === 'string' ? path : joinPointer(pointerOfPath(path.parent), path.segment);
}

class ValueChecker {
  constructor(
    private readonly lookup: TypeLookup,
    private readonly problems: ValueProblem[],
    private readonly flagPlaceholders: boolean,
  ) {}

  check(type: DamlType, value: unknown, path: ValuePath): void {
    const shape = shapeOf(type, this.lookup);
    switch (shape.kind) {
      case 'record':
        return this.record(shape, value, path);
      case 'variant':
        return this.variant(shape, value, path);
      case 'enum':
        if (typeof value !== 'string') return this.wrongKind(type, value, path);
        if (!shape.constructors.includes(value)) this.unknownConstructor(type, value, shape.constructors, path);
        return;
      case 'builtin':
        return this.builtin(shape, value, path);
      case 'not-serializable':
        return this.report(path, 'not-serializable', `${printType(type)} has no JSON encoding: ${shape.reason}.`);
      case 'unknown':
        return this.report(path, 'unknown-type', `${printType(type, { qualified: true })} is defined in package ${shape.name.packageId}, which is not known: not checked.`, 'warning');
    }
  }

  private record(shape: TypeShape & { kind: 'record' }, value: unknown, path: ValuePath): void {
    if (!isObject(value)) return this.wrongKind(shape.type, value, path);
    const names = shape.fields.map((f) => f.name);
    const unknownKeys = Object.keys(value).filter((key) => !names.includes(key));
    const absent = shape.fields.filter((f) => value[f.name] === undefined);
    for (const key of unknownKeys) {
      const suggestion = closestName(key, names);
      // The fields this one may stand for: those not written yet, the closest by name and by type first.
      const candidates = this.closestFields(key, value[key], absent).map((f) => f.name);
      this.report(
        childPath(path, key),
        'unknown-field',
        `${printType(shape.type)} has no field "${key}"${suggestion ? `: did you mean "${suggestion}"?` : '.'}`,
        // Canton accepts an unknown field whose value is null (for upgrades); anything else is refused.
        value[key] === null ? 'warning' : 'error',
        suggestion || candidates.length ? { ...(suggestion ? { suggestion } : {}), ...(candidates.length ? { candidates } : {}) } : undefined,
      );
    }
    const required = absent.filter((f) => !this.isOptional(f.type));
    // What the quick fixes insert: a complete value of each missing field's type (placeholders flagged until filled).
    const missing = required.length > 0 ? Object.fromEntries(required.map((f) => [f.name, skeletonValue(f.type, this.lookup)])) : undefined;
    for (const field of shape.fields) {
      const fieldValue = value[field.name];
      if (fieldValue !== undefined) {
        this.check(field.type, fieldValue, childPath(path, field.name));
      } else if (missing && field.name in missing) {
        // The keys written that may be this field misspelt: those whose closest field it is.
        const renames = unknownKeys.filter((key) => this.closestFields(key, value[key], absent)[0] === field);
        this.report(path, 'missing-field', `Missing field "${field.name}" (${printType(field.type)}) of ${printType(shape.type)}.`, 'error', {
          field: field.name,
          expected: printType(field.type),
          value: missing[field.name],
          missing,
          ...(renames.length ? { renames } : {}),
        });
      }
    }
  }

  /**
   * The fields `key` may have been meant for, best first: the one "did you mean" names, then those its
   * value fits, then by spelling (a name that holds the other, `validator` for `validatorParty`, first).
   */
  private closestFields(key: string, written: unknown, fields: readonly Field[]): Field[] {
    const suggestion = closestName(key, fields.map((f) => f.name));
    const ranked = fields.map((field) => ({ field, named: field.name === suggestion, fits: this.fits(field.type, written), distance: nameDistance(key, field.name) }));
    ranked.sort((a, b) => Number(b.named) - Number(a.named) || Number(b.fits) - Number(a.fits) || a.distance - b.distance);
    return ranked.slice(0, 3).map((r) => r.field);
  }

  /** Whether `value` is a value of `type` with no error (a placeholder counts as a value here). */
  private fits(type: DamlType, value: unknown): boolean {
    const problems: ValueProblem[] = [];
    new ValueChecker(this.lookup, problems, false).check(type, value, '');
    return !problems.some((p) => p.severity === 'error');
  }

  private variant(shape: TypeShape & { kind: 'variant' }, value: unknown, path: ValuePath): void {
    if (!isObject(value)) return this.wrongKind(shape.type, value, path, '{"tag": …, "value": …}');
    for (const key of Object.keys(value)) {
      if (key !== 'tag' && key !== 'value') {
        // Canton's codec reads only these two keys and ignores the rest.
        this.report(childPath(path, key), 'unknown-field', `A variant (${printType(shape.type)}) has only "tag" and "value": Canton ignores "${key}".`, 'warning');
      }
    }
    for (const key of ['tag', 'value'] as const) {
      if (!(key in value)) this.report(path, 'missing-field', `Missing "${key}" of the variant ${printType(shape.type)}.`, 'error', { field: key });
    }
    if (!('tag' in value)) return;
    const names = shape.constructors.map((c) => c.name);
    const constructor = shape.constructors.find((c) => c.name === value.tag);
    if (typeof value.tag !== 'string') return this.report(childPath(path, 'tag'), 'wrong-kind', `The tag of ${printType(shape.type)} is a constructor name: one of ${names.join(', ')}.`);
    if (!constructor) return this.unknownConstructor(shape.type, value.tag, names, childPath(path, 'tag'));
    if ('value' in value) this.check(constructor.type, value.value, childPath(path, 'value'));
  }

  private builtin(shape: TypeShape & { kind: 'builtin' }, value: unknown, path: ValuePath): void {
    const { type, args } = shape;
    const [first, second] = args;
    // Every placeholder starts with "<": the type is printed only for a value that could be one.
    if (this.flagPlaceholders && typeof value === 'string' && value.startsWith('<') && PLACEHOLDER_BUILTINS.has(shape.builtin) && value === valuePlaceholder(type)) {
      return this.report(path, 'placeholder', `Fill in this ${printType(type)}: ${JSON.stringify(value)} is a placeholder.`, 'error', { expected: printType(type) });
    }
    switch (shape.builtin) {
      case 'Unit':
        // Canton's codec reads any JSON as (): what is written there is ignored.
        if (!isObject(value)) return this.wrongKind(type, value, path, '{}', 'warning');
        for (const key of Object.keys(value)) this.report(childPath(path, key), 'unknown-field', `() (Unit) is written {} and has no fields: Canton ignores "${key}".`, 'warning');
        return;
      case 'Bool':
        if (typeof value !== 'boolean') this.wrongKind(type, value, path);
        return;
      case 'Text':
        if (typeof value !== 'string') this.wrongKind(type, value, path);
        return;
      case 'Party':
        if (typeof value !== 'string') return this.wrongKind(type, value, path);
        if (!PARTY_REGEX.test(value)) this.report(path, 'bad-party', `Not a Party: ${quoted(value)}. ${PARTY_RULE}`, 'error', { expected: 'Party' });
        return;
      case 'ContractId':
        if (typeof value !== 'string') return this.wrongKind(type, value, path);
        if (!CONTRACT_ID_REGEX.test(value)) this.report(path, 'bad-contract-id', `Not a ${printType(type)}: ${quoted(value)}. ${CONTRACT_ID_RULE}`, 'error', { expected: printType(type) });
        return;
      case 'Int64':
        return this.int64(type, value, path);
      case 'Numeric':
      case 'BigNumeric':
        return this.numeric(type, shape.builtin === 'Numeric' ? numericScale(args) : undefined, value, path);
      case 'Date':
        if (typeof value !== 'string') return this.wrongKind(type, value, path);
        if (!DATE_REGEX.test(value) || !isValidDate(value)) this.report(path, 'bad-date', `Not a Date: "${value}" (write YYYY-MM-DD, e.g. "2025-01-31").`, 'error', { expected: 'Date' });
        return;
      case 'Timestamp':
        if (typeof value !== 'string') return this.wrongKind(type, value, path);
        if (!TIMESTAMP_REGEX.test(value) || !isValidDate(value)) {
          return this.report(path, 'bad-timestamp', `Not a Timestamp: "${value}" (write ISO-8601 with a zone, e.g. "2025-01-31T12:00:00Z").`, 'error', { expected: 'Timestamp' });
        }
        return this.timestampPrecision(value, path);
      case 'List':
        if (!Array.isArray(value)) return this.wrongKind(type, value, path, 'an array');
        if (first) value.forEach((item, i) => this.check(first, item, childPath(path, i)));
        return;
      case 'TextMap':
        if (!isObject(value)) return this.wrongKind(type, value, path, 'an object');
        if (first) for (const [key, item] of Object.entries(value)) this.check(first, item, childPath(path, key));
        return;
      case 'GenMap':
        return this.genMap(type, first, second, value, path);
      case 'Optional':
        if (first && optionalKind(first, this.lookup)) return this.nestedOptional(type, first, value, path);
        if (value !== null && first) this.check(first, value, path);
        return;
      default:
        this.report(path, 'not-serializable', `${printType(type)} has no JSON encoding.`);
    }
  }

  /**
   * An Optional of an Optional, as Canton's codec reads it (its `OptionalProcessor` reads an array at
   * every level of the chain, the outermost included): `[]` is None, `[x]` is Some x; null is refused.
   */
  private nestedOptional(type: DamlType, inner: DamlType, value: unknown, path: ValuePath): void {
    if (!Array.isArray(value) || value.length > 1) {
      return this.wrongKind(type, value, path, '[] for None, [x] for Some x: Canton reads an array at every level of an Optional inside an Optional');
    }
    if (value.length === 0) return;
    const shape = shapeOf(inner, this.lookup);
    const at = childPath(path, 0);
    if (shape.kind === 'builtin' && shape.builtin === 'Optional' && shape.args[0]) return this.nestedOptional(inner, shape.args[0], value[0], at);
    this.check(inner, value[0], at);
  }

  private genMap(type: DamlType, key: DamlType | undefined, item: DamlType | undefined, value: unknown, path: ValuePath): void {
    if (!Array.isArray(value)) return this.wrongKind(type, value, path, '[[key, value], …]');
    value.forEach((entry, i) => {
      const at = childPath(path, i);
      if (!Array.isArray(entry) || entry.length !== 2) return this.report(at, 'wrong-kind', `An entry of ${printType(type)} is a pair [key, value].`);
      if (key) this.check(key, entry[0], childPath(at, 0));
      if (item) this.check(item, entry[1], childPath(at, 1));
    });
  }

  private int64(type: DamlType, value: unknown, path: ValuePath): void {
    if (typeof value === 'number') {
      return this.report(path, 'bad-int64', `Int64 is sent as a string: write "${value}".`, 'error', { expected: 'Int64', ...(Number.isSafeInteger(value) ? { suggestion: String(value) } : {}) });
    }
    if (typeof value !== 'string') return this.wrongKind(type, value, path);
    const ok = INT64_REGEX.test(value) && BigInt(value) >= INT64_MIN && BigInt(value) <= INT64_MAX;
    if (!ok) this.report(path, 'bad-int64', `Not an Int64: "${value}" (a whole number from -2^63 to 2^63-1, as a string).`, 'error', { expected: 'Int64' });
  }

  private numeric(type: DamlType, scale: number | undefined, value: unknown, path: ValuePath): void {
    if (typeof value === 'number') return this.numericNumber(type, scale, value, path);
    if (typeof value !== 'string') return this.wrongKind(type, value, path);
    if (!numericRegex(scale).test(value)) {
      this.report(path, 'bad-numeric', `Not a ${printType(type)}: ${JSON.stringify(value)}. ${numericHint(scale)}`, 'error', { expected: printType(type) });
    }
  }

  /**
   * Canton's codec reads a JSON number for a Numeric as a Double and passes on Java's
   * `Double.toString` of it, which has an exponent below 10^-3 and from 10^7 up; the ValueValidator
   * refuses an exponent. Every other number may lose digits through the Double.
   */
  private numericNumber(type: DamlType, scale: number | undefined, value: number, path: ValuePath): void {
    const printed = printType(type);
    const magnitude = Math.abs(value);
    if (!Number.isFinite(value) || (magnitude !== 0 && (magnitude < 1e-3 || magnitude >= 1e7))) {
      return this.report(
        path,
        'bad-numeric',
        `Canton refuses the number ${value} as a ${printed}: it reads a JSON number through a Double, which Java prints with an exponent below 0.001 and from 10000000 up. Write it as a string.`,
        'error',
        { expected: printed, ...(Number.isFinite(value) ? { suggestion: plainDecimal(String(value)) } : {}) },
      );
    }
    const text = numberText(value);
    if (text === undefined || !numericRegex(scale).test(text)) {
      return this.report(path, 'bad-numeric', `Not a ${printed}: ${JSON.stringify(value)}. ${numericHint(scale)}`, 'error', { expected: printed });
    }
    this.report(path, 'numeric-as-number', `A ${printed} given as a JSON number is read through a Double: digits can be lost. Write it as a string.`, 'warning', {
      expected: printed,
      suggestion: text,
    });
  }

  /** Canton keeps microseconds (Java's nanoseconds divided by 1000): further non-zero digits are dropped. */
  private timestampPrecision(value: string, path: ValuePath): void {
    const fraction = /[.]([0-9]+)/.exec(value.slice(16))?.[1] ?? '';
    if (!/[1-9]/.test(fraction.slice(6))) return;
    const kept = value.slice(0, 16) + value.slice(16).replace(`.${fraction}`, `.${fraction.slice(0, 6)}`);
    this.report(path, 'truncated-timestamp', `Canton keeps microseconds: "${value}" is read as "${kept}".`, 'warning', { suggestion: kept });
  }

  private isOptional(type: DamlType): boolean {
    return optionalKind(type, this.lookup) === 'simple';
  }

  private wrongKind(type: DamlType, value: unknown, path: ValuePath, expected?: string, severity: 'error' | 'warning' = 'error'): void {
    const printed = printType(type);
    // A number or boolean where the JSON form is a string: quoting it is the fix.
    const quote = (typeof value === 'number' || typeof value === 'boolean') && this.encodedAsString(type);
    const ignored = severity === 'warning' ? ' Canton ignores it.' : '';
    this.report(path, 'wrong-kind', `Expected ${printed}${expected ? ` (${expected})` : ''}, got ${kindOf(value)}.${ignored}`, severity, quote ? { expected: printed, suggestion: String(value) } : { expected: printed });
  }

  private encodedAsString(type: DamlType): boolean {
    const shape = shapeOf(type, this.lookup);
    return shape.kind === 'enum' || (shape.kind === 'builtin' && STRING_BUILTINS.has(shape.builtin));
  }

  private unknownConstructor(type: DamlType, name: string, names: string[], path: ValuePath): void {
    const suggestion = closestName(name, names);
    this.report(
      path,
      'unknown-constructor',
      `${printType(type)} has no constructor "${name}"${suggestion ? `: did you mean "${suggestion}"?` : ''} (one of ${names.join(', ')}).`,
      'error',
      { expected: printType(type), ...(suggestion ? { suggestion } : {}) },
    );
  }

  private report(path: ValuePath, code: ValueProblemCode, message: string, severity: 'error' | 'warning' = 'error', data?: Record<string, unknown>): void {
    this.problems.push({ path: pointerOfPath(path), code, message, severity, ...(data ? { data } : {}) });
  }
}

/**
 * Whether `type` is an Optional: `simple` (null for None; a record field may be left out) or `nested`
 * (of an Optional: arrays at every level, and Canton refuses null and a left-out field, since its
 * codec reads the missing value as null).
 */
export function optionalKind(type: DamlType, lookup: TypeLookup): 'simple' | 'nested' | undefined {
  const shape = shapeOf(type, lookup);
  if (!(shape.kind === 'builtin' && shape.builtin === 'Optional')) return undefined;
  const inner = shape.args[0] && shapeOf(shape.args[0], lookup);
  return inner && inner.kind === 'builtin' && inner.builtin === 'Optional' ? 'nested' : 'simple';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string value for a message, shortened; an empty one named as such. */
function quoted(value: string): string {
  if (value === '') return 'an empty string';
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value === 'number' ? 'the number' : typeof value === 'boolean' ? 'the boolean' : typeof value} ${String(value)}`;
}

/**
 * The text of a JSON number as plain decimal digits, exactly (`1.5e-7` → `0.00000015`); undefined
 * when it has no exponent form we expand (an exponent beyond ±1000 would make a huge string).
 */
export function plainDecimal(text: string): string | undefined {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  if (Math.abs(exponent) > 1000) return undefined;
  if (exponent === 0) return text;
  const digits = whole + fraction;
  const point = whole.length + exponent;
  const plain =
    point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return sign + plain.replace(/^0+(?=[0-9])/, '');
}

/** A JSON number as plain decimal text (no exponent); undefined for numbers that cannot be written so. */
function numberText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const text = String(value);
  return /e/i.test(text) ? undefined : text;
}

// ---------------------------------------------------------------- placeholders

/**
 * The builtins whose values have no neutral default: a generated value of one is the type's name in
 * angle brackets (`"<Numeric 10>"`), which the checker flags until it is replaced. A value that could
 * be meant ("0.0", "") would pass the checks and fail on the ledger (a precondition), or be sent as is.
 */
const PLACEHOLDER_BUILTINS = new Set<string>(['Text', 'Party', 'ContractId', 'Int64', 'Numeric', 'BigNumeric', 'Date', 'Timestamp']);

/** The placeholder of a value of `type` (one of PLACEHOLDER_BUILTINS): `"<Party>"`, `"<ContractId Iou>"`. */
export function valuePlaceholder(type: DamlType): string {
  return `<${printType(type)}>`;
}

/**
 * A complete placeholder value of `type` for snippets and new command files: a marked placeholder
 * (`valuePlaceholder`) for Text, Party, ContractId, Int64, Numeric, Date and Timestamp, flagged until
 * replaced; the first enum constructor, the first variant constructor that does not recurse, false,
 * null for Optional ([] for an Optional of an Optional), [] / {} for collections, which are valid as
 * they are.
 */
export function skeletonValue(type: DamlType, lookup: TypeLookup): unknown {
  try {
    return skeleton(type, lookup, new Set());
  } catch (error) {
    if (error instanceof RecursiveSkeleton) return {};
    throw error;
  }
}

/** Thrown when a placeholder would need itself (a record that contains itself without an Optional or list in between). */
class RecursiveSkeleton extends Error {}

function skeleton(type: DamlType, lookup: TypeLookup, building: ReadonlySet<string>): unknown {
  const shape = shapeOf(type, lookup);
  const key = JSON.stringify(shape.type);
  if (building.has(key)) throw new RecursiveSkeleton();
  const inner = new Set(building).add(key);
  switch (shape.kind) {
    case 'record':
      return Object.fromEntries(shape.fields.map((f) => [f.name, skeleton(f.type, lookup, inner)]));
    case 'enum':
      return shape.constructors[0] ?? '';
    case 'variant':
      for (const constructor of shape.constructors) {
        try {
          return { tag: constructor.name, value: skeleton(constructor.type, lookup, inner) };
        } catch (error) {
          if (!(error instanceof RecursiveSkeleton)) throw error;
        }
      }
      throw new RecursiveSkeleton();
    case 'builtin':
      if (optionalKind(type, lookup) === 'nested') return [];
      if (PLACEHOLDER_BUILTINS.has(shape.builtin)) return valuePlaceholder(shape.type);
      // A copy: callers may fill the placeholder in.
      return structuredClone(BUILTIN_SKELETONS[shape.builtin] ?? null);
    default:
      return null;
  }
}

const BUILTIN_SKELETONS: Partial<Record<string, unknown>> = {
  Unit: {},
  Bool: false,
  List: [],
  TextMap: {},
  GenMap: [],
  Optional: null,
};
