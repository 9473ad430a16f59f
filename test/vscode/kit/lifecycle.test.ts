import assert from 'node:assert/strict';
import { Disposable, DisposableStore, disposeAll, toDisposable } from '../../../src/vscode/kit/lifecycle';

/** A registration that records when it is disposed, into a shared log. */
function recorded(log: string[], name: string, opts: { throws?: boolean } = {}) {
  return {
    dispose() {
      log.push(name);
      if (opts.throws) throw new Error(`${name} failed to dispose`);
    },
  };
}

class Holder extends Disposable {
  constructor(log: string[], names: string[]) {
    super();
    for (const n of names) this._register(recorded(log, n));
  }
  register(d: { dispose(): unknown }) {
    return this._register(d);
  }
  get disposed() {
    return this.isDisposed;
  }
}

describe('Disposable (the glue\'s base for holders of registrations)', () => {
  it('disposes what it registered, last first', () => {
    const log: string[] = [];
    new Holder(log, ['command', 'view', 'listener']).dispose();
    assert.deepEqual(log, ['listener', 'view', 'command']);
  });

  it('disposes each registration once, however often it is disposed', () => {
    const log: string[] = [];
    const h = new Holder(log, ['a', 'b']);
    h.dispose();
    h.dispose();
    assert.deepEqual(log, ['b', 'a']);
    assert.equal(h.disposed, true);
  });

  it('disposes at once what is registered after it was disposed (a late callback leaks nothing)', () => {
    const log: string[] = [];
    const h = new Holder(log, []);
    h.dispose();
    const late = h.register(recorded(log, 'late'));
    assert.deepEqual(log, ['late']);
    h.dispose();
    assert.deepEqual(log, ['late'], 'not disposed a second time');
    assert.ok(late, '_register returns what it was given');
  });

  it('disposes every registration even when one throws, then rethrows the first error', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(recorded(log, 'first'));
    store.add(recorded(log, 'throws', { throws: true }));
    store.add(recorded(log, 'last', { throws: true }));
    assert.throws(() => store.dispose(), /last failed to dispose/);
    assert.deepEqual(log, ['last', 'throws', 'first']);
  });

  it('disposeAll goes in reverse order; toDisposable runs its function once', () => {
    const log: string[] = [];
    const once = toDisposable(() => log.push('fn'));
    disposeAll([recorded(log, 'x'), once, recorded(log, 'y')]);
    once.dispose();
    assert.deepEqual(log, ['y', 'fn', 'x']);
  });
});
