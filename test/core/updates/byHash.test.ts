// The look-ups by transaction hash of Canton 3.6 (`update-by-hash`, `completion-by-hash`): the hash as
// the request takes it, the client against the demo participant (3.6 answers them, earlier releases
// do not have them), and the decoding of found answers shaped as the 3.6 spec says.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LedgerClient } from '../../../src/core/api/client';
import { CantonApiError, RequestValidationError, UnsupportedOperationError } from '../../../src/core/errors';
import { transactionHashForRequest } from '../../../src/core/models/completions';
import { lookUpByHash } from '../../../src/core/updates/byHash';
import type { DemoParticipant } from '../../../src/participant';
import { start } from '../../participant/helpers';
import { requireSpec, specValidator } from '../../support/spec';

const HEX = '1220' + 'ab'.repeat(32);
const BASE64 = Buffer.from(HEX, 'hex').toString('base64');
const ANY = { filter: { anyParty: true } } as const;

describe('transaction hashes for the look-ups by hash', () => {
  it('hex (as transactions show externalTransactionHash) becomes base64 (proto bytes); base64 is sent as it is', () => {
    assert.equal(transactionHashForRequest(HEX), BASE64);
    assert.equal(transactionHashForRequest(` ${HEX.toUpperCase()} `), BASE64);
    assert.equal(transactionHashForRequest(BASE64), BASE64);
    const prepared = Buffer.alloc(32, 7).toString('base64');
    assert.equal(transactionHashForRequest(prepared), prepared);
  });

  it('an empty or malformed hash is refused before sending, naming the field', () => {
    for (const bad of ['', '  ', 'not a hash!', 'abc']) {
      assert.throws(() => transactionHashForRequest(bad), (e) => e instanceof RequestValidationError && e.field === 'transactionHash', JSON.stringify(bad));
    }
  });
});

describe('look-ups by hash against the demo participant', function () {
  this.timeout(20_000);
  let v36: DemoParticipant;
  let v35: DemoParticipant;
  const sent: string[] = [];
  before(async () => {
    v36 = await start({ apiVersion: '3.6', onExchange: (x) => sent.push(x.path) });
    v35 = await start({ apiVersion: '3.5', onExchange: (x) => sent.push(x.path) });
  });
  after(async () => {
    await v36.close();
    await v35.close();
  });

  it('3.6 answers them: a hash no externally signed transaction has is UPDATE_NOT_FOUND / COMPLETION_NOT_FOUND (404)', async () => {
    const client = new LedgerClient({ baseUrl: v36.url, timeoutMs: 10_000 });
    await assert.rejects(client.updateByHash(HEX, ANY), (e) => e instanceof CantonApiError && e.code === 'UPDATE_NOT_FOUND' && e.status === 404);
    await assert.rejects(client.completionByHash(BASE64), (e) => e instanceof CantonApiError && e.code === 'COMPLETION_NOT_FOUND' && e.status === 404 && /transaction hash/.test(e.hint));
  });

  it('lookUpByHash: "not found" is an answer (nothing found), not a failure; a release without the look-ups is', async () => {
    assert.deepEqual(await lookUpByHash(new LedgerClient({ baseUrl: v36.url, timeoutMs: 10_000 }), HEX, ANY.filter), {});
    await assert.rejects(lookUpByHash(new LedgerClient({ baseUrl: v35.url, timeoutMs: 10_000 }), HEX, ANY.filter), (e) => e instanceof UnsupportedOperationError);
  });

  it('before 3.6 they are unavailable, and nothing is sent', async () => {
    const client = new LedgerClient({ baseUrl: v35.url, timeoutMs: 10_000 });
    sent.length = 0;
    await assert.rejects(client.updateByHash(HEX, ANY), (e) => e instanceof UnsupportedOperationError && e.operationName === 'updateByHash' && /3\.5\.10/.test(e.message));
    await assert.rejects(client.completionByHash(HEX), (e) => e instanceof UnsupportedOperationError && e.operationName === 'completionByHash');
    assert.deepEqual(sent, ['/v2/version']);
  });
});

describe('look-ups by hash: found answers', function () {
  this.timeout(20_000);
  const transaction = {
    updateId: '1220' + 'cd'.repeat(32),
    commandId: 'external-1',
    workflowId: '',
    effectiveAt: '2026-07-01T10:00:00Z',
    events: [],
    offset: 42,
    synchronizerId: 'sync::1220' + 'ef'.repeat(32),
    traceContext: null,
    recordTime: '2026-07-01T10:00:01.5Z',
    externalTransactionHash: HEX,
    transactionHash: HEX,
  };
  const completion = (extra: Record<string, unknown>) => ({
    commandId: 'external-1',
    userId: 'alice-app',
    actAs: ['alice::1220' + '01'.repeat(32)],
    submissionId: 's-1',
    offset: 42,
    synchronizerTime: { synchronizerId: transaction.synchronizerId, recordTime: transaction.recordTime },
    ...extra,
  });
  const answers: Record<string, unknown> = {
    '/v2/version': { version: '3.6.0', features: {} },
    '/v2/updates/update-by-hash': { update: { Transaction: { value: transaction } } },
    '/v2/commands/completion-by-hash': {
      acceptedCompletion: completion({ updateId: transaction.updateId, status: { code: 0, message: '' } }),
      lastRejectedCompletions: [completion({ offset: 40, submissionId: 's-0', status: { code: 10, message: 'LOCAL_VERDICT_LOCKED_CONTRACTS(...)' } })],
    },
  };
  let server: http.Server;
  let url: string;
  const bodies: Record<string, unknown> = {};
  before(async () => {
    server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        if (text) bodies[req.url!] = JSON.parse(text);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers[req.url!]));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('the stand-in answers are what the 3.6 spec says', function () {
    requireSpec(this, 'main-3.6');
    for (const [path, schema] of [
      ['/v2/updates/update-by-hash', 'JsGetUpdateResponse'],
      ['/v2/commands/completion-by-hash', 'GetCompletionByHashResponse'],
    ] as const) {
      const result = specValidator('main-3.6', schema)(answers[path]);
      assert.ok(result.ok, `${path}: ${JSON.stringify(result.errors)}`);
    }
  });

  it('decodes the update (with its transaction hash) and the completions; the requests carry the hash as base64', async function () {
    requireSpec(this, 'main-3.6');
    const client = new LedgerClient({ baseUrl: url, timeoutMs: 10_000 });
    const update = await client.updateByHash(HEX, ANY);
    assert.equal(update.kind, 'transaction');
    assert.equal(update.kind === 'transaction' && update.transactionHash, HEX);
    assert.equal(update.offset, 42);
    const found = await client.completionByHash(HEX);
    assert.equal(found.accepted?.updateId, transaction.updateId);
    assert.equal(found.accepted?.synchronizerId, transaction.synchronizerId);
    assert.deepEqual(
      found.rejected.map((c) => [c.offset, c.status?.code]),
      [[40, 10]],
    );
    const updateRequest = bodies['/v2/updates/update-by-hash'];
    assert.equal((updateRequest as { transactionHash: string }).transactionHash, BASE64);
    assert.ok(specValidator('main-3.6', 'GetUpdateByHashRequest')(updateRequest).ok);
    assert.deepEqual(bodies['/v2/commands/completion-by-hash'], { transactionHash: BASE64 });
    const both = await lookUpByHash(client, BASE64, ANY.filter);
    assert.equal(both.update?.kind, 'transaction');
    assert.equal(both.completions?.accepted?.commandId, 'external-1');
  });
});
