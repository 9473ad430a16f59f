/**
 * Authentication as a participant with an `unsafe-jwt-hmac-256` auth service does it (NOTES §3.3,
 * §6): HS256 user tokens in the audience or the scope form, the 5-minute maximum token lifetime,
 * then the user's rights from user management. With auth off every request is allowed.
 */
import { decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { LEDGER_API_SCOPE, mintSandboxToken, PARTICIPANT_AUDIENCE_PREFIX } from '../core/auth/jwt';
import { apiAreaOf, tokenScopes } from '../core/auth/scopes';
import { AuthFailure, DecodeFailure } from './errors';
import type { UserRecord, UserRight } from './model';

/** Canton's default `ledger-api.max-token-lifetime` (3.4.4+). */
const MAX_TOKEN_LIFETIME_SECONDS = 300;

export interface AuthConfig {
  secret: string;
  /** A configured target audience; without it, the participant's own audience is expected. */
  audience?: string;
}

/** Who is calling: anyone (auth off) or a user of the participant. */
export type Caller = { kind: 'open' } | { kind: 'user'; user: UserRecord };

export const OPEN: Caller = { kind: 'open' };

/** The token of an `Authorization` header; an empty bearer fails decoding (400), as in Canton. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const m = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  if (!m) return undefined;
  const token = (m[1] ?? '').trim();
  if (!token) throw DecodeFailure.header('Authorization');
  return token;
}

/**
 * The demo's own names for the scopes of Canton 3.8's API areas (`<prefix><area>`): no source we can
 * read gives Canton's. The client never assumes them: it reads the scopes each operation needs from
 * the participant's description (`core/auth/scopes.ts`), and the tests serve one that lists these.
 */
export const DEMO_AREA_SCOPE_PREFIX = 'daml_ledger_api.';

export function demoAreaScope(area: string): string {
  return DEMO_AREA_SCOPE_PREFIX + area;
}

/** Whether a token may call a path: a token without area scopes may call any (a token of before 3.8). */
function scopeOpens(payload: JWTPayload, path: string): boolean {
  const scope = typeof payload.scope === 'string' ? payload.scope : Array.isArray(payload.scp) ? payload.scp.join(' ') : undefined;
  const areas = tokenScopes({ scope }).filter((s) => s.startsWith(DEMO_AREA_SCOPE_PREFIX));
  return areas.length === 0 || areas.includes(demoAreaScope(apiAreaOf(path)));
}

export class Authenticator {
  private readonly key: Uint8Array;

  /** `areaScopes`: tokens may be restricted to API areas (the releases from 3.8 on). */
  constructor(
    private readonly config: AuthConfig,
    private readonly participantId: string,
    private readonly users: ReadonlyMap<string, UserRecord>,
    private readonly clock: () => Date,
    private readonly areaScopes = false,
  ) {
    this.key = new TextEncoder().encode(config.secret);
  }

  private get audience(): string {
    return this.config.audience ?? PARTICIPANT_AUDIENCE_PREFIX + this.participantId;
  }

  /** `path`: the endpoint called (its area is checked against the token's scopes from 3.8 on). */
  async authenticate(token: string | undefined, path?: string): Promise<Caller> {
    if (token === undefined) throw AuthFailure.unauthenticated();
    const now = this.clock();
    let payload: JWTPayload;
    try {
      payload = (await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: now })).payload;
    } catch {
      throw AuthFailure.unauthenticated();
    }
    const secondsLeft = (payload.exp ?? Infinity) - now.getTime() / 1000;
    if (!Number.isFinite(secondsLeft) || secondsLeft > MAX_TOKEN_LIFETIME_SECONDS) throw AuthFailure.unauthenticated();
    if (!this.hasAudienceOrScope(payload) || !payload.sub) throw AuthFailure.unauthenticated();
    const user = this.users.get(payload.sub);
    if (!user || user.isDeactivated) throw AuthFailure.invalidToken();
    // A claim the token lacks is PERMISSION_DENIED, redacted (canton community/base/.../auth/Authorizer.scala).
    if (this.areaScopes && path !== undefined && !scopeOpens(payload, path)) throw AuthFailure.permissionDenied();
    return { kind: 'user', user };
  }

  /**
   * Whether a token that `authenticate` accepted has expired since, on the participant's clock (no
   * signature check: it was checked when the stream started).
   */
  expired(token: string | undefined): boolean {
    if (token === undefined) return true;
    const exp = decodeJwt(token).exp;
    return exp !== undefined && this.clock().getTime() / 1000 >= exp;
  }

  private hasAudienceOrScope(payload: JWTPayload): boolean {
    const audiences = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (audiences.includes(this.audience)) return true;
    // Scope-based tokens (deprecated in 3.5) are not accepted once a target audience is configured.
    if (this.config.audience !== undefined) return false;
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(/\s+/) : Array.isArray(payload.scp) ? (payload.scp as unknown[]) : [];
    const audienceOk = audiences.length === 0 || (audiences.length === 1 && audiences[0] === this.participantId);
    return audienceOk && scopes.includes(LEDGER_API_SCOPE);
  }

  /** A token of this participant's own, minted as the product mints every token (with its audience). */
  mint(userId: string, form: 'audience' | 'scope', expiresInSeconds: number, areas?: readonly string[]): Promise<string> {
    const scopes = areas?.map(demoAreaScope);
    return mintSandboxToken({ secret: this.config.secret, userId, form, participantId: this.participantId, audience: this.config.audience, expiresInSeconds, now: this.clock(), ...(scopes ? { scopes } : {}) });
  }
}

// ---------------------------------------------------------------- rights

function has(caller: Caller, test: (right: UserRight) => boolean): boolean {
  return caller.kind === 'open' || caller.user.rights.some(test);
}

export function canActAs(caller: Caller, party: string): boolean {
  return has(caller, (r) => r.kind === 'CanActAs' && r.party === party);
}

export function canReadAs(caller: Caller, party: string): boolean {
  return has(caller, (r) => ((r.kind === 'CanReadAs' || r.kind === 'CanActAs') && r.party === party) || r.kind === 'CanReadAsAnyParty');
}

export function canReadAsAnyParty(caller: Caller): boolean {
  return has(caller, (r) => r.kind === 'CanReadAsAnyParty' || r.kind === 'ParticipantAdmin');
}

export function isAdmin(caller: Caller): boolean {
  return has(caller, (r) => r.kind === 'ParticipantAdmin');
}

/** Throws the redacted 403 unless `allowed`. */
export function ensureAllowed(allowed: boolean): void {
  if (!allowed) throw AuthFailure.permissionDenied();
}
