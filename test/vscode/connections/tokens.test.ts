// The token providers of the extension's connections: sandbox tokens are minted with the core's one
// minting function, so every one of them names its participant in `aud` (Canton 3.7 refuses tokens
// without an audience); a connection that names no participant id fails before anything is sent.
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import * as vscode from 'vscode';
import { PARTICIPANT_AUDIENCE_PREFIX } from '../../../src/core/auth/jwt';
import type { ConnectionProfile } from '../../../src/core/connections';
import { AuthError } from '../../../src/core/errors';
import { Redactor } from '../../../src/core/redact';
import { ProfileStore } from '../../../src/vscode/connections/profiles';
import { TokenProviders } from '../../../src/vscode/connections/tokens';
import { SecretStore } from '../../../src/vscode/secrets';
import { windowPrompts } from '../../../src/vscode/ui';
import { fake, MemoryMemento } from '../fake/vscode';

/** SecretStorage in memory. */
function memorySecrets(): vscode.SecretStorage {
  const values = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  return {
    get: async (key: string) => values.get(key),
    store: async (key: string, value: string) => void (values.set(key, value), changed.fire({ key })),
    delete: async (key: string) => void (values.delete(key), changed.fire({ key })),
    keys: async () => [...values.keys()],
    onDidChange: changed.event,
  } as unknown as vscode.SecretStorage;
}

describe('TokenProviders: sandbox tokens', () => {
  let secrets: SecretStore;
  let profiles: ProfileStore;
  let tokens: TokenProviders;

  beforeEach(() => {
    fake.reset();
    secrets = new SecretStore(memorySecrets(), new Redactor());
    profiles = new ProfileStore(new MemoryMemento() as never);
    tokens = new TokenProviders(secrets, profiles, windowPrompts);
  });
  afterEach(() => {
    tokens.dispose();
    secrets.dispose();
    profiles.dispose();
  });

  const sandbox = async (extra: Partial<ConnectionProfile>): Promise<ConnectionProfile> => {
    const profile: ConnectionProfile = { id: `c-${Math.random()}`, name: 'Sandbox', url: 'http://127.0.0.1:7575', auth: 'sandbox-secret', userId: 'alice', source: 'user', ...extra };
    await secrets.set(profile.id, 'sharedSecret', 'tokens-test-shared-secret');
    return profile;
  };

  it("both token forms carry the connection's participant in aud", async () => {
    const audience = await sandbox({ tokenForm: 'audience', participantId: 'participant1::1220ab' });
    assert.equal(decodeJwt((await tokens.providerFor(audience)!())!).aud, PARTICIPANT_AUDIENCE_PREFIX + 'participant1::1220ab');
    const scope = await sandbox({ tokenForm: 'scope', participantId: 'participant1::1220ab' });
    const scoped = decodeJwt((await tokens.providerFor(scope)!())!);
    assert.equal(scoped.aud, 'participant1::1220ab');
    assert.equal(scoped.scope, 'daml_ledger_api');
    const target = await sandbox({ tokenForm: 'audience', audience: 'https://ledger.example/aud' });
    assert.equal(decodeJwt((await tokens.providerFor(target)!())!).aud, 'https://ledger.example/aud');
  });

  it('a connection without a participant id (or audience) gets no token: no-audience, in either form', async () => {
    for (const tokenForm of ['audience', 'scope'] as const) {
      const profile = await sandbox({ tokenForm, participantId: '  ' });
      await assert.rejects(tokens.providerFor(profile)!(), (e) => e instanceof AuthError && e.failure === 'no-audience' && /participant id/.test(e.hint), tokenForm);
    }
  });
});
