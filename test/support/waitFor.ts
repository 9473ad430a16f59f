/** A state waited for, never a sleep: polls `condition` every 50 ms, 20 s at most, then fails with `what`. */
import { strict as assert } from 'node:assert';

export async function waitFor(condition: () => boolean | Promise<boolean>, what = 'condition not reached'): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(what);
}
