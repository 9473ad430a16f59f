import vscode = require('vscode');
import type { Problem } from '../../core/files/problems';
import { toDiagnostic } from '../files/editing/diagnostics';
import { Disposable } from '../kit/lifecycle';

/**
 * Diagnostics of a verdict on a file's text as it was when judged (a pre-flight, a dry run across the
 * network), in their own collection: an edit makes the verdict stale, so they go when the text changes
 * (a save, which fires with the same text, keeps them) or the file closes.
 */
export class JudgedDiagnostics extends Disposable {
  private readonly collection: vscode.DiagnosticCollection;
  /** The version of each open document its diagnostics were made on. */
  private readonly judgedVersions = new Map<string, number>();

  constructor(name: string) {
    super();
    this.collection = this._register(vscode.languages.createDiagnosticCollection(name));
    this._register(vscode.workspace.onDidChangeTextDocument((e) => this.judgedVersions.get(e.document.uri.toString()) !== e.document.version && this.clear(e.document.uri)));
    this._register(vscode.workspace.onDidCloseTextDocument((d) => this.clear(d.uri)));
  }

  /** Marks `problems` in the file (none: clears it), made on `version` of the open document. */
  set(uri: vscode.Uri, problems: readonly Problem[], version: number | undefined): void {
    if (problems.length === 0) return this.clear(uri);
    this.collection.set(uri, problems.map(toDiagnostic));
    if (version !== undefined) this.judgedVersions.set(uri.toString(), version);
  }

  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  clear(uri: vscode.Uri): void {
    this.collection.delete(uri);
    this.judgedVersions.delete(uri.toString());
  }
}

/** The version of the open document at `uri` (undefined when it is not open). */
export function openVersion(uri: vscode.Uri): number | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.version;
}
