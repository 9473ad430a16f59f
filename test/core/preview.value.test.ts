// Ledger API protobuf values in the preview, written as the JSON Ledger API writes Daml-LF values.
import assert from 'node:assert/strict';
import type { Value } from '@canton-network/core-ledger-proto';
import { valueToJson } from '../../src/core/preview/value';

const text = (t: string): Value => ({ sum: { oneofKind: 'text', text: t } }) as Value;
const none = (): Value => ({ sum: { oneofKind: 'optional', optional: {} } }) as Value;
const some = (v: Value): Value => ({ sum: { oneofKind: 'optional', optional: { value: v } } }) as Value;

describe('preview values: Optional', () => {
  it('an Optional of a non-Optional is null or the value', () => {
    assert.equal(valueToJson(none()), null);
    assert.equal(valueToJson(some(text('x'))), 'x');
  });

  it('Optional (Optional Text): null, [], ["x"]', () => {
    assert.equal(valueToJson(none()), null);
    assert.deepEqual(valueToJson(some(none())), []);
    assert.deepEqual(valueToJson(some(some(text('x')))), ['x']);
  });

  it('Optional (Optional (Optional Text)): every level nests, so Some (Some None) is [[]] and the deepest value [["deep"]]', () => {
    assert.deepEqual(valueToJson(some(none())), []);
    assert.deepEqual(valueToJson(some(some(none()))), [[]]);
    assert.deepEqual(valueToJson(some(some(some(text('deep'))))), [['deep']]);
  });

  it('nested Optionals inside a list and a record keep their levels', () => {
    const list = { sum: { oneofKind: 'list', list: { elements: [none(), some(none()), some(some(text('a')))] } } } as Value;
    // Each element is an Optional (Optional Text) at top level of its position.
    assert.deepEqual(valueToJson(list), [null, [], ['a']]);
  });
});
