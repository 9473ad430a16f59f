// Tokens scoped to API areas (Canton 3.8): the scopes a token carries, what the participant's own
// description says each operation needs, and the rights check that follows from both — against a
// description derived from the newest published spec, and a demo participant playing 3.8.
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { LedgerClient } from '../../../src/core/api/client';
import { decodeClaims, mintSandboxToken } from '../../../src/core/auth/jwt';
import { apiAreaOf, scopeCoverage, scopeRequirementsOf, tokenReach, tokenReachLine, tokenScopes } from '../../../src/core/auth/scopes';
import { checkCompatibility } from '../../../src/core/compat/check';
import type { OpenApiDocument } from '../../../src/core/compat/openapi';
import { AuthError, TokenScopeError } from '../../../src/core/errors';
import { hintForCode } from '../../../src/core/errorCatalog';
import { demoAreaScope } from '../../../src/participant/auth';
import type { DemoParticipant } from '../../../src/participant/index';
import { start } from '../../participant/helpers';
import { loadSpec, requireSpec, SPEC_VERSIONS } from '../../support/spec';
import { derive38Spec } from '../../support/spec38';

const SECRET = 'a-secret-of-at-least-32-bytes-0123456789';

describe('token scopes (3.8 API areas)', function () {
  this.timeout(30_000);

  it('reads a token\'s scopes from the space-separated scope claim and from the scp array', async () => {
    const key = new TextEncoder().encode(SECRET);
    const scp = await new SignJWT({ scp: ['daml_ledger_api.updates', 'daml_ledger_api.state'] }).setProtectedHeader({ alg: 'HS256' }).setSubject('u').sign(key);
    assert.deepEqual(tokenScopes(decodeClaims(scp)), ['daml_ledger_api.updates', 'daml_ledger_api.state']);
    const minted = await mintSandboxToken({ secret: SECRET, userId: 'u', form: 'scope', participantId: 'p::1', scopes: ['x.commands'] });
    assert.deepEqual(tokenScopes(decodeClaims(minted)), ['daml_ledger_api', 'x.commands']);
    const plain = await mintSandboxToken({ secret: SECRET, userId: 'u', form: 'audience', participantId: 'p::1' });
    assert.deepEqual(tokenScopes(decodeClaims(plain)), []);
    assert.equal(decodeClaims(plain)!.scope, undefined);
  });

  it('an API area is the first segment of a /v2 path', () => {
    assert.equal(apiAreaOf('/v2/commands/submit-and-wait'), 'commands');
    assert.equal(apiAreaOf('/v2/users/{user-id}/rights'), 'users');
    assert.equal(apiAreaOf('/v2/state/ledger-end'), 'state');
  });

  it('no published spec (3.3–3.6) lists scopes: no token is restricted there', function () {
    requireSpec(this, 'main-3.6');
    for (const version of SPEC_VERSIONS) assert.equal(scopeRequirementsOf(loadSpec(version) as unknown as OpenApiDocument), undefined, version);
  });

  it('from a description that lists scopes: covered, out of scope (with the area and both scopes), unrestricted, unknown', function () {
    requireSpec(this, 'main-3.6');
    const requirements = scopeRequirementsOf(derive38Spec().document)!;
    assert.ok(requirements);
    const claims = (scope?: string) => ({ sub: 'u', ...(scope === undefined ? {} : { scope }) });
    const updates = demoAreaScope('updates');
    assert.deepEqual(scopeCoverage(requirements, claims(updates), 'POST', '/v2/updates'), { kind: 'covered', scopes: [updates] });
    const out = scopeCoverage(requirements, claims(updates), 'POST', '/v2/commands/submit-and-wait-for-transaction');
    assert.equal(out.kind, 'out-of-scope');
    if (out.kind !== 'out-of-scope') return;
    assert.equal(out.area, 'commands');
    assert.deepEqual(out.tokenScopes, [updates]);
    assert.ok(out.needs.every((alternative) => alternative.includes(demoAreaScope('commands'))));
    // A token with no area scope (a token of before 3.8, or the whole-API scope) is not restricted.
    assert.equal(scopeCoverage(requirements, claims('daml_ledger_api'), 'POST', '/v2/commands/submit-and-wait-for-transaction').kind, 'unrestricted');
    assert.equal(scopeCoverage(requirements, undefined, 'POST', '/v2/updates').kind, 'unknown');
    assert.equal(scopeCoverage(undefined, claims(updates), 'POST', '/v2/commands/submit-and-wait-for-transaction').kind, 'not-required');
    // What the tooltip says.
    assert.equal(tokenReachLine(tokenReach(requirements, claims(`${updates} ${demoAreaScope('state')}`))), `scope ${updates} ${demoAreaScope('state')} · API areas state, updates`);
    assert.equal(tokenReachLine(tokenReach(requirements, claims('daml_ledger_api'))), 'scope daml_ledger_api · every API area');
    assert.equal(tokenReachLine(tokenReach(undefined, claims())), 'no scope');
  });

  describe('against a demo participant playing 3.8', () => {
    let p: DemoParticipant;
    before(async function () {
      requireSpec(this, 'main-3.6');
      p = await start({ apiVersion: '3.8', auth: { secret: SECRET }, openapi: { text: derive38Spec().text } });
    });
    after(() => p?.close());

    it('the participant takes a token in its areas, and refuses one outside them with the redacted PERMISSION_DENIED', async () => {
      const token = await p.mintToken('alice', { areas: ['version', 'state', 'updates'] });
      const inScope = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000, token: async () => token });
      assert.ok((await inScope.ledgerEnd()) >= 0);
      // No description read: the client sends, and the participant refuses.
      await assert.rejects(inScope.packages(), (e: unknown) => {
        assert.ok(e instanceof AuthError && !(e instanceof TokenScopeError), String(e));
        assert.equal(e.status, 403);
        assert.equal(e.failure, 'permission-denied');
        assert.equal(e.body?.code, 'NA');
        return true;
      });
      assert.match(hintForCode('NA')!, /scope covers this API area/);
      // A token of before 3.8 (no area scope) reaches every area.
      const plain = await p.mintToken('alice');
      assert.ok(Array.isArray(await new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000, token: async () => plain }).packages()));
    });

    it('with the participant\'s description read, the rights check refuses before sending, typed with the area and the scopes', async () => {
      const token = await p.mintToken('alice', { areas: ['state', 'updates', 'version'] });
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000, token: async () => token });
      client.useCompatibility(checkCompatibility(derive38Spec().document, '3.8.0'));
      await client.ledgerEnd();
      const sent: string[] = [];
      const original = client.http.json.bind(client.http);
      client.http.json = (async (req: { path: string }) => (sent.push(req.path), original(req as never))) as typeof client.http.json;
      await assert.rejects(client.packages(), (e: unknown) => {
        assert.ok(e instanceof TokenScopeError, String(e));
        assert.equal(e.area, 'packages');
        assert.deepEqual(e.tokenScopes, ['state', 'updates', 'version'].map(demoAreaScope));
        assert.ok(e.needs.some((a) => a.includes(demoAreaScope('packages'))));
        assert.match(e.message, /does not cover the API area "packages"/);
        return true;
      });
      assert.deepEqual(sent, [], 'nothing was sent');
      assert.ok((await client.ledgerEnd()) >= 0);
    });
  });
});
