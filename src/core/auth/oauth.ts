/** OAuth2 client-credentials grant (RFC 6749 §4.4), as backends get Canton tokens from Keycloak, Auth0 or Okta. */
import nodeFetch from 'node-fetch';
import { AuthError, CancelledError, HttpError, NetworkError, ProtocolError, TimeoutError } from '../errors';
import type { FetchLike } from '../fetch';

export interface ClientCredentialsOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
  audience?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  fetch?: FetchLike;
}

export interface ClientCredentialsToken {
  accessToken: string;
  /** Seconds, as the identity provider said. */
  expiresIn?: number;
}

export async function fetchClientCredentialsToken(o: ClientCredentialsOptions): Promise<ClientCredentialsToken> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: o.clientId, client_secret: o.clientSecret });
  if (o.scope) form.set('scope', o.scope);
  if (o.audience) form.set('audience', o.audience);
  const request = { method: 'POST', path: new URL(o.tokenUrl).pathname };
  const timeoutMs = o.timeoutMs ?? 15_000;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, deadline]) : deadline;
  let res;
  try {
    res = await (o.fetch ?? nodeFetch)(o.tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: form.toString(),
      redirect: 'error',
      signal: signal as never,
    });
  } catch (e) {
    if (o.signal?.aborted) throw new CancelledError(true, request);
    if (deadline.aborted) throw new TimeoutError(timeoutMs, true, request);
    const code = (e as { code?: string }).code;
    throw new NetworkError(`Could not reach the token endpoint${code ? ` (${code})` : ''}`, code, false, request, e);
  }
  const text = await res.text();
  if (res.status === 400 || res.status === 401 || res.status === 403) {
    // The IdP's body may echo the request; never keep it, it can contain the secret.
    throw new AuthError(res.status, 'idp-rejected', undefined, request);
  }
  if (!res.ok) throw new HttpError(res.status, '', res.headers.get('content-type') ?? undefined, request);
  let body: { access_token?: unknown; expires_in?: unknown };
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new ProtocolError('The token endpoint did not answer with JSON', request, e);
  }
  if (typeof body.access_token !== 'string' || body.access_token === '') throw new ProtocolError('The token endpoint answered without an access_token', request);
  return { accessToken: body.access_token, expiresIn: typeof body.expires_in === 'number' ? body.expires_in : undefined };
}
