/**
 * The packages a demo participant knows: its built-in catalog, and packages from DARs (`--dar`, or
 * uploaded). Each is kept as its ArchivePayload bytes (served as they are) and its decoded signature.
 * A template is its LF signature plus behaviour: the catalog's choices are TypeScript functions; for
 * templates from DARs the simulator, which interprets no Daml, offers only what needs no Daml code:
 * creates and `Archive` (see {@link darTemplateBehaviour}).
 */
import { comparePackageVersions } from '../core/daml/packageVersions';
import { packageRefOf, parseIdentifier as parseDamlIdentifier } from '../core/daml/identifiers';
import { decodeArchivePayload, readArchiveEnvelope, readDar } from '../core/daml/lf/archive';
import { PackageIndex, type TypeLookup } from '../core/daml/packageIndex';
import type { DamlPackage, DamlType, DataType, QualifiedName, TypeSynonym } from '../core/daml/model';
import { LedgerApiError } from './errors';
import type { DamlRecord } from './values';

/** What a choice body may do: create contracts (as the exercise's consequences) or abort. */
export interface ChoiceContext {
  /** Creates a contract of `template`; returns its contract id. */
  create(template: TemplateDef, argument: DamlRecord): string;
  /** Daml `assert`/`abort`: the whole submission fails with DAML_INTERPRETATION_ERROR. */
  fail(message: string): never;
}

export interface ChoiceBehaviour {
  controllers(contract: DamlRecord, argument: DamlRecord, signatories: readonly string[]): string[];
  /** Runs the choice on a contract of `self`; returns the exercise result (a Daml value). */
  body(ctx: ChoiceContext, self: TemplateDef, contract: DamlRecord, argument: DamlRecord): unknown;
}

/** What a template's `interface instance` would compute, written in TypeScript. */
export interface InterfaceInstanceBehaviour {
  /** The instance's `view`: a value of the interface's view type. */
  view(argument: DamlRecord): DamlRecord;
  /**
   * The interface's methods, by name: the contract's argument (`this`) first, then the method's
   * arguments. A method returning the interface type returns the argument of a contract of the template.
   */
  methods?: Record<string, (argument: DamlRecord, ...args: unknown[]) => unknown>;
}

/** A contract seen through an interface, as an interface choice's body sees `this`. */
export interface InterfaceInstance {
  template: TemplateDef;
  argument: DamlRecord;
  signatories: readonly string[];
  view: DamlRecord;
  /** Calls a method of the instance (see {@link InterfaceInstanceBehaviour.methods}). */
  call(method: string, ...args: unknown[]): unknown;
}

/** What the Daml code of an interface's choice would do, written in TypeScript: in terms of the instance. */
export interface InterfaceChoiceBehaviour {
  controllers(instance: InterfaceInstance, argument: DamlRecord): string[];
  body(ctx: ChoiceContext, instance: InterfaceInstance, argument: DamlRecord): unknown;
}

/** What the Daml code of an interface would do: its choices (`Archive` need not be given). */
export interface InterfaceBehaviour {
  choices: Record<string, InterfaceChoiceBehaviour>;
}

/** What the Daml code of a template would do, written in TypeScript. */
export interface TemplateBehaviour {
  signatories(argument: DamlRecord): string[];
  observers(argument: DamlRecord): string[];
  /** The template's `ensure`: a failure message, or undefined when it holds. */
  ensure?(argument: DamlRecord): string | undefined;
  key?: { of(argument: DamlRecord): unknown; maintainers(key: unknown): string[] };
  /** By choice name; `Archive` need not be given. */
  choices: Record<string, ChoiceBehaviour>;
  /** The template's interface instances, by the interface's id (package-id form). */
  interfaces?: Record<string, InterfaceInstanceBehaviour>;
}

/** An interface a template implements. */
export interface InterfaceInstanceDef {
  /** The interface, package-id form (as in `interfaceViews` and `implementedInterfaces`). */
  interfaceId: string;
  /** Undefined when the simulator cannot compute the view (instances in packages from DARs). */
  view?(argument: DamlRecord): DamlRecord;
  methods?: InterfaceInstanceBehaviour['methods'];
}

export interface InterfaceChoiceDef {
  name: string;
  consuming: boolean;
  argType: DamlType;
  returnType: DamlType;
  /** Undefined when the simulator cannot run the choice (choices of interfaces from DARs, but Archive). */
  behaviour?: InterfaceChoiceBehaviour;
}

/** An interface a package defines. */
export interface InterfaceDef {
  pkg: PackageDef;
  moduleName: string;
  entityName: string;
  /** Package-id form. */
  id: string;
  choices: ReadonlyMap<string, InterfaceChoiceDef>;
}

export interface ChoiceDef {
  name: string;
  consuming: boolean;
  argType: DamlType;
  returnType: DamlType;
  /** Undefined when the simulator cannot run the choice (choices of templates from DARs, but Archive). */
  behaviour?: ChoiceBehaviour;
}

export interface TemplateDef {
  pkg: PackageDef;
  moduleName: string;
  entityName: string;
  /** Package-id form, as responses carry it. */
  id: string;
  /** `packageName:Module:Entity`: what name-form filters match on, across package versions. */
  nameKey: string;
  /** The contract's type: the record of the template's name. */
  type: DamlType;
  signatories(argument: DamlRecord): string[];
  observers(argument: DamlRecord): string[];
  ensure?(argument: DamlRecord): string | undefined;
  key?: { type: DamlType; of(argument: DamlRecord): unknown; maintainers(key: unknown): string[] };
  choices: ReadonlyMap<string, ChoiceDef>;
  /** The interfaces the template implements, in the order its package lists them. */
  interfaces: readonly InterfaceInstanceDef[];
}

/** Where a package came from: the built-in catalog, `--dar` at start, or an upload. */
export type PackageOrigin = 'catalog' | 'dar' | 'upload';

/** The implicit `Archive` every template has: consuming, controlled by the contract's signatories, returns (). */
const ARCHIVE: ChoiceBehaviour = { controllers: (_contract, _argument, signatories) => [...signatories], body: () => ({}) };
/** Every interface's `Archive`: the same, through the interface. */
const INTERFACE_ARCHIVE: InterfaceChoiceBehaviour = { controllers: (instance) => [...instance.signatories], body: () => ({}) };

export class PackageDef {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  /** Direct dependencies, by package id. */
  readonly dependencies: readonly string[];
  readonly templates: readonly TemplateDef[];
  readonly interfaces: readonly InterfaceDef[];

  private constructor(
    readonly payload: Uint8Array,
    readonly signature: DamlPackage,
    readonly origin: PackageOrigin,
    behaviourOf: (nameKey: string) => TemplateBehaviour | undefined,
    interfaceBehaviourOf: (nameKey: string) => InterfaceBehaviour | undefined,
  ) {
    this.id = signature.id;
    this.name = signature.name;
    this.version = signature.version;
    this.dependencies = signature.dependencies;
    this.templates = signature.modules.flatMap((m) =>
      m.templates.map((t) => {
        const nameKey = `${signature.name}:${m.name}:${t.name}`;
        const fields = m.dataTypes.find((d) => d.name === t.name);
        return templateDef(this, m.name, t, behaviourOf(nameKey) ?? darTemplateBehaviour(`${signature.id}:${m.name}:${t.name}`, fields));
      }),
    );
    this.interfaces = signature.modules.flatMap((m) =>
      m.interfaces.map((i) => {
        const behaviour = interfaceBehaviourOf(`${signature.name}:${m.name}:${i.name}`);
        const choices = i.choices.map((c): [string, InterfaceChoiceDef] => [
          c.name,
          { name: c.name, consuming: c.consuming, argType: c.argType, returnType: c.returnType, behaviour: behaviour?.choices[c.name] ?? (c.name === 'Archive' ? INTERFACE_ARCHIVE : undefined) },
        ]);
        return { pkg: this, moduleName: m.name, entityName: i.name, id: `${signature.id}:${m.name}:${i.name}`, choices: new Map(choices) };
      }),
    );
  }

  /**
   * A package from its ArchivePayload bytes; templates with a behaviour from `behaviourOf` run it,
   * the others get what the simulator can do for any template.
   * @throws LfDecodeError
   */
  static fromPayload(
    payload: Uint8Array,
    origin: PackageOrigin,
    behaviourOf: (nameKey: string) => TemplateBehaviour | undefined = () => undefined,
    interfaceBehaviourOf: (nameKey: string) => InterfaceBehaviour | undefined = () => undefined,
  ): PackageDef {
    return new PackageDef(payload, decodeArchivePayload(payload), origin, behaviourOf, interfaceBehaviourOf);
  }
}

function templateDef(pkg: PackageDef, moduleName: string, template: DamlPackage['modules'][number]['templates'][number], behaviour: TemplateBehaviour): TemplateDef {
  const name: QualifiedName = { packageId: pkg.id, moduleName, name: template.name };
  const key = behaviour.key;
  const keyType = template.keyType;
  return {
    pkg,
    moduleName,
    entityName: template.name,
    id: `${pkg.id}:${moduleName}:${template.name}`,
    nameKey: `${pkg.name}:${moduleName}:${template.name}`,
    type: { kind: 'con', con: name, args: [] },
    signatories: behaviour.signatories,
    observers: behaviour.observers,
    ensure: behaviour.ensure,
    key: key && keyType ? { type: keyType, of: key.of, maintainers: key.maintainers } : undefined,
    choices: new Map(
      template.choices.map((c) => [
        c.name,
        { name: c.name, consuming: c.consuming, argType: c.argType, returnType: c.returnType, behaviour: behaviour.choices[c.name] ?? (c.name === 'Archive' ? ARCHIVE : undefined) },
      ]),
    ),
    interfaces: template.implements.map((i) => {
      const interfaceId = `${i.packageId}:${i.moduleName}:${i.name}`;
      const instance = behaviour.interfaces?.[interfaceId];
      return { interfaceId, view: instance?.view, methods: instance?.methods };
    }),
  };
}

/** Refusals of what the simulator cannot do without interpreting Daml. */
export function beyondTheSimulator(reason: string): LedgerApiError {
  return new LedgerApiError('UNSUPPORTED_BY_DEMO_PARTICIPANT', `The demo participant is a simulator and does not interpret Daml: ${reason}`);
}

/**
 * What the simulator does for a template from a DAR. It cannot evaluate the template's signatory
 * expression, so it assumes that the parties in the contract's top-level `Party` fields are its
 * signatories (a create needs all of them in actAs, and they alone see the contract); a template
 * without such a field cannot be created. There are no observers, no key and no `ensure`.
 */
export function darTemplateBehaviour(templateId: string, fields: DataType | undefined): TemplateBehaviour {
  const partyFields = fields?.kind === 'record' ? fields.fields.filter((f) => f.type.kind === 'builtin' && f.type.builtin === 'Party').map((f) => f.name) : [];
  return {
    signatories: (argument) => {
      if (partyFields.length === 0) {
        throw beyondTheSimulator(`it takes the signatories of ${templateId} to be the parties in its top-level Party fields, and it has none`);
      }
      return partyFields.map((f) => String(argument[f]));
    },
    observers: () => [],
    choices: {},
  };
}

/** The packages of a DAR (main package first). @throws LfDecodeError */
export function packagesOfDar(bytes: Uint8Array, origin: PackageOrigin): { main: PackageDef; packages: PackageDef[] } {
  const payloads = new Map<string, Uint8Array>();
  const contents = readDar(bytes, (dalf) => {
    const { payload, hash } = readArchiveEnvelope(dalf);
    const pkg = decodeArchivePayload(payload, hash);
    payloads.set(pkg.id, payload);
    return pkg;
  });
  const packages = contents.packages.map((p) => PackageDef.fromPayload(payloads.get(p.id)!, origin));
  const main = packages.find((p) => p.id === contents.mainPackageId)!;
  return { main, packages: [main, ...packages.filter((p) => p !== main)] };
}

// ---------------------------------------------------------------- identifiers

export interface IdentifierRef {
  /** `#name` or a package id. */
  packageRef: string;
  moduleName: string;
  entityName: string;
}

/** Parses `pkg:Module.Path:Entity`; undefined when malformed (Canton then answers 400 text/plain). */
export function parseIdentifierRef(text: string): IdentifierRef | undefined {
  const id = parseDamlIdentifier(text);
  return id && { packageRef: packageRefOf(id), moduleName: id.moduleName, entityName: id.entityName };
}

export function isPackageNameRef(ref: IdentifierRef): boolean {
  return ref.packageRef.startsWith('#');
}

export function noSynchronizer(reason: string): LedgerApiError {
  return new LedgerApiError('NO_SYNCHRONIZER_FOR_SUBMISSION', `No valid synchronizer for submission found: ${reason}`);
}

function notFound(text: string): LedgerApiError {
  return new LedgerApiError('TEMPLATES_OR_INTERFACES_NOT_FOUND', `The following templates or interfaces do not exist: ${text}`);
}

// ---------------------------------------------------------------- the store

/** The participant's packages, by id, in the order they were added; also the type lookup for Daml values. */
export class PackageStore implements TypeLookup {
  private readonly byId = new Map<string, PackageDef>();
  private readonly templatesById = new Map<string, TemplateDef>();
  private readonly index = new PackageIndex();

  constructor(packages: Iterable<PackageDef> = []) {
    for (const p of packages) this.add(p);
  }

  /** Adds a package; false when it was there already (a package id names its contents, so nothing changes). */
  add(p: PackageDef): boolean {
    if (this.byId.has(p.id)) return false;
    this.byId.set(p.id, p);
    this.index.add(p.signature);
    for (const t of p.templates) this.templatesById.set(t.id, t);
    return true;
  }

  get(id: string): PackageDef | undefined {
    return this.byId.get(id);
  }

  all(): PackageDef[] {
    return [...this.byId.values()];
  }

  template(id: string): TemplateDef | undefined {
    return this.templatesById.get(id);
  }

  /** An interface by its package-id form. */
  interface(id: string): InterfaceDef | undefined {
    return this.byId.get(id.slice(0, id.indexOf(':')))?.interfaces.find((i) => i.id === id);
  }

  dataType(name: QualifiedName): DataType | undefined {
    return this.index.dataType(name);
  }

  synonym(name: QualifiedName): TypeSynonym | undefined {
    return this.index.synonym(name);
  }

  /** All transitive dependencies of a package (not including itself). */
  transitiveDependencies(p: PackageDef): Set<string> {
    const seen = new Set<string>();
    const visit = (id: string) => {
      for (const dep of this.byId.get(id)?.dependencies ?? []) {
        if (!seen.has(dep)) {
          seen.add(dep);
          visit(dep);
        }
      }
    };
    visit(p.id);
    return seen;
  }

  private named(name: string, text: string): PackageDef[] {
    const found = this.all().filter((p) => p.name === name);
    if (found.length === 0) {
      throw new LedgerApiError(
        'PACKAGE_NAMES_NOT_FOUND',
        `The following package names do not match upgradable packages uploaded on this participant: [${name}] (in ${text})`,
      );
    }
    return found;
  }

  /**
   * The template a command refers to. The package-name form picks the highest version vetted on the
   * synchronizer (Canton's package preference); the package-id form takes that package, if vetted.
   */
  resolveCommandTemplate(text: string, ref: IdentifierRef, vetted: ReadonlySet<string>): TemplateDef {
    if (isPackageNameRef(ref)) {
      const highest = highestVetted(this.named(ref.packageRef.slice(1), text), vetted);
      if (!highest) throw noSynchronizer(`no package named ${ref.packageRef.slice(1)} is vetted on the synchronizer`);
      const found = templateIn(highest, ref);
      if (!found) throw notFound(text);
      return found;
    }
    const p = this.byId.get(ref.packageRef);
    const found = p && templateIn(p, ref);
    if (!found) throw notFound(text);
    if (!vetted.has(found.pkg.id)) throw noSynchronizer(`package ${found.pkg.id} is not vetted on the synchronizer`);
    return found;
  }

  /**
   * The interface an exercise command names in its `templateId`, resolved as templates are (the
   * highest vetted version of the package name, or that package if vetted); undefined when the id
   * names no interface.
   */
  resolveCommandInterface(ref: IdentifierRef, vetted: ReadonlySet<string>): InterfaceDef | undefined {
    const byId = this.byId.get(ref.packageRef);
    const named = isPackageNameRef(ref) ? this.all().filter((p) => p.name === ref.packageRef.slice(1)) : byId ? [byId] : [];
    const defining = named.filter((p) => interfaceIn(p, ref));
    if (defining.length === 0) return undefined;
    const highest = highestVetted(defining, vetted);
    if (!highest) throw noSynchronizer(`no package defining ${ref.packageRef}:${ref.moduleName}:${ref.entityName} is vetted on the synchronizer`);
    return interfaceIn(highest, ref);
  }

  /** The `nameKey` a filter matches on. The package-id form is resolved to its package name (3.3/3.4 behaviour). */
  resolveFilterTemplate(text: string, ref: IdentifierRef): string {
    const nameKey = (name: string) => `${name}:${ref.moduleName}:${ref.entityName}`;
    if (isPackageNameRef(ref)) {
      const found = this.named(ref.packageRef.slice(1), text).some((p) => templateIn(p, ref));
      if (!found) throw notFound(text);
      return nameKey(ref.packageRef.slice(1));
    }
    const p = this.byId.get(ref.packageRef);
    if (!p || !templateIn(p, ref)) throw notFound(text);
    return nameKey(p.name);
  }

  /**
   * The interfaces a filter's interface id stands for: the interface in every package of its package
   * name (so contracts of any version's instance match), by id. The package-id form is resolved to its
   * package name, as for templates.
   */
  resolveFilterInterface(text: string, ref: IdentifierRef): ReadonlySet<string> {
    let name = ref.packageRef.slice(1);
    if (!isPackageNameRef(ref)) {
      const p = this.byId.get(ref.packageRef);
      if (!p || !interfaceIn(p, ref)) throw notFound(text);
      name = p.name;
    }
    const found = this.named(name, text).flatMap((p) => interfaceIn(p, ref) ?? []);
    if (found.length === 0) throw notFound(text);
    return new Set(found.map((i) => i.id));
  }
}

function templateIn(p: PackageDef, ref: IdentifierRef): TemplateDef | undefined {
  return p.templates.find((t) => t.moduleName === ref.moduleName && t.entityName === ref.entityName);
}

function interfaceIn(p: PackageDef, ref: IdentifierRef): InterfaceDef | undefined {
  return p.interfaces.find((i) => i.moduleName === ref.moduleName && i.entityName === ref.entityName);
}

/** What a package-name reference in a command resolves to: the highest version vetted. */
function highestVetted(packages: readonly PackageDef[], vetted: ReadonlySet<string>): PackageDef | undefined {
  return packages.filter((p) => vetted.has(p.id)).sort((a, b) => comparePackageVersions(b.version, a.version))[0];
}
