// Requests a participant must refuse as the client's mistake (400), never as its own failure (500).
import assert from 'node:assert/strict';
import type { DemoParticipant } from '../../src/participant/index';
import { assertDecodeFailure, get, post, start } from './helpers';

describe('demo participant: malformed requests are 400, not 500', () => {
  let p: DemoParticipant;
  before(async () => (p = await start()));
  after(() => p.close());

  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const updatesBody = (filter: string) =>
    `{"beginExclusive":0,"updateFormat":{"includeTransactions":{"eventFormat":{"filtersForAnyParty":{"cumulative":${filter}}},"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA"}}}`;

  it('deeply nested arrays in a body', async () => {
    assertDecodeFailure(await post(p, '/v2/updates', updatesBody(nested(100_000))));
    assertDecodeFailure(await post(p, '/v2/commands/submit-and-wait-for-transaction', nested(100_000)));
    // Brackets inside strings do not count.
    const inString = JSON.stringify({ commands: { commandId: '['.repeat(5000), actAs: [], commands: [] } });
    assert.notEqual((await post(p, '/v2/commands/submit-and-wait-for-transaction', inString)).status, 500);
  });

  it('nesting up to the limit is decoded as usual', async () => {
    const r = await post(p, '/v2/updates', updatesBody(nested(990)));
    assert.equal(r.status, 400);
    assert.doesNotMatch(r.text, /nests deeper/);
  });

  it('a bad %-escape in a path parameter', async () => {
    assertDecodeFailure(await get(p, '/v2/users/%E0%A4%A'), 'Invalid value for: path parameter userId');
    assertDecodeFailure(await get(p, '/v2/parties/%zz'), 'Invalid value for: path parameter party');
  });
});
