import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LedgerClient } from '../../../src/core/api/client';
import type { TokenSource } from '../../../src/core/auth/jwt';
import { LedgerConnection } from '../../../src/core/ledger/connection';
import { CantonMcpServerProvider, MCP_PROVIDER_ID } from '../../../src/vscode/agent/mcpServer';
import type { AgentToolsSettings } from '../../../src/vscode/agent/languageModelTools';
import { EventEmitter, fake, McpStdioServerDefinition } from '../fake/vscode';
import { manifest } from '../featureHost';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.planted-token-signature';

function connection(auth: 'jwt' | 'none'): LedgerConnection {
  const tokens: TokenSource = { provider: async () => TOKEN, claims: () => undefined, newAttempt: () => undefined, dispose: () => undefined };
  return new LedgerConnection({
    profile: { id: 'p1', name: 'Staging', url: 'https://ledger.example.com/api', auth, source: 'user' },
    client: new LedgerClient({ baseUrl: 'https://ledger.example.com/api' }),
    tokens: auth === 'jwt' ? tokens : undefined,
  });
}

describe('agent tools: the MCP server offered to VS Code', () => {
  let settings: AgentToolsSettings;
  let active: LedgerConnection | undefined;
  let change: EventEmitter<unknown>;
  let provider: CantonMcpServerProvider;
  beforeEach(() => {
    fake.reset();
    settings = { enabled: true, allowWrites: false };
    active = connection('jwt');
    change = new EventEmitter<unknown>();
    provider = new CantonMcpServerProvider({
      active: () => active,
      settings: () => settings,
      nodePath: '/opt/editor/node',
      serverPath: '/ext/dist/mcp.js',
      definition: (label, command, args, env) => new McpStdioServerDefinition(label, command, args, env) as unknown as vscode.McpStdioServerDefinition,
      emitter: new EventEmitter<void>() as unknown as vscode.EventEmitter<void>,
      changes: [change.event as unknown as vscode.Event<unknown>],
    });
  });
  afterEach(() => {
    provider.dispose();
    active?.dispose();
  });

  it('is contributed under the id it registers with', () => {
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [{ id: MCP_PROVIDER_ID, label: 'Canton Ledger' }]);
  });

  it('offers the MCP server (`canton-ledger mcp`, its own bundle) for the active connection: its URL in the environment, read-only unless writes are allowed', () => {
    const [d] = provider.provideMcpServerDefinitions();
    assert.equal(d.label, 'Canton Ledger (Staging)');
    assert.equal(d.command, '/opt/editor/node');
    assert.deepEqual(d.args, ['/ext/dist/mcp.js']);
    assert.deepEqual(d.env, { CANTON_LEDGER_URL: 'https://ledger.example.com/api', ELECTRON_RUN_AS_NODE: '1' });
    settings.allowWrites = true;
    assert.deepEqual(provider.provideMcpServerDefinitions()[0].args, ['/ext/dist/mcp.js', '--allow-writes']);
    settings.enabled = false;
    assert.deepEqual(provider.provideMcpServerDefinitions(), []);
    settings.enabled = true;
    active = undefined;
    assert.deepEqual(provider.provideMcpServerDefinitions(), []);
  });

  it('hands the token through the environment only as the server starts: never in the arguments or the offered definition', async () => {
    const [d] = provider.provideMcpServerDefinitions();
    assert.ok(!JSON.stringify(d).includes(TOKEN), 'the offered definition has no token');
    const resolved = await provider.resolveMcpServerDefinition(d);
    assert.equal(resolved.env.CANTON_LEDGER_TOKEN, TOKEN);
    assert.ok(!resolved.args.join(' ').includes(TOKEN));
    assert.equal(resolved.env.CANTON_LEDGER_URL, 'https://ledger.example.com/api');
  });

  it('a connection without auth starts the server with no token', async () => {
    active?.dispose();
    active = connection('none');
    const resolved = await provider.resolveMcpServerDefinition(provider.provideMcpServerDefinitions()[0]);
    assert.equal(resolved.env.CANTON_LEDGER_TOKEN, undefined);
  });

  it('tells VS Code to ask again when the active connection or the settings change; nothing after dispose', () => {
    let fired = 0;
    provider.onDidChangeMcpServerDefinitions(() => fired++);
    change.fire(undefined);
    assert.equal(fired, 1);
    provider.dispose();
    change.fire(undefined);
    assert.equal(fired, 1);
  });
});
