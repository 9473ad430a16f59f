// package.json's `languageModelTools` and the core's table agree both ways, as the command map and
// package.json do (test/vscode/commandMap.test.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_TOOLS } from '../../../src/core/agent/table';
import { AGENT_TOOLS_SETTINGS } from '../../../src/vscode/agent';
import { languageModelToolContribution } from '../../../src/vscode/agent/languageModelTools';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));

describe('agent tools: package.json and the core table', () => {
  const contributed: Array<Record<string, unknown>> = manifest.contributes.languageModelTools ?? [];

  it('contributes every tool of the table, and no other', () => {
    assert.deepEqual(contributed.map((t) => t.name).sort(), AGENT_TOOLS.map((t) => t.name).sort());
  });

  it('each contributed entry is the one the table makes (name, descriptions, input schema, when): regenerate it from the table when this fails', () => {
    for (const tool of AGENT_TOOLS) assert.deepEqual(contributed.find((c) => c.name === tool.name), languageModelToolContribution(tool), tool.name);
  });

  it('the writes are behind allowWrites, every tool behind enabled, and both settings are declared (allowWrites only by the user)', () => {
    const properties = manifest.contributes.configuration.properties;
    assert.equal(properties[`cantonLedger.${AGENT_TOOLS_SETTINGS.enabled}`].default, true);
    assert.equal(properties[`cantonLedger.${AGENT_TOOLS_SETTINGS.allowWrites}`].default, false);
    assert.equal(properties[`cantonLedger.${AGENT_TOOLS_SETTINGS.allowWrites}`].scope, 'application', 'a workspace cannot turn the writes on');
    for (const c of contributed) {
      const write = AGENT_TOOLS.find((t) => t.name === c.name)!.access === 'write';
      assert.match(c.when as string, /config\.cantonLedger\.agentTools\.enabled/);
      assert.equal(/config\.cantonLedger\.agentTools\.allowWrites/.test(c.when as string), write, c.name as string);
    }
  });
});

describe('agent tools: the activated extension registers them', () => {
  it('registers every contributed tool with VS Code, and offers them to the tests', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { activateAllFeatures } = require('../featureHost') as typeof import('../featureHost');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { fake } = require('../fake/vscode') as typeof import('../fake/vscode');
    const features = activateAllFeatures();
    try {
      assert.deepEqual([...fake.state.languageModelTools.keys()].sort(), AGENT_TOOLS.map((t) => t.name).sort());
      assert.equal(features.api.agentTools.tools.length, AGENT_TOOLS.length);
      assert.ok(features.api.agentTools.mcpServer, 'the MCP server provider the entry’s hands over to');
      // The entry registers the window's one provider (test/vscode/entryMcpServer.test.ts); the feature registers none beside it.
      assert.equal(fake.state.mcpServerProviders.size, 0);
    } finally {
      features.dispose();
    }
    assert.equal(fake.state.languageModelTools.size + fake.state.mcpServerProviders.size, 0, 'disposed with the extension');
  });
});

describe('agent tools: before the features load', () => {
  it('a stand-in per contributed tool loads the features on the first call and hands the call (and its confirmation) to the real tool', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { activateDeferred } = require('../../../src/vscode/deferred') as typeof import('../../../src/vscode/deferred');
    const tools = new Map<string, { invoke: (o: unknown, t: unknown) => unknown; prepareInvocation?: (o: unknown, t: unknown) => unknown }>();
    const noop = { dispose: () => undefined };
    let loads = 0;
    const real = { invoke: async (o: { input: unknown }) => `real answer to ${JSON.stringify(o.input)}`, prepareInvocation: async () => ({ invocationMessage: 'real' }) };
    const host = {
      commands: { registerCommand: () => noop, executeCommand: async () => undefined },
      window: { registerTreeDataProvider: () => noop, showErrorMessage: async () => undefined, registerWebviewPanelSerializer: () => noop },
      workspace: { textDocuments: [], onDidOpenTextDocument: () => noop, registerTextDocumentContentProvider: () => noop, getConfiguration: () => ({ get: () => undefined }) },
      lm: {
        registerTool: (name: string, tool: never) => {
          tools.set(name, tool);
          return { dispose: () => tools.delete(name) };
        },
      },
    };
    activateDeferred(host as never, { subscriptions: [], extension: { packageJSON: { contributes: { languageModelTools: [{ name: 'canton_ledger_status' }] } } } as never }, {
      load: () => {
        loads++;
        return { api: {}, provideContent: () => undefined, deserializeWebviewPanel: () => undefined, languageModelTool: (name: string) => (name === 'canton_ledger_status' ? (real as never) : undefined) };
      },
      apiKeys: [],
      schemes: [],
      webviewTypes: [],
    });
    const standIn = tools.get('canton_ledger_status')!;
    assert.equal(loads, 0);
    assert.deepEqual(await standIn.prepareInvocation!({ input: {} }, undefined), { invocationMessage: 'real' });
    assert.equal(loads, 1);
    assert.equal(tools.size, 0, 'the stand-in is gone once the features load (they register the real tool)');
    assert.equal(await standIn.invoke({ input: { a: 1 } }, undefined), 'real answer to {"a":1}');
    assert.equal(loads, 1);
  });
});
