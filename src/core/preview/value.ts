/**
 * Ledger API protobuf `Value`s (as protobuf-ts decodes them) to the Daml-LF JSON encoding the JSON
 * API writes, so that a preview shows arguments the way the submitted file and the updates do.
 */
import type { Value } from '@canton-network/core-ledger-proto';

const DAY_MS = 86_400_000;

export function valueToJson(value: Value | undefined): unknown {
  const sum = value?.sum;
  if (!sum) return null;
  switch (sum.oneofKind) {
    case 'unit':
      return {};
    case 'bool':
      return sum.bool;
    case 'int64':
    case 'numeric':
    case 'party':
    case 'text':
    case 'contractId':
      return (sum as Record<string, unknown>)[sum.oneofKind];
    case 'date':
      return new Date(sum.date * DAY_MS).toISOString().slice(0, 10);
    case 'timestamp':
      return microsToIso(BigInt(sum.timestamp));
    case 'optional': {
      const inner = sum.optional.value;
      if (!inner) return null;
      return inner.sum.oneofKind === 'optional' ? nestedOptional(sum.optional) : valueToJson(inner);
    }
    case 'list':
      return sum.list.elements.map(valueToJson);
    case 'textMap':
      return Object.fromEntries(sum.textMap.entries.map((e) => [e.key, valueToJson(e.value)]));
    case 'genMap':
      return sum.genMap.entries.map((e) => [valueToJson(e.key), valueToJson(e.value)]);
    case 'record':
      // Unlabelled fields (a non-verbose encoding) keep their position as the key.
      return Object.fromEntries(sum.record.fields.map((f, i) => [f.label || `#${i}`, valueToJson(f.value)]));
    case 'variant':
      return { tag: sum.variant.constructor, value: valueToJson(sum.variant.value) };
    case 'enum':
      return sum.enum.constructor;
    default:
      return null;
  }
}

/**
 * An Optional whose value is an Optional, written as Canton's JSON codec writes it (docs/daml-values.md):
 * an array at every level, the outermost included — [] None, [x] Some x — so Some None is [[]] and
 * Some (Some "x") is [["x"]]. (A None at the outermost level is written null by the caller: a prepared
 * transaction carries no types, so whether its Optional nests cannot be told.)
 */
function nestedOptional(optional: { value?: Value }): unknown[] {
  const inner = optional.value;
  if (!inner) return [];
  return [inner.sum.oneofKind === 'optional' ? nestedOptional(inner.sum.optional) : valueToJson(inner)];
}

/** Microseconds since the epoch as ISO-8601 UTC with microsecond precision where needed. */
export function microsToIso(micros: bigint): string {
  const ms = micros / 1000n;
  const rest = Number(((micros % 1000n) + 1000n) % 1000n);
  const iso = new Date(Number(ms - (micros < 0n && rest !== 0 ? 1n : 0n))).toISOString();
  return rest === 0 ? iso : iso.replace('Z', `${String(rest).padStart(3, '0')}Z`);
}
