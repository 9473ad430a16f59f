/**
 * PQS in the editor: a Participant Query Store attached to the active participant connection as a
 * second reader. Four pieces, each with one job: attaching a store (./connect), the PQS view (./view,
 * its rows in ./viewRows), `*.pqs.sql` files (./sqlFiles) and the result grid (./resultsPanel, its
 * page in src/webview/pqs). Thin glue: every query is the core's (src/core/pqs); every failure goes
 * through the one error reporter (a command's through the registry).
 */
import vscode = require('vscode');
import type { CommandRegistry } from '../kit/registry';
import { DEMO_PQS_SECRET_ID, demoPqsUrl } from '../kit/demo';
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { Commands } from '../kit/ids';
import { Disposable } from '../kit/lifecycle';
import { PqsConnecting, type PqsConnectDeps } from './connect';
import { DemoPqsSetup } from './demoSetup';
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

/** PQS, with the demo's own PQS database set up on request (the demo participant is started through its command). */
export function activatePqs(host: FeatureHost): ActivatedFeature<PqsView> {
  const { context, commands, connections, secrets, prompts, errors, logger, demo } = host;
  const demoPqsPassword = () => secrets.get(DEMO_PQS_SECRET_ID, 'pqsPassword');
  const pqs = registerPqs(commands, { extensionPath: context.extensionPath, globalState: context.globalState, connections, secrets, prompts, errors, logger, demoPqsUrl, demoPqsPassword, env: process.env });
  const startDemo = async () => {
    await vscode.commands.executeCommand(Commands.startDemo);
  };
  const demoPqs = new DemoPqsSetup({ demo, startDemo, connecting: pqs.connecting, secrets, errors, prompts });
  demoPqs.register(commands);
  return { disposables: [pqs, demoPqs], api: pqs.view };
}
