// The ledger for coding agents in the editor: the core's agent tools as language-model tools (Copilot
// agent mode and others), answering from the active connection, and the `canton-ledger mcp` server
// offered to VS Code's MCP clients with that connection's URL and token.
import * as path from 'node:path';
import vscode = require('vscode');
import { AGENT_TOOLS_SETTINGS, readAgentToolsSettings } from '../../core/agent/settings';
import { AGENT_TOOLS } from '../../core/agent/table';
import type { AgentContext } from '../../core/agent/tool';
import type { LedgerConnection } from '../../core/ledger/connection';
import type { DamlDecoder } from '../../core/ledger/packages';
import { bundledPreviewReader } from '../files/submit/preview';
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { registerAgentTools, type AgentLanguageModelTool, type AgentToolsSettings } from './languageModelTools';
import { CantonMcpServerProvider } from './mcpServer';

export interface AgentToolsApi {
  /** The registered tools (empty where this VS Code has no language-model tools), for tests that call one directly. */
  readonly tools: readonly AgentLanguageModelTool[];
  /**
   * The MCP server offered to VS Code's MCP clients (undefined where this VS Code has none). The entry
   * registers the one provider of the window (src/vscode/deferred.ts), which answers before this feature
   * loads and hands over to this one once it has.
   */
  readonly mcpServer?: CantonMcpServerProvider;
}

export { AGENT_TOOLS_SETTINGS };

export function agentToolsSettings(): AgentToolsSettings {
  return readAgentToolsSettings(vscode.workspace.getConfiguration('cantonLedger'));
}

export function activateAgentTools(host: FeatureHost): ActivatedFeature<AgentToolsApi> {
  const extensionPath = host.context.extensionPath;
  const readPreparedAnswer = bundledPreviewReader(extensionPath);
  // The Daml-LF decoder's bundle, loaded on the first DAR a tool reads (as the packages are).
  const readDar = () => (require(path.join(extensionPath, 'dist', 'daml.js')) as DamlDecoder).readDar;
  const contextFor = (connection: LedgerConnection, signal: AbortSignal): AgentContext => ({
    connection,
    signal,
    baseDir: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd(),
    decoders: { readPreparedAnswer, readDar },
    pqs: () => connection.pqs,
    // It knows every token read from SecretStorage.
    redactor: host.redactor,
  });
  const mcpServer = mcpServerOf(host);
  const disposables: vscode.Disposable[] = mcpServer ? [mcpServer] : [];
  // An editor without language-model tools (before 1.95, or a fork without them) gets none.
  if (typeof vscode.lm?.registerTool !== 'function') return { disposables, api: { tools: [], mcpServer } };
  const registered = registerAgentTools(AGENT_TOOLS, {
    vscode: {
      registerTool: (name, tool) => vscode.lm.registerTool(name, tool),
      toolResult: (parts) => new vscode.LanguageModelToolResult(parts.map((p) => new vscode.LanguageModelTextPart(p))),
      markdown: (text) => new vscode.MarkdownString(text),
    },
    settings: agentToolsSettings,
    active: () => host.connections.active(),
    all: () => host.connections.all(),
    contextFor,
  });
  return { disposables: [...disposables, ...registered.disposables], api: { tools: registered.tools, mcpServer } };
}

/** The `canton-ledger mcp` server for the active connection, followed as it and the settings change. */
function mcpServerOf(host: FeatureHost): CantonMcpServerProvider | undefined {
  if (typeof vscode.lm?.registerMcpServerDefinitionProvider !== 'function') return undefined;
  const provider = new CantonMcpServerProvider({
    active: () => host.connections.active(),
    settings: agentToolsSettings,
    nodePath: process.execPath,
    serverPath: path.join(host.context.extensionPath, 'dist', 'mcp.js'),
    definition: (label, command, args, env) => new vscode.McpStdioServerDefinition(label, command, args, env),
    emitter: new vscode.EventEmitter<void>(),
    changes: [host.connections.onDidChange, (listener) => vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('cantonLedger.agentTools') && listener(e))],
  });
  return provider;
}
