/**
 * The PQS result grid's panel: one webview beside the editor, its page (./resultsHtml) made again with
 * a fresh nonce for every result, and the copies the page asks for written to the clipboard by the host.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import type { SqlResult } from '../../core/pqs/store';
import { Disposable, toDisposable } from '../lifecycle';
import { resultsCsv, resultsHtml, resultsJson } from './resultsHtml';

export const RESULTS_VIEW_TYPE = 'cantonLedger.pqsResults';

/** What the page sends: a copy of the rows in a format. */
type FromResultsPage = { type?: string; format?: string };

export class PqsResultsPanel extends Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private shown: SqlResult | undefined;

  constructor() {
    super();
    this._register(toDisposable(() => this.panel?.dispose()));
  }

  /** Shows a result (reusing the panel when it is open). */
  show(title: string, result: SqlResult, explain: boolean): void {
    this.shown = result;
    const panel = (this.panel ??= this.createPanel(title));
    panel.title = title;
    panel.webview.html = resultsHtml({ title, result, explain }, randomBytes(16).toString('base64'));
    panel.reveal(undefined, true);
  }

  private createPanel(title: string): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel(RESULTS_VIEW_TYPE, title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: true, localResourceRoots: [] });
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.shown = undefined;
    });
    panel.webview.onDidReceiveMessage((m: FromResultsPage) => {
      if (m?.type === 'copy' && this.shown) void vscode.env.clipboard.writeText(m.format === 'json' ? resultsJson(this.shown) : resultsCsv(this.shown));
    });
    return panel;
  }
}
