/**
 * Encoding package signatures as Daml-LF 2 ArchivePayloads: what is encoded decodes back to the same
 * signatures, including every interface-free package of the real DARs re-encoded.
 */
import assert from 'node:assert/strict';
import { decodeArchive, decodeArchivePayload, packageIdOf } from '../../../src/core/daml/lf/archive';
import { SELF_PACKAGE, encodeArchive, encodeArchivePayload } from '../../../src/core/daml/lf/encode';
import { DamlTypes as T, type DamlPackage, type Module, type QualifiedName } from '../../../src/core/daml/model';
import { ALL_DARS, requireDar } from '../../support/dars';

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

  it('refuses what it cannot encode (interfaces)', () => {
    const withInterface: Module = { ...MODULES[0], interfaces: [{ name: 'I', viewType: T.builtin('Unit'), choices: [], requires: [] }] };
    assert.throws(() => encodeArchivePayload({ name: 'x', version: '1', lfMinor: '1', modules: [withInterface] }), /interfaces is not supported/);
  });

  it('re-encodes the signatures of the real packages (those without interfaces) faithfully', function () {
    let checked = 0;
    for (const dar of ALL_DARS) {
      for (const original of requireDar(this, dar).packages) {
        if (original.modules.some((m) => m.interfaces.length > 0 || m.templates.some((t) => t.implements.length > 0))) continue;
        const modules = withSelfRefs(original.modules, original.id);
        const reencoded: DamlPackage = decodeArchivePayload(encodeArchivePayload({ name: original.name, version: original.version, lfMinor: '1', modules }));
        assert.deepEqual(withSelfRefs(reencoded.modules, reencoded.id), modules, `${dar}: ${original.name}`);
        assert.deepEqual(reencoded.dependencies, original.dependencies.filter((d) => d !== original.id && usedIn(modules, d)), `${dar}: ${original.name} dependencies`);
        checked++;
      }
    }
    assert.ok(checked > 20, `${checked} packages re-encoded`);
  });
});

/** Whether a package id is referred to by a type in the modules (LF 2.2 import tables may list more). */
function usedIn(modules: Module[], id: string): boolean {
  return JSON.stringify(modules).includes(`"packageId":"${id}"`);
}

