/**
 * JWT helpers for Canton 3.x user tokens (see NOTES §6): decoding claims for display and expiry
 * checks (no verification: the participant verifies), and minting HS256 sandbox tokens.
 */
import { SignJWT, decodeJwt } from 'jose';
import { AuthError } from '../errors';

/** The participant audience prefix of audience-based tokens. */
export const PARTICIPANT_AUDIENCE_PREFIX = 'https://daml.com/jwt/aud/participant/';
/** The scope of scope-based tokens (deprecated in 3.5, removal planned for 3.7). */
export const LEDGER_API_SCOPE = 'daml_ledger_api';
/** Canton's default `ledger-api.max-token-lifetime` since 3.4.4: longer-lived tokens are rejected. */
export const DEFAULT_MAX_TOKEN_LIFETIME_SECONDS = 300;

export interface TokenClaims {
  /** The participant user id. */
  sub?: string;
  aud?: string | string[];
  scope?: string;
  iss?: string;
  /** Expiry as a Date, when the token has `exp`. */
  expiresAt?: Date;
  issuedAt?: Date;
}

/** Decodes a token's claims without verifying it; undefined when it is not a JWT. */
export function decodeClaims(token: string): TokenClaims | undefined {
  try {
    const c = decodeJwt(token);
    const scope = typeof c.scope === 'string' ? c.scope : Array.isArray(c.scp) ? (c.scp as string[]).join(' ') : undefined;
    return {
      sub: c.sub,
      aud: c.aud,
      scope,
      iss: c.iss,
      expiresAt: typeof c.exp === 'number' ? new Date(c.exp * 1000) : undefined,
      issuedAt: typeof c.iat === 'number' ? new Date(c.iat * 1000) : undefined,
    };
  } catch {
    return undefined;
  }
}

export type TokenState = 'valid' | 'expiring' | 'expired' | 'no-expiry';

/** How a token stands at `now`; "expiring" within `warnSeconds`. */
export function tokenState(claims: TokenClaims | undefined, now = new Date(), warnSeconds = 60): TokenState {
  if (!claims?.expiresAt) return 'no-expiry';
  const left = (claims.expiresAt.getTime() - now.getTime()) / 1000;
  if (left <= 0) return 'expired';
  return left <= warnSeconds ? 'expiring' : 'valid';
}

export interface SandboxTokenOptions {
  /** The HS256 shared secret configured as `unsafe-jwt-hmac-256`. */
  secret: string;
  userId: string;
  /** `audience` (recommended): aud = participant audience; `scope`: scope = daml_ledger_api, aud = participant id. */
  form: 'audience' | 'scope';
  /** The participant id; for the audience form, a configured target audience may stand in for it. */
  participantId?: string;
  /** The audience form: the participant's configured target audience (used instead of the participant id). */
  audience?: string;
  /** Lifetime; Canton rejects more than its max-token-lifetime (5 min by default). */
  expiresInSeconds?: number;
  /**
   * Scopes that restrict the token to API areas (Canton 3.8), added to its `scope` claim. Their names
   * come from the participant's own description (`scopes.ts`), never from here.
   */
  scopes?: readonly string[];
  now?: Date;
}

/**
 * The `aud` of a token: the target audience, else the participant audience of the participant id
 * (audience form); the bare participant id (scope form: Canton reads a single `aud` of a scope-based
 * token as the participant id and checks it, `readPayload` in canton
 * `base/daml-jwt/src/main/scala/com/daml/jwt/AuthServiceJWTPayload.scala`, main). Every token carries
 * one: Canton 3.7 refuses tokens without (scope-only tokens were deprecated in 3.5). Neither an id
 * nor an audience: {@link AuthError} `no-audience`.
 */
export function tokenAudience(o: Pick<SandboxTokenOptions, 'form' | 'participantId' | 'audience'>): string {
  const participantId = o.participantId?.trim() || undefined;
  const audience = o.form === 'audience' ? (o.audience?.trim() || undefined) ?? (participantId && PARTICIPANT_AUDIENCE_PREFIX + participantId) : participantId;
  if (!audience) throw new AuthError(0, 'no-audience');
  return audience;
}

/**
 * Mints an HS256 token the way a participant with a shared secret expects it: the one minting
 * function of the product (the extension's connections, the CLI's `token`, the demo participant).
 */
export async function mintSandboxToken(o: SandboxTokenOptions): Promise<string> {
  const now = Math.floor((o.now ?? new Date()).getTime() / 1000);
  const lifetime = o.expiresInSeconds ?? DEFAULT_MAX_TOKEN_LIFETIME_SECONDS - 30;
  const scope = [...(o.form === 'scope' ? [LEDGER_API_SCOPE] : []), ...(o.scopes ?? [])].join(' ');
  return new SignJWT(scope ? { scope } : {})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(o.userId)
    .setAudience(tokenAudience(o))
    .setIssuedAt(now)
    .setExpirationTime(now + lifetime)
    .sign(new TextEncoder().encode(o.secret));
}

/** Supplies the bearer token for a request; undefined means "send no Authorization header". */
export type TokenProvider = (signal?: AbortSignal) => Promise<string | undefined>;

/**
 * Where one connection's tokens come from: made with the connection and dropped with it, so that no
 * token (nor a destination the user allowed it for) outlives what the connection was built for.
 */
export interface TokenSource {
  /** What the connection's client asks before each request. */
  readonly provider: TokenProvider;
  /** The claims of the last token it gave, to show (never logged). */
  claims(): TokenClaims | undefined;
  /** A connect begins: the next request asks again where the token may go (a refusal holds for one attempt). */
  newAttempt(): void;
  /** The connection went: the tokens it kept are forgotten and its listeners end. */
  dispose(): void;
}

/**
 * Wraps a token source that mints or fetches short-lived tokens: caches the token and renews it
 * `renewBeforeSeconds` before it expires, so that requests never go out with a stale token.
 * Concurrent callers share one renewal.
 */
export function cachingTokenProvider(
  fetchToken: (signal?: AbortSignal) => Promise<string>,
  opts: { renewBeforeSeconds?: number; now?: () => Date } = {},
): TokenProvider & { invalidate(): void } {
  const renewBefore = (opts.renewBeforeSeconds ?? 30) * 1000;
  const now = opts.now ?? (() => new Date());
  let current: { token: string; expiresAt?: number } | undefined;
  let pending: Promise<string> | undefined;
  const provider = (async (signal?: AbortSignal) => {
    if (current && (current.expiresAt === undefined || current.expiresAt - renewBefore > now().getTime())) return current.token;
    pending ??= fetchToken(signal)
      .then((token) => {
        current = { token, expiresAt: decodeClaims(token)?.expiresAt?.getTime() };
        return token;
      })
      .finally(() => (pending = undefined));
    return pending;
  }) as TokenProvider & { invalidate(): void };
  provider.invalidate = () => {
    current = undefined;
  };
  return provider;
}
