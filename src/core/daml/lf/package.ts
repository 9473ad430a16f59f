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
  BuiltinTypeName, Choice, DamlType, DataType, Field, Interface, Kind, Module, QualifiedName, Template, TypeParam, TypeSynonym,
} from '../model';
import {
  embeddedBytes, readEmbedded, readFields, readInt32, readRepeatedInt32, Reader, WireFormatError, WIRE_LENGTH_DELIMITED,
} from './wire';

/** BuiltinType enum values. TEXTMAP moved from 1001 (dev, SDK 3.3/3.4 schema) to 19 (LF 2.2+); both are read. */
const BUILTIN_BY_NUMBER: ReadonlyMap<number, BuiltinTypeName> = new Map([
  [0, 'Unit'], [1, 'Bool'], [2, 'Int64'], [3, 'Date'], [4, 'Timestamp'], [5, 'Numeric'], [6, 'Party'], [7, 'Text'],
  [8, 'ContractId'], [9, 'Optional'], [10, 'List'], [11, 'GenMap'], [13, 'Any'], [14, 'AnyException'], [15, 'TypeRep'],
  [16, 'Arrow'], [17, 'Update'], [18, 'FailureCategory'], [19, 'TextMap'], [1001, 'TextMap'], [1002, 'BigNumeric'],
  [1003, 'RoundingMode'], [1004, 'Scenario'],
]);

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
class Tables {
  strings: string[] = [];
  dottedNames: string[] = [];
  types: DamlType[] = [];
  kinds: Kind[] = [];
  imports: string[] | undefined;
  readonly referenced = new Set<string>();
  constructor(readonly selfId: string) {}

  string(index: number): string {
    return at(this.strings, index, 'interned string');
  }
  dottedName(index: number): string {
    return at(this.dottedNames, index, 'interned dotted name');
  }
}

function at<T>(list: readonly T[], index: number, what: string): T {
  if (!(index >= 0 && index < list.length)) throw new WireFormatError(`${what} #${index} does not exist (the table has ${list.length})`);
  return list[index];
}

/** Decodes a serialized Daml-LF 2 `Package` whose id is `packageId`. Throws PackageFormatError or WireFormatError. */
export function decodePackage(bytes: Uint8Array, packageId: string): DecodedPackageBody {
  const reader = Reader.create(bytes);
  const tables = new Tables(packageId);
  // Modules come first on the wire but need the tables, which come after: keep their bytes for a second pass.
  const moduleBytes: Uint8Array[] = [];
  const internedTypeBytes: Uint8Array[] = [];
  const internedKindBytes: Uint8Array[] = [];
  const dottedNameSegments: number[][] = [];
  let metadata = { name: '', version: '' };
  let nameIndex = -1;
  let versionIndex = -1;
  readFields(reader, reader.len, (field, wireType) => {
    switch (field) {
      case 1:
        moduleBytes.push(embeddedBytes(reader, wireType));
        return true;
      case 2:
        if (wireType !== WIRE_LENGTH_DELIMITED) return false;
        tables.strings.push(reader.string());
        return true;
      case 3:
        readEmbedded(reader, wireType, (end) => {
          const segments: number[] = [];
          readFields(reader, end, (f, w) => f === 1 && (readRepeatedInt32(reader, w, segments), true));
          dottedNameSegments.push(segments); // resolved below, once the strings are known
        });
        return true;
      case 4:
        readEmbedded(reader, wireType, (end) =>
          readFields(reader, end, (f, w) => {
            if (f === 1) nameIndex = readInt32(reader, w);
            else if (f === 2) versionIndex = readInt32(reader, w);
            else return false;
            return true;
          }),
        );
        // proto3 omits zeros: a present metadata message with no name field means interned string 0.
        nameIndex = Math.max(nameIndex, 0);
        versionIndex = Math.max(versionIndex, 0);
        return true;
      case 5:
        internedTypeBytes.push(embeddedBytes(reader, wireType));
        return true;
      case 6:
        internedKindBytes.push(embeddedBytes(reader, wireType));
        return true;
      case 9:
        readEmbedded(reader, wireType, (end) => {
          const imports: string[] = [];
          readFields(reader, end, (f, w) => f === 1 && w === WIRE_LENGTH_DELIMITED && (imports.push(reader.string()), true));
          tables.imports = imports;
        });
        return true;
      default:
        return false;
    }
  });

  tables.dottedNames = dottedNameSegments.map((segments) => segments.map((s) => tables.string(s)).join('.'));
  if (nameIndex >= 0) metadata = { name: tables.string(nameIndex), version: tables.string(versionIndex) };
  // Interned kinds and types may refer only to earlier entries, so decoding them in order resolves every reference.
  for (const kindBytes of internedKindBytes) tables.kinds.push(decodeWhole(kindBytes, (r, end) => readKind(r, end, tables)));
  for (const typeBytes of internedTypeBytes) tables.types.push(decodeWhole(typeBytes, (r, end) => readType(r, end, tables)));

  const modules = moduleBytes.map((b) => decodeWhole(b, (r, end) => readModule(r, end, tables)));
  for (const id of tables.imports ?? []) tables.referenced.add(id);
  tables.referenced.delete(packageId);
  return { ...metadata, modules, dependencies: [...tables.referenced].sort() };
}

function decodeWhole<T>(bytes: Uint8Array, read: (reader: Reader, end: number) => T): T {
  const reader = Reader.create(bytes);
  return read(reader, reader.len);
}

function embedded<T>(reader: Reader, wireType: number, read: (reader: Reader, end: number) => T): T {
  return readEmbedded(reader, wireType, (end) => read(reader, end));
}

// ---------------------------------------------------------------- module level

function readModule(reader: Reader, end: number, tables: Tables): Module {
  const module: Module = { name: '', dataTypes: [], synonyms: [], templates: [], interfaces: [] };
  let nameIndex = 0;
  // Definitions are read after the name so that failures can say where they happened.
  const later: Array<() => void> = [];
  const defer = <T>(wireType: number, into: T[], read: (r: Reader, e: number, t: Tables) => T) => {
    const bytes = embeddedBytes(reader, wireType);
    later.push(() => into.push(decodeWhole(bytes, (r, e) => read(r, e, tables))));
    return true;
  };
  readFields(reader, end, (field, wireType) => {
    switch (field) {
      case 1:
        nameIndex = readInt32(reader, wireType);
        return true;
      case 3:
        return defer(wireType, module.synonyms, readSynonym);
      case 4:
        return defer(wireType, module.dataTypes, readDataType);
      case 6:
        return defer(wireType, module.templates, readTemplate);
      case 8:
        return defer(wireType, module.interfaces, readInterface);
      default:
        return false;
    }
  });
  module.name = tables.dottedName(nameIndex);
  try {
    for (const read of later) read();
  } catch (error) {
    throw new PackageFormatError(error instanceof Error ? error.message : String(error), `module ${module.name}`);
  }
  return module;
}

function readDataType(reader: Reader, end: number, tables: Tables): DataType {
  let name = 0;
  const params: TypeParam[] = [];
  let serializable = false;
  let cons: { kind: 'record' | 'variant'; fields: Field[] } | { kind: 'enum'; constructors: string[] } | { kind: 'interface' } | undefined;
  readFields(reader, end, (field, wireType) => {
    switch (field) {
      case 2:
        name = readInt32(reader, wireType);
        return true;
      case 3:
        params.push(embedded(reader, wireType, (r, e) => readTypeParam(r, e, tables)));
        return true;
      case 4:
        serializable = reader.bool();
        return true;
      case 5:
      case 6: {
        const fields: Field[] = [];
        embedded(reader, wireType, (r, e) => readFields(r, e, (f, w) => f === 1 && (fields.push(embedded(r, w, (rr, ee) => readField(rr, ee, tables))), true)));
        cons = { kind: field === 5 ? 'record' : 'variant', fields };
        return true;
      }
      case 7: {
        const indexes: number[] = [];
        embedded(reader, wireType, (r, e) => readFields(r, e, (f, w) => f === 2 && (readRepeatedInt32(r, w, indexes), true)));
        cons = { kind: 'enum', constructors: indexes.map((i) => tables.string(i)) };
        return true;
      }
      case 8:
        embeddedBytes(reader, wireType);
        cons = { kind: 'interface' };
        return true;
      default:
        return false;
    }
  });
  const base = { name: tables.dottedName(name), params, serializable };
  if (!cons) throw new WireFormatError(`data type ${base.name} has no definition (record, variant, enum or interface)`);
  switch (cons.kind) {
    case 'record':
      return { kind: 'record', ...base, fields: cons.fields };
    case 'variant':
      return { kind: 'variant', ...base, constructors: cons.fields };
    case 'enum':
      return { kind: 'enum', ...base, constructors: cons.constructors };
    case 'interface':
      return { kind: 'interface', ...base };
  }
}

function readSynonym(reader: Reader, end: number, tables: Tables): TypeSynonym {
  let name = 0;
  const params: TypeParam[] = [];
  let type: DamlType | undefined;
  readFields(reader, end, (field, wireType) => {
    if (field === 2) name = readInt32(reader, wireType);
    else if (field === 3) params.push(embedded(reader, wireType, (r, e) => readTypeParam(r, e, tables)));
    else if (field === 4) type = embedded(reader, wireType, (r, e) => readType(r, e, tables));
    else return false;
    return true;
  });
  return { name: tables.dottedName(name), params, type: required(type, 'type synonym body') };
}

function readTemplate(reader: Reader, end: number, tables: Tables): Template {
  let name = 0;
  const choices: Choice[] = [];
  const implementsList: QualifiedName[] = [];
  let keyType: DamlType | undefined;
  readFields(reader, end, (field, wireType) => {
    switch (field) {
      case 1:
        name = readInt32(reader, wireType);
        return true;
      case 6:
        choices.push(embedded(reader, wireType, (r, e) => readChoice(r, e, tables)));
        return true;
      case 9:
        // DefKey: the key's type is field 1; its expressions are skipped.
        keyType = embedded(reader, wireType, (r, e) => {
          let type: DamlType | undefined;
          readFields(r, e, (f, w) => f === 1 && ((type = embedded(r, w, (rr, ee) => readType(rr, ee, tables))), true));
          return required(type, 'contract key type');
        });
        return true;
      case 10:
        // Implements: the interface is field 1; the instance body (expressions) is skipped.
        implementsList.push(
          embedded(reader, wireType, (r, e) => {
            let iface: QualifiedName | undefined;
            readFields(r, e, (f, w) => f === 1 && ((iface = embedded(r, w, (rr, ee) => readTypeConId(rr, ee, tables))), true));
            return required(iface, 'implemented interface');
          }),
        );
        return true;
      default:
        return false;
    }
  });
  const template: Template = { name: tables.dottedName(name), choices, implements: implementsList };
  if (keyType) template.keyType = keyType;
  return template;
}

function readInterface(reader: Reader, end: number, tables: Tables): Interface {
  let name = 0;
  const choices: Choice[] = [];
  const requires: QualifiedName[] = [];
  let viewType: DamlType | undefined;
  readFields(reader, end, (field, wireType) => {
    if (field === 2) name = readInt32(reader, wireType);
    else if (field === 5) choices.push(embedded(reader, wireType, (r, e) => readChoice(r, e, tables)));
    else if (field === 6) viewType = embedded(reader, wireType, (r, e) => readType(r, e, tables));
    else if (field === 7) requires.push(embedded(reader, wireType, (r, e) => readTypeConId(r, e, tables)));
    else return false;
    return true;
  });
  return { name: tables.dottedName(name), viewType: required(viewType, 'interface view type'), choices, requires };
}

function readChoice(reader: Reader, end: number, tables: Tables): Choice {
  let name = 0;
  let consuming = false;
  let argType: DamlType | undefined;
  let returnType: DamlType | undefined;
  readFields(reader, end, (field, wireType) => {
    switch (field) {
      case 2:
        name = readInt32(reader, wireType);
        return true;
      case 3:
        consuming = reader.bool();
        return true;
      case 6:
        // arg_binder: VarWithType { var_interned_str = 3; type = 2 }
        argType = embedded(reader, wireType, (r, e) => readField(r, e, tables).type);
        return true;
      case 8:
        returnType = embedded(reader, wireType, (r, e) => readType(r, e, tables));
        return true;
      default:
        return false;
    }
  });
  return { name: tables.string(name), consuming, argType: required(argType, 'choice argument type'), returnType: required(returnType, 'choice return type') };
}

// ---------------------------------------------------------------- types

/** FieldWithType and VarWithType share their layout: name (interned string) = 3, type = 2. */
function readField(reader: Reader, end: number, tables: Tables): Field {
  let name = 0;
  let type: DamlType | undefined;
  readFields(reader, end, (field, wireType) => {
    if (field === 3) name = readInt32(reader, wireType);
    else if (field === 2) type = embedded(reader, wireType, (r, e) => readType(r, e, tables));
    else return false;
    return true;
  });
  const fieldName = tables.string(name);
  return { name: fieldName, type: required(type, `type of ${fieldName}`) };
}

/** TypeVarWithKind: name (interned string) = 3, kind = 2. */
function readTypeParam(reader: Reader, end: number, tables: Tables): TypeParam {
  let name = 0;
  let kind: Kind = { kind: 'star' };
  readFields(reader, end, (field, wireType) => {
    if (field === 3) name = readInt32(reader, wireType);
    else if (field === 2) kind = embedded(reader, wireType, (r, e) => readKind(r, e, tables));
    else return false;
    return true;
  });
  return { name: tables.string(name), kind };
}

function readKind(reader: Reader, end: number, tables: Tables): Kind {
  let kind: Kind | undefined;
  readFields(reader, end, (field, wireType) => {
    switch (field) {
      case 1:
        embeddedBytes(reader, wireType);
        kind = { kind: 'star' };
        return true;
      case 2: {
        const params: Kind[] = [];
        let result: Kind | undefined;
        embedded(reader, wireType, (r, e) =>
          readFields(r, e, (f, w) => {
            if (f === 1) params.push(embedded(r, w, (rr, ee) => readKind(rr, ee, tables)));
            else if (f === 2) result = embedded(r, w, (rr, ee) => readKind(rr, ee, tables));
            else return false;
            return true;
          }),
        );
        kind = { kind: 'arrow', params, result: required(result, 'kind arrow result') };
        return true;
      }
      case 3:
        embeddedBytes(reader, wireType);
        kind = { kind: 'nat' };
        return true;
      case 4:
        kind = at(tables.kinds, readInt32(reader, wireType), 'interned kind');
        return true;
      default:
        return false;
    }
  });
  return required(kind, 'kind');
}

/** Var, Con, Syn and Builtin all carry their head in one field and `repeated Type args = 2`. */
function readApplied<H>(reader: Reader, end: number, tables: Tables, headField: number, readHead: (wireType: number) => H): [H | undefined, DamlType[]] {
  let head: H | undefined;
  const args: DamlType[] = [];
  readFields(reader, end, (field, wireType) => {
    if (field === headField) head = readHead(wireType);
    else if (field === 2) args.push(embedded(reader, wireType, (r, e) => readType(r, e, tables)));
    else return false;
    return true;
  });
  return [head, args];
}

function readType(reader: Reader, end: number, tables: Tables): DamlType {
  let type: DamlType | undefined;
  readFields(reader, end, (field, wireType) => {
    switch (field) {
      case 1:
        type = embedded(reader, wireType, (r, e) => {
          const [name, args] = readApplied(r, e, tables, 3, (w) => readInt32(r, w));
          return { kind: 'var', name: tables.string(name ?? 0), args };
        });
        return true;
      case 2:
      case 7:
        type = embedded(reader, wireType, (r, e) => {
          const [ref, args] = readApplied(r, e, tables, 1, (w) => embedded(r, w, (rr, ee) => readTypeConId(rr, ee, tables)));
          const name = required(ref, field === 2 ? 'type constructor' : 'type synonym');
          return field === 2 ? { kind: 'con', con: name, args } : { kind: 'syn', syn: name, args };
        });
        return true;
      case 3:
        type = embedded(reader, wireType, (r, e) => {
          const [number, args] = readApplied(r, e, tables, 1, (w) => readInt32(r, w));
          const builtin = BUILTIN_BY_NUMBER.get(number ?? 0);
          if (!builtin) throw new WireFormatError(`unknown builtin type ${number}`);
          return { kind: 'builtin', builtin, args };
        });
        return true;
      case 4:
        type = embedded(reader, wireType, (r, e) => {
          const params: TypeParam[] = [];
          let body: DamlType | undefined;
          readFields(r, e, (f, w) => {
            if (f === 1) params.push(embedded(r, w, (rr, ee) => readTypeParam(rr, ee, tables)));
            else if (f === 2) body = embedded(r, w, (rr, ee) => readType(rr, ee, tables));
            else return false;
            return true;
          });
          const inner = required(body, 'forall body');
          // LF 2.2 nests `forall a. forall b.` where LF 2.1 lists `forall a b.`: keep one form.
          return inner.kind === 'forall' ? { kind: 'forall', params: [...params, ...inner.params], body: inner.body } : { kind: 'forall', params, body: inner };
        });
        return true;
      case 5:
        type = embedded(reader, wireType, (r, e) => {
          const fields: Field[] = [];
          readFields(r, e, (f, w) => f === 1 && (fields.push(embedded(r, w, (rr, ee) => readField(rr, ee, tables))), true));
          return { kind: 'struct', fields };
        });
        return true;
      case 6:
        type = { kind: 'nat', value: Number(reader.sint64()) };
        return true;
      case 8:
        type = at(tables.types, readInt32(reader, wireType), 'interned type');
        return true;
      case 9:
        type = embedded(reader, wireType, (r, e) => {
          let lhs: DamlType | undefined;
          let rhs: DamlType | undefined;
          readFields(r, e, (f, w) => {
            if (f === 1) lhs = embedded(r, w, (rr, ee) => readType(rr, ee, tables));
            else if (f === 2) rhs = embedded(r, w, (rr, ee) => readType(rr, ee, tables));
            else return false;
            return true;
          });
          return applyType(required(lhs, 'type application head'), required(rhs, 'type application argument'));
        });
        return true;
      default:
        return false;
    }
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

function readTypeConId(reader: Reader, end: number, tables: Tables): QualifiedName {
  let module: { packageId: string; moduleName: string } | undefined;
  let name = 0;
  readFields(reader, end, (field, wireType) => {
    if (field === 1) module = embedded(reader, wireType, (r, e) => readModuleId(r, e, tables));
    else if (field === 2) name = readInt32(reader, wireType);
    else return false;
    return true;
  });
  const { packageId, moduleName } = required(module, 'module of a type reference');
  return { packageId, moduleName, name: tables.dottedName(name) };
}

function readModuleId(reader: Reader, end: number, tables: Tables): { packageId: string; moduleName: string } {
  let packageId: string | undefined;
  let moduleName = 0;
  readFields(reader, end, (field, wireType) => {
    if (field === 1) packageId = embedded(reader, wireType, (r, e) => readPackageRef(r, e, tables));
    else if (field === 2) moduleName = readInt32(reader, wireType);
    else return false;
    return true;
  });
  return { packageId: required(packageId, 'package of a module reference'), moduleName: tables.dottedName(moduleName) };
}

function readPackageRef(reader: Reader, end: number, tables: Tables): string {
  let packageId: string | undefined;
  readFields(reader, end, (field, wireType) => {
    switch (field) {
      case 1:
        embeddedBytes(reader, wireType);
        packageId = tables.selfId;
        return true;
      case 3:
        packageId = tables.string(readInt32(reader, wireType));
        return true;
      case 4:
        if (!tables.imports) throw new WireFormatError('a package import reference in a package without an import table');
        packageId = at(tables.imports, readInt32(reader, wireType), 'package import');
        return true;
      default:
        return false;
    }
  });
  const id = required(packageId, 'package reference');
  tables.referenced.add(id);
  return id;
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new WireFormatError(`${what} is missing`);
  return value;
}
