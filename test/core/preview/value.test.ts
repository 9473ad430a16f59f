// Ledger API protobuf values in the preview, written as the JSON Ledger API writes Daml-LF values:
// a nested Optional as Canton's codec writes it (an array at every level; docs/daml-values.md).
import assert from 'node:assert/strict';
import type { Value } from '@canton-network/core-ledger-proto';
import { valueToJson } from '../../../src/core/preview/value';

const text = (t: string): Value => ({ sum: { oneofKind: 'text', text: t } }) as Value;
const none = (): Value => ({ sum: { oneofKind: 'optional', optional: {} } }) as Value;
const some = (v: Value): Value => ({ sum: { oneofKind: 'optional', optional: { value: v } } }) as Value;

describe('preview values: Optional', () => {
  it('an Optional of a non-Optional is null or the value', () => {
    assert.equal(valueToJson(none()), null);
    assert.equal(valueToJson(some(text('x'))), 'x');
  });

  it('Optional (Optional Text): Some None is [[]] and Some (Some "x") [["x"]] (a None, typeless here, null)', () => {
    assert.equal(valueToJson(none()), null);
    assert.deepEqual(valueToJson(some(none())), [[]]);
    assert.deepEqual(valueToJson(some(some(text('x')))), [['x']]);
  });

  it('Optional (Optional (Optional Text)): an array at every level, so nothing two levels deep reads as null or loses a level', () => {
    assert.deepEqual(valueToJson(some(some(none()))), [[[]]]);
    assert.deepEqual(valueToJson(some(some(some(text('deep'))))), [[['deep']]]);
  });

  it('nested Optionals inside a list keep their levels', () => {
    const list = { sum: { oneofKind: 'list', list: { elements: [none(), some(none()), some(some(text('a')))] } } } as Value;
    assert.deepEqual(valueToJson(list), [null, [[]], [['a']]]);
  });
});
