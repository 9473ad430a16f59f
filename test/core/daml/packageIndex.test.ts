import assert from 'node:assert/strict';
import { unzipSync } from 'fflate';
import type { DamlPackage } from '../../../src/core/daml/model';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { comparePackageVersions } from '../../../src/core/daml/packageVersions';
import { CATALOG } from '../../../src/participant/catalog';
import { DARS, requireDar, requireDarBytes } from '../../support/dars';

/** A package with one template `Main:T`, enough for the look-ups by name and version. */
function pkg(id: string, name: string, version: string): DamlPackage {
  return {
    id, name, version, lfVersion: '2.1', dependencies: [],
    modules: [{
      name: 'Main',
      dataTypes: [{ kind: 'record', name: 'T', params: [], serializable: true, fields: [] }],
      synonyms: [],
      templates: [{ name: 'T', choices: [], implements: [] }],
      interfaces: [],
    }],
  };
}

const ID = (c: string) => c.repeat(64);

describe('daml package index', () => {
  it('compares package versions part by part, numerically', () => {
    assert.ok(comparePackageVersions('1.10.0', '1.9.0') > 0);
    assert.ok(comparePackageVersions('0.1.14', '0.1.2') > 0);
    assert.equal(comparePackageVersions('1.0', '1.0.0'), 0);
    assert.ok(comparePackageVersions('1.0.0', '2.0.0') < 0);
  });

  it('resolves #name to the highest version while the vetting state is unknown, and to the highest vetted version once it is known', () => {
    const packages = [pkg(ID('a'), 'iou', '1.9.0'), pkg(ID('b'), 'iou', '1.10.0'), pkg(ID('c'), 'other', '3.0.0')];
    const index = new PackageIndex(packages);
    assert.equal(index.resolvePackageName('iou'), ID('b'));
    assert.deepEqual(index.resolve('#iou:Main:T'), { packageId: ID('b'), moduleName: 'Main', name: 'T' });
    assert.deepEqual(index.resolve(`${ID('a')}:Main:T`), { packageId: ID('a'), moduleName: 'Main', name: 'T' });
    assert.equal(index.resolve('#nope:Main:T'), undefined);
    assert.equal(index.resolve(`${ID('d')}:Main:T`), undefined);
    assert.equal(index.resolve('not an id'), undefined);
    // Canton submits with the highest vetted version (1.10.0 uploaded but not vetted: 1.9.0).
    let vetted: ReadonlySet<string> | undefined;
    const withVetting = new PackageIndex(packages, { vettedPackageIds: () => vetted });
    assert.equal(withVetting.resolvePackageName('iou'), ID('b'), 'vetting unknown: the highest version');
    vetted = new Set([ID('a'), ID('c')]);
    assert.equal(withVetting.resolvePackageName('iou'), ID('a'), 'the vetting state is read when asked');
    assert.equal(withVetting.resolvePackageName('other'), ID('c'));
    vetted = new Set([ID('c')]);
    assert.equal(withVetting.resolvePackageName('iou'), ID('b'), 'no version of the name vetted: the highest version');
  });

  it('lists one template per package-name form, of the version that form resolves to, in every surface', () => {
    const packages = [pkg(ID('b'), 'iou', '2.0.0'), pkg(ID('a'), 'iou', '1.0.0')];
    const vetted = new Set([ID('a')]);
    const index = new PackageIndex(packages, { vettedPackageIds: () => vetted });
    assert.deepEqual(index.templatesByPackageName().map((t) => [t.packageNameForm, t.packageVersion]), [['#iou:Main:T', '1.0.0']]);
    assert.equal(index.resolve('#iou:Main:T')?.packageId, ID('a'));
  });

  it('finds a data type asked for again by the same name, and one missing until its package is added', () => {
    const index = new PackageIndex([pkg(ID('a'), 'iou', '1.0.0')]);
    const name = { packageId: ID('b'), moduleName: 'Main', name: 'T' };
    assert.equal(index.dataType(name), undefined);
    index.add(pkg(ID('b'), 'iou', '2.0.0'));
    const found = index.dataType(name);
    assert.equal(found?.name, 'T');
    assert.equal(index.dataType(name), found);
    assert.equal(index.dataType({ ...name }), found, 'a name equal to it, not the same object');
    assert.equal(index.dataType({ ...name, name: 'U' }), undefined);
  });

  it('lists templates with their ids in both forms', () => {
    const index = new PackageIndex([pkg(ID('a'), 'iou', '1.0.0')]);
    const [entry] = index.templates();
    assert.equal(entry.packageIdForm, `${ID('a')}:Main:T`);
    assert.equal(entry.packageNameForm, '#iou:Main:T');
    assert.equal(entry.fields?.name, 'T');
    assert.equal(index.template(entry.packageNameForm), entry.template);
    assert.equal(index.template(entry.name), entry.template);
  });

  it("lists a template's choices with those of the interfaces it implements, under the interface's name", function () {
    const index = new PackageIndex(requireDar(this, DARS.definitions).packages);
    const choices = index.choices('#DamlDefinitionsServiceDep:ExternalDep:TemplateBar')!;
    const iface = index.resolve('#DamlDefinitionsServiceDep:ExternalDep:MyInterface')!;
    assert.deepEqual(
      choices.map((c) => [c.choice.name, c.declaredIn, c.declaredBy.name]),
      [['Archive', 'template', 'TemplateBar'], ['MyNonConsumingChoice', 'interface', 'MyInterface'], ['MyChoice', 'interface', 'MyInterface']],
    );
    assert.deepEqual(choices[1].declaredBy, iface);
    assert.equal(choices[1].choice.consuming, false);
    assert.equal(index.choices('#DamlDefinitionsServiceDep:ExternalDep:Nope'), undefined);
  });

  it("adds an interface's choices to a template's once the interface's package is added", () => {
    const [iou, holding] = ['demo-iou', 'demo-holding'].map((name) => CATALOG.find((p) => p.signature.name === name)!.signature);
    const index = new PackageIndex([iou]);
    const names = () => index.choices('#demo-iou:Iou:Iou')!.map((c) => `${c.declaredIn} ${c.choice.name}`);
    const before = names();
    assert.ok(before.includes('template Iou_Transfer') && !before.some((n) => n.startsWith('interface')), before.join(', '));
    index.add(holding);
    assert.ok(names().includes('interface Holding_Transfer'), names().join(', '));
  });

  it('decoded packages are plain data: a JSON round trip gives the same package', function () {
    for (const p of requireDar(this, DARS.definitions).packages) {
      assert.deepEqual(JSON.parse(JSON.stringify(p)), p);
    }
  });

  it('the cache decodes each package once, whichever way it arrives', function () {
    const bytes = requireDarBytes(this, DARS.encoder22);
    const cache = new PackageCache();
    const first = cache.fromDar(bytes);
    const again = cache.fromDar(bytes);
    assert.equal(again.packages[0], first.packages[0], 'the same object, not decoded again');
    const dalf = Object.values(unzipSync(bytes, { filter: (f) => f.name.endsWith('.dalf') }))[0];
    assert.equal(cache.fromArchive(dalf), first.packages[0]);
    assert.equal(cache.get(first.mainPackageId), first.packages[0]);
  });
});
