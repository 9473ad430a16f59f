// The MCP server provider the entry registers at activation (src/extension.ts, src/vscode/deferred.ts),
// against the fake VS Code API: VS Code asks a registered provider for its definitions at once in every
// window, so it answers from the settings and the global state without loading the features; only
// resolving (VS Code starting the server) loads the agent feature, whose provider adds the token.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { TOKEN_ENV, URL_ENV } from '../../src/core/cliEnvironment';
import { PROFILE_STATE_KEYS } from '../../src/core/connections';
import { fake, MemoryMemento } from './fake/vscode';
import { fakeExtensionContext } from './featureHost';

const ROOT = join(__dirname, '..', '..');
const PROVIDER_ID = 'cantonLedger.mcpServer';
type Provider = vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>;

describe('the entry: the MCP server provider registered at activation', () => {
  let extensionPath: string;
  let featuresJs: string;
  const subscriptions: { dispose(): unknown }[] = [];

  beforeEach(() => {
    fake.reset();
    // An extension folder whose dist/features.js is the source's, so that its loading can be seen.
    extensionPath = mkdtempSync(join(tmpdir(), 'canton-entry-mcp-'));
    mkdirSync(join(extensionPath, 'dist'));
    featuresJs = join(extensionPath, 'dist', 'features.js');
    writeFileSync(featuresJs, `module.exports = require(${JSON.stringify(join(ROOT, 'src', 'features.ts'))});\n`);
  });

  afterEach(() => {
    subscriptions.splice(0).reverse().forEach((s) => s.dispose());
    delete require.cache[featuresJs];
    rmSync(extensionPath, { recursive: true, force: true });
  });

  function activateEntry(globalState: MemoryMemento): { context: vscode.ExtensionContext; api: import('../../src/extension').CantonLedgerApi } {
    const context = { ...(fakeExtensionContext(subscriptions) as object), extensionPath, globalState } as unknown as vscode.ExtensionContext;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { activate } = require('../../src/extension') as typeof import('../../src/extension');
    return { context, api: activate(context) };
  }
  const featuresLoaded = () => require.cache[featuresJs] !== undefined;

  it('answers the active profile’s server without loading the features; resolving loads them and adds the token to the environment only', async () => {
    const globalState = new MemoryMemento();
    await globalState.update(PROFILE_STATE_KEYS.own, [
      { id: 'p-other', name: 'Other', url: 'http://localhost:1111', auth: 'none' },
      { id: 'p-local', name: 'Local', url: 'http://localhost:7575/', auth: 'jwt', userId: 'alice' },
    ]);
    await globalState.update(PROFILE_STATE_KEYS.active, 'p-local');
    const { context, api } = activateEntry(globalState);

    const provider = fake.state.mcpServerProviders.get(PROVIDER_ID) as Provider | undefined;
    assert.ok(provider, 'registered at activation, in a window without a Canton file');
    let changes = 0;
    subscriptions.push(provider.onDidChangeMcpServerDefinitions!(() => changes++));
    const [definition, ...more] = (await provider.provideMcpServerDefinitions(undefined as never)) ?? [];
    assert.equal(more.length, 0);
    assert.equal(definition.label, 'Canton Ledger (Local)');
    assert.equal(definition.command, process.execPath);
    assert.deepEqual(definition.args, [join(extensionPath, 'dist', 'mcp.js')]);
    assert.deepEqual(definition.env, { [URL_ENV]: 'http://localhost:7575', ELECTRON_RUN_AS_NODE: '1' });
    assert.equal(featuresLoaded(), false, 'answering loaded the features');

    // The settings it reads: VS Code asks again, and the answer follows them.
    fake.setSetting('cantonLedger.agentTools.allowWrites', true);
    assert.equal(changes, 1);
    assert.deepEqual((await provider.provideMcpServerDefinitions(undefined as never))?.[0].args, [join(extensionPath, 'dist', 'mcp.js'), '--allow-writes']);
    fake.setSetting('cantonLedger.agentTools.enabled', false);
    assert.deepEqual(await provider.provideMcpServerDefinitions(undefined as never), []);
    fake.setSetting('cantonLedger.agentTools.enabled', true);
    assert.equal(featuresLoaded(), false);

    await context.secrets.store('cantonLedger.token/p-local', 'the-token');
    const resolved = await provider.resolveMcpServerDefinition!(definition, undefined as never);
    assert.equal(featuresLoaded(), true, 'starting the server loaded the agent feature');
    assert.equal(resolved?.env[TOKEN_ENV], 'the-token');
    assert.ok(!resolved?.args.some((a) => a.includes('the-token')), 'the token is not on the command line');
    assert.equal((await provider.provideMcpServerDefinitions(undefined as never))?.[0].env[TOKEN_ENV], undefined, 'nor in the definitions VS Code keeps');

    // Once loaded, the agent feature's provider answers and its changes reach VS Code; it registers no second one.
    assert.deepEqual([...fake.state.mcpServerProviders.keys()], [PROVIDER_ID]);
    const before = changes;
    api.agentTools.mcpServer!.changed();
    assert.equal(changes, before + 1);
    await api.connections.profiles.setActive('p-other');
    assert.ok(changes > before + 1, 'switching the active connection asks VS Code again');
    assert.equal((await provider.provideMcpServerDefinitions(undefined as never))?.[0].env[URL_ENV], 'http://localhost:1111');

    subscriptions.splice(0).reverse().forEach((s) => s.dispose());
    assert.equal(fake.state.mcpServerProviders.size, 0, 'disposed with the extension');
  });

  it('answers nothing without an active profile, and loads nothing; a workspace profile counts once the workspace is trusted', async () => {
    fake.state.isTrusted = false;
    fake.setSetting('cantonLedger.connections', [{ name: 'Ws', url: 'http://localhost:4444' }], 'workspace');
    activateEntry(new MemoryMemento());
    const provider = fake.state.mcpServerProviders.get(PROVIDER_ID) as Provider;
    let changes = 0;
    subscriptions.push(provider.onDidChangeMcpServerDefinitions!(() => changes++));
    assert.deepEqual(await provider.provideMcpServerDefinitions(undefined as never), []);
    fake.grantTrust();
    assert.equal(changes, 1);
    assert.equal((await provider.provideMcpServerDefinitions(undefined as never))?.[0].env[URL_ENV], 'http://localhost:4444');
    assert.equal(featuresLoaded(), false);
  });
});
