// Incomplete reassignments in the demo participant's active contracts: a contract unassigned from its
// synchronizer and not yet assigned is answered as the spec's JsIncompleteUnassigned (every exchange
// checked against the release's official spec by startCheckedParticipant), which the client decodes as
// a contract in flight; once assigned it is an active contract again, on its target.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../src/core/api/client';
import { activeContractRows } from '../../src/core/acs/rows';
import type { DemoParticipant } from '../../src/participant';
import { startCheckedParticipant } from '../support/specCheck';

describe('demo participant: incomplete reassignments in the active contracts', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 11, apiVersion: '3.5', synchronizers: 2 });
  });
  after(() => p.close());

  it('unassigned: in flight from the offset of its unassignment (not before it); assigned: active on its target', async () => {
    const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 20_000 });
    const [source, target] = p.state.synchronizers.map((s) => s.id);
    const contract = [...p.state.contracts.values()].find((c) => c.archivedOffset === undefined && !c.transient && c.synchronizerId === source && c.stakeholders.includes(p.parties.alice))!;
    const before = p.state.ledgerEnd;
    const unassigned = p.state.unassign(contract.contractId, target, p.parties.alice);
    const read = async (activeAtOffset?: number) =>
      (await client.pageActiveContracts({ filter: { parties: [p.parties.alice] }, pageSize: 1000, activeAtOffset })).contracts.find((c) => c.event.contractId === contract.contractId);

    const inFlight = await read();
    assert.equal(inFlight?.inFlight, 'unassigned');
    assert.equal(inFlight?.synchronizerId, source, 'the synchronizer it left');
    assert.equal(inFlight?.reassignmentCounter, unassigned.reassignmentCounter);
    const row = activeContractRows({ contracts: [inFlight!], complete: true })[0].children!()[0];
    assert.match(row.description!, /^in flight: unassigned from /);
    assert.equal((await read(before))?.inFlight, undefined, 'active at an offset before the unassignment');
    assert.throws(() => p.state.unassign(contract.contractId, target, p.parties.alice), /being reassigned already/);

    p.state.assign(contract.contractId);
    const arrived = await read();
    assert.equal(arrived?.inFlight, undefined);
    assert.equal(arrived?.synchronizerId, target);
  });
});
