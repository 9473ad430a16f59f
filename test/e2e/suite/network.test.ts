// The network in the real extension host: Start Demo Network loads its own bundle
// (dist/participantNetwork.js), adds a connected connection per participant, and the Network view
// lists them with the parties each hosts, the vetting matrix (drift marked when a host of Alice vets a
// version her other host lacks), and Compare Participants finds Alice's two hosts in agreement.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import type { HostsComparison } from '../../../src/core/network/compareHosts';
import type { ViewNode } from '../../../src/vscode/kit/rowsTree';
import { activate, waitFor } from './helpers';

const NAMES = ['app-provider', 'app-user', 'sv'];

async function drawn(api: CantonLedgerApi, node?: ViewNode, depth = 0): Promise<string[]> {
  const view = api.network.view;
  const lines: string[] = [];
  for (const child of await view.getChildren(node)) {
    const item = view.getTreeItem(child);
    lines.push(`${'  '.repeat(depth)}${String(item.label)}${item.description ? ` — ${String(item.description)}` : ''}`);
    lines.push(...(await drawn(api, child, depth + 1)));
  }
  return lines;
}

describe('Network', function () {
  this.timeout(60_000);
  let api: CantonLedgerApi;
  let activeBefore: string | undefined;
  let demoWasRunning = false;

  // The single demo participant (which earlier suites leave running) is on a synchronizer of its own:
  // it is a network of its own in the view, never read with the demo network. It runs during the suite
  // (started when it did not) and is left as it was found.
  before(async () => {
    api = await activate<CantonLedgerApi>();
    activeBefore = api.connections.profiles.activeId();
    demoWasRunning = api.demo.participant !== undefined;
    if (!demoWasRunning) await vscode.commands.executeCommand('cantonLedger.demo.start');
  });
  // Later suites expect the connections as they found them.
  after(async () => {
    await vscode.commands.executeCommand('cantonLedger.demoNetwork.stop');
    if (!demoWasRunning) await vscode.commands.executeCommand('cantonLedger.demo.stop');
    if (activeBefore) await api.connections.profiles.setActive(activeBefore);
  });

  it('Start Demo Network: a connected connection per participant, on ports of their own', async () => {
    await vscode.commands.executeCommand('cantonLedger.demoNetwork.start');
    const connections = NAMES.map((n) => api.connections.connection(`demo-network:${n}`));
    assert.deepEqual(connections.map((c) => [c?.profile.name, c?.state.state]), NAMES.map((n) => [n, 'connected']));
    const ports = new Set(connections.map((c) => new URL(c!.profile.url).port));
    assert.equal(ports.size, 3);
    assert.ok(!ports.has('7575'));
  });

  it('the Network view lists every participant with its parties, and the vetting matrix follows a host’s vetting', async () => {
    await vscode.commands.executeCommand('cantonLedger.network.focus');
    await waitFor(() => api.network.view.treeView.visible, { what: 'the Network view shown' });
    const demo = api.connections.connection('demo')!;
    if (demo.state.state !== 'connected') await demo.connect();
    const lines = await drawn(api);
    const network = lines.findIndex((l) => l.startsWith('global — 3 participants'));
    assert.ok(network >= 0 && lines.some((l) => l.startsWith('demo-sync — 1 participant')), `a network each, the demo's and the demo network's:\n${lines.join('\n')}`);
    const next = lines.findIndex((l, i) => i > network && !l.startsWith(' '));
    const ofNetwork = lines.slice(network, next < 0 ? undefined : next);
    for (const line of ['    app-provider — Canton', '      Alice — confirmation · also on app-user', '      Bob — submission', '      Charlie — submission']) {
      assert.ok(ofNetwork.some((l) => l.startsWith(line)), `${line} in\n${lines.join('\n')}`);
    }
    assert.ok(!ofNetwork.some((l) => l.includes('Demo')), 'the Demo is no host in the demo network');
    const demoNetwork = api.network.demoNetwork.network!;
    demoNetwork.participant('app-user').state.updateVetting(
      demoNetwork.synchronizer.id,
      { changes: [{ operation: 'vet', refs: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }], validFrom: null, validUntil: null }], allowUnvettedDependencies: false, checkOnlyChangedPackages: true },
      false,
    );
    await api.connections.connection('demo-network:app-user')!.ledger!.refreshVetting();
    const drifting = (await waitFor(async () => {
      const now = await drawn(api);
      return now.includes('    demo-iou — drift for Alice') ? now : false;
    }, { what: 'demo-iou marked as drifting for Alice' })) as string[];
    assert.ok(drifting.includes('      2.0.0 — app-user · not on app-provider, sv'), drifting.join('\n'));
  });

  it('Compare Participants: Alice on app-provider and app-user agree', async () => {
    const global = (await api.network.view.getChildren()).find((n) => String(api.network.view.getTreeItem(n).label) === 'global')!;
    const [participants] = await api.network.view.getChildren(global);
    const provider = (await api.network.view.getChildren(participants)).find((n) => n.type === 'row' && n.row.label === 'app-provider')!;
    const alice = (await api.network.view.getChildren(provider)).find((n) => n.type === 'row' && n.row.label === 'Alice');
    const c = await vscode.commands.executeCommand<HostsComparison>('cantonLedger.network.compareParticipants', alice);
    assert.ok(c?.consistent, JSON.stringify(c?.summary));
    assert.deepEqual(c.hosts.map((h) => h.label), ['app-provider', 'app-user']);
    await waitFor(() => vscode.window.activeTextEditor?.document.uri.path.includes('Alice on app-provider vs app-user'), { what: 'the comparison opened' });
    assert.match(vscode.window.activeTextEditor!.document.getText(), /"verdict": "consistent: app-provider and app-user tell the same \d+ transactions"/);
  });

  it('Stop Demo Network removes its connections', async () => {
    await vscode.commands.executeCommand('cantonLedger.demoNetwork.stop');
    assert.equal(api.connections.connection('demo-network:app-provider'), undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
