// Everything the extension does, loaded by the entry (src/extension.ts) from dist/features.js on the
// first Canton file, view or command of a window, so that a window that never uses Canton does not pay
// for parsing it.
import * as vscode from 'vscode';
import { Redactor } from './core/redact';
import { channelLogger } from './vscode/log';
import { SecretStore } from './vscode/secrets';
import { ProfileStore } from './vscode/connections/profiles';
import { TokenSources } from './vscode/connections/tokens';
import { ConnectionManager } from './vscode/connections/manager';
import { ConnectionsTreeProvider } from './vscode/views/connectionsTree';
import { ConnectionStatusBar } from './vscode/statusBar';
import { ConnectionCommands } from './vscode/commands/connections';
import { TokenCommands } from './vscode/commands/tokens';
import { Commands, Views, type CommandId } from './vscode/commands/ids';
import { DEMO_CONNECTION_ID, DEMO_PQS_SECRET_ID, DemoController, demoPqsUrl } from './vscode/demo';
import { DemoPqsSetup } from './vscode/pqs/demoSetup';
import { ErrorReporter, PromptsPort } from './vscode/prompts';
import { windowPrompts } from './vscode/ui';
import { CommandRegistry, ConnectionTargets } from './vscode/commands/registry';
import { JsonDocuments } from './vscode/documents';
import { DOCUMENT_SCHEME, GRAPH_VIEW_TYPE, REPORT_SCHEME } from './vscode/schemes';
import type { SavedGraphState } from './core/graph/viewProtocol';
import { type LedgerViews, registerLedgerViews } from './vscode/views/ledgerViews';
import { registerFileSending, type FileSending } from './vscode/files/submit';
import { registerFileEditing } from './vscode/files/editing';
import { extensionPackageStore, LedgerPackages } from './vscode/packages/ledgerPackages';
import { registerPackagesView } from './vscode/views/packagesView';
import { registerComparePartiesView, type CompareFeature } from './vscode/views/compareView';
import { registerGraphs } from './vscode/graph/graphCommands';
import type { GraphPanels } from './vscode/graph/graphPanels';
import { registerPqs } from './vscode/pqs';
import type { PqsView } from './vscode/pqs/view';
import { ScriptTests } from './vscode/scripts/scriptTests';
import type { ActivatedFeature, FeatureHost } from './vscode/kit/feature';
import { activatePreflight, type PreflightFeature } from './vscode/preflight';
import { activateLocalNet, type LocalNetConnections } from './vscode/localnet';
import { activateAgentTools, type AgentToolsApi } from './vscode/agent';
import { activateCompat } from './vscode/compat';
import { COMPAT_REPORT_SCHEME } from './vscode/schemes';
import { activateNetwork, type NetworkFeature } from './vscode/network';

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
  statusBar: ConnectionStatusBar;
  connectionsTree: ConnectionsTreeProvider;
  graphs: GraphPanels;
  /** The PQS view (the feature's other pieces are reached through its commands). */
  pqs: PqsView;
  scripts: ScriptTests;
  /** Every question of every feature: a test answers them by replacing `current`. */
  prompts: PromptsPort;
  preflight: PreflightFeature;
  localNet: LocalNetConnections;
  agentTools: AgentToolsApi;
  network: NetworkFeature;
}

/** The loaded features: the test API, and the content of the read-only documents for the entry's stand-in providers. */
export interface Features {
  api: CantonLedgerApi;
  provideContent(uri: vscode.Uri): string | undefined;
  deserializeWebviewPanel(viewType: string, panel: vscode.WebviewPanel, state: unknown): Thenable<void> | void;
  languageModelTool(name: string): vscode.LanguageModelTool<Record<string, unknown>> | undefined;
}

export function activateFeatures(context: vscode.ExtensionContext): Features {
  const redactor = new Redactor();
  const channel = vscode.window.createOutputChannel('Canton Ledger', { log: true });
  const logger = channelLogger(channel, redactor);
  const secrets = new SecretStore(context.secrets, redactor);
  const profiles = new ProfileStore(context.globalState);
  // Every question and failure message goes through this one port; a test replaces its `current`.
  const prompts = new PromptsPort(windowPrompts);
  const tokens = new TokenSources(secrets, profiles, prompts);
  const packageStore = extensionPackageStore(context.globalStorageUri, context.extensionPath, logger);
  const connections = new ConnectionManager(profiles, tokens, logger, redactor, packageStore.store);
  const showLog = () => channel.show(true);
  const errors = new ErrorReporter(logger, redactor, prompts, showLog);
  const titles = new Map((context.extension.packageJSON as { contributes: { commands: { command: string; title: string }[] } }).contributes.commands.map((c) => [c.command, c.title]));
  const commands = new CommandRegistry(vscode.commands, errors, new ConnectionTargets(connections, prompts, vscode.commands, errors), (id: CommandId) => titles.get(id));
  const tree = new ConnectionsTreeProvider(connections);
  const documents = new JsonDocuments();
  const connectionsView = vscode.window.createTreeView(Views.connections, { treeDataProvider: tree, showCollapseAll: true });
  const demoPqsPassword = () => secrets.get(DEMO_PQS_SECRET_ID, 'pqsPassword');
  const demo = new DemoController(connections, logger, context.extensionPath, vscode.Uri.joinPath(context.globalStorageUri, 'demo-ledger.json').fsPath, context.workspaceState, demoPqsPassword);
  const statusBar = new ConnectionStatusBar(connections, prompts);
  const connectionCommands = new ConnectionCommands(connections, errors, prompts);
  const tokenCommands = new TokenCommands(connections, secrets, (c) => connectionCommands.connect(c), prompts);
  const packages = new LedgerPackages(connections, packageStore.store, packageStore.cacheDir, logger);
  const host: FeatureHost = { context, commands, connections, prompts, errors, documents, logger, redactor, secrets, packages, demo, showLog };
  // A feature's registrations go with the extension; what it offers the tests joins the API.
  const activated = <A>(feature: ActivatedFeature<A>): A => {
    context.subscriptions.push(...feature.disposables);
    return feature.api;
  };

  const startDemo = async () => {
    await vscode.workspace.fs.createDirectory(context.globalStorageUri);
    await demo.start();
    await connectionCommands.connect(connections.connection(DEMO_CONNECTION_ID));
  };
  const updateContext = () => vscode.commands.executeCommand('setContext', 'cantonLedger.hasConnections', profiles.all().length > 0);
  // Commands that need a participant are offered in the palette once the active connection is connected.
  const updateConnectedContext = () => vscode.commands.executeCommand('setContext', 'cantonLedger.connected', connections.activeConnected());
  connectionCommands.register(commands);
  tokenCommands.register(commands);
  commands.register(Commands.showLog, () => channel.show());
  commands.register(Commands.startDemo, startDemo);
  commands.register(Commands.stopDemo, () => demo.stop());
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
    commands,
    profiles.onDidChange(updateContext),
    connections.onDidChange(updateConnectedContext),
    packages,
    ...registerFileEditing(commands, connections, packages, logger, prompts),
    registerPackagesView(commands, connections, packages, logger, redactor),
  );
  const views = registerLedgerViews(context, commands, { connections, documents, logger, redactor, packages, prompts });
  const compare = registerComparePartiesView(commands, connections, logger, redactor, errors, prompts);
  context.subscriptions.push(compare.view);
  const graphs = registerGraphs(commands, { extensionUri: context.extensionUri, connections, documents, logger, redactor, prompts });
  context.subscriptions.push(...graphs.registrations);
  const pqs = registerPqs(commands, { extensionPath: context.extensionPath, globalState: context.globalState, connections, secrets, prompts, errors, logger, demoPqsUrl, demoPqsPassword, env: process.env });
  const demoPqs = new DemoPqsSetup({ demo, startDemo, connecting: pqs.connecting, secrets, errors, prompts });
  demoPqs.register(commands);
  context.subscriptions.push(pqs, demoPqs);
  const scripts = new ScriptTests(commands, { connections, documents, prompts, readDar: (bytes) => packageStore.store.readDar(bytes) });
  context.subscriptions.push(scripts);
  const agentTools = activated(activateAgentTools(host));
  const compat = activated(activateCompat(host));
  const network = activated(activateNetwork(host));
  const send = registerFileSending(context, commands, { connections, documents, logger, redactor, showLog, errors, targets: commands.targets }, prompts);
  const preflight = activated(activatePreflight(host, send));
  const localNet = activated(activateLocalNet(host));
  void updateContext().then(() => vscode.commands.executeCommand('setContext', 'cantonLedger.ready', true));
  // The demo runs in the extension host, which a reload ends: it comes back when it ran in this window.
  if (vscode.workspace.getConfiguration('cantonLedger').get<boolean>('demo.startOnOpen') || demo.ranWhenClosed) void vscode.commands.executeCommand(Commands.startDemo);
  logger.info(`Canton Ledger Explorer ${context.extension.packageJSON.version} activated`);
  const provideContent = (uri: vscode.Uri) =>
    uri.scheme === DOCUMENT_SCHEME ? documents.provideTextDocumentContent(uri) : uri.scheme === REPORT_SCHEME ? send.reports.provideTextDocumentContent(uri) : uri.scheme === COMPAT_REPORT_SCHEME ? compat.reports.provideTextDocumentContent(uri) : undefined;
  const deserializeWebviewPanel = (viewType: string, panel: vscode.WebviewPanel, state: unknown) =>
    viewType === GRAPH_VIEW_TYPE ? graphs.panels.deserializeWebviewPanel(panel, state as SavedGraphState | undefined) : panel.dispose();
  const languageModelTool = (name: string) => agentTools.tools.find((t) => t.tool.name === name);
  return { deserializeWebviewPanel, languageModelTool, api: { connections, secrets, demo, documents, views, send, packages, statusBar, connectionsTree: tree, compare: compare.feature, graphs: graphs.panels, pqs: pqs.view, scripts, prompts, preflight, localNet, agentTools, network }, provideContent };
}
