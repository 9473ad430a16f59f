/**
 * Example values of Daml types, in the JSON Ledger API encoding: real values a participant accepts as
 * they are (unlike `skeletonValue`'s marked placeholders, which the checker flags until replaced), for
 * files that should run unchanged, such as a new ledger script.
 */
import type { DamlType } from './model';
import type { TypeLookup } from './packageIndex';
import { optionalKind } from './jsonEncoding';
import { numericScale, shapeOf } from './types';

export interface ExampleValueOptions {
  /** The value of every Party (a party id, or a script's `${alias}`). */
  party: string;
}

/**
 * A valid value of `type`, or undefined when there is none to make up: a ContractId (only a contract
 * that exists is one), a type the lookup does not know, one that cannot be sent, or a record that
 * contains itself. An Optional or a list of such a value is None or empty, which is valid.
 * Numbers are positive (a template's `ensure` often asks for that); Text is "example <field>".
 */
export function exampleValue(type: DamlType, lookup: TypeLookup, options: ExampleValueOptions): unknown {
  return example(type, lookup, options, 'value', new Set());
}

function example(type: DamlType, lookup: TypeLookup, options: ExampleValueOptions, name: string, building: ReadonlySet<string>): unknown {
  const shape = shapeOf(type, lookup);
  const key = JSON.stringify(shape.type);
  if (building.has(key)) return undefined;
  const inner = new Set(building).add(key);
  const of = (t: DamlType | undefined, n = name) => (t ? example(t, lookup, options, n, inner) : undefined);
  switch (shape.kind) {
    case 'record': {
      const value: Record<string, unknown> = {};
      for (const f of shape.fields) {
        value[f.name] = of(f.type, f.name);
        if (value[f.name] === undefined) return undefined;
      }
      return value;
    }
    case 'enum':
      return shape.constructors[0];
    case 'variant':
      for (const constructor of shape.constructors) {
        const value = of(constructor.type);
        if (value !== undefined) return { tag: constructor.name, value };
      }
      return undefined;
    case 'builtin': {
      const [first, second] = shape.args;
      switch (shape.builtin) {
        case 'Unit':
          return {};
        case 'Bool':
          return true;
        case 'Text':
          return `example ${name}`;
        case 'Party':
          return options.party;
        case 'Int64':
          return '1';
        case 'Numeric': {
          const scale = numericScale(shape.args) ?? 10;
          return scale > 0 ? `1.${'0'.repeat(Math.min(scale, 2))}` : '1';
        }
        case 'BigNumeric':
          return '1.0';
        case 'Date':
          return '2025-01-31';
        case 'Timestamp':
          return '2025-01-31T12:00:00Z';
        case 'Optional':
          // An Optional of an Optional is an array at every level: [] (None) keeps it simple.
          if (optionalKind(type, lookup) === 'nested') return [];
          return of(first) ?? null;
        case 'List': {
          const item = of(first);
          return item === undefined ? [] : [item];
        }
        case 'TextMap': {
          const item = of(first);
          return item === undefined ? {} : { [`example ${name}`]: item };
        }
        case 'GenMap': {
          const [k, v] = [of(first), of(second)];
          return k === undefined || v === undefined ? [] : [[k, v]];
        }
        default:
          // ContractId: only a contract that exists is one.
          return undefined;
      }
    }
    default:
      return undefined;
  }
}
