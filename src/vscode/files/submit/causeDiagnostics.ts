import vscode = require('vscode');
import type { CantonFailure } from '../../../core/cantonFailure';
import { locateCause, type CauseLocation } from '../../../core/errorCauses';
import { Disposable } from '../../kit/lifecycle';

/**
 * The cause of a rejected command, marked in its file as an error diagnostic with the Canton code
 * (the core's cause table decides where). It stays until the file changes or is sent again.
 */
export class CauseDiagnostics extends Disposable {
  private readonly collection = this._register(vscode.languages.createDiagnosticCollection('canton-rejections'));

  constructor() {
    super();
    this._register(
      vscode.workspace.onDidChangeTextDocument((e) => this.collection.delete(e.document.uri)),
    );
  }

  /** Marks `failure`'s cause in the file; the range and what was marked, or undefined when the text is not a JSON object. */
  async mark(uri: vscode.Uri, failure: CantonFailure): Promise<{ range: vscode.Range; at: CauseLocation } | undefined> {
    const document = await vscode.workspace.openTextDocument(uri);
    const at = locateCause(failure, document.getText());
    if (!at) return undefined;
    const range = new vscode.Range(document.positionAt(at.offset), document.positionAt(at.offset + at.length));
    const diagnostic = new vscode.Diagnostic(range, `${failure.code ?? 'Rejected'}: ${failure.cause}`, vscode.DiagnosticSeverity.Error);
    diagnostic.code = failure.code;
    diagnostic.source = 'Canton';
    this.collection.set(uri, [diagnostic]);
    return { range, at };
  }

  clear(uri: vscode.Uri): void {
    this.collection.delete(uri);
  }

  /** The marks of a file (for tests and the view). */
  of(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }
}
