/**
 * Working with Daml types: printing them for people, instantiating type parameters, expanding
 * synonyms, and seeing a type as the shape its values have (record, variant, enum, builtin).
 */
import type { BuiltinTypeName, DamlType, Field, QualifiedName } from './model';
import type { TypeLookup } from './packageIndex';

export interface PrintOptions {
  /** `Module:Name` instead of `Name` for type constructors. */
  qualified?: boolean;
}

/** A type in Daml syntax, for hovers and messages: `Optional (ContractId Iou)`, `[Party]`, `Numeric 10`. */
export function printType(type: DamlType, options: PrintOptions = {}): string {
  return print(type, options, false);
}

function print(type: DamlType, options: PrintOptions, asArgument: boolean): string {
  const applied = (head: string, args: DamlType[]): string => {
    if (args.length === 0) return head;
    const text = [head, ...args.map((a) => print(a, options, true))].join(' ');
    return asArgument ? `(${text})` : text;
  };
  switch (type.kind) {
    case 'var':
      return applied(type.name, type.args);
    case 'nat':
      return String(type.value);
    case 'con':
      return applied(options.qualified ? `${type.con.moduleName}:${type.con.name}` : type.con.name, type.args);
    case 'syn':
      return applied(options.qualified ? `${type.syn.moduleName}:${type.syn.name}` : type.syn.name, type.args);
    case 'builtin':
      return printBuiltin(type.builtin, type.args, options, asArgument, applied);
    case 'forall': {
      const text = `forall ${type.params.map((p) => p.name).join(' ')}. ${print(type.body, options, false)}`;
      return asArgument ? `(${text})` : text;
    }
    case 'struct':
      return `<${type.fields.map((f) => `${f.name}: ${print(f.type, options, false)}`).join(', ')}>`;
  }
}

function printBuiltin(
  builtin: BuiltinTypeName,
  args: DamlType[],
  options: PrintOptions,
  asArgument: boolean,
  applied: (head: string, args: DamlType[]) => string,
): string {
  switch (builtin) {
    case 'Unit':
      return '()';
    case 'List':
      return args.length === 1 ? `[${print(args[0], options, false)}]` : applied('List', args);
    case 'GenMap':
      return applied('Map', args);
    case 'Arrow':
      if (args.length === 2) {
        const [from, to] = args;
        const parenthesised = (from.kind === 'builtin' && from.builtin === 'Arrow') || from.kind === 'forall';
        const text = `${print(from, options, parenthesised)} -> ${print(to, options, false)}`;
        return asArgument ? `(${text})` : text;
      }
      return applied('(->)', args);
    default:
      return applied(builtin, args);
  }
}

/** Replaces type variables bound in `env` (type parameters by their arguments). */
export function substitute(type: DamlType, env: ReadonlyMap<string, DamlType>): DamlType {
  if (env.size === 0) return type;
  switch (type.kind) {
    case 'var': {
      const bound = env.get(type.name);
      const args = type.args.map((a) => substitute(a, env));
      if (!bound) return { ...type, args };
      return args.length === 0 ? bound : applyArgs(bound, args);
    }
    case 'con':
    case 'builtin':
    case 'syn':
      return { ...type, args: type.args.map((a) => substitute(a, env)) };
    case 'nat':
      return type;
    case 'forall': {
      const inner = new Map(env);
      for (const p of type.params) inner.delete(p.name);
      return { ...type, body: substitute(type.body, inner) };
    }
    case 'struct':
      return { ...type, fields: substituteFields(type.fields, env) };
  }
}

function substituteFields(fields: readonly Field[], env: ReadonlyMap<string, DamlType>): Field[] {
  return fields.map((f) => ({ name: f.name, type: substitute(f.type, env) }));
}

function applyArgs(head: DamlType, args: DamlType[]): DamlType {
  return head.kind === 'var' || head.kind === 'con' || head.kind === 'builtin' || head.kind === 'syn' ? { ...head, args: [...head.args, ...args] } : head;
}

/** A type as the shape of its values, with synonyms expanded and type parameters instantiated. */
export type TypeShape =
  | { kind: 'record'; name: QualifiedName; type: DamlType; fields: readonly Field[] }
  | { kind: 'variant'; name: QualifiedName; type: DamlType; constructors: readonly Field[] }
  | { kind: 'enum'; name: QualifiedName; type: DamlType; constructors: string[] }
  | { kind: 'builtin'; builtin: BuiltinTypeName; type: DamlType; args: DamlType[] }
  /** No JSON value has this type (functions, interfaces as values, free type variables, …). */
  | { kind: 'not-serializable'; type: DamlType; reason: string }
  /** A type constructor or synonym that the lookup does not know (its package is missing). */
  | { kind: 'unknown'; type: DamlType; name: QualifiedName };

/** The shape of `type`'s values. Synonyms are expanded; a chain of synonyms longer than 100 is refused. */
export function shapeOf(type: DamlType, lookup: TypeLookup): TypeShape {
  let current = type;
  for (let hops = 0; hops < 100; hops++) {
    switch (current.kind) {
      case 'syn': {
        const synonym = lookup.synonym(current.syn);
        if (!synonym) return { kind: 'unknown', type: current, name: current.syn };
        current = substitute(synonym.type, bind(synonym.params, current.args));
        continue;
      }
      case 'con':
        return shapeOfCon(current, current.con, lookup);
      case 'builtin':
        return SERIALIZABLE_BUILTINS.has(current.builtin)
          ? { kind: 'builtin', builtin: current.builtin, type: current, args: current.args }
          : { kind: 'not-serializable', type: current, reason: `${current.builtin} values cannot be sent or received` };
      case 'var':
        return { kind: 'not-serializable', type: current, reason: `the type variable ${current.name} is not instantiated` };
      default:
        return { kind: 'not-serializable', type: current, reason: `a ${current.kind} type has no values to send` };
    }
  }
  return { kind: 'not-serializable', type: current, reason: 'type synonyms nest too deeply' };
}

function shapeOfCon(type: DamlType & { kind: 'con' }, name: QualifiedName, lookup: TypeLookup): TypeShape {
  const data = lookup.dataType(name);
  if (!data) return { kind: 'unknown', type, name };
  const env = bind(data.params, type.args);
  switch (data.kind) {
    // A type without parameters (most records) has its fields as they are, shared, not copied.
    case 'record':
      return { kind: 'record', name, type, fields: env.size === 0 ? data.fields : substituteFields(data.fields, env) };
    case 'variant':
      return { kind: 'variant', name, type, constructors: env.size === 0 ? data.constructors : substituteFields(data.constructors, env) };
    case 'enum':
      return { kind: 'enum', name, type, constructors: data.constructors };
    case 'interface':
      return { kind: 'not-serializable', type, reason: 'an interface is not a value: refer to a contract by its ContractId' };
  }
}

const SERIALIZABLE_BUILTINS: ReadonlySet<BuiltinTypeName> = new Set([
  'Unit', 'Bool', 'Int64', 'Date', 'Timestamp', 'Numeric', 'Party', 'Text', 'ContractId', 'Optional', 'List', 'GenMap', 'TextMap', 'BigNumeric',
]);

function bind(params: ReadonlyArray<{ name: string }>, args: readonly DamlType[]): ReadonlyMap<string, DamlType> {
  if (params.length === 0) return NO_PARAMETERS;
  const env = new Map<string, DamlType>();
  params.forEach((p, i) => {
    if (args[i]) env.set(p.name, args[i]);
  });
  return env;
}

const NO_PARAMETERS: ReadonlyMap<string, DamlType> = new Map();

/** The scale of `Numeric n` (the nat argument), or undefined when it is not a literal. */
export function numericScale(args: readonly DamlType[]): number | undefined {
  const scale = args[0];
  return scale?.kind === 'nat' ? scale.value : undefined;
}
