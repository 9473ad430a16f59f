// The Active Contracts view against the fake VS Code API: a contract in flight (unassigned from its
// synchronizer, not yet assigned) is a row marked in flight under its template, counted there; a page
// token the participant refuses restarts the paging with one row that says why.
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import type { DemoParticipant } from '../../../src/participant';
import { ActiveContractsView } from '../../../src/vscode/updates/activeContractsView';
import type { ViewNode } from '../../../src/vscode/kit/rowsTree';
import { UpdatesFilterStore } from '../../../src/vscode/updates/updatesView';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { startCheckedParticipant } from '../../support/specCheck';
import { MemoryMemento } from '../fake/vscode';
import { sendWindow, type SendWindow } from '../files/sendHarness';

describe('Active Contracts view: contracts in flight, and a refused page token', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let proxy: FaultProxy;
  let window: SendWindow;
  let view: ActiveContractsView;

  beforeEach(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 11, apiVersion: '3.5', synchronizers: 2 });
    proxy = await startFaultProxy(p.url);
    window = await sendWindow(proxy.url);
    view = new ActiveContractsView(window.manager, new UpdatesFilterStore(new MemoryMemento() as never), silentLogger, new Redactor(), window.prompts());
  });
  afterEach(async () => {
    view.dispose();
    window.dispose();
    await proxy.close();
    await p.close();
  });

  const item = (n: ViewNode) => view.getTreeItem(n);

  it('an unassigned contract is a row marked in flight, and its template row counts it', async () => {
    const [source, target] = p.state.synchronizers.map((s) => s.id);
    const contract = [...p.state.contracts.values()].find((c) => c.archivedOffset === undefined && !c.transient && c.synchronizerId === source && c.template.id.endsWith(':Iou:Iou'))!;
    p.state.unassign(contract.contractId, target, contract.signatories[0]);
    const groups = await view.getChildren();
    const iou = groups.find((g) => String(item(g).label) === 'demo-iou:Iou:Iou')!;
    assert.match(String(item(iou).description), /^\d+ active · 1 in flight/);
    const rows = await view.getChildren(iou);
    const row = rows.find((n) => n.type === 'row' && n.row.contractId === contract.contractId)!;
    assert.ok(row, 'the contract in flight is listed, not left out');
    assert.match(String(item(row).description), /^in flight: unassigned from .+, not yet assigned · /);
    assert.equal((item(row).iconPath as { id: string }).id, 'arrow-swap');
  });

  it('a page token refused: the paging starts again from the first page, and one row says why', async () => {
    const filters = new UpdatesFilterStore(new MemoryMemento() as never);
    await filters.set(window.connection, { ...filters.get(window.connection), pageSize: 2 });
    view.dispose();
    view = new ActiveContractsView(window.manager, filters, silentLogger, new Redactor(), window.prompts());
    await view.getChildren();
    const body = JSON.stringify({ code: 'INVALID_ARGUMENT', cause: 'Invalid page token', correlationId: null, traceId: null, context: {}, resources: [], errorCategory: 8, grpcCodeValue: 3, retryInfo: null, definiteAnswer: null });
    proxy.add({ method: 'POST', path: '/v2/state/active-contracts-page', fault: { kind: 'answer', status: 400, contentType: 'application/json', body }, times: 1 });
    await view.loadMore();
    const labels = (await view.getChildren()).map((n) => [String(item(n).label), String(item(n).description ?? '')]);
    const restarted = labels.filter(([label]) => label === 'Read again from the first page');
    assert.equal(restarted.length, 1, JSON.stringify(labels));
    assert.match(restarted[0][1], /^The participant refused the page token .*: read again from the first page at offset \d+, the 2 contracts loaded before dropped\.$/);
    assert.deepEqual(labels[0], restarted[0], 'above the contracts');
  });
});
