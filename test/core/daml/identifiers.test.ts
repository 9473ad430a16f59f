import assert from 'node:assert/strict';
import {
  entityName, isPackageHash, packageRefOf, parseIdentifier, printIdentifier, qualifiedNameOf, withPackageId, withPackageName,
} from '../../../src/core/daml/identifiers';

const PKG = 'a'.repeat(40) + '0123456789abcdef01234567';

describe('daml identifiers', () => {
  it('names an entity by its module and name, and leaves a text that is no identifier as it is', () => {
    assert.equal(entityName('#demo-iou:Iou:Iou'), 'Iou:Iou');
    assert.equal(entityName(`${PKG}:A.B:C`), 'A.B:C');
    assert.equal(entityName('not an identifier'), 'not an identifier');
  });

  it('parses the package-name form', () => {
    assert.deepEqual(parseIdentifier('#splice-amulet:Splice.Amulet:Amulet'), {
      form: 'package-name',
      packageName: 'splice-amulet',
      moduleName: 'Splice.Amulet',
      entityName: 'Amulet',
    });
  });

  it('parses the package-id form', () => {
    assert.deepEqual(parseIdentifier(`${PKG}:Canton.Internal.Ping:Ping`), {
      form: 'package-id',
      packageId: PKG,
      moduleName: 'Canton.Internal.Ping',
      entityName: 'Ping',
    });
  });

  it('takes dotted entity names (record constructors of variants) and Daml name characters', () => {
    const id = parseIdentifier('#pkg:Shapes:Shape.Circle');
    assert.equal(id?.entityName, 'Shape.Circle');
    assert.equal(parseIdentifier('#pkg:M_1:$sel')?.entityName, '$sel');
  });

  for (const bad of [
    '',
    'Iou:Iou',
    '#pkg:Iou',
    '#pkg:Iou:Iou:Extra',
    '#:Iou:Iou',
    ':Iou:Iou',
    '#pkg::Iou',
    '#pkg:Iou:',
    '#pkg:1Iou:Iou',
    '#pkg:Iou..Sub:Iou',
    '#pkg:Iou.:Iou',
    '#pkg:Iou:Io u',
    '#pk g:Iou:Iou',
    '##pkg:Iou:Iou',
    ' #pkg:Iou:Iou',
  ]) {
    it(`rejects ${JSON.stringify(bad)}`, () => assert.equal(parseIdentifier(bad), undefined));
  }

  it('answers the same for an id parsed again, also after more ids than it keeps, and shares a frozen result', () => {
    const first = parseIdentifier('#demo-iou:Iou:Iou');
    assert.equal(parseIdentifier('#demo-iou:Iou:Iou'), first);
    assert.ok(Object.isFrozen(first));
    assert.equal(parseIdentifier('#pkg::Iou'), undefined);
    assert.equal(parseIdentifier('#pkg::Iou'), undefined);
    for (let i = 0; i < 5000; i++) assert.equal(parseIdentifier(`#p${i}:M:E${i}`)?.entityName, `E${i}`);
    assert.deepEqual(parseIdentifier('#demo-iou:Iou:Iou'), { form: 'package-name', packageName: 'demo-iou', moduleName: 'Iou', entityName: 'Iou' });
    assert.equal(parseIdentifier('#pkg::Iou'), undefined);
    const long = `#pkg:Main:${'E'.repeat(600)}`;
    assert.equal(parseIdentifier(long)?.entityName.length, 600);
    assert.equal(parseIdentifier(`${long}:`), undefined);
  });

  it('prints what it parses, in both forms', () => {
    for (const text of ['#demo-iou:Iou:Iou', `${PKG}:A.B:C.D`, '#my.pkg_1:M:E']) {
      const id = parseIdentifier(text);
      assert.ok(id, text);
      assert.equal(printIdentifier(id), text);
    }
  });

  it('switches between the forms and names the parts', () => {
    const byId = parseIdentifier(`${PKG}:Iou:Iou`)!;
    const byName = withPackageName(byId, 'demo-iou');
    assert.equal(printIdentifier(byName), '#demo-iou:Iou:Iou');
    assert.equal(packageRefOf(byName), '#demo-iou');
    assert.equal(packageRefOf(byId), PKG);
    assert.equal(printIdentifier(withPackageId(byName, PKG)), `${PKG}:Iou:Iou`);
    assert.equal(qualifiedNameOf(byName), 'Iou:Iou');
  });

  it('recognises package hashes', () => {
    assert.ok(isPackageHash(PKG));
    assert.ok(isPackageHash(PKG.toUpperCase()));
    assert.ok(!isPackageHash(PKG.slice(1)));
    assert.ok(!isPackageHash(PKG.slice(1) + 'g'));
  });
});
