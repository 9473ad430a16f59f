import { LedgerError, type LedgerErrorKind } from './errors';

/**
 * Keeps tokens and secrets out of logs and error messages. Known secrets are registered when they are
 * read (tokens, shared secrets, client secrets); anything shaped like a JWT or a bearer/basic credential
 * is masked too, so a secret we were never told about still does not get through.
 */

const MASK = '[REDACTED]';
/** Where a long text was shortened for showing (a value in a line, a page of a result). */
const CUT = '…';
const MIN_SECRET_PIECE = 8;

/** Failures that are answers (of the participant, the network, the user), not bugs: logged without a stack. */
const EXPECTED_KINDS: ReadonlySet<LedgerErrorKind> = new Set(['canton', 'auth', 'http', 'network', 'timeout', 'cancelled', 'incompatible', 'not-served', 'token-withheld', 'redirected', 'websocket-unavailable', 'stream-stalled']);

/** Three base64url segments, the first a JSON object header (`eyJ` = `{"`). */
const JWT_SHAPE = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
/** `Bearer xyz`, `Basic xyz` in headers, logs or curl lines. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const SECRET_KEYS = 'client_secret|clientSecret|secret|password|access_token|accessToken|refresh_token|id_token|token';
/** `"client_secret": "…"` in JSON (quoted key), so that prose such as "the token: it …" stays readable. */
const SECRET_JSON_FIELD = new RegExp(`(["'](?:${SECRET_KEYS})["']\\s*:\\s*["'])([^"']*)`, 'gi');
/** `client_secret=…` in forms, query strings and env-style lines. */
const SECRET_PAIR = new RegExp(`(\\b(?:${SECRET_KEYS})=)([^&\\s"',]+)`, 'gi');
/** `jwt.token.<JWT>` websocket subprotocol. */
const WS_TOKEN = /\bjwt\.token\.[^\s,"']+/g;
/** The password of a URL's user-info: `https://user:secret@host`. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/@:]*):[^\s/@]*@/gi;

export class Redactor {
  private readonly secrets = new Set<string>();

  /** Remember a secret so that it is masked wherever it appears. Short values are ignored (too many false hits). */
  register(secret: string | undefined): void {
    if (secret && secret.length >= 8) this.secrets.add(secret);
  }

  forget(secret: string | undefined): void {
    if (secret) this.secrets.delete(secret);
  }

  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) {
      if (out.includes(s)) out = out.split(s).join(MASK);
    }
    if (out.includes(CUT)) out = this.maskCutSecrets(out);
    return out
      .replace(JWT_SHAPE, MASK)
      .replace(WS_TOKEN, `jwt.token.${MASK}`)
      .replace(URL_PASSWORD, (_m, head: string) => `${head}:${MASK}@`)
      .replace(AUTH_SCHEME, (_m, scheme: string) => `${scheme} ${MASK}`)
      .replace(SECRET_JSON_FIELD, (_m, key: string) => `${key}${MASK}`)
      .replace(SECRET_PAIR, (_m, key: string) => `${key}${MASK}`);
  }

  /** A known secret that a bound cut short (a piece of at least 8 characters, then `…`): masked like the whole. */
  private maskCutSecrets(text: string): string {
    let out = text;
    for (const s of this.secrets) {
      for (let k = s.length - 1; k >= MIN_SECRET_PIECE; k--) {
        const piece = `${s.slice(0, k)}${CUT}`;
        if (out.includes(piece)) out = out.split(piece).join(`${MASK}${CUT}`);
      }
    }
    return out;
  }

  /**
   * Redacts an error for logging, never the raw object: a failure the participant or the network
   * answered with (refused, 401, a Canton error, a timeout) in one line with its code and hint; any
   * other error with its stack (that is where a stack helps).
   */
  redactError(err: unknown): string {
    if (err instanceof LedgerError && EXPECTED_KINDS.has(err.kind)) {
      const code = (err as { code?: unknown }).code;
      return this.redact(`${err.name}${typeof code === 'string' ? ` ${code}` : ''}: ${err.message} (hint: ${err.hint})`);
    }
    if (err instanceof Error) return this.redact(err.stack ?? `${err.name}: ${err.message}`);
    return this.redact(String(err));
  }
}

/** Masks credentials in a URL (user-info and token-like query parameters) before it is logged or shown. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = u.username ? MASK : '';
      u.password = u.password ? MASK : '';
    }
    for (const key of [...u.searchParams.keys()]) {
      if (/token|secret|password|key|auth/i.test(key)) u.searchParams.set(key, MASK);
    }
    // URL encoding turns the brackets of the mask into %5B/%5D; show it as written elsewhere.
    return u.toString().split(encodeURIComponent(MASK)).join(MASK);
  } catch {
    return url;
  }
}

export const REDACTION_MASK = MASK;
