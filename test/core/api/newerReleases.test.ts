// What the client sends to releases after 3.6.0 (3.6.1, 3.7, 3.8), whose specs are not published: a
// demo participant playing 3.6 answers, and the client is told the newer version, as such a
// participant would report it. The requests are read as the participant received them.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { legacySelection } from '../../../src/core/api/updatesRequest';
import { allEndpoints } from '../../../src/core/versions';
import type { DemoParticipant, Exchange } from '../../../src/participant';
import { startCheckedParticipant } from '../../support/specCheck';

/** A client to `p` that takes the participant for Canton `version`. */
function clientSeeing(p: DemoParticipant, version: string): LedgerClient {
  const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
  const real = client.version.bind(client);
  client.version = async (o) => ({ ...(await real(o)), version });
  return client;
}

describe('requests to releases after 3.6.0', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  const exchanges: Exchange[] = [];
  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 11, apiVersion: '3.6', onExchange: (x: Exchange) => exchanges.push(x) });
  });
  after(() => p.close());
  beforeEach(() => {
    exchanges.length = 0;
  });

  const bodiesTo = (path: string) => exchanges.filter((x) => x.path === path).map((x) => JSON.parse(x.requestBody) as Record<string, unknown>);

  for (const version of ['3.6.1', '3.7.0', '3.8.0']) {
    it(`${version}: update requests carry no top-level filter or verbose; the legacy form is sent as its updateFormat, and reads the same`, async () => {
      const client = clientSeeing(p, version);
      const end = await client.ledgerEnd();
      const selection = legacySelection({ parties: [p.parties.alice] });
      const got = await client.listUpdates({ beginExclusive: 0, endInclusive: end }, selection);
      await client.listUpdates({ beginExclusive: 0, endInclusive: end }, { filter: { parties: [p.parties.alice] } });
      const bodies = bodiesTo('/v2/updates');
      assert.equal(bodies.length, 2);
      for (const body of bodies) {
        assert.equal('filter' in body, false, JSON.stringify(body));
        assert.equal('verbose' in body, false, JSON.stringify(body));
        assert.ok(body.updateFormat);
      }
      // The same updates as the legacy form itself reads on a release that still takes it.
      const legacyRead = await new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 }).listUpdates({ beginExclusive: 0, endInclusive: end }, selection);
      assert.ok(legacyRead.length > 0);
      assert.deepEqual(got.map((u) => u.offset), legacyRead.map((u) => u.offset));
    });

    it(`${version}: the active contracts are read with the POST page and an eventFormat only`, async () => {
      const client = clientSeeing(p, version);
      await client.pageActiveContracts({ filter: { anyParty: true }, pageSize: 2 });
      assert.deepEqual(exchanges.filter((x) => x.path.startsWith('/v2/state/active-contracts')).map((x) => `${x.method} ${x.path}`), ['POST /v2/state/active-contracts-page']);
      for (const body of bodiesTo('/v2/state/active-contracts-page')) {
        assert.equal('filter' in body, false);
        assert.equal('verbose' in body, false);
        assert.ok(body.eventFormat);
      }
    });
  }

  it('the client never uses the GET active-contracts-page (disabled in 3.7) nor the preferred-package-version route (deleted)', () => {
    const used = allEndpoints().map((e) => `${e.method} ${e.path}`);
    assert.ok(used.includes('POST /v2/state/active-contracts-page'));
    assert.ok(used.includes('POST /v2/interactive-submission/preferred-packages'));
    assert.equal(used.includes('GET /v2/state/active-contracts-page'), false);
    assert.equal(used.some((e) => e.includes('preferred-package-version')), false);
  });
});
