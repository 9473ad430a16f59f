/**
 * Connections to a cn-quickstart LocalNet, read from its checkout: which participants it runs (sv,
 * app-provider, app-user, each one that its `<ROLE>_PROFILE` does not turn off), the host port of each
 * one's JSON Ledger API, and how each authenticates (`AUTH_MODE`: `oauth2` through Keycloak, whose
 * client credentials the checkout holds, or `shared-secret`, whose participants verify no token).
 *
 * The shapes read, from digital-asset/cn-quickstart: `quickstart/.env` and `.env.local` (AUTH_MODE and
 * the profiles, as `make setup` writes them), `quickstart/docker/modules/localnet/compose.env`
 * (`SV_PROFILE=${SV_PROFILE:-on}`…), `…/localnet/env/common.env` (the ports "4${PORT} - sv port, 3${PORT} -
 * app-provider port, 2${PORT} - app-user port"; `PARTICIPANT_JSON_API_PORT_SUFFIX=975`, older
 * checkouts `PARTICIPANT_JSON_API_PORT`), `…/localnet/compose.yaml` (the `canton` service's ports,
 * `"${TEST_PORT-4$PARTICIPANT_JSON_API_PORT_SUFFIX:}4${PARTICIPANT_JSON_API_PORT_SUFFIX}"`),
 * `…/localnet/env/app-provider-auth-on.env` (`AUTH_APP_PROVIDER_VALIDATOR_USER_NAME=ledger-api-user`, the
 * admin user of `conf/canton/app-provider/app-auth.conf`, which sets `auth-services = []`), and
 * `…/modules/keycloak/env/<role>/on/oauth2.env` (`AUTH_APP_USER_ISSUER_URL`, `…_VALIDATOR_CLIENT_ID`,
 * `…_VALIDATOR_CLIENT_SECRET`, `…_AUDIENCE`, `…_VALIDATOR_USER_ID`).
 *
 * Pure: the files come through a reader, so the editor and the tests hand in what they have. Every
 * problem names its file and line; one participant's problem never hides the others.
 */

/** Reads a file of the checkout by its path from the folder chosen (`/`-separated); undefined when it is not there. */
export type CheckoutReader = (path: string) => Promise<string | undefined>;

export type LocalNetRole = 'sv' | 'app-provider' | 'app-user';

export interface LocalNetParticipant {
  role: LocalNetRole;
  /** `http://localhost:<port>`. */
  url: string;
  /** Where the port was read: the compose file's line that publishes it. */
  portAt: FileLine;
  /**
   * `none`: the participant verifies no token (shared-secret LocalNet: `auth-services = []`);
   * `oauth2`: Keycloak client credentials (the secret, where the checkout has it, in `clientSecret`);
   * `jwt`: a token must be pasted (its auth could not be read).
   */
  auth: 'none' | 'oauth2' | 'jwt';
  userId?: string;
  oauth2?: { tokenUrl: string; clientId: string; audience?: string; clientSecret?: string };
  /** What the user should know about this connection (a guess made, a value not found). */
  notes: string[];
}

export interface FileLine {
  file: string;
  /** 1-based; absent for a file as a whole (a missing one). */
  line?: number;
}

export interface LocalNetProblem extends FileLine {
  message: string;
}

export interface LocalNetReading {
  /** The LocalNet module's folder, relative to the folder chosen. */
  localnetDir?: string;
  participants: LocalNetParticipant[];
  problems: LocalNetProblem[];
  notes: string[];
}

/** Where the LocalNet module may be, from the folder chosen: the checkout, its `quickstart/`, or the module itself. */
const LOCALNET_DIRS = ['quickstart/docker/modules/localnet', 'docker/modules/localnet', 'modules/localnet', ''];

/** The first digit of each participant's ports (common.env: "4${PORT} - sv port, 3${PORT} - app-provider port, 2${PORT} - app-user port"). */
const ROLE_OF_PREFIX: Readonly<Record<string, LocalNetRole>> = { '4': 'sv', '3': 'app-provider', '2': 'app-user' };
const PROFILE_VARIABLE: Readonly<Record<LocalNetRole, string>> = { sv: 'SV_PROFILE', 'app-provider': 'APP_PROVIDER_PROFILE', 'app-user': 'APP_USER_PROFILE' };
/** The prefix of a role's variables in the auth env files (`AUTH_APP_USER_…`); sv has none there. */
const AUTH_PREFIX: Readonly<Record<LocalNetRole, string | undefined>> = { sv: undefined, 'app-provider': 'AUTH_APP_PROVIDER_', 'app-user': 'AUTH_APP_USER_' };

const join = (...parts: string[]) => parts.filter((p) => p !== '').join('/');

/** A variable's value and the line that set it. */
interface Setting {
  value: string;
  at: FileLine;
}

class Variables {
  readonly values = new Map<string, Setting>();

  get(name: string): string | undefined {
    return this.values.get(name)?.value;
  }

  at(name: string): FileLine | undefined {
    return this.values.get(name)?.at;
  }

  /** Reads an env file's `KEY=VALUE` lines (comments, quotes, `${VAR:-default}` as docker compose reads them); a later file overrides. */
  load(file: string, text: string): void {
    text.split(/\r?\n/).forEach((raw, i) => {
      const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(raw);
      if (!m) return;
      this.values.set(m[1], { value: this.expand(unquote(m[2])), at: { file, line: i + 1 } });
    });
  }

  /** `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?message}` (unset: empty), as compose substitutes them. */
  expand(text: string): string {
    let out = '';
    let i = 0;
    while (i < text.length) {
      const c = text[i];
      if (c !== '$') {
        out += c;
        i++;
        continue;
      }
      if (text[i + 1] === '{') {
        // Find the matching brace (a default may hold `${…}` of its own).
        let depth = 0;
        let j = i + 1;
        for (; j < text.length; j++) {
          if (text[j] === '{') depth++;
          else if (text[j] === '}' && --depth === 0) break;
        }
        const inner = text.slice(i + 2, j);
        const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])(.*))?$/s.exec(inner);
        if (m) {
          const value = this.get(m[1]);
          const op = m[2];
          if (op === ':-') out += value ? value : this.expand(m[3]);
          else if (op === '-') out += value !== undefined ? value : this.expand(m[3]);
          else out += value ?? '';
        }
        i = j + 1;
        continue;
      }
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i));
      if (m) {
        out += this.get(m[1]) ?? '';
        i += m[0].length;
      } else {
        out += c;
        i++;
      }
    }
    return out;
  }
}

/** An env value without its quotes, or without a trailing ` # comment` when unquoted. */
function unquote(raw: string): string {
  const v = raw.trim();
  const q = /^(["'])(.*)\1/.exec(v);
  if (q) return q[2];
  return v.replace(/\s+#.*$/, '');
}

export async function readLocalNet(read: CheckoutReader): Promise<LocalNetReading> {
  const problems: LocalNetProblem[] = [];
  const notes: string[] = [];
  let localnetDir: string | undefined;
  let compose: string | undefined;
  for (const dir of LOCALNET_DIRS) {
    compose = await read(join(dir, 'compose.yaml'));
    if (compose !== undefined && (await read(join(dir, 'env/common.env'))) !== undefined) {
      localnetDir = dir;
      break;
    }
  }
  if (localnetDir === undefined || compose === undefined) {
    problems.push({ file: LOCALNET_DIRS[0], message: `No LocalNet module here: looked for compose.yaml and env/common.env in ${LOCALNET_DIRS.map((d) => d || '.').join(', ')}. Choose the cn-quickstart checkout (or its quickstart folder).` });
    return { participants: [], problems, notes };
  }
  // quickstart/ is three levels up from docker/modules/localnet.
  const quickstartDir = localnetDir.split('/').slice(0, -3).join('/');
  const modulesDir = localnetDir.split('/').slice(0, -1).join('/');
  const vars = new Variables();
  const filesRead: string[] = [];
  const loadIf = async (file: string, required: boolean) => {
    const text = await read(file);
    if (text === undefined) {
      if (required) problems.push({ file, message: `${file} is missing.` });
      return false;
    }
    vars.load(file, text);
    filesRead.push(file);
    return true;
  };
  // What compose substitutes with: the checkout's own settings first (its compose.env keeps them with `${X:-default}`).
  if (localnetDir.endsWith('docker/modules/localnet')) {
    await loadIf(join(quickstartDir, '.env'), false);
    await loadIf(join(quickstartDir, '.env.local'), false);
  }
  vars.values.set('LOCALNET_DIR', { value: localnetDir || '.', at: { file: join(localnetDir, 'compose.env') } });
  vars.values.set('MODULES_DIR', { value: modulesDir || '..', at: { file: join(localnetDir, 'compose.env') } });
  await loadIf(join(localnetDir, 'compose.env'), false);
  await loadIf(join(localnetDir, 'env/common.env'), true);

  const composeFile = join(localnetDir, 'compose.yaml');
  const found = new Map<LocalNetRole, { port: number; at: FileLine }>();
  const lines = compose.split(/\r?\n/);
  lines.forEach((line, i) => {
    const item = /^\s*-\s*["']?([^"'#]*PARTICIPANT_JSON_API_PORT[^"'#]*)["']?\s*(?:#.*)?$/.exec(line);
    if (!item) return;
    const at = { file: composeFile, line: i + 1 };
    // The container side names the participant by its first digit: `…:}4${PARTICIPANT_JSON_API_PORT_SUFFIX}`.
    const container = /([0-9])\$\{?(PARTICIPANT_JSON_API_PORT\w*)\}?\s*$/.exec(item[1]);
    const role = container && ROLE_OF_PREFIX[container[1]];
    if (!container || !role) {
      problems.push({ ...at, message: `Cannot tell which participant this port is for: ${item[1].trim()} (expected 4…, 3… or 2… for sv, app-provider, app-user).` });
      return;
    }
    if (vars.get(container[2]) === undefined) {
      problems.push({ ...at, message: `The ${role} JSON Ledger API port uses ${container[2]}, which none of the env files read sets (${filesRead.join(', ')}).` });
      return;
    }
    // TEST_PORT unset, as `make start` runs it: `${TEST_PORT-4$SUFFIX:}` is the host port and a colon.
    const mapping = vars.expand(item[1].trim());
    const parts = mapping.split(':');
    const host = parts.length >= 2 ? parts[parts.length - 2] : '';
    const port = Number(host);
    if (!/^\d+$/.test(host) || port < 1 || port > 65535) {
      problems.push({ ...at, message: `The ${role} JSON Ledger API port is not published on a fixed host port: ${item[1].trim()} reads "${mapping}".` });
      return;
    }
    found.set(role, { port, at });
  });
  if (found.size === 0 && !problems.some((p) => p.file === composeFile)) {
    problems.push({ file: composeFile, message: `No participant's JSON Ledger API port is published in ${composeFile} (no ports entry names PARTICIPANT_JSON_API_PORT).` });
  }

  const authMode = vars.get('AUTH_MODE');
  const authAt = vars.at('AUTH_MODE');
  if (authMode === undefined) notes.push('AUTH_MODE is not set (make setup writes it to quickstart/.env.local): read as shared-secret, whose participants verify no token.');
  else if (authMode !== 'oauth2' && authMode !== 'shared-secret') problems.push({ ...authAt!, message: `Unknown AUTH_MODE "${authMode}" (expected oauth2 or shared-secret): a token will be asked for each connection.` });

  const participants: LocalNetParticipant[] = [];
  for (const role of ['app-provider', 'app-user', 'sv'] as const) {
    const published = found.get(role);
    if (!published) continue;
    const profileValue = vars.get(PROFILE_VARIABLE[role]) ?? 'on';
    if (profileValue === 'off') {
      notes.push(`${role} is turned off (${PROFILE_VARIABLE[role]}=off): no connection for it.`);
      continue;
    }
    const p: LocalNetParticipant = { role, url: `http://localhost:${published.port}`, portAt: published.at, auth: 'jwt', notes: [] };
    const prefix = AUTH_PREFIX[role];
    if (authMode === 'oauth2') {
      const file = join(modulesDir, 'keycloak/env', role, profileValue, 'oauth2.env');
      const text = prefix ? await read(file) : undefined;
      if (!prefix || text === undefined) {
        p.notes.push(`No Keycloak client for ${role} in the checkout${prefix ? ` (${file} is missing)` : ''}: paste a token for it.`);
      } else {
        const own = new Variables();
        for (const [k, v] of vars.values) own.values.set(k, v);
        own.load(file, text);
        const issuer = own.get(`${prefix}ISSUER_URL`);
        const clientId = own.get(`${prefix}VALIDATOR_CLIENT_ID`);
        if (!issuer || !clientId) {
          problems.push({ file, message: `${file} sets no ${!issuer ? `${prefix}ISSUER_URL` : `${prefix}VALIDATOR_CLIENT_ID`}: a token will be asked for ${role}.` });
        } else {
          // The issuer as the host sees it (the *_TOKEN_URL there names Keycloak inside the compose network).
          p.auth = 'oauth2';
          p.oauth2 = { tokenUrl: `${issuer.replace(/\/+$/, '')}/protocol/openid-connect/token`, clientId, audience: own.get(`${prefix}AUDIENCE`) || undefined, clientSecret: own.get(`${prefix}VALIDATOR_CLIENT_SECRET`) || undefined };
          p.userId = own.get(`${prefix}VALIDATOR_USER_ID`) || undefined;
          if (!p.oauth2.clientSecret) p.notes.push(`${file} has no ${prefix}VALIDATOR_CLIENT_SECRET: it will be asked.`);
        }
      }
    } else if (authMode === undefined || authMode === 'shared-secret') {
      p.auth = 'none';
      if (prefix) {
        const file = join(localnetDir, 'env', `${role}-auth-${profileValue}.env`);
        const text = await read(file);
        if (text !== undefined) {
          const own = new Variables();
          for (const [k, v] of vars.values) own.values.set(k, v);
          own.load(file, text);
          p.userId = own.get(`${prefix}VALIDATOR_USER_NAME`) || undefined;
        }
      }
    }
    participants.push(p);
  }
  return { localnetDir, participants, problems, notes };
}

/** A problem as `file:line: message`. */
export function describeLocalNetProblem(p: LocalNetProblem): string {
  return `${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`;
}
