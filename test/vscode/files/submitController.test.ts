// The Submit command's controller against the fake VS Code API and a demo participant: what the user is
// told for each outcome, what the history keeps, and that the connection's ledger state follows the
// write by itself (the controller calls no "after write"). A lost answer is an unknown outcome, never
// re-sent by itself; the user's "Retry Same ID" is answered "already executed". Submitted
// again as it is, a file is answered "already executed" too, with the way on: a new commandId.
import { paidTrafficCostInline } from '../../../src/core/trafficCost';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionProfile } from '../../../src/core/connections';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { PackageStore } from '../../../src/core/ledger/packages';
import type { DemoParticipant } from '../../../src/participant';
import type { ConnectionManager } from '../../../src/vscode/connections/manager';
import { ALREADY_EXECUTED_CODE, CommandIdAssist, NEW_COMMAND_ID_TITLE } from '../../../src/vscode/files/submit/commandId';
import { SubmissionHistory } from '../../../src/vscode/files/submit/history';
import { SubmitActions, SubmitController } from '../../../src/vscode/files/submit/submit';
import { start } from '../../participant/helpers';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { CodeActionKind, fake, MemoryMemento, Range, Uri, workspace, type FakeTextDocument } from '../fake/vscode';
import { sendWindow, type SendWindow } from './sendHarness';

describe('SubmitController (the Submit command) against the fake VS Code API', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let proxy: FaultProxy;
  let window: SendWindow;
  let manager: ConnectionManager;
  let controller: SubmitController;
  let history: SubmissionHistory;
  let profile: ConnectionProfile;
  const opened: unknown[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'submit-controller-'));
  const uri = Uri.file(join(dir, 'iou.commands.json'));

  /** The file on disk and open in the window (saved: not dirty), laid out as a person writes it. */
  const writeFile = (commandId: string, templateId = '#demo-iou:Iou:Iou', values: { currency?: string; amount?: string } = {}): FakeTextDocument => {
    const { bank, alice } = p.parties;
    const text = `${JSON.stringify({ commandId, actAs: [bank], commands: [{ CreateCommand: { templateId, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '10.0', observers: [], ...values } } }] }, null, 2)}\n`;
    writeFileSync(uri.fsPath, text);
    return fake.openDocument(uri, text);
  };
  const executedWith = (commandId: string) => p.state.entries.filter((e) => (e as { commandId?: string }).commandId === commandId).length;

  before(async () => {
    p = await start({ port: 0 });
    proxy = await startFaultProxy(p.url);
  });
  after(async () => {
    workspace.textDocuments.splice(0);
    rmSync(dir, { recursive: true, force: true });
    await proxy.close();
    await p.close();
  });

  beforeEach(async () => {
    opened.length = 0;
    const documents = { show: async (_kind: string, name: string, value: unknown) => (opened.push({ name, value }), { document: { uri: Uri.parse(`canton-ledger:/${encodeURIComponent(name)}`) } }) };
    window = await sendWindow(proxy.url, { documents: documents as never });
    ({ manager, profile } = window);
    history = new SubmissionHistory(new MemoryMemento() as never);
    controller = new SubmitController(window.deps, history, window.prompts, () => undefined);
  });
  afterEach(() => {
    history.dispose();
    window.dispose();
  });

  it('succeeded: the transaction opens, the summary is shown, the history keeps it, and the ledger end moves with no call of ours', async () => {
    writeFile(`unit-${randomUUID()}`);
    const ledger = manager.connectionFor(profile).ledger!;
    const endBefore = ledger.ledgerEnd!;
    const outcome = await controller.submitFile(uri);
    assert.equal(outcome.record?.outcome, 'succeeded');
    assert.ok(outcome.record!.offset! > endBefore);
    assert.equal(ledger.ledgerEnd, outcome.record!.offset, 'the connection took the offset the write reached');
    assert.equal(opened.length, 1, 'the transaction opened');
    assert.match(fake.state.messages.at(-1)!.text, /^Transaction .* at offset \d+: .*1 created/);
    // The demo plays 3.5, which reports what the submitting participant paid: in the result's line.
    const paid = (outcome.record!.transaction as { paidTrafficCost?: number }).paidTrafficCost;
    assert.ok(paid !== undefined && paid > 0);
    assert.ok(fake.state.messages.at(-1)!.text.endsWith(` (${paidTrafficCostInline(paid)})`), fake.state.messages.at(-1)!.text);
    assert.equal(history.get(outcome.record!.id)?.outcome, 'succeeded');
  });

  it('a lost answer: "outcome unknown", nothing re-sent by itself; Retry Same ID is answered "already executed"', async () => {
    const commandId = `unit-${randomUUID()}`;
    writeFile(commandId);
    proxy.add({ method: 'POST', path: '/v2/commands/submit-and-wait-for-transaction', fault: { kind: 'drop' }, times: 1 });
    const sentBefore = proxy.count('POST', '/v2/commands/submit-and-wait-for-transaction');
    fake.answerMessage(SubmitActions.retrySameCommandId);
    const outcome = await controller.submitFile(uri);
    const [unknown, ...rest] = fake.state.messages;
    assert.equal(unknown.severity, 'warning');
    assert.match(unknown.text, new RegExp(`^Outcome unknown: iou\\.commands\\.json \\(commandId "${commandId}"\\) may or may not have executed`));
    assert.deepEqual(unknown.actions, [SubmitActions.retrySameCommandId, SubmitActions.lookItUp]);
    assert.equal(outcome.record?.outcome, 'unknown');
    assert.equal(outcome.action, SubmitActions.retrySameCommandId);
    assert.equal(outcome.next?.record?.outcome, 'duplicate', 'the retry found it executed once');
    assert.match(rest.at(-1)!.text, new RegExp(`^Already executed: commandId "${commandId}" was accepted before`));
    assert.ok(!rest.at(-1)!.actions.includes(SubmitActions.newCommandIdAndSubmit), 'a retry was meant to run at most once: no new commandId offered');
    assert.equal(proxy.count('POST', '/v2/commands/submit-and-wait-for-transaction') - sentBefore, 2, 'sent twice: the first, and the retry the user chose');
    assert.equal(executedWith(commandId), 1, 'executed once');
  });

  it('submitted again as it is: "already executed" offers New ID and Submit, which changes only the id (saved) and runs the commands once more', async () => {
    const commandId = `unit-${randomUUID()}`;
    const document = writeFile(commandId);
    const before = document.getText();
    assert.equal((await controller.submitFile(uri)).record?.outcome, 'succeeded');
    fake.answerMessage(SubmitActions.newCommandIdAndSubmit);
    const again = await controller.submitFile(uri);
    assert.equal(again.record?.outcome, 'duplicate');
    const executed = fake.state.messages.find((m) => m.text.startsWith('Already executed'))!;
    assert.match(executed.text, new RegExp(`^Already executed: commandId "${commandId}" was accepted before`));
    assert.equal(executed.actions[0], SubmitActions.newCommandIdAndSubmit);
    assert.equal(again.action, SubmitActions.newCommandIdAndSubmit);
    const rerun = again.next?.record;
    assert.equal(rerun?.outcome, 'succeeded', 'the new submission ran');
    assert.notEqual(rerun!.commandId, commandId);
    assert.equal(document.getText(), before.replace(commandId, rerun!.commandId), 'only the id changed, byte for byte');
    assert.equal(readFileSync(uri.fsPath, 'utf8'), document.getText(), 'the saved file was saved again');
    assert.equal(executedWith(commandId), 1);
    assert.equal(executedWith(rerun!.commandId), 1);
  });

  it('after "already executed" the commandId carries the answer and the quick fix "Use a new commandId"; fixed, the answer goes', async () => {
    const assist = new CommandIdAssist(history);
    try {
      const commandId = `unit-${randomUUID()}`;
      const document = writeFile(commandId);
      const onId = new Range(document.positionAt(document.getText().indexOf(commandId)), document.positionAt(document.getText().indexOf(commandId)));
      assert.deepEqual(assist.diagnosticsOf(uri), [], 'not yet answered');
      const rewrite = assist.provideCodeActions(document as never, onId as never, { diagnostics: [], triggerKind: 1, only: undefined } as never);
      assert.deepEqual(rewrite.map((a) => [a.title, a.kind?.value]), [[NEW_COMMAND_ID_TITLE, CodeActionKind.RefactorRewrite.value]], 'on the id, always offered as a rewrite');
      await controller.submitFile(uri);
      await controller.submitFile(uri);
      const [diagnostic] = assist.diagnosticsOf(uri);
      assert.equal(diagnostic?.code, ALREADY_EXECUTED_CODE);
      assert.match(diagnostic.message, new RegExp(`^commandId "${commandId}" was already executed on Demo`));
      assert.equal(document.getText(diagnostic.range as never), JSON.stringify(commandId), 'on the id');
      const [fix] = assist.provideCodeActions(document as never, diagnostic.range as never, { diagnostics: [diagnostic], triggerKind: 1, only: undefined } as never);
      assert.equal(fix.title, NEW_COMMAND_ID_TITLE);
      assert.equal(fix.kind?.value, CodeActionKind.QuickFix.value);
      assert.equal(fix.isPreferred, true);
      await workspace.applyEdit(fix.edit as never);
      assert.notEqual(JSON.parse(document.getText()).commandId, commandId);
      assert.deepEqual(assist.diagnosticsOf(uri), [], 'a new id: the answer no longer applies');
    } finally {
      assist.dispose();
    }
  });

  it('refused: recorded as failed with the Canton code, reported once', async () => {
    writeFile(`unit-${randomUUID()}`, '#demo-iou:Iou:NoSuchTemplate');
    const outcome = await controller.submitFile(uri);
    assert.equal(outcome.record?.outcome, 'failed');
    assert.ok(outcome.record?.errorCode, 'a Canton error code');
    const errors = fake.state.messages.filter((m) => m.severity === 'error');
    assert.equal(errors.length, 1);
    assert.match(errors[0].text, /^Submitting iou\.commands\.json failed: /);
  });

  it('a placeholder left in a Daml value ("<Text>", "<Numeric 10>") is refused before anything is sent, with where it is', async () => {
    const documents = window.deps.documents;
    window.dispose();
    window = await sendWindow(proxy.url, { documents, packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })) });
    controller = new SubmitController(window.deps, history, window.prompts, () => undefined);
    const commandId = `unit-${randomUUID()}`;
    writeFile(commandId, '#demo-iou:Iou:Iou', { currency: '<Text>', amount: '<Numeric 10>' });
    const sentBefore = proxy.count('POST', '/v2/commands/submit-and-wait-for-transaction');
    const outcome = await controller.submitFile(uri);
    assert.equal(outcome.record, undefined, 'nothing recorded: nothing was sent');
    assert.equal(proxy.count('POST', '/v2/commands/submit-and-wait-for-transaction'), sentBefore);
    assert.equal(executedWith(commandId), 0);
    const [refusal] = fake.state.messages.filter((m) => m.severity === 'error');
    assert.match(refusal.text, /^iou\.commands\.json was not submitted: it has 2 errors: line \d+:\d+ Fill in this Text: "<Text>" is a placeholder\.; line \d+:\d+ Fill in this Numeric 10: "<Numeric 10>" is a placeholder\./);
    assert.deepEqual(refusal.actions, ['Show Problems']);

    // Filled in, the same file goes.
    writeFile(commandId, '#demo-iou:Iou:Iou', { currency: 'EUR', amount: '12.5' });
    assert.equal((await controller.submitFile(uri)).record?.outcome, 'succeeded');
  });
});
