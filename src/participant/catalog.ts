/**
 * The built-in packages of the demo participant, as real Daml-LF: their signatures (modules, data
 * types, templates with their choices and Asset's key, the Holding interface and Iou's instance of
 * it) are encoded as LF 2 ArchivePayloads when this module loads, so the bytes `/v2/packages/{id}`
 * serves decode back to these signatures and every package id is the SHA-256 of its bytes. The
 * encoding is deterministic: the ids are the same on every run and in every build.
 *
 * There is no Daml engine: what the Daml code of the templates would do (signatories, observers,
 * ensure, key, choice bodies, interface views and methods) and of the interface's choices is written
 * here in TypeScript, next to the LF signature.
 */
import { packageIdOf } from '../core/daml/lf/archive';
import { SELF_PACKAGE, encodeArchivePayload, type PackageSource } from '../core/daml/lf/encode';
import { DamlTypes as T, type Controllers, type DamlType, type Module, type QualifiedName } from '../core/daml/model';
import { sha256Hex } from './ids';
import { PackageDef, type InterfaceBehaviour, type TemplateBehaviour } from './packages';
import { formatNumeric, parseNumeric, type DamlRecord } from './values';

// ---------------------------------------------------------------- signatures

const local = (moduleName: string, name: string): QualifiedName => ({ packageId: SELF_PACKAGE, moduleName, name });
const party = T.builtin('Party');
const text = T.builtin('Text');
const unit = T.builtin('Unit');
const NUMERIC_10 = T.numeric(10);
const contractIdOf = (moduleName: string, name: string): DamlType => T.builtin('ContractId', T.con(local(moduleName, name)));
/** `controller owner`, and through an interface `controller (view this).owner`. */
const ownerControls: Controllers = { kind: 'terms', terms: [{ kind: 'contractField', path: ['owner'] }] };
const viewOwnerControls: Controllers = { kind: 'terms', terms: [{ kind: 'viewField', path: ['owner'] }] };

function record(name: string, fields: Array<[string, DamlType]>, params: string[] = []): Module['dataTypes'][number] {
  return {
    kind: 'record',
    name,
    params: params.map((p) => ({ name: p, kind: { kind: 'star' } })),
    serializable: true,
    fields: fields.map(([fieldName, type]) => ({ name: fieldName, type })),
  };
}

function module(name: string, parts: Partial<Omit<Module, 'name'>>): Module {
  return { name, dataTypes: [], synonyms: [], templates: [], interfaces: [], ...parts };
}

const DAML_PRIM: PackageSource = {
  name: 'daml-prim',
  version: '3.5.0',
  lfMinor: '1',
  modules: [module('DA.Types', { dataTypes: [record('Tuple2', [['_1', T.variable('a')], ['_2', T.variable('b')]], ['a', 'b'])] })],
};
const DAML_STDLIB: PackageSource = {
  name: 'daml-stdlib',
  version: '3.5.0',
  lfMinor: '1',
  modules: [module('DA.Internal.Template', { dataTypes: [record('Archive', [])] })],
};
const PRIM_ID = packageIdOf(encodeArchivePayload(DAML_PRIM));
const STDLIB_ID = packageIdOf(encodeArchivePayload(DAML_STDLIB));
const tuple2 = (a: DamlType, b: DamlType) => T.con({ packageId: PRIM_ID, moduleName: 'DA.Types', name: 'Tuple2' }, a, b);
const archive = { name: 'Archive', consuming: true, argType: T.con({ packageId: STDLIB_ID, moduleName: 'DA.Internal.Template', name: 'Archive' }), returnType: unit };

/**
 * An interface package, as the token standard's holding API is one: interfaces cannot be upgraded,
 * so they live apart from the templates implementing them.
 *
 * ```daml
 * data HoldingView = HoldingView with owner : Party; issuer : Party; instrument : Text; amount : Decimal
 * interface Holding where
 *   viewtype HoldingView
 *   setOwner : Party -> Holding
 *   choice Holding_Transfer : ContractId Holding with newOwner : Party
 *     controller (view this).owner
 *     do create (setOwner this newOwner)
 * ```
 */
const HOLDING_SOURCE: PackageSource = {
  name: 'demo-holding',
  version: '1.0.0',
  lfMinor: '1',
  modules: [
    module('Holding', {
      dataTypes: [
        record('HoldingView', [['owner', party], ['issuer', party], ['instrument', text], ['amount', NUMERIC_10]]),
        record('Holding_Transfer', [['newOwner', party]]),
        { kind: 'interface', name: 'Holding', params: [], serializable: false },
      ],
      interfaces: [
        {
          name: 'Holding',
          viewType: T.con(local('Holding', 'HoldingView')),
          methods: [{ name: 'setOwner', type: T.builtin('Arrow', party, T.con(local('Holding', 'Holding'))) }],
          choices: [
            { name: 'Holding_Transfer', consuming: true, argType: T.con(local('Holding', 'Holding_Transfer')), returnType: contractIdOf('Holding', 'Holding'), controllers: viewOwnerControls },
            archive,
          ],
          requires: [],
        },
      ],
    }),
  ],
};
const HOLDING_PACKAGE_ID = packageIdOf(encodeArchivePayload(HOLDING_SOURCE));
/** The Holding interface, package-id form. */
export const HOLDING_INTERFACE_ID = `${HOLDING_PACKAGE_ID}:Holding:Holding`;

/**
 * Iou implements Holding (the demo-holding package of `holdingPackageId`; null: it does not); an
 * instance lives in the template's module (LF 2 has no instances in the interface's).
 */
function iouPackage(version: string, holdingPackageId: string | null = HOLDING_PACKAGE_ID): PackageSource {
  const cid = contractIdOf('Iou', 'Iou');
  return {
    name: 'demo-iou',
    version,
    lfMinor: '1',
    modules: [
      module('Iou', {
        dataTypes: [
          record('Iou', [['issuer', party], ['owner', party], ['currency', text], ['amount', NUMERIC_10], ['observers', T.builtin('List', party)]]),
          record('Iou_Transfer', [['newOwner', party]]),
          record('Iou_Split', [['splitAmount', NUMERIC_10]]),
        ],
        templates: [
          {
            name: 'Iou',
            implements: holdingPackageId ? [{ packageId: holdingPackageId, moduleName: 'Holding', name: 'Holding' }] : [],
            choices: [
              { name: 'Iou_Transfer', consuming: true, argType: T.con(local('Iou', 'Iou_Transfer')), returnType: cid, controllers: ownerControls },
              { name: 'Iou_Split', consuming: true, argType: T.con(local('Iou', 'Iou_Split')), returnType: tuple2(cid, cid), controllers: ownerControls },
              archive,
            ],
          },
        ],
      }),
    ],
  };
}

// Contract keys are an LF 2.dev feature in the releases imitated (they arrive with LF 2.3).
const ASSET_SOURCE: PackageSource = {
  name: 'demo-asset',
  version: '1.0.0',
  lfMinor: 'dev',
  modules: [
    module('Asset', {
      dataTypes: [record('Asset', [['owner', party], ['id', text], ['description', text]]), record('Asset_Rename', [['newDescription', text]])],
      templates: [
        {
          name: 'Asset',
          implements: [],
          keyType: tuple2(party, text),
          choices: [{ name: 'Asset_Rename', consuming: true, argType: T.con(local('Asset', 'Asset_Rename')), returnType: contractIdOf('Asset', 'Asset'), controllers: ownerControls }, archive],
        },
      ],
    }),
  ],
};

// ---------------------------------------------------------------- behaviour

const iouBehaviour: TemplateBehaviour = {
  signatories: (iou) => [String(iou.issuer)],
  observers: (iou) => [String(iou.owner), ...(iou.observers as string[])],
  ensure: (iou) => ((parseNumeric(iou.amount, 10) ?? 0n) > 0n ? undefined : 'Template precondition violated in Iou:Iou: amount must be positive'),
  choices: {
    Iou_Transfer: {
      controllers: (iou) => [String(iou.owner)],
      body: (ctx, self, iou, arg) => ctx.create(self, { ...iou, owner: arg.newOwner }),
    },
    Iou_Split: {
      controllers: (iou) => [String(iou.owner)],
      body: (ctx, self, iou, arg) => {
        const amount = parseNumeric(iou.amount, 10) ?? 0n;
        const split = parseNumeric(arg.splitAmount, 10) ?? 0n;
        if (split <= 0n || split >= amount) ctx.fail('AssertionFailed: Iou_Split: splitAmount must be positive and less than the amount');
        const first = ctx.create(self, { ...iou, amount: formatNumeric(split, 10) });
        const second = ctx.create(self, { ...iou, amount: formatNumeric(amount - split, 10) });
        return { _1: first, _2: second };
      },
    },
  },
  interfaces: {
    // interface instance Holding for Iou where
    //   view = HoldingView with owner; issuer; instrument = currency; amount
    //   setOwner newOwner = toInterface (this with owner = newOwner)
    [HOLDING_INTERFACE_ID]: {
      view: (iou) => ({ owner: iou.owner, issuer: iou.issuer, instrument: iou.currency, amount: iou.amount }),
      methods: { setOwner: (iou, newOwner) => ({ ...iou, owner: newOwner }) },
    },
  },
};

const assetBehaviour: TemplateBehaviour = {
  signatories: (asset) => [String(asset.owner)],
  observers: () => [],
  key: {
    of: (asset) => ({ _1: asset.owner, _2: asset.id }),
    maintainers: (key) => [String((key as DamlRecord)._1)],
  },
  choices: {
    Asset_Rename: {
      controllers: (asset) => [String(asset.owner)],
      body: (ctx, self, asset, arg) => ctx.create(self, { ...asset, description: arg.newDescription }),
    },
  },
};

const holdingBehaviour: InterfaceBehaviour = {
  choices: {
    Holding_Transfer: {
      controllers: (holding) => [String(holding.view.owner)],
      body: (ctx, holding, arg) => ctx.create(holding.template, holding.call('setOwner', arg.newOwner) as DamlRecord),
    },
  },
};

// ---------------------------------------------------------------- the packages

const behaviours = new Map<string, TemplateBehaviour>([
  ['demo-iou:Iou:Iou', iouBehaviour],
  ['demo-asset:Asset:Asset', assetBehaviour],
]);

const interfaceBehaviours = new Map<string, InterfaceBehaviour>([['demo-holding:Holding:Holding', holdingBehaviour]]);

/** The TypeScript behaviour of a built-in template (by `packageName:Module:Entity`), if it is one. */
export function builtinBehaviour(nameKey: string): TemplateBehaviour | undefined {
  return behaviours.get(nameKey);
}

const build = (source: PackageSource) =>
  PackageDef.fromPayload(encodeArchivePayload(source), 'catalog', builtinBehaviour, (nameKey) => interfaceBehaviours.get(nameKey));

const IOU_V1_SOURCE = iouPackage('1.0.0');
/** An upgrade of demo-iou: uploaded, but not vetted on a fresh participant. */
const IOU_V2_SOURCE = iouPackage('2.0.0');
const SOURCES = [DAML_PRIM, DAML_STDLIB, HOLDING_SOURCE, IOU_V1_SOURCE, ASSET_SOURCE, IOU_V2_SOURCE];
const [PRIM, STDLIB, HOLDING, IOU_V1, ASSET_V1, IOU_V2] = SOURCES.map(build);

/** The packages every demo participant starts with. */
export const CATALOG: readonly PackageDef[] = [PRIM, STDLIB, HOLDING, IOU_V1, ASSET_V1, IOU_V2];
/** Vetted on every synchronizer at the start. */
export const INITIALLY_VETTED: readonly PackageDef[] = [PRIM, STDLIB, HOLDING, IOU_V1, ASSET_V1];

export const IOU = IOU_V1.templates[0];
export const ASSET = ASSET_V1.templates[0];
export const IOU_V2_TEMPLATE = IOU_V2.templates[0];

/**
 * The ids the catalog's packages had before they were real Daml-LF (SHA-256 of name and version),
 * mapped to the real ones: state files saved by earlier versions name them.
 */
export const LEGACY_CATALOG_IDS: ReadonlyMap<string, string> = new Map(CATALOG.map((p) => [sha256Hex(p.name + p.version), p.id]));

/** The source without the choices' controllers, as the catalog was encoded before it had them. */
function withoutControllers(source: PackageSource): PackageSource {
  const strip = <C extends { controllers?: Controllers }>({ controllers: _, ...choice }: C) => choice;
  return {
    ...source,
    modules: source.modules.map((m) => ({
      ...m,
      templates: m.templates.map((t) => ({ ...t, choices: t.choices.map(strip) })),
      interfaces: m.interfaces.map((i) => ({ ...i, choices: i.choices.map(strip) })),
    })),
  };
}

/**
 * The ids the catalog's packages had before their choices carried controllers, mapped to the current
 * ones: state files of formats 2 and 3 name them.
 */
export const PRE_CONTROLLERS_IDS: ReadonlyMap<string, string> = (() => {
  const before = (source: PackageSource) => packageIdOf(encodeArchivePayload(withoutControllers(source)));
  // demo-iou then implemented the demo-holding of then.
  const holdingBefore = before(HOLDING_SOURCE);
  const sourcesBefore = SOURCES.map((source) => (source.name === 'demo-iou' ? iouPackage(source.version, holdingBefore) : source));
  return new Map(sourcesBefore.map((source, i) => [before(source), CATALOG[i].id] as const).filter(([then, now]) => then !== now));
})();

/**
 * The ids demo-iou had before its Iou implemented Holding (and before choices carried controllers),
 * mapped to the current ones: state files of format 2 name them.
 */
export const PRE_HOLDING_IOU_IDS: ReadonlyMap<string, string> = new Map(
  [IOU_V1, IOU_V2].map((p) => [packageIdOf(encodeArchivePayload(withoutControllers(iouPackage(p.version, null)))), p.id]),
);
