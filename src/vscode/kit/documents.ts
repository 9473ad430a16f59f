import vscode = require('vscode');
import { Disposable, toDisposable } from './lifecycle';
import { DOCUMENT_SCHEME } from './schemes';

export { DOCUMENT_SCHEME } from './schemes';

/** How long a document shown again waits for the workbench to take its new text before it opens anyway (the view follows a later update). */
const DOCUMENT_UPDATE_WAIT_MS = 5000;

/**
 * Read-only documents held in memory under one scheme (virtual documents, never temp files), each at a
 * stable path, so that showing the same thing again refreshes its tab. At most `capacity` are kept: the
 * one put longest ago goes first (its tab then shows `missing`).
 */
export class MemoryDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;

  constructor(
    protected readonly scheme: string,
    private readonly capacity: number,
    /** What a document no longer kept reads. */
    private readonly missing: string,
    /** How long a document shown again waits for the workbench to take its new text (caughtUp). */
    private readonly updateWaitMs = DOCUMENT_UPDATE_WAIT_MS,
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(scheme, this));
    this._register(toDisposable(() => this.contents.clear()));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? this.missing;
  }

  /** Puts `text` at `uri` (the newest) and tells the workbench, which refreshes an open tab of it. */
  protected putText(uri: vscode.Uri, text: string): void {
    const key = uri.toString();
    this.contents.delete(key);
    this.contents.set(key, text);
    // Map keeps insertion order: the first keys are the oldest.
    while (this.contents.size > this.capacity) this.contents.delete(this.contents.keys().next().value!);
    this.changed.fire(uri);
  }

  /**
   * Resolves once no open document of `uri` holds other text than the one put there (the workbench has
   * taken it, or dropped the document), or after `updateWaitMs`. A document shown before may still be open
   * (the workbench keeps a closed one a while): after the change event it takes the new text only after a
   * round trip through the workbench; a view opened on it before then shows the old text, for good in a
   * Markdown preview if the workbench drops the document meanwhile (no update is applied then).
   */
  protected caughtUp(uri: vscode.Uri): Promise<void> {
    const key = uri.toString();
    const current = (document: vscode.TextDocument) => {
      const text = this.contents.get(key);
      return text === undefined || lf(document.getText()) === lf(text);
    };
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    if (!open || current(open)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        for (const s of subscriptions) s.dispose();
        resolve();
      };
      const timer = setTimeout(done, this.updateWaitMs);
      const subscriptions = [
        vscode.workspace.onDidChangeTextDocument((e) => e.document.uri.toString() === key && current(e.document) && done()),
        vscode.workspace.onDidCloseTextDocument((d) => d.uri.toString() === key && done()),
      ];
    });
  }
}

/** Formatted JSON documents (an update, a contract, a result), under `cantonledger-doc:`. */
export class JsonDocuments extends MemoryDocuments {
  /** At most `capacity` documents are kept. */
  constructor(capacity = 200, updateWaitMs?: number) {
    super(DOCUMENT_SCHEME, capacity, '// This document is no longer available: open it again from its view.\n', updateWaitMs);
  }

  /**
   * The URI of a document named `name` (shown as the tab title, `.json` added) under `folder`, with
   * `value` as formatted JSON. `folder` keeps names of different kinds apart ("updates", "events", …).
   */
  put(folder: string, name: string, value: unknown): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${folder}/${safeName(name)}.json` });
    this.putText(uri, JSON.stringify(value, null, 2) + '\n');
    return uri;
  }

  /** Puts the document and opens it in a (preview) editor tab, read-only, with JSON highlighting. */
  async show(folder: string, name: string, value: unknown, options: vscode.TextDocumentShowOptions = { preview: true }): Promise<vscode.TextEditor> {
    const uri = this.put(folder, name, value);
    await this.caughtUp(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    return vscode.window.showTextDocument(doc, options);
  }
}

/** The text with VS Code's end-of-line normalization undone. */
function lf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/** Path-safe: ids contain ':' and '#', which are fine in a path segment, but never '/'. */
function safeName(name: string): string {
  return name.replace(/[/\\?]/g, '_').slice(0, 180) || 'document';
}
