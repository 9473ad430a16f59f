import assert from 'node:assert/strict';
import { getOrCreate } from '../../src/core/maps';

describe('getOrCreate', () => {
  it('makes the value once and keeps it; an existing value is returned as it is', () => {
    const map = new Map<string, string[]>([['a', ['x']]]);
    let made = 0;
    const make = () => (made++, []);
    getOrCreate(map, 'b', make).push('y');
    getOrCreate(map, 'b', make).push('z');
    assert.deepEqual(getOrCreate(map, 'a', make), ['x']);
    assert.deepEqual(map.get('b'), ['y', 'z']);
    assert.equal(made, 1);
  });
});
