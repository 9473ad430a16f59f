/**
 * The one way the glue shows a webview page (after vscode-pull-request-github's `WebviewBase`): a page
 * is a script bundle `dist/webview/<name>.js` (from `src/webview/<name>/main.ts`) and a style sheet
 * `media/<name>/<name>.css`, written into a panel under a strict Content-Security-Policy (nothing from
 * the network, the script by a nonce made for each load, no inline script or style), able to read only
 * those two folders. Panels are found by key (reveal-or-create); a page says "ready" once it listens,
 * and the host then sends what it last showed again (a message posted while the page was starting can
 * be lost); a panel VS Code restores after a reload is adopted by the same code (the serializer's side).
 * Colours are the theme's (`--vscode-*` variables, in the page's style sheet). Every listener is
 * disposed with its panel, and every panel with the host.
 */
import vscode = require('vscode');
import { randomBytes } from 'node:crypto';
import { Disposable, disposeAll, toDisposable } from './lifecycle';

/** A kind of page: its panels' view type and its files (`dist/webview/<name>.js`, `media/<name>/<name>.css`). */
export interface WebviewPage {
  readonly viewType: string;
  readonly name: string;
  /** VS Code's find widget (Ctrl+F) over the page. */
  readonly findWidget?: boolean;
}

/** Every message has a type; a page's `{ type: 'ready' }` is the host's own (it never reaches the handler). */
export interface PageMessage {
  readonly type: string;
}

/** What a page is written with. */
export interface PageContent {
  title: string;
  /** Data the page reads before any message (its `#app` element's `data-initial`, JSON). */
  initial?: unknown;
}

/** The message every page sends once its listener is in place. */
export const READY: PageMessage = { type: 'ready' };

/**
 * One panel showing one page. `show` says what the page shows (sent now, and again when the page says
 * it is ready); `notify` sends a passing note that is not sent again. `data` is what its owner keeps
 * beside the panel.
 */
export class PagePanel<ToPage extends PageMessage, FromPage extends PageMessage, Data> extends Disposable {
  private shown: ToPage | undefined;
  private readonly disposed = this._register(new vscode.EventEmitter<void>());
  /** The panel closed (or the host went): its listeners are gone. */
  readonly onDidDispose = this.disposed.event;

  constructor(
    readonly key: string,
    readonly panel: vscode.WebviewPanel,
    readonly data: Data,
    onMessage: (panel: PagePanel<ToPage, FromPage, Data>, message: FromPage) => unknown,
  ) {
    super();
    this._register(
      panel.webview.onDidReceiveMessage((m: FromPage) => {
        if (m?.type === READY.type) this.sendAgain();
        else void onMessage(this, m);
      }),
    );
    this._register(panel.onDidDispose(() => this.dispose()));
    this._register(toDisposable(() => panel.dispose()));
  }

  /** What the page shows from now on: sent, and sent again whenever the page says it is ready. */
  show(message: ToPage): void {
    this.shown = message;
    void this.panel.webview.postMessage(message);
  }

  /** The page listens now: what it shows is sent once more (a message posted while it started may be lost). */
  private sendAgain(): void {
    if (this.shown) void this.panel.webview.postMessage(this.shown);
  }

  /** A passing note (not what the page shows): not sent again. */
  notify(message: ToPage): void {
    void this.panel.webview.postMessage(message);
  }

  /** What `show` last sent, if anything. */
  get showing(): ToPage | undefined {
    return this.shown;
  }

  override dispose(): void {
    if (this.isDisposed) return;
    // Fired before the registrations go, so that listeners learn of it; then the panel itself goes.
    this.disposed.fire();
    super.dispose();
  }
}

/** The panels of one kind of page, by key. */
export class WebviewHost<ToPage extends PageMessage, FromPage extends PageMessage, Data = undefined> extends Disposable {
  private readonly panels = new Map<string, PagePanel<ToPage, FromPage, Data>>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    readonly page: WebviewPage,
    private readonly onMessage: (panel: PagePanel<ToPage, FromPage, Data>, message: FromPage) => unknown,
  ) {
    super();
    this._register(toDisposable(() => disposeAll([...this.panels.values()])));
  }

  get(key: string): PagePanel<ToPage, FromPage, Data> | undefined {
    return this.panels.get(key);
  }

  values(): IterableIterator<PagePanel<ToPage, FromPage, Data>> {
    return this.panels.values();
  }

  /**
   * Reveals the panel of `key` if one is open; otherwise makes one with what `create` gives.
   * `created` says which happened.
   */
  revealOrCreate(
    key: string,
    create: () => PageContent & { data: Data },
    placement: { column?: vscode.ViewColumn; preserveFocus?: boolean } = {},
  ): { panel: PagePanel<ToPage, FromPage, Data>; created: boolean } {
    const open = this.panels.get(key);
    if (open) {
      // Where it is: the user may have moved it.
      open.panel.reveal(undefined, placement.preserveFocus);
      return { panel: open, created: false };
    }
    const content = create();
    const column = placement.column ?? vscode.ViewColumn.Active;
    const webviewPanel = vscode.window.createWebviewPanel(this.page.viewType, content.title, placement.preserveFocus ? { viewColumn: column, preserveFocus: true } : column, this.options());
    return { panel: this.adopt(key, webviewPanel, content), created: true };
  }

  /**
   * A panel VS Code restored after a reload (a `WebviewPanelSerializer`'s job): written again, held
   * under `key`. The page draws from the state it saved; nothing is sent until the owner shows something.
   */
  restore(key: string, webviewPanel: vscode.WebviewPanel, content: PageContent & { data: Data }): PagePanel<ToPage, FromPage, Data> {
    webviewPanel.webview.options = this.options();
    return this.adopt(key, webviewPanel, content);
  }

  private adopt(key: string, webviewPanel: vscode.WebviewPanel, content: PageContent & { data: Data }): PagePanel<ToPage, FromPage, Data> {
    this.panels.get(key)?.dispose();
    const panel = new PagePanel<ToPage, FromPage, Data>(key, webviewPanel, content.data, this.onMessage);
    this.panels.set(key, panel);
    panel.onDidDispose(() => {
      if (this.panels.get(key) === panel) this.panels.delete(key);
    });
    webviewPanel.webview.html = pageHtml(webviewPanel.webview, this.extensionUri, this.page, content, randomBytes(16).toString('base64'));
    return panel;
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      retainContextWhenHidden: false,
      enableFindWidget: this.page.findWidget ?? false,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(this.extensionUri, 'media', this.page.name)],
    };
  }
}

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The page's HTML: no inline script or style, the one script by nonce and source, data in an attribute. */
export function pageHtml(webview: Pick<vscode.Webview, 'asWebviewUri' | 'cspSource'>, extensionUri: vscode.Uri, page: WebviewPage, content: PageContent, nonce: string): string {
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', `${page.name}.js`));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', page.name, `${page.name}.css`));
  // JSON with no "<" at all, so that no reading of the attribute can end the element early.
  const initial = JSON.stringify(content.initial ?? {}).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${webview.cspSource} data:; style-src ${webview.cspSource}; font-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style}">
<title>${content.title.replace(/[<&]/g, '')}</title>
</head>
<body>
<div id="app" data-initial="${escapeAttribute(initial)}"><div class="message loading" role="status"><h2>Loading…</h2></div></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
