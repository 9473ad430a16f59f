// Preview a commands file (prepare): the decoded transaction as a read-only document, nothing
// submitted; a refusal explained with what to do; "Submit now" submits the same file. In-host.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
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
