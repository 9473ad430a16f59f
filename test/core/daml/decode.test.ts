/**
 * Decoding real Daml packages (the DARs in ../shared/daml/dars/). Facts asserted here come from the
 * shared README and the Daml sources of the packages (digital-asset/canton's
 * Canton/Internal/Ping.daml, hyperledger-labs/splice's Splice/Api/Token/HoldingV1.daml and
 * Splice/Amulet.daml), not from this decoder's output.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { unzipSync, zipSync } from 'fflate';
import { LfDecodeError } from '../../../src/core/errors';
import { decodeArchive, decodeArchivePayload, readArchiveEnvelope, readDar } from '../../../src/core/daml/lf/archive';
import type { DamlPackage, DamlType, DataType, QualifiedName } from '../../../src/core/daml/model';
import { PackageIndex } from '../../../src/core/daml/packageIndex';
import { printType } from '../../../src/core/daml/types';
import { ALL_DARS, DARS, requireDar, requireDarBytes, type DarName } from '../../support/dars';

/** Every type constructor (and synonym) a type refers to. */
function referencedNames(type: DamlType, into: QualifiedName[] = []): QualifiedName[] {
  switch (type.kind) {
    case 'con':
      into.push(type.con);
      break;
    case 'syn':
      into.push(type.syn);
      break;
    case 'forall':
      referencedNames(type.body, into);
      return into;
    case 'struct':
      for (const f of type.fields) referencedNames(f.type, into);
      return into;
    case 'nat':
      return into;
  }
  for (const a of type.args) referencedNames(a, into);
  return into;
}

/** Every type that appears in a package's signatures. */
function typesOf(pkg: DamlPackage): DamlType[] {
  const types: DamlType[] = [];
  for (const m of pkg.modules) {
    for (const d of m.dataTypes) {
      if (d.kind === 'record') types.push(...d.fields.map((f) => f.type));
      if (d.kind === 'variant') types.push(...d.constructors.map((f) => f.type));
    }
    for (const s of m.synonyms) types.push(s.type);
    for (const t of m.templates) {
      for (const c of t.choices) types.push(c.argType, c.returnType);
      if (t.keyType) types.push(t.keyType);
    }
    for (const i of m.interfaces) {
      types.push(i.viewType);
      for (const c of i.choices) types.push(c.argType, c.returnType);
    }
  }
  return types;
}

function recordFields(data: DataType | undefined): Array<[string, DamlType]> {
  assert.equal(data?.kind, 'record', `${data?.name} is a record`);
  return data.kind === 'record' ? data.fields.map((f) => [f.name, f.type]) : [];
}

const ENCODER_TESTS: readonly DarName[] = [DARS.encoder21, DARS.encoder22];
const party: DamlType = { kind: 'builtin', builtin: 'Party', args: [] };
const text: DamlType = { kind: 'builtin', builtin: 'Text', args: [] };

describe('daml packages: decoding every shared DAR', function () {
  for (const darName of ALL_DARS) {
    describe(darName, () => {
      it('has a manifest naming its main package, and every package id is the SHA-256 of its payload', function () {
        const bytes = requireDarBytes(this, darName);
        const { mainPackageId, packages } = requireDar(this, darName);
        // Independently of the decoder: unzip, read each Archive's payload and hash it here.
        const files = unzipSync(bytes, { filter: (f) => f.name.endsWith('.dalf') });
        assert.equal(packages.length, Object.keys(files).length);
        const ids = new Set(packages.map((p) => p.id));
        for (const [path, dalf] of Object.entries(files)) {
          const { payload, hash } = readArchiveEnvelope(dalf);
          const sha = createHash('sha256').update(payload).digest('hex');
          assert.equal(sha, hash, path);
          assert.ok(ids.has(sha), `${path}: decoded with id ${sha}`);
          // Compiled DARs name each .dalf after its id (the hand-made encoder tests do not).
          const idInName = /([0-9a-f]{64})\.dalf$/.exec(path)?.[1];
          if (idInName) assert.equal(idInName, sha, `the file name ${path} carries the id`);
        }
        assert.ok(ids.has(mainPackageId));
      });

      it('decodes every package with metadata, an LF 2 version and modules', function () {
        for (const p of requireDar(this, darName).packages) {
          assert.match(p.id, /^[0-9a-f]{64}$/);
          assert.ok(p.name.length > 0, `${p.id} has a name`);
          assert.match(p.version, /^\d+(\.\d+)*$/, `${p.name} version ${p.version}`);
          assert.match(p.lfVersion, /^2\.(\d+|dev)$/);
          assert.ok(p.modules.length > 0, `${p.name} has modules`);
          for (const m of p.modules) assert.match(m.name, /^[A-Z][A-Za-z0-9_]*(\.[A-Z][A-Za-z0-9_]*)*$/, m.name);
        }
      });

      it('is closed: every package a package depends on or refers to is in the DAR, and every reference resolves', function () {
        const { packages } = requireDar(this, darName);
        const index = new PackageIndex(packages);
        for (const p of packages) {
          for (const dep of p.dependencies) assert.ok(index.package(dep), `${p.name} depends on ${dep}, which is in the DAR`);
          for (const type of typesOf(p)) {
            for (const name of referencedNames(type)) {
              assert.ok(index.package(name.packageId), `${p.name} refers to package ${name.packageId}`);
              const found = index.dataType(name) ?? index.synonym(name);
              assert.ok(found, `${p.name}: ${name.moduleName}:${name.name} is defined`);
            }
          }
        }
      });

      it('gives every template a record of its fields, choices with types, and interfaces that exist', function () {
        const { packages } = requireDar(this, darName);
        const index = new PackageIndex(packages);
        for (const entry of index.templates()) {
          const where = entry.packageNameForm;
          assert.equal(entry.fields?.kind, 'record', `${where}: a record of the same name`);
          assert.equal(entry.fields?.params.length, 0, `${where}: template records have no type parameters`);
          const choiceNames = entry.template.choices.map((c) => c.name);
          // damlc gives every template the implicit Archive choice, consuming, with the DA.Internal.Template:Archive
          // record (the encoder tests are written in LF directly and have none).
          const archive = entry.template.choices.find((c) => c.name === 'Archive');
          if (!ENCODER_TESTS.includes(darName)) {
            assert.ok(archive?.consuming, `${where} has a consuming Archive`);
            assert.equal(archive.argType.kind === 'con' && `${archive.argType.con.moduleName}:${archive.argType.con.name}`, 'DA.Internal.Template:Archive');
          }
          assert.equal(new Set(choiceNames).size, choiceNames.length, `${where}: choice names are unique`);
          for (const iface of entry.template.implements) assert.ok(index.interface(iface), `${where} implements ${iface.name}`);
          const choices = index.choices(entry.name);
          assert.ok(choices && choices.length >= entry.template.choices.length);
        }
        for (const p of packages) {
          for (const m of p.modules) {
            for (const iface of m.interfaces) {
              // The data type an interface defines is marked as such.
              assert.equal(m.dataTypes.find((d) => d.name === iface.name)?.kind, 'interface', `${m.name}:${iface.name}`);
            }
          }
        }
      });
    });
  }
});

describe('daml packages: known facts', () => {
  it('the ping DAR is LF 2.2 with LF 2.1/2.2 dependencies, and Ping has the fields and choices of Canton.Internal.Ping', function () {
    const { mainPackageId, packages } = requireDar(this, DARS.ping);
    const index = new PackageIndex(packages);
    const main = index.package(mainPackageId)!;
    assert.equal(main.name, 'canton-builtin-admin-workflow-ping');
    assert.equal(main.lfVersion, '2.2');
    assert.deepEqual([...new Set(packages.map((p) => p.lfVersion))].sort(), ['2.1', '2.2']);
    assertPing(index, '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping');
  });

  it('AdminWorkflows of Canton 3.3 (LF 2.1, deep expressions) decodes, with the same Ping', function () {
    const { mainPackageId, packages } = requireDar(this, DARS.adminWorkflows33);
    const index = new PackageIndex(packages);
    assert.equal(index.package(mainPackageId)?.name, 'AdminWorkflows');
    assert.equal(index.package(mainPackageId)?.lfVersion, '2.1');
    assertPing(index, '#AdminWorkflows:Canton.Internal.Ping:Ping');
  });

  function assertPing(index: PackageIndex, id: string): void {
    const name = index.resolve(id)!;
    assert.deepEqual(recordFields(index.dataType(name)), [['id', text], ['initiator', party], ['responder', party]]);
    const choices = index.template(name)!.choices;
    assert.deepEqual(choices.map((c) => c.name).sort(), ['AbortPing', 'Archive', 'Respond']);
    const respond = choices.find((c) => c.name === 'Respond')!;
    // `choice Respond : ()` without `with`: an empty record of the choice's name, returning Unit.
    assert.equal(respond.argType.kind === 'con' && respond.argType.con.name, 'Respond');
    assert.deepEqual(recordFields(index.dataType((respond.argType as DamlType & { kind: 'con' }).con)), []);
    assert.deepEqual(respond.returnType, { kind: 'builtin', builtin: 'Unit', args: [] });
    const abort = choices.find((c) => c.name === 'AbortPing')!;
    assert.deepEqual(recordFields(index.dataType((abort.argType as DamlType & { kind: 'con' }).con)), [['anyone', party]]);
    assert.ok(respond.consuming && abort.consuming);
  }

  it('the token standard: Holding has the view HoldingView with owner, instrumentId, amount (Decimal), lock, meta', function () {
    const { packages } = requireDar(this, DARS.holding);
    const index = new PackageIndex(packages);
    const holding = index.interface('#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding');
    assert.ok(holding);
    assert.equal(holding.viewType.kind === 'con' && holding.viewType.con.name, 'HoldingView');
    const view = recordFields(index.dataType((holding.viewType as DamlType & { kind: 'con' }).con));
    assert.deepEqual(view.map(([n]) => n), ['owner', 'instrumentId', 'amount', 'lock', 'meta']);
    const types = Object.fromEntries(view);
    assert.deepEqual(types.owner, party);
    assert.deepEqual(types.amount, { kind: 'builtin', builtin: 'Numeric', args: [{ kind: 'nat', value: 10 }] });
    assert.equal(types.lock.kind === 'builtin' && types.lock.builtin, 'Optional');
    // Metadata comes from another package of the DAR (splice-api-token-metadata-v1).
    assert.equal(types.meta.kind === 'con' && index.package(types.meta.con.packageId)?.name, 'splice-api-token-metadata-v1');
    const lock = recordFields(index.dataType(((types.lock as DamlType & { kind: 'builtin' }).args[0] as DamlType & { kind: 'con' }).con));
    assert.deepEqual(lock.map(([n]) => n), ['holders', 'expiresAt', 'expiresAfter', 'context']);
    assert.deepEqual(lock[0][1], { kind: 'builtin', builtin: 'List', args: [party] });
  });

  it('splice-amulet: 37 packages, 26 templates; Amulet and LockedAmulet implement Holding, whose choices they list', function () {
    const { mainPackageId, packages } = requireDar(this, DARS.amulet);
    const index = new PackageIndex(packages);
    assert.equal(packages.length, 37);
    assert.equal(index.templates().length, 26);
    assert.equal(index.package(mainPackageId)?.version, '0.1.14');
    const holding = index.resolve('#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding')!;
    assert.ok(holding, 'the token standard is in the DAR');
    for (const name of ['Amulet', 'LockedAmulet']) {
      const id = `#splice-amulet:Splice.Amulet:${name}`;
      assert.deepEqual(index.template(id)?.implements, [holding], `${name} implements Holding`);
      const interfaceChoices = index.choices(id)!.filter((c) => c.declaredIn === 'interface');
      // Holding has no choices of its own but Archive, which the template's own Archive covers.
      assert.deepEqual(interfaceChoices.map((c) => c.choice.name), []);
    }
    assert.deepEqual(recordFields(index.dataType(index.resolve('#splice-amulet:Splice.Amulet:Amulet')!)).map(([n]) => n), ['dso', 'owner', 'amount']);
    assert.deepEqual(recordFields(index.dataType(index.resolve('#splice-amulet:Splice.Amulet:LockedAmulet')!)).map(([n]) => n), ['amulet', 'lock']);
  });

  it('LF 2.1 and 2.2 encodings of the same encoder-test modules decode to the same signatures', function () {
    const lf21 = requireDar(this, DARS.encoder21).packages[0];
    const lf22 = requireDar(this, DARS.encoder22).packages[0];
    assert.equal(lf21.lfVersion, '2.1');
    assert.equal(lf22.lfVersion, '2.2');
    // Self references carry each package's own id; make them comparable.
    const normalised = (p: DamlPackage) => JSON.parse(JSON.stringify(p.modules).split(p.id).join('SELF')) as DamlPackage['modules'];
    const modules22 = new Map(normalised(lf22).map((m) => [m.name, m]));
    let compared = 0;
    for (const m of normalised(lf21)) {
      const other = modules22.get(m.name);
      if (!other) continue;
      assert.deepEqual(other, m, m.name);
      compared++;
    }
    assert.ok(compared >= 20, `${compared} modules compared`);
  });

  it('encoder tests: one module per construct, with the construct in its signatures', function () {
    for (const dar of [DARS.encoder21, DARS.encoder22] as DarName[]) {
      const pkg = requireDar(this, dar).packages[0];
      const builtinsIn = (moduleName: string) => {
        const found = new Set<string>();
        const visit = (t: DamlType): void => {
          if (t.kind === 'builtin') found.add(t.builtin);
          if ('args' in t) t.args.forEach(visit);
        };
        const m = pkg.modules.find((x) => x.name === moduleName)!;
        for (const d of m.dataTypes) if (d.kind === 'record') d.fields.forEach((f) => visit(f.type));
        return found;
      };
      for (const [moduleName, builtin] of [
        ['NumericMod', 'Numeric'], ['TextMapMod', 'TextMap'], ['GenMapMod', 'GenMap'], ['OptionMod', 'Optional'], ['ListMod', 'List'],
        ['DateMod', 'Date'], ['TimestampMod', 'Timestamp'], ['Int64Mod', 'Int64'], ['BoolMod', 'Bool'], ['TextMod', 'Text'],
      ]) {
        assert.ok(builtinsIn(moduleName).has(builtin), `${dar}: ${moduleName} uses ${builtin}`);
      }
      const enumMod = pkg.modules.find((m) => m.name === 'EnumMod')!;
      assert.ok(enumMod.dataTypes.some((d) => d.kind === 'enum'), `${dar}: EnumMod has an enum`);
      assert.ok(pkg.modules.find((m) => m.name === 'VariantMod')!.dataTypes.some((d) => d.kind === 'variant'));
      assert.equal(pkg.modules.find((m) => m.name === 'SynonymMod')!.synonyms.length, 1);
      assert.equal(pkg.modules.find((m) => m.name === 'InterfaceMod')!.interfaces.length, 2);
      // The README: a choice argument is not always a record (a bare Int64 exists here).
      const choiceArgs = pkg.modules.flatMap((m) => m.templates.flatMap((t) => t.choices.map((c) => c.argType)));
      assert.ok(choiceArgs.some((t) => t.kind === 'builtin' && t.builtin === 'Int64'), `${dar}: a choice takes a bare Int64`);
    }
  });

  it('the definitions-service DAR: keys, recursive parameterised variants with record constructors, interfaces, DA.Map, Numeric 7', function () {
    const { packages } = requireDar(this, DARS.definitions);
    const index = new PackageIndex(packages);
    const dep = packages.find((p) => p.name === 'DamlDefinitionsServiceDep')!;
    assert.equal(dep.lfVersion, '2.dev');
    const keyed = dep.modules.flatMap((m) => m.templates).filter((t) => t.keyType);
    assert.ok(keyed.length > 0, 'templates with keys');
    const recursive = dep.modules.flatMap((m) => m.dataTypes).filter((d) => d.kind === 'variant' && d.params.length > 0);
    assert.ok(recursive.length > 0, 'a variant with type parameters');
    const main = packages.find((p) => p.name === 'DamlDefinitionsServiceMain')!;
    const fieldTypes = main.modules.flatMap((m) => m.dataTypes).flatMap((d) => (d.kind === 'record' ? d.fields.map((f) => f.type) : []));
    assert.ok(fieldTypes.some((t) => t.kind === 'builtin' && t.builtin === 'GenMap'), 'a DA.Map field');
    assert.ok(fieldTypes.some((t) => t.kind === 'builtin' && t.builtin === 'Numeric' && t.args[0]?.kind === 'nat' && t.args[0].value === 7), 'a Numeric 7 field');
    assert.ok(index.templates().some((t) => t.template.implements.length > 0), 'a template implementing an interface');
    // Interface methods, with their types.
    const methods = index.interface(`${dep.id}:ExternalDep:MyInterface`)!.methods;
    assert.deepEqual(methods.map((m) => `${m.name}: ${printType(m.type)}`), ['method1: Party', 'method2: Int64', 'method3: Bool -> Int64 -> Int64 -> Int64']);
  });
});

describe('daml packages: malformed input', () => {
  it('refuses a payload whose hash is not the expected id', function () {
    const { payload, hash } = firstArchive(this);
    assert.equal(decodeArchivePayload(payload, hash).id, hash);
    assert.throws(() => decodeArchivePayload(payload, '0'.repeat(64)), (e: unknown) => e instanceof LfDecodeError && e.stage === 'hash' && e.packageId === '0'.repeat(64));
  });

  it('reports truncated and garbage bytes as LfDecodeError, never a raw TypeError or RangeError', function () {
    const { payload } = firstArchive(this);
    const damaged = [payload.subarray(0, payload.length - 7), payload.subarray(0, 40), Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f]), Uint8Array.from([0x22, 0x05, 1, 2])];
    for (const bytes of damaged) {
      assert.throws(() => decodeArchivePayload(bytes), (e: unknown) => e instanceof LfDecodeError && (e.stage === 'package' || e.stage === 'archive'));
    }
    // Flip bytes inside the package: whatever breaks must come out as LfDecodeError.
    for (let i = 50; i < payload.length; i += Math.ceil(payload.length / 40)) {
      const copy = Uint8Array.from(payload);
      copy[i] ^= 0xa5;
      try {
        decodeArchivePayload(copy);
      } catch (e) {
        assert.ok(e instanceof LfDecodeError, `byte ${i}: ${String(e)}`);
      }
    }
  });

  it('refuses Daml-LF 1 packages as unsupported, and a payload without a package', () => {
    // ArchivePayload { minor = 3: "14"; daml_lf_1 = 2: bytes }
    const lf1 = Uint8Array.from([...field(3, new TextEncoder().encode('14')), ...field(2, Uint8Array.from([1, 2]))]);
    assert.throws(() => decodeArchivePayload(lf1), (e: unknown) => e instanceof LfDecodeError && e.stage === 'unsupported-version');
    assert.throws(() => decodeArchivePayload(new Uint8Array()), (e: unknown) => e instanceof LfDecodeError && e.stage === 'package');
  });

  it('refuses an Archive with a wrong hash, and a DAR that is not a zip or lacks its manifest', function () {
    const { payload, hash } = firstArchive(this);
    const archive = encodeArchive(payload, 'f'.repeat(64));
    assert.throws(() => decodeArchive(archive), (e: unknown) => e instanceof LfDecodeError && e.stage === 'hash');
    assert.equal(decodeArchive(encodeArchive(payload, hash)).id, hash);
    assert.throws(() => readDar(Uint8Array.from([1, 2, 3])), (e: unknown) => e instanceof LfDecodeError && e.stage === 'dar');
    assert.throws(() => readDar(zipWithout(requireDarBytes(this, DARS.encoder21), 'META-INF/MANIFEST.MF')), (e: unknown) => e instanceof LfDecodeError && e.stage === 'dar');
  });
});

function firstArchive(context: Mocha.Context): { payload: Uint8Array; hash: string } {
  const files = unzipSync(requireDarBytes(context, DARS.encoder22), { filter: (f) => f.name.endsWith('.dalf') });
  return readArchiveEnvelope(Object.values(files)[0]);
}

/** A minimal Archive message: hash_function = 1 (0, omitted), payload = 3, hash = 4. */
function encodeArchive(payload: Uint8Array, hash: string): Uint8Array {
  const hashBytes = new TextEncoder().encode(hash);
  return Uint8Array.from([...field(3, payload), ...field(4, hashBytes)]);
}

function field(number: number, bytes: Uint8Array): number[] {
  const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >>> 7)]);
  return [...varint((number << 3) | 2), ...varint(bytes.length), ...bytes];
}

function zipWithout(dar: Uint8Array, path: string): Uint8Array {
  const files = unzipSync(dar);
  delete files[path];
  return zipSync(files);
}
