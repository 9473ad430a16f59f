import * as vscode from 'vscode';
import * as path from 'node:path';
import type { ConnectionProfile } from '../../core/connections';
import type { Logger } from '../../core/log';
import type { ConnectionManager } from '../connections/manager';
import { Disposable } from '../kit/lifecycle';
import { DEMO_SEED } from '../kit/demo';

type NetworkModule = typeof import('../../participant/network/index');
type DemoNetwork = Awaited<ReturnType<NetworkModule['startDemoNetwork']>>;

/** The participants of the editor's demo network: LocalNet's (`canton-ledger participant --network`'s default). */
export const DEMO_NETWORK_PARTICIPANTS = ['app-provider', 'app-user', 'sv'] as const;
/** Each participant's seeded admin user (no auth: the profile's user id is used). */
const DEMO_NETWORK_USER = 'demo-admin';
/** The profile id of a demo network participant: the same for every run, so a restart reuses the rows and views that named it. */
export const demoNetworkConnectionId = (participant: string) => `demo-network:${participant}`;
const RUNNING_CONTEXT = 'cantonLedger.demoNetworkRunning';

/**
 * Runs the demo network (several demo participants on one synchronizer, shaped like Canton's
 * LocalNet) in the extension host, on free loopback ports (so it never takes the single demo's or a
 * test's port), and offers one connection per participant while it runs. Its code is a bundle of its
 * own (dist/participantNetwork.js), loaded on first start only. Its ledger lives in memory: a window
 * reload ends it.
 */
export class DemoNetworkController extends Disposable {
  private running: DemoNetwork | undefined;
  private starting: Promise<DemoNetwork> | undefined;
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly manager: ConnectionManager,
    private readonly logger: Logger,
    /** Where dist/ is: the bundle is required by a computed path, so esbuild does not inline it. */
    private readonly extensionPath: string,
    private readonly load: () => NetworkModule = () => require(path.join(this.extensionPath, 'dist', 'participantNetwork.js')),
  ) {
    super();
  }

  get network(): DemoNetwork | undefined {
    return this.running;
  }

  /** Starts the network (once: a second start while it runs or starts is the same one) and sets up its connections. */
  async start(): Promise<DemoNetwork> {
    if (this.running) return this.running;
    this.starting ??= this.launch().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async launch(): Promise<DemoNetwork> {
    await this.stopping;
    const network = await this.load().startDemoNetwork({
      participants: DEMO_NETWORK_PARTICIPANTS,
      port: 0,
      seed: DEMO_SEED,
      logger: (line: string) => this.logger.info(`[demo network] ${line}`),
    });
    if (this.isDisposed) {
      await network.close();
      throw new Error('The window closed while the demo network started');
    }
    this.running = network;
    const profiles: ConnectionProfile[] = network.participants.map((p) => ({
      id: demoNetworkConnectionId(p.name),
      name: p.name,
      url: p.url,
      auth: 'none',
      userId: DEMO_NETWORK_USER,
      source: 'demoNetwork',
    }));
    this.manager.profiles.setDemoNetwork(profiles);
    // The first participant becomes the active one only when no other connection is in use.
    if (!this.manager.activeConnected()) await this.manager.profiles.setActive(profiles[0].id);
    await vscode.commands.executeCommand('setContext', RUNNING_CONTEXT, true);
    this.logger.info(`Demo network (a simulator: no Daml interpretation) listening: ${network.participants.map((p) => `${p.name} ${p.url}`).join(', ')}`);
    return network;
  }

  /** The connections of the running network's participants, in the network's order. */
  connections() {
    return (this.running?.participants ?? []).flatMap((p) => this.manager.connection(demoNetworkConnectionId(p.name)) ?? []);
  }

  /** Stops the network: its connections are dropped, then its participants closed. */
  stop(): Promise<void> {
    const network = this.running;
    if (!network) return this.stopping ?? Promise.resolve();
    this.running = undefined;
    this.stopping = this.shutDown(network).finally(() => (this.stopping = undefined));
    return this.stopping;
  }

  private async shutDown(network: DemoNetwork): Promise<void> {
    const ids = network.participants.map((p) => demoNetworkConnectionId(p.name));
    for (const id of ids) {
      const connection = this.manager.connection(id);
      if (connection) this.manager.disconnect(connection);
    }
    const wasActive = ids.includes(this.manager.profiles.activeId() ?? '');
    this.manager.profiles.setDemoNetwork([]);
    if (wasActive) await this.manager.profiles.setActive(undefined);
    try {
      await network.close();
    } finally {
      await vscode.commands.executeCommand('setContext', RUNNING_CONTEXT, false);
    }
    this.logger.info('Demo network stopped');
  }

  /** The window closes: the participants close (the connections go with the window). */
  override dispose(): void {
    const network = this.running;
    this.running = undefined;
    void network?.close();
    super.dispose();
  }
}
