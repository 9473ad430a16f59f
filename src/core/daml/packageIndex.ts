/**
 * Look-ups over many decoded packages: templates, choices, interfaces and data types by qualified
 * name, and the package-name form of identifiers resolved to a package id.
 */
import { parseIdentifier, printIdentifier, type DamlIdentifier } from './identifiers';
import { comparePackageVersions } from './packageVersions';
import { decodeArchivePayload, readArchiveEnvelope, readDar, type DarContents } from './lf/archive';
import type { Choice, DamlPackage, DataType, Interface, Module, QualifiedName, Template, TypeSynonym } from './model';

/** What checking and schema generation need from an index: the definitions behind type references. */
export interface TypeLookup {
  dataType(name: QualifiedName): DataType | undefined;
  synonym(name: QualifiedName): TypeSynonym | undefined;
}

/** A template with where it lives and its id in both forms. */
export interface TemplateEntry {
  template: Template;
  /** The record of the template's fields (the data type of the same name). */
  fields: DataType | undefined;
  name: QualifiedName;
  packageName: string;
  packageVersion: string;
  /** `<package id>:Module:Template`. */
  packageIdForm: string;
  /** `#package-name:Module:Template`. */
  packageNameForm: string;
}

/** A choice that can be exercised on a template: its own, or one of an interface it implements. */
export interface ChoiceEntry {
  choice: Choice;
  /** The template, or the interface that declares the choice (exercise interface choices by the interface's id). */
  declaredBy: QualifiedName;
  declaredIn: 'template' | 'interface';
}

export interface PackageIndexOptions {
  /**
   * The ids of the packages the participant has vetted, as known when asked (the vetting state is read
   * after the packages and changes with every vetting write); undefined while unknown. With it, `#name`
   * resolves to the highest vetted version, as Canton's package selection does.
   */
  vettedPackageIds?: () => ReadonlySet<string> | undefined;
}

/** An index over decoded packages. Packages are immutable, so adding one twice is harmless. */
export class PackageIndex implements TypeLookup {
  private readonly byId = new Map<string, DamlPackage>();
  /** By package id, then module name: no key string made per look-up (a check looks up a module per command). */
  private readonly modules = new Map<string, Map<string, Module>>();
  /**
   * Data types found, by the name object asked with (the types in a package hold their names as
   * objects, and a check asks for the same few, field after field). Only what was found: a package
   * added later may hold what is missing now.
   */
  private readonly dataTypesFound = new WeakMap<QualifiedName, DataType>();
  private choicesFound: { packages: number; lists: WeakMap<Template, readonly ChoiceEntry[]> } = { packages: 0, lists: new WeakMap() };
  private readonly vetted: () => ReadonlySet<string> | undefined;
  private byName: { vetted: ReadonlySet<string> | undefined; packages: number; ids: Map<string, string | undefined> } | undefined;

  constructor(packages: Iterable<DamlPackage> = [], options: PackageIndexOptions = {}) {
    this.vetted = options.vettedPackageIds ?? (() => undefined);
    for (const p of packages) this.add(p);
  }

  add(pkg: DamlPackage): void {
    if (this.byId.has(pkg.id)) return;
    this.byId.set(pkg.id, pkg);
    this.modules.set(pkg.id, new Map(pkg.modules.map((m) => [m.name, m])));
  }

  package(id: string): DamlPackage | undefined {
    return this.byId.get(id);
  }

  packages(): DamlPackage[] {
    return [...this.byId.values()];
  }

  /**
   * The package id `#name` stands for: the one rule every surface (checks, hovers, completions, the
   * template picker) resolves a package name with. Canton submits a command with the highest version
   * of the name that is vetted (topology-aware package selection: "the highest-versioned commonly-vetted
   * package ID for each package name", `TopologyAwareCommandExecutor.scala` in
   * community/ledger/ledger-api-core, platform/apiserver/execution; read on Canton's main line, 2026), so: the highest
   * vetted version when the vetting state is known and vets one, else the highest version known.
   */
  resolvePackageName(name: string): string | undefined {
    const vetted = this.vetted();
    // Asked once per command checked: remembered while the packages and the vetted set stay the same.
    let memo = this.byName;
    if (!memo || memo.vetted !== vetted || memo.packages !== this.byId.size) memo = this.byName = { vetted, packages: this.byId.size, ids: new Map() };
    if (memo.ids.has(name)) return memo.ids.get(name);
    const id = this.highestOf(name, vetted);
    memo.ids.set(name, id);
    return id;
  }

  private highestOf(name: string, vetted: ReadonlySet<string> | undefined): string | undefined {
    let best: DamlPackage | undefined;
    let bestVetted: DamlPackage | undefined;
    for (const p of this.byId.values()) {
      if (p.name !== name) continue;
      if (!best || comparePackageVersions(p.version, best.version) > 0) best = p;
      if (vetted?.has(p.id) && (!bestVetted || comparePackageVersions(p.version, bestVetted.version) > 0)) bestVetted = p;
    }
    return (bestVetted ?? best)?.id;
  }

  /** The qualified name an identifier (parsed, or text in either form) refers to; undefined if the package is unknown. */
  resolve(id: DamlIdentifier | string): QualifiedName | undefined {
    const parsed = typeof id === 'string' ? parseIdentifier(id) : id;
    if (!parsed) return undefined;
    const packageId = parsed.form === 'package-name' ? this.resolvePackageName(parsed.packageName) : parsed.packageId;
    if (!packageId || !this.byId.has(packageId)) return undefined;
    return { packageId, moduleName: parsed.moduleName, name: parsed.entityName };
  }

  module(packageId: string, moduleName: string): Module | undefined {
    return this.modules.get(packageId)?.get(moduleName);
  }

  dataType(name: QualifiedName): DataType | undefined {
    let found = this.dataTypesFound.get(name);
    if (!found) {
      found = this.module(name.packageId, name.moduleName)?.dataTypes.find((d) => d.name === name.name);
      if (found) this.dataTypesFound.set(name, found);
    }
    return found;
  }

  synonym(name: QualifiedName): TypeSynonym | undefined {
    return this.module(name.packageId, name.moduleName)?.synonyms.find((s) => s.name === name.name);
  }

  template(id: QualifiedName | DamlIdentifier | string): Template | undefined {
    const name = this.qualified(id);
    return name && this.module(name.packageId, name.moduleName)?.templates.find((t) => t.name === name.name);
  }

  interface(id: QualifiedName | DamlIdentifier | string): Interface | undefined {
    const name = this.qualified(id);
    return name && this.module(name.packageId, name.moduleName)?.interfaces.find((i) => i.name === name.name);
  }

  /** Every template of every indexed package, with its ids in both forms. */
  templates(): TemplateEntry[] {
    const entries: TemplateEntry[] = [];
    for (const p of this.byId.values()) {
      for (const module of p.modules) {
        for (const template of module.templates) {
          const name: QualifiedName = { packageId: p.id, moduleName: module.name, name: template.name };
          entries.push({
            template,
            fields: module.dataTypes.find((d) => d.name === template.name),
            name,
            packageName: p.name,
            packageVersion: p.version,
            packageIdForm: printIdentifier({ form: 'package-id', packageId: p.id, moduleName: module.name, entityName: template.name }),
            packageNameForm: printIdentifier({ form: 'package-name', packageName: p.name, moduleName: module.name, entityName: template.name }),
          });
        }
      }
    }
    return entries;
  }

  /**
   * One template per package-name form (`#name:Module:Template`): the one that form resolves to
   * (`resolvePackageName`), so that a list shows the version a command would use.
   */
  templatesByPackageName(): TemplateEntry[] {
    const chosen = new Map<string, string | undefined>();
    return this.templates().filter((t) => {
      if (!chosen.has(t.packageName)) chosen.set(t.packageName, this.resolvePackageName(t.packageName));
      return chosen.get(t.packageName) === t.name.packageId;
    });
  }

  /**
   * The choices that can be exercised on a template: its own, then those of the interfaces it implements
   * (which carry the interface's name: exercise them with the interface id). Undefined if the template is unknown.
   */
  choices(templateId: QualifiedName | DamlIdentifier | string): readonly ChoiceEntry[] | undefined {
    const name = this.qualified(templateId);
    const template = name && this.template(name);
    if (!name || !template) return undefined;
    // A check asks for every exercise: the same few templates' lists, while the packages stay the same
    // (one added later may hold an interface that is missing now).
    if (this.choicesFound.packages !== this.byId.size) this.choicesFound = { packages: this.byId.size, lists: new WeakMap() };
    let entries = this.choicesFound.lists.get(template);
    if (entries) return entries;
    const list: ChoiceEntry[] = template.choices.map((choice) => ({ choice, declaredBy: name, declaredIn: 'template' }));
    const own = new Set(template.choices.map((c) => c.name));
    for (const ifaceName of template.implements) {
      for (const choice of this.interface(ifaceName)?.choices ?? []) {
        // Every interface declares `Archive` too; the template's own is the one to show.
        if (!own.has(choice.name)) list.push({ choice, declaredBy: ifaceName, declaredIn: 'interface' });
      }
    }
    entries = Object.freeze(list);
    this.choicesFound.lists.set(template, entries);
    return entries;
  }

  private qualified(id: QualifiedName | DamlIdentifier | string): QualifiedName | undefined {
    return typeof id === 'object' && 'packageId' in id && 'name' in id ? id : this.resolve(id);
  }
}

/**
 * Decoded packages by id. A package id is the hash of its contents, so a decoded package never goes
 * stale: decode each at most once, whichever way it arrives (participant, .dalf, DAR).
 */
export class PackageCache {
  private readonly decoded = new Map<string, DamlPackage>();

  get(id: string): DamlPackage | undefined {
    return this.decoded.get(id);
  }

  /** Adds an already decoded package (e.g. read back from a JSON cache on disk). */
  put(pkg: DamlPackage): void {
    this.decoded.set(pkg.id, pkg);
  }

  /** The package in `payload` (the bytes of `GET /v2/packages/{id}`), decoded once. @throws LfDecodeError */
  fromPayload(payload: Uint8Array, id: string): DamlPackage {
    return this.decoded.get(id) ?? this.remember(decodeArchivePayload(payload, id));
  }

  /** The package in a `.dalf`, decoded once. @throws LfDecodeError */
  fromArchive(bytes: Uint8Array): DamlPackage {
    const { payload, hash } = readArchiveEnvelope(bytes);
    return this.fromPayload(payload, hash);
  }

  /** The packages of a DAR; those already decoded are not decoded again. @throws LfDecodeError */
  fromDar(bytes: Uint8Array): DarContents {
    return readDar(bytes, (dalf) => this.fromArchive(dalf));
  }

  private remember(pkg: DamlPackage): DamlPackage {
    this.decoded.set(pkg.id, pkg);
    return pkg;
  }
}
