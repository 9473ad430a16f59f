// The agent tools in the real extension host, against the embedded demo participant: every read tool
// called through vscode.lm.invokeTool (as another extension or an agent calls it) answers from the
// active connection with a bounded result; a write is refused without confirmation and done with it.
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import type { DemoParticipant } from '../../../src/participant';
import { deadUrl } from '../../support/deadPort';
import { activate, workspaceDir } from './helpers';
import { demoParticipant } from './sendHelpers';

const MAX_TEXT = 24_000 + 200;

function textOf(r: vscode.LanguageModelToolResult): string {
  return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('\n');
}

describe('Agent tools', function () {
  this.timeout(90_000);
  let api: CantonLedgerApi;
  let p: DemoParticipant;
  let startedDemo = false;
  const files: string[] = [];
  const invoke = async (name: string, input: object) => {
    const text = textOf(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }));
    assert.ok(text.length <= MAX_TEXT + 16_100, `${name}: ${text.length} characters`);
    return text;
  };

  before(async () => {
    api = await activate<CantonLedgerApi>();
    startedDemo = !api.demo.participant;
    p = await demoParticipant(api);
  });
  after(async () => {
    for (const f of files) rmSync(f, { force: true });
    await vscode.workspace.getConfiguration('cantonLedger').update('agentTools.allowWrites', undefined, vscode.ConfigurationTarget.Global);
    if (startedDemo) await vscode.commands.executeCommand('cantonLedger.demo.stop');
  });

  function commandsFile(name: string, commandId: string): string {
    const path = join(workspaceDir(), name);
    const { bank, alice } = p.parties;
    writeFileSync(path, JSON.stringify({ commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '1234.00', observers: [] } } }], commandId, actAs: [bank], userId: 'demo-admin' }, null, 2));
    files.push(path);
    return path;
  }

  it('this VS Code has vscode.lm.invokeTool, and lists every contributed tool', () => {
    assert.equal(typeof vscode.lm.invokeTool, 'function');
    const names = vscode.lm.tools.map((t) => t.name);
    for (const t of api.agentTools.tools) assert.ok(names.includes(t.tool.name) || t.tool.access === 'write', `${t.tool.name} is listed`);
  });

  it('every read tool answers from the active (demo) connection, bounded', async () => {
    const status = await invoke('canton_ledger_status', {});
    assert.match(status, new RegExp(`Ledger end: offset ${p.state.ledgerEnd}\\.`));
    const updates = await invoke('canton_list_updates', { limit: 3 });
    assert.match(updates, /^3 updates after offset 0/);
    assert.match(updates, /More updates follow: call again with beginExclusive \d+/);
    const data = JSON.parse(/^Data \(JSON\): (.*)$/m.exec(updates)![1]) as { updates: Array<{ offset: number; updateId: string; events: Array<{ contractId: string }> }> };
    const first = data.updates[0];
    assert.match(await invoke('canton_transaction', { offset: first.offset }), new RegExp(`^Transaction ${first.updateId} at offset ${first.offset}`));
    assert.match(await invoke('canton_contract_events', { contractId: first.events[0].contractId }), /^Contract /);
    assert.match(await invoke('canton_active_contracts', { templateId: '#demo-iou:Iou:Iou', where: [{ path: 'amount', op: 'gte', value: 100 }] }), /active contracts? of #demo-iou:Iou:Iou match/);
    assert.match(await invoke('canton_packages', { templateId: '#demo-iou:Iou:Iou' }), /^ {2}owner : Party$/m);
    assert.match(await invoke('canton_failed_commands', {}), /failed commands? \(newest first\)/);
    assert.match(await invoke('canton_compare_parties', { parties: ['Alice', 'Bob'] }), /Alice/);
    const file = commandsFile('agent-e2e.commands.json', 'agent-e2e-1');
    assert.match(await invoke('canton_validate_file', { file: 'agent-e2e.commands.json' }), /agent-e2e\.commands\.json \(commands\): no problems/);
    const end = p.state.ledgerEnd;
    assert.match(await invoke('canton_preview_commands', { file }), /Hash: hash verified\./);
    assert.equal(p.state.ledgerEnd, end, 'a preview submits nothing');
    assert.match(await invoke('canton_list_updates', { limit: 500 }), /^Error: The input does not fit canton_list_updates's schema: \/limit must be <= 50/);
  });

  it('bad input is an error result the agent can act on, and the host lives on: a file that does not exist, an unknown connection, one that is down', async () => {
    assert.match(await invoke('canton_validate_file', { file: 'absent.commands.json' }), /^Error: Cannot read absent\.commands\.json: no such file/);
    assert.match(await invoke('canton_transaction', { offset: 'ten' }), /^Error: The input does not fit canton_transaction's schema: \/offset must be integer/);
    assert.match(await invoke('canton_ledger_status', { connection: 'No such connection' }), /^Error: No Canton connection is called "No such connection": the connections are .*"/);
    const down = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', { name: 'E2E agent down', url: await deadUrl(), auth: 'none', userId: 'demo-admin' });
    try {
      assert.match(await invoke('canton_ledger_status', { connection: 'E2E agent down' }), /^Error: .*\nHint: /s);
      assert.match(await invoke('canton_list_updates', { connection: 'E2E agent down', limit: 2 }), /^Error: /);
    } finally {
      await api.connections.profiles.remove(down.id);
    }
    assert.match(await invoke('canton_ledger_status', {}), new RegExp(`Ledger end: offset ${p.state.ledgerEnd}\\.`), 'the active connection still answers');
  });

  it('a write is refused without confirmation, and done after it', async () => {
    commandsFile('agent-e2e-write.commands.json', 'agent-e2e-write-1');
    const end = p.state.ledgerEnd;
    assert.match(await invoke('canton_submit_commands', { file: 'agent-e2e-write.commands.json' }), /^Error: canton_submit_commands writes to the ledger, and writes are not allowed here/);
    await vscode.workspace.getConfiguration('cantonLedger').update('agentTools.allowWrites', true, vscode.ConfigurationTarget.Global);
    // The registered tool itself, as the chat calls it: prepareInvocation (the confirmation the user
    // accepts), then invoke. Without the first, the write is refused.
    const tool = api.agentTools.tools.find((t) => t.tool.name === 'canton_submit_commands')!;
    const cancel = new vscode.CancellationTokenSource();
    const input = { file: 'agent-e2e-write.commands.json' };
    assert.match(textOf(await tool.invoke({ input, toolInvocationToken: undefined }, cancel.token)), /it was not confirmed\. Nothing was sent\./);
    assert.equal(p.state.ledgerEnd, end);
    const prepared = await tool.prepareInvocation({ input }, cancel.token);
    assert.match(String((prepared.confirmationMessages!.message as vscode.MarkdownString).value), /Submit agent-e2e-write\.commands\.json to .*commandId agent-e2e-write-1; act as Bank::/s);
    const done = textOf(await tool.invoke({ input, toolInvocationToken: undefined }, cancel.token));
    assert.match(done, /^Submitted agent-e2e-write\.commands\.json: commandId agent-e2e-write-1 executed at offset \d+/);
    assert.ok(p.state.ledgerEnd > end);
  });
});
