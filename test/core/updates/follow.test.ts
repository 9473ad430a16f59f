// Following the update stream and paging a pinned range, against the demo participant.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { AuthError } from '../../../src/core/errors';
import type { Update } from '../../../src/core/models/updates';
import { UpdatesPager } from '../../../src/core/updates/pager';
import { followUpdates, startingPosition, type FollowOptions, type FollowSource } from '../../../src/core/updates/tail';
import { UpdateWindow } from '../../../src/core/updates/window';
import { type DemoParticipant } from '../../../src/participant';
import { startCheckedParticipant } from '../../support/specCheck';

const ANY = { filter: { anyParty: true } } as const;
const key = (u: { offset?: number; kind: string }) => `${u.offset}/${u.kind}`;

/** Follows until `until(received)` holds, then stops; returns what was delivered. */
async function followUntilWith(client: LedgerClient, fromOffset: number, until: (got: Update[]) => boolean, extra: Partial<FollowOptions> = {}) {
  const got: Update[] = [];
  const statuses: string[] = [];
  const stop = new AbortController();
  const done = followUpdates(client, {
    selection: ANY,
    from: fromOffset,
    signal: stop.signal,
    idleTimeoutMs: 100,
    retryDelayMs: () => 10,
    onBatch: (b) => {
      got.push(...b);
      if (until(got)) stop.abort();
    },
    onStatus: (s) => statuses.push(s.state),
    ...extra,
  });
  const timer = setTimeout(() => stop.abort(), 15_000);
  await done.finally(() => clearTimeout(timer));
  return { got, statuses };
}

for (const source of ['polling', 'websocket'] as const) describe(`followUpdates (live tail, ${source})`, function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let client: LedgerClient;
  const followUntil = (c: LedgerClient, fromOffset: number, until: (got: Update[]) => boolean, extra: Partial<FollowOptions> = {}) => followUntilWith(c, fromOffset, until, { source, ...extra });

  beforeEach(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 3, listCap: 50 });
    client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
  });
  afterEach(() => p.close());

  it('delivers updates appended after the start offset, in order, and none from before', async () => {
    const start = p.state.ledgerEnd;
    setTimeout(() => p.state.appendSynthetic(30, { checkpointEvery: 4 }), 150);
    const expected = () => p.state.ledgerEnd;
    const { got } = await followUntil(client, start, (g) => g.some((u) => u.offset === expected() && u.kind !== 'checkpoint'));
    const all = await client.listUpdates({ beginExclusive: start, endInclusive: p.state.ledgerEnd }, ANY);
    assert.ok(got.every((u) => u.offset! > start));
    // Everything of the range arrived, in ledger order, each once (checkpoints at the very end may still be due).
    assert.deepEqual(got.map(key), all.slice(0, got.length).map(key));
    assert.ok(got.length >= all.filter((u) => u.kind !== 'checkpoint').length);
  });

  it('reads in batches no bigger than the participant cap (more than the cap arrives without 413)', async () => {
    const start = p.state.ledgerEnd;
    p.state.appendSynthetic(180, { checkpointEvery: 7 });
    const all = ledgerAfter(p, start);
    const { got } = await followUntil(client, start, (g) => g.length >= all.length, { batchSize: 500 });
    assert.deepEqual(got.map(key), all.map(key));
  });

  it('resumes after a dropped connection with no gap and no duplicate, also between an update and its checkpoint', async () => {
    const start = p.state.ledgerEnd;
    p.state.appendSynthetic(60, { checkpointEvery: 3 });
    const all = ledgerAfter(p, start);
    // Cut every response (or socket) after 5 elements: with checkpoints every 3 updates some cuts
    // fall between an update and the checkpoint carrying the same offset.
    if (source === 'polling') p.faults.updatesList = { cutAfterElements: 5, times: 8 };
    else p.faults.updatesSocket = { cutAfterFrames: 5, times: 8 };
    const { got, statuses } = await followUntil(client, start, (g) => g.length >= all.length, { batchSize: 12 });
    assert.ok(statuses.includes('reconnecting'), 'the cuts were noticed');
    assert.ok(statuses.includes('following'), 'and following resumed');
    assert.deepEqual(got.map(key), all.map(key));
    assert.equal(new Set(got.map(key)).size, got.length);
  });

  it('stops with an AuthError instead of retrying when the token is rejected', async () => {
    const q = await startCheckedParticipant({ port: 0, seed: 3, auth: { secret: 'test-secret-follow' } });
    try {
      const bad = new LedgerClient({ baseUrl: q.url, timeoutMs: 5000, token: async () => 'not-a-token' });
      const sources: FollowSource[] = [];
      await assert.rejects(followUpdates(bad, { source, selection: ANY, from: 0, signal: new AbortController().signal, idleTimeoutMs: 50, onBatch: () => undefined, onSource: (s) => sources.push(s) }), AuthError);
      // A rejected token is not a reason to fall back: it ends following on the source asked for.
      assert.deepEqual(sources.filter((s) => s.kind !== source), []);
    } finally {
      await q.close();
    }
  });

  it('resumes from the position it reached when a rejected token ended it: no gap, no repeat', async function () {
    let now = Date.now();
    const q = await startCheckedParticipant({ port: 0, seed: 3, listCap: 50, auth: { secret: 'test-secret-resume' }, clock: () => new Date(now) });
    try {
      let token = await q.mintToken('demo-admin', { expiresInSeconds: 60 });
      const authed = new LedgerClient({ baseUrl: q.url, timeoutMs: 5000, token: async () => token });
      const start = q.state.ledgerEnd;
      q.state.appendSynthetic(20, { checkpointEvery: 3 });
      const position = startingPosition(start);
      const got: Update[] = [];
      const first = followUpdates(authed, {
        source,
        selection: ANY,
        from: position,
        signal: new AbortController().signal,
        idleTimeoutMs: 50,
        batchSize: 7,
        onBatch: (b) => {
          got.push(...b);
          // The token expires while following; more is written after.
          if (got.length >= 10 && now < Date.now() + 60_000) {
            now += 120_000;
            q.state.appendSynthetic(15, { seed: 8, checkpointEvery: 4 });
          }
        },
      });
      await assert.rejects(first, AuthError);
      assert.ok(got.length >= 10 && got.length < ledgerAfter(q, start).length, `stopped part way (${got.length})`);
      token = await q.mintToken('demo-admin', { expiresInSeconds: 240 });
      const all = ledgerAfter(q, start);
      const { got: rest } = await followUntil(authed, 0, (g) => got.length + g.length >= all.length, { from: position });
      assert.deepEqual([...got, ...rest].map(key), all.map(key));
    } finally {
      await q.close();
    }
  });

  it('resolves with its position when aborted while waiting', async () => {
    const stop = new AbortController();
    const start = p.state.ledgerEnd;
    setTimeout(() => stop.abort(), 200);
    const position = await followUpdates(client, { source, selection: ANY, from: start, signal: stop.signal, idleTimeoutMs: 5000, onBatch: () => assert.fail('nothing was appended') });
    assert.equal(position.offset, start);
  });
});

/** The oracle: what the ledger holds after `after` (one synchronizer: transactions and checkpoints). */
function ledgerAfter(p: DemoParticipant, after: number): { offset: number; kind: string }[] {
  return p.state.entries.filter((e) => e.offset > after).map((e) => ({ offset: e.offset, kind: e.kind }));
}

describe('UpdateWindow', () => {
  const u = (offset: number): Update => ({ kind: 'checkpoint', offset, synchronizerTimes: [], raw: {} as never });

  it('keeps the newest `capacity` updates, counts everything, and resets the unseen count', () => {
    const w = new UpdateWindow(10);
    for (let i = 1; i <= 95; i += 5) w.push([1, 2, 3, 4, 5].map((d) => u(i + d - 1)));
    assert.equal(w.size, 10);
    assert.deepEqual(w.items.map((x) => x.offset), [86, 87, 88, 89, 90, 91, 92, 93, 94, 95]);
    assert.deepEqual(w.newestFirst().slice(0, 2).map((x) => x.offset), [95, 94]);
    assert.equal(w.totalReceived, 95);
    assert.equal(w.newCount, 95);
    w.markSeen();
    w.push([u(96)]);
    assert.equal(w.newCount, 1);
    w.push(Array.from({ length: 25 }, (_, i) => u(97 + i)));
    assert.deepEqual(w.items.map((x) => x.offset), [112, 113, 114, 115, 116, 117, 118, 119, 120, 121]);
  });

  it('refuses a capacity that is not a positive integer', () => {
    assert.throws(() => new UpdateWindow(0), RangeError);
  });
});

describe('UpdatesPager', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let client: LedgerClient;

  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 5, listCap: 20 });
    p.state.appendSynthetic(70);
    client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
  });
  after(() => p.close());

  for (const descending of [false, true]) {
    it(`pages a range larger than the cap to its pinned end (${descending ? 'descending' : 'ascending'}), ignoring later updates`, async () => {
      const end = p.state.ledgerEnd;
      const pager = new UpdatesPager(client, { selection: ANY, pageSize: 15, descending });
      await pager.loadMore();
      assert.equal(pager.state.endInclusive, end);
      p.state.appendSynthetic(5, { seed: 9 });
      let pages = 1;
      while (!pager.state.complete) {
        await pager.loadMore();
        pages++;
      }
      const all = await client.listUpdates({ beginExclusive: 0, endInclusive: end }, ANY, { limit: 1000 }).catch(() => undefined);
      const expected = all ?? (await collectRange(client, end));
      const keys = pager.state.updates.map(key);
      assert.deepEqual(keys, (descending ? [...expected].reverse() : expected).map(key));
      assert.ok(pages > 3);
      assert.equal(await pager.loadMore(), 0, 'a complete range loads nothing more');
    });
  }

  for (const descending of [false, true]) {
    it(`extendTo moves the pinned end on to a newer ledger end, keeping what is loaded (${descending ? 'newest first: added first' : 'oldest first: added last, after the pages before them'})`, async () => {
      const pager = new UpdatesPager(client, { selection: ANY, pageSize: 15, descending });
      await pager.loadMore();
      const end = pager.state.endInclusive!;
      const loaded = pager.state.updates.map(key);
      p.state.appendSynthetic(4, { seed: 11 });
      const newEnd = p.state.ledgerEnd;
      const { added, at } = await pager.extendTo(newEnd);
      assert.equal(pager.state.endInclusive, newEnd);
      const newer = (await client.listUpdates({ beginExclusive: end, endInclusive: newEnd }, ANY, { limit: 100 })).map(key);
      assert.ok(newer.length >= 4);
      if (descending) {
        assert.equal(at, 'start');
        assert.deepEqual(added.map(key), [...newer].reverse());
        assert.deepEqual(pager.state.updates.map(key), [...[...newer].reverse(), ...loaded]);
      } else {
        assert.deepEqual(added, [], 'held back: the pages before them are not loaded yet');
        assert.equal(pager.state.newerWaiting, newer.length, 'and counted, for the view to say so');
        assert.deepEqual(pager.state.updates.map(key), loaded);
      }
      while (!pager.state.complete) await pager.loadMore();
      const all = await collectRange(client, newEnd);
      assert.deepEqual(pager.state.updates.map(key), (descending ? [...all].reverse() : all).map(key), 'every update once, in order');
      assert.deepEqual((await pager.extendTo(newEnd)).added, [], 'nothing newer: nothing added');
    });
  }

  it('joins a second load while one is running instead of reading the page twice', async () => {
    const pager = new UpdatesPager(client, { selection: ANY, pageSize: 10 });
    const [a, b] = await Promise.all([pager.loadMore(), pager.loadMore()]);
    assert.equal(a, b);
    assert.equal(pager.state.updates.length, a);
    assert.ok(a >= 9 && a <= 10);
  });

  it('loads at least a given count (a refresh keeps what was loaded)', async () => {
    const pager = new UpdatesPager(client, { selection: ANY, pageSize: 10 });
    await pager.loadAtLeast(35);
    assert.ok(pager.state.updates.length >= 35);
  });
});

async function collectRange(client: LedgerClient, end: number): Promise<Update[]> {
  const all: Update[] = [];
  for await (const page of client.walkUpdates({ selection: ANY, endInclusive: end, pageSize: 20 })) all.push(...page);
  return all;
}
