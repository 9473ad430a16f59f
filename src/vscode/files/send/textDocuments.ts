import * as vscode from 'vscode';
import { REPORT_SCHEME } from '../../schemes';
import { resultColumn } from './sourceFile';

export { REPORT_SCHEME } from '../../schemes';

/**
 * Read-only Markdown documents held in memory, like JsonDocuments for JSON: a stable path per report,
 * so running the same file again refreshes its tab.
 */
export class MarkdownReports implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this);

  constructor(private readonly capacity = 50) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '_This report is no longer available: run it again._\n';
  }

  async show(name: string, markdown: string): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${name.replace(/[/\\?#]/g, '_')}.md` });
    const key = uri.toString();
    this.contents.delete(key);
    this.contents.set(key, markdown);
    // Map keeps insertion order: the first keys are the oldest.
    while (this.contents.size > this.capacity) this.contents.delete(this.contents.keys().next().value!);
    this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
    return vscode.window.showTextDocument(doc, { preview: true, viewColumn: resultColumn(), preserveFocus: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.contents.clear();
  }
}
