/**
 * Decodes the Daml-LF 2 `Package` message (daml_lf2.proto) into the signature model. Field numbers
 * are those of the official schema (digital-asset/canton
 * community/daml-lf/archive/src/main/protobuf/com/digitalasset/daml/lf/archive/daml_lf2.proto); only
 * the messages for signatures are read.
 *
 * Both encodings are read: LF 2.1 applies types with flat `args` lists and names imported packages by
 * interned package-id strings; LF 2.2+ nests type applications (`TApp`) and names them through the
 * `package_imports` table.
 */
import type {
  BuiltinTypeName, Choice, DamlType, DataType, Field, Interface, InterfaceMethod, Kind, Module, QualifiedName, Template, TypeParam, TypeSynonym,
} from '../model';
import { readControllers, type ExpressionTables } from './controllers';
import { WireFormatError, WireReader } from './wire';

/** BuiltinType enum values. TEXTMAP moved from 1001 (dev, SDK 3.3/3.4 schema) to 19 (LF 2.2+); both are read. */
const BUILTIN_BY_NUMBER: ReadonlyMap<number, BuiltinTypeName> = new Map([
  [0, 'Unit'], [1, 'Bool'], [2, 'Int64'], [3, 'Date'], [4, 'Timestamp'], [5, 'Numeric'], [6, 'Party'], [7, 'Text'],
  [8, 'ContractId'], [9, 'Optional'], [10, 'List'], [11, 'GenMap'], [13, 'Any'], [14, 'AnyException'], [15, 'TypeRep'],
  [16, 'Arrow'], [17, 'Update'], [18, 'FailureCategory'], [19, 'TextMap'], [1001, 'TextMap'], [1002, 'BigNumeric'],
  [1003, 'RoundingMode'], [1004, 'Scenario'],
]);

/** The enum number of each builtin type, for encoding (TextMap as LF 2.2+ numbers it). */
export const BUILTIN_NUMBERS: ReadonlyMap<BuiltinTypeName, number> = new Map(
  [...BUILTIN_BY_NUMBER].filter(([number]) => number !== 1001).map(([number, name]) => [name, number]),
);

/** What the payload decoder returns besides the modules. */
export interface DecodedPackageBody {
  name: string;
  version: string;
  modules: Module[];
  dependencies: string[];
}

/** A failure with the place in the package where it happened (turned into an LfDecodeError by the caller). */
export class PackageFormatError extends Error {
  constructor(message: string, readonly location: string | undefined) {
    super(message);
  }
}

/** The interning tables of one package, and what a reference to "self" means. */
class Tables implements ExpressionTables {
  strings: string[] = [];
  dottedNames: string[] = [];
  types: DamlType[] = [];
  kinds: Kind[] = [];
  exprs: Uint8Array[] = [];
  imports: string[] | undefined;
  readonly referenced = new Set<string>();
  /** The value definitions' bytes by module, indexed by name (one module at a time) only when a choice's controllers call one. */
  readonly valueBytes = new Map<string, Uint8Array[]>();
  private readonly valueIndex = new Map<string, Map<string, Uint8Array>>();
  /** Choices' controllers, read once every module (and so every value definition) is known. */
  readonly pendingControllers: Array<() => void> = [];
  constructor(readonly selfId: string) {}

  string(index: number): string {
    return at(this.strings, index, 'interned string');
  }
  dottedName(index: number): string {
    return at(this.dottedNames, index, 'interned dotted name');
  }
  value(moduleName: string, name: string): Uint8Array | undefined {
    let index = this.valueIndex.get(moduleName);
    if (!index) {
      index = new Map();
      for (const bytes of this.valueBytes.get(moduleName) ?? []) {
        // DefValue { name_with_type = 2 { name_interned_dname = 1 } }
        let nameIndex = -1;
        WireReader.read(bytes, (w, end) => w.fields(end, { 2: (wt) => w.message(wt, { 1: (x) => (nameIndex = w.int32(x)) }) }));
        if (nameIndex >= 0) index.set(this.dottedName(nameIndex), bytes);
      }
      this.valueIndex.set(moduleName, index);
    }
    return index.get(name);
  }
  packageRef(w: WireReader, end: number): string {
    return readPackageRef(w, end, this);
  }
}

function at<T>(list: readonly T[], index: number, what: string): T {
  if (!(index >= 0 && index < list.length)) throw new WireFormatError(`${what} #${index} does not exist (the table has ${list.length})`);
  return list[index];
}

/** Decodes a serialized Daml-LF 2 `Package` whose id is `packageId`. Throws PackageFormatError or WireFormatError. */
export function decodePackage(bytes: Uint8Array, packageId: string): DecodedPackageBody {
  const tables = new Tables(packageId);
  // Modules come first on the wire but need the tables, which come after: keep their bytes for a second pass.
  const moduleBytes: Uint8Array[] = [];
  const internedTypeBytes: Uint8Array[] = [];
  const internedKindBytes: Uint8Array[] = [];
  const dottedNameSegments: number[][] = [];
  // proto3 omits zeros: a metadata message without a name field means interned string 0.
  let metadata: { name: number; version: number } | undefined;
  WireReader.read(bytes, (w, end) =>
    w.fields(end, {
      1: (wt) => moduleBytes.push(w.bytes(wt)),
      2: (wt) => tables.strings.push(w.string(wt)),
      3: (wt) => {
        const segments: number[] = [];
        w.message(wt, { 1: (x) => w.repeatedInt32(x, segments) });
        dottedNameSegments.push(segments); // resolved below, once the strings are known
      },
      4: (wt) => {
        const indexes = { name: 0, version: 0 };
        w.message(wt, { 1: (x) => (indexes.name = w.int32(x)), 2: (x) => (indexes.version = w.int32(x)) });
        metadata = indexes;
      },
      5: (wt) => internedTypeBytes.push(w.bytes(wt)),
      6: (wt) => internedKindBytes.push(w.bytes(wt)),
      7: (wt) => tables.exprs.push(w.bytes(wt)),
      9: (wt) => {
        const imports: string[] = [];
        w.message(wt, { 1: (x) => imports.push(w.string(x)) });
        tables.imports = imports;
      },
    }),
  );

  tables.dottedNames = dottedNameSegments.map((segments) => segments.map((s) => tables.string(s)).join('.'));
  // Interned kinds and types may refer only to earlier entries, so decoding them in order resolves every reference.
  for (const b of internedKindBytes) tables.kinds.push(WireReader.read(b, (w, end) => readKind(w, end, tables)));
  for (const b of internedTypeBytes) tables.types.push(WireReader.read(b, (w, end) => readType(w, end, tables)));

  const modules = moduleBytes.map((b) => WireReader.read(b, (w, end) => readModule(w, end, tables)));
  for (const resolve of tables.pendingControllers) resolve();
  for (const id of tables.imports ?? []) tables.referenced.add(id);
  tables.referenced.delete(packageId);
  const named = metadata ? { name: tables.string(metadata.name), version: tables.string(metadata.version) } : { name: '', version: '' };
  return { ...named, modules, dependencies: [...tables.referenced].sort() };
}

/** A reader of one message kind: reads from the WireReader's position to `end`. */
type Read<T> = (w: WireReader, end: number, tables: Tables) => T;

/** Reads an embedded message of kind `read`. */
function sub<T>(w: WireReader, wireType: number, tables: Tables, read: Read<T>): T {
  return w.embedded(wireType, (end) => read(w, end, tables));
}

// ---------------------------------------------------------------- module level

function readModule(w: WireReader, end: number, tables: Tables): Module {
  const module: Module = { name: '', dataTypes: [], synonyms: [], templates: [], interfaces: [] };
  let nameIndex = 0;
  const values: Uint8Array[] = [];
  // Definitions are read after the name so that failures can say where they happened.
  const later: Array<() => void> = [];
  const defer = <T>(wireType: number, into: T[], read: Read<T>) => {
    const bytes = w.bytes(wireType);
    later.push(() => into.push(WireReader.read(bytes, (dw, e) => read(dw, e, tables))));
  };
  w.fields(end, {
    1: (wt) => (nameIndex = w.int32(wt)),
    3: (wt) => defer(wt, module.synonyms, readSynonym),
    4: (wt) => defer(wt, module.dataTypes, readDataType),
    5: (wt) => values.push(w.bytes(wt)),
    6: (wt) => defer(wt, module.templates, readTemplate),
    8: (wt) => defer(wt, module.interfaces, readInterface),
  });
  module.name = tables.dottedName(nameIndex);
  tables.valueBytes.set(module.name, values);
  try {
    for (const read of later) read();
  } catch (error) {
    throw new PackageFormatError(error instanceof Error ? error.message : String(error), `module ${module.name}`);
  }
  return module;
}

type DataCons = { kind: 'record' | 'variant'; fields: Field[] } | { kind: 'enum'; constructors: string[] } | { kind: 'interface' };

function readDataType(w: WireReader, end: number, tables: Tables): DataType {
  let name = 0;
  const params: TypeParam[] = [];
  let serializable = false;
  let cons: DataCons | undefined;
  const fieldsOf = (kind: 'record' | 'variant') => (wt: number) => {
    const fields: Field[] = [];
    w.message(wt, { 1: (x) => fields.push(sub(w, x, tables, readField)) });
    cons = { kind, fields };
  };
  w.fields(end, {
    2: (wt) => (name = w.int32(wt)),
    3: (wt) => params.push(sub(w, wt, tables, readTypeParam)),
    4: (wt) => (serializable = w.bool(wt)),
    5: fieldsOf('record'),
    6: fieldsOf('variant'),
    7: (wt) => {
      const indexes: number[] = [];
      w.message(wt, { 2: (x) => w.repeatedInt32(x, indexes) });
      cons = { kind: 'enum', constructors: indexes.map((i) => tables.string(i)) };
    },
    8: (wt) => {
      w.bytes(wt);
      cons = { kind: 'interface' };
    },
  });
  const base = { name: tables.dottedName(name), params, serializable };
  const defined = required(cons as DataCons | undefined, `the definition of data type ${base.name}`);
  switch (defined.kind) {
    case 'record':
      return { kind: 'record', ...base, fields: defined.fields };
    case 'variant':
      return { kind: 'variant', ...base, constructors: defined.fields };
    case 'enum':
      return { kind: 'enum', ...base, constructors: defined.constructors };
    case 'interface':
      return { kind: 'interface', ...base };
  }
}

function readSynonym(w: WireReader, end: number, tables: Tables): TypeSynonym {
  let name = 0;
  const params: TypeParam[] = [];
  let type: DamlType | undefined;
  w.fields(end, {
    2: (wt) => (name = w.int32(wt)),
    3: (wt) => params.push(sub(w, wt, tables, readTypeParam)),
    4: (wt) => (type = sub(w, wt, tables, readType)),
  });
  return { name: tables.dottedName(name), params, type: required(type, 'type synonym body') };
}

function readTemplate(w: WireReader, end: number, tables: Tables): Template {
  let name = 0;
  let binder = 0;
  const choices: ChoiceRead[] = [];
  const implementsList: QualifiedName[] = [];
  let keyType: DamlType | undefined;
  w.fields(end, {
    1: (wt) => (name = w.int32(wt)),
    2: (wt) => (binder = w.int32(wt)),
    6: (wt) => choices.push(sub(w, wt, tables, readChoice)),
    // DefKey: the key's type is field 1; its expressions are skipped.
    9: (wt) => w.message(wt, { 1: (x) => (keyType = sub(w, x, tables, readType)) }),
    // Implements: the interface is field 1; the instance body (expressions) is skipped.
    10: (wt) => w.message(wt, { 1: (x) => implementsList.push(sub(w, x, tables, readTypeConId)) }),
  });
  const template: Template = { name: tables.dottedName(name), choices: withControllers(choices, binder, tables), implements: implementsList };
  if (keyType) template.keyType = keyType;
  return template;
}

function readInterface(w: WireReader, end: number, tables: Tables): Interface {
  let name = 0;
  let binder = 0;
  const methods: InterfaceMethod[] = [];
  const choices: ChoiceRead[] = [];
  const requires: QualifiedName[] = [];
  let viewType: DamlType | undefined;
  w.fields(end, {
    2: (wt) => (name = w.int32(wt)),
    3: (wt) => methods.push(sub(w, wt, tables, readInterfaceMethod)),
    4: (wt) => (binder = w.int32(wt)),
    5: (wt) => choices.push(sub(w, wt, tables, readChoice)),
    6: (wt) => (viewType = sub(w, wt, tables, readType)),
    7: (wt) => requires.push(sub(w, wt, tables, readTypeConId)),
  });
  return { name: tables.dottedName(name), viewType: required(viewType, 'interface view type'), methods, choices: withControllers(choices, binder, tables), requires };
}

/** InterfaceMethod: name (interned string) = 2, type = 3. */
function readInterfaceMethod(w: WireReader, end: number, tables: Tables): InterfaceMethod {
  let name = 0;
  let type: DamlType | undefined;
  w.fields(end, { 2: (wt) => (name = w.int32(wt)), 3: (wt) => (type = sub(w, wt, tables, readType)) });
  const methodName = tables.string(name);
  return { name: methodName, type: required(type, `type of method ${methodName}`) };
}

/** A choice as read, with what its controllers are read from once the package's values are known. */
interface ChoiceRead {
  choice: Choice;
  controllers?: Uint8Array;
  argumentBinder: string;
}

function readChoice(w: WireReader, end: number, tables: Tables): ChoiceRead {
  let name = 0;
  let consuming = false;
  let argument: Field | undefined;
  let returnType: DamlType | undefined;
  let controllers: Uint8Array | undefined;
  w.fields(end, {
    2: (wt) => (name = w.int32(wt)),
    3: (wt) => (consuming = w.bool(wt)),
    4: (wt) => (controllers = w.bytes(wt)),
    // arg_binder: a VarWithType, laid out like FieldWithType.
    6: (wt) => (argument = sub(w, wt, tables, readField)),
    8: (wt) => (returnType = sub(w, wt, tables, readType)),
  });
  const choice: Choice = { name: tables.string(name), consuming, argType: required(argument, 'choice argument type').type, returnType: required(returnType, 'choice return type') };
  return { choice, controllers, argumentBinder: argument!.name };
}

/** The choices, whose controllers are filled in once every module is read (they may call values of any module). */
function withControllers(choices: ChoiceRead[], binder: number, tables: Tables): Choice[] {
  const contract = tables.string(binder);
  for (const { choice, controllers, argumentBinder } of choices) {
    if (controllers) tables.pendingControllers.push(() => (choice.controllers = readControllers(controllers, { contract, argument: argumentBinder }, tables)));
  }
  return choices.map((c) => c.choice);
}

// ---------------------------------------------------------------- types

/** FieldWithType and VarWithType share their layout: name (interned string) = 3, type = 2. */
function readField(w: WireReader, end: number, tables: Tables): Field {
  let name = 0;
  let type: DamlType | undefined;
  w.fields(end, { 3: (wt) => (name = w.int32(wt)), 2: (wt) => (type = sub(w, wt, tables, readType)) });
  const fieldName = tables.string(name);
  return { name: fieldName, type: required(type, `type of ${fieldName}`) };
}

/** TypeVarWithKind: name (interned string) = 3, kind = 2. */
function readTypeParam(w: WireReader, end: number, tables: Tables): TypeParam {
  let name = 0;
  let kind: Kind = { kind: 'star' };
  w.fields(end, { 3: (wt) => (name = w.int32(wt)), 2: (wt) => (kind = sub(w, wt, tables, readKind)) });
  return { name: tables.string(name), kind };
}

function readKind(w: WireReader, end: number, tables: Tables): Kind {
  let kind: Kind | undefined;
  w.fields(end, {
    1: (wt) => {
      w.bytes(wt);
      kind = { kind: 'star' };
    },
    2: (wt) => {
      const params: Kind[] = [];
      let result: Kind | undefined;
      w.message(wt, { 1: (x) => params.push(sub(w, x, tables, readKind)), 2: (x) => (result = sub(w, x, tables, readKind)) });
      kind = { kind: 'arrow', params, result: required(result, 'kind arrow result') };
    },
    3: (wt) => {
      w.bytes(wt);
      kind = { kind: 'nat' };
    },
    4: (wt) => (kind = at(tables.kinds, w.int32(wt), 'interned kind')),
  });
  return required(kind, 'kind');
}

/** Var, Con, Syn and Builtin all carry their head in one field and `repeated Type args = 2`. */
function readApplied<H>(w: WireReader, wireType: number, tables: Tables, headField: number, readHead: (wireType: number) => H): [H | undefined, DamlType[]] {
  let head: H | undefined;
  const args: DamlType[] = [];
  w.message(wireType, { [headField]: (wt) => (head = readHead(wt)), 2: (wt) => args.push(sub(w, wt, tables, readType)) });
  return [head, args];
}

function readType(w: WireReader, end: number, tables: Tables): DamlType {
  let type: DamlType | undefined;
  const typeCon = (kind: 'con' | 'syn') => (wt: number) => {
    const [ref, args] = readApplied(w, wt, tables, 1, (x) => sub(w, x, tables, readTypeConId));
    const name = required(ref, kind === 'con' ? 'type constructor' : 'type synonym');
    type = kind === 'con' ? { kind, con: name, args } : { kind, syn: name, args };
  };
  w.fields(end, {
    1: (wt) => {
      const [name, args] = readApplied(w, wt, tables, 3, (x) => w.int32(x));
      type = { kind: 'var', name: tables.string(name ?? 0), args };
    },
    2: typeCon('con'),
    3: (wt) => {
      const [number, args] = readApplied(w, wt, tables, 1, (x) => w.int32(x));
      const builtin = BUILTIN_BY_NUMBER.get(number ?? 0);
      if (!builtin) throw new WireFormatError(`unknown builtin type ${number}`);
      type = { kind: 'builtin', builtin, args };
    },
    4: (wt) => {
      const params: TypeParam[] = [];
      let body: DamlType | undefined;
      w.message(wt, { 1: (x) => params.push(sub(w, x, tables, readTypeParam)), 2: (x) => (body = sub(w, x, tables, readType)) });
      const inner = required(body, 'forall body');
      // LF 2.2 nests `forall a. forall b.` where LF 2.1 lists `forall a b.`: keep one form.
      type = inner.kind === 'forall' ? { kind: 'forall', params: [...params, ...inner.params], body: inner.body } : { kind: 'forall', params, body: inner };
    },
    5: (wt) => {
      const fields: Field[] = [];
      w.message(wt, { 1: (x) => fields.push(sub(w, x, tables, readField)) });
      type = { kind: 'struct', fields };
    },
    6: (wt) => (type = { kind: 'nat', value: w.sint64(wt) }),
    7: typeCon('syn'),
    8: (wt) => (type = at(tables.types, w.int32(wt), 'interned type')),
    9: (wt) => {
      let lhs: DamlType | undefined;
      let rhs: DamlType | undefined;
      w.message(wt, { 1: (x) => (lhs = sub(w, x, tables, readType)), 2: (x) => (rhs = sub(w, x, tables, readType)) });
      type = applyType(required(lhs, 'type application head'), required(rhs, 'type application argument'));
    },
  });
  return required(type, 'type');
}

/** `lhs rhs` as a flat application; a new object, since `lhs` may be a shared interned type. */
function applyType(lhs: DamlType, rhs: DamlType): DamlType {
  switch (lhs.kind) {
    case 'var':
    case 'con':
    case 'builtin':
    case 'syn':
      return { ...lhs, args: [...lhs.args, rhs] };
    default:
      throw new WireFormatError(`a ${lhs.kind} type cannot be applied to arguments`);
  }
}

function readTypeConId(w: WireReader, end: number, tables: Tables): QualifiedName {
  let packageId: string | undefined;
  let moduleName = 0;
  let name = 0;
  w.fields(end, {
    // ModuleId { package_id = 1; module_name_interned_dname = 2 }
    1: (wt) => w.message(wt, { 1: (x) => (packageId = sub(w, x, tables, readPackageRef)), 2: (x) => (moduleName = w.int32(x)) }),
    2: (wt) => (name = w.int32(wt)),
  });
  return { packageId: required(packageId, 'package of a type reference'), moduleName: tables.dottedName(moduleName), name: tables.dottedName(name) };
}

/** SelfOrImportedPackageId: self = 1, an interned package-id string = 3 (LF 2.1), an import = 4 (LF 2.2+). */
function readPackageRef(w: WireReader, end: number, tables: Tables): string {
  let packageId: string | undefined;
  w.fields(end, {
    1: (wt) => {
      w.bytes(wt);
      packageId = tables.selfId;
    },
    3: (wt) => (packageId = tables.string(w.int32(wt))),
    4: (wt) => {
      if (!tables.imports) throw new WireFormatError('a package import reference in a package without an import table');
      packageId = at(tables.imports, w.int32(wt), 'package import');
    },
  });
  const id = required(packageId, 'package reference');
  tables.referenced.add(id);
  return id;
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new WireFormatError(`${what} is missing`);
  return value;
}
