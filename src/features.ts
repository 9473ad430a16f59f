// Everything the extension does, loaded by the entry (src/extension.ts) from dist/features.js on the
// first Canton file, view or command of a window, so that a window that never uses Canton does not pay
// for parsing it.
import * as vscode from 'vscode';
import { Redactor } from './core/redact';
import { channelLogger } from './vscode/log';
import { SecretStore } from './vscode/secrets';
import { ProfileStore } from './vscode/connections/profiles';
import { TokenProviders } from './vscode/connections/tokens';
import { ConnectionManager } from './vscode/connections/manager';
import { ConnectionsTreeProvider } from './vscode/views/connectionsTree';
import { ConnectionStatusBar } from './vscode/statusBar';
import { ConnectionCommands } from './vscode/commands/connections';
import { TokenCommands } from './vscode/commands/tokens';
import { Commands } from './vscode/commands/ids';
import { DEMO_CONNECTION_ID, DemoController } from './vscode/demo';
import { ErrorReporter } from './vscode/ui';
import { JsonDocuments } from './vscode/documents';
import { DOCUMENT_SCHEME, REPORT_SCHEME } from './vscode/schemes';
import { type LedgerViews, registerLedgerViews } from './vscode/views/ledgerViews';
import { registerFileSending, type FileSending } from './vscode/files/submit';
import { registerFileEditing } from './vscode/files/editing';
import { LedgerPackages } from './vscode/packages/ledgerPackages';
import { registerPackagesView } from './vscode/views/packagesView';
import { registerComparePartiesView, type CompareFeature } from './vscode/views/compareView';
import type { LedgerWrite } from './core/ledger/state';

/** What activate() returns: used by the end-to-end tests running in the extension host. */
export interface CantonLedgerApi {
  connections: ConnectionManager;
  secrets: SecretStore;
  demo: DemoController;
  documents: JsonDocuments;
  views: LedgerViews;
  send: FileSending;
  packages: LedgerPackages;
  compare: CompareFeature;
  /**
   * Tells a connection's ledger state about a write made on it (`packages: true` for a DAR upload,
   * `vetting: true` when it vetted): the status bar and every view follow without a manual refresh.
   */
  afterLedgerWrite(connectionId: string, write?: LedgerWrite): Promise<void>;
  statusBar: ConnectionStatusBar;
  connectionsTree: ConnectionsTreeProvider;
}

/** The loaded features: the test API, and the content of the read-only documents for the entry's stand-in providers. */
export interface Features {
  api: CantonLedgerApi;
  provideContent(uri: vscode.Uri): string | undefined;
}

export function activateFeatures(context: vscode.ExtensionContext): Features {
  const redactor = new Redactor();
  const channel = vscode.window.createOutputChannel('Canton Ledger', { log: true });
  const logger = channelLogger(channel, redactor);
  const secrets = new SecretStore(context.secrets, redactor);
  const profiles = new ProfileStore(context.globalState);
  const tokens = new TokenProviders(secrets, profiles, { logger, redactor });
  const connections = new ConnectionManager(profiles, tokens, logger, redactor);
  const errors = new ErrorReporter(logger, redactor, () => channel.show(true));
  const tree = new ConnectionsTreeProvider(connections);
  const documents = new JsonDocuments();
  const connectionsView = vscode.window.createTreeView('cantonLedger.connections', { treeDataProvider: tree, showCollapseAll: true });
  const demo = new DemoController(connections, logger, context.extensionPath, vscode.Uri.joinPath(context.globalStorageUri, 'demo-ledger.json').fsPath);
  const statusBar = new ConnectionStatusBar(connections);
  // `send` is made further down; its prompts are what a test answers.
  const connectionCommands = new ConnectionCommands(connections, errors, () => send.prompts);
  const tokenCommands = new TokenCommands(connections, secrets, (p) => connectionCommands.connect(p));
  const packages = new LedgerPackages(connections, context.globalStorageUri, context.extensionPath, logger);

  const startDemo = async () => {
    try {
      await vscode.workspace.fs.createDirectory(context.globalStorageUri);
      await demo.start();
      await connectionCommands.connect(profiles.get(DEMO_CONNECTION_ID));
    } catch (e) {
      await errors.report('Starting the demo participant', e);
    }
  };
  const updateContext = () => vscode.commands.executeCommand('setContext', 'cantonLedger.hasConnections', profiles.all().length > 0);
  // Commands that need a participant are offered in the palette once the active connection is connected.
  const updateConnectedContext = () => vscode.commands.executeCommand('setContext', 'cantonLedger.connected', connections.activeConnected());
  context.subscriptions.push(
    channel,
    secrets,
    profiles,
    connections,
    tree,
    demo,
    documents,
    connectionsView,
    statusBar,
    ...connectionCommands.register(),
    ...tokenCommands.register(),
    vscode.commands.registerCommand(Commands.showLog, () => channel.show()),
    vscode.commands.registerCommand(Commands.startDemo, startDemo),
    vscode.commands.registerCommand(Commands.stopDemo, () => demo.stop()),
    profiles.onDidChange(updateContext),
    connections.onDidChange(updateConnectedContext),
    packages,
    ...registerFileEditing(connections, packages, logger, errors),
    ...registerPackagesView(connections, packages, logger, redactor),
  );
  const views = registerLedgerViews(context, { connections, documents, logger, redactor, packages });
  const compare = registerComparePartiesView(connections, logger, redactor, (what, e) => errors.report(what, e));
  context.subscriptions.push(...compare.disposables);
  const send = registerFileSending(context, { connections, documents, logger, redactor, showLog: () => channel.show(true) });
  void updateContext().then(() => vscode.commands.executeCommand('setContext', 'cantonLedger.ready', true));
  if (vscode.workspace.getConfiguration('cantonLedger').get<boolean>('demo.startOnOpen')) void startDemo();
  logger.info(`Canton Ledger Explorer ${context.extension.packageJSON.version} activated`);
  const provideContent = (uri: vscode.Uri) =>
    uri.scheme === DOCUMENT_SCHEME ? documents.provideTextDocumentContent(uri) : uri.scheme === REPORT_SCHEME ? send.reports.provideTextDocumentContent(uri) : undefined;
  const afterLedgerWrite = (connectionId: string, write?: LedgerWrite) => connections.afterWrite(connectionId, write);
  return { api: { connections, secrets, demo, documents, views, send, packages, afterLedgerWrite, statusBar, connectionsTree: tree, compare: compare.feature }, provideContent };
}
