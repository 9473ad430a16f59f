import assert from 'node:assert/strict';
import type * as wire from '../../src/core/models/wire';
import type { DemoParticipant } from '../../src/participant/index';
import { assertCantonError, assertSpecValid, createIou, kinds, offsetOf, post, start, submit, transactionsFormat } from './helpers';

const PAGE = '/v2/updates/get-updates-page';

describe('demo participant: POST /v2/updates/get-updates-page', () => {
  let p: DemoParticipant;
  before(async () => {
    p = await start();
  });
  after(() => p.close());

  const page = async (body: Partial<wire.GetUpdatesPageRequest>) => {
    const reply = await post<wire.JsGetUpdatesPageResponse>(p, PAGE, { updateFormat: transactionsFormat('any'), ...body });
    assert.equal(reply.status, 200, reply.text);
    assertSpecValid(reply.json, 'JsGetUpdatesPageResponse');
    return reply.json;
  };

  /** All offsets of the visible transactions, straight from the list endpoint. */
  const allOffsets = async (end: number) => {
    const reply = await post<wire.JsGetUpdatesResponse[]>(p, '/v2/updates', { beginExclusive: 0, endInclusive: end, updateFormat: transactionsFormat('any') });
    return reply.json.filter((u) => kinds([u])[0] === 'Transaction').map(offsetOf);
  };

  it('ascending pages with a pinned end cover every transaction once, then stop', async () => {
    const end = p.state.ledgerEnd;
    const seen: number[] = [];
    let token: string | undefined;
    let lowest = 0;
    for (let i = 0; i < 50; i++) {
      const json = await page({ endOffsetInclusive: end, maxPageSize: 4, pageToken: token });
      assert.equal(json.lowestPageOffsetExclusive, lowest, 'pages are contiguous');
      lowest = json.highestPageOffsetInclusive;
      seen.push(...(json.updates ?? []).map(offsetOf));
      assert.ok(!kinds(json.updates ?? []).includes('OffsetCheckpoint'));
      token = json.nextPageToken || undefined;
      if (!token) break;
    }
    assert.equal(token, undefined);
    assert.equal(lowest, end);
    assert.deepEqual(seen, await allOffsets(end));
  });

  it('descending pages go from the end down', async () => {
    const end = p.state.ledgerEnd;
    const first = await page({ endOffsetInclusive: end, maxPageSize: 3, descendingOrder: true });
    const offsets = (first.updates ?? []).map(offsetOf);
    assert.equal(first.highestPageOffsetInclusive, end);
    assert.deepEqual(offsets, [...offsets].sort((a, b) => b - a));
    assert.equal(first.lowestPageOffsetExclusive, offsets[2] - 1);
    const second = await page({ endOffsetInclusive: end, maxPageSize: 3, descendingOrder: true, pageToken: first.nextPageToken! });
    assert.equal(second.highestPageOffsetInclusive, first.lowestPageOffsetExclusive);
    assert.ok((second.updates ?? []).every((u) => offsetOf(u) < offsets[2]));
  });

  it('without an end, the last page still has a token that tails the ledger', async () => {
    const first = await page({ beginOffsetExclusive: p.state.ledgerEnd });
    assert.deepEqual(first.updates, []);
    assert.ok(first.nextPageToken);
    const tx = await submit(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.alice)]);
    const next = await page({ beginOffsetExclusive: first.lowestPageOffsetExclusive, pageToken: first.nextPageToken! });
    assert.deepEqual((next.updates ?? []).map(offsetOf), [tx.offset]);
  });

  it('rejects a token used with other parameters, and tokens it did not issue', async () => {
    const end = p.state.ledgerEnd;
    const first = await page({ endOffsetInclusive: end, maxPageSize: 2 });
    const otherFormat = await post(p, PAGE, { updateFormat: transactionsFormat([p.parties.alice]), endOffsetInclusive: end, maxPageSize: 2, pageToken: first.nextPageToken });
    assert.match(assertCantonError(otherFormat, 400, 'INVALID_ARGUMENT', 8).cause, /different parameters/);
    const otherOrder = await post(p, PAGE, { updateFormat: transactionsFormat('any'), endOffsetInclusive: end, descendingOrder: true, pageToken: first.nextPageToken });
    assertCantonError(otherOrder, 400, 'INVALID_ARGUMENT', 8);
    // The page size may change between pages.
    assert.equal((await post(p, PAGE, { updateFormat: transactionsFormat('any'), endOffsetInclusive: end, maxPageSize: 5, pageToken: first.nextPageToken })).status, 200);
    assertCantonError(await post(p, PAGE, { updateFormat: transactionsFormat('any'), pageToken: 'bm9wZQ==' }), 400, 'INVALID_ARGUMENT', 8);
  });

  it('validates offsets and the page size', async () => {
    const end = p.state.ledgerEnd;
    assertCantonError(await post(p, PAGE, { updateFormat: transactionsFormat('any'), endOffsetInclusive: end + 1 }), 400, 'OFFSET_AFTER_LEDGER_END', 12);
    assertCantonError(await post(p, PAGE, { updateFormat: transactionsFormat('any'), beginOffsetExclusive: -2 }), 400, 'NEGATIVE_OFFSET', 8);
    assertCantonError(await post(p, PAGE, { updateFormat: transactionsFormat('any'), maxPageSize: 5000 }), 400, 'INVALID_ARGUMENT', 8);
  });

  it('starts at the pruning offset when no begin is given; refuses to begin below it', async () => {
    const pruned = await start();
    try {
      pruned.state.prune(8);
      const reply = await post<wire.JsGetUpdatesPageResponse>(pruned, PAGE, { updateFormat: transactionsFormat('any') });
      assert.equal(reply.json.lowestPageOffsetExclusive, 8);
      assert.ok((reply.json.updates ?? []).every((u) => offsetOf(u) > 8));
      assertCantonError(await post(pruned, PAGE, { updateFormat: transactionsFormat('any'), beginOffsetExclusive: 3 }), 400, 'PARTICIPANT_PRUNED_DATA_ACCESSED', 9);
    } finally {
      await pruned.close();
    }
  });
});
