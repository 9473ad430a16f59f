import vscode = require('vscode');
import { commandIdSite, newCommandIdEdit } from '../../../core/files/commandId';
import type { SubmissionRecord } from '../../../core/submit/history';
import { Disposable } from '../../kit/lifecycle';
import { DIAGNOSTIC_SOURCE, editableFileKind } from '../editing/diagnostics';
import type { SubmissionHistory } from './history';
import { applyJsonEdits } from './sourceFile';

/** The code of the diagnostic on a commandId the participant answered "already executed" for. */
export const ALREADY_EXECUTED_CODE = 'command-id-already-executed';
export const NEW_COMMAND_ID_TITLE = 'Use a new commandId';

/**
 * Gives the file a fresh commandId as one undoable edit of the id alone. A file that was saved is saved
 * again, so that what is sent next is what is on disk. The new id; undefined when the file has no
 * commandId to replace.
 */
export async function useNewCommandId(uri: vscode.Uri): Promise<string | undefined> {
  const document = await vscode.workspace.openTextDocument(uri);
  const renewed = newCommandIdEdit(document.getText());
  if (!renewed) return undefined;
  const wasSaved = !document.isDirty && document.uri.scheme !== 'untitled';
  const { offset, length, newText } = renewed.edit;
  if (!(await applyJsonEdits(uri, [{ offset, length, content: newText }]))) return undefined;
  if (wasSaved) await document.save();
  return renewed.commandId;
}

/**
 * The commandId of a commands file after the participant answered "already executed" for it: a
 * diagnostic on the id (the answer stays in sight after its message is gone) with the quick fix "Use a
 * new commandId". The same edit is offered as a rewrite on the commandId at any time.
 */
export class CommandIdAssist extends Disposable implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix, vscode.CodeActionKind.RefactorRewrite] };
  private readonly collection = this._register(vscode.languages.createDiagnosticCollection('canton-ledger-command-ids'));

  constructor(private readonly history: SubmissionHistory) {
    super();
    this._registerAll(
      history.onDidChange(() => vscode.workspace.textDocuments.forEach((d) => this.update(d))),
      vscode.workspace.onDidOpenTextDocument((d) => this.update(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.update(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.collection.delete(d.uri)),
    );
    vscode.workspace.textDocuments.forEach((d) => this.update(d));
  }

  /** The diagnostics shown for a document (tests). */
  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  private update(document: vscode.TextDocument): void {
    if (editableFileKind(document) !== 'commands') return;
    // The text is parsed only for a file the participant answered "already executed" for.
    const answered = this.alreadyExecuted(document.uri);
    const site = answered.length > 0 ? commandIdSite(document.getText()) : undefined;
    const record = site && answered.find((r) => r.commandId === site.commandId);
    if (!site || !record) {
      this.collection.delete(document.uri);
      return;
    }
    const diagnostic = new vscode.Diagnostic(
      siteRange(document, site),
      `commandId "${site.commandId}" was already executed on ${record.connectionName}: submitted again, the commands do not run again (deduplication). Use a new commandId to run them once more.`,
      vscode.DiagnosticSeverity.Information,
    );
    diagnostic.source = DIAGNOSTIC_SOURCE;
    diagnostic.code = ALREADY_EXECUTED_CODE;
    this.collection.set(document.uri, [diagnostic]);
  }

  /** The participant's "already executed" answers for this file, as the history keeps them. */
  private alreadyExecuted(uri: vscode.Uri): SubmissionRecord[] {
    const file = uri.toString();
    return this.history.all().filter((r) => r.outcome === 'duplicate' && r.fileUri === file);
  }

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (editableFileKind(document) !== 'commands') return [];
    const text = document.getText();
    const site = commandIdSite(text);
    const renewed = newCommandIdEdit(text);
    if (!site || !renewed) return [];
    const diagnostics = context.diagnostics.filter((d) => d.code === ALREADY_EXECUTED_CODE);
    const onSite = document.offsetAt(range.start) <= site.offset + site.length && document.offsetAt(range.end) >= site.offset;
    if (diagnostics.length === 0 && !onSite) return [];
    const kind = diagnostics.length > 0 ? vscode.CodeActionKind.QuickFix : vscode.CodeActionKind.RefactorRewrite;
    if (context.only && !kind.intersects(context.only)) return [];
    const action = new vscode.CodeAction(NEW_COMMAND_ID_TITLE, kind);
    if (diagnostics.length > 0) {
      action.diagnostics = diagnostics;
      action.isPreferred = true;
    }
    action.edit = new vscode.WorkspaceEdit();
    action.edit.replace(document.uri, siteRange(document, site), renewed.edit.newText);
    return [action];
  }
}

function siteRange(document: vscode.TextDocument, site: { offset: number; length: number }): vscode.Range {
  return new vscode.Range(document.positionAt(site.offset), document.positionAt(site.offset + site.length));
}
