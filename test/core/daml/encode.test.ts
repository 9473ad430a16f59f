/**
 * Encoding package signatures as Daml-LF 2 ArchivePayloads: what is encoded decodes back to the same
 * signatures (interfaces and interface instances included), including every package of the real DARs
 * re-encoded.
 */
import assert from 'node:assert/strict';
import { decodeArchive, decodeArchivePayload, packageIdOf } from '../../../src/core/daml/lf/archive';
import { SELF_PACKAGE, encodeArchive, encodeArchivePayload } from '../../../src/core/daml/lf/encode';
import { DamlTypes as T, type Choice, type Controllers, type DamlPackage, type Module, type QualifiedName } from '../../../src/core/daml/model';
import { ALL_DARS, DARS, requireDar } from '../../support/dars';

const OTHER = 'a'.repeat(64);
const self = (moduleName: string, name: string): QualifiedName => ({ packageId: SELF_PACKAGE, moduleName, name });

const MODULES: Module[] = [
  {
    name: 'Shop.Orders',
    synonyms: [{ name: 'Amount', params: [], type: T.numeric(10) }],
    interfaces: [],
    dataTypes: [
      {
        kind: 'record',
        name: 'Order',
        params: [],
        serializable: true,
        fields: [
          { name: 'buyer', type: T.builtin('Party') },
          { name: 'lines', type: T.builtin('List', T.con(self('Shop.Orders', 'Line'))) },
          { name: 'note', type: T.builtin('Optional', T.builtin('Text')) },
          { name: 'pair', type: T.con({ packageId: OTHER, moduleName: 'DA.Types', name: 'Tuple2' }, T.builtin('Int64'), T.builtin('Date')) },
        ],
      },
      { kind: 'record', name: 'Line', params: [], serializable: true, fields: [{ name: 'amount', type: { kind: 'syn', syn: self('Shop.Orders', 'Amount'), args: [] } }] },
      {
        kind: 'variant',
        name: 'Box',
        params: [{ name: 'a', kind: { kind: 'star' } }],
        serializable: true,
        constructors: [
          { name: 'Empty', type: T.builtin('Unit') },
          { name: 'Full', type: T.variable('a') },
        ],
      },
      { kind: 'enum', name: 'Colour', params: [], serializable: true, constructors: ['Red', 'Green'] },
      { kind: 'record', name: 'Ship', params: [], serializable: true, fields: [] },
    ],
    templates: [
      {
        name: 'Order',
        implements: [],
        keyType: T.builtin('Party'),
        choices: [
          { name: 'Ship', consuming: true, argType: T.con(self('Shop.Orders', 'Ship')), returnType: T.builtin('ContractId', T.con(self('Shop.Orders', 'Order'))) },
          { name: 'Peek', consuming: false, argType: T.builtin('Int64'), returnType: T.builtin('Unit') },
        ],
      },
    ],
  },
];

/** An interface with a method, a choice and a required interface; a template implementing it and one from another package. */
const INTERFACE_MODULES: Module[] = [
  {
    name: 'Wallet.Api',
    synonyms: [],
    templates: [],
    dataTypes: [
      { kind: 'record', name: 'TokenView', params: [], serializable: true, fields: [{ name: 'owner', type: T.builtin('Party') }, { name: 'amount', type: T.numeric(10) }] },
      { kind: 'record', name: 'Token_Burn', params: [], serializable: true, fields: [] },
      { kind: 'interface', name: 'Token', params: [], serializable: false },
      { kind: 'interface', name: 'Named', params: [], serializable: false },
    ],
    interfaces: [
      { name: 'Named', viewType: T.builtin('Text'), methods: [], choices: [], requires: [] },
      {
        name: 'Token',
        viewType: T.con(self('Wallet.Api', 'TokenView')),
        methods: [
          { name: 'setOwner', type: T.builtin('Arrow', T.builtin('Party'), T.con(self('Wallet.Api', 'Token'))) },
          { name: 'describe', type: T.builtin('Text') },
        ],
        choices: [{ name: 'Token_Burn', consuming: true, argType: T.con(self('Wallet.Api', 'Token_Burn')), returnType: T.builtin('Unit') }],
        requires: [self('Wallet.Api', 'Named')],
      },
    ],
  },
  {
    name: 'Wallet.Coin',
    synonyms: [],
    interfaces: [],
    dataTypes: [{ kind: 'record', name: 'Coin', params: [], serializable: true, fields: [{ name: 'owner', type: T.builtin('Party') }] }],
    templates: [
      {
        name: 'Coin',
        choices: [],
        implements: [self('Wallet.Api', 'Token'), { packageId: OTHER, moduleName: 'Splice.Api.Token.HoldingV1', name: 'Holding' }],
      },
    ],
  },
];

/** The package's signatures with its own id replaced by SELF_PACKAGE, as the encoder takes them. */
function withSelfRefs<T>(value: T, id: string): T {
  return JSON.parse(JSON.stringify(value), (key, v) => (key === 'packageId' && v === id ? SELF_PACKAGE : v));
}

describe('Daml-LF encoding', () => {
  it('encodes signatures that decode back to the same modules, with the id the SHA-256 of the payload', () => {
    const payload = encodeArchivePayload({ name: 'shop', version: '1.2.3', lfMinor: '1', modules: MODULES });
    const pkg = decodeArchivePayload(payload);
    assert.equal(pkg.id, packageIdOf(payload));
    assert.equal(pkg.name, 'shop');
    assert.equal(pkg.version, '1.2.3');
    assert.equal(pkg.lfVersion, '2.1');
    assert.deepEqual(pkg.dependencies, [OTHER]);
    assert.deepEqual(withSelfRefs(pkg.modules, pkg.id), MODULES);
  });

  it('is deterministic, and the Archive envelope carries the payload and its hash', () => {
    const a = encodeArchivePayload({ name: 'shop', version: '1.2.3', lfMinor: '1', modules: MODULES });
    const b = encodeArchivePayload({ name: 'shop', version: '1.2.3', lfMinor: '1', modules: MODULES });
    assert.deepEqual(a, b);
    const other = encodeArchivePayload({ name: 'shop', version: '1.2.4', lfMinor: '1', modules: MODULES });
    assert.notEqual(packageIdOf(other), packageIdOf(a));
    const decoded = decodeArchive(encodeArchive(a, packageIdOf(a)));
    assert.equal(decoded.id, packageIdOf(a));
  });

  it('encodes interfaces (methods, view, requires, choices) and the interface instances of templates', () => {
    const payload = encodeArchivePayload({ name: 'wallet', version: '1.0.0', lfMinor: '1', modules: INTERFACE_MODULES });
    const pkg = decodeArchivePayload(payload);
    assert.deepEqual(pkg.dependencies, [OTHER]);
    assert.deepEqual(withSelfRefs(pkg.modules, pkg.id), INTERFACE_MODULES);
    // An instance of an interface defined in another package names that package.
    assert.deepEqual(pkg.modules[1].templates[0].implements[1], { packageId: OTHER, moduleName: 'Splice.Api.Token.HoldingV1', name: 'Holding' });
  });

  it('re-encodes the signatures of the real packages faithfully, interfaces and their instances included', function () {
    let checked = 0;
    let withInterfaces = 0;
    for (const dar of ALL_DARS) {
      for (const original of requireDar(this, dar).packages) {
        if (original.modules.some((m) => m.interfaces.length > 0 || m.templates.some((t) => t.implements.length > 0))) withInterfaces++;
        const modules = withSelfRefs(original.modules, original.id);
        const reencoded: DamlPackage = decodeArchivePayload(encodeArchivePayload({ name: original.name, version: original.version, lfMinor: '1', modules }));
        // The encoder writes the plain forms of controllers only (the compiler's calls need code): those come back the same.
        assert.deepEqual(withoutControllers(withSelfRefs(reencoded.modules, reencoded.id)), withoutControllers(modules), `${dar}: ${original.name}`);
        const before = choicesOf(modules);
        for (const [key, choice] of choicesOf(reencoded.modules)) if (choice.controllers) assert.deepEqual(choice.controllers, before.get(key)?.controllers, `${dar}: ${key}`);
        assert.deepEqual(reencoded.dependencies, original.dependencies.filter((d) => d !== original.id && usedIn(modules, d)), `${dar}: ${original.name} dependencies`);
        checked++;
      }
    }
    assert.ok(checked > 20, `${checked} packages re-encoded`);
    assert.ok(withInterfaces >= 2, `${withInterfaces} packages with interfaces or instances re-encoded`);
  });

  it('re-encodes the token standard Holding interface stably (decode, encode, decode gives the same signature)', function () {
    const holding = requireDar(this, DARS.holding);
    const main = holding.packages.find((p) => p.id === holding.mainPackageId)!;
    const iface = main.modules.flatMap((m) => m.interfaces).find((i) => i.name === 'Holding');
    assert.ok(iface, 'the Holding interface is decoded from the DAR');
    assert.equal(iface.viewType.kind, 'con');
    const modules = withSelfRefs(main.modules, main.id);
    const once = decodeArchivePayload(encodeArchivePayload({ name: main.name, version: main.version, lfMinor: '1', modules }));
    assert.deepEqual(withSelfRefs(once.modules, once.id), modules);
    const twice = decodeArchivePayload(encodeArchivePayload({ name: once.name, version: once.version, lfMinor: '1', modules: withSelfRefs(once.modules, once.id) }));
    assert.equal(twice.id, once.id, 'a second round trip gives the same bytes');
  });
});

describe('Daml-LF encoding of choice controllers', () => {
  const party = T.builtin('Party');
  const record = (name: string, fields: string[]) => ({ kind: 'record' as const, name, params: [], serializable: true, fields: fields.map((f) => ({ name: f, type: party })) });
  const terms = (...list: Extract<Controllers, { kind: 'terms' }>['terms']): Controllers => ({ kind: 'terms', terms: list });
  const choice = (name: string, argument: string, controllers: Controllers | undefined): Choice => ({ name, consuming: true, argType: T.con(self('Deals', argument)), returnType: T.builtin('Unit'), ...(controllers ? { controllers } : {}) });
  const MODULE: Module = {
    name: 'Deals',
    synonyms: [],
    dataTypes: [record('Deal', ['seller', 'buyer']), record('Deal_Accept', []), record('Deal_Assign', ['assignee']), record('DealView', ['owner']), { kind: 'interface', name: 'Tradable', params: [], serializable: false }],
    templates: [
      {
        name: 'Deal',
        implements: [],
        choices: [
          choice('Deal_Accept', 'Deal_Accept', terms({ kind: 'contractField', path: ['buyer'] })),
          choice('Deal_Both', 'Deal_Accept', terms({ kind: 'contractField', path: ['seller'] }, { kind: 'contractField', path: ['buyer'] })),
          choice('Deal_Assign', 'Deal_Assign', terms({ kind: 'contractField', path: ['seller'] }, { kind: 'argumentField', path: ['assignee'] })),
          // What the compiler writes for `signatory this` of a template calls code: not written.
          choice('Deal_Cancel', 'Deal_Accept', terms({ kind: 'signatories' })),
        ],
      },
    ],
    interfaces: [
      {
        name: 'Tradable',
        viewType: T.con(self('Deals', 'DealView')),
        methods: [],
        requires: [],
        choices: [choice('Tradable_Take', 'Deal_Accept', terms({ kind: 'viewField', path: ['owner'] })), choice('Tradable_Drop', 'Deal_Accept', terms({ kind: 'observers' }))],
      },
    ],
  };

  it('writes fields of the contract, the argument and the view, and an interface\'s signatories or observers, which decode back the same', () => {
    const pkg = decodeArchivePayload(encodeArchivePayload({ name: 'deals', version: '1.0.0', lfMinor: '1', modules: [MODULE] }));
    const decoded = choicesOf(pkg.modules);
    for (const [key, original] of choicesOf([MODULE])) {
      if (key === 'Deal:Deal_Cancel') assert.equal(decoded.get(key)?.controllers, undefined, 'a form the encoder cannot write is left out');
      else assert.deepEqual(decoded.get(key)?.controllers, original.controllers, key);
    }
  });
});

/** Every choice of the modules by `Template:Choice`. */
function choicesOf(modules: Module[]): Map<string, Choice> {
  return new Map(modules.flatMap((m) => [...m.templates, ...m.interfaces]).flatMap((t) => t.choices.map((c) => [`${t.name}:${c.name}`, c] as const)));
}

/** The modules without the choices' controllers. */
function withoutControllers(modules: Module[]): Module[] {
  return JSON.parse(JSON.stringify(modules), (key, v) => (key === 'controllers' ? undefined : v));
}

/** Whether a package id is referred to by a type in the modules (LF 2.2 import tables may list more). */
function usedIn(modules: Module[], id: string): boolean {
  return JSON.stringify(modules).includes(`"packageId":"${id}"`);
}

