// Failed commands in the real extension host against the demo participant: the transfer of an archived
// Iou is rejected, its contract id marked in the file with the Canton code, the Failed Commands view
// lists it and Go to Cause comes back to the mark; a command the CLI sends twice (an application's
// duplicate) appears in the view live, from the participant's completions, and Go to Cause finds the
// workspace file that carries its command id.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import type { SubmitOutcome } from '../../../src/vscode/files/submit/submit';
import { waitFor } from './helpers';
import { closeEditors, demoParticipant, scripted, writeWorkspaceJson } from './sendHelpers';

const IOU = '#demo-iou:Iou:Iou';

function submit(uri: vscode.Uri): Thenable<SubmitOutcome> {
  return vscode.commands.executeCommand<SubmitOutcome>('cantonLedger.files.submit', uri);
}

function runCli(url: string, args: string[]): Promise<void> {
  const cli = process.env.E2E_CLI;
  if (!cli) return Promise.reject(new Error('E2E_CLI is not set: run the suites through test/e2e/run.mjs or electron.mjs'));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, ...args], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', CANTON_LEDGER_URL: url, CANTON_LEDGER_TOKEN: '' } }, (error) => {
      if (error) reject(new Error(`canton-ledger ${args.join(' ')} exited ${String(error.code)}`));
      else resolve();
    });
  });
}

/** The diagnostic Canton left in a file, and the text it marks. */
async function cantonMark(uri: vscode.Uri): Promise<{ code: unknown; text: string } | undefined> {
  const d = vscode.languages.getDiagnostics(uri).find((x) => x.source === 'Canton');
  if (!d) return undefined;
  const doc = await vscode.workspace.openTextDocument(uri);
  return { code: d.code, text: doc.getText(d.range) };
}

describe('failed commands', function () {
  this.timeout(90_000);
  let api: CantonLedgerApi;
  let p: Awaited<ReturnType<typeof demoParticipant>>;
  const rows = () => api.failures.view.commandRows();

  before(async () => {
    ({ api } = await scripted());
    p = await demoParticipant(api);
    // The view reads the participant's completions while it is shown: shown for this suite only (the
    // later suites count what is sent).
    await vscode.commands.executeCommand('cantonLedger.failedCommands.focus');
    await waitFor(() => api.failures.view.liveStatus?.description?.endsWith('up to date'), { timeoutMs: 30_000, what: 'Failed Commands following' });
  });
  after(async () => {
    // Hidden again: following stops.
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor(() => !api.failures.view.following, { what: 'Failed Commands no longer following' });
    await closeEditors();
  });

  it('a transfer of an archived Iou: rejected, its contract id marked with the code, listed, and Go to Cause comes back to it', async () => {
    const { prompts } = await scripted();
    const { bank, alice, bob } = p.parties;
    const create = writeWorkspaceJson('failed-create.commands.json', {
      commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '7.00', observers: [] } } }],
      commandId: `e2e-failed-create-${randomUUID()}`,
      actAs: [bank],
    });
    const created = await submit(create);
    const contractId = (created.record?.transaction?.events ?? []).map((e) => (e as { CreatedEvent?: { contractId: string } }).CreatedEvent?.contractId).find(Boolean);
    assert.ok(contractId, 'an Iou was created');
    const transfer = (name: string) =>
      writeWorkspaceJson(name, { commands: [{ ExerciseCommand: { templateId: IOU, contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner: bob } } }], commandId: `e2e-${name.replace(/\..*$/, '')}-${randomUUID()}`, actAs: [alice] });
    assert.equal((await submit(transfer('failed-transfer-1.commands.json'))).record?.outcome, 'succeeded', prompts.messages.map((m) => m.text).join('\n'));

    const again = transfer('failed-transfer-2.commands.json');
    const outcome = await submit(again);
    assert.equal(outcome.record?.outcome, 'failed');
    assert.deepEqual(await cantonMark(again), { code: 'CONTRACT_NOT_FOUND', text: `"${contractId}"` });

    const row = await waitFor(() => rows().find((n) => n.command.commandId === outcome.record?.commandId), { what: 'the rejection in Failed Commands' });
    assert.equal(row?.command.failure?.code, 'CONTRACT_NOT_FOUND');
    await closeEditors();
    await vscode.commands.executeCommand('cantonLedger.failedCommands.goToCause', row?.node);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.toString(), again.toString());
    assert.equal(editor?.document.getText(editor.selection), `"${contractId}"`);
    assert.deepEqual(await cantonMark(again), { code: 'CONTRACT_NOT_FOUND', text: `"${contractId}"` });
  });

  it("an application's failed command (the CLI sends one twice) appears live, and Go to Cause finds its file", async () => {
    await scripted();
    const { bank, alice } = p.parties;
    const commandId = `e2e-cli-dup-${randomUUID()}`;
    const file = writeWorkspaceJson('failed-cli.commands.json', {
      commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'CHF', amount: '2.00', observers: [] } } }],
      commandId,
      actAs: [bank],
    });
    await runCli(p.url, ['submit', file.fsPath]);
    // The second is answered "already executed" (exit 0); the participant keeps a rejected completion.
    await runCli(p.url, ['submit', file.fsPath]);
    const row = await waitFor(() => rows().find((n) => n.command.commandId === commandId && n.command.source === 'participant'), { timeoutMs: 30_000, what: 'the CLI duplicate in Failed Commands' });
    assert.equal(row?.command.failure?.code, 'DUPLICATE_COMMAND');
    await vscode.commands.executeCommand('cantonLedger.failedCommands.goToCause', row?.node);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), file.toString());
    assert.deepEqual(await cantonMark(file), { code: 'DUPLICATE_COMMAND', text: `"${commandId}"` });
  });
});
