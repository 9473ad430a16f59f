/** Assertions the PQS tests share: a typed failure of a kind. */
import { strict as assert } from 'node:assert';
import { PqsError } from '../../src/core/pqs/errors';

export async function rejectsWith(p: Promise<unknown>, kind: PqsError['kind']): Promise<PqsError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof PqsError, `expected a PqsError, got ${String(err)}`);
    assert.equal(err.kind, kind, `${err.kind}: ${err.message}`);
    return err;
  }
  assert.fail(`expected a ${kind} failure`);
}
