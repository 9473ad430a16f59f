// The MCP server the extension contributes (mcpServerDefinitionProviders), started by VS Code itself:
// VS Code asks the provider for the active connection's definition, resolves it as it starts the
// server (the token read from SecretStorage into the process environment then, never into the
// arguments), runs `node dist/mcp.js` and offers the server's tools as its own MCP tools
// (`mcp_<server>_<tool>` in vscode.lm.tools), which it calls over stdio. The test starts the server
// as the MCP Servers view's Start does (`workbench.mcp.startServer`), watches the provider's calls,
// calls a tool through VS Code, and drives the very definition VS Code resolved with the SDK's Client.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textOf } from '../../support/mcpResults';
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

describe('Agent tools: the MCP server VS Code starts', function () {
  this.timeout(120_000);
  let api: CantonLedgerApi;
  let p: DemoParticipant;
  let token: string;
  let profileId: string;
  let previouslyActive: string | undefined;
  const provided: vscode.McpStdioServerDefinition[] = [];
  const resolved: vscode.McpStdioServerDefinition[] = [];
  const restore: Array<() => void> = [];
  let client: Client | undefined;

  before(async () => {
    api = await activate<CantonLedgerApi>();
    const provider = api.agentTools.mcpServer;
    assert.ok(provider, 'this VS Code has registerMcpServerDefinitionProvider');
    // The provider's answers to VS Code, recorded as they were given.
    const provide = provider.provideMcpServerDefinitions.bind(provider);
    provider.provideMcpServerDefinitions = () => {
      const ds = provide();
      provided.push(...ds.map((d) => ({ ...d, args: [...d.args], env: { ...d.env } }) as vscode.McpStdioServerDefinition));
      return ds;
    };
    restore.push(() => (provider.provideMcpServerDefinitions = provide));
    const resolve = provider.resolveMcpServerDefinition.bind(provider);
    provider.resolveMcpServerDefinition = async (d) => {
      const r = await resolve(d);
      resolved.push({ ...r, args: [...r.args], env: { ...r.env } } as vscode.McpStdioServerDefinition);
      return r;
    };
    restore.push(() => (provider.resolveMcpServerDefinition = resolve));

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


  /** VS Code's MCP tool of our server for a tool of the table. */
  const vscodeTool = (name: string) => vscode.lm.tools.find((t) => t.name.startsWith('mcp_') && t.name.endsWith(`_${name}`));

  it('VS Code asks for the definition of the new active connection, and resolves it as it starts the server: the token in its environment, never in its arguments', async () => {
    await waitFor(() => provided.some((d) => d.env.CANTON_LEDGER_URL === p.url), { what: 'VS Code to ask for the definitions of the new active connection', timeoutMs: 20_000 });
    const offered = provided.filter((d) => d.env.CANTON_LEDGER_URL === p.url).at(-1)!;
    assert.equal(offered.label, 'Canton Ledger (E2E MCP)');
    assert.ok(!JSON.stringify(offered).includes(token), 'the offered definition (which VS Code keeps) has no token');
    // Start, as the MCP Servers view does; asked again until VS Code has taken in the new definition
    // (it does so a moment after the provider answered).
    const failures: string[] = [];
    const started = (await waitFor(
      () => {
        const done = resolved.find((d) => d.env.CANTON_LEDGER_URL === p.url);
        if (!done) void Promise.resolve(vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true, autoTrustChanges: true })).then(undefined, (e: unknown) => failures.push(String(e)));
        return done;
      },
      { what: `VS Code to resolve the definition as it starts the server${failures.length ? ` (${failures.join('; ')})` : ''}`, timeoutMs: 30_000, intervalMs: 2000 },
    ))!;
    assert.equal(started.env.CANTON_LEDGER_TOKEN, token, 'the token from SecretStorage, in the environment');
    assert.ok(!started.args.some((a) => a.includes(token)) && !started.command.includes(token), 'never on the command line');
    assert.equal(started.command, process.execPath, "the extension host's own Node");
    assert.equal(path.basename(started.args[0]), 'mcp.js');
    assert.equal(started.args.includes('--allow-writes'), false, 'read-only by default');
  });

  it('the server VS Code started lists every tool, which VS Code offers as its MCP tools, with no token', async () => {
    await waitFor(() => api.agentTools.tools.every((t) => vscodeTool(t.tool.name)), { what: "VS Code's MCP tools of the Canton server", timeoutMs: 30_000 });
    for (const t of api.agentTools.tools) assert.ok(!JSON.stringify(vscodeTool(t.tool.name)).includes(token), `${t.tool.name} carries no token`);
    assert.equal(vscodeTool('canton_submit_commands')!.description.length > 40, true);
  });

  it('VS Code calls a read tool of the server it started: the ledger status, read with the token', async () => {
    const name = vscodeTool('canton_ledger_status')!.name;
    const result = await vscode.lm.invokeTool(name, { input: {}, toolInvocationToken: undefined });
    const parts = result.content.map((c) => (c instanceof vscode.LanguageModelTextPart ? c.value : ''));
    assert.ok(!parts.join('\n').includes(token));
    // VS Code gives the model the structured content alone when there is one: the server puts its text there too.
    const answer = JSON.parse(parts.join('')) as { text: string; ledgerEnd: number };
    assert.equal(answer.ledgerEnd, p.state.ledgerEnd);
    // The participant takes requests with a valid token only: the answer is proof the token arrived.
    assert.match(answer.text, new RegExp(`Ledger end: offset ${p.state.ledgerEnd}\\.`));
    assert.match(answer.text, /User: demo-admin\./);
  });

  it('the definition VS Code resolved, started again, answers the SDK client over stdio: its tools, a read with the token, a write refused', async () => {
    const d = resolved.filter((x) => x.env.CANTON_LEDGER_URL === p.url).at(-1)!;
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
