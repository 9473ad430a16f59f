// The Active Contracts view in the real extension host, against the embedded demo participant: groups
// and counts equal to the ledger's active set, page by page; the set at an earlier offset and back at
// the ledger end; a contract's arguments and create event; Copy Contract ID; Exercise… writing a
// commands file that submits; the view following its connection.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import type { DemoParticipant } from '../../../src/participant';
import type { SubmitOutcome } from '../../../src/vscode/files/submit/submit';
import type { RowNode, ViewNode } from '../../../src/vscode/kit/rowsTree';
import { extension, waitFor, workspaceDir } from './helpers';
import { closeEditors, demoParticipant, scripted } from './sendHelpers';

const DEMO = 'demo';

describe('Active Contracts view', function () {
  this.timeout(60_000);
  let api: CantonLedgerApi;
  let p: DemoParticipant;
  const view = () => api.views.activeContracts;
  const label = (n: ViewNode) => String(view().getTreeItem(n).label);
  const rows = (nodes: ViewNode[]) => nodes.filter((n): n is RowNode => n.type === 'row');

  /** The ledger's own active set at `offset`, counted per package-name:Module:Entity. */
  function expectedGroups(offset: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (const c of p.state.contracts.values()) {
      if (c.transient || c.createdOffset > offset || (c.archivedOffset !== undefined && c.archivedOffset <= offset)) continue;
      counts.set(c.template.nameKey, (counts.get(c.template.nameKey) ?? 0) + 1);
    }
    return counts;
  }

  async function loadAll(): Promise<RowNode[]> {
    await view().getChildren();
    for (let i = 0; i < 1000 && view().snapshot && !view().snapshot!.complete; i++) await vscode.commands.executeCommand('cantonLedger.activeContracts.loadMore');
    return rows(await view().getChildren());
  }

  const counted = (groups: RowNode[]) => new Map(groups.map((g) => [g.row.label, g.children().length]));

  let startedDemo = false;

  before(async () => {
    ({ api } = await scripted());
    startedDemo = !api.demo.participant;
    p = await demoParticipant(api);
    await api.views.filters.set(api.connections.connection(DEMO)!, { anyParty: true, verbose: true, pageSize: 3 });
  });
  after(async () => {
    await api.views.filters.set(api.connections.connection(DEMO)!, undefined);
    await view().showAt(undefined);
    await closeEditors();
    fs.rmSync(path.join(workspaceDir(), 'acs-e2e'), { recursive: true, force: true });
    // Later suites start the demo participant themselves and expect it to become the active connection then.
    if (startedDemo) await vscode.commands.executeCommand('cantonLedger.demo.stop');
  });

  it('shows the first page grouped by template with "N+" counts, then Load more reaches the ledger\'s set', async () => {
    await view().refresh();
    const first = await view().getChildren();
    const end = p.state.ledgerEnd;
    assert.deepEqual({ ...view().snapshot }, { activeAtOffset: end, complete: false, loaded: 3, chosenOffset: undefined });
    assert.equal(label(first[first.length - 1]), 'Load more');
    assert.ok(rows(first).every((g) => /^\d+\+ active/.test(g.row.description!)), rows(first).map((g) => g.row.description).join());
    assert.equal(view().treeView.description, 'at offset ' + end + ' (ledger end) · any party');
    const groups = await loadAll();
    assert.deepEqual(counted(groups), expectedGroups(end));
    assert.ok(groups.every((g) => /^\d+ active/.test(g.row.description!)));
    assert.ok(!(await view().getChildren()).some((n) => label(n) === 'Load more'), 'no Load more once complete');
    assert.deepEqual(groups.map((g) => g.row.label), [...groups.map((g) => g.row.label)].sort());
  });

  it('shows the set at an earlier offset (a contract archived since is in it), and back at the ledger end', async () => {
    const archived = [...p.state.contracts.values()].find((c) => c.archivedOffset !== undefined && !c.transient)!;
    const at = archived.archivedOffset! - 1;
    await vscode.commands.executeCommand('cantonLedger.activeContracts.showAtOffset', at);
    const groups = await loadAll();
    assert.equal(view().snapshot?.activeAtOffset, at);
    assert.deepEqual(counted(groups), expectedGroups(at));
    assert.ok(groups.some((g) => g.children().some((c) => c.row.contractId === archived.contractId)));
    assert.match(String(view().treeView.description), new RegExp(`^at offset ${at} · `));
    await vscode.commands.executeCommand('cantonLedger.activeContracts.showAtLedgerEnd');
    await view().getChildren();
    assert.equal(view().snapshot?.activeAtOffset, p.state.ledgerEnd);
    assert.equal(view().snapshot?.chosenOffset, undefined);
  });

  it('reads as the Updates filter: a template set there leaves only its group, and the description says so', async () => {
    await api.views.filters.set(api.connections.connection(DEMO)!, { anyParty: true, verbose: true, pageSize: 3, templateIds: ['#demo-asset:Asset:Asset'] });
    const groups = await loadAll();
    assert.deepEqual(groups.map((g) => g.row.label), ['demo-asset:Asset:Asset']);
    assert.equal(groups[0].children().length, expectedGroups(p.state.ledgerEnd).get('demo-asset:Asset:Asset'));
    assert.match(String(view().treeView.description), / · any party · Asset:Asset$/);
    await api.views.filters.set(api.connections.connection(DEMO)!, { anyParty: true, verbose: true, pageSize: 3 });
  });

  it('an offset after the ledger end is refused inside the view (the Canton code, Retry), not as a pop-up', async () => {
    const beyond = p.state.ledgerEnd + 1000;
    await vscode.commands.executeCommand('cantonLedger.activeContracts.showAtOffset', beyond);
    const nodes = await view().getChildren();
    assert.equal(view().snapshot, undefined);
    assert.deepEqual(nodes.map(label), ['OFFSET_AFTER_LEDGER_END', 'Retry']);
    assert.match(String(view().getTreeItem(nodes[0]).description), new RegExp(`Active at offset \\(${beyond}\\) is after ledger end`));
    assert.equal(view().getTreeItem(nodes[1]).command?.command, 'cantonLedger.activeContracts.refresh');
    await vscode.commands.executeCommand('cantonLedger.activeContracts.showAtLedgerEnd');
    assert.ok(rows(await view().getChildren()).length > 0);
  });

  it('a contract expands to its create arguments; selecting it opens its create event as read-only JSON', async () => {
    const iou = (await loadAll()).find((g) => g.row.label === 'demo-iou:Iou:Iou')!;
    const contract = iou.children()[0];
    assert.deepEqual(contract.children().map((c) => c.row.label), ['issuer', 'owner', 'currency', 'amount', 'observers', 'Details']);
    const item = view().getTreeItem(contract);
    assert.equal(item.command?.command, 'cantonLedger.item.openJson');
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    const doc = vscode.window.activeTextEditor!.document;
    assert.equal(doc.uri.scheme, 'canton-ledger');
    const json = JSON.parse(doc.getText());
    assert.equal(json.contractId, contract.row.contractId);
    assert.equal(json.createArgument.owner, p.state.contracts.get(contract.row.contractId!)!.argument.owner);
    await closeEditors();
  });

  it('the context menu of a contract offers Exercise…, Show Contract Events, its lineage and creating transaction, and Copy Contract ID; Copy puts the id on the clipboard', async () => {
    const contract = rows(await view().getChildren())[0].children()[0];
    const menus = (extension().packageJSON.contributes.menus['view/item/context'] as { command: string; when: string }[]).filter((m) => /(^|\(|\|\| )view == cantonLedger\.activeContracts\b/.test(m.when));
    const contextValue = view().getTreeItem(contract).contextValue!;
    const offered = [...new Set(menus.filter((m) => new RegExp(m.when.match(/viewItem =~ \/(.*)\/$/)![1]).test(contextValue)).map((m) => m.command))].sort();
    assert.deepEqual(offered, [
      'cantonLedger.activeContracts.exercise',
      'cantonLedger.contractEvents.show',
      'cantonLedger.graph.showLineage',
      'cantonLedger.graph.showTransaction',
      'cantonLedger.item.copyContractId',
      'cantonLedger.item.copyOffset',
      'cantonLedger.item.copyTemplateId',
      'cantonLedger.item.openJson',
      'cantonLedger.item.openRawJson',
    ]);
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('cantonLedger.item.copyContractId', contract);
    assert.equal(await vscode.env.clipboard.readText(), contract.row.contractId);
  });

  it('Exercise… writes an ExerciseCommand of the contract and choice, complete from the packages, that submits; the view follows the write', async () => {
    const profile = api.connections.profiles.get(DEMO)!;
    await waitFor(() => api.packages.indexFor(api.connections.connectionFor(profile)), { timeoutMs: 20_000, what: "the demo participant's packages" });
    const iou = (await loadAll()).find((g) => g.row.label === 'demo-iou:Iou:Iou')!;
    const contract = iou.children().find((c) => Number(p.state.contracts.get(c.row.contractId!)!.argument.amount) > 1)!;
    const owner = String(p.state.contracts.get(contract.row.contractId!)!.argument.owner);
    const target = vscode.Uri.file(path.join(workspaceDir(), 'acs-e2e', 'transfer.commands.json'));
    fs.mkdirSync(path.dirname(target.fsPath), { recursive: true });
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cantonLedger.activeContracts.exercise', contract, { choice: 'Iou_Split', actAs: owner, uri: target });
    assert.equal(uri?.fsPath, target.fsPath);
    const file = JSON.parse(fs.readFileSync(target.fsPath, 'utf8'));
    assert.deepEqual(file.commands, [{ ExerciseCommand: { templateId: '#demo-iou:Iou:Iou', contractId: contract.row.contractId, choice: 'Iou_Split', choiceArgument: { splitAmount: '<Numeric 10>' } } }]);
    assert.deepEqual(file.actAs, [owner]);
    assert.equal(file.userId, 'demo-admin');
    // The placeholder amount is valid Daml but not a split the contract allows: set one.
    file.commands[0].ExerciseCommand.choiceArgument.splitAmount = '1.0';
    const doc = await vscode.workspace.openTextDocument(target);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(target, new vscode.Range(0, 0, doc.lineCount, 0), JSON.stringify(file, null, 2));
    assert.ok(await vscode.workspace.applyEdit(edit));
    await doc.save();
    const { prompts } = await scripted();
    const outcome = await vscode.commands.executeCommand<SubmitOutcome>('cantonLedger.files.submit', target);
    assert.equal(outcome.record?.outcome, 'succeeded', prompts.messages.map((m) => `${m.text} ${m.detail ?? ''}`).join('\n'));
    assert.equal(p.state.activeContract(contract.row.contractId!), undefined, 'the split consumed the contract');
    // The view follows the write (no Refresh): it reads the set at the new ledger end, without the consumed contract.
    await waitFor(async () => {
      const groups = await loadAll();
      return view().snapshot?.activeAtOffset === p.state.ledgerEnd && !groups.some((g) => g.children().some((c) => c.row.contractId === contract.row.contractId));
    }, { what: 'the view at the new ledger end, without the consumed contract' });
    await closeEditors();
  });

  it('follows its connection: disconnected it offers to connect, connected again it reads the set again', async () => {
    await view().getChildren();
    api.connections.disconnect(api.connections.connection(DEMO)!);
    const nodes = await view().getChildren();
    assert.equal(view().snapshot, undefined, 'the pages of the old connection are gone');
    assert.match(label(nodes[0]), /^Connect to /);
    await vscode.commands.executeCommand('cantonLedger.connections.connect', DEMO);
    await waitFor(async () => (await view().getChildren()).some((n) => n.type === 'row'), { what: 'the set read again' });
    assert.equal(view().snapshot?.activeAtOffset, p.state.ledgerEnd);
  });
});
