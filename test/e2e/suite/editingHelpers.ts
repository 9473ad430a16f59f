// Shared by the editing*.test.ts suites (in-host).
import * as vscode from 'vscode';
import { waitFor } from './helpers';

/** The `source` of the extension's diagnostics for commands and vetting files. */
export const SOURCE = 'Canton Ledger';

/** The note that Daml arguments were not checked (no packages): the daml suite checks it. */
export const ARGUMENTS_UNCHECKED = 'arguments-unchecked';

/** Our diagnostics of a document (not those of VS Code's own JSON support), without the arguments-unchecked note. */
export function ourDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE && d.code !== ARGUMENTS_UNCHECKED);
}

/** Polls until `fn` returns something other than undefined. */
export function waitForValue<T>(fn: () => T | undefined | Promise<T | undefined>, options: { timeoutMs?: number; what?: string } = {}): Promise<T> {
  return waitFor(fn, options) as Promise<T>;
}
