import * as vscode from 'vscode';
import * as path from 'node:path';
import type { ConnectionProfile } from '../core/connections';
import type { Logger } from '../core/log';
import type { ConnectionManager } from './connections/manager';

type ParticipantModule = typeof import('../participant');
type DemoParticipant = Awaited<ReturnType<ParticipantModule['startDemoParticipant']>>;

export const DEMO_CONNECTION_ID = 'demo';
/** The demo participant's seeded admin user (no auth: the profile's user id is used). */
const DEMO_USER = 'demo-admin';
/** A fixed seed gives the same participant and party ids everywhere, so example files name real parties. */
export const DEMO_SEED = 1;

/**
 * Runs the embedded demo participant in the extension host on a free loopback port, and offers it as
 * the "Demo" connection while it runs. Its code is a separate bundle, loaded on first start only.
 */
export class DemoController implements vscode.Disposable {
  private running: DemoParticipant | undefined;
  private starting: Promise<DemoParticipant> | undefined;
  /** A stop in progress: a start waits for it, since the stopping participant still saves the ledger. */
  private stopping: Promise<void> | undefined;

  /** `statePath`: where the demo ledger is kept between sessions (absent: in memory only). */
  constructor(private readonly manager: ConnectionManager, private readonly logger: Logger, private readonly extensionPath: string, private readonly statePath?: string) {}

  get participant(): DemoParticipant | undefined {
    return this.running;
  }

  async start(): Promise<DemoParticipant> {
    if (this.running) return this.running;
    this.starting ??= this.launch().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async launch(): Promise<DemoParticipant> {
    // Loading the saved ledger before the previous run has written it would lose its last updates.
    await this.stopping;
    // A computed path keeps esbuild from inlining the participant into the extension bundle.
    const mod: ParticipantModule = require(path.join(this.extensionPath, 'dist', 'participant.js'));
    const participant = await mod.startDemoParticipant({ port: 0, seed: DEMO_SEED, statePath: this.statePath, logger: (line: string) => this.logger.info(`[demo participant] ${line}`) });
    this.running = participant;
    const profile: ConnectionProfile = { id: DEMO_CONNECTION_ID, name: 'Demo', url: participant.url, auth: 'none', userId: DEMO_USER, source: 'demo' };
    this.manager.profiles.setDemo(profile);
    await this.manager.profiles.setActive(DEMO_CONNECTION_ID);
    await vscode.commands.executeCommand('setContext', 'cantonLedger.demoRunning', true);
    this.logger.info(`Demo participant (a simulator: no Daml interpretation) listening on ${participant.url}`);
    return participant;
  }

  /** Resolves once the participant has closed and saved its ledger; only then is "demo running" cleared. */
  async stop(): Promise<void> {
    const p = this.running;
    if (!p) return this.stopping;
    this.running = undefined;
    this.stopping = this.shutDown(p).finally(() => (this.stopping = undefined));
    return this.stopping;
  }

  private async shutDown(p: DemoParticipant): Promise<void> {
    this.manager.disconnect(DEMO_CONNECTION_ID);
    this.manager.profiles.setDemo(undefined);
    if (this.manager.profiles.activeId() === DEMO_CONNECTION_ID) await this.manager.profiles.setActive(undefined);
    try {
      await p.close();
    } finally {
      await vscode.commands.executeCommand('setContext', 'cantonLedger.demoRunning', false);
    }
    this.logger.info('Demo participant stopped');
  }

  dispose(): void {
    void this.stop();
  }
}
