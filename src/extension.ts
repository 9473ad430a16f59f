// The extension's entry, dist/extension.js. VS Code activates it in a folder with a Canton file
// (workspaceContains), which the user may not touch in that window, and on the first use of a view or
// command; so it is kept tiny: it imports no feature code, puts stand-ins in place and loads the
// features (src/features.ts, dist/features.js) on the first Canton file, view or command
// (src/vscode/deferred.ts). No activation event fires for an unrelated JSON file (docs/performance.md).
import vscode = require('vscode');
import path = require('node:path');
import { readAgentToolsSettings } from './core/agent/settings';
import { mcpServerLaunch } from './core/cliEnvironment';
import { activeProfile, PROFILE_STATE_KEYS, storedProfiles } from './core/connections';
import type { CantonLedgerApi, Features } from './features';
import { BundleLoader } from './vscode/bundleLoader';
import { activateDeferred } from './vscode/deferred';
import { COMPAT_REPORT_SCHEME, DOCUMENT_SCHEME, GRAPH_VIEW_TYPE, REPORT_SCHEME } from './vscode/kit/schemes';
import { fileFeatures, HOST, ownerOf, SCHEME_OWNERS, TOOL_OWNER, WEBVIEW_OWNERS } from './vscode/owners';

export type { CantonLedgerApi } from './features';

/** Every key of the API (checked against the type), so that the entry's API can stand in for it. */
const API_KEYS = { connections: true, secrets: true, demo: true, documents: true, views: true, send: true, failures: true, packages: true, statusBar: true, connectionsTree: true, compare: true, graphs: true, pqs: true, scripts: true, prompts: true, preflight: true, localNet: true, agentTools: true, network: true } satisfies Record<keyof CantonLedgerApi, true>;

export function activate(context: vscode.ExtensionContext): CantonLedgerApi {
  // The bundles compile with the code cache an earlier window left (most of a first use is compiling).
  const dist = path.join(context.extensionPath, 'dist');
  const bundles = new BundleLoader(dist, path.join(context.globalStorageUri.fsPath, 'code-cache'), module);
  context.subscriptions.push(bundles);
  return activateDeferred<CantonLedgerApi>(vscode, context, {
    // A computed path, so that esbuild leaves the features to their own bundle.
    // The host and its own feature; every other feature on its first use (src/vscode/owners.ts).
    load: (handOver): Features => (bundles.require(path.join(dist, 'features.js')) as typeof import('./features')).loadFeatures(context, handOver),
    owners: { host: HOST, of: ownerOf, schemes: SCHEME_OWNERS, webviews: WEBVIEW_OWNERS, tools: TOOL_OWNER, files: fileFeatures },
    apiKeys: Object.keys(API_KEYS) as (keyof CantonLedgerApi)[],
    schemes: [DOCUMENT_SCHEME, REPORT_SCHEME, COMPAT_REPORT_SCHEME],
    webviewTypes: [GRAPH_VIEW_TYPE],
    mcpServers: {
      provide: () => mcpServerDefinitions(context),
      // What it reads: the connections' and agent tools' settings, and the workspace's (once trusted).
      onDidChange: (listener) =>
        vscode.Disposable.from(
          vscode.workspace.onDidChangeConfiguration((e) => (e.affectsConfiguration('cantonLedger.connections') || e.affectsConfiguration('cantonLedger.agentTools')) && listener(e)),
          vscode.workspace.onDidGrantWorkspaceTrust(() => listener(undefined)),
        ),
    },
  });
}

/**
 * The MCP server of the active connection, read from the settings and the global state without
 * loading the features (VS Code asks in every window, as soon as the provider is registered); the
 * agent feature's provider (src/vscode/agent/mcpServer.ts) answers the same once it is loaded.
 */
function mcpServerDefinitions(context: vscode.ExtensionContext): vscode.McpStdioServerDefinition[] {
  const config = vscode.workspace.getConfiguration('cantonLedger');
  const profiles = storedProfiles(context.globalState.get(PROFILE_STATE_KEYS.own), config.inspect('connections'), vscode.workspace.isTrusted);
  const profile = activeProfile(profiles, context.globalState.get<string>(PROFILE_STATE_KEYS.active));
  const launch = mcpServerLaunch(profile, readAgentToolsSettings(config), { nodePath: process.execPath, serverPath: path.join(context.extensionPath, 'dist', 'mcp.js') });
  return launch ? [new vscode.McpStdioServerDefinition(launch.label, launch.command, launch.args, launch.env)] : [];
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
