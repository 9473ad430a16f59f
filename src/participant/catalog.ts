/**
 * The built-in packages and templates of the demo participant. There is no Daml engine: each
 * choice is a small TypeScript function with the effect the Daml code would have.
 *
 * Package ids are sha256(name + version), so they are the same on every run.
 */
import { packageRefOf, parseIdentifier as parseDamlIdentifier } from '../core/daml/identifiers';
import { comparePackageVersions } from '../core/daml/packageVersions';
import { LedgerApiError } from './errors';
import { sha256Hex } from './ids';
import { T, formatNumeric, parseNumeric, type DamlRecord, type DamlType } from './values';

type RecordType = DamlType & { kind: 'Record' };

/** What a choice body may do: create contracts (as the exercise's consequences) or abort. */
export interface ChoiceContext {
  /** Creates a contract of `template`; returns its contract id. */
  create(template: TemplateDef, argument: DamlRecord): string;
  /** Daml `assert`/`abort`: the whole submission fails with DAML_INTERPRETATION_ERROR. */
  fail(message: string): never;
}

export interface ChoiceDef {
  name: string;
  consuming: boolean;
  argument: RecordType;
  controllers(contract: DamlRecord, argument: DamlRecord): string[];
  /** Runs the choice on a contract of `self`; returns the exercise result (a Daml value). */
  body(ctx: ChoiceContext, self: TemplateDef, contract: DamlRecord, argument: DamlRecord): unknown;
}

export interface KeyDef {
  type: DamlType;
  of(argument: DamlRecord): unknown;
  maintainers(key: unknown): string[];
}

export interface TemplateDef {
  pkg: PackageDef;
  moduleName: string;
  entityName: string;
  /** Package-id form, as responses carry it. */
  id: string;
  /** `packageName:Module:Entity`: what name-form filters match on, across package versions. */
  nameKey: string;
  fields: RecordType;
  signatories(argument: DamlRecord): string[];
  observers(argument: DamlRecord): string[];
  /** The template's `ensure`: a failure message, or undefined when it holds. */
  ensure?(argument: DamlRecord): string | undefined;
  key?: KeyDef;
  choices: ReadonlyMap<string, ChoiceDef>;
}

export interface PackageDef {
  id: string;
  name: string;
  version: string;
  /** Direct dependencies, by package id. */
  dependencies: string[];
  templates: TemplateDef[];
}

// ---------------------------------------------------------------- the templates

/** The implicit `Archive` choice every Daml template has: consuming, controlled by all its signatories. */
function archiveChoice(signatories: (argument: DamlRecord) => string[]): ChoiceDef {
  return {
    name: 'Archive',
    consuming: true,
    argument: T.record('DA.Internal.Template:Archive', []),
    controllers: (contract) => signatories(contract),
    body: () => ({}),
  };
}

const NUMERIC_10 = T.numeric(10);

function iouChoices(): ChoiceDef[] {
  return [
    {
      name: 'Iou_Transfer',
      consuming: true,
      argument: T.record('Iou:Iou_Transfer', [['newOwner', T.party]]),
      controllers: (contract) => [String(contract.owner)],
      body: (ctx, self, iou, arg) => ctx.create(self, { ...iou, owner: arg.newOwner }),
    },
    {
      name: 'Iou_Split',
      consuming: true,
      argument: T.record('Iou:Iou_Split', [['splitAmount', NUMERIC_10]]),
      controllers: (contract) => [String(contract.owner)],
      body: (ctx, self, iou, arg) => {
        const amount = parseNumeric(iou.amount, 10) ?? 0n;
        const split = parseNumeric(arg.splitAmount, 10) ?? 0n;
        if (split <= 0n || split >= amount) ctx.fail('AssertionFailed: Iou_Split: splitAmount must be positive and less than the amount');
        const first = ctx.create(self, { ...iou, amount: formatNumeric(split, 10) });
        const second = ctx.create(self, { ...iou, amount: formatNumeric(amount - split, 10) });
        return { _1: first, _2: second };
      },
    },
  ];
}

function iouTemplate(pkg: PackageDef): TemplateDef {
  return template(pkg, 'Iou', 'Iou', {
    fields: T.record('Iou:Iou', [
      ['issuer', T.party],
      ['owner', T.party],
      ['currency', T.text],
      ['amount', NUMERIC_10],
      ['observers', T.list(T.party)],
    ]),
    signatories: (iou) => [String(iou.issuer)],
    observers: (iou) => [String(iou.owner), ...(iou.observers as string[])],
    ensure: (iou) => ((parseNumeric(iou.amount, 10) ?? 0n) > 0n ? undefined : 'Template precondition violated in Iou:Iou: amount must be positive'),
    choices: iouChoices(),
  });
}

function assetTemplate(pkg: PackageDef): TemplateDef {
  return template(pkg, 'Asset', 'Asset', {
    fields: T.record('Asset:Asset', [
      ['owner', T.party],
      ['id', T.text],
      ['description', T.text],
    ]),
    signatories: (asset) => [String(asset.owner)],
    observers: () => [],
    key: {
      type: T.record('DA.Types:Tuple2', [
        ['_1', T.party],
        ['_2', T.text],
      ]),
      of: (asset) => ({ _1: asset.owner, _2: asset.id }),
      maintainers: (key) => [String((key as DamlRecord)._1)],
    },
    choices: [
      {
        name: 'Asset_Rename',
        consuming: true,
        argument: T.record('Asset:Asset_Rename', [['newDescription', T.text]]),
        controllers: (asset) => [String(asset.owner)],
        body: (ctx, self, asset, arg) => ctx.create(self, { ...asset, description: arg.newDescription }),
      },
    ],
  });
}

function template(
  pkg: PackageDef,
  moduleName: string,
  entityName: string,
  def: Omit<TemplateDef, 'pkg' | 'moduleName' | 'entityName' | 'id' | 'nameKey' | 'choices'> & { choices: ChoiceDef[] },
): TemplateDef {
  return {
    ...def,
    pkg,
    moduleName,
    entityName,
    id: `${pkg.id}:${moduleName}:${entityName}`,
    nameKey: `${pkg.name}:${moduleName}:${entityName}`,
    choices: new Map([...def.choices, archiveChoice(def.signatories)].map((c) => [c.name, c])),
  };
}

// ---------------------------------------------------------------- the packages

function pkg(name: string, version: string, dependencies: PackageDef[], templates: (p: PackageDef) => TemplateDef[] = () => []): PackageDef {
  const p: PackageDef = { id: sha256Hex(name + version), name, version, dependencies: dependencies.map((d) => d.id), templates: [] };
  p.templates = templates(p);
  return p;
}

const DAML_PRIM = pkg('daml-prim', '3.5.0', []);
const DAML_STDLIB = pkg('daml-stdlib', '3.5.0', [DAML_PRIM]);
const IOU_V1 = pkg('demo-iou', '1.0.0', [DAML_STDLIB, DAML_PRIM], (p) => [iouTemplate(p)]);
const ASSET_V1 = pkg('demo-asset', '1.0.0', [IOU_V1, DAML_STDLIB, DAML_PRIM], (p) => [assetTemplate(p)]);
/** An upgrade of demo-iou: uploaded, but not vetted on a fresh participant. */
const IOU_V2 = pkg('demo-iou', '2.0.0', [DAML_STDLIB, DAML_PRIM], (p) => [iouTemplate(p)]);

/** Every package uploaded to the demo participant. */
export const PACKAGES: readonly PackageDef[] = [DAML_PRIM, DAML_STDLIB, IOU_V1, ASSET_V1, IOU_V2];
/** Vetted on every synchronizer at the start. */
export const INITIALLY_VETTED: readonly PackageDef[] = [DAML_PRIM, DAML_STDLIB, IOU_V1, ASSET_V1];

export const IOU = IOU_V1.templates[0];
export const ASSET = ASSET_V1.templates[0];
export const IOU_V2_TEMPLATE = IOU_V2.templates[0];

const packagesById = new Map(PACKAGES.map((p) => [p.id, p]));
const templatesById = new Map(PACKAGES.flatMap((p) => p.templates).map((t) => [t.id, t]));

export function packageById(id: string): PackageDef | undefined {
  return packagesById.get(id);
}

export function templateById(id: string): TemplateDef | undefined {
  return templatesById.get(id);
}

/** All transitive dependencies of a package (not including itself). */
export function transitiveDependencies(p: PackageDef): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    for (const dep of packagesById.get(id)?.dependencies ?? []) {
      if (!seen.has(dep)) {
        seen.add(dep);
        visit(dep);
      }
    }
  };
  visit(p.id);
  return seen;
}

// ---------------------------------------------------------------- identifiers

export interface IdentifierRef {
  /** `#name` or a package id. */
  packageRef: string;
  moduleName: string;
  entityName: string;
}

/** Parses `pkg:Module.Path:Entity`; undefined when malformed (Canton then answers 400 text/plain). */
export function parseIdentifier(text: string): IdentifierRef | undefined {
  const id = parseDamlIdentifier(text);
  return id && { packageRef: packageRefOf(id), moduleName: id.moduleName, entityName: id.entityName };
}

export function isPackageNameRef(ref: IdentifierRef): boolean {
  return ref.packageRef.startsWith('#');
}

function notFound(text: string): LedgerApiError {
  return new LedgerApiError('TEMPLATES_OR_INTERFACES_NOT_FOUND', `The following templates or interfaces do not exist: ${text}`);
}

function packagesNamed(name: string, text: string): PackageDef[] {
  const found = PACKAGES.filter((p) => p.name === name);
  if (found.length === 0) {
    throw new LedgerApiError(
      'PACKAGE_NAMES_NOT_FOUND',
      `The following package names do not match upgradable packages uploaded on this participant: [${name}] (in ${text})`,
    );
  }
  return found;
}

function templateIn(p: PackageDef, ref: IdentifierRef): TemplateDef | undefined {
  return p.templates.find((t) => t.moduleName === ref.moduleName && t.entityName === ref.entityName);
}

/**
 * The template a command refers to. The package-name form picks the highest version vetted on the
 * synchronizer (Canton's package preference); the package-id form takes that package, if vetted.
 */
export function resolveCommandTemplate(text: string, ref: IdentifierRef, vetted: ReadonlySet<string>): TemplateDef {
  if (isPackageNameRef(ref)) {
    const candidates = packagesNamed(ref.packageRef.slice(1), text)
      .filter((p) => vetted.has(p.id))
      .sort((a, b) => comparePackageVersions(b.version, a.version));
    if (candidates.length === 0) throw noSynchronizer(`no package named ${ref.packageRef.slice(1)} is vetted on the synchronizer`);
    const found = templateIn(candidates[0], ref);
    if (!found) throw notFound(text);
    return found;
  }
  const p = packagesById.get(ref.packageRef);
  const found = p && templateIn(p, ref);
  if (!found) throw notFound(text);
  if (!vetted.has(found.pkg.id)) throw noSynchronizer(`package ${found.pkg.id} is not vetted on the synchronizer`);
  return found;
}

/** The `nameKey` a filter matches on. The package-id form is resolved to its package name (3.3/3.4 behaviour). */
export function resolveFilterTemplate(text: string, ref: IdentifierRef): string {
  const nameKey = (name: string) => `${name}:${ref.moduleName}:${ref.entityName}`;
  if (isPackageNameRef(ref)) {
    const found = packagesNamed(ref.packageRef.slice(1), text).some((p) => templateIn(p, ref));
    if (!found) throw notFound(text);
    return nameKey(ref.packageRef.slice(1));
  }
  const p = packagesById.get(ref.packageRef);
  if (!p || !templateIn(p, ref)) throw notFound(text);
  return nameKey(p.name);
}

export function noSynchronizer(reason: string): LedgerApiError {
  return new LedgerApiError('NO_SYNCHRONIZER_FOR_SUBMISSION', `No valid synchronizer for submission found: ${reason}`);
}
