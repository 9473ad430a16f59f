// Compare Parties in the real extension host, against the embedded demo participant: the counts are
// what each party's own read returns, a create one party only witnesses is flagged, a comparison
// through the demo's Holding interface shows each party the same interface views, a cancelled
// comparison keeps the previous result, and a failure shows in the view with Retry.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import type { DemoParticipant } from '../../../src/participant';
import type { PartyComparison } from '../../../src/core/updates/compare';
import type { CreatedEvent, Transaction } from '../../../src/core/models/updates';
import type { RowNode, ViewNode, MessageNode } from '../../../src/vscode/kit/rowsTree';
import { assertComparedThroughHolding, HOLDING_INTERFACE } from '../../support/holdingViews';
import { activate, waitFor } from './helpers';

const rows = (nodes: ViewNode[]) => nodes.filter((n): n is RowNode => n.type === 'row');

describe('Compare Parties', function () {
  this.timeout(60_000);
  let api: CantonLedgerApi;
  let p: DemoParticipant;
  let startedDemo = false;

  before(async () => {
    api = await activate<CantonLedgerApi>();
    startedDemo = !api.demo.participant;
    await vscode.commands.executeCommand('cantonLedger.demo.start');
    p = api.demo.participant!;
    assert.ok(p, 'demo participant running');
  });
  // Later suites expect the demo as they found it, and no comparison view.
  after(async () => {
    await vscode.commands.executeCommand('cantonLedger.compareParties.close');
    if (startedDemo) await vscode.commands.executeCommand('cantonLedger.demo.stop');
  });

  it("compares Alice and Bob: each count is what the party's own read returns", async () => {
    const { alice, bob } = p.parties;
    const c = await vscode.commands.executeCommand<PartyComparison>('cantonLedger.updates.compareParties', { parties: [alice, bob] });
    assert.ok(c, 'a comparison');
    assert.equal(c.endInclusive, p.state.ledgerEnd);
    const client = api.connections.connectionFor(api.connections.profiles.active()!).client;
    for (const [i, party] of [alice, bob].entries()) {
      const own = (await client.listUpdates({ beginExclusive: 0, endInclusive: c.endInclusive }, { filter: { parties: [party], shape: 'ledger-effects' } })).filter((u): u is Transaction => u.kind === 'transaction');
      assert.equal(c.summary.seenBy[i], own.length, `party ${i}`);
      assert.deepEqual(c.updates.filter((u) => u.views[i]).map((u) => u.updateId), own.map((t) => t.updateId));
    }
    assert.ok(c.summary.seenByAll > 0 && c.summary.seenByAll < Math.min(...c.summary.seenBy));

    await waitFor(() => api.compare.view.treeView.visible, { what: 'the Compare Parties view shown' });
    const [summary] = rows(await api.compare.view.getChildren());
    assert.equal(summary.row.label, `Alice sees ${c.summary.seenBy[0]} of ${c.summary.total} transactions; Bob sees ${c.summary.seenBy[1]}; ${c.summary.seenByAll} seen by both`);
    assert.match(api.compare.view.treeView.description ?? '', /^Alice vs Bob · Demo/);
  });

  it('flags a create Alice sees only as a witness of her exercise, and opens both views side by side', async () => {
    const c = (api.compare.view.state as { comparison: PartyComparison }).comparison;
    const update = c.updates.find((u) => u.events.some((e) => e.views[0]?.seenAs === 'witness' && e.views[1]?.seenAs === 'stakeholder'))!;
    assert.ok(update, 'a witnessed create in the demo ledger');
    const nodes = rows(await api.compare.view.getChildren());
    const updateNode = nodes.find((n) => n.row.updateId === update.updateId)!;
    const item = api.compare.view.getTreeItem(updateNode);
    assert.equal(item.label, `${update.offset}  Transaction`);
    assert.match(String(item.description), /^Alice ✓ · Bob ✓ · .*differ$/);
    assert.ok((item.iconPath as vscode.ThemeIcon).color, 'a transaction seen differently is marked');
    const events = rows(await api.compare.view.getChildren(updateNode));
    const witnessed = events.find((n) => n.row.kind === 'compare.event' && /^Alice witness · Bob stakeholder/.test(n.row.description ?? ''))!;
    assert.ok(witnessed, events.map((n) => n.row.description).join('\n'));
    assert.equal(witnessed.row.label, 'Created Iou:Iou');
    const perParty = rows(await api.compare.view.getChildren(witnessed)).filter((n) => n.row.label === 'Alice' || n.row.label === 'Bob');
    assert.deepEqual(perParty.map((n) => n.row.description), ['witness', 'stakeholder']);

    await vscode.commands.executeCommand('cantonLedger.item.openJson', witnessed);
    const doc = (await waitFor(() => {
      const d = vscode.window.activeTextEditor?.document;
      return d?.uri.path.includes(`compare-${update.offset}-node`) ? d : undefined;
    }, { what: 'the JSON document of the event' }))!;
    const shown = JSON.parse(doc.getText()) as Record<string, { seenAs: string } | null>;
    assert.deepEqual([shown.Alice?.seenAs, shown.Bob?.seenAs], ['witness', 'stakeholder']);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('compares through the Holding interface: only Ious, each party seeing the view the participant computed', async () => {
    const { alice, bob } = p.parties;
    const c = await vscode.commands.executeCommand<PartyComparison>('cantonLedger.updates.compareParties', { parties: [alice, bob], interfaceIds: [HOLDING_INTERFACE] });
    assert.ok(c, 'a comparison');
    assertComparedThroughHolding(c);

    // The witnessed create of Alice's transfer, in the view: its JSON has each party's interface view.
    const update = c.updates.find((u) => u.events.some((e) => e.kind === 'created' && e.views[0]?.seenAs === 'witness' && e.views[1]?.seenAs === 'stakeholder'))!;
    assert.ok(update, 'a witnessed create of an Iou');
    const updateNode = rows(await api.compare.view.getChildren()).find((n) => n.row.updateId === update.updateId)!;
    const witnessed = rows(await api.compare.view.getChildren(updateNode)).find((n) => n.row.kind === 'compare.event' && n.row.label === 'Created Iou:Iou')!;
    await vscode.commands.executeCommand('cantonLedger.item.openJson', witnessed);
    // The document may have been open before with the same name (the wildcard comparison): wait for this comparison's content.
    const shown = (await waitFor(() => {
      const d = vscode.window.activeTextEditor?.document;
      if (!d?.uri.path.includes(`compare-${update.offset}-node`)) return undefined;
      const parsed = JSON.parse(d.getText()) as Record<string, { event: CreatedEvent } | null>;
      return parsed.Bob?.event.interfaceViews.length ? parsed : undefined;
    }, { what: 'the JSON document of the event, with its interface views' }))!;
    assert.deepEqual(shown.Alice?.event.interfaceViews, shown.Bob?.event.interfaceViews);
    assert.equal((shown.Bob?.event.interfaceViews[0].viewValue as { owner: string }).owner, bob);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('keeps the previous result when a comparison is cancelled', async () => {
    const before = api.compare.view.state;
    const controller = new AbortController();
    controller.abort();
    const profile = api.connections.profiles.active()!;
    const result = await api.compare.view.run(api.connections.connectionFor(profile), { parties: [p.parties.alice, p.parties.charlie] }, controller.signal);
    assert.equal(result, undefined);
    assert.equal(api.compare.view.state, before);
  });

  it('shows the latest comparison when an earlier one ends after it', async () => {
    const profile = api.connections.profiles.active()!;
    const controller = new AbortController();
    const earlier = api.compare.view.run(api.connections.connectionFor(profile), { parties: [p.parties.alice, p.parties.charlie] }, controller.signal);
    const later = await api.compare.view.run(api.connections.connectionFor(profile), { parties: [p.parties.alice, p.parties.bob] });
    controller.abort();
    await earlier;
    const s = api.compare.view.state;
    assert.equal(s.state, 'ready');
    assert.equal(s.state === 'ready' && s.comparison, later);
  });

  it('shows a failure in the view with Retry, and Retry runs the same comparison again', async () => {
    const c = await vscode.commands.executeCommand<PartyComparison | undefined>('cantonLedger.updates.compareParties', { parties: [p.parties.alice, 'not a party!'] });
    assert.equal(c, undefined);
    const nodes = (await api.compare.view.getChildren()) as MessageNode[];
    assert.ok(nodes.some((n) => n.label === 'INVALID_ARGUMENT'), nodes.map((n) => n.label).join(', '));
    const retry = nodes.find((n) => n.label === 'Retry')!;
    assert.equal(retry.opts.command?.command, 'cantonLedger.compareParties.refresh');
    const failed = api.compare.view.state;
    await vscode.commands.executeCommand(retry.opts.command!.command);
    assert.notEqual(api.compare.view.state, failed, 'read again');
    assert.deepEqual(api.compare.view.state.state === 'failed' && api.compare.view.state.query.parties, [p.parties.alice, 'not a party!']);
  });

  it('Close Comparison forgets the result; the view offers to compare again', async () => {
    await vscode.commands.executeCommand('cantonLedger.compareParties.close');
    assert.equal(api.compare.view.state.state, 'none');
    const [node] = (await api.compare.view.getChildren()) as MessageNode[];
    assert.equal(node.opts.command?.command, 'cantonLedger.updates.compareParties');
  });
});
