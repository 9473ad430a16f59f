// The demo participant runs in the extension host, which a window reload ends. Against the fake VS Code
// API, with the state a reload keeps (global and workspace state, global storage): a demo that ran
// comes back with the window, connected and active, on the ledger it saved; one the user stopped does
// not. The participant is the built bundle (dist/participant.js), as the extension loads it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { submissionOf, type CommandsFileValue } from '../../src/core/submit/submission';
import type { CantonLedgerApi } from '../../src/features';
import { Commands } from '../../src/vscode/kit/ids';
import { DEMO_CONNECTION_ID } from '../../src/vscode/kit/demo';
import { commands, MemoryMemento, Uri } from './fake/vscode';
import { activateAllFeatures, type KeptState } from './featureHost';

const ROOT = join(__dirname, '..', '..');
const EXAMPLE = join(ROOT, 'examples', 'demo-workspace', 'iou-create.commands.json');

/** A workspace state whose next update is stored at once (as VS Code's is) but written (resolved) only when released. */
class HeldMemento extends MemoryMemento {
  holdNext = false;
  private readonly held: Array<() => void> = [];
  override update(key: string, value: unknown): Promise<void> {
    const stored = super.update(key, value);
    if (!this.holdNext) return stored;
    this.holdNext = false;
    return new Promise((resolve) => this.held.push(() => resolve(stored)));
  }
  release(): void {
    this.held.splice(0).forEach((written) => written());
  }
}

/** Resolves once the window's demo connection is connected (the window starts it by itself). */
function demoConnected(api: CantonLedgerApi): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const s = api.connections.connection(DEMO_CONNECTION_ID)?.state;
      if (s?.state === 'connected') return true;
      if (s?.state === 'error') reject(s.error);
      return false;
    };
    if (check()) return resolve();
    const sub = api.connections.onDidChange(() => check() && (sub.dispose(), resolve()));
  });
}

describe('the demo connection across a window reload', function () {
  this.timeout(60_000);
  let kept: KeptState;
  let storage: string;
  let window: ReturnType<typeof activateAllFeatures> | undefined;

  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'participant.js'))) {
      console.warn('!!! dist/participant.js is missing: run `npm run build` (the demo participant is loaded from it)');
      this.skip();
    }
  });
  beforeEach(() => {
    storage = mkdtempSync(join(tmpdir(), 'demo-reload-'));
    kept = { globalState: new MemoryMemento(), workspaceState: new MemoryMemento(), globalStorageUri: Uri.file(storage) };
  });
  afterEach(async () => {
    window?.dispose();
    await window?.api.demo.whenStopped();
    window = undefined;
    rmSync(storage, { recursive: true, force: true });
  });

  /** Closes the window as a reload does: what it registered is disposed; the demo saves its ledger. */
  async function reload(): Promise<CantonLedgerApi> {
    window!.dispose();
    await window!.api.demo.whenStopped();
    window = activateAllFeatures(kept);
    return window.api;
  }

  it('a running demo comes back with the window: connected, active, on the ledger it kept', async () => {
    window = activateAllFeatures(kept);
    await commands.executeCommand(Commands.startDemo);
    const first = window.api;
    assert.equal(first.connections.connection(DEMO_CONNECTION_ID)?.state.state, 'connected');
    const request = submissionOf({ ...(JSON.parse(readFileSync(EXAMPLE, 'utf8')) as object), commandId: `reload-${randomUUID()}` } as CommandsFileValue).request;
    const written = await first.connections.connection(DEMO_CONNECTION_ID)!.client.submitAndWaitForTransaction(request);

    const api = await reload();
    await demoConnected(api);
    assert.equal(api.connections.profiles.active()?.id, DEMO_CONNECTION_ID, 'the active connection again');
    assert.equal(api.connections.connection(DEMO_CONNECTION_ID)?.ledger?.ledgerEnd, written.transaction.offset, 'the ledger it kept, up to the write before the reload');
  });

  it('a start right after a stop (not awaited): a new participant, and the window remembers the start', async () => {
    const workspaceState = new HeldMemento();
    kept.workspaceState = workspaceState;
    window = activateAllFeatures(kept);
    await commands.executeCommand(Commands.startDemo);
    const before = window.api.demo.participant;
    // The stop's note in the workspace state is still being written when the start comes.
    workspaceState.holdNext = true;
    const stopping = commands.executeCommand(Commands.stopDemo);
    await commands.executeCommand(Commands.startDemo);
    workspaceState.release();
    await stopping;
    assert.ok(window.api.demo.participant && window.api.demo.participant !== before, 'a new participant runs');
    const api = await reload();
    await demoConnected(api);
  });

  it('a demo the user stopped stays stopped after a reload', async () => {
    window = activateAllFeatures(kept);
    await commands.executeCommand(Commands.startDemo);
    await commands.executeCommand(Commands.stopDemo);
    const api = await reload();
    assert.equal(api.demo.participant, undefined);
    assert.equal(api.connections.profiles.get(DEMO_CONNECTION_ID), undefined, 'no Demo connection');
  });
});
