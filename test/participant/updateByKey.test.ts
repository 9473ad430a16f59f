import assert from 'node:assert/strict';
import type { DemoParticipant } from '../../src/participant/index';
import { post, start } from './helpers';

const ANY_PARTY_EFFECTS = {
  includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' },
};

describe('demo participant: one update by id or offset', () => {
  let p: DemoParticipant;
  let listed: { updateId: string; offset: number }[];
  before(async () => {
    p = await start({ port: 0 });
    const r = await post(p, '/v2/updates', { beginExclusive: 0, endInclusive: p.state.ledgerEnd, updateFormat: ANY_PARTY_EFFECTS });
    listed = r.json.map((u: any) => u.update.Transaction?.value).filter(Boolean);
    assert.ok(listed.length >= 4);
  });
  after(() => p.close());

  it('answers the same update as the stream, by id and by offset', async () => {
    const stream = await post(p, '/v2/updates', { beginExclusive: 0, endInclusive: p.state.ledgerEnd, updateFormat: ANY_PARTY_EFFECTS });
    const target = stream.json.find((u: any) => u.update.Transaction?.value.updateId === listed[3].updateId);
    const byId = await post(p, '/v2/updates/update-by-id', { updateId: listed[3].updateId, updateFormat: ANY_PARTY_EFFECTS });
    assert.equal(byId.status, 200, byId.text);
    assert.deepEqual(byId.json, target);
    const byOffset = await post(p, '/v2/updates/update-by-offset', { offset: listed[3].offset, updateFormat: ANY_PARTY_EFFECTS });
    assert.deepEqual(byOffset.json, target);
  });

  it('says UPDATE_NOT_FOUND for an unknown id, an offset with no update, and an update the format filters out entirely', async () => {
    const unknown = await post(p, '/v2/updates/update-by-id', { updateId: 'nope', updateFormat: ANY_PARTY_EFFECTS });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, 'UPDATE_NOT_FOUND');
    const beyond = await post(p, '/v2/updates/update-by-offset', { offset: p.state.ledgerEnd + 100, updateFormat: ANY_PARTY_EFFECTS });
    assert.equal(beyond.json.code, 'UPDATE_NOT_FOUND');
    const onlyOther = {
      includeTransactions: { eventFormat: { filtersByParty: { [p.parties.charlie]: {} } }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
    };
    const filtered = await post(p, '/v2/updates/update-by-id', { updateId: listed[0].updateId, updateFormat: onlyOther });
    assert.equal(filtered.status, 404, filtered.text);
    assert.equal(filtered.json.code, 'UPDATE_NOT_FOUND');
  });

  it('refuses an offset that is not positive', async () => {
    const zero = await post(p, '/v2/updates/update-by-offset', { offset: 0, updateFormat: ANY_PARTY_EFFECTS });
    assert.equal(zero.status, 400);
    assert.equal(zero.json.code, 'NON_POSITIVE_OFFSET');
  });
});
