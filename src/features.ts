// Everything the extension does, loaded by the entry (src/extension.ts) from dist/features.js on the
// first Canton file, view or command of a window, so that a window that never uses Canton does not pay
// for parsing it. Here the host is built once (the extension's shared objects) and each feature of the
// list is activated with it: a feature is `src/vscode/<feature>/index.ts` (src/vscode/kit/feature.ts).
import * as vscode from 'vscode';
import { Redactor } from './core/redact';
import { channelLogger } from './vscode/kit/log';
import { SecretStore } from './vscode/kit/secrets';
import { ProfileStore } from './vscode/connections/profiles';
import { TokenSources } from './vscode/connections/tokens';
import { ConnectionManager } from './vscode/connections/manager';
import { Commands, type CommandId } from './vscode/kit/ids';
import { DEMO_PQS_SECRET_ID, DemoController } from './vscode/kit/demo';
import { ErrorReporter, PromptsPort } from './vscode/kit/prompts';
import { windowPrompts } from './vscode/kit/ui';
import { CommandRegistry, ConnectionTargets } from './vscode/kit/registry';
import { JsonDocuments } from './vscode/kit/documents';
import { COMPAT_REPORT_SCHEME, DOCUMENT_SCHEME, GRAPH_VIEW_TYPE, REPORT_SCHEME } from './vscode/kit/schemes';
import type { SavedGraphState } from './core/graph/viewProtocol';
import { extensionPackageStore, LedgerPackages } from './vscode/kit/ledgerPackages';
import type { ActivatedFeature, FeatureHost } from './vscode/kit/feature';
import { activateConnections, type ConnectionsFeature } from './vscode/connections';
import { activateFiles } from './vscode/files';
import { activateFailures, type FailedCommands } from './vscode/failures';
import { activatePackages } from './vscode/packages';
import { activateUpdates, type LedgerViews as UpdatesViews } from './vscode/updates';
import { activateCompare } from './vscode/compare';
import { activateGraphs } from './vscode/graph';
import { activatePqs } from './vscode/pqs';
import { activateScripts } from './vscode/scripts';
import { activateCompat } from './vscode/compat';
import { activateNetwork, type NetworkFeature } from './vscode/network';
import { activatePreflight, type PreflightFeature } from './vscode/preflight';
import { activateLocalNet, type LocalNetConnections } from './vscode/localnet';
import { activateAgentTools, type AgentToolsApi } from './vscode/agent';
import type { FileSending } from './vscode/files/submit';
import type { CompareFeature } from './vscode/compare/compareView';
import type { GraphPanels } from './vscode/graph/graphPanels';
import type { PqsView } from './vscode/pqs/view';
import type { ScriptTests } from './vscode/scripts/scriptTests';
import type { VettedPackagesView } from './vscode/packages/vettedPackagesView';

/** The ledger views of the test API: the Updates feature's, and the Vetted Packages view. */
export type LedgerViews = UpdatesViews & { vettedPackages: VettedPackagesView };

/** What activate() returns: used by the end-to-end tests running in the extension host. */
export interface CantonLedgerApi {
  connections: ConnectionManager;
  secrets: SecretStore;
  demo: DemoController;
  documents: JsonDocuments;
  views: LedgerViews;
  send: FileSending;
  /** The Failed Commands view. */
  failures: FailedCommands;
  packages: LedgerPackages;
  compare: CompareFeature;
  statusBar: ConnectionsFeature['statusBar'];
  connectionsTree: ConnectionsFeature['connectionsTree'];
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

/** The host every feature is handed: the extension's shared objects, made once. */
function createHost(context: vscode.ExtensionContext): FeatureHost & { channel: vscode.LogOutputChannel } {
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
  const documents = new JsonDocuments();
  const demoPqsPassword = () => secrets.get(DEMO_PQS_SECRET_ID, 'pqsPassword');
  const demo = new DemoController(connections, logger, context.extensionPath, vscode.Uri.joinPath(context.globalStorageUri, 'demo-ledger.json').fsPath, context.workspaceState, demoPqsPassword);
  const packages = new LedgerPackages(connections, packageStore.store, packageStore.cacheDir, logger);
  context.subscriptions.push(channel, secrets, profiles, connections, demo, documents, commands, packages);
  commands.register(Commands.showLog, () => channel.show());
  return { context, commands, connections, prompts, errors, documents, logger, redactor, secrets, packages, demo, showLog, channel };
}

export function activateFeatures(context: vscode.ExtensionContext): Features {
  const host = createHost(context);
  // A feature's registrations go with the extension; what it offers the tests joins the API.
  const activated = <A>(feature: ActivatedFeature<A>): A => {
    context.subscriptions.push(...feature.disposables);
    return feature.api;
  };

  const connections = activated(activateConnections(host));
  const send = activated(activateFiles(host));
  const failures = activated(activateFailures(host, send));
  const packages = activated(activatePackages(host));
  const updates = activated(activateUpdates(host));
  const compare = activated(activateCompare(host));
  const graphs = activated(activateGraphs(host));
  const pqs = activated(activatePqs(host));
  const scripts = activated(activateScripts(host));
  const compat = activated(activateCompat(host));
  const network = activated(activateNetwork(host));
  const preflight = activated(activatePreflight(host, send));
  const localNet = activated(activateLocalNet(host));
  const agentTools = activated(activateAgentTools(host));

  void vscode.commands.executeCommand('setContext', 'cantonLedger.ready', true);
  // The demo runs in the extension host, which a reload ends: it comes back when it ran in this window.
  if (vscode.workspace.getConfiguration('cantonLedger').get<boolean>('demo.startOnOpen') || host.demo.ranWhenClosed) void vscode.commands.executeCommand(Commands.startDemo);
  host.logger.info(`Canton Ledger Explorer ${context.extension.packageJSON.version} activated`);
  const provideContent = (uri: vscode.Uri) =>
    uri.scheme === DOCUMENT_SCHEME ? host.documents.provideTextDocumentContent(uri) : uri.scheme === REPORT_SCHEME ? send.reports.provideTextDocumentContent(uri) : uri.scheme === COMPAT_REPORT_SCHEME ? compat.reports.provideTextDocumentContent(uri) : undefined;
  const deserializeWebviewPanel = (viewType: string, panel: vscode.WebviewPanel, state: unknown) =>
    viewType === GRAPH_VIEW_TYPE ? graphs.deserializeWebviewPanel(panel, state as SavedGraphState | undefined) : panel.dispose();
  const { connectionsTree, statusBar } = connections;
  const views = { ...updates, vettedPackages: packages.vettedPackages };
  const { connections: manager, secrets, demo, documents, packages: ledgerPackages, prompts } = host;
  const api: CantonLedgerApi = { connections: manager, secrets, demo, documents, views, send, failures, packages: ledgerPackages, compare, statusBar, connectionsTree, graphs, pqs, scripts, prompts, preflight, localNet, agentTools, network };
  const languageModelTool = (name: string) => agentTools.tools.find((t) => t.tool.name === name);
  return { deserializeWebviewPanel, provideContent, languageModelTool, api };
}
