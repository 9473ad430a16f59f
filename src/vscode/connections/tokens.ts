import { ConnectionProfile, sendsTokenInClear } from '../../core/connections';
import { cachingTokenProvider, decodeClaims, mintSandboxToken, type TokenClaims, type TokenProvider, type TokenSource } from '../../core/auth/jwt';
import { fetchClientCredentialsToken } from '../../core/auth/oauth';
import { AuthError, TokenWithheldError } from '../../core/errors';
import type { IDisposable } from '../kit/lifecycle';
import type { Prompts } from '../kit/prompts';
import type { SecretStore } from '../kit/secrets';
import type { ProfileStore } from './profiles';

/**
 * Makes each connection's token source when the connection is made (the manager asks): built from
 * the profile's auth kind and its secrets (SecretStorage is the store), and guarding where a token may
 * go: a URL from workspace settings only after the user confirmed it once, plain http to another
 * machine only after an explicit yes.
 */
export class TokenSources {
  constructor(
    private readonly secrets: SecretStore,
    private readonly profiles: ProfileStore,
    private readonly prompts: Prompts,
  ) {}

  /** The token source of a connection made for `profile`; undefined for connections without auth. */
  sourceFor(profile: ConnectionProfile): ConnectionTokens | undefined {
    if (profile.auth === 'none') return undefined;
    return new ConnectionTokens(profile, this.secrets, (p) => this.checkDestination(p));
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

/**
 * One connection's tokens: what it asked the user for this connect attempt, the token it minted or
 * fetched (renewed before it expires), and the last one it gave (to show its claims). A secret stored
 * anew for its profile drops them; the connection's end drops them for good.
 */
export class ConnectionTokens implements TokenSource {
  /** The last token given, only to show its claims (never logged). */
  private lastToken: string | undefined;
  private cached: ReturnType<typeof cachingTokenProvider> | undefined;
  /**
   * The destination check of the current connect attempt: every request of the attempt (a connect sends
   * several at once) waits for the one answer, and a refusal holds until the next attempt.
   */
  private checking: Promise<void> | undefined;
  private readonly secretsChanged: IDisposable;
  readonly provider: TokenProvider;

  constructor(
    private readonly profile: ConnectionProfile,
    private readonly secrets: SecretStore,
    private readonly checkDestination: (profile: ConnectionProfile) => Promise<void>,
  ) {
    this.secretsChanged = secrets.onDidChange(({ connectionId }) => connectionId === profile.id && this.invalidate());
    this.provider = async (signal) => {
      if (!this.checking) {
        this.checking = this.checkDestination(profile);
        // Waited for by whoever needs the token; kept so that a refusal is not asked again in this attempt.
        this.checking.catch(() => undefined);
      }
      await this.checking;
      const token = await this.source()(signal);
      if (!token) throw new AuthError(0, 'empty-token');
      this.lastToken = token;
      return token;
    };
  }

  newAttempt(): void {
    this.checking = undefined;
  }

  claims(): TokenClaims | undefined {
    return this.lastToken ? decodeClaims(this.lastToken) : undefined;
  }

  dispose(): void {
    this.secretsChanged.dispose();
    this.invalidate();
  }

  private invalidate(): void {
    this.checking = undefined;
    this.cached?.invalidate();
    this.cached = undefined;
    this.lastToken = undefined;
  }

  private source(): TokenProvider {
    const profile = this.profile;
    if (profile.auth === 'jwt') {
      return async () => {
        const token = await this.secrets.get(profile.id, 'token');
        if (!token) throw new AuthError(0, 'empty-token');
        return token;
      };
    }
    this.cached ??= cachingTokenProvider(profile.auth === 'sandbox-secret' ? this.minter() : (signal) => this.clientCredentials(signal));
    return this.cached;
  }

  /**
   * Mints sandbox tokens with the core's one minting function (as the CLI does), for the connection's
   * participant id or target audience: without either it fails with `no-audience` before anything is sent.
   */
  private minter(): (signal?: AbortSignal) => Promise<string> {
    const profile = this.profile;
    return async () => {
      const secret = await this.secrets.get(profile.id, 'sharedSecret');
      if (!secret) throw new AuthError(0, 'empty-token');
      const form = profile.tokenForm ?? 'audience';
      return mintSandboxToken({ secret, userId: profile.userId ?? 'participant_admin', form, participantId: profile.participantId, audience: profile.audience, expiresInSeconds: 240 });
    };
  }

  private async clientCredentials(signal?: AbortSignal): Promise<string> {
    const profile = this.profile;
    const clientSecret = await this.secrets.get(profile.id, 'clientSecret');
    if (!clientSecret || !profile.tokenUrl || !profile.clientId) throw new AuthError(0, 'empty-token');
    const { accessToken } = await fetchClientCredentialsToken({ tokenUrl: profile.tokenUrl, clientId: profile.clientId, clientSecret, scope: profile.scope, audience: profile.audience, signal });
    return accessToken;
  }
}
