// The `canton-ledger mcp` server offered to VS Code's MCP clients (mcpServerDefinitionProviders), run
// from its own bundle (dist/mcp.js: the server without the rest of the CLI): one server for the active
// connection, its URL in the environment, and its token handed through the environment only when
// VS Code starts the server (resolveMcpServerDefinition), read through the connection's token source
// from SecretStorage: never on the command line or in a settings file, and not in the definitions
// VS Code may keep.
import type * as vscode from 'vscode';
import { mcpServerLaunch, TOKEN_ENV } from '../../core/cliEnvironment';
import type { LedgerConnection } from '../../core/ledger/connection';
import { Disposable } from '../kit/lifecycle';
import type { AgentToolsSettings } from './languageModelTools';

export const MCP_PROVIDER_ID = 'cantonLedger.mcpServer';

export interface McpServerDeps {
  active(): LedgerConnection | undefined;
  settings(): AgentToolsSettings;
  /** The Node the server runs on (the extension host's own binary, run as Node) and the server's bundle (dist/mcp.js). */
  nodePath: string;
  serverPath: string;
  definition(label: string, command: string, args: string[], env: Record<string, string>): vscode.McpStdioServerDefinition;
  emitter: vscode.EventEmitter<void>;
  /** What changes the definitions: the active connection, the agent tools' settings. */
  changes: ReadonlyArray<vscode.Event<unknown>>;
}

export class CantonMcpServerProvider extends Disposable implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> {
  readonly onDidChangeMcpServerDefinitions: vscode.Event<void>;
  /** The connection each definition was made for, to read its token when VS Code starts it. */
  private readonly connectionOf = new WeakMap<vscode.McpStdioServerDefinition, LedgerConnection>();

  constructor(private readonly deps: McpServerDeps) {
    super();
    this.onDidChangeMcpServerDefinitions = this._register(deps.emitter).event;
    for (const change of deps.changes) this._register(change(() => this.changed()));
  }

  /** The active connection or its settings changed: VS Code asks for the definitions again. */
  changed(): void {
    this.deps.emitter.fire();
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const connection = this.deps.active();
    const launch = mcpServerLaunch(connection?.profile, this.deps.settings(), this.deps);
    if (!connection || !launch) return [];
    const definition = this.deps.definition(launch.label, launch.command, launch.args, launch.env);
    this.connectionOf.set(definition, connection);
    return [definition];
  }

  /** Called as VS Code starts the server: the token goes into its environment now, from the connection's token source. */
  async resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): Promise<vscode.McpStdioServerDefinition> {
    const connection = this.connectionOf.get(server) ?? this.deps.active();
    const token = connection?.profile.auth !== 'none' ? await connection?.tokens?.provider() : undefined;
    if (token) server.env = { ...server.env, [TOKEN_ENV]: token };
    return server;
  }
}
