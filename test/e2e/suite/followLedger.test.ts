// The editor follows the ledger: after a write of ours (a submission, a vetting apply) the status bar,
// the Connections tree, the Updates view and the Vetted Packages view show the new state without a
// manual refresh; and a connection becomes active only once its participant answered.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/features';
import type * as wire from '../../../src/core/models/wire';
import type { SubmitOutcome } from '../../../src/vscode/files/submit/submit';
import type { VettingOutcome } from '../../../src/vscode/files/submit/vetting';
import { ConnectionNode, type ConnectionsNode, type DetailNode } from '../../../src/vscode/connections/connectionsTree';
import { waitFor } from './helpers';
import { closeEditors, demoParticipant, scripted, writeWorkspaceJson } from './sendHelpers';

type Participant = Awaited<ReturnType<typeof demoParticipant>>;

const IOU = '#demo-iou:Iou:Iou';

/** The Connections tree's row of a connection: its description ("active · offset N · url"). */
function rowDescription(api: CantonLedgerApi, id: string): string {
  const profile = api.connections.profiles.get(id)!;
  return String(api.connectionsTree.getTreeItem(new ConnectionNode(profile)).description);
}

/** The labels (with descriptions) of a connection's child rows in the Connections tree. */
function childRows(api: CantonLedgerApi, id: string): string[] {
  const profile = api.connections.profiles.get(id)!;
  return (api.connectionsTree.getChildren(new ConnectionNode(profile)) as ConnectionsNode[]).map((n) => {
    const d = n as DetailNode;
    return [d.label, d.opts.description].filter(Boolean).join(' ');
  });
}

describe('the editor follows the ledger', function () {
  this.timeout(60_000);
  let api: CantonLedgerApi;
  let p: Participant;

  before(async () => {
    ({ api } = await scripted());
    p = await demoParticipant(api);
  });
  after(async () => {
    await closeEditors();
    // The suites after this one start the demo participant themselves (and make it active then).
    await vscode.commands.executeCommand('cantonLedger.demo.stop');
  });

  it('a submission from a commands file: the status bar, Connections and Updates show the new ledger end without a refresh', async () => {
    const { prompts } = await scripted();
    // The Updates view has its pages loaded (newest first here: the new transaction comes first).
    await api.views.filters.set(api.connections.connection('demo')!, { anyParty: true, verbose: true, descending: true });
    await api.views.updates.getChildren();
    const before = api.connections.connection('demo')!.ledger!.ledgerEnd!;
    assert.equal(api.views.updates.range?.endInclusive, before);
    assert.equal(api.statusBar.shown.text, `$(database) Demo @${before}`);
    const loadedBefore = api.views.updates.loadedNodes.length;

    const commandId = `e2e-follow-${randomUUID()}`;
    const uri = writeWorkspaceJson('follow.commands.json', {
      commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: p.parties.bank, owner: p.parties.alice, currency: 'USD', amount: '3.00', observers: [] } } }],
      commandId,
      actAs: [p.parties.bank],
      userId: 'demo-admin',
    });
    const outcome = await vscode.commands.executeCommand<SubmitOutcome>('cantonLedger.files.submit', uri);
    assert.equal(outcome.record?.outcome, 'succeeded', prompts.messages.map((m) => m.text).join('\n'));
    const end = outcome.record!.offset!;
    assert.ok(end > before);

    await waitFor(() => api.statusBar.shown.text === `$(database) Demo @${end}`, { what: `the status bar at @${end} (it reads "${api.statusBar.shown.text}")` });
    assert.match(api.statusBar.shown.tooltip, new RegExp(`Ledger end ${end},`));
    await waitFor(() => rowDescription(api, 'demo').includes(`offset ${end} `), { what: `the Connections row at offset ${end} (it reads "${rowDescription(api, 'demo')}")` });
    assert.ok(childRows(api, 'demo').includes(`Ledger end ${end}`), JSON.stringify(childRows(api, 'demo')));
    await waitFor(() => api.views.updates.range?.endInclusive === end, { what: `the Updates range to end at ${end} (it ends at ${api.views.updates.range?.endInclusive})` });
    const nodes = api.views.updates.loadedNodes;
    assert.equal(nodes[0].row.updateId, outcome.record?.updateId, 'the new transaction first (newest first), without a refresh');
    assert.ok(nodes.length > loadedBefore, 'what was loaded stays loaded');
    assert.equal(new Set(nodes.map((n) => n.row.updateId ?? n.row.key)).size, nodes.length, 'no update twice');
    await api.views.filters.set(api.connections.connection('demo')!, undefined);
  });

  it('a live-tail delivery moves the connection\'s ledger end (status bar and Connections)', async () => {
    await api.views.updates.getChildren();
    await vscode.commands.executeCommand('cantonLedger.updates.startLiveTail');
    try {
      await waitFor(() => api.views.updates.liveTail.status === 'following', { what: 'live tail following' });
      // Written behind the extension's back: only the live tail sees it.
      p.state.appendSynthetic(2, { seed: 91 });
      const end = p.state.ledgerEnd;
      await waitFor(() => api.connections.connection('demo')?.ledger?.ledgerEnd === end, { what: `the ledger state at ${end} (it is at ${api.connections.connection('demo')?.ledger?.ledgerEnd})` });
      await waitFor(() => api.statusBar.shown.text === `$(database) Demo @${end}`, { what: `the status bar at @${end}` });
      assert.ok(rowDescription(api, 'demo').includes(`offset ${end} `));
    } finally {
      await vscode.commands.executeCommand('cantonLedger.updates.stopLiveTail');
    }
  });

  it('a vetting apply: the Vetted Packages view shows the new serial without a refresh', async () => {
    const { prompts } = await scripted();
    const sync = p.state.synchronizers[0].id;
    const serialBefore = (await api.views.vettedPackages.states())!.find((s) => s.synchronizerId === sync)!.topologySerial;
    const vet = (version: string, op: 'Vet' | 'Unvet') => ({ changes: [{ operation: { [op]: { value: { packages: [{ packageName: 'demo-iou', packageVersion: version }] } } } }] });
    prompts.answer('Apply');
    const applied = await vscode.commands.executeCommand<VettingOutcome>('cantonLedger.files.vettingApply', writeWorkspaceJson('follow.vetting.json', vet('2.0.0', 'Vet')));
    assert.equal(applied.applied, true, prompts.messages.map((m) => m.text).join('\n'));
    const serial = () => api.connections.connection('demo')?.ledger?.vetting;
    await waitFor(() => {
      const v = serial();
      return v?.state === 'ready' && v.states.find((s) => s.synchronizerId === sync)?.topologySerial === serialBefore + 1;
    }, { what: `the vetting state at serial ${serialBefore + 1}` });
    const shown = await api.views.vettedPackages.getChildren();
    const row = shown.find((n) => n.type === 'row' && n.row.synchronizerId === sync);
    assert.ok(row, 'a row for the synchronizer');
    assert.match(String(api.views.vettedPackages.getTreeItem(row).description), new RegExp(`serial ${serialBefore + 1}\\b`));
    // Back to the start, for the suites that follow.
    prompts.answer('Apply');
    await vscode.commands.executeCommand<VettingOutcome>('cantonLedger.files.vettingApply', writeWorkspaceJson('follow-back.vetting.json', vet('2.0.0', 'Unvet')));
  });

  it('a write through the connection (a DAR upload, a vetting change) re-reads the vetting state; a write beside it does not', async () => {
    const sync = p.state.synchronizers[0].id;
    const ledger = api.connections.connection('demo')!.ledger!;
    const connection = api.connections.connection('demo')!;
    const before = (await ledger.vettedPackages()).find((s) => s.synchronizerId === sync)!.topologySerial;
    const change = (op: 'Vet' | 'Unvet') => ({ synchronizerId: sync, changes: [{ operation: { [op]: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }] }) as unknown as wire.UpdateVettedPackagesRequest;
    // Written with the client directly, beside the connection: the state does not know.
    await connection.client.updateVettedPackages(change('Vet'));
    assert.equal((await ledger.vettedPackages()).find((s) => s.synchronizerId === sync)!.topologySerial, before, 'not read again by itself');
    // A package write (what a DAR upload is) reads the vetting state again.
    await connection.write('packages', (client, signal) => client.updateVettedPackages(change('Unvet'), { signal }));
    assert.equal((await ledger.vettedPackages()).find((s) => s.synchronizerId === sync)!.topologySerial, before + 2);
    await connection.write('vetting', (client, signal) => client.updateVettedPackages(change('Vet'), { signal }));
    assert.equal((await ledger.vettedPackages()).find((s) => s.synchronizerId === sync)!.topologySerial, before + 3);
    await connection.write('vetting', (client, signal) => client.updateVettedPackages(change('Unvet'), { signal }));
    assert.equal((await ledger.vettedPackages()).find((s) => s.synchronizerId === sync)!.topologySerial, before + 4);
  });

  describe('a new active connection', () => {
    const added: string[] = [];
    let silent: net.Server;
    const sockets: net.Socket[] = [];
    const closed = new Set<net.Socket>();
    before(async () => {
      // Accepts connections and never answers: a participant host that is up but silent. Reading
      // (and dropping) what comes lets it see the other end close.
      silent = net.createServer((s) => {
        sockets.push(s);
        s.on('close', () => closed.add(s));
        s.resume();
      });
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    });
    after(async () => {
      for (const id of added) await api.connections.profiles.remove(id);
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => silent.close(r));
      await api.connections.profiles.setActive('demo');
    });

    it('that does not answer does not become active; Cancel on its "connecting…" row aborts it', async () => {
      const port = (silent.address() as net.AddressInfo).port;
      const id = `e2e-silent-${randomUUID()}`;
      added.push(id);
      await api.connections.profiles.save({ id, name: 'E2E Silent', url: `http://127.0.0.1:${port}`, auth: 'none', source: 'user' });
      await api.connections.profiles.setActive('demo');
      const making = vscode.commands.executeCommand('cantonLedger.connections.setActive', id);
      await waitFor(() => api.connections.connection(id)!.state.state === 'connecting' && sockets.length > 0, { what: 'the connect to reach the silent host' });
      assert.equal(api.connections.profiles.active()?.id, 'demo', 'the previous connection stays active meanwhile');
      assert.equal(api.statusBar.shown.text.startsWith('$(database) Demo @'), true, api.statusBar.shown.text);
      assert.match(rowDescription(api, id), /^connecting… · /);
      const item = api.connectionsTree.getTreeItem(new ConnectionNode(api.connections.profiles.get(id)!));
      assert.match(String(item.contextValue), /\+connecting/, 'the row offers Cancel (inline and in its menu)');
      const rows = api.connectionsTree.getChildren(new ConnectionNode(api.connections.profiles.get(id)!)) as DetailNode[];
      const cancel = rows.find((n) => n.label === 'Cancel');
      assert.ok(cancel?.opts.command, `a Cancel row among ${JSON.stringify(rows.map((r) => r.label))}`);
      await vscode.commands.executeCommand(cancel.opts.command.command, ...(cancel.opts.command.arguments ?? []));
      await making;
      assert.equal(api.connections.connection(id)!.state.state, 'disconnected');
      assert.equal(api.connections.profiles.active()?.id, 'demo', 'still the previous one after Cancel');
      // Really aborted: the requests' sockets are closed by the extension.
      await waitFor(() => sockets.every((s) => closed.has(s)), { what: `the requests to the silent host aborted (${closed.size} of ${sockets.length} closed)` });
    });

    it('that answers becomes active once connected', async () => {
      const id = `e2e-second-${randomUUID()}`;
      added.push(id);
      await api.connections.profiles.save({ id, name: 'E2E Second', url: p.url, auth: 'none', userId: 'demo-admin', source: 'user' });
      await vscode.commands.executeCommand('cantonLedger.connections.setActive', id);
      assert.equal(api.connections.connection(id)!.state.state, 'connected');
      assert.equal(api.connections.profiles.active()?.id, id);
      assert.equal(api.statusBar.shown.text, `$(database) E2E Second @${api.connections.connection(id)?.ledger?.ledgerEnd}`);
    });
  });
});
