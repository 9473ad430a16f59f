// The network feature against the fake VS Code API: Start Demo Network starts the built bundle
// (dist/participantNetwork.js, as the extension loads it) and connects one connection per participant;
// the Network view reads every connected participant (not only the active one), follows their ledgers
// and connections, and shows what could not be read as rows.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CantonLedgerApi } from '../../../src/features';
import { Commands, Views } from '../../../src/vscode/kit/ids';
import { demoNetworkConnectionId } from '../../../src/vscode/network/demoNetwork';
import { DEMO_CONNECTION_ID } from '../../../src/vscode/kit/demo';
import { problemNodes, type NetworkView } from '../../../src/vscode/network/view';
import { AuthError } from '../../../src/core/errors';
import type { ViewNode } from '../../../src/vscode/kit/rowsTree';
import { commands, fake, MemoryMemento, Uri, type TreeItem } from '../fake/vscode';
import { activateAllFeatures } from '../featureHost';
import { ScriptedPrompts } from '../scriptedPrompts';
import type { HostsComparison } from '../../../src/core/network/compareHosts';

const ROOT = join(__dirname, '..', '..', '..');
const NAMES = ['app-provider', 'app-user', 'sv'];

/** The view as drawn: "label — description" per node, children indented, every level expanded. */
async function drawn(view: NetworkView, node?: ViewNode, depth = 0): Promise<string[]> {
  const lines: string[] = [];
  for (const child of await view.getChildren(node)) {
    const item = view.getTreeItem(child) as unknown as TreeItem;
    lines.push(`${'  '.repeat(depth)}${String(item.label)}${item.description ? ` — ${String(item.description)}` : ''}`);
    lines.push(...(await drawn(view, child, depth + 1)));
  }
  return lines;
}

/** Resolves on the view's next change (a connection, a ledger moved). */
const nextChange = (view: NetworkView) => new Promise<void>((resolve) => { const sub = view.onDidChangeTreeData(() => (sub.dispose(), resolve())); });

describe('the network feature: Start Demo Network and the Network view', function () {
  this.timeout(60_000);
  let window: ReturnType<typeof activateAllFeatures>;
  let api: CantonLedgerApi;

  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'participantNetwork.js'))) {
      console.warn('!!! dist/participantNetwork.js is missing: run `npm run build` (the demo network is loaded from it)');
      this.skip();
    }
  });
  beforeEach(() => {
    window = activateAllFeatures();
    api = window.api;
  });
  afterEach(async () => {
    await api.network.demoNetwork.stop();
    window.dispose();
  });

  it('starts three participants, each a connected connection, the first active; the view registered under its id lists them with their parties and the vetting', async () => {
    await commands.executeCommand(Commands.startDemoNetwork);
    const connections = NAMES.map((n) => api.connections.connection(demoNetworkConnectionId(n))!);
    assert.deepEqual(connections.map((c) => [c.profile.name, c.state.state, c.profile.source]), NAMES.map((n) => [n, 'connected', 'demoNetwork']));
    assert.equal(api.connections.profiles.activeId(), demoNetworkConnectionId('app-provider'));
    assert.equal(fake.state.context.get('cantonLedger.demoNetworkRunning'), true);
    assert.equal(fake.state.treeViews.get(Views.network)?.provider, api.network.view);
    const ports = api.network.demoNetwork.network!.participants.map((p) => Number(new URL(p.url).port));
    assert.ok(ports.every((port) => port !== 7575), `free ports, not the single demo's default: ${ports.join(', ')}`);

    const lines = await drawn(api.network.view);
    const synchronizer = api.network.demoNetwork.network!.synchronizer.id;
    assert.deepEqual(lines.slice(0, 11).map((l) => l.replace(/Canton \S+/, 'Canton V')), [
      `global — 3 participants · ${synchronizer.slice(0, 'global-domain::'.length + 8)}…`,
      '  Participants — 3',
      '    app-provider — Canton V · 2 parties',
      '      Alice — confirmation · also on app-user',
      '      Bank — submission',
      '    app-user — Canton V · 2 parties',
      '      Alice — submission · also on app-provider',
      '      Bob — submission',
      '    sv — Canton V · 1 party',
      '      Charlie — submission',
      lines.find((l) => l.startsWith('  Vetting'))!,
    ]);
    assert.ok(!lines.some((l) => l.includes('drift')), 'vetted alike everywhere');
  });

  it('follows a participant’s vetting: a version vetted on one host of Alice only is drift, until her other host has it too', async () => {
    await commands.executeCommand(Commands.startDemoNetwork);
    const view = api.network.view;
    await drawn(view);
    const network = api.network.demoNetwork.network!;
    const vet = async (participant: string) => {
      network.participant(participant).state.updateVetting(
        network.synchronizer.id,
        { changes: [{ operation: 'vet', refs: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }], validFrom: null, validUntil: null }], allowUnvettedDependencies: false, checkOnlyChangedPackages: true },
        false,
      );
      const changed = nextChange(view);
      // The connection learns of it as it does of any vetting change: its ledger state reads it again.
      await api.connections.connection(demoNetworkConnectionId(participant))!.ledger!.refreshVetting();
      await changed;
      return drawn(view);
    };
    const drifting = await vet('app-user');
    assert.ok(drifting.includes('    demo-iou — drift for Alice'), drifting.join('\n'));
    assert.ok(drifting.includes('      2.0.0 — app-user · not on app-provider, sv'));
    assert.match(drifting.find((l) => l.startsWith('  Vetting'))!, / · 1 drifting$/);
    const mended = await vet('app-provider');
    assert.ok(!mended.some((l) => l.includes('drift')), mended.join('\n'));
    assert.ok(mended.includes('      2.0.0 — app-provider, app-user · not on sv'));
  });

  it('a read superseded while under way (Refresh) answers with the newer read, never "Cancelled"', async () => {
    await commands.executeCommand(Commands.startDemoNetwork);
    const view = api.network.view;
    const first = drawn(view);
    view.refresh();
    const lines = await first;
    assert.equal(lines[1], '  Participants — 3', lines.join('\n'));
    assert.ok(!lines.includes('Cancelled'));
  });

  it('a disconnected participant is named by the topology only; one that does not answer is a row of its own; Stop leaves nothing', async () => {
    await commands.executeCommand(Commands.startDemoNetwork);
    const view = api.network.view;
    const sv = api.connections.connection(demoNetworkConnectionId('sv'))!;
    let changed = nextChange(view);
    api.connections.disconnect(sv);
    await changed;
    const without = await drawn(view);
    assert.ok(without.includes('    sv — no connection: named by the topology'), without.join('\n'));

    // app-user stops answering (its server closed) while its connection stays.
    await api.network.demoNetwork.network!.participant('app-user').close();
    changed = nextChange(view);
    await commands.executeCommand(Commands.refreshNetwork);
    await changed;
    const lines = await drawn(view);
    assert.match(lines[1], /^  app-user did not answer — /, lines.join('\n'));
    assert.ok(lines.includes('    app-user — did not answer: as the others tell · 1 party'));
    assert.ok(lines.includes('  Retry'));
    assert.ok(lines.some((l) => l.startsWith('    app-provider — Canton')), 'the others are still read');

    await commands.executeCommand(Commands.stopDemoNetwork);
    assert.equal(api.connections.connection(demoNetworkConnectionId('app-provider')), undefined);
    assert.equal(api.connections.profiles.activeId(), undefined);
    assert.equal(fake.state.context.get('cantonLedger.demoNetworkRunning'), false);
    assert.deepEqual(await drawn(view), ['No connected participant — connect one or more', 'Start Demo Network — app-provider, app-user and sv on one synchronizer']);
  });
});

describe('the Network view groups the connections into networks by synchronizer', function () {
  this.timeout(60_000);
  let window: ReturnType<typeof activateAllFeatures>;
  let api: CantonLedgerApi;
  let storage: string;
  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'participantNetwork.js')) || !existsSync(join(ROOT, 'dist', 'participant.js'))) this.skip();
  });
  beforeEach(() => {
    storage = mkdtempSync(join(tmpdir(), 'network-groups-'));
    window = activateAllFeatures({ globalState: new MemoryMemento(), workspaceState: new MemoryMemento(), globalStorageUri: Uri.file(storage) });
    api = window.api;
  });
  afterEach(async () => {
    await api.network.demoNetwork.stop();
    await commands.executeCommand(Commands.stopDemo);
    window.dispose();
    rmSync(storage, { recursive: true, force: true });
  });

  it('the single demo participant (another synchronizer) is a network of its own: hosts, drift and Compare Participants stay within each', async () => {
    await commands.executeCommand(Commands.startDemo);
    await commands.executeCommand(Commands.startDemoNetwork);
    const demo = api.connections.connection(DEMO_CONNECTION_ID)!;
    await demo.connect();
    const view = api.network.view;
    const networks = await view.networks();
    assert.deepEqual(networks.map((n) => [n.synchronizers.map((s) => s.alias), n.members.map((c) => c.profile.name)]), [
      [['demo-sync'], ['Demo']],
      [['global'], NAMES],
    ]);

    const lines = await drawn(view);
    const tops = lines.filter((l) => !l.startsWith(' '));
    assert.deepEqual(tops.map((l) => l.replace(/::1220[0-9a-f]{4}…/, '::…')), ['demo-sync — 1 participant · demo-sync::…', 'global — 3 participants · global-domain::…']);
    // The demo participant's own parties, Bank among them under the same id as app-provider's (the same seed): one host each, in its own network.
    const demoPart = lines.slice(0, lines.indexOf(tops[1]));
    assert.ok(demoPart.some((l) => /^    demo-participant \(Demo\) — Canton \S+ · 4 parties$/.test(l)), demoPart.join('\n'));
    assert.ok(demoPart.includes('      Bank — submission'), demoPart.join('\n'));
    assert.ok(!lines.some((l) => l.includes('also on Demo')) && !demoPart.some((l) => l.includes('also on')), lines.join('\n'));
    assert.ok(lines.includes('      Bank — submission'), 'Bank on app-provider alone too');
    const bank = networks[1].snapshot!.hosting.get(api.network.demoNetwork.network!.parties.bank)!;
    assert.deepEqual(bank.hosts.map((h) => h.participantId.split('::')[0]), ['app-provider']);

    // Compare Participants offers Alice (two hosts in the network), not Bank (one host in each network).
    const prompts = new ScriptedPrompts().answerPick('Alice');
    api.prompts.current = prompts;
    await commands.executeCommand(Commands.compareParticipants);
    assert.deepEqual(prompts.asked.map((a) => a.offered), [['Alice']]);

    // The pre-flight of a file for the Demo asks the Demo alone; one for app-user asks its network.
    assert.deepEqual(api.preflight.controller.members(demo).map((m) => m.label), ['Demo']);
    const appUser = api.connections.connection(demoNetworkConnectionId('app-user'))!;
    assert.deepEqual(api.preflight.controller.members(appUser).map((m) => m.label), ['app-user', 'app-provider', 'sv']);
  });
});

describe('the Network view’s problem rows', () => {
  const redact = (s: string) => s;
  const member = { id: 'conn-1', profile: { name: 'app-user' } } as never;

  it('a token that may not read a party’s hosting: what was refused, for whom, and Update Token on that connection', () => {
    const rows = problemNodes([{ kind: 'forbidden', member: 'app-user', reading: 'hosting', party: 'Alice::1220', error: new AuthError(403, 'permission-denied') }], [member], redact);
    assert.deepEqual(rows.map((r) => r.label), ['app-user would not tell where the party is hosted for Alice::1220', 'Update Token', 'Retry']);
    assert.deepEqual(rows[1].opts.command?.arguments, ['conn-1']);
  });

  it('a 3.3 participant: a fact, with no Retry (asking again changes nothing)', () => {
    const rows = problemNodes([{ kind: 'unavailable', member: 'old', reading: 'vetting', operation: 'listVettedPackages', version: '3.3.0' }], [], redact);
    assert.deepEqual(rows.map((r) => [r.label, r.opts.icon]), [['old runs Canton 3.3.0, which cannot tell its vetted packages over the JSON Ledger API', 'info']]);
  });
});

describe('Compare Participants', function () {
  this.timeout(60_000);
  let window: ReturnType<typeof activateAllFeatures>;
  let api: CantonLedgerApi;
  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'participantNetwork.js'))) this.skip();
  });
  beforeEach(async () => {
    window = activateAllFeatures();
    api = window.api;
    await commands.executeCommand(Commands.startDemoNetwork);
  });
  afterEach(async () => {
    await api.network.demoNetwork.stop();
    window.dispose();
  });

  it('from a party row of the Network view: its two hosts compared, the result opened as a document, consistent', async () => {
    const view = api.network.view;
    const [network] = await view.getChildren();
    const [participants] = await view.getChildren(network);
    const provider = (await view.getChildren(participants))[0];
    const alice = (await view.getChildren(provider)).find((n) => n.type === 'row' && n.row.label === 'Alice')!;
    assert.match((view.getTreeItem(alice) as unknown as TreeItem).contextValue!, /^cantonLedger:network\.party/);
    const result = (await commands.executeCommand(Commands.compareParticipants, alice)) as HostsComparison;
    assert.deepEqual(result.hosts.map((h) => h.label), ['app-provider', 'app-user']);
    assert.equal(result.consistent, true);
    const shown = fake.state.shownDocuments.at(-1)!;
    assert.match(decodeURIComponent(shown.uri.toString()), /Alice on app-provider vs app-user/);
    const report = JSON.parse(shown.getText()) as { verdict: string; differences: unknown[] };
    assert.match(report.verdict, /^consistent: app-provider and app-user tell the same \d+ transactions$/);
    assert.deepEqual(report.differences, []);
  });

  it('from the palette: only the parties on two or more connected participants are offered', async () => {
    const prompts = new ScriptedPrompts().answerPick('Alice');
    api.prompts.current = prompts;
    const result = (await commands.executeCommand(Commands.compareParticipants)) as HostsComparison;
    assert.deepEqual(prompts.asked.map((a) => [a.kind, a.offered]), [['pick', ['Alice']]]);
    assert.equal(result.party.split('::')[0], 'Alice');
  });
});
