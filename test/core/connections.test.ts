import assert from 'node:assert/strict';
import { activeProfile, checkParticipantUrl, isLoopback, normaliseProfile, persistableProfile, sendsTokenInClear, storedProfiles, trustKey } from '../../src/core/connections';
import { fetchClientCredentialsToken } from '../../src/core/auth/oauth';
import { AuthError, CancelledError, ProtocolError } from '../../src/core/errors';
import { sendJson, TestServer } from '../support/httpServer';

describe('connection profiles', () => {
  it('checks participant URLs', () => {
    assert.equal(checkParticipantUrl('http://localhost:7575'), undefined);
    assert.equal(checkParticipantUrl('https://host/ledger-api'), undefined);
    assert.match(checkParticipantUrl('localhost:7575') ?? '', /http/);
    assert.match(checkParticipantUrl('ftp://x') ?? '', /http/);
    assert.match(checkParticipantUrl('https://u:p@host') ?? '', /credentials/);
    assert.match(checkParticipantUrl('https://host/?token=x') ?? '', /query/);
  });

  it('knows when a token would cross the network unencrypted', () => {
    for (const u of ['http://localhost:7575', 'http://127.0.0.1:8080', 'http://[::1]:7575', 'http://app.localhost']) assert.ok(isLoopback(u), u);
    assert.equal(sendsTokenInClear('http://10.0.0.5:7575'), true);
    assert.equal(sendsTokenInClear('http://127.0.0.1:7575'), false);
    assert.equal(sendsTokenInClear('https://participant.example.com'), false);
  });

  it('keys trust by scheme, host, port and path prefix', () => {
    assert.equal(trustKey('https://h:1/prefix/'), 'https://h:1/prefix');
    assert.notEqual(trustKey('https://h:1/a'), trustKey('https://h:1/b'));
    assert.notEqual(trustKey('http://h'), trustKey('https://h'));
  });

  it('normalises raw profiles and drops unusable ones', () => {
    const p = normaliseProfile({ name: 'Team', url: 'https://p.example/api/', auth: 'oauth2', parties: ['A::1', '', 3], extra: 'x' }, 'workspace', 'fallback')!;
    assert.equal(p.url, 'https://p.example/api');
    assert.equal(p.auth, 'oauth2');
    assert.deepEqual(p.parties, ['A::1']);
    assert.equal(p.id, 'fallback');
    assert.equal(p.source, 'workspace');
    assert.equal(normaliseProfile({ name: 'x', url: 'nope' }, 'user', 'f'), undefined);
    assert.equal(normaliseProfile({ name: 'x', url: 'http://h', auth: 'bogus' }, 'user', 'f')!.auth, 'none');
    assert.deepEqual(Object.keys(persistableProfile(p)).sort(), ['auth', 'id', 'name', 'parties', 'url']);
  });
});

describe('OAuth2 client credentials', () => {
  const idp = new TestServer();
  let url = '';
  before(async () => (url = await idp.start()));
  after(() => idp.stop());

  it('posts the form and returns the access token', async () => {
    idp.handler = (_r, res) => sendJson(res, 200, { access_token: 'tok-123', expires_in: 300, token_type: 'Bearer' });
    const t = await fetchClientCredentialsToken({ tokenUrl: `${url}/realms/x/token`, clientId: 'app', clientSecret: 's3cret-value', scope: 'daml_ledger_api', audience: 'aud1' });
    assert.deepEqual(t, { accessToken: 'tok-123', expiresIn: 300 });
    const form = new URLSearchParams(idp.received.at(-1)!.body);
    assert.equal(form.get('grant_type'), 'client_credentials');
    assert.equal(form.get('client_secret'), 's3cret-value');
    assert.equal(form.get('scope'), 'daml_ledger_api');
    assert.equal(form.get('audience'), 'aud1');
  });

  it('reports a rejection without echoing the body', async () => {
    idp.handler = (_r, res) => sendJson(res, 401, { error: 'invalid_client', echo: 's3cret-value' });
    const err = await fetchClientCredentialsToken({ tokenUrl: `${url}/t`, clientId: 'app', clientSecret: 's3cret-value' }).catch((e) => e);
    assert.ok(err instanceof AuthError && err.failure === 'idp-rejected');
    assert.ok(!JSON.stringify(err).includes('s3cret') && !err.message.includes('s3cret'));
  });

  it('rejects a success without a token, and honours cancellation', async () => {
    idp.handler = (_r, res) => sendJson(res, 200, { nothing: true });
    await assert.rejects(fetchClientCredentialsToken({ tokenUrl: `${url}/t`, clientId: 'a', clientSecret: 'b' }), ProtocolError);
    idp.handler = () => {};
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    await assert.rejects(fetchClientCredentialsToken({ tokenUrl: `${url}/t`, clientId: 'a', clientSecret: 'b', signal: ac.signal }), CancelledError);
  });
});

describe('the stored connection profiles (read by the connection list and by the entry’s MCP server provider)', () => {
  it('lists the user’s own, then user settings, then workspace and folder settings only in a trusted workspace; skips unusable entries', () => {
    const own = [{ name: 'Own', url: 'http://localhost:7575/' }, { name: 'No URL' }];
    const settings = { globalValue: [{ name: 'User', url: 'https://p.example' }], workspaceValue: [{ name: 'Ws', url: 'http://localhost:1' }], workspaceFolderValue: 'not a list' };
    assert.deepEqual(
      storedProfiles(own, settings, true).map((p) => [p.id, p.url, p.source]),
      [
        ['user-0', 'http://localhost:7575', 'user'],
        ['settings-user:User', 'https://p.example', 'user'],
        ['settings-workspace:Ws', 'http://localhost:1', 'workspace'],
      ],
    );
    assert.deepEqual(storedProfiles(own, settings, false).map((p) => p.id), ['user-0', 'settings-user:User']);
  });

  it('the active profile is the one of that id, else the only one', () => {
    const all = storedProfiles([{ id: 'a', name: 'A', url: 'http://localhost:1' }, { id: 'b', name: 'B', url: 'http://localhost:2' }], undefined, true);
    assert.equal(activeProfile(all, 'b')?.name, 'B');
    assert.equal(activeProfile(all, 'gone'), undefined);
    assert.equal(activeProfile(all.slice(0, 1), undefined)?.name, 'A');
  });
});
