/**
 * PQS in the editor: a Participant Query Store attached to the active participant connection as a
 * second reader. Four pieces, each with one job: attaching a store (./connect), the PQS view (./view,
 * its rows in ./viewRows), `*.pqs.sql` files (./sqlFiles) and the result grid (./resultsPanel, its
 * page in src/webview/pqs). Thin glue: every query is the core's (src/core/pqs); every failure goes
 * through the one error reporter (a command's through the registry).
 */
import * as vscode from 'vscode';
import type { CommandRegistry } from '../kit/registry';
import { Disposable } from '../kit/lifecycle';
import { PqsConnecting, type PqsConnectDeps } from './connect';
import { PqsResultsPanel } from './resultsPanel';
import { PqsSqlFiles } from './sqlFiles';
import { PqsView } from './view';

export type PqsDeps = PqsConnectDeps;

export class PqsFeature extends Disposable {
  readonly connecting: PqsConnecting;
  readonly view: PqsView;
  readonly results: PqsResultsPanel;
  readonly sqlFiles: PqsSqlFiles;

  constructor(deps: PqsDeps) {
    super();
    this.connecting = this._register(new PqsConnecting(deps));
    this.view = this._register(
      new PqsView({ connections: deps.connections, errors: deps.errors, prompts: deps.prompts, writeAccessOf: (store) => this.connecting.writeAccessOf(store), onDidAttach: this.connecting.onDidAttach }),
    );
    this.results = this._register(new PqsResultsPanel(vscode.Uri.file(deps.extensionPath)));
    this.sqlFiles = this._register(new PqsSqlFiles({ prompts: deps.prompts, results: this.results, store: () => this.view.store(), names: () => this.view.names(), packageIndex: () => this.view.packageIndex() }));
  }

  register(commands: CommandRegistry): void {
    this.connecting.register(commands);
    this.view.register(commands);
    this.sqlFiles.register(commands);
  }
}

export function registerPqs(commands: CommandRegistry, deps: PqsDeps): PqsFeature {
  const feature = new PqsFeature(deps);
  feature.register(commands);
  return feature;
}
