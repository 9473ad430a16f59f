// The extension's host and its list of features, loaded by the entry (src/extension.ts) from
// dist/features.js on the first Canton file, view or command of a window, so that a window that never
// uses Canton does not pay for parsing it. The host (the extension's shared objects) is built once; each
// feature (`src/vscode/<feature>/index.ts`, src/vscode/kit/feature.ts) is its own bundle
// (dist/feature.<name>.js), required and activated when it is first used: its view shown, its command
// run, its file kind opened, its part of the test API read. Connections, activated with the host, is in
// this bundle (KIT_FEATURES in scripts/build.mjs).
import vscode = require('vscode');
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
import { DEMO_NETWORK_RAN_KEY, type HandOver } from './vscode/deferred';
import type { ConnectionsFeature } from './vscode/connections';
import type { FailedCommands } from './vscode/failures';
import type { LedgerViews as UpdatesViews } from './vscode/updates';
import type { FileSending } from './vscode/files/submit';
import type { CompareFeature } from './vscode/compare/compareView';
import type { GraphPanels } from './vscode/graph/graphPanels';
import type { PqsView } from './vscode/pqs/view';
import type { ScriptTests } from './vscode/scripts/scriptTests';
import type { VettedPackagesView } from './vscode/packages/vettedPackagesView';
import type { NetworkFeature } from './vscode/network';
import type { PreflightFeature } from './vscode/preflight';
import type { LocalNetConnections } from './vscode/localnet';
import type { AgentToolsApi } from './vscode/agent';

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
  /** The agent feature's MCP server provider, to which the entry's provider hands over. */
  mcpServerProvider(): vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> | undefined;
}

/** The host every feature is handed: the extension's shared objects, made once. */
function createHost(context: vscode.ExtensionContext, commandHost: Pick<typeof vscode.commands, 'registerCommand'>): FeatureHost & { channel: vscode.LogOutputChannel } {
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
  const commands = new CommandRegistry({ registerCommand: (id, run) => commandHost.registerCommand(id, run), executeCommand: (id, ...rest) => vscode.commands.executeCommand(id, ...rest) }, errors, new ConnectionTargets(connections, prompts, vscode.commands, errors), (id: CommandId) => titles.get(id));
  const documents = new JsonDocuments();
  const demoPqsPassword = () => secrets.get(DEMO_PQS_SECRET_ID, 'pqsPassword');
  const demo = new DemoController(connections, logger, context.extensionPath, vscode.Uri.joinPath(context.globalStorageUri, 'demo-ledger.json').fsPath, context.workspaceState, demoPqsPassword);
  const packages = new LedgerPackages(connections, packageStore.store, packageStore.cacheDir, logger);
  context.subscriptions.push(channel, secrets, profiles, connections, demo, documents, commands, packages);
  commands.register(Commands.showLog, () => channel.show());
  return { context, commands, connections, prompts, errors, documents, logger, redactor, secrets, packages, demo, showLog, channel };
}

/* eslint-disable @typescript-eslint/no-require-imports -- each feature is required when first used: in the build, its own bundle */
/** Every feature by name, activated with the host (in the build, a feature's require loads its bundle). */
const FEATURES = {
  connections: (host: FeatureHost) => (require('./vscode/connections') as typeof import('./vscode/connections')).activateConnections(host),
  files: (host: FeatureHost) => (require('./vscode/files') as typeof import('./vscode/files')).activateFiles(host),
  failures: (host: FeatureHost, features: LoadedFeatures) =>
    (require('./vscode/failures') as typeof import('./vscode/failures')).activateFailures(host, features.activate('files')),
  packages: (host: FeatureHost) => (require('./vscode/packages') as typeof import('./vscode/packages')).activatePackages(host),
  updates: (host: FeatureHost) => (require('./vscode/updates') as typeof import('./vscode/updates')).activateUpdates(host),
  compare: (host: FeatureHost) => (require('./vscode/compare') as typeof import('./vscode/compare')).activateCompare(host),
  graph: (host: FeatureHost) => (require('./vscode/graph') as typeof import('./vscode/graph')).activateGraphs(host),
  pqs: (host: FeatureHost) => (require('./vscode/pqs') as typeof import('./vscode/pqs')).activatePqs(host),
  scripts: (host: FeatureHost) => (require('./vscode/scripts') as typeof import('./vscode/scripts')).activateScripts(host),
  compat: (host: FeatureHost) => (require('./vscode/compat') as typeof import('./vscode/compat')).activateCompat(host),
  network: (host: FeatureHost) => (require('./vscode/network') as typeof import('./vscode/network')).activateNetwork(host),
  preflight: (host: FeatureHost, features: LoadedFeatures) =>
    (require('./vscode/preflight') as typeof import('./vscode/preflight')).activatePreflight(host, features.activate('files')),
  localnet: (host: FeatureHost) => (require('./vscode/localnet') as typeof import('./vscode/localnet')).activateLocalNet(host),
  agent: (host: FeatureHost) => (require('./vscode/agent') as typeof import('./vscode/agent')).activateAgentTools(host),
};

/** A feature that hooks into another (the pre-flight guards the files' Submit) comes with it. */
const COMPANIONS: Partial<Record<FeatureName, readonly FeatureName[]>> = { files: ['preflight'] };
/* eslint-enable @typescript-eslint/no-require-imports */

export type FeatureName = keyof typeof FEATURES;
export const FEATURE_NAMES = Object.keys(FEATURES) as FeatureName[];
type FeatureApi<N extends FeatureName> = ReturnType<(typeof FEATURES)[N]> extends ActivatedFeature<infer A> ? A : never;

/** The features of a window: each activated once, when first asked for. */
export interface LoadedFeatures extends Features {
  activate<N extends FeatureName>(name: N): FeatureApi<N>;
  /** Whether a feature was activated. */
  isActive(name: FeatureName): boolean;
}

/**
 * Builds the host and activates the Connections feature (the view, the status bar, the connection
 * commands: what every use of the extension starts from); every other feature is activated when
 * `activate` is first called for it, or when its part of the API is first read.
 */
export function loadFeatures(context: vscode.ExtensionContext, handOver?: HandOver): LoadedFeatures {
  const host = createHost(context, handOver?.commands ?? vscode.commands);
  const apis = new Map<FeatureName, unknown>();
  const activate = <N extends FeatureName>(name: N): FeatureApi<N> => {
    if (!apis.has(name)) {
      // The entry's stand-ins for the feature make way for its registrations.
      handOver?.beforeActivate(name);
      const feature = (FEATURES[name] as (host: FeatureHost, features: LoadedFeatures) => ActivatedFeature<FeatureApi<N>>)(host, features);
      // A feature's registrations go with the extension; what it offers the tests joins the API.
      context.subscriptions.push(...feature.disposables);
      apis.set(name, feature.api);
      host.logger.info(`Canton Ledger Explorer: ${name} activated`);
      for (const companion of COMPANIONS[name] ?? []) activate(companion);
    }
    return apis.get(name) as FeatureApi<N>;
  };
  const { connections, secrets, demo, documents, packages, prompts } = host;
  // The test API: the host's objects as they are, a feature's part activating the feature when read.
  const api: CantonLedgerApi = {
    connections,
    secrets,
    demo,
    documents,
    packages,
    prompts,
    get statusBar() {
      return activate('connections').statusBar;
    },
    get connectionsTree() {
      return activate('connections').connectionsTree;
    },
    get views() {
      return { ...activate('updates'), vettedPackages: activate('packages').vettedPackages };
    },
    get send() {
      return activate('files');
    },
    get failures() {
      return activate('failures');
    },
    get compare() {
      return activate('compare');
    },
    get graphs() {
      return activate('graph');
    },
    get pqs() {
      return activate('pqs');
    },
    get scripts() {
      return activate('scripts');
    },
    get preflight() {
      return activate('preflight');
    },
    get localNet() {
      return activate('localnet');
    },
    get agentTools() {
      return activate('agent');
    },
    get network() {
      return activate('network');
    },
  };
  const provideContent = (uri: vscode.Uri) =>
    uri.scheme === DOCUMENT_SCHEME ? documents.provideTextDocumentContent(uri) : uri.scheme === REPORT_SCHEME
        ? activate('files').reports.provideTextDocumentContent(uri)
        : uri.scheme === COMPAT_REPORT_SCHEME
          ? activate('compat').reports.provideTextDocumentContent(uri)
          : undefined;
  const deserializeWebviewPanel = (viewType: string, panel: vscode.WebviewPanel, state: unknown) =>
    viewType === GRAPH_VIEW_TYPE ? activate('graph').deserializeWebviewPanel(panel, state as SavedGraphState | undefined) : panel.dispose();
  const languageModelTool = (name: string) => activate('agent').tools.find((t) => t.tool.name === name);
  const mcpServerProvider = () => activate('agent').mcpServer;
  const features: LoadedFeatures = { api, provideContent, deserializeWebviewPanel, languageModelTool, mcpServerProvider, activate, isActive: (name) => apis.has(name) };

  activate('connections');
  // The demo network runs in the extension host, which a reload ends: its feature starts it again when it ran in this window.
  if (context.workspaceState.get(DEMO_NETWORK_RAN_KEY) !== undefined) activate('network');
  // A request the participant's description refuses offers its compatibility report (the compat
  // feature's button on the error): only a connection with a report refuses one, so the feature comes
  // with the first report.
  const untilReport = host.connections.onDidChangeCompatibility((connection) => {
    if (!connection.compatibility) return;
    untilReport.dispose();
    activate('compat');
  });
  context.subscriptions.push(untilReport);
  void vscode.commands.executeCommand('setContext', 'cantonLedger.ready', true);
  // The demo runs in the extension host, which a reload ends: it comes back when it ran in this window.
  if (vscode.workspace.getConfiguration('cantonLedger').get<boolean>('demo.startOnOpen') || demo.ranWhenClosed) void vscode.commands.executeCommand(Commands.startDemo);
  host.logger.info(`Canton Ledger Explorer ${context.extension.packageJSON.version} activated`);
  return features;
}

/** The host with every feature activated (the tests that check what the extension registers as a whole). */
export function activateFeatures(context: vscode.ExtensionContext): Features {
  const features = loadFeatures(context);
  for (const name of FEATURE_NAMES) features.activate(name);
  return features;
}
