// A server that breaks the protocol is not believed: answers rewritten by a fault-injecting proxy in
// front of the demo participant (repeated or reordered elements, repeated page tokens, empty bodies,
// fields of the wrong type) end in a ProtocolError that says what is wrong, and reading stops.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { NotServedError, ProtocolError } from '../../../src/core/errors';
import { type DemoParticipant } from '../../../src/participant';
import { repeatElements, repeatPageToken, reverseElements, startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { startCheckedParticipant } from '../../support/specCheck';
import { requireSpec, specSchema } from '../../support/spec';

const ANY = { filter: { anyParty: true } } as const;
const LIST = '/v2/updates';
const PAGE = '/v2/updates/get-updates-page';

type Element = { update: Record<string, { value: Record<string, unknown> }> };

/** A rewrite of the list in an answer (a bare array, or a page's `updates`), in place. */
function rewriteList(change: (list: Element[]) => void) {
  return {
    kind: 'rewrite-json' as const,
    rewrite: (body: unknown) => {
      change((Array.isArray(body) ? body : (body as { updates: unknown[] }).updates) as Element[]);
      return body;
    },
  };
}

async function walkAll(client: LedgerClient, pageSize = 5): Promise<number> {
  let n = 0;
  for await (const page of client.walkUpdates({ selection: ANY, pageSize })) n += page.length;
  return n;
}

async function protocolError(p: Promise<unknown>): Promise<ProtocolError> {
  const err = await p.then(
    () => undefined,
    (e) => e,
  );
  assert.ok(err instanceof ProtocolError, `expected a ProtocolError, got ${err}`);
  return err;
}

for (const apiVersion of ['3.4', '3.5'] as const) {
  describe(`protocol checks against a hostile proxy (${apiVersion})`, function () {
    this.timeout(20_000);
    let p: DemoParticipant;
    let proxy: FaultProxy;
    let client: LedgerClient;
    // 3.4 pages with offsets on /v2/updates; 3.5 with tokens on get-updates-page.
    const pagePath = apiVersion === '3.4' ? LIST : PAGE;

    beforeEach(async () => {
      p = await startCheckedParticipant({ seed: 11, apiVersion });
      proxy = await startFaultProxy(p.url);
      client = new LedgerClient({ baseUrl: proxy.url, timeoutMs: 5000 });
    });
    afterEach(async () => {
      await proxy.close();
      await p.close();
    });

    it('reads the ledger through the proxy when it injects nothing', async () => {
      assert.equal(await walkAll(client), await walkAll(new LedgerClient({ baseUrl: p.url })));
      assert.ok(proxy.count('POST', pagePath) > 2, 'several pages');
    });

    it('a page whose elements repeat (offsets going back) is a PROTOCOL error naming the offsets, and paging stops', async () => {
      proxy.add({ method: 'POST', path: pagePath, fault: { kind: 'rewrite-json', rewrite: repeatElements(3) }, times: 1000 });
      const err = await protocolError(walkAll(client));
      assert.equal(err.problem, 'offset-order');
      const [before, after] = err.offsets!;
      assert.ok(after < before, `offset ${after} after ${before}`);
      assert.match(err.message, new RegExp(`offset ${after} \\(element \\d+\\) follows offset ${before}`));
      assert.equal(proxy.count('POST', pagePath), 1, 'no page after the broken one');
    });

    it('a page in the wrong order is a PROTOCOL error', async () => {
      proxy.add({ method: 'POST', path: pagePath, fault: { kind: 'rewrite-json', rewrite: reverseElements() } });
      const err = await protocolError(walkAll(client));
      assert.equal(err.problem, 'offset-order');
    });

    it('a page with an element outside the range asked for is a PROTOCOL error', async () => {
      proxy.add({
        method: 'POST',
        path: pagePath,
        // As a server that ignores beginExclusive would answer: an update from before the range.
        fault: rewriteList((list) => (Object.values(list[0].update)[0].value.offset = 3)),
      });
      const walk = async () => {
        for await (const page of client.walkUpdates({ selection: ANY, beginExclusive: 10, pageSize: 20 })) assert.ok(page);
      };
      const err = await protocolError(walk());
      assert.equal(err.problem, 'offset-order');
      assert.deepEqual(err.offsets, [10, 3]);
    });

    it('an element a decoder cannot use is a PROTOCOL error naming the path and the field, not a network error', async () => {
      proxy.add({
        method: 'POST',
        path: pagePath,
        fault: rewriteList((list) => (list.find((e) => 'Transaction' in e.update)!.update.Transaction.value.offset = 'twelve')),
      });
      const err = await protocolError(walkAll(client));
      assert.equal(err.problem, 'bad-field');
      assert.match(err.field!, /^(updates)?\[\d+\]\.update\.Transaction\.value\.offset$/);
      assert.match(err.message, new RegExp(`^The answer to POST ${pagePath} cannot be decoded at .*offset: expected a number$`));
    });

    it('an event list of the wrong shape names the event', async () => {
      proxy.add({
        method: 'POST',
        path: pagePath,
        fault: rewriteList((list) => {
          const t = list.find((e) => 'Transaction' in e.update && (e.update.Transaction.value.events as unknown[]).length > 0)!;
          t.update.Transaction.value.events = [{ CreatedEvent: null }];
        }),
      });
      const err = await protocolError(walkAll(client));
      assert.match(err.field!, /\.update\.Transaction\.value\.events\[0\]\.CreatedEvent$/);
    });

    for (const [what, body] of [
      ['an empty body', ''],
      ['null', 'null'],
      ['{}', '{}'],
    ] as const) {
      it(`a 200 with ${what} for a page is a PROTOCOL error saying what was expected`, async () => {
        proxy.add({ method: 'POST', path: pagePath, fault: { kind: 'answer', status: 200, body, contentType: 'application/json' } });
        const err = await protocolError(walkAll(client));
        assert.ok(['unexpected-body', 'bad-field'].includes(err.problem), err.problem);
        assert.match(err.message, apiVersion === '3.4' ? /JSON array/ : /expected (a page|the list of updates)/);
      });
    }

    for (const [what, body] of [
      ['{}', '{}'],
      ['[]', '[]'],
      ['an empty body', ''],
      ['null', 'null'],
    ] as const) {
      it(`events: a 200 with ${what} is a PROTOCOL error, not "not visible"`, async () => {
        const [contractId] = [...p.state.contracts.keys()];
        proxy.add({ method: 'POST', path: '/v2/events/events-by-contract-id', fault: { kind: 'answer', status: 200, body, contentType: 'application/json' } });
        const err = await protocolError(client.eventsByContractId(contractId, { filter: { anyParty: true } }));
        assert.match(err.message, /^The answer to POST \/v2\/events\/events-by-contract-id (is|has) .*expected/);
      });
    }
  });
}

describe('protocol checks: an error answer cut on its way', function () {
  this.timeout(20_000);
  let p: DemoParticipant;
  let proxy: FaultProxy;
  let client: LedgerClient;

  before(async () => {
    p = await startCheckedParticipant({ seed: 11 });
    proxy = await startFaultProxy(p.url);
    client = new LedgerClient({ baseUrl: proxy.url, timeoutMs: 5000 });
  });
  after(async () => {
    await proxy.close();
    await p.close();
  });

  // The participant answers 404 CONTRACT_EVENTS_NOT_FOUND; the proxy cuts its body after a few bytes.
  for (const afterBytes of [1, 20, 60]) {
    it(`a 404 cut after ${afterBytes} bytes is an incomplete answer, not "this participant does not serve" the path`, async () => {
      const cutBefore = proxy.fired['cut-body'] ?? 0;
      proxy.add({ method: 'POST', path: '/v2/events/events-by-contract-id', fault: { kind: 'cut-body', afterBytes } });
      const err = await protocolError(client.eventsByContractId(`00${'ab'.repeat(33)}`, { filter: { anyParty: true } }));
      assert.equal(proxy.fired['cut-body'], cutBefore + 1, 'the body was cut');
      assert.equal(err.problem, 'incomplete-answer');
      assert.match(err.message, /^HTTP 404 with an incomplete answer: its body was cut after "\{/);
      assert.match(err.hint, /cut on its way/);
    });
  }

  it('a 404 that is whole still means the path is not served', async () => {
    proxy.add({ method: 'POST', path: '/v2/events/events-by-contract-id', fault: { kind: 'answer', status: 404, body: 'The requested resource could not be found.' } });
    await assert.rejects(client.eventsByContractId(`00${'ab'.repeat(33)}`, { filter: { anyParty: true } }), NotServedError);
  });
});

describe('protocol checks: page tokens (3.5)', function () {
  this.timeout(20_000);
  let p: DemoParticipant;
  let proxy: FaultProxy;

  before(async () => {
    p = await startCheckedParticipant({ seed: 11, apiVersion: '3.5' });
    proxy = await startFaultProxy(p.url);
  });
  after(async () => {
    await proxy.close();
    await p.close();
  });

  it('a server that answers the page token it was sent is a PROTOCOL error after one repeat, not followed forever', async () => {
    const client = new LedgerClient({ baseUrl: proxy.url, timeoutMs: 5000 });
    proxy.add({ method: 'POST', path: PAGE, fault: { kind: 'rewrite-json', rewrite: repeatPageToken() }, times: 1000 });
    const err = await protocolError(walkAll(client));
    assert.equal(err.problem, 'repeated-page-token');
    // The first page (which hands out a token) and the one that sent it back.
    assert.equal(proxy.count('POST', PAGE), 2);
  });

  it('a full page without a next-page token is the last page, as the spec defines it: the updates it holds, no error, nothing more asked', async function () {
    requireSpec(this);
    // The oracle: JsGetUpdatesPageResponse.nextPageToken in the 3.5 spec.
    const token = (specSchema('3.5', 'JsGetUpdatesPageResponse')!.properties as Record<string, { description: string }>).nextPageToken;
    assert.match(token.description, /If the value is not populated, this is the last page\./);
    proxy.clear();
    const client = new LedgerClient({ baseUrl: proxy.url, timeoutMs: 5000 });
    const before = proxy.count('POST', PAGE);
    proxy.add({ method: 'POST', path: PAGE, fault: { kind: 'rewrite-json', rewrite: (body: unknown) => ({ ...(body as object), nextPageToken: undefined }) }, times: 1 });
    const n = await walkAll(client, 5);
    assert.equal(n, 5, 'the full first page');
    assert.equal(proxy.count('POST', PAGE) - before, 1);
  });
});
