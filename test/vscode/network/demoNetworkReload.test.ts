// The demo network runs in the extension host, which a window reload ends. Against the fake VS Code
// API, with the state a reload keeps (global and workspace state, global storage): a network that ran
// comes back with the window, on the ports it had, its connections connected again; on new ports when
// one of its ports was taken meanwhile (the connections follow them); not at all once the user stopped
// it. The network is the built bundle (dist/participantNetwork.js), as the extension loads it.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CantonLedgerApi } from '../../../src/features';
import { Commands } from '../../../src/vscode/kit/ids';
import { DEMO_NETWORK_RAN_KEY } from '../../../src/vscode/deferred';
import { DEMO_NETWORK_PARTICIPANTS, demoNetworkConnectionId } from '../../../src/vscode/network/demoNetwork';
import { commands, MemoryMemento, Uri } from '../fake/vscode';
import { activateAllFeatures, type KeptState } from '../featureHost';

const ROOT = join(__dirname, '..', '..', '..');

/** Resolves once every participant of the window's demo network has a connected connection. */
function networkConnected(api: CantonLedgerApi): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const states = DEMO_NETWORK_PARTICIPANTS.map((name) => api.connections.connection(demoNetworkConnectionId(name))?.state);
      const failed = states.find((s) => s?.state === 'error');
      if (failed?.state === 'error') reject(failed.error);
      return states.every((s) => s?.state === 'connected');
    };
    if (check()) return resolve();
    const sub = api.connections.onDidChange(() => check() && (sub.dispose(), resolve()));
  });
}

const urls = (api: CantonLedgerApi) => DEMO_NETWORK_PARTICIPANTS.map((name) => api.connections.connection(demoNetworkConnectionId(name))?.profile.url);

describe('the demo network across a window reload', function () {
  this.timeout(60_000);
  let kept: KeptState;
  let storage: string;
  let window: ReturnType<typeof activateAllFeatures> | undefined;
  let squatter: Server | undefined;

  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'participantNetwork.js'))) {
      console.warn('!!! dist/participantNetwork.js is missing: run `npm run build` (the demo network is loaded from it)');
      this.skip();
    }
  });
  beforeEach(() => {
    storage = mkdtempSync(join(tmpdir(), 'network-reload-'));
    kept = { globalState: new MemoryMemento(), workspaceState: new MemoryMemento(), globalStorageUri: Uri.file(storage) };
  });
  afterEach(async () => {
    await window?.api.network.demoNetwork.stop();
    window?.dispose();
    window = undefined;
    await new Promise<void>((resolve) => (squatter ? squatter.close(() => resolve()) : resolve()));
    squatter = undefined;
    rmSync(storage, { recursive: true, force: true });
  });

  /** Closes the window as a reload does (what it registered disposed, the network closed), then opens it on the state kept. */
  async function reload(between?: () => Promise<void>): Promise<CantonLedgerApi> {
    window!.dispose();
    await window!.api.network.demoNetwork.whenStopped();
    await between?.();
    window = activateAllFeatures(kept);
    return window.api;
  }

  it('a running network comes back with the window: on the same ports, every connection connected, the same one active', async () => {
    window = activateAllFeatures(kept);
    await commands.executeCommand(Commands.startDemoNetwork);
    const before = urls(window.api);
    await window.api.connections.profiles.setActive(demoNetworkConnectionId('app-user'));
    assert.deepEqual(kept.workspaceState.get(DEMO_NETWORK_RAN_KEY), { ports: before.map((u) => Number(new URL(u!).port)) });

    const api = await reload();
    await networkConnected(api);
    assert.deepEqual(urls(api), before, 'the ports it had');
    assert.equal(api.connections.profiles.activeId(), demoNetworkConnectionId('app-user'));
    assert.equal(api.network.demoNetwork.network?.participant('app-user').url, before[1]);
  });

  it('a port taken meanwhile: the network starts on new ports, and its connections follow them', async () => {
    window = activateAllFeatures(kept);
    await commands.executeCommand(Commands.startDemoNetwork);
    const before = urls(window.api);
    const taken = Number(new URL(before[1]!).port);

    const api = await reload(async () => {
      squatter = createServer();
      await new Promise<void>((resolve, reject) => squatter!.once('error', reject).listen(taken, '127.0.0.1', () => resolve()));
    });
    await networkConnected(api);
    const after = urls(api);
    assert.ok(!after.includes(before[1]), `not on the taken port ${taken}: ${after.join(', ')}`);
    assert.deepEqual(after, api.network.demoNetwork.network!.participants.map((p) => p.url), 'each connection on its participant’s new URL');
    assert.deepEqual(kept.workspaceState.get(DEMO_NETWORK_RAN_KEY), { ports: after.map((u) => Number(new URL(u!).port)) }, 'the new ports kept for the next reload');
  });

  it('a network the user stopped stays stopped after a reload', async () => {
    window = activateAllFeatures(kept);
    await commands.executeCommand(Commands.startDemoNetwork);
    await commands.executeCommand(Commands.stopDemoNetwork);
    assert.equal(kept.workspaceState.get(DEMO_NETWORK_RAN_KEY), undefined);
    const api = await reload();
    assert.equal(api.network.demoNetwork.network, undefined);
    assert.equal(api.connections.profiles.get(demoNetworkConnectionId('app-provider')), undefined, 'no connection of the network');
  });
});
