import assert from 'node:assert/strict';
import { jsonArrayBatches, JsonStreamError } from '../../../src/core/api/jsonArrayStream';

async function* chunksOf(text: string, sizes: number[] | number): AsyncGenerator<Buffer> {
  const buf = Buffer.from(text, 'utf8');
  let i = 0;
  let k = 0;
  while (i < buf.length) {
    const n = typeof sizes === 'number' ? sizes : sizes[k++ % sizes.length];
    yield buf.subarray(i, i + n);
    i += n;
  }
}

async function decodeAll(text: string, sizes: number[] | number = 1 << 16): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const batch of jsonArrayBatches(chunksOf(text, sizes))) out.push(...batch);
  return out;
}

const TRICKY = [
  { a: 'quote " inside', b: 'backslash \\ end\\', c: '\\"', nested: [[1, 2], { x: [] }], u: 'ünïcødé ✓ 𝄞' },
  'a string, with ] and } and ,',
  42,
  -1.5e3,
  true,
  null,
  [],
  {},
  { offset: 18, s: '\\\\' },
];

describe('jsonArrayBatches', () => {
  it('decodes the same values as JSON.parse, whatever the chunk boundaries', async () => {
    const text = JSON.stringify(TRICKY, null, 1);
    const expected = JSON.parse(text);
    for (let size = 1; size <= 40; size++) {
      assert.deepEqual(await decodeAll(text, size), expected, `chunk size ${size}`);
    }
    // and every single split point
    const bytes = Buffer.byteLength(text);
    for (let cut = 1; cut < bytes; cut++) {
      assert.deepEqual(await decodeAll(text, [cut, bytes]), expected, `split at ${cut}`);
    }
  });

  it('finds the true end of elements that begin alike, even when their text holds what the next one begins with', async () => {
    const elements = [
      { update: { a: 1 } },
      { update: { s: 'looks like a boundary: ,{"update": here' } },
      { update: { s: '},{"update":' }, more: [{ update: 1 }, { update: 2 }] },
      { update: ',{"update":' },
      { other: 1 },
      { update: { last: true } },
      { update: { after: 'a different first key' } },
    ];
    const text = JSON.stringify(elements);
    for (const size of [7, 64, 1 << 16]) assert.deepEqual(await decodeAll(text, size), elements, `chunk size ${size}`);
    // and with white space between the elements (no fast path at all)
    assert.deepEqual(await decodeAll(JSON.stringify(elements, null, 2), 64), elements);
  });

  it('decodes a long list of update-like elements with traps in their strings, at many chunk sizes', async () => {
    const traps = ['', ',{"update":', '},{"update":{', '\\', '\\"', '"', 'ünïcødé 𝄞', ']', '[', '\n'];
    const elements = Array.from({ length: 300 }, (_, i) => ({
      update: { Transaction: { value: { offset: i, note: traps[i % traps.length].repeat(1 + (i % 3)), events: [{ update: i }, { n: [i, { s: traps[(i * 7) % traps.length] }] }] } } },
    }));
    const text = JSON.stringify(elements);
    for (const size of [1, 2, 3, 5, 11, 17, 64, 333, 1000, 4096, 1 << 16]) assert.deepEqual(await decodeAll(text, size), elements, `chunk size ${size}`);
  });

  it('handles an escaped backslash run split across chunks', async () => {
    const text = JSON.stringify([{ s: 'x\\\\\\"y' }, { t: 1 }]);
    for (let size = 1; size < 8; size++) assert.deepEqual(await decodeAll(text, size), JSON.parse(text));
  });

  it('decodes empty arrays and white space', async () => {
    assert.deepEqual(await decodeAll(' \n[ ] \n'), []);
    assert.deepEqual(await decodeAll('[\n  1 ,\n 2\n]'), [1, 2]);
  });

  it('yields per chunk, not all at the end', async () => {
    const elements = Array.from({ length: 1000 }, (_, i) => ({ i, pad: 'x'.repeat(100) }));
    let batches = 0;
    for await (const _ of jsonArrayBatches(chunksOf(JSON.stringify(elements), 4096))) batches++;
    assert.ok(batches > 20, `expected many batches, got ${batches}`);
  });

  it('rejects what is not a JSON array, with the position and the kind of problem', async () => {
    await assert.rejects(decodeAll('{"code":"X"}'), (e: unknown) => e instanceof JsonStreamError && e.offset === 0 && e.problem === 'not-an-array');
    await assert.rejects(decodeAll('[1, {"a":1}, x]'), (e: unknown) => e instanceof JsonStreamError && e.offset === 14 && e.problem === 'invalid-element');
    await assert.rejects(decodeAll('[1,2'), JsonStreamError);
    await assert.rejects(decodeAll('[{"a":1}'), JsonStreamError);
    await assert.rejects(decodeAll('[1] x'), JsonStreamError);
    await assert.rejects(decodeAll(''), JsonStreamError);
    await assert.rejects(decodeAll('[{"a":tru}]'), JsonStreamError);
    for (const bad of ['[1 2]', '[{} {}]', '[,1]', '[1,]', '[1,,2]', '["a"x]', '[{"update":1},{"update":2},]']) {
      await assert.rejects(decodeAll(bad), (e: unknown) => e instanceof JsonStreamError && e.problem === 'invalid-element', bad);
    }
  });

  it('refuses an element larger than the limit instead of buffering it', async () => {
    const text = JSON.stringify([{ big: 'y'.repeat(10_000) }]);
    const run = async () => {
      for await (const _ of jsonArrayBatches(chunksOf(text, 100), { maxElementChars: 1000 })) void _;
    };
    await assert.rejects(run(), (e: unknown) => e instanceof JsonStreamError && e.problem === 'element-too-large' && e.offset <= 1100);
  });
});
