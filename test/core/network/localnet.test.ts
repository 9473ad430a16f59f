import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeLocalNetProblem, readLocalNet, type CheckoutReader } from '../../../src/core/network/localnet';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'localnet');
const LOCALNET = 'quickstart/docker/modules/localnet';

/** The checkout in a fixture folder, with some files changed (a string) or taken away (undefined). */
function checkout(name: string, changes: Record<string, string | undefined> = {}): CheckoutReader {
  return async (path) => {
    if (path in changes) return changes[path];
    try {
      return await readFile(join(FIXTURES, name, path), 'utf8');
    } catch {
      return undefined;
    }
  };
}

async function fixtureText(name: string, path: string): Promise<string> {
  return readFile(join(FIXTURES, name, path), 'utf8');
}

describe('network: a cn-quickstart LocalNet read from its checkout', () => {
  it('oauth2: a connection per participant on its x975 port, with Keycloak client credentials from the checkout; sv asks for a token', async () => {
    const r = await readLocalNet(checkout('oauth2'));
    assert.deepEqual(r.problems, []);
    assert.equal(r.localnetDir, LOCALNET);
    assert.deepEqual(
      r.participants.map((p) => [p.role, p.url, p.auth, p.portAt.line]),
      [
        ['app-provider', 'http://localhost:3975', 'oauth2', 31],
        ['app-user', 'http://localhost:2975', 'oauth2', 34],
        ['sv', 'http://localhost:4975', 'jwt', 28],
      ],
    );
    const [provider, user, sv] = r.participants;
    assert.deepEqual(provider.oauth2, { tokenUrl: 'http://keycloak.localhost:8082/realms/AppProvider/protocol/openid-connect/token', clientId: 'app-provider-validator', audience: 'https://canton.network.global', clientSecret: 'fixture-app-provider-client-secret' });
    assert.equal(provider.userId, 'c87743ab-80e0-4b83-935a-4c0582226691');
    assert.deepEqual(provider.notes, []);
    assert.equal(user.oauth2?.clientSecret, undefined, 'not in the file: asked');
    assert.match(user.notes.join(), /oauth2\.env has no AUTH_APP_USER_VALIDATOR_CLIENT_SECRET: it will be asked/);
    assert.match(sv.notes.join(), /No Keycloak client for sv in the checkout: paste a token/);
  });

  it('shared-secret: participants that verify no token, as the LocalNet user; a participant turned off gets no connection', async () => {
    const r = await readLocalNet(checkout('shared-secret'));
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.participants.map((p) => [p.role, p.url, p.auth, p.userId]), [
      ['app-provider', 'http://localhost:3975', 'none', 'ledger-api-user'],
      ['app-user', 'http://localhost:2975', 'none', 'ledger-api-user'],
    ]);
    assert.deepEqual(r.notes, ['sv is turned off (SV_PROFILE=off): no connection for it.']);
  });

  it('the quickstart folder or the LocalNet module itself can be chosen too', async () => {
    const under = (prefix: string): CheckoutReader => (path) => checkout('oauth2')(`${prefix}${path}`);
    assert.equal((await readLocalNet(under('quickstart/'))).participants.length, 3);
    const module = await readLocalNet(under(`${LOCALNET}/`));
    assert.equal(module.localnetDir, '');
    assert.deepEqual(module.participants.map((p) => p.url), ['http://localhost:3975', 'http://localhost:2975', 'http://localhost:4975']);
    assert.match(module.notes.join(), /AUTH_MODE is not set/, 'without the checkout\'s .env.local the auth mode is a guess, and said');
  });

  it('missing files: no LocalNet module at all, or no common.env, each a clear problem with its file', async () => {
    const none = await readLocalNet(async () => undefined);
    assert.deepEqual(none.participants, []);
    assert.match(describeLocalNetProblem(none.problems[0]), /^quickstart\/docker\/modules\/localnet: No LocalNet module here: looked for compose\.yaml and env\/common\.env in quickstart\/docker\/modules\/localnet, docker\/modules\/localnet, modules\/localnet, \./);

    const noCommon = await readLocalNet(checkout('oauth2', { [`${LOCALNET}/env/common.env`]: undefined }));
    assert.equal(noCommon.participants.length, 0);
    assert.equal(noCommon.problems.length, 1);
  });

  it('a port not found: the variable unset names the compose line; no JSON API port at all names the compose file', async () => {
    const common = (await fixtureText('oauth2', `${LOCALNET}/env/common.env`)).replace(/^PARTICIPANT_JSON_API_PORT_SUFFIX=975\n/m, '');
    const unset = await readLocalNet(checkout('oauth2', { [`${LOCALNET}/env/common.env`]: common }));
    assert.deepEqual(unset.participants, []);
    assert.deepEqual(unset.problems.map((p) => [p.file, p.line]), [[`${LOCALNET}/compose.yaml`, 28], [`${LOCALNET}/compose.yaml`, 31], [`${LOCALNET}/compose.yaml`, 34]]);
    assert.match(unset.problems[0].message, /^The sv JSON Ledger API port uses PARTICIPANT_JSON_API_PORT_SUFFIX, which none of the env files read sets \(quickstart\/\.env, quickstart\/\.env\.local, quickstart\/docker\/modules\/localnet\/compose\.env, quickstart\/docker\/modules\/localnet\/env\/common\.env\)\.$/);

    const compose = (await fixtureText('oauth2', `${LOCALNET}/compose.yaml`)).split('\n').filter((l) => !l.includes('PARTICIPANT_JSON_API_PORT')).join('\n');
    const absent = await readLocalNet(checkout('oauth2', { [`${LOCALNET}/compose.yaml`]: compose }));
    assert.deepEqual(absent.problems.map(describeLocalNetProblem), [`${LOCALNET}/compose.yaml: No participant's JSON Ledger API port is published in ${LOCALNET}/compose.yaml (no ports entry names PARTICIPANT_JSON_API_PORT).`]);

    const random = (await fixtureText('oauth2', `${LOCALNET}/compose.yaml`)).replace('"${TEST_PORT-2$PARTICIPANT_JSON_API_PORT_SUFFIX:}2${PARTICIPANT_JSON_API_PORT_SUFFIX}"', '"2${PARTICIPANT_JSON_API_PORT_SUFFIX}"');
    const unpublished = await readLocalNet(checkout('oauth2', { [`${LOCALNET}/compose.yaml`]: random }));
    assert.deepEqual(unpublished.participants.map((p) => p.role), ['app-provider', 'sv'], 'the others are still read');
    assert.deepEqual([unpublished.problems[0].line, unpublished.problems[0].message], [34, 'The app-user JSON Ledger API port is not published on a fixed host port: 2${PARTICIPANT_JSON_API_PORT_SUFFIX} reads "2975".']);
  });

  it('an unknown AUTH_MODE names its file and line, and every connection asks for a token', async () => {
    const r = await readLocalNet(checkout('oauth2', { 'quickstart/.env.local': 'LOCALNET_ENABLED=true\nAUTH_MODE=kerberos\n' }));
    assert.deepEqual(r.problems.map(describeLocalNetProblem), ['quickstart/.env.local:2: Unknown AUTH_MODE "kerberos" (expected oauth2 or shared-secret): a token will be asked for each connection.']);
    assert.deepEqual(r.participants.map((p) => p.auth), ['jwt', 'jwt', 'jwt']);
  });

  it('a Keycloak env file without the client id is a problem at that file, and the others are still read', async () => {
    const file = 'quickstart/docker/modules/keycloak/env/app-user/on/oauth2.env';
    const text = (await fixtureText('oauth2', file)).replace(/^AUTH_APP_USER_VALIDATOR_CLIENT_ID=.*\n/m, '');
    const r = await readLocalNet(checkout('oauth2', { [file]: text }));
    assert.deepEqual(r.problems.map((p) => [p.file, p.message]), [[file, `${file} sets no AUTH_APP_USER_VALIDATOR_CLIENT_ID: a token will be asked for app-user.`]]);
    assert.deepEqual(r.participants.map((p) => [p.role, p.auth]), [['app-provider', 'oauth2'], ['app-user', 'jwt'], ['sv', 'jwt']]);
  });
});
