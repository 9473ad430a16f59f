// The token providers of the extension's connections: sandbox tokens are minted with the core's one
// minting function, so every one of them names its participant in `aud` (Canton 3.7 refuses tokens
// without an audience); a connection that names no participant id fails before anything is sent.
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { mintSandboxToken, PARTICIPANT_AUDIENCE_PREFIX } from '../../../src/core/auth/jwt';
import type { ConnectionProfile } from '../../../src/core/connections';
import { AuthError } from '../../../src/core/errors';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import { ConnectionManager } from '../../../src/vscode/connections/manager';
import { ProfileStore } from '../../../src/vscode/connections/profiles';
import { TokenSources } from '../../../src/vscode/connections/tokens';
import { SecretStore } from '../../../src/vscode/kit/secrets';
import { windowPrompts } from '../../../src/vscode/kit/ui';
import { fake, MemoryMemento } from '../fake/vscode';
import { memorySecrets } from '../featureHost';

describe('TokenSources', () => {
  let secrets: SecretStore;
  let profiles: ProfileStore;
  let tokens: TokenSources;
  let manager: ConnectionManager;

  beforeEach(() => {
    fake.reset();
    secrets = new SecretStore(memorySecrets(), new Redactor());
    profiles = new ProfileStore(new MemoryMemento() as never);
    tokens = new TokenSources(secrets, profiles, windowPrompts);
    manager = new ConnectionManager(profiles, tokens, silentLogger, new Redactor());
  });
  afterEach(() => {
    manager.dispose();
    secrets.dispose();
    profiles.dispose();
  });

  describe('sandbox tokens', () => {
    const sandbox = async (extra: Partial<ConnectionProfile>): Promise<ConnectionProfile> => {
      const profile: ConnectionProfile = { id: `c-${Math.random()}`, name: 'Sandbox', url: 'http://127.0.0.1:7575', auth: 'sandbox-secret', userId: 'alice', source: 'user', ...extra };
      await secrets.set(profile.id, 'sharedSecret', 'tokens-test-shared-secret');
      return profile;
    };

    it("both token forms carry the connection's participant in aud", async () => {
      const audience = await sandbox({ tokenForm: 'audience', participantId: 'participant1::1220ab' });
      assert.equal(decodeJwt((await tokens.sourceFor(audience)!.provider())!).aud, PARTICIPANT_AUDIENCE_PREFIX + 'participant1::1220ab');
      const scope = await sandbox({ tokenForm: 'scope', participantId: 'participant1::1220ab' });
      const scoped = decodeJwt((await tokens.sourceFor(scope)!.provider())!);
      assert.equal(scoped.aud, 'participant1::1220ab');
      assert.equal(scoped.scope, 'daml_ledger_api');
      const target = await sandbox({ tokenForm: 'audience', audience: 'https://ledger.example/aud' });
      assert.equal(decodeJwt((await tokens.sourceFor(target)!.provider())!).aud, 'https://ledger.example/aud');
    });

    it('a connection without a participant id (or audience) gets no token: no-audience, in either form', async () => {
      for (const tokenForm of ['audience', 'scope'] as const) {
        const profile = await sandbox({ tokenForm, participantId: '  ' });
        await assert.rejects(tokens.sourceFor(profile)!.provider(), (e) => e instanceof AuthError && e.failure === 'no-audience' && /participant id/.test(e.hint), tokenForm);
      }
    });
  });

  describe('a token source per connection, made with it', () => {
    const jwtOf = (userId: string) => mintSandboxToken({ secret: 'tokens-test-shared-secret', userId, form: 'audience', participantId: 'participant1::1220ab', expiresInSeconds: 600 });

    it("each connection has its own; a new connection for a changed URL does not keep the old one's source or token", async () => {
      const profile: ConnectionProfile = { id: 'alice', name: 'Alice', url: 'http://127.0.0.1:7575', auth: 'jwt', source: 'user' };
      const other: ConnectionProfile = { id: 'bob', name: 'Bob', url: 'http://127.0.0.1:7575', auth: 'jwt', source: 'user' };
      await profiles.save(profile);
      await profiles.save(other);
      await secrets.set(profile.id, 'token', await jwtOf('alice'));
      await secrets.set(other.id, 'token', await jwtOf('bob'));

      const first = manager.connectionFor(profile);
      const bobs = manager.connectionFor(other);
      assert.ok(first.tokens && bobs.tokens && first.tokens !== bobs.tokens, 'one source per connection');
      assert.equal(decodeJwt((await first.tokens.provider())!).sub, 'alice');
      assert.equal(first.tokens.claims()?.sub, 'alice');
      assert.equal(bobs.tokens.claims(), undefined, "another connection's source has given no token");

      await profiles.save({ ...profile, url: 'http://127.0.0.1:7576' });
      const second = manager.connection(profile.id)!;
      assert.notEqual(second, first, 'a new connection for the new URL');
      assert.ok(second.tokens && second.tokens !== first.tokens, 'with a source of its own');
      assert.equal(second.tokens.claims(), undefined, 'nothing of the old connection\'s token');
      assert.equal(first.tokens.claims(), undefined, 'the old source forgot its token with its connection');
      assert.equal(manager.connection(other.id), bobs, 'the other connection keeps its own');
      assert.equal(bobs.tokens.claims(), undefined);
    });

    it("a token stored anew for a profile reaches its connection's source, and no other's", async () => {
      const profile: ConnectionProfile = { id: 'alice', name: 'Alice', url: 'http://127.0.0.1:7575', auth: 'jwt', source: 'user' };
      await profiles.save(profile);
      await secrets.set(profile.id, 'token', await jwtOf('alice'));
      const connection = manager.connectionFor(profile);
      await connection.tokens!.provider();
      await secrets.set('someone-else', 'token', await jwtOf('mallory'));
      assert.equal(connection.tokens!.claims()?.sub, 'alice', "another profile's secret changes nothing here");
      await secrets.set(profile.id, 'token', await jwtOf('alice-2'));
      assert.equal(connection.tokens!.claims(), undefined, 'the token it gave before is forgotten');
      assert.equal(decodeJwt((await connection.tokens!.provider())!).sub, 'alice-2');
    });
  });
});
