// The Contract Events view against the fake VS Code API and a demo participant: expanding a contract
// never keeps the tree waiting for the participant (the row shows "Loading…" and the view repaints
// when the answer comes; a tree refresh that came while VS Code still waited for children could be
// lost, leaving the row "loading" for good).
import assert from 'node:assert/strict';
import { participantDescriptions } from '../../../src/core/compat/descriptions';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import type { DemoParticipant } from '../../../src/participant';
import { ContractEventsView } from '../../../src/vscode/updates/contractEventsView';
import type { ViewNode } from '../../../src/vscode/kit/rowsTree';
import { UpdatesFilterStore } from '../../../src/vscode/updates/updatesView';
import { createdEvents, createIou, start, submit } from '../../participant/helpers';
import { requireSpec } from '../../support/spec';
import { derive38Spec } from '../../support/spec38';
import { MemoryMemento } from '../fake/vscode';
import { sendWindow, type SendWindow } from '../files/sendHarness';

describe('Contract Events view (fake VS Code API, demo participant)', () => {
  let p: DemoParticipant;
  let window: SendWindow;
  let view: ContractEventsView;
  let contractId: string;

  beforeEach(async () => {
    p = await start({ port: 0 });
    window = await sendWindow(p.url);
    const client = window.manager.activeConnection()!.client;
    const updates = await client.listUpdates({ beginExclusive: 0, endInclusive: p.state.ledgerEnd }, { filter: { anyParty: true, shape: 'ledger-effects' } });
    contractId = updates.flatMap((u) => (u.kind === 'transaction' ? u.events : [])).find((e) => e.kind === 'created')!.contractId;
    const state = new MemoryMemento();
    await state.update('cantonLedger.contractHistory', [{ contractId, connectionId: window.profile.id, at: new Date().toISOString() }]);
    view = new ContractEventsView(window.manager, new UpdatesFilterStore(new MemoryMemento() as never), state as never, silentLogger, new Redactor());
  });
  afterEach(async () => {
    view.dispose();
    window.dispose();
    await p.close();
  });

  const label = (node: ViewNode) => String(view.getTreeItem(node).label);

  it('answers a contract\'s children at once ("Loading…") and repaints with the contract when the participant answers', async () => {
    let repaints = 0;
    const sub = view.onDidChangeTreeData(() => void repaints++);
    const [row] = await view.getChildren();
    assert.match(label(row), /…/, 'not looked up yet: its short id');
    const children = await view.getChildren(row);
    assert.deepEqual(children.map(label), ['Loading…'], 'the children do not wait for the lookup');
    assert.equal(repaints, 0);
    await view.settled();
    assert.equal(repaints, 1, 'the answer repaints the view');
    const [looked] = await view.getChildren();
    assert.equal(label(looked), 'Iou:Iou');
    assert.match(String(view.getTreeItem(looked).description), /^(active|archived) · /);
    assert.ok((await view.getChildren(looked)).map(label).includes('Created Iou:Iou'));
    sub.dispose();
  });

  it('Show Contract Events answers with the contract\'s events once the participant has answered, the row revealed meanwhile', async () => {
    const events = await view.show(contractId, window.connection);
    assert.equal(events?.created?.event.contractId, contractId);
    const [row] = await view.getChildren();
    assert.equal(label(row), 'Iou:Iou');
  });
});

describe('Contract Events view: the choices exercised on a contract, where the participant filters updates by contract id (3.8)', function () {
  this.timeout(30_000);
  let p: DemoParticipant | undefined;
  let window: SendWindow | undefined;
  let view: ContractEventsView | undefined;
  afterEach(async () => {
    view?.dispose();
    window?.dispose();
    await p?.close();
    p = window = view = undefined;
  });

  /** The rows under a looked-up contract, on a participant playing `apiVersion` (serving `openapi`, when given). */
  async function rowsOfTransferredIou(apiVersion: '3.6' | '3.8', openapi?: string): Promise<{ labels: string[]; exercised?: string[] }> {
    p = await start({ port: 0, apiVersion, ...(openapi ? { openapi: { text: openapi } } : {}) });
    // Descriptions are kept per version for the process: this participant's own is read afresh.
    participantDescriptions.clear();
    window = await sendWindow(p.url);
    const { bank, alice, bob } = p.parties;
    const format = { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' as const };
    const iou = createdEvents(await submit(p, [bank], [createIou(bank, alice, '3')], { format }))[0].contractId;
    await submit(p, [alice], [{ ExerciseCommand: { templateId: '#demo-iou:Iou:Iou', contractId: iou, choice: 'Iou_Transfer', choiceArgument: { newOwner: bob } } }], { format });
    const state = new MemoryMemento();
    await state.update('cantonLedger.contractHistory', [{ contractId: iou, connectionId: window.profile.id, at: new Date().toISOString() }]);
    view = new ContractEventsView(window.manager, new UpdatesFilterStore(new MemoryMemento() as never), state as never, silentLogger, new Redactor());
    const [row] = await view.getChildren();
    await view.getChildren(row);
    await view.settled();
    const [looked] = await view.getChildren();
    const children = await view.getChildren(looked);
    const label = (node: ViewNode) => String(view!.getTreeItem(node).label);
    const group = children.find((c) => label(c) === 'Exercised');
    return { labels: children.map(label), ...(group ? { exercised: (await view.getChildren(group)).map(label) } : {}) };
  }

  it('3.8 with the filter in its description: an "Exercised" group lists the transfer', async function () {
    requireSpec(this, 'main-3.6');
    const { labels, exercised } = await rowsOfTransferredIou('3.8', derive38Spec({ scopes: false }).text);
    assert.deepEqual(labels, ['Created Iou:Iou', 'Archived Iou:Iou', 'Exercised']);
    assert.deepEqual(exercised, ['Exercised Iou_Transfer on Iou:Iou']);
  });

  it('without the filter (3.6, no description): the create and the archive, as before', async () => {
    const { labels, exercised } = await rowsOfTransferredIou('3.6');
    assert.deepEqual(labels, ['Created Iou:Iou', 'Archived Iou:Iou']);
    assert.equal(exercised, undefined);
  });
});
