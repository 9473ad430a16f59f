/**
 * Daml-LF JSON values (NOTES §1.3) for the few types the built-in templates use: checking a
 * submitted value against its type and normalising it the way Canton echoes it back
 * (Numerics padded to their scale, Int64 as strings).
 */
import { LedgerApiError, invalidArgument } from './errors';

export type DamlType =
  | { kind: 'Party' }
  | { kind: 'Text' }
  | { kind: 'Bool' }
  | { kind: 'Int64' }
  | { kind: 'Numeric'; scale: number }
  | { kind: 'ContractId' }
  | { kind: 'List'; of: DamlType }
  | { kind: 'Record'; name: string; fields: ReadonlyArray<readonly [string, DamlType]> };

export type DamlRecord = Record<string, unknown>;

export const T = {
  party: { kind: 'Party' } as DamlType,
  text: { kind: 'Text' } as DamlType,
  bool: { kind: 'Bool' } as DamlType,
  int64: { kind: 'Int64' } as DamlType,
  contractId: { kind: 'ContractId' } as DamlType,
  numeric: (scale: number): DamlType => ({ kind: 'Numeric', scale }),
  list: (of: DamlType): DamlType => ({ kind: 'List', of }),
  record: (name: string, fields: ReadonlyArray<readonly [string, DamlType]>): DamlType & { kind: 'Record' } => ({
    kind: 'Record',
    name,
    fields,
  }),
};

function typeName(type: DamlType): string {
  switch (type.kind) {
    case 'Numeric':
      return `Numeric ${type.scale}`;
    case 'List':
      return `[${typeName(type.of)}]`;
    case 'Record':
      return type.name;
    default:
      return type.kind;
  }
}

/** Unexpected record fields are INVALID_ARGUMENT; everything else is a preprocessing failure (as Canton's JSON layer does). */
function preprocessingFailed(reason: string): LedgerApiError {
  return new LedgerApiError('COMMAND_PREPROCESSING_FAILED', reason);
}

function mismatch(type: DamlType, value: unknown): LedgerApiError {
  return preprocessingFailed(`mismatching type: ${typeName(type)} and value: ${JSON.stringify(value)}`);
}

/** Party literals: the PartyIdString alphabet, at most 255 characters. */
const PARTY = /^[A-Za-z0-9:\-_ ]{1,255}$/;
const CONTRACT_ID = /^[0-9a-f]{2,}$/;
const INT64 = /^-?\d{1,19}$/;
const DECIMAL = /^(-?)(\d+)(?:\.(\d*))?$/;

/** Checks `value` against `type` and returns it normalised; throws the error Canton would give. */
export function checkValue(type: DamlType, value: unknown): unknown {
  switch (type.kind) {
    case 'Party':
      if (typeof value !== 'string' || !PARTY.test(value)) throw mismatch(type, value);
      return value;
    case 'Text':
      if (typeof value !== 'string') throw mismatch(type, value);
      return value;
    case 'Bool':
      if (typeof value !== 'boolean') throw mismatch(type, value);
      return value;
    case 'ContractId':
      if (typeof value !== 'string' || !CONTRACT_ID.test(value)) throw mismatch(type, value);
      return value;
    case 'Int64': {
      const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
      if (typeof text !== 'string' || !INT64.test(text) || BigInt(text) > 2n ** 63n - 1n || BigInt(text) < -(2n ** 63n)) {
        throw mismatch(type, value);
      }
      return BigInt(text).toString();
    }
    case 'Numeric': {
      const scaled = parseNumeric(value, type.scale);
      if (scaled === undefined) throw mismatch(type, value);
      return formatNumeric(scaled, type.scale);
    }
    case 'List':
      if (!Array.isArray(value)) throw mismatch(type, value);
      return value.map((item) => checkValue(type.of, item));
    case 'Record':
      return checkRecord(type, value);
  }
}

export function checkRecord(type: DamlType & { kind: 'Record' }, value: unknown): DamlRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw mismatch(type, value);
  const input = value as Record<string, unknown>;
  const known = new Set(type.fields.map(([name]) => name));
  const unexpected = Object.keys(input).filter((k) => !known.has(k));
  if (unexpected.length > 0) throw invalidArgument(`Unexpected fields: ${unexpected.join(', ')}`);
  const out: DamlRecord = {};
  for (const [name, fieldType] of type.fields) {
    if (input[name] === undefined || input[name] === null) {
      throw preprocessingFailed(`Missing non-optional field: ${name}`);
    }
    out[name] = checkValue(fieldType, input[name]);
  }
  return out;
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
