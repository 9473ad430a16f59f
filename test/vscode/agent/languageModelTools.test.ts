import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { AGENT_TOOLS } from '../../../src/core/agent/table';
import { LedgerClient } from '../../../src/core/api/client';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { LedgerConnection } from '../../../src/core/ledger/connection';
import { PackageStore } from '../../../src/core/ledger/packages';
import { readPreparedAnswer } from '../../../src/core/preview/decode';
import { Redactor } from '../../../src/core/redact';
import { type DemoParticipant } from '../../../src/participant/index';
import { registerAgentTools, type AgentLanguageModelTool, type AgentToolsSettings } from '../../../src/vscode/agent/languageModelTools';
import { startCheckedParticipant } from '../../support/specCheck';
import { fake, LanguageModelTextPart, type LanguageModelToolResult } from '../fake/vscode';

const EXAMPLES = join(__dirname, '../../../examples/demo-workspace');

function textOf(r: unknown): string {
  return (r as LanguageModelToolResult).content.map((p) => (p as LanguageModelTextPart).value).join('\n');
}

describe('agent tools in the editor: language-model tools over the core table', function () {
  this.timeout(60_000);
  let p: DemoParticipant;
  let connection: LedgerConnection;
  let dir: string;
  let settings: AgentToolsSettings;
  let active: LedgerConnection | undefined;
  let registered: { disposables: vscode.Disposable[]; tools: AgentLanguageModelTool[] };
  const token = () => new vscode.CancellationTokenSource().token;
  const tool = (name: string) => registered.tools.find((t) => t.tool.name === name)!;

  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 42 });
    connection = new LedgerConnection({
      profile: { id: 'demo', name: 'Demo', url: p.url, auth: 'none', userId: 'demo-admin', source: 'user' },
      client: new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 }),
      packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })),
    });
    dir = mkdtempSync(join(tmpdir(), 'agent-glue-'));
    writeFileSync(join(dir, 'iou.commands.json'), readFileSync(join(EXAMPLES, 'iou-create.commands.json')));
  });
  after(async () => {
    connection.dispose();
    await p.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    fake.reset();
    settings = { enabled: true, allowWrites: false };
    active = connection;
    registered = registerAgentTools(AGENT_TOOLS, {
      vscode: {
        registerTool: (name, t) => vscode.lm.registerTool(name, t),
        toolResult: (parts) => new vscode.LanguageModelToolResult(parts.map((x) => new vscode.LanguageModelTextPart(x))),
        markdown: (text) => new vscode.MarkdownString(text),
      },
      settings: () => settings,
      active: () => active,
      all: () => [connection],
      contextFor: (c, signal) => ({ connection: c, signal, baseDir: dir, decoders: { readPreparedAnswer: () => readPreparedAnswer, readDar: () => readDar }, redactor: new Redactor() }),
    });
  });
  afterEach(() => registered.disposables.forEach((d) => d.dispose()));

  it('registers every tool of the table once, under its name; disposing unregisters them', () => {
    assert.deepEqual([...fake.state.languageModelTools.keys()], AGENT_TOOLS.map((t) => t.name));
    registered.disposables.forEach((d) => d.dispose());
    assert.equal(fake.state.languageModelTools.size, 0);
  });

  it('a read answers from the active connection, or the one named; none or an unknown name is an error result', async () => {
    const r = textOf(await vscode.lm.invokeTool('canton_ledger_status', { input: {}, toolInvocationToken: undefined }));
    assert.match(r, new RegExp(`Ledger end: offset ${p.state.ledgerEnd}\\.`));
    assert.match(r, /^Data \(JSON\): \{"url"/m);
    assert.match(textOf(await vscode.lm.invokeTool('canton_ledger_status', { input: { connection: 'Demo' }, toolInvocationToken: undefined })), /^Connected to /);
    assert.match(textOf(await vscode.lm.invokeTool('canton_ledger_status', { input: { connection: 'Elsewhere' }, toolInvocationToken: undefined })), /^Error: No Canton connection is called "Elsewhere": the connections are "Demo"\./);
    active = undefined;
    assert.match(textOf(await vscode.lm.invokeTool('canton_ledger_status', { input: {}, toolInvocationToken: undefined })), /^Error: No Canton connection is active/);
  });

  it('a bad input is an error result naming the field', async () => {
    const r = textOf(await vscode.lm.invokeTool('canton_list_updates', { input: { limit: 0 }, toolInvocationToken: undefined }));
    assert.match(r, /^Error: The input does not fit canton_list_updates's schema: \/limit must be >= 1/);
  });

  it('the setting turns the tools off', async () => {
    settings.enabled = false;
    assert.match(textOf(await vscode.lm.invokeTool('canton_ledger_status', { input: {}, toolInvocationToken: undefined })), /turned off \(setting cantonLedger\.agentTools\.enabled\)/);
  });

  it('a write without allowWrites: no confirmation, refused, nothing sent', async () => {
    const end = p.state.ledgerEnd;
    const prepared = await tool('canton_submit_commands').prepareInvocation({ input: { file: 'iou.commands.json' } }, token());
    assert.equal(prepared.confirmationMessages, undefined);
    const r = textOf(await vscode.lm.invokeTool('canton_submit_commands', { input: { file: 'iou.commands.json' }, toolInvocationToken: undefined }));
    assert.match(r, /^Error: canton_submit_commands writes to the ledger, and writes are not allowed here/);
    assert.equal(p.state.ledgerEnd, end);
  });

  it('with allowWrites, a write runs only after the confirmation that shows exactly what is sent', async () => {
    settings.allowWrites = true;
    const end = p.state.ledgerEnd;
    const input = { file: 'iou.commands.json' };
    // Called without prepareInvocation (no confirmation shown): refused.
    const unconfirmed = textOf(await vscode.lm.invokeTool('canton_submit_commands', { input, toolInvocationToken: undefined }));
    assert.match(unconfirmed, /runs only after the user confirms what it sends; it was not confirmed\. Nothing was sent\./);
    assert.equal(p.state.ledgerEnd, end);

    const prepared = await tool('canton_submit_commands').prepareInvocation({ input }, token());
    const message = (prepared.confirmationMessages!.message as vscode.MarkdownString).value;
    assert.equal(prepared.confirmationMessages!.title, 'Submit a commands file?');
    assert.match(message, /Submit iou\.commands\.json to Demo/);
    assert.match(message, /commandId demo-iou-create-0001; act as Bank::/);
    assert.match(message, /Preview of commandId demo-iou-create-0001/);
    assert.equal(p.state.ledgerEnd, end, 'the confirmation sends nothing');

    const done = textOf(await vscode.lm.invokeTool('canton_submit_commands', { input, toolInvocationToken: undefined }));
    assert.match(done, /^Submitted iou\.commands\.json: commandId demo-iou-create-0001 executed at offset \d+/);
    assert.ok(p.state.ledgerEnd > end);
    // A confirmation is good for one call.
    assert.match(textOf(await vscode.lm.invokeTool('canton_submit_commands', { input, toolInvocationToken: undefined })), /it was not confirmed/);
  });
});
