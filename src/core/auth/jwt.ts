/**
 * JWT helpers for Canton 3.x user tokens (see NOTES §6): decoding claims for display and expiry
 * checks (no verification: the participant verifies), and minting HS256 sandbox tokens.
 */
import { SignJWT, decodeJwt } from 'jose';

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
  /** `audience` (recommended): aud = participant audience; `scope`: scope = daml_ledger_api. */
  form: 'audience' | 'scope';
  /** For the audience form: the participant id, or a full custom audience. */
  participantId?: string;
  audience?: string;
  /** Lifetime; Canton rejects more than its max-token-lifetime (5 min by default). */
  expiresInSeconds?: number;
  now?: Date;
}

/** Mints an HS256 token the way a sandbox with a shared secret expects it. */
export async function mintSandboxToken(o: SandboxTokenOptions): Promise<string> {
  const now = Math.floor((o.now ?? new Date()).getTime() / 1000);
  const lifetime = o.expiresInSeconds ?? DEFAULT_MAX_TOKEN_LIFETIME_SECONDS - 30;
  const jwt = new SignJWT(o.form === 'scope' ? { scope: LEDGER_API_SCOPE } : {})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(o.userId)
    .setIssuedAt(now)
    .setExpirationTime(now + lifetime);
  if (o.form === 'audience') {
    const aud = o.audience ?? (o.participantId ? PARTICIPANT_AUDIENCE_PREFIX + o.participantId : undefined);
    if (!aud) throw new Error('mintSandboxToken: the audience form needs a participantId or an audience');
    jwt.setAudience(aud);
  }
  return jwt.sign(new TextEncoder().encode(o.secret));
}

/** Supplies the bearer token for a request; undefined means "send no Authorization header". */
export type TokenProvider = (signal?: AbortSignal) => Promise<string | undefined>;

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
