// The state of one list read in pages (PagedListState), wherever it shows: the first page read once,
// Load more, a failure kept until Retry, a reset that drops the reads it overtook, a re-read keeping
// as many items. The pages are the core's OnDemandPages over pages the test answers one by one.
import assert from 'node:assert/strict';
import { PagedListState } from '../../src/core/paging';
import { nextRequest, ScriptedPages, type PageRequest } from '../support/scriptedPages';

function setUp() {
  const requests: PageRequest[] = [];
  const events: string[] = [];
  let opened = 0;
  const state = new PagedListState<ScriptedPages>({
    open: async () => {
      opened++;
      return new ScriptedPages('list', requests);
    },
    loaded: (pager, added) => events.push(`loaded ${added ?? 'all'}: ${pager.items.join(',')}`),
    failed: (e, during) => events.push(`failed ${during}: ${(e as Error).message}`),
    changed: () => events.push('changed'),
  });
  const next = () => nextRequest(requests);
  /** The first page read and answered with these items. */
  const firstPage = async (items: string[], cursor?: number) => {
    const first = state.ensureFirst();
    (await next()).answer(items, cursor);
    await first;
  };
  return { state, requests, events, next, firstPage, opened: () => opened };
}

describe('PagedListState', () => {
  it('reads the first page once however often it is asked for, then each page on demand until the last', async () => {
    const { state, events, next, opened, requests } = setUp();
    assert.deepEqual(state.tail(), { kind: 'none' });
    const a = state.ensureFirst();
    const b = state.ensureFirst();
    (await next()).answer(['a', 'b'], 2);
    await Promise.all([a, b]);
    assert.equal(opened(), 1, 'one pager');
    assert.equal(requests.length, 0, 'one read for both asks');
    assert.deepEqual(state.tail(), { kind: 'more', loading: false });

    const more = state.loadMore();
    assert.deepEqual(state.tail(), { kind: 'more', loading: true });
    const second = await next();
    assert.equal(second.cursor, 2);
    second.answer(['c']);
    await more;
    assert.deepEqual(state.pager?.items, ['a', 'b', 'c']);
    assert.deepEqual(state.tail(), { kind: 'none' }, 'the last page: nothing more');
    assert.deepEqual(events.filter((e) => e.startsWith('loaded')), ['loaded all: a,b', 'loaded 1: a,b,c']);
  });

  it('an empty list says so, counting the rows its owner shows', async () => {
    const { state, firstPage } = setUp();
    await firstPage([]);
    assert.deepEqual(state.tail(), { kind: 'empty' });
    assert.deepEqual(state.tail(2), { kind: 'none' }, 'the owner shows rows of its own');
  });

  it('keeps a failed first page until Retry, which reads the first page again', async () => {
    const { state, events, next, requests } = setUp();
    const first = state.ensureFirst();
    (await next()).fail(new Error('refused'));
    await first;
    assert.equal(state.tail().kind, 'error');
    assert.deepEqual(state.tail(), { kind: 'error', error: state.error, retry: 'first' });
    await state.ensureFirst();
    assert.equal(requests.length, 0, 'no read per ask while it failed');
    assert.deepEqual(events.filter((e) => e.startsWith('failed')), ['failed first: refused']);

    const retried = state.retry();
    const again = await next();
    assert.equal(again.cursor, undefined);
    again.answer(['a']);
    await retried;
    assert.equal(state.error, undefined);
    assert.deepEqual(state.pager?.items, ['a']);
  });

  it('keeps what is loaded when Load more fails; Retry reads the page that failed', async () => {
    const { state, next, firstPage } = setUp();
    await firstPage(['a'], 1);
    const more = state.loadMore();
    (await next()).fail(new Error('reset by peer'));
    await more;
    assert.deepEqual(state.tail(), { kind: 'error', error: state.error, retry: 'more' });
    assert.deepEqual(state.pager?.items, ['a']);
    const retried = state.retry();
    const again = await next();
    assert.equal(again.cursor, 1);
    again.answer(['b']);
    await retried;
    assert.deepEqual([state.pager?.items, state.error], [['a', 'b'], undefined]);
  });

  it('a reset aborts the reads in progress and drops what they answer; the next read is a fresh first page', async () => {
    const { state, next, events } = setUp();
    const stale = state.ensureFirst();
    const old = await next();
    state.reset();
    assert.equal(old.signal?.aborted, true, 'the overtaken read is cancelled');
    const fresh = state.ensureFirst();
    const current = await next();
    old.answer(['old'], 1);
    current.answer(['new'], 1);
    await Promise.all([stale, fresh]);
    assert.deepEqual(state.pager?.items, ['new']);
    assert.ok(!events.some((e) => e.includes('old')), events.join('; '));

    const more = state.loadMore();
    const overtaken = await next();
    state.reset();
    overtaken.fail(new Error('aborted'));
    await more;
    assert.equal(state.error, undefined, 'a failure a reset overtook is no failure');
    assert.equal(state.pager, undefined);
  });

  it('a re-read after a reset that keeps what was loaded pages up to as many items', async () => {
    const { state, next, firstPage } = setUp();
    await firstPage(['a'], 1);
    const more = state.loadMore();
    (await next()).answer(['b'], 2);
    await more;
    state.reset(true);
    const reread = state.reread();
    (await next()).answer(['a'], 1);
    const second = await next();
    assert.equal(second.cursor, 1);
    second.answer(['b'], 2);
    await reread;
    assert.deepEqual(state.pager?.items, ['a', 'b']);
  });

  it('dispose cancels the read in progress and nothing lands after it', async () => {
    const { state, next, events } = setUp();
    const first = state.ensureFirst();
    const request = await next();
    state.dispose();
    assert.equal(request.signal?.aborted, true);
    request.answer(['late']);
    await first;
    assert.equal(state.pager, undefined);
    assert.ok(!events.some((e) => e.startsWith('loaded')), events.join('; '));
  });
});
