import assert from 'node:assert/strict';
import { Emitter } from '../../../src/core/ledger/events';

describe('core event emitter', () => {
  it('calls each listener once per event, in the order they subscribed; a subscription disposed hears nothing more', () => {
    const e = new Emitter<number>();
    const heard: string[] = [];
    const a = e.event((v) => heard.push(`a${v}`));
    e.fire(1);
    e.event((v) => heard.push(`b${v}`));
    e.fire(2);
    a.dispose();
    e.fire(3);
    assert.deepEqual(heard, ['a1', 'a2', 'b2', 'b3']);
  });

  it('a listener that subscribes or unsubscribes while called changes the next event, not this one (one listener or several)', () => {
    for (const others of [0, 2]) {
      const e = new Emitter<number>();
      const heard: string[] = [];
      for (let i = 0; i < others; i++) e.event((v) => heard.push(`o${v}`));
      const self = e.event((v) => {
        heard.push(`s${v}`);
        self.dispose();
        e.event((w) => heard.push(`n${w}`));
      });
      e.fire(1);
      e.fire(2);
      const fromOthers = (v: number) => Array.from({ length: others }, () => `o${v}`);
      assert.deepEqual(heard, [...fromOthers(1), 's1', ...fromOthers(2), 'n2'], `with ${others} other listeners`);
    }
  });

  it('fires to nobody without a listener, and to nobody once disposed', () => {
    const e = new Emitter<number>();
    e.fire(1);
    let heard = 0;
    e.event(() => heard++);
    e.dispose();
    e.fire(2);
    assert.equal(heard, 0);
  });
});
