// Add LocalNet Connections… against the fake VS Code API, on the fixture checkouts: the folder asked
// through the prompts port, a connection per participant saved through the profile store, a client
// secret read from the checkout kept in secret storage (and one it lacks asked for, as a password),
// running it again keeps the connections (no copies), and a folder without LocalNet says why.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import { ConnectionManager, type TokenSourceFactory } from '../../../src/vscode/connections/manager';
import { ProfileStore } from '../../../src/vscode/connections/profiles';
import { LocalNetActions, LocalNetConnections } from '../../../src/vscode/localnet';
import { SecretStore } from '../../../src/vscode/kit/secrets';
import { fake, MemoryMemento, Uri } from '../fake/vscode';
import { memorySecrets } from '../featureHost';
import { ScriptedPrompts } from '../scriptedPrompts';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'localnet');
const noTokens: TokenSourceFactory = { sourceFor: () => undefined };

describe('LocalNetConnections (Add LocalNet Connections…)', () => {
  let profiles: ProfileStore;
  let manager: ConnectionManager;
  let secrets: SecretStore;
  let prompts: ScriptedPrompts;
  let connected: string[];
  let localNet: LocalNetConnections;

  beforeEach(() => {
    fake.reset();
    profiles = new ProfileStore(new MemoryMemento() as never);
    manager = new ConnectionManager(profiles, noTokens, silentLogger, new Redactor());
    secrets = new SecretStore(memorySecrets(), new Redactor());
    prompts = new ScriptedPrompts();
    connected = [];
    localNet = new LocalNetConnections(manager, secrets, () => prompts, async (p) => void connected.push(p.name));
  });
  afterEach(() => {
    assert.deepEqual(prompts.unanswered, []);
    manager.dispose();
    profiles.dispose();
    secrets.dispose();
  });

  it('oauth2: asks for the folder, adds the three participants, keeps the secret read and asks for the one missing; Connect All connects them', async () => {
    prompts.answerOpenDialog([Uri.file(join(FIXTURES, 'oauth2')) as never]).answerInput('typed-app-user-secret').answerMessage(LocalNetActions.connectAll);
    const outcome = await localNet.add();
    assert.deepEqual(
      profiles.all().map((p) => [p.name, p.url, p.auth, p.clientId, p.tokenUrl]),
      [
        ['LocalNet app-provider', 'http://localhost:3975', 'oauth2', 'app-provider-validator', 'http://keycloak.localhost:8082/realms/AppProvider/protocol/openid-connect/token'],
        ['LocalNet app-user', 'http://localhost:2975', 'oauth2', 'app-user-validator', 'http://keycloak.localhost:8082/realms/AppUser/protocol/openid-connect/token'],
        ['LocalNet sv', 'http://localhost:4975', 'jwt', undefined, undefined],
      ],
    );
    const [provider, user] = outcome.added;
    assert.equal(await secrets.get(provider.id, 'clientSecret'), 'fixture-app-provider-client-secret');
    assert.equal(await secrets.get(user.id, 'clientSecret'), 'typed-app-user-secret');
    assert.ok(profiles.all().every((p) => !JSON.stringify(p).includes('secret')), 'no secret in a profile');
    const [dialog, asked, summary] = prompts.asked;
    assert.equal((dialog.options as vscode.OpenDialogOptions).canSelectFolders, true);
    assert.equal((asked.options as { password?: boolean }).password, true);
    assert.match(summary.title, /^Added 3 LocalNet connections: LocalNet app-provider \(http:\/\/localhost:3975, oauth2\), LocalNet app-user .* No Keycloak client for sv in the checkout: paste a token for it\./);
    assert.deepEqual(connected, ['LocalNet app-provider', 'LocalNet app-user', 'LocalNet sv']);
  });

  it('run again: the connections of the same URLs are kept (same ids), not copied', async () => {
    const folder = Uri.file(join(FIXTURES, 'shared-secret')) as never;
    prompts.answerMessage(undefined);
    const first = await localNet.add(folder);
    prompts.answerMessage(undefined);
    const second = await localNet.add(folder);
    assert.equal(profiles.all().length, 2);
    assert.deepEqual(second.added.map((p) => p.id), first.added.map((p) => p.id));
    assert.deepEqual(profiles.all().map((p) => [p.url, p.auth, p.userId]), [
      ['http://localhost:3975', 'none', 'ledger-api-user'],
      ['http://localhost:2975', 'none', 'ledger-api-user'],
    ]);
    assert.deepEqual(connected, [], 'not connected unless asked');
  });

  it('a folder without LocalNet adds nothing and says where it looked', async () => {
    prompts.answerMessage(undefined);
    const outcome = await localNet.add(Uri.file(FIXTURES) as never);
    assert.deepEqual(outcome.added, []);
    assert.equal(profiles.all().length, 0);
    assert.match(prompts.asked[0].title, /^No LocalNet participant found in .*: quickstart\/docker\/modules\/localnet: No LocalNet module here/);
  });
});
