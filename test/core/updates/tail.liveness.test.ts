// The websocket live tail tells a silent stream from a quiet ledger: a socket that stays open (pings
// answered) but carries nothing while the participant writes is replaced, from where it stood, with
// no gap and no duplicate; a ledger with nothing new for the follower (no writes, or only writes it
// does not see) is reported quiet and the socket kept; a participant that answers nothing at all is
// noticed within two liveness intervals.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { StreamStalledError, TimeoutError } from '../../../src/core/errors';
import type { OffsetCheckpoint, Update } from '../../../src/core/models/updates';
import { followUpdates, type FollowStatus } from '../../../src/core/updates/tail';
import type { DemoParticipant } from '../../../src/participant';
import { startFrameRelay } from '../../support/frameRelay';
import { startCheckedParticipant } from '../../support/specCheck';
import { follow, ledgerAfter, updateKey as key } from '../../support/tailScenario';

const INTERVAL = 300;

describe('live tail over a websocket: liveness', function () {
  this.timeout(60_000);
  let p: DemoParticipant;
  before(async () => {
    p = await startCheckedParticipant({ seed: 9, apiVersion: '3.5' });
  });
  after(() => p.close());

  it('a socket that goes silent while the ledger grows is replaced: every update arrives once, and the status says why', async () => {
    // The first socket passes its first 5 frames, then drops everything (it stays open); later sockets pass all.
    let passedOnFirst = 0;
    const relay = await startFrameRelay(p.url, { frame: (_text, socket) => (socket > 0 || passedOnFirst++ < 5 ? 'pass' : 'drop') });
    try {
      const client = new LedgerClient({ baseUrl: relay.url, timeoutMs: 5000 });
      const start = p.state.ledgerEnd;
      const statuses: FollowStatus[] = [];
      p.state.appendSynthetic(10, { checkpointEvery: 4 });
      const writer = setTimeout(() => p.state.appendSynthetic(20, { checkpointEvery: 4, seed: 7 }), 200);
      const expectedCount = () => ledgerAfter(p, start).length;
      const { got, sources } = await follow(client, {
        from: start,
        source: 'websocket',
        livenessIntervalMs: INTERVAL,
        onStatus: (s) => statuses.push(s),
        until: (g: Update[]) => g.length >= 30 && g.length >= expectedCount(),
        guardMs: 20_000,
      });
      clearTimeout(writer);
      assert.ok(relay.counts.drop > 0, 'the first socket went silent');
      assert.deepEqual(got.map(key), ledgerAfter(p, start), 'no gap, no duplicate, in order');
      assert.deepEqual(sources, [{ kind: 'websocket' }], 'still the websocket: a new socket, not polling');
      const stall = statuses.find((s) => s.state === 'reconnecting');
      assert.ok(stall && stall.state === 'reconnecting' && stall.error instanceof StreamStalledError, JSON.stringify(statuses));
      assert.ok(stall.error.missedOffset > stall.error.deliveredUpTo);
      assert.deepEqual(statuses.slice(0, statuses.indexOf(stall)).filter((s) => s.state === 'quiet'), [], 'never called quiet while an update it had not delivered was there');
      assert.ok(relay.counts.sockets >= 2);
    } finally {
      await relay.close();
    }
  });

  it('a quiet ledger, and writes the follower does not see, keep the socket: reported quiet, never stalled', async () => {
    const relay = await startFrameRelay(p.url);
    try {
      const client = new LedgerClient({ baseUrl: relay.url, timeoutMs: 5000 });
      const parties = [...p.state.parties.keys()];
      const [bank, alice, , charlie] = parties;
      const start = p.state.ledgerEnd;
      const statuses: FollowStatus[] = [];
      // Charlie is no stakeholder of what Bank and Alice write meanwhile.
      const writer = setInterval(() => p.state.appendSynthetic(2, { parties: [bank, alice], seed: Date.now() % 1000 }), 150);
      try {
        await follow(client, {
          from: start,
          source: 'websocket',
          selection: { filter: { parties: [charlie] } },
          livenessIntervalMs: INTERVAL,
          onStatus: (s) => statuses.push(s),
          until: () => false,
          guardMs: INTERVAL * 8,
        });
      } finally {
        clearInterval(writer);
      }
      assert.ok(p.state.ledgerEnd > start + 10, 'the ledger moved meanwhile');
      assert.deepEqual(statuses.filter((s) => s.state === 'reconnecting'), [], 'no reconnect');
      const quiet = statuses.filter((s): s is Extract<FollowStatus, { state: 'quiet' }> => s.state === 'quiet');
      assert.ok(quiet.length >= 2, JSON.stringify(statuses));
      assert.ok(quiet.every((s) => s.silentMs >= INTERVAL));
      assert.equal(relay.counts.sockets, 1, 'one socket throughout');
    } finally {
      await relay.close();
    }
  });

  it('a participant that answers nothing (the socket open but silent, requests unanswered) is noticed within a few intervals', async () => {
    let frozenAt: number | undefined;
    const relay = await startFrameRelay(p.url, { frame: () => (frozenAt !== undefined ? 'drop' : 'pass'), hold: () => frozenAt !== undefined });
    try {
      const client = new LedgerClient({ baseUrl: relay.url, timeoutMs: 5000 });
      const statuses: Array<{ status: FollowStatus; at: number }> = [];
      const start = p.state.ledgerEnd;
      p.state.appendSynthetic(4);
      await follow(client, {
        from: start,
        source: 'websocket',
        livenessIntervalMs: INTERVAL,
        connectTimeoutMs: INTERVAL,
        retryDelayMs: () => 50,
        onStatus: (status) => statuses.push({ status, at: Date.now() }),
        // Frozen from the first delivery on; following goes on until the guard ends it.
        until: () => {
          frozenAt ??= Date.now();
          return false;
        },
        guardMs: 6000,
      });
      assert.ok(frozenAt !== undefined, 'something was delivered before the freeze');
      const first = statuses.find((s) => s.status.state === 'reconnecting');
      assert.ok(first && first.status.state === 'reconnecting', JSON.stringify(statuses.map((s) => s.status.state)));
      assert.ok(first.status.error instanceof TimeoutError, `${first.status.error.name}: ${first.status.error.message}`);
      // Silence for an interval, then a check that gets no answer within another: noticed in about two.
      assert.ok(first.at - frozenAt <= 10 * INTERVAL, `noticed after ${first.at - frozenAt} ms`);
    } finally {
      await relay.close();
    }
  });
});

describe('live tail over a websocket: an idle ledger', function () {
  this.timeout(60_000);
  let p: DemoParticipant;
  before(async () => {
    // Idle checkpoints after 40 ms (Canton's idle-stream-offset-checkpoint-timeout, a minute by default).
    // A clock that moves on at every reading: a checkpoint taken again at an idle offset has later times
    // even when the write that follows it lands within the same millisecond (else it is, rightly, not sent again).
    let last = 0;
    const clock = () => new Date((last = Math.max(Date.now(), last + 1)));
    p = await startCheckedParticipant({ seed: 9, apiVersion: '3.5', idleCheckpointMs: 40, clock });
  });
  after(() => p.close());

  /** Follows the idle demo over a websocket from its ledger end; `react` sees each batch and status and may stop. */
  async function followIdle(react: { batch?(got: Update[], b: Update[], stop: () => void): void; status?(s: FollowStatus, got: Update[], stop: () => void): void }) {
    const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 5000 });
    const start = p.state.ledgerEnd;
    const got: Update[] = [];
    const statuses: FollowStatus[] = [];
    const stopper = new AbortController();
    const stop = () => stopper.abort();
    const following = followUpdates(client, {
      from: start,
      source: 'websocket',
      selection: { filter: { anyParty: true } },
      signal: stopper.signal,
      livenessIntervalMs: 200,
      retryDelayMs: () => 1,
      onBatch: (b) => {
        got.push(...b);
        react.batch?.(got, b, stop);
      },
      onStatus: (s) => {
        statuses.push(s);
        if (s.state === 'reconnecting') stop();
        react.status?.(s, got, stop);
      },
    });
    return { start, got, statuses, following };
  }

  it('stays live: no checkpoint before the stream has gone anywhere, one after, never one that is refused; quiet, never reconnecting', async () => {
    // Idle from the ledger end until quiet is reported (many checkpoint intervals: the liveness interval is 5 of them);
    // then one write, its checkpoint, and quiet again.
    let quietReports = 0;
    const { start, got, statuses, following } = await followIdle({
      status: (s, got, stop) => {
        if (s.state !== 'quiet') return;
        quietReports++;
        if (quietReports === 1) p.state.appendSynthetic(1);
        else if (got.some((u) => u.kind === 'checkpoint')) stop();
      },
    });
    await following;
    assert.deepEqual(statuses.filter((s) => s.state === 'reconnecting'), [], 'never reconnecting');
    assert.deepEqual(got.map(key), ledgerAfter(p, start).concat(`${start + 1}/checkpoint`), 'the write, then one checkpoint at its offset');
    assert.ok(statuses.every((s) => s.state === 'quiet' || s.state === 'following'), JSON.stringify(statuses));
  });

  it('takes the second checkpoint Canton sends at an idle offset when the ledger moves on (later times), and stays live', async () => {
    // A write, its idle checkpoint, a second write: the stream sends the idle offset's checkpoint again
    // (later times) before the second write; then that write's idle checkpoint.
    const idleEnd = p.state.ledgerEnd;
    const { start, got, statuses, following } = await followIdle({
      batch: (got, b, stop) => {
        const checkpoints = got.filter((u) => u.kind === 'checkpoint').length;
        if (checkpoints === 1 && b.some((u) => u.kind === 'checkpoint')) p.state.appendSynthetic(1);
        // Stopped at the second write's idle checkpoint, whatever came before it: a missing one fails the assertion below, not the timeout.
        if (b.some((u) => u.kind === 'checkpoint' && u.offset === idleEnd + 2)) stop();
      },
    });
    p.state.appendSynthetic(1);
    await following;
    assert.deepEqual(statuses.filter((s) => s.state === 'reconnecting'), [], 'never reconnecting');
    assert.deepEqual(got.map(key), [`${start + 1}/transaction`, `${start + 1}/checkpoint`, `${start + 1}/checkpoint`, `${start + 2}/transaction`, `${start + 2}/checkpoint`]);
    const [first, again] = got.filter((u): u is OffsetCheckpoint => u.kind === 'checkpoint');
    assert.ok(first.synchronizerTimes.every((t, i) => t.recordTime < again.synchronizerTimes[i].recordTime), 'the second checkpoint at the idle offset has later times');
  });
});

