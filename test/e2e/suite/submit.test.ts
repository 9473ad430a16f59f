// Submitting *.commands.json files in the real extension host against the demo participant: each
// command kind with its result document, unsaved text, refusal of invalid files, DUPLICATE_COMMAND,
// an unknown outcome with a retry that does not execute twice, Look it up, and the history.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { SubmitOutcome } from '../../../src/vscode/files/submit/submit';
import { waitFor } from './helpers';
import { closeEditors, demoParticipant, documentJson, scripted, writeWorkspaceJson } from './sendHelpers';
import { paidTrafficCostInline } from '../../../src/core/trafficCost';

const IOU = '#demo-iou:Iou:Iou';
const ASSET = '#demo-asset:Asset:Asset';

type Participant = Awaited<ReturnType<typeof demoParticipant>>;

function submit(uri: vscode.Uri): Thenable<SubmitOutcome> {
  return vscode.commands.executeCommand<SubmitOutcome>('cantonLedger.files.submit', uri);
}

/** How many transactions with this commandId the participant's ledger holds. */
function executions(p: Participant, commandId: string): number {
  return p.state.entries.filter((e) => e.kind === 'transaction' && e.commandId === commandId).length;
}

function eventsOf(tx: { events: Array<Record<string, any>> }, kind: string): any[] {
  return tx.events.filter((e) => kind in e).map((e) => e[kind]);
}

describe('submit commands files', function () {
  this.timeout(60_000);
  let p: Participant;
  const iouArgs = (owner: string, amount = '100.00') => ({ issuer: p.parties.bank, owner, currency: 'USD', amount, observers: [] as string[] });
  const commandsFile = (name: string, commands: unknown[], actAs: string, extra: Record<string, unknown> = {}) => {
    const commandId = `e2e-${name}-${randomUUID()}`;
    return { commandId, uri: writeWorkspaceJson(`${name}.commands.json`, { commands, commandId, actAs: [actAs], userId: 'demo-admin', ...extra }) };
  };

  before(async () => {
    const { api } = await scripted();
    p = await demoParticipant(api);
  });
  after(closeEditors);

  let iouId = '';

  it('submits a CreateCommand and shows the transaction as a read-only JSON document and a summary', async () => {
    const { api, prompts } = await scripted();
    const { commandId, uri } = commandsFile('create', [{ CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.alice) } }], p.parties.bank);
    const outcome = await submit(uri);
    assert.equal(outcome.record?.outcome, 'succeeded');
    assert.equal(outcome.record?.commandId, commandId);
    const tx = await documentJson(outcome.resultUri);
    assert.equal(outcome.resultUri?.scheme, 'canton-ledger');
    assert.equal(tx.commandId, commandId);
    assert.equal(tx.updateId, outcome.record?.updateId);
    const [created] = eventsOf(tx, 'CreatedEvent');
    assert.match(created.templateId, /^[0-9a-f]{64}:Iou:Iou$/);
    assert.equal(created.createArgument.owner, p.parties.alice);
    assert.equal(created.createArgument.amount, '100.0000000000');
    iouId = created.contractId;
    assert.ok(p.state.activeContract(iouId), 'the contract is active on the ledger');
    const summary = prompts.last();
    assert.equal(summary.severity, 'info');
    // The full 68-character id is in the result document; the summary names it short.
    assert.equal(summary.text, `Transaction ${tx.updateId.slice(0, 10)}…${tx.updateId.slice(-4)} at offset ${tx.offset}: 1 created (${paidTrafficCostInline(tx.paidTrafficCost)})`);
    // The result is open already: no "Open Result" on the summary.
    assert.deepEqual(summary.actions, ['Show Contract Events', 'Reveal in Updates']);
    const doc = await vscode.workspace.openTextDocument(outcome.resultUri!);
    assert.equal(doc.languageId, 'json');
    assert.equal(api.send.history.all()[0].id, outcome.record?.id);
  });

  it('submits an ExerciseCommand (Iou_Transfer): the result shows the exercised event with its child create (ledger effects)', async () => {
    const { prompts } = await scripted();
    // Reading as Bank too (the default format covers readAs): Alice does not see Bob's new Iou.
    const { uri } = commandsFile('exercise', [{ ExerciseCommand: { templateId: IOU, contractId: iouId, choice: 'Iou_Transfer', choiceArgument: { newOwner: p.parties.bob } } }], p.parties.alice, { readAs: [p.parties.bank] });
    const outcome = await submit(uri);
    assert.equal(outcome.record?.outcome, 'succeeded', prompts.messages.map((m) => m.text).join('\n'));
    const tx = await documentJson(outcome.resultUri);
    const [exercised] = eventsOf(tx, 'ExercisedEvent');
    assert.ok(exercised, `an ExercisedEvent in ${JSON.stringify(tx.events.map((e: Record<string, unknown>) => Object.keys(e)[0]))}`);
    assert.equal(exercised.choice, 'Iou_Transfer');
    assert.equal(exercised.contractId, iouId);
    assert.equal(exercised.consuming, true);
    const [created] = eventsOf(tx, 'CreatedEvent');
    assert.equal(created.createArgument.owner, p.parties.bob);
    assert.ok(created.nodeId > exercised.nodeId && created.nodeId <= exercised.lastDescendantNodeId, 'the create is a child of the exercise');
    assert.deepEqual(eventsOf(tx, 'ArchivedEvent'), [], 'ledger effects show the consuming exercise, not an archive');
    assert.match(prompts.last().text, /: 1 created, 1 exercised \(traffic cost: paid [\d,]+ bytes\)$/);
    assert.ok(!prompts.last().actions.includes('Show Ledger Effects'), 'nothing left out');
    assert.equal(p.state.activeContract(iouId), undefined);
  });

  it('submits a CreateAndExerciseCommand (create, then Iou_Split): the create, the exercise on it and its two halves', async () => {
    const { prompts } = await scripted();
    const { uri } = commandsFile(
      'create-and-exercise',
      [{ CreateAndExerciseCommand: { templateId: IOU, createArguments: iouArgs(p.parties.bank, '10.00'), choice: 'Iou_Split', choiceArgument: { splitAmount: '3.00' } } }],
      p.parties.bank,
    );
    const outcome = await submit(uri);
    assert.equal(outcome.record?.outcome, 'succeeded', prompts.messages.map((m) => m.text).join('\n'));
    const tx = await documentJson(outcome.resultUri);
    // Ledger effects: also the Iou created and consumed within the transaction (an ACS delta hides it).
    assert.deepEqual(eventsOf(tx, 'CreatedEvent').map((e) => e.createArgument.amount).sort(), ['10.0000000000', '3.0000000000', '7.0000000000']);
    assert.equal(eventsOf(tx, 'ExercisedEvent')[0].choice, 'Iou_Split');
    assert.match(prompts.last().text, /: 3 created, 1 exercised \(traffic cost: paid [\d,]+ bytes\)$/);
  });

  it('submits an ExerciseByKeyCommand (Asset_Rename by owner and id)', async () => {
    const { prompts } = await scripted();
    const assetId = `asset-${randomUUID().slice(0, 8)}`;
    const created = await submit(commandsFile('asset', [{ CreateCommand: { templateId: ASSET, createArguments: { owner: p.parties.alice, id: assetId, description: 'old' } } }], p.parties.alice).uri);
    assert.equal(created.record?.outcome, 'succeeded', prompts.messages.map((m) => m.text).join('\n'));
    const { uri } = commandsFile(
      'by-key',
      [{ ExerciseByKeyCommand: { templateId: ASSET, contractKey: { _1: p.parties.alice, _2: assetId }, choice: 'Asset_Rename', choiceArgument: { newDescription: 'renamed' } } }],
      p.parties.alice,
    );
    const outcome = await submit(uri);
    assert.equal(outcome.record?.outcome, 'succeeded', prompts.messages.map((m) => m.text).join('\n'));
    const tx = await documentJson(outcome.resultUri);
    assert.equal(eventsOf(tx, 'CreatedEvent')[0].createArgument.description, 'renamed');
    assert.equal(eventsOf(tx, 'ExercisedEvent')[0].choice, 'Asset_Rename');
  });

  it("sends the editor's unsaved text, not the file on disk", async () => {
    const { prompts } = await scripted();
    const { uri, commandId } = commandsFile('unsaved', [{ CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.alice, '1.00') } }], p.parties.bank);
    const editor = await vscode.window.showTextDocument(uri);
    const edited = `${commandId}-edited`;
    await editor.edit((b) => {
      const text = editor.document.getText();
      const replace = (from: string, to: string) => {
        const i = text.indexOf(from);
        b.replace(new vscode.Range(editor.document.positionAt(i), editor.document.positionAt(i + from.length)), to);
      };
      replace('"1.00"', '"777.00"');
      replace(commandId, edited);
    });
    assert.ok(editor.document.isDirty);
    const outcome = await submit(uri);
    assert.equal(outcome.record?.outcome, 'succeeded', prompts.messages.map((m) => m.text).join('\n'));
    const tx = await documentJson(outcome.resultUri);
    assert.equal(tx.commandId, edited);
    assert.equal(eventsOf(tx, 'CreatedEvent')[0].createArgument.amount, '777.0000000000');
    assert.equal(executions(p, commandId), 0, 'the saved text was not sent');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('refuses an invalid file with its problems, sending nothing', async () => {
    const { api, prompts } = await scripted();
    const uri = writeWorkspaceJson('invalid.commands.json', { commands: [{ CreateCommand: { templateId: IOU } }], commandId: 'e2e-invalid', actAs: [] });
    const end = p.state.ledgerEnd;
    const historyBefore = api.send.history.all().length;
    const outcome = await submit(uri);
    assert.equal(outcome.record, undefined);
    const refusal = prompts.last();
    assert.equal(refusal.severity, 'error');
    assert.match(refusal.text, /^invalid\.commands\.json was not submitted: it has \d+ errors?: line \d+:\d+ /);
    assert.deepEqual(refusal.actions, ['Show Problems']);
    assert.equal(p.state.ledgerEnd, end);
    assert.equal(api.send.history.all().length, historyBefore);
  });

  it('reports DUPLICATE_COMMAND as already executed and shows the first transaction (read at the completion offset)', async () => {
    const { prompts } = await scripted();
    const { uri, commandId } = commandsFile('duplicate', [{ CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.charlie) } }], p.parties.bank);
    const first = await submit(uri);
    assert.equal(first.record?.outcome, 'succeeded');
    const second = await submit(uri);
    assert.equal(second.record?.outcome, 'duplicate');
    assert.equal(second.record?.errorCode, 'DUPLICATE_COMMAND');
    const already = prompts.messages.find((m) => m.text.startsWith('Already executed'));
    assert.ok(already, prompts.messages.map((m) => m.text).join('\n'));
    assert.match(already.text, new RegExp(`commandId "${commandId}" was accepted before \\(completed at offset ${first.record?.offset}\\) and was not executed again`));
    assert.equal(second.record?.updateId, first.record?.updateId);
    assert.equal((await documentJson(second.resultUri)).updateId, first.record?.updateId);
    assert.equal(executions(p, commandId), 1);
  });

  it('an unknown outcome (response dropped): Retry Same ID does not execute twice', async () => {
    const { api, prompts } = await scripted();
    const { uri, commandId } = commandsFile('dropped', [{ CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.alice, '5.00') } }], p.parties.bank);
    p.faults.submit = { dropResponse: true, times: 1 };
    // Retry; the retry is told "already executed" (dismissed).
    prompts.answer('Retry Same ID');
    const outcome = await submit(uri);
    assert.equal(outcome.record?.outcome, 'unknown');
    const unknown = prompts.messages[0];
    assert.equal(unknown.severity, 'warning');
    assert.match(unknown.text, /^Outcome unknown: dropped\.commands\.json \(commandId "e2e-dropped-.*"\) may or may not have executed/);
    assert.deepEqual(unknown.actions, ['Retry Same ID', 'Look it up']);
    assert.equal(outcome.action, 'Retry Same ID');
    assert.equal(outcome.next?.record?.outcome, 'duplicate', 'the retry resent the same request and deduplication refused it');
    assert.equal(outcome.next?.record?.commandId, commandId);
    assert.deepEqual(outcome.next?.record?.request, outcome.record?.request, 'the exact same body was resent');
    assert.equal(outcome.next?.record?.attempts, 2);
    assert.equal(executions(p, commandId), 1, 'executed exactly once');
    const history = api.send.history.get(outcome.record!.id);
    assert.equal(history?.outcome, 'duplicate');
  });

  it('an unknown outcome: Look it up finds the transaction that did execute', async () => {
    const { prompts } = await scripted();
    const { uri, commandId } = commandsFile('lookup', [{ CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.bob, '6.00') } }], p.parties.bank);
    p.faults.submit = { dropResponse: true, times: 1 };
    prompts.answer('Look it up');
    const outcome = await submit(uri);
    assert.equal(outcome.record?.outcome, 'unknown');
    assert.equal(outcome.next?.record?.outcome, 'succeeded');
    const tx = await documentJson(outcome.next?.resultUri);
    assert.equal(tx.commandId, commandId);
    assert.match(prompts.last().text, new RegExp(`^Found commandId "${commandId}" \\(executed once\\): Transaction ${tx.updateId.slice(0, 10)}…${tx.updateId.slice(-4)} at offset ${tx.offset}`));
    assert.equal(executions(p, commandId), 1);
  });

  it('an unknown outcome that did not execute: Look it up says so; the safe retry then runs it once', async () => {
    const { api, prompts } = await scripted();
    // Renaming an asset that does not exist yet fails, and the answer is lost: nothing executed.
    const assetId = `later-${randomUUID().slice(0, 8)}`;
    const byKey = { ExerciseByKeyCommand: { templateId: ASSET, contractKey: { _1: p.parties.alice, _2: assetId }, choice: 'Asset_Rename', choiceArgument: { newDescription: 'renamed' } } };
    const { uri, commandId } = commandsFile('not-executed', [byKey], p.parties.alice);
    p.faults.submit = { dropResponse: true, times: 1 };
    const first = await submit(uri);
    assert.equal(first.record?.outcome, 'unknown');
    assert.equal(executions(p, commandId), 0);
    const created = await submit(commandsFile('later-asset', [{ CreateCommand: { templateId: ASSET, createArguments: { owner: p.parties.alice, id: assetId, description: 'new' } } }], p.parties.alice).uri);
    assert.equal(created.record?.outcome, 'succeeded');

    prompts.answer('Retry Same ID');
    const looked = await vscode.commands.executeCommand<SubmitOutcome>('cantonLedger.submissions.lookUp', api.send.history.get(first.record!.id));
    const notFound = prompts.messages.find((m) => m.text.startsWith('No transaction'));
    assert.ok(notFound, prompts.messages.map((m) => m.text).join('\n'));
    assert.match(notFound.text, new RegExp(`^No transaction with commandId "${commandId}" between offsets \\d+ and \\d+: it has not executed \\(so far\\)`));
    assert.equal(looked.next?.record?.outcome, 'succeeded');
    assert.equal(looked.next?.record?.attempts, 2);
    assert.equal(executions(p, commandId), 1);
  });

  it('an unknown outcome (no answer within the timeout): the history item\'s Retry resends the same request, deduplicated', async () => {
    const { api, prompts } = await scripted();
    // A connection of its own: its client is built with the 1 s timeout set here.
    const config = vscode.workspace.getConfiguration('cantonLedger');
    await config.update('requestTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    const profile = { id: `e2e-timeout-${randomUUID().slice(0, 6)}`, name: 'Slow Demo', url: p.url, auth: 'none' as const, userId: 'demo-admin', source: 'user' as const };
    await api.connections.profiles.save(profile);
    await api.connections.profiles.setActive(profile.id);
    try {
      const { uri, commandId } = commandsFile('slow', [{ CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.alice, '9.00') } }], p.parties.bank);
      p.faults.submit = { delayMs: 2500, times: 1 };
      const outcome = await submit(uri);
      assert.equal(outcome.record?.outcome, 'unknown');
      assert.equal(outcome.record?.errorCode, 'timeout');
      assert.match(prompts.last().text, /^Outcome unknown: slow\.commands\.json .* \(No answer within 1000 ms\)/);
      await waitFor(() => executions(p, commandId) === 1, { what: 'the participant to have executed the submission (before its late answer)' });
      const retried = await vscode.commands.executeCommand<SubmitOutcome>('cantonLedger.submissions.retry', outcome.record);
      assert.equal(retried.record?.outcome, 'duplicate');
      assert.equal(retried.record?.id, outcome.record?.id, 'the same history item, updated');
      assert.equal(api.send.history.get(outcome.record!.id)?.attempts, 2);
      assert.equal(executions(p, commandId), 1);
    } finally {
      await config.update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
      await api.connections.profiles.remove(profile.id);
      await api.connections.profiles.setActive('demo');
    }
  });

  it('Cancel after sending: the outcome is unknown (the participant may have run it); the safe retry is deduplicated', async () => {
    const { prompts } = await scripted();
    const { uri, commandId } = commandsFile('cancelled', [{ CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.alice, '3.00') } }], p.parties.bank);
    p.faults.submit = { delayMs: 3000, times: 1 };
    prompts.cancelNextProgressAfter(400).answer('Retry Same ID');
    const t0 = Date.now();
    const outcome = await submit(uri);
    assert.equal(outcome.record?.outcome, 'unknown');
    assert.equal(outcome.record?.errorCode, 'cancelled');
    assert.match(prompts.messages[0].text, /^Outcome unknown: cancelled\.commands\.json .* \(cancelled after sending\)/);
    assert.match(prompts.progressTitles[0], /^Submitting cancelled\.commands\.json to Demo$/);
    assert.equal(outcome.next?.record?.outcome, 'duplicate');
    assert.ok(Date.now() - t0 < 2500, 'cancel did not wait for the participant');
    assert.equal(executions(p, commandId), 1);
  });

  it('Show Contract Events picks among several contracts; Reveal in Updates names the connection, offset and update', async () => {
    const { prompts } = await scripted();
    const calls: Array<[string, unknown]> = [];
    const registered = new Set(await vscode.commands.getCommands(true));
    const stubs = ['cantonLedger.contractEvents.show', 'cantonLedger.updates.reveal']
      .filter((c) => !registered.has(c))
      .map((c) => vscode.commands.registerCommand(c, (arg: unknown) => calls.push([c, arg])));
    try {
      const { uri } = commandsFile(
        'two-contracts',
        [{ CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.alice, '1.00') } }, { CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.bob, '2.00') } }],
        p.parties.bank,
      );
      prompts.answer('Show Contract Events').answerPick((items) => items[1]);
      const outcome = await submit(uri);
      const tx = await documentJson(outcome.resultUri);
      const ids = eventsOf(tx, 'CreatedEvent').map((e) => e.contractId);
      assert.equal(prompts.picks.length, 1);
      assert.deepEqual(prompts.picks[0].items.map((i) => i.label), ids);
      prompts.answer('Reveal in Updates');
      const again = await vscode.commands.executeCommand<unknown>('cantonLedger.submissions.openResult', outcome.record);
      assert.ok(again instanceof vscode.Uri);
      if (stubs.length === 2) {
        assert.deepEqual(calls[0], ['cantonLedger.contractEvents.show', ids[1]]);
      }
      const lookup = { ...outcome.record!, outcome: 'unknown' as const };
      await vscode.commands.executeCommand('cantonLedger.submissions.lookUp', lookup);
      if (stubs.length === 2) {
        assert.deepEqual(calls[1], ['cantonLedger.updates.reveal', { connectionId: 'demo', offset: tx.offset, updateId: tx.updateId }]);
      }
    } finally {
      stubs.forEach((s) => s.dispose());
    }
  });

  it('explains an empty transaction (all events filtered out) instead of reporting an error', async () => {
    const { prompts } = await scripted();
    const { uri } = commandsFile('filtered', [{ CreateCommand: { templateId: IOU, createArguments: iouArgs(p.parties.alice, '4.00') } }], p.parties.bank, {});
    // Only Asset events for Bank: the Iou create is filtered out.
    const text = JSON.stringify({
      commands: JSON.parse((await vscode.workspace.openTextDocument(uri)).getText()),
      transactionFormat: { transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA', eventFormat: { filtersByParty: { [p.parties.bank]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId: ASSET } } } }] } }, verbose: true } },
    });
    const full = writeWorkspaceJson('filtered-full.commands.json', JSON.parse(text));
    prompts.answer('Show Ledger Effects');
    const outcome = await submit(full);
    assert.equal(outcome.record?.outcome, 'succeeded');
    const m = prompts.last();
    assert.equal(m.severity, 'info');
    assert.match(m.text, /^The command succeeded \(transaction \S+ at offset \d+\), but no event passed the transaction format/);
    // The file asked for the ACS delta: the summary says what that leaves out and offers the tree.
    assert.match(m.text, /\(ACS delta, as the file asks: the exercise and contracts created and archived within it are left out\)$/);
    assert.deepEqual(m.actions, ['Show Ledger Effects', 'Reveal in Updates']);
    assert.deepEqual((await documentJson(outcome.resultUri)).events, []);
    // Re-read as ledger effects for the submitting parties: the create is there.
    const effects = await documentJson(outcome.next?.resultUri);
    assert.equal(effects.updateId, outcome.record?.updateId);
    assert.equal(eventsOf(effects, 'CreatedEvent')[0].createArgument.amount, '4.0000000000');
  });

  it('a rejected command is recorded as failed with its Canton error code', async () => {
    const { prompts } = await scripted();
    const { uri } = commandsFile('archived', [{ ExerciseCommand: { templateId: IOU, contractId: iouId, choice: 'Archive', choiceArgument: {} } }], p.parties.alice);
    const outcome = await submit(uri);
    assert.equal(outcome.record?.outcome, 'failed');
    assert.equal(outcome.record?.errorCode, 'CONTRACT_NOT_FOUND');
    assert.equal(prompts.last().severity, 'error');
    assert.match(prompts.last().text, /^Submitting archived\.commands\.json failed: CONTRACT_NOT_FOUND: /);
  });

  it('history: items for each outcome; copy commandId; submit again asks first', async () => {
    const { api, prompts } = await scripted();
    const all = api.send.history.all();
    for (const outcome of ['succeeded', 'failed', 'duplicate']) assert.ok(all.some((r) => r.outcome === outcome), `the history has a ${outcome} submission`);
    assert.ok(!all.some((r) => r.fileName === 'invalid.commands.json'), 'a refused file is not a submission');
    const dup = all.find((r) => r.fileName === 'duplicate.commands.json')!;
    assert.equal(dup.connectionName, 'Demo');
    assert.ok(Date.parse(dup.time) > 0);
    await vscode.commands.executeCommand('cantonLedger.submissions.copyCommandId', dup);
    assert.equal(await vscode.env.clipboard.readText(), dup.commandId);
    prompts.answer(undefined);
    const declined = await vscode.commands.executeCommand<SubmitOutcome>('cantonLedger.submissions.resubmit', dup);
    assert.equal(declined.record, undefined);
    assert.equal(prompts.last().modal, true);
    prompts.answer('Submit Again');
    const again = await vscode.commands.executeCommand<SubmitOutcome>('cantonLedger.submissions.resubmit', dup);
    assert.equal(again.record?.outcome, 'duplicate', 'the same file, same commandId: deduplicated');
    assert.equal(executions(p, dup.commandId), 1);
  });
});
