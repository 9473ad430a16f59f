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

/** A syntax error of VS Code's own JSON support (the extension leaves those to it). */
export function isJsonSyntaxError(d: vscode.Diagnostic): boolean {
  return d.source === 'json' && d.severity === vscode.DiagnosticSeverity.Error;
}

/**
 * What the editor shows for a commands or vetting file: our diagnostics, and VS Code's JSON syntax
 * errors, which stand for the core's `json-syntax` problems (shown once, by VS Code) and get that code here.
 */
export function editorDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  const syntax = vscode.languages.getDiagnostics(uri).filter(isJsonSyntaxError);
  return [...ourDiagnostics(uri), ...syntax.map((d) => Object.assign(new vscode.Diagnostic(d.range, d.message, d.severity), { source: d.source, code: 'json-syntax' }))];
}

/** Polls until `fn` returns something other than undefined. */
export function waitForValue<T>(fn: () => T | undefined | Promise<T | undefined>, options: { timeoutMs?: number; what?: string } = {}): Promise<T> {
  return waitFor(fn, options) as Promise<T>;
}
