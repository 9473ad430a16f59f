// Activates all of the features (src/features.ts) against the fake VS Code API, for the tests that
// check what the extension registers as a whole. The fake covers what the glue's units use; the few
// values that only loading every feature needs are added here.
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { EventEmitter, fake, MemoryMemento, Uri } from './fake/vscode';

const ROOT = join(__dirname, '..', '..');

/** Read when modules of the glue load (the code actions' metadata, the completion kinds). */
const additions: Record<string, unknown> = {
  CodeActionKind: { QuickFix: { value: 'quickfix' }, Refactor: { value: 'refactor' } },
  CompletionItemKind: new Proxy({}, { get: (_, name) => String(name) }),
};

export const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** A fresh fake window with every feature activated; dispose() disposes what activation registered, last first. */
export function activateAllFeatures(): { dispose(): void } {
  // On the module's own exports (what `import * as vscode` copies from when a module of the glue loads).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exports = require('vscode') as Record<string, unknown>;
  for (const [k, v] of Object.entries(additions)) if (!(k in exports)) Object.defineProperty(exports, k, { value: v, enumerable: true });
  fake.reset();
  const secrets = new Map<string, string>();
  const changed = new EventEmitter<{ key: string }>();
  const subscriptions: { dispose(): unknown }[] = [];
  // Loaded only now: its modules read the fake when they load.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { activateFeatures } = require('../../src/features') as typeof import('../../src/features');
  activateFeatures({
    subscriptions,
    extensionPath: ROOT,
    extension: { packageJSON: manifest },
    globalState: new MemoryMemento(),
    workspaceState: new MemoryMemento(),
    globalStorageUri: Uri.file(join(ROOT, '.vscode-test', 'unit-global-storage')),
    secrets: {
      get: async (k: string) => secrets.get(k),
      store: async (k: string, v: string) => void secrets.set(k, v),
      delete: async (k: string) => void secrets.delete(k),
      onDidChange: changed.event,
    },
  } as never);
  return { dispose: () => subscriptions.splice(0).reverse().forEach((s) => s.dispose()) };
}
