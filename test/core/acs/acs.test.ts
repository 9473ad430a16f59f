// The active contract set through the client, against the demo participant: pages (3.5.1+) and the
// cut-and-resumed list (earlier versions) give the same set, which is the ledger's.
import assert from 'node:assert/strict';
import { LedgerClient, type ActiveContract, type ActiveContractsCursor, type ActiveContractsQuery } from '../../../src/core/api/client';
import type { DemoParticipant } from '../../../src/participant';
import type { ApiVersion } from '../../../src/participant/versions';
import { startCheckedParticipant } from '../../support/specCheck';

async function all(client: LedgerClient, query: ActiveContractsQuery): Promise<{ contracts: ActiveContract[]; pages: number; offset: number }> {
  let page = await client.pageActiveContracts(query);
  const contracts = [...page.contracts];
  let pages = 1;
  while (page.next) {
    page = await client.pageActiveContracts(page.next as ActiveContractsCursor);
    contracts.push(...page.contracts);
    pages++;
  }
  return { contracts, pages, offset: page.activeAtOffset };
}

/** What the ledger itself says is active at `offset` for one of `parties` (or anyone). */
function expected(p: DemoParticipant, offset: number, parties?: string[]): string[] {
  return [...p.state.contracts.values()]
    .filter((c) => !c.transient && c.createdOffset <= offset && (c.archivedOffset === undefined || c.archivedOffset > offset))
    .filter((c) => !parties || c.stakeholders.some((s) => parties.includes(s)))
    .map((c) => c.contractId)
    .sort();
}

const ids = (cs: ActiveContract[]) => cs.map((c) => c.event.contractId).sort();

for (const apiVersion of ['3.5', '3.4.11', '3.3'] as ApiVersion[]) {
  describe(`active contracts on ${apiVersion}`, function () {
    this.timeout(30_000);
    let p: DemoParticipant;
    let client: LedgerClient;
    before(async () => {
      p = await startCheckedParticipant({ port: 0, seed: 17, apiVersion });
      client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
    });
    after(() => p.close());

    it('pages through the whole set at the ledger end, each contract once', async () => {
      const { contracts, pages, offset } = await all(client, { filter: { anyParty: true }, pageSize: 3 });
      assert.equal(offset, p.state.ledgerEnd);
      assert.deepEqual(ids(contracts), expected(p, offset));
      assert.equal(new Set(ids(contracts)).size, contracts.length, 'no contract twice');
      assert.ok(pages >= Math.ceil(contracts.length / 3), `${pages} pages for ${contracts.length}`);
      assert.ok(contracts.every((c) => c.synchronizerId && c.event.createdAt && c.event.templateId.endsWith(':Iou:Iou') !== c.event.templateId.endsWith(':Asset:Asset')));
    });

    it('each party sees its own set: Alice and Bob differ', async () => {
      const alice = ids((await all(client, { filter: { parties: [p.parties.alice] } })).contracts);
      const bob = ids((await all(client, { filter: { parties: [p.parties.bob] } })).contracts);
      assert.deepEqual(alice, expected(p, p.state.ledgerEnd, [p.parties.alice]));
      assert.deepEqual(bob, expected(p, p.state.ledgerEnd, [p.parties.bob]));
      assert.notDeepEqual(alice, bob);
    });

    it('at an earlier offset, contracts archived since are still active; 0 is empty', async () => {
      const archived = [...p.state.contracts.values()].find((c) => c.archivedOffset !== undefined && !c.transient)!;
      const at = archived.archivedOffset! - 1;
      const { contracts } = await all(client, { filter: { anyParty: true }, activeAtOffset: at, pageSize: 50 });
      assert.ok(ids(contracts).includes(archived.contractId));
      assert.deepEqual(ids(contracts), expected(p, at));
      assert.deepEqual((await all(client, { filter: { anyParty: true }, activeAtOffset: 0 })).contracts, []);
    });

    it('filters by template (package-name form)', async () => {
      const { contracts } = await all(client, { filter: { anyParty: true, templateIds: ['#demo-asset:Asset:Asset'] } });
      assert.ok(contracts.length > 0);
      assert.ok(contracts.every((c) => c.event.templateId.endsWith(':Asset:Asset')));
    });
  });
}
