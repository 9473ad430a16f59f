/**
 * The PQS result grid's panel: one webview beside the editor showing the page `dist/webview/pqs.js`
 * (src/webview/pqs) through the one webview host. The panel keeps the last run and sends the page one
 * page of rows at a time (core/pqs/resultsProtocol); the copies the page asks for are written to the
 * clipboard here, from the whole result.
 */
import vscode = require('vscode');
import { RESULTS_VIEW_TYPE, resultsCsv, resultsJson, resultsView, type FromResultsPage, type ResultsRun, type ToResultsPage } from '../../core/pqs/resultsProtocol';
import type { SqlResult } from '../../core/pqs/store';
import { Disposable } from '../kit/lifecycle';
import { WebviewHost, type PagePanel } from '../kit/webviewHost';

/** The one panel's key: every run replaces what it shows. */
const RESULTS_KEY = 'results';

type ResultsPanel = PagePanel<ToResultsPage, FromResultsPage, { run?: ResultsRun }>;

export class PqsResultsPanel extends Disposable {
  private readonly host: WebviewHost<ToResultsPage, FromResultsPage, { run?: ResultsRun }>;
  private runs = 0;

  constructor(extensionUri: vscode.Uri) {
    super();
    this.host = this._register(new WebviewHost(extensionUri, { viewType: RESULTS_VIEW_TYPE, name: 'pqs', findWidget: true }, (panel, m) => this.onMessage(panel, m)));
  }

  /** Shows a result (reusing the panel when it is open), from its first page. */
  show(title: string, result: SqlResult, explain: boolean): void {
    const { panel } = this.host.revealOrCreate(RESULTS_KEY, () => ({ title, data: {} }), { column: vscode.ViewColumn.Beside, preserveFocus: true });
    panel.panel.title = title;
    const run = (panel.data.run = { runId: ++this.runs, title, result, explain });
    panel.show({ type: 'results', ...resultsView(run, 0) });
  }

  private async onMessage(panel: ResultsPanel, m: FromResultsPage): Promise<void> {
    const run = panel.data.run;
    if (!run) return;
    switch (m.type) {
      case 'page':
        // A request about an earlier run (overtaken by a new one) is dropped.
        if (m.runId === run.runId) panel.show({ type: 'results', ...resultsView(run, m.page) });
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(m.format === 'json' ? resultsJson(run.result) : resultsCsv(run.result));
        panel.notify({ type: 'copied', format: m.format, rowCount: run.result.rows.length });
        return;
    }
  }
}
