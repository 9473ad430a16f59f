// Failed commands in the editor, against the fake VS Code API and a demo participant: a rejected submit
// leaves its cause marked in the file until the file changes or is sent again; the Failed Commands view
// lists this window's failures and, live, an application's (here a plain client's) rejected completions;
// Explain opens the explanation; Go to Cause opens the file that carries the command, the cause marked.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerClient } from '../../../src/core/api/client';
import type { DemoParticipant } from '../../../src/participant';
import { CauseDiagnostics } from '../../../src/vscode/failures/causeDiagnostics';
import { FailedCommandsView, type FailedCommandsNode } from '../../../src/vscode/failures/failedCommandsView';
import { SubmissionHistory } from '../../../src/vscode/files/submit/history';
import { readPreparedAnswer } from '../../../src/core/preview/decode';
import { PreviewController } from '../../../src/vscode/files/submit/preview';
import { SubmitController } from '../../../src/vscode/files/submit/submit';
import { MarkdownReports } from '../../../src/vscode/files/submit/textDocuments';
import { start } from '../../participant/helpers';
import { commands, fake, MemoryMemento, Uri, workspace } from '../fake/vscode';
import { sendWindow, type SendWindow } from '../files/sendHarness';

const IOU = '#demo-iou:Iou:Iou';

describe('failed commands in the editor', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let window: SendWindow;
  let history: SubmissionHistory;
  let causes: CauseDiagnostics;
  let reports: MarkdownReports;
  let controller: SubmitController;
  let view: FailedCommandsView;
  const dir = mkdtempSync(join(tmpdir(), 'failed-commands-'));

  /** A commands file on disk and open, one key per line so positions are easy to state. */
  const writeFile = (name: string, commandId: string, command: unknown) => {
    const uri = Uri.file(join(dir, name));
    const text = `${JSON.stringify({ commandId, actAs: [p.parties.alice], commands: [command] }, null, 2)}\n`;
    writeFileSync(uri.fsPath, text);
    fake.openDocument(uri, text);
    return { uri, text };
  };
  const exercise = (contractId: string) => ({ ExerciseCommand: { templateId: IOU, contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner: p.parties.bob } } });
  const marked = (uri: Uri, text: string) => {
    const [d] = causes.of(uri as never);
    assert.ok(d, 'a diagnostic');
    const lines = text.split('\n');
    const start = lines.slice(0, d.range.start.line).join('\n').length + (d.range.start.line > 0 ? 1 : 0) + d.range.start.character;
    const end = lines.slice(0, d.range.end.line).join('\n').length + (d.range.end.line > 0 ? 1 : 0) + d.range.end.character;
    return { code: d.code, source: d.source, text: text.slice(start, end) };
  };
  const until = async (what: string, test: () => boolean) => {
    while (!test()) {
      await new Promise<void>((resolve) => {
        const sub = view.onDidChangeTreeData(() => (sub.dispose(), resolve()));
        setTimeout(() => (sub.dispose(), resolve()), 200);
      });
    }
    assert.ok(test(), what);
  };
  const commandRows = () => view.rows().filter((n): n is Extract<FailedCommandsNode, { kind: 'command' }> => n.kind === 'command');

  before(async () => {
    p = await start({ port: 0, apiVersion: '3.5' });
  });
  after(async () => {
    workspace.textDocuments.splice(0);
    rmSync(dir, { recursive: true, force: true });
    await p.close();
  });
  beforeEach(async () => {
    window = await sendWindow(p.url);
    // sendWindow has the plain preview; the locked one opens beside an active editor.
    commands.registerCommand('markdown.showLockedPreviewToSide', () => undefined);
    history = new SubmissionHistory(new MemoryMemento() as never);
    causes = new CauseDiagnostics();
    reports = new MarkdownReports();
    view = new FailedCommandsView(window.manager, history, reports, causes, window.prompts);
    view.setVisible(true);
    controller = new SubmitController(window.deps, history, window.prompts, () => undefined, { causes, explain: (r) => view.explainRecord(r) });
  });
  afterEach(() => {
    view.dispose();
    reports.dispose();
    causes.dispose();
    history.dispose();
    window.dispose();
  });

  it('a rejected submit marks its cause (the unknown contract id) with the Canton code, until the file changes', async () => {
    const cid = `00${'3c'.repeat(33)}`;
    const { uri, text } = writeFile('transfer.commands.json', `unit-${randomUUID()}`, exercise(cid));
    fake.answerMessage('Explain');
    const outcome = await controller.submitFile(uri);
    assert.equal(outcome.record?.outcome, 'failed');
    assert.equal(outcome.record?.failure?.code, 'CONTRACT_NOT_FOUND');
    assert.deepEqual(marked(uri, text), { code: 'CONTRACT_NOT_FOUND', source: 'Canton', text: `"${cid}"` });
    // The failure message's Explain opens the explanation, which says where the cause is.
    assert.equal(outcome.action, 'Explain');
    const line = text.split('\n').findIndex((l) => l.includes(cid)) + 1;
    const explained = reports.provideTextDocumentContent((await view.explainRecord(outcome.record!))!);
    assert.match(explained, new RegExp(`^transfer\\.commands\\.json:${line}:\\d+: the contract id ${cid} the error names\\.$`, 'm'));

    // The view lists it (this window's failure), Explain opens the explanation, Go to Cause the file.
    const row = commandRows().find((n) => n.command.commandId === outcome.record!.commandId);
    assert.ok(row, 'listed');
    assert.equal(row.command.source, 'this window');
    const report = await view.explain(row);
    assert.ok(report);
    assert.match(reports.provideTextDocumentContent(report), /^# CONTRACT_NOT_FOUND — command unit-/m);
    causes.clear(uri as never);
    const editor = (await view.goToCause(row)) as unknown as { document: { uri: Uri } } | undefined;
    assert.equal(editor?.document.uri.toString(), uri.toString());
    assert.equal(marked(uri, text).text, `"${cid}"`);

    // Editing the file takes the mark away.
    fake.openDocument(uri, text).setText(text.replace(cid, `00${'3d'.repeat(33)}`));
    assert.equal(causes.of(uri as never).length, 0);
  });

  it('a refused preview marks its cause too; the next attempt takes the old mark away first', async () => {
    const cid = `00${'4e'.repeat(33)}`;
    const { uri, text } = writeFile('preview.commands.json', `unit-${randomUUID()}`, exercise(cid));
    const previews = new PreviewController(window.deps, controller, window.prompts, () => undefined, () => readPreparedAnswer, history);
    try {
      await previews.previewFile(uri);
      assert.deepEqual(marked(uri, text), { code: 'CONTRACT_NOT_FOUND', source: 'Canton', text: `"${cid}"` });
      // Sent again and refused for another reason (no mark of its own): the old mark is gone.
      await controller.markRejection(uri as never, new Error('not a Canton answer'));
      assert.equal(causes.of(uri as never).length, 0);
    } finally {
      previews.dispose();
    }
  });

  it("an application's rejected command (a duplicate sent by a plain client) appears live; Go to Cause finds the workspace file carrying its command id", async () => {
    const commandId = `app-${randomUUID()}`;
    const create = { CreateCommand: { templateId: IOU, createArguments: { issuer: p.parties.alice, owner: p.parties.alice, currency: 'EUR', amount: '3', observers: [] } } };
    const { uri, text } = writeFile('app.commands.json', commandId, create);
    fake.state.findFiles = () => [uri];
    await until('following', () => view.rows().some((n) => n.kind === 'status' && n.text.startsWith('Following')));

    const app = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
    const body = { commands: { commands: [create], commandId, actAs: [p.parties.alice], userId: 'demo-admin' } };
    await app.submitAndWaitForTransaction(body as never);
    await assert.rejects(app.submitAndWaitForTransaction(body as never));
    await until('the rejected completion listed', () => commandRows().some((n) => n.command.commandId === commandId));
    const rows = commandRows().filter((n) => n.command.commandId === commandId);
    assert.equal(rows.length, 1, 'the succeeded one is hidden');
    assert.equal(rows[0].command.source, 'participant');
    assert.equal(rows[0].command.failure?.code, 'DUPLICATE_COMMAND');
    view.toggleSucceeded();
    assert.equal(commandRows().filter((n) => n.command.commandId === commandId).length, 2, 'shown on request');

    await view.goToCause(rows[0]);
    assert.deepEqual(marked(uri, text), { code: 'DUPLICATE_COMMAND', source: 'Canton', text: `"${commandId}"` });

    // Read From… the ledger start: read again from offset 0, each command once.
    fake.answerQuickPick((item: { label: string }) => item.label === 'The ledger start');
    assert.equal(await view.readFrom(), 'start');
    await until('read again', () => commandRows().filter((n) => n.command.commandId === commandId).length === 2);
    await until('following from the start', () => view.rows().some((n) => n.kind === 'status' && / from offset 0(, up to date)?$/.test(n.text)));
    assert.equal(commandRows().filter((n) => n.command.commandId === commandId).length, 2, 'no row twice');

    // Read From… an offset the user names: reading starts after it.
    const offset = commandRows().find((n) => n.command.commandId === commandId && n.command.offset !== undefined)!.command.offset!;
    fake.answerQuickPick((item: { label: string }) => item.label === 'An offset…');
    fake.answerInputBox(String(offset - 1));
    assert.deepEqual(await view.readFrom(), { offset: offset - 1 });
    await until('following from the offset', () => view.rows().some((n) => n.kind === 'status' && n.text.includes(` from offset ${offset - 1}`)));
  });

  it('a hidden view reads nothing from the participant; shown, it follows', async () => {
    const hidden = new FailedCommandsView(window.manager, history, reports, causes, window.prompts);
    try {
      assert.deepEqual(hidden.rows(), []);
      hidden.setVisible(true);
      const following = () => hidden.rows().some((n) => n.kind === 'status' && n.text.startsWith('Following'));
      while (!following()) await new Promise<void>((resolve) => { const sub = hidden.onDidChangeTreeData(() => (sub.dispose(), resolve())); });
      hidden.setVisible(false);
      assert.deepEqual(hidden.rows(), [], 'hidden again: nothing shown, following stopped');
    } finally {
      hidden.dispose();
    }
  });

  it('a command id no workspace file carries: listed, and Go to Cause says so and opens nothing', async () => {
    fake.state.findFiles = () => [];
    const node: FailedCommandsNode = { kind: 'command', command: { key: 'x', source: 'participant', commandId: 'nobody-knows', actAs: [], failure: { code: 'DUPLICATE_COMMAND', cause: 'dup', metadata: {}, resources: [] } } };
    assert.equal(await view.goToCause(node), undefined);
    assert.match(fake.state.messages.at(-1)!.text, /^No file in this workspace carries commandId "nobody-knows"/);
  });
});
