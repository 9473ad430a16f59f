// The MCP server the extension contributes (mcpServerDefinitionProviders), as VS Code gets it: VS Code
// asks the provider for the active connection's definition (observed here: the provider's calls are
// recorded); the definition it got is resolved as VS Code resolves it when it starts the server (the
// token read from SecretStorage into the process environment then, never into the arguments), and that
// very definition is started and driven over stdio with the SDK's Client.
// Why not VS Code's own start: the workbench command that starts an MCP server
// (`workbench.mcp.startServer`, what the MCP Servers view's Start runs) returns here without starting
// it, and the extension is never asked to resolve it (waited for 90 s, code-server 4.139 without a
// chat extension set up); an extension has no other way to start one, nor to call the tools of one
// VS Code started (vscode.lm.invokeTool of an MCP tool needs the chat's confirmation).
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import type { DemoParticipant, DemoParticipantOptions } from '../../../src/participant';
import { activate, extension, registerSecret, waitFor } from './helpers';

type ParticipantModule = { startDemoParticipant(o: DemoParticipantOptions): Promise<DemoParticipant> };

/** A demo participant with authentication, from the extension's own bundle (a suite is a bundle of its own). */
function startParticipant(o: DemoParticipantOptions): Promise<DemoParticipant> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path.join(extension().extensionPath, 'dist', 'participant.js')) as ParticipantModule;
  return mod.startDemoParticipant({ port: 0, ...o });
}

function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('Agent tools: the MCP server VS Code starts', function () {
  this.timeout(120_000);
  let api: CantonLedgerApi;
  let p: DemoParticipant;
  let token: string;
  let profileId: string;
  let previouslyActive: string | undefined;
  const provided: vscode.McpStdioServerDefinition[] = [];
  const got: vscode.McpStdioServerDefinition[] = [];
  const resolved: vscode.McpStdioServerDefinition[] = [];
  const restore: Array<() => void> = [];
  let client: Client | undefined;

  before(async () => {
    api = await activate<CantonLedgerApi>();
    const provider = api.agentTools.mcpServer;
    assert.ok(provider, 'this VS Code has registerMcpServerDefinitionProvider');
    // The provider's answers to VS Code, recorded: the objects VS Code holds, and a copy of each as it was offered.
    const provide = provider.provideMcpServerDefinitions.bind(provider);
    provider.provideMcpServerDefinitions = () => {
      const ds = provide();
      got.push(...ds);
      provided.push(...ds.map((d) => ({ ...d, args: [...d.args], env: { ...d.env } }) as vscode.McpStdioServerDefinition));
      return ds;
    };
    restore.push(() => (provider.provideMcpServerDefinitions = provide));

    p = await startParticipant({ seed: 44, auth: { secret: `e2e-mcp-hs256-${randomUUID()}` } });
    token = registerSecret(await p.mintToken('demo-admin', { expiresInSeconds: 240 }));
    previouslyActive = api.connections.profiles.active()?.id;
    const profile = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', { name: 'E2E MCP', url: p.url, auth: 'jwt', userId: 'demo-admin' });
    profileId = profile.id;
    await vscode.commands.executeCommand('cantonLedger.token.set', profileId, token);
    await vscode.commands.executeCommand('cantonLedger.connections.setActive', profileId);
    await api.connections.connectionFor(api.connections.profiles.get(profileId)!).connect();
  });

  after(async () => {
    await client?.close();
    for (const r of restore) r();
    if (previouslyActive) await vscode.commands.executeCommand('cantonLedger.connections.setActive', previouslyActive);
    if (profileId) await api.connections.profiles.remove(profileId);
    await p?.close();
  });


  it('VS Code asks for the definition of the new active connection; resolved as at start, it carries the token in its environment, never in its arguments', async () => {
    await waitFor(() => provided.some((d) => d.env.CANTON_LEDGER_URL === p.url), { what: 'VS Code to ask for the definitions of the new active connection', timeoutMs: 20_000 });
    const offered = provided.filter((d) => d.env.CANTON_LEDGER_URL === p.url).at(-1)!;
    assert.equal(offered.label, 'Canton Ledger (E2E MCP)');
    assert.ok(!JSON.stringify(offered).includes(token), 'the offered definition (which VS Code may keep) has no token');
    // The object VS Code got from the provider, resolved as VS Code resolves it when it starts the server.
    const held = got.filter((d) => d.env.CANTON_LEDGER_URL === p.url).at(-1)!;
    const started = await api.agentTools.mcpServer!.resolveMcpServerDefinition(held);
    resolved.push(started);
    assert.equal(started.env.CANTON_LEDGER_TOKEN, token, 'the token from SecretStorage, in the environment');
    assert.ok(!started.args.some((a) => a.includes(token)) && !started.command.includes(token), 'never on the command line');
    assert.equal(started.command, process.execPath, "the extension host's own Node");
    assert.equal(path.basename(started.args[0]), 'mcp.js');
    assert.equal(started.args.includes('--allow-writes'), false, 'read-only by default');
  });

  it('the resolved definition starts the server, which answers over stdio to the SDK client: its tools, a read with the token, a write refused', async () => {
    const d = resolved.at(-1)!;
    assert.ok(d, 'resolved by the test before');
    const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
    for (const [k, v] of Object.entries(d.env)) if (v !== null && v !== undefined) env[k] = String(v);
    client = new Client({ name: 'canton-ledger-e2e', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: d.command, args: d.args, env, ...(d.cwd ? { cwd: d.cwd.fsPath } : {}), stderr: 'ignore' }));
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), api.agentTools.tools.map((t) => t.tool.name));
    const status = (await client.callTool({ name: 'canton_ledger_status', arguments: {} })) as CallToolResult;
    assert.ok(!status.isError, textOf(status));
    // The participant takes requests with a valid token only: the answer is proof the token arrived.
    assert.match(textOf(status), new RegExp(`Ledger end: offset ${p.state.ledgerEnd}\\.`));
    assert.match(textOf(status), /User: demo-admin\./);
    assert.ok(!JSON.stringify(status).includes(token));
    const end = p.state.ledgerEnd;
    const write = (await client.callTool({ name: 'canton_submit_commands', arguments: { file: 'absent.commands.json' } })) as CallToolResult;
    assert.equal(write.isError, true);
    assert.match(textOf(write), /writes are not allowed here/);
    assert.equal(p.state.ledgerEnd, end);
  });
});
