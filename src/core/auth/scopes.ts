/**
 * Access tokens scoped to API areas (Canton 3.8's release notes: "scopes access tokens to API areas").
 *
 * What is confirmed from sources: a token's scopes are the space-separated `scope` claim or the `scp`
 * array (canton `community/base/.../auth/AuthServiceJWT.scala`, `checkAudienceAndScope`; the wallet
 * gateway reads `scp` likewise, canton-network/wallet#1702); a participant can demand one scope of
 * every token (`target-scope`, `AuthServiceConfig.JwtJwks` in the 3.3 scaladoc on
 * docs.digitalasset.com); and a valid token that lacks a claim a service requires is refused with
 * PERMISSION_DENIED, which the JSON API redacts to `NA` / 403 / grpcCodeValue 7 (canton
 * `community/base/.../auth/Authorizer.scala`, `authorizationErrorAsGrpc`).
 *
 * Not confirmed by any source we can read: 3.8's scope strings and how it groups operations into areas.
 * So nothing here names a scope: the participant's own description (`GET /docs/openapi`) decides, by
 * the scopes each operation's `security` requirement lists (OpenAPI's way of saying which scopes a
 * call needs). The 3.3–3.6 specs list none (`httpAuth: []`): there, no token is restricted.
 */
import type { OpenApiDocument } from '../compat/openapi';
import { pathShape } from '../compat/openapi';
import type { TokenClaims } from './jwt';

/** An API area: the first segment of a `/v2/…` path (`commands`, `updates`, `state`, `users`…). */
export type ApiArea = string;

export function apiAreaOf(path: string): ApiArea {
  const m = /^\/v2\/([^/?]+)/.exec(path);
  return m ? m[1] : path.replace(/^\/+/, '').split('/')[0] ?? path;
}

/** A token's scopes: the space-separated `scope` claim (or the `scp` array, joined into it by `decodeClaims`). */
export function tokenScopes(claims: Pick<TokenClaims, 'scope'> | undefined): string[] {
  return (claims?.scope ?? '').split(/\s+/).filter((s) => s !== '');
}

/** One operation's requirement: any of the alternatives, each a set of scopes that must all be held. */
export type ScopeAlternatives = readonly (readonly string[])[];

/** What a participant's description says tokens need, operation by operation. */
export interface ScopeRequirements {
  /** By `METHOD pathShape`: operations that list scopes (the others need none). */
  readonly byEndpoint: ReadonlyMap<string, ScopeAlternatives>;
  /** The areas each scope opens, as the description's operations show it. */
  readonly areasOfScope: ReadonlyMap<string, readonly ApiArea[]>;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * The scopes a participant's description requires, or undefined when no operation lists one (every
 * published spec, 3.3–3.6): then tokens are not restricted to areas.
 */
export function scopeRequirementsOf(document: OpenApiDocument): ScopeRequirements | undefined {
  const byEndpoint = new Map<string, ScopeAlternatives>();
  const areasOfScope = new Map<string, ApiArea[]>();
  const global = (document as { security?: unknown }).security;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item ?? {})) {
      if (!HTTP_METHODS.includes(method)) continue;
      const own = (op as { security?: unknown }).security;
      const alternatives = alternativesOf(own ?? global);
      if (alternatives.every((a) => a.length === 0)) continue;
      byEndpoint.set(`${method.toUpperCase()} ${pathShape(path)}`, alternatives);
      for (const scope of alternatives.flat()) {
        const areas = areasOfScope.get(scope) ?? [];
        if (!areas.includes(apiAreaOf(path))) areas.push(apiAreaOf(path));
        areasOfScope.set(scope, areas);
      }
    }
  }
  return byEndpoint.size > 0 ? { byEndpoint, areasOfScope } : undefined;
}

/** `[{ httpAuth: ['a'] }, { apiKeyAuth: ['a'] }]` → `[['a'], ['a']]` (each alternative's schemes' scopes together). */
function alternativesOf(security: unknown): string[][] {
  if (!Array.isArray(security)) return [];
  return security.map((requirement) =>
    requirement && typeof requirement === 'object'
      ? [...new Set(Object.values(requirement as Record<string, unknown>).flatMap((v) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [])))]
      : [],
  );
}

/** Whether a token may call an operation, by its scopes. */
export type ScopeCoverage =
  /** The description lists no scopes for it, or none at all. */
  | { kind: 'not-required' }
  /** The token's claims are not known yet (no token sent so far): the participant decides. */
  | { kind: 'unknown' }
  /** The token carries none of the description's area scopes: it is not restricted (a token of before 3.8). */
  | { kind: 'unrestricted' }
  | { kind: 'covered'; scopes: string[] }
  /** The token is restricted to other areas: the participant would refuse (PERMISSION_DENIED). */
  | { kind: 'out-of-scope'; area: ApiArea; method: string; path: string; needs: ScopeAlternatives; tokenScopes: string[] };

export function scopeCoverage(requirements: ScopeRequirements | undefined, claims: TokenClaims | undefined, method: string, path: string): ScopeCoverage {
  const needs = requirements?.byEndpoint.get(`${method.toUpperCase()} ${pathShape(path)}`);
  if (!requirements || !needs) return { kind: 'not-required' };
  if (!claims) return { kind: 'unknown' };
  const held = tokenScopes(claims);
  if (!held.some((s) => requirements.areasOfScope.has(s))) return { kind: 'unrestricted' };
  const met = needs.find((alternative) => alternative.every((s) => held.includes(s)));
  return met ? { kind: 'covered', scopes: [...met] } : { kind: 'out-of-scope', area: apiAreaOf(path), method: method.toUpperCase(), path, needs, tokenScopes: held };
}

/** What a token may reach, for its tooltip: its scopes and the areas they open. */
export interface TokenReach {
  scopes: string[];
  /** undefined: the participant's description lists no area scopes (or was not read). */
  areas?: ApiArea[];
  /** The token carries none of the description's area scopes: every area. */
  unrestricted?: boolean;
}

export function tokenReach(requirements: ScopeRequirements | undefined, claims: TokenClaims): TokenReach {
  const scopes = tokenScopes(claims);
  if (!requirements) return { scopes };
  const areaScopes = scopes.filter((s) => requirements.areasOfScope.has(s));
  if (areaScopes.length === 0) return { scopes, unrestricted: true };
  return { scopes, areas: [...new Set(areaScopes.flatMap((s) => requirements.areasOfScope.get(s) ?? []))].sort() };
}

/** One line for people: "scope `a b` · areas commands, updates". */
export function tokenReachLine(reach: TokenReach): string {
  const scope = reach.scopes.length > 0 ? `scope ${reach.scopes.join(' ')}` : 'no scope';
  if (reach.unrestricted) return `${scope} · every API area`;
  if (reach.areas) return `${scope} · API areas ${reach.areas.length > 0 ? reach.areas.join(', ') : 'none'}`;
  return scope;
}
