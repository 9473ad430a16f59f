import vscode = require('vscode');
import { Disposable, toDisposable } from './lifecycle';
import { DOCUMENT_SCHEME } from './schemes';

export { DOCUMENT_SCHEME } from './schemes';

/**
 * Read-only, formatted JSON documents held in memory (virtual documents, never temp files). Each
 * document has a stable path, so showing the same thing again reuses its editor tab and refreshes it.
 */
export class JsonDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly order: string[] = [];
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  /** At most this many documents are kept; the oldest are dropped (their tabs then show a note). */
  constructor(private readonly capacity = 200) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(DOCUMENT_SCHEME, this));
    this._register(toDisposable(() => this.contents.clear()));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '// This document is no longer available: open it again from its view.\n';
  }

  /**
   * The URI of a document named `name` (shown as the tab title, `.json` added) under `folder`, with
   * `value` as formatted JSON. `folder` keeps names of different kinds apart ("updates", "events", …).
   */
  put(folder: string, name: string, value: unknown): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: DOCUMENT_SCHEME, path: `/${folder}/${safeName(name)}.json` });
    const key = uri.toString();
    if (!this.contents.has(key)) {
      this.order.push(key);
      while (this.order.length > this.capacity) this.contents.delete(this.order.shift()!);
    }
    this.contents.set(key, JSON.stringify(value, null, 2) + '\n');
    this.changed.fire(uri);
    return uri;
  }

  /** Puts the document and opens it in a (preview) editor tab, read-only, with JSON highlighting. */
  async show(folder: string, name: string, value: unknown, options: vscode.TextDocumentShowOptions = { preview: true }): Promise<vscode.TextEditor> {
    const uri = this.put(folder, name, value);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    return vscode.window.showTextDocument(doc, options);
  }
}

/** Path-safe: ids contain ':' and '#', which are fine in a path segment, but never '/'. */
function safeName(name: string): string {
  return name.replace(/[/\\?]/g, '_').slice(0, 180) || 'document';
}
