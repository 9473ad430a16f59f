import vscode = require('vscode');
import * as path from 'node:path';
import type { ConnectionProfile } from '../../core/connections';
import type { Logger } from '../../core/log';
import type { ConnectionManager } from '../connections/manager';
import { DEMO_RAN_KEY } from '../deferred';
import { parsePqsUrl } from '../../core/pqs/settings';
import { DemoLifecycle } from './demoLifecycle';

/** The setting that gives the demo participant a PQS: a PostgreSQL database it mirrors its ledger into. */
export const DEMO_PQS_SETTING = 'demo.pqsUrl';
/** Where the password of the demo's PQS database is kept in secret storage (as a connection's secret of this id). */
export const DEMO_PQS_SECRET_ID = 'demo-pqs-mirror';

/**
 * The demo's PQS database from the settings (`postgresql://user@host:5432/db?schema=…`), or undefined.
 * A password is never read from settings: it is kept in secret storage ("Set Up PQS for the Demo…"),
 * else node-postgres takes PGPASSWORD from the environment.
 */
export function demoPqsUrl(): string | undefined {
  const raw = vscode.workspace.getConfiguration('cantonLedger').get<string>(DEMO_PQS_SETTING)?.trim();
  if (!raw) return undefined;
  const { settings, password } = parsePqsUrl(raw);
  if (password) throw new Error(`cantonLedger.${DEMO_PQS_SETTING} must not hold a password (settings are plain text): run "Set Up PQS for the Demo…", which keeps it in the editor's secret storage`);
  return `postgresql://${encodeURIComponent(settings.user)}@${settings.host}:${settings.port}/${encodeURIComponent(settings.database)}?schema=${settings.schema}&sslmode=${settings.sslmode}`;
}

interface DemoPqsMirror {
  url: string;
  schema: string;
  password?: string;
}

async function demoPqsMirror(password: () => Promise<string | undefined>): Promise<DemoPqsMirror | undefined> {
  const url = demoPqsUrl();
  if (!url) return undefined;
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? 'pqs';
  u.searchParams.delete('schema');
  if (u.searchParams.get('sslmode') === 'prefer') u.searchParams.delete('sslmode');
  return { url: u.toString(), schema, password: await password() };
}

type ParticipantModule = typeof import('../../participant');
type DemoParticipant = Awaited<ReturnType<ParticipantModule['startDemoParticipant']>>;

export const DEMO_CONNECTION_ID = 'demo';
/** The demo participant's seeded admin user (no auth: the profile's user id is used). */
const DEMO_USER = 'demo-admin';
/** A fixed seed gives the same participant and party ids everywhere, so example files name real parties. */
export const DEMO_SEED = 1;

/**
 * Runs the embedded demo participant in the extension host on a free loopback port, and offers it as
 * the "Demo" connection while it runs. Its code is a separate bundle, loaded on first start only.
 * The participant lives in the extension host, which a window reload ends: the window remembers that
 * it ran (until the user stops it) so that it comes back, on the ledger it saved, with the window.
 */
export class DemoController implements vscode.Disposable {
  private readonly lifecycle: DemoLifecycle<DemoParticipant>;
  /** The PQS mirror the running participant started with (none: undefined), to tell when it changed. */
  private startedWithPqs: string | undefined;

  /**
   * `statePath`: where the demo ledger is kept between sessions (absent: in memory only);
   * `windowState`: where the window remembers that the demo ran (the workspace state);
   * `pqsPassword`: the password of the PQS database (undefined: PGPASSWORD of the environment).
   */
  constructor(
    private readonly manager: ConnectionManager,
    private readonly logger: Logger,
    private readonly extensionPath: string,
    private readonly statePath?: string,
    windowState?: vscode.Memento,
    private readonly pqsPassword: () => Promise<string | undefined> = async () => undefined,
  ) {
    this.lifecycle = new DemoLifecycle(
      { launch: () => this.launch(), setUp: (p) => this.setUp(p), shutDown: (p, userStop) => this.shutDown(p, userStop) },
      windowState,
      DEMO_RAN_KEY,
    );
  }

  /** True when the demo ran in this window when the window last closed or reloaded (and was not stopped). */
  get ranWhenClosed(): boolean {
    return this.lifecycle.ranWhenClosed === true;
  }

  get participant(): DemoParticipant | undefined {
    return this.lifecycle.current;
  }

  start(): Promise<DemoParticipant> {
    return this.lifecycle.start();
  }

  private async launch(): Promise<DemoParticipant> {
    // A computed path keeps esbuild from inlining the participant into the extension bundle.
    const mod: ParticipantModule = require(path.join(this.extensionPath, 'dist', 'participant.js'));
    const pqs = await demoPqsMirror(this.pqsPassword);
    const participant = await mod.startDemoParticipant({ port: 0, seed: DEMO_SEED, statePath: this.statePath, pqs, logger: (line: string) => this.logger.info(`[demo participant] ${line}`) });
    this.startedWithPqs = pqs && JSON.stringify(pqs);
    return participant;
  }

  /** The Demo connection, made the active one. */
  private async setUp(participant: DemoParticipant): Promise<void> {
    const profile: ConnectionProfile = { id: DEMO_CONNECTION_ID, name: 'Demo', url: participant.url, auth: 'none', userId: DEMO_USER, source: 'demo' };
    this.manager.profiles.setDemo(profile);
    await this.manager.profiles.setActive(DEMO_CONNECTION_ID);
    await vscode.commands.executeCommand('setContext', 'cantonLedger.demoRunning', true);
    this.logger.info(`Demo participant (a simulator: no Daml interpretation) listening on ${participant.url}`);
  }

  /**
   * Starts the running demo again when its PQS mirror (the setting, or the password kept) is not the
   * one it started with, so that a change applies without a reload; true when it did. The connection
   * is left to the caller to connect again (the participant's port changes).
   */
  async followPqsSetting(): Promise<boolean> {
    await this.lifecycle.whenStarted();
    if (!this.lifecycle.current) return false;
    const wanted = await demoPqsMirror(this.pqsPassword);
    if ((wanted && JSON.stringify(wanted)) === this.startedWithPqs) return false;
    this.logger.info(`Demo participant: restarting for its PQS mirror (${wanted ? demoPqsUrl() : 'none'})`);
    await this.lifecycle.halt(false);
    await this.start();
    return true;
  }

  /**
   * The user's stop: the window forgets the demo. Resolves once the participant has closed and saved
   * its ledger; only then is "demo running" cleared.
   */
  stop(): Promise<void> {
    return this.lifecycle.stop();
  }

  /** Resolves once a stop in progress (also the one of dispose) has saved the ledger. */
  whenStopped(): Promise<void> {
    return this.lifecycle.whenStopped();
  }

  /** `userStop`: the Demo is no longer the active connection; a window closing keeps it, for its return. */
  private async shutDown(p: DemoParticipant, userStop: boolean): Promise<void> {
    const connection = this.manager.connection(DEMO_CONNECTION_ID);
    if (connection) this.manager.disconnect(connection);
    this.manager.profiles.setDemo(undefined);
    if (userStop && this.manager.profiles.activeId() === DEMO_CONNECTION_ID) await this.manager.profiles.setActive(undefined);
    try {
      await p.close();
    } finally {
      await vscode.commands.executeCommand('setContext', 'cantonLedger.demoRunning', false);
    }
    this.logger.info('Demo participant stopped');
  }

  /** The window closes or reloads: the participant stops and saves its ledger; the window remembers it ran. */
  dispose(): void {
    void this.lifecycle.halt(false);
  }
}
