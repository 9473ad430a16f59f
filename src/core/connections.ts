/**
 * Participant connection profiles, as kept in settings or global state. Profiles never hold secrets:
 * tokens, shared secrets and client secrets live in the editor's secret storage, keyed by profile id.
 */

export type AuthKind = 'none' | 'jwt' | 'sandbox-secret' | 'oauth2';

/** Where a profile comes from; workspace profiles are not trusted with tokens until confirmed. */
/** `demoNetwork`: a participant of the demo network (its profiles live while it runs, like the demo's). */
export type ProfileSource = 'user' | 'workspace' | 'demo' | 'demoNetwork';

export interface ConnectionProfile {
  id: string;
  name: string;
  /** `http(s)://host:port[/path-prefix]` */
  url: string;
  auth: AuthKind;
  userId?: string;
  parties?: string[];
  /** sandbox-secret: the token form and the participant id (the token's audience). */
  tokenForm?: 'audience' | 'scope';
  participantId?: string;
  /** oauth2 client credentials. */
  tokenUrl?: string;
  clientId?: string;
  scope?: string;
  audience?: string;
  source: ProfileSource;
}

export const AUTH_KINDS: ReadonlyArray<{ kind: AuthKind; label: string; detail: string }> = [
  { kind: 'none', label: 'No token', detail: 'A sandbox without authentication' },
  { kind: 'jwt', label: 'Paste a JWT', detail: 'A token you got elsewhere; kept in secret storage' },
  { kind: 'sandbox-secret', label: 'Mint sandbox tokens from a shared secret', detail: 'HS256 (unsafe-jwt-hmac-256); short-lived tokens renewed automatically' },
  { kind: 'oauth2', label: 'OAuth2 client credentials', detail: 'Token URL, client id and secret; refreshed automatically' },
];

/** Checks a participant URL; returns a problem for people, or undefined when it is fine. */
export function checkParticipantUrl(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'Not a URL: expected e.g. http://localhost:7575';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'The URL must start with http:// or https://';
  if (u.username || u.password) return 'Do not put credentials in the URL: set a token instead';
  if (u.search || u.hash) return 'The URL must not have a query or fragment';
  return undefined;
}

/** Loopback hosts, where plain http does not expose a token to the network. */
export function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host) || host.endsWith('.localhost');
  } catch {
    return false;
  }
}

/** A token would travel unencrypted over the network. */
export function sendsTokenInClear(url: string): boolean {
  return url.startsWith('http:') && !isLoopback(url);
}

/** The key under which trust in a URL is remembered: scheme, host, port and path prefix. */
export function trustKey(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
}

/** Normalises a profile read from settings or state; undefined when it is unusable. */
export function normaliseProfile(raw: unknown, source: ProfileSource, fallbackId: string): ConnectionProfile | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const str = (k: string) => (typeof r[k] === 'string' && r[k] !== '' ? (r[k] as string) : undefined);
  const name = str('name');
  const url = str('url');
  if (!name || !url || checkParticipantUrl(url)) return undefined;
  const auth = (['none', 'jwt', 'sandbox-secret', 'oauth2'] as const).find((k) => k === r.auth) ?? 'none';
  const form = r.tokenForm === 'scope' ? 'scope' : r.tokenForm === 'audience' ? 'audience' : undefined;
  return {
    id: str('id') ?? fallbackId,
    name,
    url: url.replace(/\/+$/, ''),
    auth,
    userId: str('userId'),
    parties: Array.isArray(r.parties) ? r.parties.filter((p): p is string => typeof p === 'string' && p !== '') : undefined,
    tokenForm: form,
    participantId: str('participantId'),
    tokenUrl: str('tokenUrl'),
    clientId: str('clientId'),
    scope: str('scope'),
    audience: str('audience'),
    source,
  };
}

/** Where the extension keeps its connection list in global state: the user's own profiles, and the active profile's id. */
export const PROFILE_STATE_KEYS = { own: 'cantonLedger.connections.v1', active: 'cantonLedger.activeConnection' } as const;

/** The `cantonLedger.connections` setting at each level (as `inspect` gives it). */
export interface ProfileSettings {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The stored profiles (the demo's aside): the user's own (global state), then those of user settings,
 * then those of workspace and folder settings when the workspace is trusted; unusable entries skipped.
 */
export function storedProfiles(own: unknown, settings: ProfileSettings | undefined, workspaceTrusted: boolean): ConnectionProfile[] {
  const list = (values: unknown) => (Array.isArray(values) ? (values as unknown[]) : []);
  const fromSettings = (values: unknown, source: 'user' | 'workspace', scope: string) =>
    list(values).flatMap((raw) => {
      const name = (raw as { name?: unknown })?.name;
      const p = normaliseProfile(raw, source, `settings-${scope}:${typeof name === 'string' ? name : ''}`);
      // Settings profiles are edited in settings.json, not in the UI: their id is their place and name.
      return p ? [{ ...p, id: `settings-${scope}:${p.name}` }] : [];
    });
  const workspace = workspaceTrusted ? [...fromSettings(settings?.workspaceValue, 'workspace', 'workspace'), ...fromSettings(settings?.workspaceFolderValue, 'workspace', 'folder')] : [];
  return [...list(own).flatMap((raw, i) => normaliseProfile(raw, 'user', `user-${i}`) ?? []), ...fromSettings(settings?.globalValue, 'user', 'user'), ...workspace];
}

/** The active profile: the one of that id, or the only one there is. */
export function activeProfile(all: readonly ConnectionProfile[], activeId: string | undefined): ConnectionProfile | undefined {
  return all.find((p) => p.id === activeId) ?? (all.length === 1 ? all[0] : undefined);
}

/** The profile as persisted: no source, no undefined fields (and never a secret). */
export function persistableProfile(p: ConnectionProfile): Record<string, unknown> {
  const { source: _source, ...rest } = p;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
}

/** One question of the Add/Edit Connection wizard. */
export type ConnectionWizardStep = 'name' | 'url' | 'auth' | 'userId' | 'tokenForm' | 'participantId' | 'tokenUrl' | 'clientId' | 'scope' | 'audience';

/**
 * The questions of the Add/Edit Connection wizard, in order, for an auth kind: the step counter shows
 * "k/N" from this list, so N is right for every path. Before the auth kind is chosen the path is not
 * known (`auth` undefined: the common questions only, and `complete` false).
 */
export function connectionWizardSteps(auth: AuthKind | undefined): { steps: ConnectionWizardStep[]; complete: boolean } {
  const common: ConnectionWizardStep[] = ['name', 'url', 'auth', 'userId'];
  switch (auth) {
    case undefined:
      return { steps: common, complete: false };
    case 'sandbox-secret':
      // Both token forms carry the participant id in `aud` (Canton 3.7 refuses tokens without an audience).
      return { steps: [...common, 'tokenForm', 'participantId'], complete: true };
    case 'oauth2':
      return { steps: [...common, 'tokenUrl', 'clientId', 'scope', 'audience'], complete: true };
    default:
      return { steps: common, complete: true };
  }
}

/** The step counter of a wizard question: k of N, or k alone (no `totalSteps`) while N is not known. */
export function wizardStepCounter(step: ConnectionWizardStep, path: { steps: ConnectionWizardStep[]; complete: boolean }): { step: number; totalSteps?: number } {
  const k = path.steps.indexOf(step) + 1;
  return path.complete ? { step: k, totalSteps: path.steps.length } : { step: k };
}
