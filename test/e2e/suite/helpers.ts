// Helpers for in-host e2e suites (they run inside the extension host, with the real `vscode` API).
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
// Bundled at compile time: the manifest the extension is built from.
import manifest from '../../../package.json';

/** `publisher.name` from package.json: canton-ledger-explorer.canton-ledger-explorer. */
export const EXTENSION_ID = `${manifest.publisher}.${manifest.name}`;

/** The extension under test; fails the test when VS Code does not know it. */
export function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) {
    const ids = vscode.extensions.all.filter((e) => !e.id.startsWith('vscode.')).map((e) => e.id);
    throw new Error(`extension ${EXTENSION_ID} is not loaded (non-builtin extensions: ${ids.join(', ') || 'none'})`);
  }
  return ext;
}

/** Activates the extension and returns whatever `activate()` returned (its test API). */
export async function activate<T = unknown>(): Promise<T> {
  return (await extension().activate()) as T;
}

/**
 * Registers a token/secret that this test hands to the extension, for the secret scan that runs after
 * all e2e tests: the scan fails if the value appears in any file of the run dir (settings, logs, state
 * databases, the browser profile, ...). Returns the value, so `const t = registerSecret('...')` reads well.
 * Use values of at least 6 characters, unique to the test (e.g. with a random part).
 */
export function registerSecret(value: string): string {
  if (value.length < 6) throw new Error('registerSecret: use a secret of at least 6 characters');
  const dir = process.env.E2E_RUN_DIR;
  if (dir) fs.appendFileSync(path.join(dir, 'secrets-used.txt'), JSON.stringify(value) + '\n');
  return value;
}

/** A unique, scan-friendly secret: `prefix-<random>`. Registered already. */
export function newSecret(prefix = 'e2e-secret'): string {
  return registerSecret(`${prefix}-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`);
}

/** The first workspace folder (the run's temp workspace with demo.commands.json and other.json). */
export function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder open');
  return folder.uri.fsPath;
}

/**
 * A deadline of `ms` on a desk, scaled for this machine: a loaded 2-core CI machine answers several
 * times slower (CANTON_E2E_TIME_SCALE, default 3 under CI, else 1; the UI checks scale theirs alike).
 */
export function scaled(ms: number): number {
  return Math.round(ms * (Number(process.env.CANTON_E2E_TIME_SCALE) || (process.env.CI ? 3 : 1)));
}

/** Polls `fn` until it returns a truthy value (or throws after `timeoutMs`, scaled for the machine). */
export async function waitFor<T>(fn: () => T | Promise<T>, { timeoutMs = 10000, intervalMs = 100, what = 'condition' } = {}): Promise<T> {
  timeoutMs = scaled(timeoutMs);
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
