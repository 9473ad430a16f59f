// Preview a commands file (prepare): the decoded transaction as a read-only document, nothing
// submitted; a refusal explained with what to do; "Submit now" submits the same file. In-host.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { waitFor } from './helpers';
import { closeEditors, demoParticipant, documentJson, scripted, writeWorkspaceJson } from './sendHelpers';

const IOU = '#demo-iou:Iou:Iou';
type Participant = Awaited<ReturnType<typeof demoParticipant>>;

describe('preview commands files (prepare)', function () {
  this.timeout(60_000);
  let p: Participant;
  const iouArgs = (owner: string) => ({ issuer: p.parties.bank, owner, currency: 'USD', amount: '7.00', observers: [] as string[] });
  const file = (name: string, commands: unknown[]) => {
    const commandId = `e2e-preview-${name}-${randomUUID()}`;
    return { commandId, uri: writeWorkspaceJson(`preview-${name}.commands.json`, { commands, commandId, actAs: [p.parties.bank], userId: 'demo-admin' }) };
  };

  before(async () => {
    const { api } = await scripted();
    p = await demoParticipant(api);
  });
  after(closeEditors);

  it('shows what a create would do, as a read-only document, and changes nothing on the ledger', async () => {
    const { api, prompts } = await scripted();
    const { uri } = file('create', [{ CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.alice) } }]);
    const end = p.state.ledgerEnd;
    const outcome = await api.send.preview.previewFile(uri);
    assert.ok(outcome.resultUri, prompts.messages.map((m) => m.text).join('\n'));
    const shown = await documentJson(outcome.resultUri);
    assert.match(String(shown.preview), /Nothing was submitted/);
    assert.equal(shown.created.length, 1);
    assert.match(JSON.stringify(shown.created[0]), /Iou/);
    assert.match(String(shown.hash), /^[0-9a-f]{64}$/);
    assert.ok(shown.hashingSchemeVersion);
    assert.match(String(shown.hashCheck), /^hash verified \(V2\)/, 'the hash was recomputed from the transaction and matches');
    assert.equal(outcome.hash?.kind, 'verified');
    assert.equal(p.state.ledgerEnd, end, 'the ledger did not move');
    const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === outcome.resultUri!.toString());
    assert.ok(editor, 'the preview is open');
  });

  it('"Submit now" submits the same file with the same commandId', async () => {
    const { api, prompts } = await scripted();
    const { uri, commandId } = file('then-submit', [{ CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.bob) } }]);
    prompts.answer('Submit now');
    const outcome = await api.send.preview.previewFile(uri);
    assert.equal(outcome.action, 'Submit now');
    const submitted = outcome.next?.record;
    assert.equal(submitted?.outcome, 'succeeded');
    assert.equal(submitted?.commandId, commandId);
  });

  it('Submit now from the focused preview: the result opens in the file\'s column, the preview stays in view (no third column); Submit again says it was submitted and sends nothing', async () => {
    await closeEditors();
    const { api, prompts } = await scripted();
    const { uri, commandId } = file('column', [{ CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.charlie) } }]);
    await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.One });
    const { resultUri } = await api.send.preview.previewFile(uri);
    const previewEditor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === resultUri!.toString());
    assert.equal(previewEditor?.viewColumn, vscode.ViewColumn.Two, 'the preview opened beside the file');
    // The user clicks into the preview, then its "Submit now".
    await vscode.window.showTextDocument(previewEditor!.document, previewEditor!.viewColumn);
    const submitted = await api.send.preview.submitPreviewed(resultUri);
    assert.equal(submitted.record?.outcome, 'succeeded', prompts.messages.map((m) => m.text).join('\n'));
    const resultEditor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === submitted.resultUri?.toString());
    assert.equal(resultEditor?.viewColumn, vscode.ViewColumn.One, 'the result took the file\'s column, not the preview\'s');
    assert.ok(vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === resultUri!.toString()), 'the preview and its lenses are still in view');
    assert.deepEqual([...new Set(vscode.window.visibleTextEditors.map((e) => e.viewColumn))].sort(), [vscode.ViewColumn.One, vscode.ViewColumn.Two]);
    // The open preview document follows its content provider: it changes in place.
    const note = await waitFor(async () => String((await documentJson(resultUri)).submitted ?? ''), { what: 'the preview to say it was submitted' });
    assert.match(note, /^Submitted since this preview \(succeeded/);

    const end = p.state.ledgerEnd;
    prompts.answer(undefined);
    const again = await api.send.preview.submitPreviewed(resultUri);
    assert.equal(p.state.ledgerEnd, end, 'nothing was sent again');
    assert.equal(again.record?.commandId, commandId);
    assert.match(prompts.messages.at(-1)!.text, /^This preview was submitted already/);
    assert.ok(!prompts.messages.some((m) => /already executed/i.test(m.text)));
  });

  it('a refusal says why and what to do (several commands in one prepare on 3.5: preview each alone)', async () => {
    const { api, prompts } = await scripted();
    const create = { CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.alice) } };
    const { uri } = file('two', [create, create]);
    const end = p.state.ledgerEnd;
    const outcome = await api.send.preview.previewFile(uri);
    assert.equal(outcome.resultUri, undefined);
    const error = prompts.messages.find((m) => m.severity === 'error');
    assert.ok(error, prompts.messages.map((m) => m.text).join('\n'));
    assert.match(error.text, /preview each command alone/i);
    assert.equal(p.state.ledgerEnd, end);
  });
});
