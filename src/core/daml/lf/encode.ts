/**
 * Encodes package signatures as Daml-LF 2 `ArchivePayload` bytes, with the field numbers the decoder
 * (package.ts, archive.ts) reads, following the LF 2.1 conventions: names, dotted names and types are
 * interned (every type outside the table is a reference into it), type applications are flat `args`
 * lists, and other packages are named by interned package-id strings.
 *
 * Only signatures are written: data types, synonyms, templates with their choices (names, consuming,
 * argument and return types, and the controllers where the model has them), keys and the interfaces
 * they implement, and interfaces with their methods, view type, required interfaces and choices.
 * Other expressions (choice bodies, signatories, preconditions, method and view implementations) are
 * left out, so these packages describe templates and interfaces without the code a Daml engine would
 * run. The demo participant, which interprets no Daml, serves its catalog this way.
 */
import type { Choice, Controllers, DamlType, DataType, Interface, Kind, Module, QualifiedName, Template, TypeParam, TypeSynonym } from '../model';
import { BUILTIN_NUMBERS } from './package';
import { WireWriter } from './wire';

/** In a {@link PackageSource}, the package id of references to the package itself (its id is the hash of the result). */
export const SELF_PACKAGE = '';

export interface PackageSource {
  name: string;
  version: string;
  /** The Daml-LF 2 minor version written in the payload: `1`, `dev`, … */
  lfMinor: string;
  modules: Module[];
}

/** The `ArchivePayload` bytes of a package; its id is their SHA-256 (`packageIdOf`). */
export function encodeArchivePayload(source: PackageSource): Uint8Array {
  const tables = new InternTables();
  // Encoding the modules fills the interning tables, which are written after them.
  const modules = source.modules.map((m) => encodeModule(m, tables));
  const metadata = { name: tables.string(source.name), version: tables.string(source.version) };
  const pkg = WireWriter.message((w) => {
    for (const m of modules) w.bytes(1, m);
    for (const s of tables.strings) w.string(2, s, true);
    for (const segments of tables.dottedNames) w.embedded(3, (d) => d.packedInt32(1, segments));
    w.embedded(4, (m) => m.int32(1, metadata.name).int32(2, metadata.version));
    for (const t of tables.types) w.bytes(5, t);
  });
  return WireWriter.message((w) => w.string(3, source.lfMinor).bytes(4, pkg));
}

/** A serialized `Archive` (the content of a `.dalf`): SHA-256 as hash function, the payload and its hash. */
export function encodeArchive(payload: Uint8Array, packageId: string): Uint8Array {
  return WireWriter.message((w) => w.int32(1, 0).bytes(3, payload).string(4, packageId));
}

class InternTables {
  readonly strings: string[] = [];
  readonly dottedNames: number[][] = [];
  readonly types: Uint8Array[] = [];
  private readonly stringIndex = new Map<string, number>();
  private readonly dottedIndex = new Map<string, number>();
  private readonly typeIndex = new Map<string, number>();

  string(s: string): number {
    let i = this.stringIndex.get(s);
    if (i === undefined) {
      i = this.strings.push(s) - 1;
      this.stringIndex.set(s, i);
    }
    return i;
  }

  dottedName(name: string): number {
    let i = this.dottedIndex.get(name);
    if (i === undefined) {
      const segments = name.split('.').map((s) => this.string(s));
      i = this.dottedNames.push(segments) - 1;
      this.dottedIndex.set(name, i);
    }
    return i;
  }

  /** The index of `type` in the type table; its parts are interned first, so entries refer only to earlier ones. */
  type(type: DamlType): number {
    const key = JSON.stringify(type);
    let i = this.typeIndex.get(key);
    if (i === undefined) {
      const bytes = WireWriter.message((w) => writeTypeBody(w, type, this));
      i = this.types.push(bytes) - 1;
      this.typeIndex.set(key, i);
    }
    return i;
  }
}

/** A `Type` outside the table: a reference to the interned entry. */
function writeType(w: WireWriter, field: number, type: DamlType, tables: InternTables): void {
  const index = tables.type(type);
  w.embedded(field, (t) => t.int32(8, index, true));
}

function writeTypeBody(w: WireWriter, type: DamlType, tables: InternTables): void {
  const args = (a: WireWriter, list: DamlType[]) => {
    for (const arg of list) writeType(a, 2, arg, tables);
  };
  switch (type.kind) {
    case 'var':
      w.embedded(1, (v) => {
        v.int32(3, tables.string(type.name));
        args(v, type.args);
      });
      return;
    case 'con':
      w.embedded(2, (c) => {
        c.embedded(1, (id) => writeTypeConId(id, type.con, tables));
        args(c, type.args);
      });
      return;
    case 'builtin': {
      const number = BUILTIN_NUMBERS.get(type.builtin);
      if (number === undefined) throw new Error(`no builtin type number for ${type.builtin}`);
      w.embedded(3, (b) => {
        b.int32(1, number);
        args(b, type.args);
      });
      return;
    }
    case 'forall':
      w.embedded(4, (f) => {
        for (const p of type.params) f.embedded(1, (v) => writeTypeParam(v, p, tables));
        writeType(f, 2, type.body, tables);
      });
      return;
    case 'struct':
      w.embedded(5, (s) => {
        for (const field of type.fields) s.embedded(1, (f) => writeField(f, field.name, field.type, tables));
      });
      return;
    case 'nat':
      w.sint64(6, type.value, true);
      return;
    case 'syn':
      w.embedded(7, (s) => {
        s.embedded(1, (id) => writeTypeConId(id, type.syn, tables));
        args(s, type.args);
      });
      return;
  }
}

function writeTypeConId(w: WireWriter, name: QualifiedName, tables: InternTables): void {
  w.embedded(1, (module) => {
    module.embedded(1, (ref) => {
      if (name.packageId === SELF_PACKAGE) ref.embedded(1, () => undefined);
      else ref.int32(3, tables.string(name.packageId), true);
    });
    module.int32(2, tables.dottedName(name.moduleName));
  });
  w.int32(2, tables.dottedName(name.name));
}

/** FieldWithType and VarWithType: name = 3, type = 2. */
function writeField(w: WireWriter, name: string, type: DamlType, tables: InternTables): void {
  writeType(w, 2, type, tables);
  w.int32(3, tables.string(name));
}

function writeTypeParam(w: WireWriter, param: TypeParam, tables: InternTables): void {
  w.embedded(2, (k) => writeKind(k, param.kind));
  w.int32(3, tables.string(param.name));
}

function writeKind(w: WireWriter, kind: Kind): void {
  switch (kind.kind) {
    case 'star':
      w.embedded(1, () => undefined);
      return;
    case 'nat':
      w.embedded(3, () => undefined);
      return;
    case 'arrow':
      w.embedded(2, (a) => {
        for (const p of kind.params) a.embedded(1, (k) => writeKind(k, p));
        a.embedded(2, (k) => writeKind(k, kind.result));
      });
      return;
  }
}

function encodeModule(module: Module, tables: InternTables): Uint8Array {
  return WireWriter.message((w) => {
    w.int32(1, tables.dottedName(module.name));
    for (const s of module.synonyms) w.embedded(3, (x) => writeSynonym(x, s, tables));
    for (const d of module.dataTypes) w.embedded(4, (x) => writeDataType(x, d, tables));
    for (const t of module.templates) w.embedded(6, (x) => writeTemplate(x, t, { packageId: SELF_PACKAGE, moduleName: module.name, name: t.name }, tables));
    for (const i of module.interfaces) w.embedded(8, (x) => writeInterface(x, i, { packageId: SELF_PACKAGE, moduleName: module.name, name: i.name }, tables));
  });
}

function writeSynonym(w: WireWriter, synonym: TypeSynonym, tables: InternTables): void {
  w.int32(2, tables.dottedName(synonym.name));
  for (const p of synonym.params) w.embedded(3, (v) => writeTypeParam(v, p, tables));
  writeType(w, 4, synonym.type, tables);
}

function writeDataType(w: WireWriter, data: DataType, tables: InternTables): void {
  w.int32(2, tables.dottedName(data.name));
  for (const p of data.params) w.embedded(3, (v) => writeTypeParam(v, p, tables));
  w.bool(4, data.serializable);
  switch (data.kind) {
    case 'record':
    case 'variant': {
      const fields = data.kind === 'record' ? data.fields : data.constructors;
      w.embedded(data.kind === 'record' ? 5 : 6, (f) => {
        for (const field of fields) f.embedded(1, (x) => writeField(x, field.name, field.type, tables));
      });
      return;
    }
    case 'enum':
      w.embedded(7, (e) => e.packedInt32(2, data.constructors.map((c) => tables.string(c))));
      return;
    case 'interface':
      w.embedded(8, () => undefined);
      return;
  }
}

// The binders of the contract and of a choice's argument in template and interface expressions, as the compiler names them.
const THIS = 'this';
const ARG = 'arg';

function writeTemplate(w: WireWriter, template: Template, self: QualifiedName, tables: InternTables): void {
  w.int32(1, tables.dottedName(template.name));
  w.int32(2, tables.string(THIS));
  for (const choice of template.choices) w.embedded(6, (c) => writeChoice(c, choice, { kind: 'template', record: self }, tables));
  const keyType = template.keyType;
  if (keyType) w.embedded(9, (k) => writeType(k, 1, keyType, tables));
  // Implements: the interface (1) and the instance body (2), whose method and view expressions are left out.
  for (const iface of template.implements) {
    w.embedded(10, (i) => {
      i.embedded(1, (id) => writeTypeConId(id, iface, tables));
      i.embedded(2, () => undefined);
    });
  }
}

/** DefInterface: type constructor 2, methods 3, binder 4, choices 5, view type 6, required interfaces 7 (LF 2 interfaces have no type parameters). */
function writeInterface(w: WireWriter, iface: Interface, self: QualifiedName, tables: InternTables): void {
  w.int32(2, tables.dottedName(iface.name));
  for (const method of iface.methods) {
    w.embedded(3, (m) => {
      m.int32(2, tables.string(method.name));
      writeType(m, 3, method.type, tables);
    });
  }
  w.int32(4, tables.string(THIS));
  for (const choice of iface.choices) w.embedded(5, (c) => writeChoice(c, choice, { kind: 'interface', name: self, viewType: iface.viewType }, tables));
  writeType(w, 6, iface.viewType, tables);
  for (const required of iface.requires) w.embedded(7, (id) => writeTypeConId(id, required, tables));
}

/** What a choice belongs to: the template (its record type) or the interface (and its view type). */
type ChoiceOwner = { kind: 'template'; record: QualifiedName } | { kind: 'interface'; name: QualifiedName; viewType: DamlType };

/** TemplateChoice: name, consuming, controllers (when known), argument and return type; no observers or update. */
function writeChoice(w: WireWriter, choice: Choice, owner: ChoiceOwner, tables: InternTables): void {
  w.int32(2, tables.string(choice.name));
  w.bool(3, choice.consuming);
  const controllers = choice.controllers;
  if (controllers?.kind === 'terms' && canWriteControllers(controllers, owner, choice)) w.embedded(4, (e) => writeControllers(e, controllers, owner, choice, tables));
  w.embedded(6, (arg) => writeField(arg, ARG, choice.argType, tables));
  writeType(w, 8, choice.returnType, tables);
}

type KnownControllers = Extract<Controllers, { kind: 'terms' }>;

/**
 * Whether the controllers have a plain LF expression here: a list of fields (of the contract for a
 * template, of `view this` for an interface, of the argument when it is a record), one level deep, or
 * an interface's signatories or observers alone. Other forms (what the compiler writes for
 * `signatory this` of a template, nested records) need code this encoder does not write; such a
 * choice is written without controllers, as a package whose controllers are unknown.
 */
function canWriteControllers(controllers: KnownControllers, owner: ChoiceOwner, choice: Choice): boolean {
  const [only] = controllers.terms;
  if (controllers.terms.length === 1 && (only.kind === 'signatories' || only.kind === 'observers')) return owner.kind === 'interface';
  return controllers.terms.every((term) => {
    switch (term.kind) {
      case 'contractField':
        return owner.kind === 'template' && term.path.length === 1;
      case 'viewField':
        return owner.kind === 'interface' && owner.viewType.kind === 'con' && term.path.length === 1;
      case 'argumentField':
        return choice.argType.kind === 'con' && term.path.length === 1;
      default:
        return false;
    }
  });
}

/** The controllers that {@link canWriteControllers} accepts, as an LF expression (`[this.owner]`, `[(view this).owner]`, …). */
function writeControllers(w: WireWriter, controllers: KnownControllers, owner: ChoiceOwner, choice: Choice, tables: InternTables): void {
  const unsupported = (what: string) => new Error(`the encoder cannot write the controllers of ${choice.name}: ${what}`);
  const [only] = controllers.terms;
  if (controllers.terms.length === 1 && (only.kind === 'signatories' || only.kind === 'observers')) {
    if (owner.kind !== 'interface') throw unsupported(`${only.kind} of a template`);
    // SignatoryInterface = 36, ObserverInterface = 37 { interface = 1; expr = 2 }
    w.embedded(only.kind === 'signatories' ? 36 : 37, (x) => x.embedded(1, (id) => writeTypeConId(id, owner.name, tables)).embedded(2, (e) => writeVar(e, THIS, tables)));
    return;
  }
  const party: DamlType = { kind: 'builtin', builtin: 'Party', args: [] };
  const recordOf = (type: DamlType, what: string): QualifiedName => {
    if (type.kind !== 'con') throw unsupported(`${what} is not a record type`);
    return type.con;
  };
  // Cons { type = 1; front = 2; tail = 3 (Nil = 21 { type = 1 }) }
  w.embedded(22, (cons) => {
    writeType(cons, 1, party, tables);
    for (const term of controllers.terms) {
      if (term.kind === 'signatories' || term.kind === 'observers') throw unsupported(`${term.kind} beside other controllers`);
      if (term.path.length !== 1) throw unsupported('a field of a nested record');
      const field = term.path[0];
      cons.embedded(2, (e) => {
        switch (term.kind) {
          case 'contractField':
            if (owner.kind !== 'template') throw unsupported('a contract field of an interface');
            return writeProjection(e, owner.record, field, (r) => writeVar(r, THIS, tables), tables);
          case 'argumentField':
            return writeProjection(e, recordOf(choice.argType, 'the argument'), field, (r) => writeVar(r, ARG, tables), tables);
          case 'viewField': {
            if (owner.kind !== 'interface') throw unsupported('a view field of a template');
            // ViewInterface = 38 { interface = 1; expr = 2 }
            const view = (r: WireWriter) => r.embedded(38, (v) => v.embedded(1, (id) => writeTypeConId(id, owner.name, tables)).embedded(2, (x) => writeVar(x, THIS, tables)));
            return writeProjection(e, recordOf(owner.viewType, 'the view'), field, view, tables);
          }
        }
      });
    }
    cons.embedded(3, (tail) => tail.embedded(21, (nil) => writeType(nil, 1, party, tables)));
  });
}

/** Expr.var_interned_str = 2. */
function writeVar(w: WireWriter, name: string, tables: InternTables): void {
  w.int32(2, tables.string(name), true);
}

/** Expr.rec_proj = 8 { tycon = 1 (Type.Con { tycon = 1 }); record = 3; field = 4 }. */
function writeProjection(w: WireWriter, record: QualifiedName, field: string, writeRecord: (r: WireWriter) => void, tables: InternTables): void {
  w.embedded(8, (p) => {
    p.embedded(1, (con) => con.embedded(1, (id) => writeTypeConId(id, record, tables)));
    p.embedded(3, writeRecord);
    p.int32(4, tables.string(field));
  });
}
