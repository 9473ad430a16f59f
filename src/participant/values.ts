/**
 * Daml values in the participant: a submitted value is checked against its Daml-LF type with the
 * core's checker and refused with the error Canton gives, then normalised the way Canton echoes it
 * back (Numerics padded to their scale, Int64 as strings, absent Optional fields as null).
 */
import { pointerSegments } from '../core/jsonPointer';
import { optionalKind, checkValue as problemsOf, type ValueProblem } from '../core/daml/jsonEncoding';
import type { DamlType } from '../core/daml/model';
import type { TypeLookup } from '../core/daml/packageIndex';
import { numericScale, shapeOf } from '../core/daml/types';
import { LedgerApiError, invalidArgument } from './errors';

export type DamlRecord = Record<string, unknown>;

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d*))?$/;

/** Checks `value` against `type` and returns it normalised; throws the error Canton would give. */
export function checkValue(type: DamlType, value: unknown, lookup: TypeLookup): unknown {
  // A generated placeholder is the editor's concern: Canton reads "<Text>" as a Text like any other.
  const errors = problemsOf(type, value, lookup, { placeholders: 'as-values' }).filter((p) => p.severity === 'error');
  if (errors.length > 0) throw refusal(errors, value);
  return normalise(type, value, lookup);
}

/** A record value (a template's or a choice's argument), checked and normalised. */
export function checkRecord(type: DamlType, value: unknown, lookup: TypeLookup): DamlRecord {
  return checkValue(type, value, lookup) as DamlRecord;
}

/**
 * Unexpected record fields are INVALID_ARGUMENT; everything else is a preprocessing failure (as Canton's
 * JSON layer does). The first problem decides, unexpected fields first.
 */
function refusal(problems: ValueProblem[], value: unknown): LedgerApiError {
  const unknown = problems.find((p) => p.code === 'unknown-field');
  if (unknown) {
    const record = parentPointer(unknown.path);
    const names = problems.filter((p) => p.code === 'unknown-field' && parentPointer(p.path) === record).map((p) => pointerSegments(p.path).at(-1));
    return invalidArgument(`Unexpected fields: ${names.join(', ')}`);
  }
  const first = problems[0];
  if (first.code === 'missing-field') return preprocessingFailed(`Missing non-optional field: ${String(first.data?.field)}`);
  if (typeof first.data?.expected === 'string') return mismatch(first.data.expected, valueAt(value, first.path));
  return preprocessingFailed(first.message);
}

function parentPointer(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

function valueAt(value: unknown, pointer: string): unknown {
  let current = value;
  for (const segment of pointerSegments(pointer)) current = (current as Record<string, unknown> | undefined)?.[segment];
  return current;
}

function preprocessingFailed(reason: string): LedgerApiError {
  return new LedgerApiError('COMMAND_PREPROCESSING_FAILED', reason);
}

function mismatch(expected: string, value: unknown): LedgerApiError {
  return preprocessingFailed(`mismatching type: ${expected} and value: ${JSON.stringify(value)}`);
}

/** The value as Canton stores and echoes it; `value` has passed the checker. */
function normalise(type: DamlType, value: unknown, lookup: TypeLookup): unknown {
  const shape = shapeOf(type, lookup);
  switch (shape.kind) {
    case 'record': {
      const input = value as DamlRecord;
      // Fields in their declared order; unknown fields (only null ones pass the checker) are dropped.
      return Object.fromEntries(shape.fields.map((f) => [f.name, input[f.name] === undefined ? null : normalise(f.type, input[f.name], lookup)]));
    }
    case 'variant': {
      const input = value as { tag: string; value: unknown };
      const constructor = shape.constructors.find((c) => c.name === input.tag)!;
      return { tag: input.tag, value: normalise(constructor.type, input.value, lookup) };
    }
    case 'builtin':
      return normaliseBuiltin(shape.builtin, shape.type, shape.args, value, lookup);
    default:
      // Enums, and types of packages the participant lacks: as they are.
      return value;
  }
}

function normaliseBuiltin(builtin: string, type: DamlType, args: DamlType[], value: unknown, lookup: TypeLookup): unknown {
  const [first, second] = args;
  switch (builtin) {
    case 'Unit':
      // Canton reads any JSON here as () and echoes {}.
      return {};
    case 'Int64':
      return BigInt(value as string).toString();
    case 'Numeric': {
      const scale = numericScale(args) ?? 10;
      return formatNumeric(parseNumeric(value, scale)!, scale);
    }
    case 'List':
      return (value as unknown[]).map((item) => normalise(first, item, lookup));
    case 'TextMap':
      return Object.fromEntries(Object.entries(value as DamlRecord).map(([k, v]) => [k, normalise(first, v, lookup)]));
    case 'GenMap':
      return (value as [unknown, unknown][]).map(([k, v]) => [normalise(first, k, lookup), normalise(second, v, lookup)]);
    case 'Optional':
      if (optionalKind(type, lookup) === 'nested') return normaliseNestedOptional(first, value as unknown[], lookup);
      return value === null ? null : normalise(first, value, lookup);
    default:
      return value;
  }
}

/** An Optional of an Optional: `[]` / `[x]` at every level, as Canton reads and writes it. */
function normaliseNestedOptional(inner: DamlType, value: unknown[], lookup: TypeLookup): unknown[] {
  const shape = shapeOf(inner, lookup);
  const nested = shape.kind === 'builtin' && shape.builtin === 'Optional';
  return value.map((item) => (nested ? normaliseNestedOptional(shape.args[0], item as unknown[], lookup) : normalise(inner, item, lookup)));
}

/** A Numeric as an integer count of 10^-scale units; undefined if it is not a valid Numeric of that scale. */
export function parseNumeric(value: unknown, scale: number): bigint | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const [, sign, whole, fraction = ''] = m;
  const significantFraction = fraction.replace(/0+$/, '');
  // Numeric has 38 digits of precision: at most 38 - scale before the point, at most `scale` after.
  if (significantFraction.length > scale || whole.replace(/^0+/, '').length > 38 - scale) return undefined;
  const units = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  return sign === '-' ? -units : units;
}

export function formatNumeric(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  // join() builds a flat string (concatenation would keep a rope of pieces alive per stored amount).
  return [negative ? '-' : '', whole, scale > 0 ? '.' : '', scale > 0 ? fraction : ''].join('');
}
