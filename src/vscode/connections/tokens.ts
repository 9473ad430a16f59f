import { ConnectionProfile, sendsTokenInClear } from '../../core/connections';
import { cachingTokenProvider, decodeClaims, mintSandboxToken, TokenClaims, TokenProvider } from '../../core/auth/jwt';
import { fetchClientCredentialsToken } from '../../core/auth/oauth';
import { AuthError, TokenWithheldError } from '../../core/errors';
import { Disposable } from '../lifecycle';
import type { Prompts } from '../prompts';
import type { SecretStore } from '../secrets';
import type { ProfileStore } from './profiles';

/**
 * Builds the token provider of a connection from its auth kind and its secrets, and guards where a
 * token may go: a URL from workspace settings only after the user confirmed it once, plain http to
 * another machine only after an explicit yes.
 */
export class TokenProviders extends Disposable {
  /** The last token each connection used, only to show its claims (never logged). */
  private readonly lastToken = new Map<string, string>();
  private readonly cached = new Map<string, ReturnType<typeof cachingTokenProvider>>();
  /**
   * The destination check of each connection's current connect attempt: every request of the attempt
   * (a connect sends several at once) waits for the one answer, and a refusal holds until the next attempt.
   */
  private readonly checking = new Map<string, { url: string; check: Promise<void> }>();

  constructor(
    private readonly secrets: SecretStore,
    private readonly profiles: ProfileStore,
    private readonly prompts: Prompts,
  ) {
    super();
    this._register(secrets.onDidChange(({ connectionId }) => this.invalidate(connectionId)));
  }

  /** A new connect attempt: the next request asks again where the token may go (if it still needs to). */
  newAttempt(connectionId: string): void {
    this.checking.delete(connectionId);
  }

  invalidate(connectionId: string): void {
    this.checking.delete(connectionId);
    this.cached.get(connectionId)?.invalidate();
    this.cached.delete(connectionId);
    this.lastToken.delete(connectionId);
  }

  claims(connectionId: string): TokenClaims | undefined {
    const t = this.lastToken.get(connectionId);
    return t ? decodeClaims(t) : undefined;
  }

  /** Undefined for connections without auth. */
  providerFor(profile: ConnectionProfile): TokenProvider | undefined {
    if (profile.auth === 'none') return undefined;
    return async (signal) => {
      let pending = this.checking.get(profile.id);
      if (pending?.url !== profile.url) {
        pending = { url: profile.url, check: this.checkDestination(profile) };
        // Waited for by whoever needs the token; kept so that a refusal is not asked again in this attempt.
        pending.check.catch(() => undefined);
        this.checking.set(profile.id, pending);
      }
      await pending.check;
      const token = await this.source(profile)(signal);
      if (!token) throw new AuthError(0, 'empty-token');
      this.lastToken.set(profile.id, token);
      return token;
    };
  }

  private source(profile: ConnectionProfile): TokenProvider {
    if (profile.auth === 'jwt') {
      return async () => {
        const token = await this.secrets.get(profile.id, 'token');
        if (!token) throw new AuthError(0, 'empty-token');
        return token;
      };
    }
    let provider = this.cached.get(profile.id);
    if (!provider) {
      provider = cachingTokenProvider(profile.auth === 'sandbox-secret' ? this.minter(profile) : (signal) => this.clientCredentials(profile, signal));
      this.cached.set(profile.id, provider);
    }
    return provider;
  }

  /**
   * Mints sandbox tokens with the core's one minting function (as the CLI does), for the connection's
   * participant id or target audience: without either it fails with `no-audience` before anything is sent.
   */
  private minter(profile: ConnectionProfile): (signal?: AbortSignal) => Promise<string> {
    return async () => {
      const secret = await this.secrets.get(profile.id, 'sharedSecret');
      if (!secret) throw new AuthError(0, 'empty-token');
      const form = profile.tokenForm ?? 'audience';
      return mintSandboxToken({ secret, userId: profile.userId ?? 'participant_admin', form, participantId: profile.participantId, audience: profile.audience, expiresInSeconds: 240 });
    };
  }

  private async clientCredentials(profile: ConnectionProfile, signal?: AbortSignal): Promise<string> {
    const clientSecret = await this.secrets.get(profile.id, 'clientSecret');
    if (!clientSecret || !profile.tokenUrl || !profile.clientId) throw new AuthError(0, 'empty-token');
    const { accessToken } = await fetchClientCredentialsToken({ tokenUrl: profile.tokenUrl, clientId: profile.clientId, clientSecret, scope: profile.scope, audience: profile.audience, signal });
    return accessToken;
  }

  private async checkDestination(profile: ConnectionProfile): Promise<void> {
    if (profile.source === 'workspace' && !this.profiles.isTrustedUrl(profile.url)) {
      const trust = 'Send Token';
      const choice = await this.prompts.message(
        'warning',
        `The workspace settings point the connection "${profile.name}" at ${profile.url}. Send your token for it there?`,
        [trust],
        { modal: true, detail: 'Workspace settings come with the folder you opened. Only confirm if you know and trust this participant URL.' },
      );
      if (choice !== trust) throw new TokenWithheldError('untrusted-url', profile.url);
      await this.profiles.trustUrl(profile.url);
    }
    if (sendsTokenInClear(profile.url) && !this.profiles.isClearHttpAllowed(profile.url)) {
      const send = 'Send Unencrypted';
      const choice = await this.prompts.message(
        'warning',
        `${profile.url} uses plain http on another machine: the token would cross the network unencrypted.`,
        [send],
        { modal: true, detail: 'Use https where you can. Anyone on the network path could read and reuse the token.' },
      );
      if (choice !== send) throw new TokenWithheldError('insecure-http', profile.url);
      await this.profiles.allowClearHttp(profile.url);
    }
  }
}
