// Activates all of the features (src/features.ts) against the fake VS Code API, for the tests that
// check what the extension registers as a whole.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../src/features';
import { EventEmitter, fake, MemoryMemento, Uri } from './fake/vscode';

const ROOT = join(__dirname, '..', '..');

export const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** What outlives a window (a reload keeps it): its global and workspace state, its global storage. */
export interface KeptState {
  globalState: MemoryMemento;
  workspaceState: MemoryMemento;
  globalStorageUri: Uri;
}

/** VS Code's SecretStorage in memory: each store and delete fires a change, as VS Code's does. */
export function memorySecrets(): vscode.SecretStorage {
  const values = new Map<string, string>();
  const changed = new EventEmitter<vscode.SecretStorageChangeEvent>();
  return {
    get: async (key: string) => values.get(key),
    store: async (key: string, value: string) => void (values.set(key, value), changed.fire({ key })),
    delete: async (key: string) => void (values.delete(key), changed.fire({ key })),
    keys: async () => [...values.keys()],
    onDidChange: changed.event,
  } as unknown as vscode.SecretStorage;
}

/** An extension context over the fake (secrets in memory; `kept` as a reloaded window's). */
export function fakeExtensionContext(subscriptions: { dispose(): unknown }[], kept?: KeptState): never {
  return {
    subscriptions,
    extensionPath: ROOT,
    extension: { packageJSON: manifest },
    globalState: kept?.globalState ?? new MemoryMemento(),
    workspaceState: kept?.workspaceState ?? new MemoryMemento(),
    globalStorageUri: kept?.globalStorageUri ?? Uri.file(join(ROOT, '.vscode-test', 'unit-global-storage')),
    secrets: memorySecrets(),
  } as never;
}

/**
 * A fresh fake window with every feature activated (on `kept` state, as a reloaded window); dispose()
 * disposes what activation registered, last first, as a window closing does.
 */
export function activateAllFeatures(kept?: KeptState): { api: CantonLedgerApi; dispose(): void } {
  fake.reset();
  const subscriptions: { dispose(): unknown }[] = [];
  // Loaded only now: its modules read the fake when they load.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { activateFeatures } = require('../../src/features') as typeof import('../../src/features');
  const { api } = activateFeatures(fakeExtensionContext(subscriptions, kept));
  return { api, dispose: () => subscriptions.splice(0).reverse().forEach((s) => s.dispose()) };
}

/** For a suite that reads what activation registered: every feature active from before its first test until after its last (then a fresh window). */
export function activateAllFeaturesForSuite(): { dispose(): void } {
  let features: { dispose(): void } | undefined;
  before(() => {
    features = activateAllFeatures();
  });
  after(() => {
    features?.dispose();
    fake.reset();
  });
  // Disposing twice is harmless: the second time there is nothing left.
  return { dispose: () => features?.dispose() };
}
