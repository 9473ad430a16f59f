import vscode = require('vscode');
import * as path from 'node:path';
import type { ConnectionProfile } from '../../core/connections';
import type { Logger } from '../../core/log';
import type { ConnectionManager } from '../connections/manager';
import { Disposable } from '../kit/lifecycle';
import { DEMO_SEED } from '../kit/demo';
import { DemoLifecycle } from '../kit/demoLifecycle';
import { DEMO_NETWORK_RAN_KEY } from '../deferred';

type NetworkModule = typeof import('../../participant/network/index');
type DemoNetwork = Awaited<ReturnType<NetworkModule['startDemoNetwork']>>;

/** The participants of the editor's demo network: LocalNet's (`canton-ledger participant --network`'s default). */
export const DEMO_NETWORK_PARTICIPANTS = ['app-provider', 'app-user', 'sv'] as const;
/** Each participant's seeded admin user (no auth: the profile's user id is used). */
const DEMO_NETWORK_USER = 'demo-admin';
/** The profile id of a demo network participant: the same for every run, so a restart reuses the rows and views that named it. */
export const demoNetworkConnectionId = (participant: string) => `demo-network:${participant}`;
const RUNNING_CONTEXT = 'cantonLedger.demoNetworkRunning';

/** What the window keeps of a run of the demo network: each participant's port, in the network's order. */
interface KeptRun {
  ports: number[];
}

/**
 * Runs the demo network (several demo participants on one synchronizer, shaped like Canton's
 * LocalNet) in the extension host, on free loopback ports (so it never takes the single demo's or a
 * test's port), and offers one connection per participant while it runs. Its code is a bundle of its
 * own (dist/participantNetwork.js), loaded on first start only. Its ledger lives in memory; a window
 * reload ends it, and the window remembers that it ran (until the user stops it) so that it starts
 * again, from its seed, on the ports it had when they are free (else on new ones, the connections
 * following them).
 */
export class DemoNetworkController extends Disposable {
  private readonly lifecycle: DemoLifecycle<DemoNetwork>;

  constructor(
    private readonly manager: ConnectionManager,
    private readonly logger: Logger,
    /** Where dist/ is: the bundle is required by a computed path, so esbuild does not inline it. */
    private readonly extensionPath: string,
    /** Where the window remembers that the network ran (the workspace state). */
    windowState?: vscode.Memento,
    private readonly load: () => NetworkModule = () => require(path.join(this.extensionPath, 'dist', 'participantNetwork.js')),
  ) {
    super();
    this.lifecycle = new DemoLifecycle<DemoNetwork>(
      {
        launch: () => this.launch(),
        setUp: (network) => this.setUp(network),
        shutDown: (network, userStop) => this.shutDown(network, userStop),
        remember: (network): KeptRun => ({ ports: network.participants.map((p) => Number(new URL(p.url).port)) }),
      },
      windowState,
      DEMO_NETWORK_RAN_KEY,
    );
  }

  get network(): DemoNetwork | undefined {
    return this.lifecycle.current;
  }

  /** True when the network ran in this window when the window last closed or reloaded (and was not stopped). */
  get ranWhenClosed(): boolean {
    return this.lifecycle.ranWhenClosed !== undefined;
  }

  /** Starts the network (once: a second start while it runs or starts is the same one) and sets up its connections. */
  start(): Promise<DemoNetwork> {
    return this.lifecycle.start();
  }

  private async launch(): Promise<DemoNetwork> {
    const kept = this.lifecycle.ranWhenClosed as Partial<KeptRun> | undefined;
    return this.startOn(Array.isArray(kept?.ports) ? kept.ports : undefined);
  }

  /** The connections of its participants; the first made the active one when none is in use. */
  private async setUp(network: DemoNetwork): Promise<void> {
    const profiles: ConnectionProfile[] = network.participants.map((p) => ({
      id: demoNetworkConnectionId(p.name),
      name: p.name,
      url: p.url,
      auth: 'none',
      userId: DEMO_NETWORK_USER,
      source: 'demoNetwork',
    }));
    this.manager.profiles.setDemoNetwork(profiles);
    // The first participant becomes the active one only when no other connection is in use; after a
    // reload, the participant that was active stays so.
    const activeIsOwn = profiles.some((p) => p.id === this.manager.profiles.activeId());
    if (!activeIsOwn && !this.manager.activeConnected()) await this.manager.profiles.setActive(profiles[0].id);
    await vscode.commands.executeCommand('setContext', RUNNING_CONTEXT, true);
    this.logger.info(`Demo network (a simulator: no Daml interpretation) listening: ${network.participants.map((p) => `${p.name} ${p.url}`).join(', ')}`);
  }

  /** On the ports of the run before a reload when they are free, else (or without them) on free ones. */
  private async startOn(ports: readonly number[] | undefined): Promise<DemoNetwork> {
    const start = (on: readonly number[] | undefined) =>
      this.load().startDemoNetwork({
        participants: DEMO_NETWORK_PARTICIPANTS,
        port: 0,
        ports: on,
        seed: DEMO_SEED,
        logger: (line: string) => this.logger.info(`[demo network] ${line}`),
      });
    if (!ports) return start(undefined);
    try {
      return await start(ports);
    } catch (e) {
      if ((e as NodeJS.ErrnoException)?.code !== 'EADDRINUSE') throw e;
      this.logger.info(`Demo network: its ports before the reload (${ports.join(', ')}) are not all free: it starts on new ones`);
      return start(undefined);
    }
  }

  /** The connections of the running network's participants, in the network's order. */
  connections() {
    return (this.network?.participants ?? []).flatMap((p) => this.manager.connection(demoNetworkConnectionId(p.name)) ?? []);
  }

  /** Stops the network: its connections are dropped, then its participants closed; the window forgets it. */
  stop(): Promise<void> {
    return this.lifecycle.stop();
  }

  /** Resolves once a stop in progress (also the one of dispose) has finished. */
  whenStopped(): Promise<void> {
    return this.lifecycle.whenStopped();
  }

  /** `userStop`: its participant is no longer the active connection; a window closing keeps it, for its return. */
  private async shutDown(network: DemoNetwork, userStop: boolean): Promise<void> {
    const ids = network.participants.map((p) => demoNetworkConnectionId(p.name));
    for (const id of ids) {
      const connection = this.manager.connection(id);
      if (connection) this.manager.disconnect(connection);
    }
    const wasActive = ids.includes(this.manager.profiles.activeId() ?? '');
    this.manager.profiles.setDemoNetwork([]);
    if (userStop && wasActive) await this.manager.profiles.setActive(undefined);
    try {
      await network.close();
    } finally {
      await vscode.commands.executeCommand('setContext', RUNNING_CONTEXT, false);
    }
    this.logger.info('Demo network stopped');
  }

  /** The window closes or reloads: the participants close; the window remembers the network ran. */
  override dispose(): void {
    void this.lifecycle.halt(false);
    super.dispose();
  }
}
