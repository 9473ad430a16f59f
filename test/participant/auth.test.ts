import assert from 'node:assert/strict';
import { decodeJwt, SignJWT } from 'jose';
import type { DemoParticipant } from '../../src/participant/index';
import { assertSpecValid, commands, createIou, eventFormat, get, post, start, transactionsFormat, type Reply } from './helpers';

const SECRET = 'demo-secret-for-tests';
const NOW = new Date('2025-06-01T12:00:00Z');

function assertRedacted(reply: Reply, status: 401 | 403, context: Record<string, string> = {}): void {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.json.code, 'NA');
  assert.equal(reply.json.cause, 'A security-sensitive error has been received');
  assert.equal(reply.json.errorCategory, -1);
  assert.equal(reply.json.grpcCodeValue, status === 401 ? 16 : 7);
  assert.deepEqual(reply.json.context, context);
  assertSpecValid(reply.json, 'JsCantonError');
}

/** A hand-made HS256 token; `exp` in seconds from NOW (undefined: no exp). */
function sign(claims: Record<string, unknown>, exp: number | undefined, secret = SECRET): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(NOW.getTime() / 1000);
  if (exp !== undefined) jwt.setExpirationTime(NOW.getTime() / 1000 + exp);
  return jwt.sign(new TextEncoder().encode(secret));
}

describe('demo participant: auth (HS256)', () => {
  let p: DemoParticipant;
  let audience: string;
  before(async () => {
    p = await start({ auth: { secret: SECRET }, clock: () => NOW });
    audience = `https://daml.com/jwt/aud/participant/${p.participantId}`;
  });
  after(() => p.close());

  const ledgerEnd = (token?: string, headers?: Record<string, string>) => get(p, '/v2/state/ledger-end', { token, headers });

  it('accepts an audience-form token (string or array aud) and a scope-form token', async () => {
    assert.equal((await ledgerEnd(await p.mintToken('alice'))).status, 200);
    const scoped = await p.mintToken('alice', { form: 'scope' });
    assert.equal((await ledgerEnd(scoped)).status, 200);
    // The demo's own tokens name it too: the scope form as Canton reads a scope token's single aud.
    assert.equal(decodeJwt(scoped).aud, p.participantId);
    assert.equal(decodeJwt(await p.mintToken('alice')).aud, audience);
    assert.equal((await ledgerEnd(await sign({ sub: 'alice', aud: ['other', audience] }, 60))).status, 200);
    assert.equal((await ledgerEnd(await sign({ sub: 'alice', scp: ['daml_ledger_api'] }, 60))).status, 200);
    const me = await get(p, '/v2/authenticated-user', { token: await p.mintToken('alice') });
    assert.equal(me.json.user.id, 'alice');
  });

  it('401 without a token, with a bad signature, a wrong audience, no scope, or no subject', async () => {
    assertRedacted(await ledgerEnd(), 401);
    assertRedacted(await ledgerEnd(await sign({ sub: 'alice', aud: audience }, 60, 'another-secret')), 401);
    assertRedacted(await ledgerEnd(await sign({ sub: 'alice', aud: 'https://daml.com/jwt/aud/participant/someone-else' }, 60)), 401);
    assertRedacted(await ledgerEnd(await sign({ sub: 'alice', scope: 'openid profile' }, 60)), 401);
    assertRedacted(await ledgerEnd(await sign({ aud: audience }, 60)), 401);
    assertRedacted(await ledgerEnd('not.a.jwt'), 401);
  });

  it('401 for expired tokens, tokens without exp, and tokens living longer than 5 minutes', async () => {
    assertRedacted(await ledgerEnd(await p.mintToken('alice', { expiresInSeconds: -5 })), 401);
    assertRedacted(await ledgerEnd(await sign({ sub: 'alice', aud: audience }, undefined)), 401);
    assertRedacted(await ledgerEnd(await p.mintToken('alice', { expiresInSeconds: 3600 })), 401);
    assert.equal((await ledgerEnd(await p.mintToken('alice', { expiresInSeconds: 300 }))).status, 200);
  });

  it('403 with ledger_api_error "invalid token" for unknown and deactivated users', async () => {
    assertRedacted(await ledgerEnd(await p.mintToken('stranger')), 403, { ledger_api_error: 'invalid token' });
    assertRedacted(await ledgerEnd(await p.mintToken('former-employee')), 403, { ledger_api_error: 'invalid token' });
  });

  it('400 text/plain for an empty bearer', async () => {
    const reply = await ledgerEnd(undefined, { authorization: 'Bearer ' });
    assert.equal(reply.status, 400);
    assert.equal(reply.text, 'Invalid value for: header Authorization');
  });

  it('403 when the user lacks the rights', async () => {
    const alice = await p.mintToken('alice');
    const auditor = await p.mintToken('auditor');
    const admin = await p.mintToken('demo-admin');
    const body = (updateFormat: object) => ({ beginExclusive: 0, endInclusive: 3, updateFormat });
    // Reading: own parties yes, others and any-party no.
    assert.equal((await post(p, '/v2/updates', body(transactionsFormat([p.parties.alice])), { token: alice })).status, 200);
    assertRedacted(await post(p, '/v2/updates', body(transactionsFormat([p.parties.bob])), { token: alice }), 403);
    assertRedacted(await post(p, '/v2/updates', body(transactionsFormat('any')), { token: alice }), 403);
    assert.equal((await post(p, '/v2/updates', body(transactionsFormat('any')), { token: admin })).status, 200);
    assert.equal((await post(p, '/v2/updates', body(transactionsFormat([p.parties.bob])), { token: auditor })).status, 200);
    // Submitting: ActAs needed; ReadAs is not enough; another user in the body is refused.
    const submit = (token: string, cmds: object) => post(p, '/v2/commands/submit-and-wait', cmds, { token });
    assert.equal((await submit(admin, commands([p.parties.bank], [createIou(p.parties.bank, p.parties.alice)]))).status, 200);
    assertRedacted(await submit(auditor, commands([p.parties.alice], [createIou(p.parties.alice, p.parties.alice)])), 403);
    assertRedacted(await submit(alice, commands([p.parties.alice], [createIou(p.parties.alice, p.parties.alice)], { userId: 'bob' })), 403);
    assert.equal((await submit(alice, commands([p.parties.alice], [createIou(p.parties.alice, p.parties.alice)], { userId: 'alice' }))).status, 200);
    // Admin operations.
    assertRedacted(await get(p, '/v2/users', { token: alice }), 403);
    assert.equal((await get(p, '/v2/users/alice', { token: alice })).status, 200, 'users may read themselves');
    assertRedacted(await get(p, '/v2/users/bob/rights', { token: alice }), 403);
    assertRedacted(await post(p, '/v2/package-vetting/update', { changes: [{ operation: { Unvet: { value: { packages: [{ packageName: 'demo-asset' }] } } } }] }, { token: alice }), 403);
    assert.equal((await post(p, '/v2/package-vetting/list', {}, { token: alice })).status, 200);
    assertRedacted(await post(p, '/v2/events/events-by-contract-id', { contractId: '00ab', eventFormat: eventFormat('any') }, { token: alice }), 403);
  });

  it('checks the body before the token: a malformed body is 400 even without a token', async () => {
    const reply = await post(p, '/v2/updates', { updateFormat: {} });
    assert.equal(reply.status, 400);
    assert.match(reply.text, /^Invalid value for: body/);
  });

  it('/livez and /readyz need no token; mintToken needs auth', async () => {
    assert.equal((await get(p, '/livez')).status, 200);
    assert.equal((await get(p, '/readyz')).status, 200);
    const open = await start();
    try {
      await assert.rejects(open.mintToken('alice'), /without auth/);
    } finally {
      await open.close();
    }
  });
});

describe('demo participant: auth with a configured target audience', () => {
  let p: DemoParticipant;
  before(async () => {
    p = await start({ auth: { secret: SECRET, audience: 'https://ledger.example/api' }, clock: () => NOW });
  });
  after(() => p.close());

  it('accepts that audience only, and no scope-form tokens', async () => {
    assert.equal((await get(p, '/v2/state/ledger-end', { token: await p.mintToken('bob') })).status, 200);
    assertRedacted(await get(p, '/v2/state/ledger-end', { token: await sign({ sub: 'bob', aud: `https://daml.com/jwt/aud/participant/${p.participantId}` }, 60) }), 401);
    assertRedacted(await get(p, '/v2/state/ledger-end', { token: await p.mintToken('bob', { form: 'scope' }) }), 401);
  });
});

describe('demo participant: tokens scoped to API areas (playing 3.8)', () => {
  let p: DemoParticipant;
  let older: DemoParticipant;
  before(async () => {
    p = await start({ apiVersion: '3.8', auth: { secret: SECRET }, clock: () => NOW });
    older = await start({ apiVersion: '3.6', auth: { secret: SECRET }, clock: () => NOW });
  });
  after(async () => {
    await p.close();
    await older.close();
  });

  it('a token restricted to areas calls those and is refused elsewhere with the redacted 403; a token without area scopes calls everything', async () => {
    const token = await p.mintToken('alice', { areas: ['state'] });
    assert.match(String(decodeJwt(token).scope), /daml_ledger_api\.state/);
    assert.equal((await get(p, '/v2/state/ledger-end', { token })).status, 200);
    assertRedacted(await get(p, '/v2/packages', { token }), 403);
    assertRedacted(await get(p, '/v2/authenticated-user', { token }), 403);
    const plain = await p.mintToken('alice');
    assert.equal((await get(p, '/v2/packages', { token: plain })).status, 200);
    // The whole-API scope of scope-form tokens is no area scope.
    assert.equal((await get(p, '/v2/packages', { token: await p.mintToken('alice', { form: 'scope' }) })).status, 200);
  });

  it('before 3.8 area scopes restrict nothing', async () => {
    const token = await older.mintToken('alice', { areas: ['state'] });
    assert.equal((await get(older, '/v2/packages', { token })).status, 200);
  });
});
