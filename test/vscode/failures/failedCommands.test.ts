// Failed commands in the editor, against the fake VS Code API and a demo participant: a rejected submit
// leaves its cause marked in the file until the file changes or is sent again; the Failed Commands view
// lists this window's failures and, live, an application's (here a plain client's) rejected completions,
// pages back through older ones with Load more, and follows only while shown; Explain opens the
// explanation; Go to Cause opens the file that carries the command, the cause marked.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerClient } from '../../../src/core/api/client';
import type { DemoParticipant } from '../../../src/participant';
import { CauseDiagnostics } from '../../../src/vscode/files/submit/causeDiagnostics';
import type { Completion } from '../../../src/core/models/completions';
import { failedCommandRow, type FailedCommand } from '../../../src/core/submit/failedCommands';
import { FailedCommandsView } from '../../../src/vscode/failures/failedCommandsView';
import { SubmissionHistory } from '../../../src/vscode/files/submit/history';
import { readPreparedAnswer } from '../../../src/core/preview/decode';
import { PreviewController } from '../../../src/vscode/files/submit/preview';
import { SubmitController } from '../../../src/vscode/files/submit/submit';
import { MarkdownReports } from '../../../src/vscode/files/submit/textDocuments';
import { start } from '../../participant/helpers';
import { commands, fake, MemoryMemento, TextEditorRevealType, TreeItemCollapsibleState, Uri, workspace, type Selection } from '../fake/vscode';
import { Commands } from '../../../src/vscode/kit/ids';
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
  /** Waits for a state as the tree would see it: each change is read back through getChildren, as VS Code does. */
  const until = async (what: string, test: () => boolean, v = view) => {
    for (await v.getChildren(); !test(); await v.getChildren()) {
      await new Promise<void>((resolve) => {
        const sub = v.onDidChangeTreeData(() => (sub.dispose(), resolve()));
        setTimeout(() => (sub.dispose(), resolve()), 200);
      });
    }
    assert.ok(test(), what);
  };
  const upToDate = (v = view) => v.liveStatus?.description?.endsWith('up to date') ?? false;
  const commandRows = () => view.commandRows();
  const rootIds = async () => (await view.getChildren()).map((n) => n.id);
  const iouCreate = (commandId: string) => ({ CreateCommand: { templateId: IOU, createArguments: { issuer: p.parties.alice, owner: p.parties.alice, currency: 'EUR', amount: '3', observers: [] } } });
  /** An application (a plain client) sends a command twice: a completion, and a rejected duplicate. */
  const sendTwice = async (commandId: string) => {
    const app = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
    const body = { commands: { commands: [iouCreate(commandId)], commandId, actAs: [p.parties.alice], userId: 'demo-admin' } };
    await app.submitAndWaitForTransaction(body as never);
    await assert.rejects(app.submitAndWaitForTransaction(body as never));
    return commandId;
  };
  /** Alice's completions of demo-admin's commands in one read, oldest first. */
  const participantCompletions = async () => {
    const out: Completion[] = [];
    const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
    for await (const batch of client.streamCompletions(0, { parties: [p.parties.alice], userId: 'demo-admin' }, { idleTimeoutMs: 50 })) for (const e of batch) if (e.kind === 'completion') out.push(e.completion);
    return out;
  };
  const newView = () => new FailedCommandsView(window.manager, history, reports, causes, window.prompts, window.deps.logger, window.deps.redactor);

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
    view = newView();
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
    const report = await view.explain(row.node);
    assert.ok(report);
    assert.match(reports.provideTextDocumentContent(report), /^# CONTRACT_NOT_FOUND — command unit-/m);
    causes.clear(uri as never);
    const editor = (await view.goToCause(row.node)) as unknown as { document: { uri: Uri }; selection: Selection } | undefined;
    assert.equal(editor?.document.uri.toString(), uri.toString());
    assert.equal(marked(uri, text).text, `"${cid}"`);
    // The cause is selected with the cursor at its start, and revealed in the middle of the editor from
    // its line's start, where its key ("contractId") is.
    const causeLine = text.split('\n').findIndex((l) => l.includes(cid));
    assert.deepEqual([editor!.selection.active.line, editor!.selection.active.character], [causeLine, text.split('\n')[causeLine].indexOf(`"${cid}"`)]);
    const [revealed] = fake.state.revealed;
    assert.equal(revealed?.type, TextEditorRevealType.InCenter);
    assert.deepEqual([revealed.range.start.line, revealed.range.start.character, revealed.range.end.line], [causeLine, 0, causeLine]);
    assert.match(text.split('\n')[causeLine], /^\s*"contractId": /);

    // Editing the file takes the mark away.
    fake.openDocument(uri, text).setText(text.replace(cid, `00${'3d'.repeat(33)}`));
    assert.equal(causes.of(uri as never).length, 0);
  });

  it('a failure whose cause is a contract opens the contract\'s lineage graph and its Contract Events from under its row; the explanation says so', async () => {
    const cid = `00${'4e'.repeat(33)}`;
    const { uri } = writeFile('lineage.commands.json', `unit-${randomUUID()}`, exercise(cid));
    fake.answerMessage(undefined);
    const outcome = await controller.submitFile(uri);
    assert.equal(outcome.record?.failure?.code, 'CONTRACT_NOT_FOUND');
    const row = commandRows().find((n) => n.command.commandId === outcome.record!.commandId)!;
    assert.equal(view.getTreeItem(row.node).collapsibleState, TreeItemCollapsibleState.Collapsed, 'the row has links under it');
    const links = await view.getChildren(row.node);
    assert.deepEqual(links.map((n) => view.getTreeItem(n).label), ['Contract Lineage', 'Contract Events']);
    const opened: Array<[string, unknown]> = [];
    const recorders = [Commands.showContractLineage, Commands.showContractEvents].map((id) => commands.registerCommand(id, (arg: unknown) => void opened.push([id, arg])));
    try {
      for (const link of links) {
        const { command, arguments: args = [] } = view.getTreeItem(link).command!;
        await commands.executeCommand(command, ...args);
      }
    } finally {
      recorders.forEach((r) => r.dispose());
    }
    assert.deepEqual(opened, [[Commands.showContractLineage, { contractId: cid }], [Commands.showContractEvents, cid]]);
    const explained = reports.provideTextDocumentContent((await view.explain(row.node))!);
    assert.match(explained, new RegExp(`^## The contract\n\n\x60${cid}\x60: its lineage graph and Contract Events open from this command's row in Failed Commands`, 'm'));
    // A failure whose cause is not a contract has nothing under its row.
    const duplicate = { key: 'k', source: 'participant' as const, commandId: 'c', actAs: [], failure: { code: 'DUPLICATE_COMMAND', cause: `A command with the given command id has already been processed (${cid})`, metadata: {}, resources: [] } };
    assert.equal(failedCommandRow(duplicate).children, undefined);
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
    const { uri, text } = writeFile('app.commands.json', commandId, iouCreate(commandId));
    fake.state.findFiles = () => [uri];
    await until('following, the backlog read', () => upToDate());
    assert.match(view.liveStatus!.label, /^Following (every user's|demo-admin's) completions on Demo$/);

    await sendTwice(commandId);
    await until('the rejected completion listed', () => commandRows().some((n) => n.command.commandId === commandId));
    const rows = commandRows().filter((n) => n.command.commandId === commandId);
    assert.equal(rows.length, 1, 'the succeeded one is hidden');
    assert.equal(rows[0].command.source, 'participant');
    assert.equal(rows[0].command.failure?.code, 'DUPLICATE_COMMAND');
    view.toggleSucceeded();
    assert.equal(commandRows().filter((n) => n.command.commandId === commandId).length, 2, 'shown on request');

    await view.goToCause(rows[0].node);
    assert.deepEqual(marked(uri, text), { code: 'DUPLICATE_COMMAND', source: 'Canton', text: `"${commandId}"` });
  });

  it('pages: the first holds the offsets Read From… names, Load more reads older ones, each completion once; the ledger start is one page', async () => {
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) sent.push(await sendTwice(`page-${i}-${randomUUID()}`));
    view.toggleSucceeded();
    const ours = () => commandRows().filter((n) => sent.includes(n.command.commandId)).map((n) => `${n.command.commandId}@${n.command.offset}`);
    // The participant's completions of these commands, newest first, as one read gives them.
    const all = (await participantCompletions()).filter((c) => sent.includes(c.commandId)).map((c) => `${c.commandId}@${c.offset}`).reverse();
    assert.equal(all.length, 6);

    // From the offset before the last command's completions: the first page holds those two only.
    const lastTwo = Number(all[1].split('@')[1]) - 1;
    fake.answerQuickPick((item: { label: string }) => item.label === 'An offset…');
    fake.answerInputBox(String(lastTwo));
    assert.deepEqual(await view.readFrom(), { offset: lastTwo });
    await until('the first page read', () => upToDate());
    assert.deepEqual(ours(), all.slice(0, 2));
    assert.ok((await rootIds()).includes('failed/more'), 'Load more offered');
    while ((await rootIds()).includes('failed/more')) await view.loadMore();
    assert.deepEqual(ours(), all, 'every page once, newest first');

    // The ledger start: one page, nothing more to load.
    fake.answerQuickPick((item: { label: string }) => item.label === 'The ledger start');
    assert.equal(await view.readFrom(), 'start');
    await until('read again from the start', () => upToDate());
    assert.deepEqual(ours(), all);
    assert.ok(!(await rootIds()).includes('failed/more'));
  });

  it('a hidden view reads nothing from the participant; shown again, it goes on where it stood: no gap, no repeat', async () => {
    await until('following', () => upToDate());
    view.toggleSucceeded();
    const tree = fake.state.treeViews.get('cantonLedger.failedCommands')!.view;
    tree.setVisible(false);
    assert.equal(view.following, false, 'following stopped (its reads aborted)');
    const commandId = await sendTwice(`hidden-${randomUUID()}`);
    assert.equal(commandRows().filter((n) => n.command.commandId === commandId).length, 0);
    tree.setVisible(true);
    await until('both completions of the command sent while hidden', () => commandRows().filter((n) => n.command.commandId === commandId).length === 2);
    await until('up to date again', () => upToDate());
    assert.equal(commandRows().filter((n) => n.command.commandId === commandId).length, 2, 'each once');
  });

  it('a command id no workspace file carries: listed, and Go to Cause says so and opens nothing', async () => {
    fake.state.findFiles = () => [];
    const command: FailedCommand = { key: 'x', source: 'participant', commandId: 'nobody-knows', actAs: [], failure: { code: 'DUPLICATE_COMMAND', cause: 'dup', metadata: {}, resources: [] } };
    assert.equal(await view.goToCause(command), undefined);
    assert.match(fake.state.messages.at(-1)!.text, /^No file in this workspace carries commandId "nobody-knows"/);
  });
});
