/**
 * The signatures of Daml-LF packages: modules, data types, templates, choices and interfaces, with
 * their types. Plain data (JSON-serializable), so decoded packages can be cached on disk as JSON.
 * Expressions (choice bodies, signatories, …) are not part of it, but for what a choice's `controllers`
 * expression says in its simple forms (`Controllers`).
 */

/** Builtin types of Daml-LF 2 (the `BuiltinType` enum of daml_lf2.proto, by their Daml names). */
export const BUILTIN_TYPES = [
  'Unit', 'Bool', 'Int64', 'Date', 'Timestamp', 'Numeric', 'Party', 'Text', 'ContractId', 'Optional', 'List',
  'GenMap', 'TextMap', 'Any', 'AnyException', 'TypeRep', 'Arrow', 'Update', 'FailureCategory', 'BigNumeric',
  'RoundingMode', 'Scenario',
] as const;

export type BuiltinTypeName = (typeof BUILTIN_TYPES)[number];

/** A reference to a definition in some package: the package by id (already resolved), the module and the name. */
export interface QualifiedName {
  packageId: string;
  /** Dotted, e.g. `Splice.Api.Token.HoldingV1`. */
  moduleName: string;
  /** Dotted for the record constructors of variants, e.g. `Shape.Circle`. */
  name: string;
}

/**
 * A Daml-LF type. Applications are flat: `args` holds the arguments of the head in order
 * (LF 2.2 nests them as `TApp`; the decoder flattens both encodings to this).
 */
export type DamlType =
  | { kind: 'var'; name: string; args: DamlType[] }
  | { kind: 'con'; con: QualifiedName; args: DamlType[] }
  | { kind: 'builtin'; builtin: BuiltinTypeName; args: DamlType[] }
  /** A type-level natural number, the scale of `Numeric`. */
  | { kind: 'nat'; value: number }
  /** A type synonym (fully applied). */
  | { kind: 'syn'; syn: QualifiedName; args: DamlType[] }
  | { kind: 'forall'; params: TypeParam[]; body: DamlType }
  | { kind: 'struct'; fields: Field[] };

/** Kinds: `*` for value types, `nat` for Numeric scales, arrows for type constructors. */
export type Kind = { kind: 'star' } | { kind: 'nat' } | { kind: 'arrow'; params: Kind[]; result: Kind };

export interface TypeParam {
  name: string;
  kind: Kind;
}

export interface Field {
  name: string;
  type: DamlType;
}

/** A data type definition. `interface` marks the type constructor an interface defines. */
export type DataType =
  | { kind: 'record'; name: string; params: TypeParam[]; serializable: boolean; fields: Field[] }
  | { kind: 'variant'; name: string; params: TypeParam[]; serializable: boolean; constructors: Field[] }
  | { kind: 'enum'; name: string; params: TypeParam[]; serializable: boolean; constructors: string[] }
  | { kind: 'interface'; name: string; params: TypeParam[]; serializable: boolean };

export interface TypeSynonym {
  name: string;
  params: TypeParam[];
  type: DamlType;
}

export interface Choice {
  name: string;
  consuming: boolean;
  /** The choice argument's type: usually a record of the choice's name, but any serializable type is allowed. */
  argType: DamlType;
  returnType: DamlType;
  /** Who must authorize the choice, read from its `controllers` expression; absent when the package has none. */
  controllers?: Controllers;
}

/**
 * A party, or several, that a choice's `controllers` expression names in one of the forms simple enough
 * to read without running Daml. A field holds a Party, a list of parties or an optional party.
 */
export type ControllerTerm =
  /** A field of the contract (`controller owner`); a path for records inside records. */
  | { kind: 'contractField'; path: string[] }
  /** A field of the choice argument (`controller newOwner`, a field of the `with` block). */
  | { kind: 'argumentField'; path: string[] }
  /** A field of the interface view (`controller (view this).owner`), for interface choices. */
  | { kind: 'viewField'; path: string[] }
  /** The contract's signatories (`controller signatory this`, and every `Archive`). */
  | { kind: 'signatories' }
  /** The contract's observers. */
  | { kind: 'observers' };

/**
 * A choice's controllers: every term must authorize (they are conjunctive). `unknown` when the
 * expression is anything else (a function of the package, a computed set): then nobody is guessed.
 */
export type Controllers = { kind: 'terms'; terms: ControllerTerm[] } | { kind: 'unknown' };

export interface Template {
  /** The template's name; its fields are the record data type of the same name in the same module. */
  name: string;
  choices: Choice[];
  /** The interfaces this template implements. */
  implements: QualifiedName[];
  /** The contract key's type, if the template has a key (LF 2.3+ and dev packages). */
  keyType?: DamlType;
}

/** A method an interface declares; each instance of the interface implements it. */
export interface InterfaceMethod {
  name: string;
  type: DamlType;
}

export interface Interface {
  name: string;
  /** The view type: what an interface filter returns for a contract. */
  viewType: DamlType;
  methods: InterfaceMethod[];
  choices: Choice[];
  /** Interfaces this one requires. */
  requires: QualifiedName[];
}

export interface Module {
  /** Dotted, e.g. `Canton.Internal.Ping`. */
  name: string;
  dataTypes: DataType[];
  synonyms: TypeSynonym[];
  templates: Template[];
  interfaces: Interface[];
}

export interface DamlPackage {
  /** The package id: SHA-256 of the ArchivePayload bytes, in hex. */
  id: string;
  /** From the package metadata (every LF 2 package has it). */
  name: string;
  version: string;
  /** The Daml-LF version, e.g. `2.1`, `2.dev`. */
  lfVersion: string;
  modules: Module[];
  /** Packages this one refers to, by id (from its type references and import table). */
  dependencies: string[];
}

/** Shorthand constructors for types, for tests and for code that builds types by hand. */
export const DamlTypes = {
  builtin: (builtin: BuiltinTypeName, ...args: DamlType[]): DamlType => ({ kind: 'builtin', builtin, args }),
  con: (con: QualifiedName, ...args: DamlType[]): DamlType => ({ kind: 'con', con, args }),
  variable: (name: string, ...args: DamlType[]): DamlType => ({ kind: 'var', name, args }),
  numeric: (scale: number): DamlType => ({ kind: 'builtin', builtin: 'Numeric', args: [{ kind: 'nat', value: scale }] }),
};
