// Example values (what a new ledger script fills a create with): for every template and choice of the
// shared DARs, a value made up passes the checker and the schema; a ContractId has none, except as
// None or an empty list.
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import config from '../../../src/core/files/ajv-config.json';
import { exampleValue } from '../../../src/core/daml/exampleValue';
import { checkValue, jsonSchemaFor } from '../../../src/core/daml/jsonEncoding';
import { DamlTypes as T, type DamlType } from '../../../src/core/daml/model';
import { PackageIndex } from '../../../src/core/daml/packageIndex';
import { ALL_DARS, requireDar } from '../../support/dars';

const PARTY = 'Alice::1220';

describe('daml example values', () => {
  const index = new PackageIndex();
  const b = { party: T.builtin('Party'), text: T.builtin('Text'), cid: T.builtin('ContractId', T.builtin('Unit')) };

  it('real values of the builtins: positive numbers, the party given, Some and one-element collections', () => {
    const of = (type: DamlType) => exampleValue(type, index, { party: PARTY });
    assert.deepEqual(
      [of(b.party), of(T.numeric(10)), of(T.numeric(0)), of(T.builtin('Int64')), of(T.builtin('Date')), of(T.builtin('Timestamp')), of(T.builtin('Bool'))],
      [PARTY, '1.00', '1', '1', '2025-01-31', '2025-01-31T12:00:00Z', true],
    );
    assert.deepEqual([of(T.builtin('List', b.party)), of(T.builtin('Optional', b.text)), of(T.builtin('TextMap', b.party))], [[PARTY], 'example value', { 'example value': PARTY }]);
    assert.equal(of(b.cid), undefined, 'a contract id is only one that exists');
    assert.deepEqual([of(T.builtin('Optional', b.cid)), of(T.builtin('List', b.cid))], [null, []], 'None and empty are valid without one');
  });

  for (const darName of ALL_DARS) {
    it(`${darName}: every value made up passes the checker and the schema`, function () {
      const dar = new PackageIndex(requireDar(this, darName).packages);
      const ajv = new Ajv(config.options);
      ajv.addVocabulary(config.annotationKeywords);
      let made = 0;
      for (const entry of dar.templates()) {
        const types: Array<[string, DamlType]> = [[entry.packageNameForm, T.con(entry.name)]];
        for (const c of dar.choices(entry.name) ?? []) types.push([`${entry.packageNameForm} ${c.choice.name}`, c.choice.argType]);
        for (const [what, type] of types) {
          const value = exampleValue(type, dar, { party: PARTY });
          if (value === undefined) continue;
          assert.deepEqual(checkValue(type, value, dar), [], `${what}: ${JSON.stringify(value)}`);
          const validate = ajv.compile(jsonSchemaFor(type, dar, { title: what }));
          assert.ok(validate(value), `${what}: ${JSON.stringify(value)}: ${JSON.stringify(validate.errors)}`);
          made++;
        }
      }
      assert.ok(made > 0 || dar.templates().length === 0, darName);
    });
  }
});
