import assert from 'node:assert/strict';
import { CancelledError } from '../../../src/core/errors';
import { CoalescedRead, LedgerState, type LedgerChange, type LedgerReader } from '../../../src/core/ledger/state';
import type { VettedPackagesState } from '../../../src/core/models/vetting';

/** A promise with its resolve and reject at hand. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** A reader whose answers the test gives one by one; it counts the reads and keeps their signals. */
function scriptedReader() {
  const ends: ReturnType<typeof deferred<number>>[] = [];
  const vettings: ReturnType<typeof deferred<VettedPackagesState[]>>[] = [];
  const signals: AbortSignal[] = [];
  const reader: LedgerReader = {
    ledgerEnd: (signal) => {
      signals.push(signal);
      const d = deferred<number>();
      ends.push(d);
      return d.promise;
    },
    vettedPackages: (signal) => {
      signals.push(signal);
      const d = deferred<VettedPackagesState[]>();
      vettings.push(d);
      return d.promise;
    },
  };
  return { reader, ends, vettings, signals };
}

const tick = () => new Promise((r) => setImmediate(r));
const vetting = (serial: number): VettedPackagesState[] => [{ participantId: 'p::1', synchronizerId: 's::1', topologySerial: serial, packages: [] }];

describe('LedgerState', () => {
  it('moves the ledger end only forward and tells the listeners what changed', () => {
    const state = new LedgerState(scriptedReader().reader, 10);
    const changes: LedgerChange[] = [];
    state.onDidChange((c) => changes.push(c));
    assert.equal(state.advanceTo(12), true);
    assert.equal(state.advanceTo(11), false, 'an older offset (a late answer) does not move it back');
    assert.equal(state.advanceTo(12), false);
    assert.equal(state.ledgerEnd, 12);
    assert.deepEqual(changes, [{ ledgerEnd: { previous: 10, current: 12 } }]);
  });

  it('shares a ledger end read between concurrent refreshes, and reads once more for requests made during it', async () => {
    const { reader, ends } = scriptedReader();
    const state = new LedgerState(reader, 5);
    const a = state.refreshLedgerEnd();
    const b = state.refreshLedgerEnd();
    const c = state.refreshLedgerEnd();
    assert.equal(ends.length, 1, 'one read in flight');
    ends[0].resolve(7);
    await tick();
    assert.equal(ends.length, 2, 'the requests made during the first read get one more read, together');
    ends[1].resolve(9);
    assert.deepEqual(await Promise.all([a, b, c]), [7, 9, 9]);
    assert.equal(state.ledgerEnd, 9);
  });

  it('keeps the higher end when an older read answers last', async () => {
    const { reader, ends } = scriptedReader();
    const state = new LedgerState(reader, 5);
    const first = state.refreshLedgerEnd();
    state.advanceTo(20); // a live-tail delivery meanwhile
    ends[0].resolve(8);
    assert.equal(await first, 20);
    assert.equal(state.ledgerEnd, 20);
  });

  it('afterWrite takes the write\'s offset at once, then re-reads the end; it never throws', async () => {
    const { reader, ends } = scriptedReader();
    const state = new LedgerState(reader, 5, { settleMs: 0 });
    const ends_: number[] = [];
    state.onDidChange((c) => c.ledgerEnd && ends_.push(c.ledgerEnd.current));
    const done = state.afterWrite({ offset: 6 });
    assert.equal(state.ledgerEnd, 6);
    await until(() => ends.length === 1);
    ends[0].reject(new Error('network down'));
    await done;
    assert.deepEqual(ends_, [6]);
    const again = state.afterWrite({});
    ends[1].resolve(8);
    await again;
    assert.deepEqual(ends_, [6, 8]);
  });

  it('a burst of writes that named their offsets reads the end once, after the last of them', async () => {
    const { reader, ends } = scriptedReader();
    const state = new LedgerState(reader, 5, { settleMs: 20 });
    const written = [6, 7, 8].map((offset) => state.afterWrite({ offset }));
    assert.equal(state.ledgerEnd, 8, 'each offset at once');
    assert.equal(ends.length, 0, 'no read while writes come');
    await until(() => ends.length === 1);
    ends[0].resolve(11);
    await Promise.all(written);
    assert.equal(state.ledgerEnd, 11, 'what others wrote meanwhile');
    assert.equal(ends.length, 1, 'one read for the burst');
    // A write without an offset (its answer named none) reads at once.
    const unnamed = state.afterWrite({});
    assert.equal(ends.length, 2);
    ends[1].resolve(12);
    await unnamed;
  });

  it('the read after a burst waits the settle time from the last write, not the first', async () => {
    const readAt: number[] = [];
    const state = new LedgerState({ ledgerEnd: async () => (readAt.push(performance.now()), 99), vettedPackages: async () => [] }, 5, { settleMs: 120 });
    const first = state.afterWrite({ offset: 6 });
    await new Promise((r) => setTimeout(r, 80));
    const lastWriteAt = performance.now();
    const second = state.afterWrite({ offset: 7 });
    await Promise.all([first, second]);
    assert.equal(readAt.length, 1, 'one read for both');
    assert.ok(readAt[0] - lastWriteAt >= 119, `read ${(readAt[0] - lastWriteAt).toFixed(1)} ms after the last write`);
    assert.equal(state.ledgerEnd, 99);
    state.dispose();
  });

  it('reads the vetting state once, keeps it, and reads it again after a vetting write', async () => {
    const { reader, ends, vettings } = scriptedReader();
    const state = new LedgerState(reader, 1);
    const changes: LedgerChange[] = [];
    state.onDidChange((c) => changes.push(c));
    const first = state.vettedPackages();
    const second = state.vettedPackages();
    assert.equal(vettings.length, 1);
    vettings[0].resolve(vetting(1));
    assert.equal((await first)[0].topologySerial, 1);
    assert.equal((await second)[0].topologySerial, 1);
    assert.equal((await state.vettedPackages())[0].topologySerial, 1);
    assert.equal(vettings.length, 1, 'kept: no read for a later caller');
    const written = state.afterWrite({ vetting: true });
    ends[0].resolve(1);
    vettings[1].resolve(vetting(2));
    await written;
    assert.equal((await state.vettedPackages())[0].topologySerial, 2);
    assert.deepEqual(changes, [{ vetting: true }, { vetting: true }]);
  });

  it('a write during a vetting read: a reader then gets the read after the write, not the one that may predate it', async () => {
    const { reader, ends, vettings } = scriptedReader();
    const state = new LedgerState(reader, 1);
    const early = state.vettedPackages();
    void state.afterWrite({ vetting: true });
    const late = state.vettedPackages();
    vettings[0].resolve(vetting(1));
    ends[0].resolve(1);
    assert.equal((await early)[0].topologySerial, 1);
    await tick();
    assert.equal(vettings.length, 2, 'read once more after the write');
    vettings[1].resolve(vetting(2));
    assert.equal((await late)[0].topologySerial, 2);
  });

  it('keeps a failed vetting read (shown, not retried in a loop) until a refresh', async () => {
    const { reader, vettings } = scriptedReader();
    const state = new LedgerState(reader);
    const first = state.vettedPackages();
    vettings[0].reject(new Error('403'));
    await assert.rejects(first, /403/);
    await assert.rejects(state.vettedPackages(), /403/);
    assert.equal(vettings.length, 1);
    assert.equal(state.vetting.state, 'failed');
    const refreshed = state.refreshVetting();
    vettings[1].resolve(vetting(3));
    assert.equal((await refreshed)[0].topologySerial, 3);
    assert.equal(state.vetting.state, 'ready');
  });

  it('a package write tells the listeners and re-reads the vetting state', async () => {
    const { reader, ends, vettings } = scriptedReader();
    const state = new LedgerState(reader, 1);
    const changes: LedgerChange[] = [];
    state.onDidChange((c) => changes.push(c));
    const done = state.afterWrite({ packages: true });
    assert.deepEqual(changes, [{ packages: true }]);
    ends[0].resolve(1);
    vettings[0].resolve(vetting(4));
    await done;
    assert.equal(state.vetting.state === 'ready' && state.vetting.states[0].topologySerial, 4);
  });

  it("a caller's signal stops its wait with CancelledError; the shared read goes on for the others", async () => {
    const { reader, ends } = scriptedReader();
    const state = new LedgerState(reader, 1);
    const controller = new AbortController();
    const mine = state.refreshLedgerEnd(controller.signal);
    const other = state.refreshLedgerEnd();
    controller.abort();
    await assert.rejects(mine, CancelledError);
    assert.equal(ends.length, 1, 'one read for both callers so far');
    ends[0].resolve(2);
    await tick();
    ends[1].resolve(3); // the second caller asked during the first read: it waits for one more
    assert.equal(await other, 3);
  });

  it('dispose aborts the reads in progress and stops the events', async () => {
    const { reader, ends, signals } = scriptedReader();
    const state = new LedgerState(reader, 1);
    let fired = 0;
    state.onDidChange(() => fired++);
    const read = state.refreshLedgerEnd();
    state.dispose();
    assert.equal(signals[0].aborted, true);
    ends[0].resolve(10);
    await read;
    assert.equal(state.ledgerEnd, 1, 'nothing moves after dispose');
    assert.equal(fired, 0);
    await state.afterWrite({ offset: 20 });
    assert.equal(ends.length, 1, 'no reads after dispose');
  });
});

describe('CoalescedRead', () => {
  it('starts anew once the previous read settled, also after a failure', async () => {
    let n = 0;
    const read = new CoalescedRead(async () => {
      n++;
      if (n === 1) throw new Error('first fails');
      return n;
    });
    await assert.rejects(read.run(), /first fails/);
    assert.equal(read.running, undefined);
    assert.equal(await read.run(), 2);
  });
});

async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setTimeout(r, 1));
}
