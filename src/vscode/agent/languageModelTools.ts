// The core's agent tools (src/core/agent/table.ts) as VS Code language-model tools: each answers from
// the active connection (or the one the agent names), and a write runs only after the confirmation
// that prepareInvocation shows, with exactly what is sent.
import type * as vscode from 'vscode';
import { describeAgentWrite, invokeAgentTool } from '../../core/agent/invoke';
import type { AgentContext, AgentTool, ToolInputSchema, ToolResult } from '../../core/agent/tool';
import type { LedgerConnection } from '../../core/ledger/connection';

/** The input every tool takes in the editor beside its own: which connection to answer from. */
export const CONNECTION_PROPERTY = {
  type: 'string',
  minLength: 1,
  description: 'The name of the Canton connection to use (default: the active connection).',
} as const;

/** The tool's input schema as contributed in package.json: the table's, with the connection to answer from. */
export function editorInputSchema(tool: AgentTool): ToolInputSchema {
  return { ...tool.inputSchema, properties: { ...tool.inputSchema.properties, connection: CONNECTION_PROPERTY } };
}

/** The `contributes.languageModelTools` entry of a tool, made from the table (the manifest test checks package.json against it). */
export function languageModelToolContribution(tool: AgentTool): Record<string, unknown> {
  return {
    name: tool.name,
    toolReferenceName: tool.name.replace(/^canton_/, 'canton-').replace(/_/g, '-'),
    displayName: `Canton: ${tool.title}`,
    modelDescription: tool.description,
    userDescription: tool.description.split(/(?<=\.) /)[0],
    canBeReferencedInPrompt: true,
    tags: ['canton', 'daml', 'ledger', tool.access === 'write' ? 'write' : 'read'],
    inputSchema: editorInputSchema(tool),
    // The settings turn the tools off, and the writing ones (the confirmation still guards each write).
    when: tool.access === 'write' ? 'config.cantonLedger.agentTools.enabled && config.cantonLedger.agentTools.allowWrites' : 'config.cantonLedger.agentTools.enabled',
  };
}

/** The part of VS Code the tools use: handed in, so that the unit tests use a fake. */
export interface AgentToolsVscode {
  registerTool(name: string, tool: vscode.LanguageModelTool<Record<string, unknown>>): vscode.Disposable;
  toolResult(parts: string[]): vscode.LanguageModelToolResult;
  markdown(text: string): vscode.MarkdownString;
}

import type { AgentToolsSettings } from '../../core/agent/settings';
export type { AgentToolsSettings };

export interface AgentToolsDeps {
  vscode: AgentToolsVscode;
  settings(): AgentToolsSettings;
  /** The active connection, and every connection (to find one the agent names). */
  active(): LedgerConnection | undefined;
  all(): readonly LedgerConnection[];
  /** The context a call runs with on a connection (the decoders, the workspace folder, the redactor's secrets). */
  contextFor(connection: LedgerConnection, signal: AbortSignal): AgentContext;
}

/** JSON of the data beside the text, when it is small enough to be worth a model's reading. */
const MAX_DATA_PART = 16_000;

/** No connection to answer from: a clear error result, never a throw. */
class NoConnectionError extends Error {
  override readonly name = 'NoConnectionError';
}

/** One table entry as a LanguageModelTool. */
export class AgentLanguageModelTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  /** Inputs whose write the user confirmed (prepareInvocation showed it): a write without one is refused. */
  private readonly confirmed = new Set<string>();

  constructor(
    readonly tool: AgentTool,
    private readonly deps: AgentToolsDeps,
  ) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>, token: vscode.CancellationToken): Promise<vscode.PreparedToolInvocation> {
    const settings = this.deps.settings();
    if (this.tool.access === 'read' || !settings.enabled || !settings.allowWrites) return { invocationMessage: `${this.tool.title}…` };
    const { connection, input } = this.split(options.input);
    let text: string;
    try {
      text = (await this.withContext(connection, token, (ctx) => describeAgentWrite(this.tool, input, ctx))).text;
    } catch (e) {
      text = `What would be sent could not be read: ${e instanceof Error ? e.message : String(e)}`;
    }
    this.confirmed.add(key(options.input));
    return {
      invocationMessage: `${this.tool.title}…`,
      confirmationMessages: { title: `${this.tool.title}?`, message: this.deps.vscode.markdown(['This sends to the participant:', '', '```text', text.replace(/```/g, '``\u200b`'), '```'].join('\n')) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const settings = this.deps.settings();
    const { connection, input } = this.split(options.input);
    // A write runs only with its confirmation: one prepareInvocation showed, for this very input.
    const confirmed = this.tool.access === 'write' && settings.allowWrites && this.confirmed.delete(key(options.input));
    let result: ToolResult;
    if (!settings.enabled) result = { text: 'The Canton ledger tools are turned off (setting cantonLedger.agentTools.enabled).', data: null, isError: true };
    else if (this.tool.access === 'write' && settings.allowWrites && !confirmed) result = { text: `${this.tool.name} writes to the ledger and runs only after the user confirms what it sends; it was not confirmed. Nothing was sent.`, data: null, isError: true };
    else {
      try {
        result = await this.withContext(connection, token, (ctx) => invokeAgentTool(this.tool.name, input, ctx, { writes: confirmed ? 'confirmed' : 'refused' }));
      } catch (e) {
        result = { text: e instanceof Error ? e.message : String(e), data: null, isError: true };
      }
    }
    return this.deps.vscode.toolResult(resultParts(result));
  }

  /** The editor's own input (the connection) apart from the table's. */
  private split(raw: Record<string, unknown> | undefined): { connection: unknown; input: Record<string, unknown> } {
    const { connection, ...input } = raw ?? {};
    return { connection, input };
  }

  private async withContext<T>(name: unknown, token: vscode.CancellationToken, run: (ctx: AgentContext) => Promise<T>): Promise<T> {
    const connection = this.connectionNamed(name);
    const abort = new AbortController();
    const listener = token.onCancellationRequested(() => abort.abort());
    try {
      return await run(this.deps.contextFor(connection, abort.signal));
    } finally {
      listener.dispose();
    }
  }

  private connectionNamed(name: unknown): LedgerConnection {
    if (typeof name === 'string') {
      const named = this.deps.all().find((c) => c.profile.name === name || c.id === name);
      if (!named) throw new NoConnectionError(`No Canton connection is called "${name}": the connections are ${this.deps.all().map((c) => `"${c.profile.name}"`).join(', ') || 'none'}.`);
      return named;
    }
    const active = this.deps.active();
    if (!active) throw new NoConnectionError('No Canton connection is active: add one (Canton Ledger: Add Connection) or start the demo participant, then select it.');
    return active;
  }
}

function key(input: unknown): string {
  return JSON.stringify(input ?? {});
}

/** The text first; the data as JSON after it when small (a model reads both; the text alone carries the answer). */
export function resultParts(r: ToolResult): string[] {
  const text = r.isError ? `Error: ${r.text}` : r.text;
  const data = r.data === null || r.data === undefined ? undefined : JSON.stringify(r.data);
  return data !== undefined && data.length <= MAX_DATA_PART ? [text, `Data (JSON): ${data}`] : [text];
}

/** Registers every tool of the table; the disposables unregister them. */
export function registerAgentTools(tools: readonly AgentTool[], deps: AgentToolsDeps): { disposables: vscode.Disposable[]; tools: AgentLanguageModelTool[] } {
  const made = tools.map((t) => new AgentLanguageModelTool(t, deps));
  return { disposables: made.map((t) => deps.vscode.registerTool(t.tool.name, t)), tools: made };
}
