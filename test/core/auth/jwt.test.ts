import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { jwtVerify } from 'jose';
import { cachingTokenProvider, decodeClaims, mintSandboxToken, PARTICIPANT_AUDIENCE_PREFIX, tokenState } from '../../../src/core/auth/jwt';
import { Redactor, redactUrl, REDACTION_MASK } from '../../../src/core/redact';
import { AuthError, NetworkError } from '../../../src/core/errors';

const SECRET = 'a-shared-secret-of-some-length';

describe('sandbox tokens', () => {
  it('mints an audience-form HS256 token that verifies with the secret and has a short expiry', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const token = await mintSandboxToken({ secret: SECRET, userId: 'alice', form: 'audience', participantId: 'participant1::1220ab', now, expiresInSeconds: 120 });
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(SECRET), { currentDate: now });
    assert.equal(protectedHeader.alg, 'HS256');
    assert.equal(payload.sub, 'alice');
    assert.equal(payload.aud, PARTICIPANT_AUDIENCE_PREFIX + 'participant1::1220ab');
    assert.equal(payload.exp! - payload.iat!, 120);
  });

  it('mints a scope-form token whose aud is the participant id (Canton reads a single aud of a scope token so), and decodes its claims', async () => {
    const token = await mintSandboxToken({ secret: SECRET, userId: 'bob', form: 'scope', participantId: 'participant1::1220ab' });
    const c = decodeClaims(token)!;
    assert.equal(c.sub, 'bob');
    assert.equal(c.scope, 'daml_ledger_api');
    assert.equal(c.aud, 'participant1::1220ab');
    assert.ok(c.expiresAt! > new Date());
  });

  it('no token is minted without aud: every form and option either names an audience or fails with no-audience', async () => {
    for (const form of ['audience', 'scope'] as const) {
      for (const participantId of [undefined, '', '  ', 'p::1']) {
        for (const audience of [undefined, '', 'https://target/aud']) {
          const minted = mintSandboxToken({ secret: SECRET, userId: 'u', form, participantId, audience }).then(
            (t) => decodeClaims(t)!.aud,
            (e: unknown) => e,
          );
          const aud = await minted;
          const expected = form === 'audience' ? (audience || (participantId?.trim() ? PARTICIPANT_AUDIENCE_PREFIX + 'p::1' : undefined)) : participantId?.trim() || undefined;
          const what = JSON.stringify({ form, participantId, audience });
          if (expected) assert.equal(aud, expected, what);
          else assert.ok(aud instanceof AuthError && aud.failure === 'no-audience', what);
        }
      }
    }
  });

  it('every token of the product is minted by that one function: no other source file signs a JWT', () => {
    const signers = sourceFiles(path.join(__dirname, '../../../src')).filter((f) => /\bSignJWT\b/.test(fs.readFileSync(f, 'utf8')));
    assert.deepEqual(signers.map((f) => path.relative(path.join(__dirname, '../../..'), f).split(path.sep).join('/')), ['src/core/auth/jwt.ts']);
  });

  it('classifies token expiry', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const at = (s: number) => ({ expiresAt: new Date(now.getTime() + s * 1000) });
    assert.equal(tokenState(at(600), now), 'valid');
    assert.equal(tokenState(at(30), now), 'expiring');
    assert.equal(tokenState(at(-1), now), 'expired');
    assert.equal(tokenState({}, now), 'no-expiry');
    assert.equal(decodeClaims('not a jwt'), undefined);
  });

  it('caches a minted token and renews it shortly before expiry, sharing one renewal', async () => {
    let clock = new Date('2026-01-01T00:00:00Z');
    let minted = 0;
    const provider = cachingTokenProvider(async () => {
      minted++;
      return mintSandboxToken({ secret: SECRET, userId: 'u', form: 'scope', participantId: 'p::1', now: clock, expiresInSeconds: 100 });
    }, { renewBeforeSeconds: 30, now: () => clock });
    const [a, b] = await Promise.all([provider(), provider()]);
    assert.equal(a, b);
    assert.equal(minted, 1);
    clock = new Date(clock.getTime() + 60_000);
    assert.equal(await provider(), a, 'still 40 s left: reused');
    clock = new Date(clock.getTime() + 15_000);
    assert.notEqual(await provider(), a, 'within 30 s of expiry: renewed');
    assert.equal(minted, 2);
    provider.invalidate();
    await provider();
    assert.equal(minted, 3);
  });
});

describe('Redactor', () => {
  it('logs an expected failure (refused, 401) in one line with its code and hint; an unexpected error with its stack', () => {
    const r = new Redactor();
    const refused = r.redactError(new NetworkError('Could not reach the participant (ECONNREFUSED)', 'ECONNREFUSED', false));
    assert.equal(refused.split('\n').length, 1, refused);
    assert.match(refused, /^NetworkError ECONNREFUSED: Could not reach the participant \(ECONNREFUSED\) \(hint: Nothing listens at that address/);
    const unauthorized = r.redactError(new AuthError(401, 'unauthenticated'));
    assert.equal(unauthorized.split('\n').length, 1, unauthorized);
    assert.match(unauthorized, /\(hint: .+\)$/);
    const bug = r.redactError(new TypeError('x is undefined'));
    assert.match(bug, /^TypeError: x is undefined\n\s+at /);
  });

  it('masks a registered secret that a bound cut short (a piece of 8 characters or more before …), and leaves shorter pieces', () => {
    const r = new Redactor();
    r.register('opaque-secret-7f3a9c21');
    assert.equal(r.redact('currency: "opaque-secret-7f…'), `currency: "${REDACTION_MASK}…`);
    assert.equal(r.redact('a value opaque-… and opaque-secret-7f3a9c21'), `a value opaque-… and ${REDACTION_MASK}`);
    assert.equal(r.redact('opaque-secret-7f3a without a cut'), 'opaque-secret-7f3a without a cut');
  });

  it('masks registered secrets, JWTs, bearer credentials and secret fields', async () => {
    const r = new Redactor();
    const token = await mintSandboxToken({ secret: SECRET, userId: 'alice', form: 'scope', participantId: 'p::1' });
    r.register('my-client-secret-123');
    const text = `Authorization: Bearer ${token}\n{"client_secret":"my-client-secret-123"} jwt.token.${token} token=${token} secret=abcdefghij`;
    const out = r.redact(text);
    assert.ok(!out.includes(token));
    assert.ok(!out.includes('my-client-secret-123'));
    assert.ok(!out.includes('abcdefghij'));
    assert.ok(out.includes(REDACTION_MASK));
    assert.ok(out.startsWith('Authorization: Bearer [REDACTED]'));
  });

  it('masks a registered opaque token that has no JWT shape', () => {
    const r = new Redactor();
    r.register('opaque-token-value-xyz');
    assert.equal(r.redact('error near opaque-token-value-xyz!'), `error near ${REDACTION_MASK}!`);
    r.forget('opaque-token-value-xyz');
    assert.equal(r.redact('opaque-token-value-xyz'), 'opaque-token-value-xyz');
  });

  it('leaves prose about tokens and secrets readable', () => {
    const r = new Redactor();
    const hint = 'Update the token: it may be missing. No shared secret: set one. Choose a token form.';
    assert.equal(r.redact(hint), hint);
    assert.equal(r.redact('{"accessToken": "abc.def", "note": "token: fine"}'), '{"accessToken": "[REDACTED]", "note": "token: fine"}');
  });

  it('leaves ordinary ledger data alone', () => {
    const r = new Redactor();
    const party = 'Alice::1220' + 'a'.repeat(64);
    assert.equal(r.redact(`actAs ${party} offset 17`), `actAs ${party} offset 17`);
  });

  it('masks credentials in URLs', () => {
    assert.equal(redactUrl('https://user:pw@host:7575/p?access_token=abc&x=1'), `https://${REDACTION_MASK}:${REDACTION_MASK}@host:7575/p?access_token=${REDACTION_MASK}&x=1`);
  });
});

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}
