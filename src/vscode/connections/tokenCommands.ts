import { decodeClaims } from '../../core/auth/jwt';
import type { ConnectionProfile } from '../../core/connections';
import type { LedgerConnection } from '../../core/ledger/connection';
import type { ConnectionManager } from './manager';
import type { Prompts } from '../kit/prompts';
import type { SecretStore, SecretKind } from '../kit/secrets';
import { Commands } from '../kit/ids';
import type { CommandRegistry } from '../kit/registry';

const SECRET_OF: Record<Exclude<ConnectionProfile['auth'], 'none'>, { kind: SecretKind; prompt: string }> = {
  jwt: { kind: 'token', prompt: 'Paste the JWT (it is kept in secret storage, never in settings)' },
  'sandbox-secret': { kind: 'sharedSecret', prompt: 'The HS256 shared secret of the participant (unsafe-jwt-hmac-256)' },
  oauth2: { kind: 'clientSecret', prompt: 'The OAuth2 client secret' },
};

export class TokenCommands {
  constructor(private readonly manager: ConnectionManager, private readonly secrets: SecretStore, private readonly reconnect: (c: LedgerConnection | undefined) => Promise<void>, private readonly prompts: Prompts) {}

  register(commands: CommandRegistry): void {
    const withAuth = (c: LedgerConnection) => c.profile.auth !== 'none';
    commands.registerForConnection(Commands.setToken, { action: 'Set Token', question: 'Set the token of which connection?', fits: withAuth, preferActive: true }, (c, value?: string) => this.set(c, value));
    commands.registerForConnection(Commands.clearToken, { action: 'Clear Token', question: 'Clear the token of which connection?', fits: withAuth, preferActive: true }, (c, opts?: { silent?: boolean }) => this.clear(c, opts?.silent));
  }

  /** `value` lets tests and scripts set a secret without the input box; it never goes to a log. */
  async set(c: LedgerConnection, value?: string): Promise<void> {
    const p = c.profile;
    if (p.auth === 'none') {
      void this.prompts.message('info', `"${p.name}" uses no token. Edit the connection to choose how it authenticates.`, []);
      return;
    }
    const { kind, prompt } = SECRET_OF[p.auth];
    const secret =
      value ??
      (await this.prompts.input({
        title: `Set Token: ${p.name}`,
        prompt,
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => {
          if (!v.trim()) return 'Empty';
          if (kind === 'token' && /\s/.test(v.trim())) return 'A token has no spaces (paste the token only, without "Bearer")';
          return undefined;
        },
      }));
    if (!secret) return;
    const trimmed = secret.trim();
    if (kind === 'token') {
      const claims = decodeClaims(trimmed);
      if (claims?.expiresAt && claims.expiresAt < new Date()) void this.prompts.message('warning', `That token expired at ${claims.expiresAt.toISOString()}.`, []);
    }
    await this.secrets.set(p.id, kind, trimmed);
    // A new connection, with a token source that reads the new secret.
    this.manager.disconnect(c);
    if (value === undefined) await this.reconnect(this.manager.current(c));
  }

  async clear(c: LedgerConnection, silent = false): Promise<void> {
    const p = c.profile;
    await this.secrets.delete(p.id);
    this.manager.disconnect(c);
    if (!silent) void this.prompts.message('info', `Cleared the stored secrets of "${p.name}".`, []);
  }
}
