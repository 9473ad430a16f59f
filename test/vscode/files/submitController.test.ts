// The Submit command's controller against the fake VS Code API and a demo participant: what the user is
// told for each outcome, what the history keeps, and that the connection's ledger state follows the
// write by itself (the controller calls no "after write"). A lost answer is an unknown outcome, never
// re-sent by itself; the user's "Retry with the same commandId" is answered "already executed".
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { ConnectionProfile } from '../../../src/core/connections';
import type { DemoParticipant } from '../../../src/participant';
import type { ConnectionManager } from '../../../src/vscode/connections/manager';
import { SubmissionHistory } from '../../../src/vscode/files/submit/history';
import { SubmitActions, SubmitController } from '../../../src/vscode/files/submit/submit';
import type { FaultProxy } from '../../support/faultProxy';
import { fake, MemoryMemento, Uri } from '../fake/vscode';
import { openCommandsFile, participantBehindProxy, sendWindow, type SendWindow } from './sendHarness';

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
  const uri = Uri.file('/work/iou.commands.json');

  const suite = participantBehindProxy();
  const writeFile = (commandId: string, templateId?: string) => openCommandsFile(uri, p, commandId, templateId);
  before(() => ({ participant: p, proxy } = suite));

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
    const ledger = manager.ledger(profile.id)!;
    const endBefore = ledger.ledgerEnd!;
    const outcome = await controller.submitFile(uri);
    assert.equal(outcome.record?.outcome, 'succeeded');
    assert.ok(outcome.record!.offset! > endBefore);
    assert.equal(ledger.ledgerEnd, outcome.record!.offset, 'the connection took the offset the write reached');
    assert.equal(opened.length, 1, 'the transaction opened');
    assert.match(fake.state.messages.at(-1)!.text, /^Transaction .* at offset \d+: .*1 created/);
    assert.equal(history.get(outcome.record!.id)?.outcome, 'succeeded');
  });

  it('a lost answer: "outcome unknown", nothing re-sent by itself; Retry with the same commandId is answered "already executed"', async () => {
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
    assert.equal(proxy.count('POST', '/v2/commands/submit-and-wait-for-transaction') - sentBefore, 2, 'sent twice: the first, and the retry the user chose');
    assert.equal(p.state.entries.filter((e) => (e as { commandId?: string }).commandId === commandId).length, 1, 'executed once');
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
});
