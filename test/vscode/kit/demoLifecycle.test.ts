import assert from 'node:assert/strict';
import { DemoHaltedError, DemoLifecycle, type DemoProcess } from '../../../src/vscode/kit/demoLifecycle';

/** A promise with its resolve and reject in hand, to hold a step until the test lets it go. */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A demo whose launch and set-up the test releases; it records every process started and stopped. */
function fakeDemo(opts: { setUpFails?: boolean } = {}) {
  const log: string[] = [];
  let started = 0;
  const launches: ReturnType<typeof deferred<void>>[] = [];
  const setUps: ReturnType<typeof deferred<void>>[] = [];
  const process: DemoProcess<string> = {
    async launch() {
      const gate = deferred();
      launches.push(gate);
      await gate.promise;
      const name = `demo-${++started}`;
      log.push(`listening ${name}`);
      return name;
    },
    async setUp(running) {
      const gate = deferred();
      setUps.push(gate);
      await gate.promise;
      if (opts.setUpFails) throw new Error(`no connection for ${running}`);
      log.push(`set up ${running}`);
    },
    async shutDown(running, userStop) {
      log.push(`closed ${running}${userStop ? ' by the user' : ''}`);
    },
  };
  const state = new Map<string, unknown>();
  const memento = { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => void state.set(k, v), keys: () => [...state.keys()] };
  const lifecycle = new DemoLifecycle(process, memento as never, 'ran');
  /** Lets the steps run until the next gate is waiting. */
  const settle = () => new Promise((r) => setImmediate(r));
  /** Lets the n-th launch through: the demo listens and its set-up starts. */
  const listen = async (n: number) => {
    await settle();
    launches[n].resolve();
    await settle();
  };
  return { log, lifecycle, launches, setUps, state, settle, listen };
}

describe('DemoLifecycle (start once, stop, and what the window remembers of a demo)', () => {
  it('a start while one starts is the same start; once set up it runs and the window remembers it', async () => {
    const d = fakeDemo();
    const first = d.lifecycle.start();
    const second = d.lifecycle.start();
    await d.settle();
    assert.equal(d.launches.length, 1);
    d.launches[0].resolve();
    await d.settle();
    d.setUps[0].resolve();
    assert.equal(await first, 'demo-1');
    assert.equal(await second, 'demo-1');
    assert.equal(d.lifecycle.current, 'demo-1');
    assert.equal(d.state.get('ran'), true);
    assert.deepEqual(d.log, ['listening demo-1', 'set up demo-1']);
  });

  it('a set-up that fails after the demo listens shuts the demo down, and the error reaches the caller', async () => {
    const d = fakeDemo({ setUpFails: true });
    const start = d.lifecycle.start();
    await d.listen(0);
    d.setUps[0].resolve();
    await assert.rejects(start, /no connection for demo-1/);
    assert.deepEqual(d.log, ['listening demo-1', 'closed demo-1']);
    assert.equal(d.lifecycle.current, undefined);
    assert.equal(d.state.get('ran'), undefined);
  });

  it('a halt while it launches (the window closing) shuts down what then starts listening', async () => {
    const d = fakeDemo();
    const start = d.lifecycle.start();
    await d.settle();
    await d.lifecycle.halt(false);
    d.launches[0].resolve();
    await assert.rejects(start, DemoHaltedError);
    await d.lifecycle.whenStopped();
    assert.deepEqual(d.log, ['listening demo-1', 'closed demo-1']);
    assert.equal(d.lifecycle.current, undefined);
    assert.equal(d.setUps.length, 0, 'a halted demo is not set up');
  });

  it('a halt in the same turn as the start (a window that closes as it opens) launches nothing', async () => {
    const d = fakeDemo();
    const start = d.lifecycle.start();
    const halted = d.lifecycle.halt(false);
    await assert.rejects(start, DemoHaltedError);
    await halted;
    assert.equal(d.launches.length, 0, 'nothing was launched');
    assert.deepEqual(d.log, []);
    assert.equal(d.lifecycle.current, undefined);
    assert.equal(d.state.get('ran'), undefined);
  });

  it("the user's stop while it is set up shuts it down once the set-up is done, the window forgets it, and the start says it was stopped", async () => {
    const d = fakeDemo();
    const start = d.lifecycle.start();
    await d.listen(0);
    const stopped = d.lifecycle.stop();
    await d.settle();
    assert.deepEqual(d.log, ['listening demo-1'], 'the stop waits for the set-up, so as not to undo half of it');
    d.setUps[0].resolve();
    await stopped;
    await assert.rejects(start, DemoHaltedError);
    assert.deepEqual(d.log, ['listening demo-1', 'set up demo-1', 'closed demo-1 by the user']);
    assert.equal(d.lifecycle.current, undefined);
    assert.equal(d.state.get('ran'), undefined);
  });

  it('a start after a halt starts a new demo, and the halt does not reach it', async () => {
    const d = fakeDemo();
    const first = d.lifecycle.start();
    await d.listen(0);
    d.setUps[0].resolve();
    await first;
    await d.lifecycle.halt(false);
    const second = d.lifecycle.start();
    await d.listen(1);
    d.setUps[1].resolve();
    assert.equal(await second, 'demo-2');
    assert.deepEqual(d.log, ['listening demo-1', 'set up demo-1', 'closed demo-1', 'listening demo-2', 'set up demo-2']);
  });
});
