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

  constructor(
    /** At most this many documents are kept; the oldest are dropped (their tabs then show a note). */
    private readonly capacity = 200,
    /** How long a document shown again waits for the workbench to take its new text (documentCaughtUp). */
    private readonly updateWaitMs = DOCUMENT_UPDATE_WAIT_MS,
  ) {
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
    await documentCaughtUp(uri, () => this.contents.get(uri.toString()), this.updateWaitMs);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    return vscode.window.showTextDocument(doc, options);
  }
}

/** How long a virtual document shown again waits for the workbench to take its new text before it opens anyway (the view follows a later update). */
export const DOCUMENT_UPDATE_WAIT_MS = 5000;

/**
 * Resolves once no open document of `uri` holds other text than `wanted()` (the workbench has taken
 * the new text of a provider's document, or dropped the document), or after `waitMs`. A document shown
 * before may still be open (the workbench keeps a closed one a while): after its provider's change
 * event it takes the new text only after a round trip through the workbench; a view opened on it before
 * then shows the old text, for good in a Markdown preview if the workbench drops the document meanwhile
 * (no update is applied then).
 */
export function documentCaughtUp(uri: vscode.Uri, wanted: () => string | undefined, waitMs = DOCUMENT_UPDATE_WAIT_MS): Promise<void> {
  const key = uri.toString();
  const holdsOther = () => {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    const text = wanted();
    return open !== undefined && text !== undefined && lf(open.getText()) !== lf(text);
  };
  if (!holdsOther()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const s of subscriptions) s.dispose();
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    const subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => e.document.uri.toString() === key && !holdsOther() && done()),
      vscode.workspace.onDidCloseTextDocument((d) => d.uri.toString() === key && done()),
    ];
  });
}

/** The text with VS Code's end-of-line normalization undone. */
function lf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/** Path-safe: ids contain ':' and '#', which are fine in a path segment, but never '/'. */
function safeName(name: string): string {
  return name.replace(/[/\\?]/g, '_').slice(0, 180) || 'document';
}
