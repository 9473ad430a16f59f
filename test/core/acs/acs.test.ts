// The active contract set through the client, against the demo participant: pages (3.5.1+), the
// cut-and-resumed list (3.5.0) and the list read again up to each page's end (before 3.5, which has no
// continuation token) give the same set, which is the ledger's.
import assert from 'node:assert/strict';
import { LedgerClient, type ActiveContract, type ActiveContractsCursor, type ActiveContractsQuery } from '../../../src/core/api/client';
import type { DemoParticipant, Exchange } from '../../../src/participant';
import { ProtocolError } from '../../../src/core/errors';
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

for (const apiVersion of ['3.5', '3.4.12', '3.4.11', '3.3'] as ApiVersion[]) {
  describe(`active contracts on ${apiVersion}`, function () {
    this.timeout(30_000);
    let p: DemoParticipant;
    let client: LedgerClient;
    const sent: Exchange[] = [];
    before(async () => {
      p = await startCheckedParticipant({ port: 0, seed: 17, apiVersion, onExchange: (x: Exchange) => sent.push(x) });
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

    if (apiVersion !== '3.5') {
      it('pages without a continuation token, which the release has not: none is sent, none is answered', async () => {
        sent.length = 0;
        const { contracts, pages } = await all(client, { filter: { anyParty: true }, pageSize: 2 });
        assert.ok(pages >= 3, `${pages} pages`);
        assert.deepEqual(ids(contracts), expected(p, p.state.ledgerEnd));
        const lists = sent.filter((x) => x.path === '/v2/state/active-contracts');
        assert.equal(lists.length, pages);
        for (const x of lists) {
          assert.equal(x.requestBody.includes('streamContinuationToken'), false, 'no token sent');
          assert.equal(x.responseBody.includes('streamContinuationToken'), false, 'no token answered');
        }
      });

      it('a list that no longer ends the page before where it did is refused, not shown with a gap', async () => {
        const first = await client.pageActiveContracts({ filter: { anyParty: true }, pageSize: 2 });
        assert.ok(first.next);
        await assert.rejects(client.pageActiveContracts({ ...first.next, lastContractId: '00deadbeef' }), (e) => e instanceof ProtocolError && e.problem === 'page-ended-early');
      });
    }

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
