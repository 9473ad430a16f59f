// The ledger views (Updates, Contract Events, Vetted Packages) in the real extension host, against demo
// participants: the embedded one (3.5) and extra ones started here (3.4 with two synchronizers, 3.6).
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import type { DemoParticipant, DemoParticipantOptions } from '../../../src/participant';
import type { ViewNode, RowNode } from '../../../src/vscode/kit/rowsTree';
import type { UpdatesViewFilter } from '../../../src/core/updates/viewFilter';
import { activate, extension, registerSecret, waitFor } from './helpers';

const IOU = '#demo-iou:Iou:Iou';
const ASSET = '#demo-asset:Asset:Asset';

const addedConnections: string[] = [];

type ParticipantModule = { startDemoParticipant(o: DemoParticipantOptions): Promise<DemoParticipant> };

/** A further demo participant, from the extension's own bundle (a suite is a separate bundle). */
function startParticipant(o: DemoParticipantOptions): Promise<DemoParticipant> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path.join(extension().extensionPath, 'dist', 'participant.js')) as ParticipantModule;
  return mod.startDemoParticipant({ port: 0, ...o });
}

async function addActive(name: string, url: string): Promise<string> {
  const profile = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', { name, url, auth: 'none', userId: 'demo-admin' });
  await vscode.commands.executeCommand('cantonLedger.connections.setActive', profile.id);
  addedConnections.push(profile.id);
  return profile.id;
}

const label = (api: CantonLedgerApi, n: ViewNode) => String(api.views.updates.getTreeItem(n).label);
const rows = (nodes: ViewNode[]) => nodes.filter((n): n is RowNode => n.type === 'row');

/** Loads the whole pinned range through "Load more"; returns the root nodes. */
async function loadAll(api: CantonLedgerApi): Promise<ViewNode[]> {
  let nodes = await api.views.updates.getChildren();
  for (let i = 0; i < 500 && !api.views.updates.range?.complete; i++) {
    await api.views.updates.loadMore();
    nodes = await api.views.updates.getChildren();
  }
  return nodes;
}

async function setFilter(api: CantonLedgerApi, f: UpdatesViewFilter): Promise<void> {
  await vscode.commands.executeCommand('cantonLedger.updates.filter', f);
}

function iouCommands(p: DemoParticipant, owner = p.parties.alice) {
  return {
    commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: p.parties.bank, owner, currency: 'USD', amount: '10.0', observers: [] } } }],
    commandId: randomUUID(),
    actAs: [p.parties.bank],
    userId: 'demo-admin',
  };
}

describe('ledger views', function () {
  this.timeout(60_000);
  let api: CantonLedgerApi;
  const extra: DemoParticipant[] = [];

  before(async () => {
    api = await activate<CantonLedgerApi>();
  });
  after(async () => {
    // Later suites read the demo connection's views: leave no Updates filter behind.
    for (const p of api.connections.profiles.all()) await api.views.filters.set(api.connections.connection(p.id)!, undefined);
    for (const id of addedConnections) await api.connections.profiles.remove(id);
    await Promise.all(extra.map((p) => p.close()));
  });

  describe('Updates view, 3.4 participant with two synchronizers (offset paging, list cap 50)', () => {
    let p: DemoParticipant;
    let dave: string;
    before(async () => {
      p = await startParticipant({ seed: 11, synchronizers: 2, apiVersion: '3.4', listCap: 50 });
      extra.push(p);
      p.state.appendSynthetic(140, { checkpointEvery: 9 });
      dave = p.state.allocateParty(`Dave${Date.now()}`);
      p.state.appendCheckpoint();
      await addActive('E2E two synchronizers', p.url);
      await setFilter(api, { anyParty: true, includeReassignments: true, includeTopologyEvents: true, verbose: true, pageSize: 120 });
    });

    it('pages to the end of a range larger than the cap, matching the ledger, each update once', async () => {
      const first = await api.views.updates.getChildren();
      const end = p.state.ledgerEnd;
      assert.equal(api.views.updates.range?.endInclusive, end, 'the first page pins the ledger end');
      assert.equal(label(api, first[first.length - 1]), 'Load more');
      assert.match(String(api.views.updates.getTreeItem(first[first.length - 1]).description), /pages of 49 \(the participant's cap, less the one read ahead\)/, 'the page size asked for (120) is above the cap');
      // Updates after the pin do not join this range: paging terminates.
      p.state.appendSynthetic(5, { seed: 4 });
      const all = rows(await loadAll(api));
      const expected = p.state.entries.filter((e) => e.offset <= end).map((e) => `${e.offset}/${e.kind}`);
      assert.deepEqual(all.map((n) => `${n.row.offset}/${n.row.kind.replace('update.', '')}`), expected);
      assert.equal(new Set(all.map((n) => n.id)).size, all.length, 'node ids are unique');
      const last = await api.views.updates.getChildren();
      assert.ok(!last.some((n) => label(api, n) === 'Load more'), 'no Load more at the end');
    });

    it('shows every update kind with its details and events', async () => {
      const nodes = rows(await api.views.updates.getChildren());
      const byKind = (k: string) => nodes.find((n) => n.row.kind === k);
      const tx = byKind('update.transaction')!;
      const reassignment = byKind('update.reassignment')!;
      const topology = nodes.filter((n) => n.row.kind === 'update.topology').pop()!;
      const checkpoint = byKind('update.checkpoint')!;
      for (const [kind, n] of Object.entries({ tx, reassignment, topology, checkpoint })) assert.ok(n, `a ${kind} is listed`);

      assert.match(label(api, tx), /^\d+ {2}Transaction$/);
      const txChildren = tx.children();
      assert.equal(txChildren[0].row.label, 'Details');
      const details = txChildren[0].children().map((c) => c.row.label);
      // The demo playing 3.4.12 reports what the transaction paid its synchronizer, as that release does.
      assert.deepEqual(details, ['Offset', 'Update ID', 'Command ID', 'Workflow ID', 'Effective at', 'Record time', 'Synchronizer', 'Traffic cost']);
      const created = txChildren.find((c) => c.row.kind === 'event.created')!;
      assert.match(created.row.label, /^Created (Iou:Iou|Asset:Asset)$/);
      const createdRows = created.children().map((c) => c.row.label);
      for (const want of ['Template', 'Contract ID', 'Signatories', 'Observers', 'Witnesses', 'Arguments']) assert.ok(createdRows.includes(want), `created event shows ${want}`);
      assert.ok(created.row.contractId && api.views.updates.getTreeItem(created).contextValue?.includes('+contractId'));

      const rEvents = reassignment.children().filter((c) => c.row.kind.startsWith('event.'));
      assert.ok(rEvents.length > 0);
      assert.match(rEvents[0].row.label, /^(Assigned|Unassigned) /);
      const rRows = rEvents[0].children().map((c) => c.row.label);
      assert.ok(rRows.includes('Source synchronizer') && rRows.includes('Target synchronizer'));

      const tEvents = topology.children();
      assert.ok(tEvents.some((e) => /^Participant authorization (added|changed|revoked|onboarding)$/.test(e.row.label)), tEvents.map((e) => e.row.label).join());
      assert.ok(tEvents.some((e) => dave.startsWith(e.row.description!.replace(/…$/, ''))), 'the party allocated here');

      const times = checkpoint.children();
      assert.equal(times.length, 2, 'a record time per synchronizer');
      assert.ok(times.every((t) => /^\d{4}-\d{2}-\d{2}T/.test(t.row.description ?? '')));
    });

    it('opens the formatted and the raw JSON of an update as read-only virtual documents', async () => {
      const tx = rows(await api.views.updates.getChildren()).find((n) => n.row.kind === 'update.transaction')!;
      await vscode.commands.executeCommand('cantonLedger.item.openJson', tx);
      const doc = vscode.window.activeTextEditor!.document;
      assert.equal(doc.uri.scheme, 'canton-ledger');
      assert.equal(doc.languageId, 'json');
      const decoded = JSON.parse(doc.getText());
      assert.equal(decoded.updateId, tx.row.updateId);
      assert.equal(decoded.raw, undefined, 'the readable form has no raw copies');
      await vscode.commands.executeCommand('cantonLedger.item.openRawJson', tx);
      const raw = JSON.parse(vscode.window.activeTextEditor!.document.getText());
      assert.equal(raw.updateId, tx.row.updateId);
      assert.ok(raw.events.every((e: object) => Object.keys(e).length === 1 && /Event$/.test(Object.keys(e)[0])), 'the wire form keeps the event variants');
      assert.notEqual(vscode.workspace.fs.isWritableFileSystem('canton-ledger'), true, 'no file system behind it: nothing to save to');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('copies an update\'s id and offset and an event\'s contract id; the context menu offers exactly those', async () => {
      const top = rows(await api.views.updates.getChildren());
      const tx = top.find((n) => n.row.kind === 'update.transaction')!;
      const created = tx.children().find((c) => c.row.kind === 'event.created')!;
      const checkpoint = top.find((n) => n.row.kind === 'update.checkpoint')!;
      // The manifest's `view/item/context` entries, matched against each item's context value as VS Code does.
      const menus = (extension().packageJSON.contributes.menus['view/item/context'] as { command: string; when: string }[]).filter(
        (m) => m.when.includes('view == cantonLedger.updates') && (m.command.startsWith('cantonLedger.item.copy') || m.command === 'cantonLedger.contractEvents.show'),
      );
      const offered = (n: RowNode) => {
        const contextValue = api.views.updates.getTreeItem(n).contextValue!;
        const matching = menus.filter((m) => new RegExp(m.when.match(/viewItem =~ \/(.*)\/\s*$/)![1]).test(contextValue));
        return [...new Set(matching.map((m) => m.command))].sort();
      };
      assert.deepEqual(offered(tx), ['cantonLedger.item.copyOffset', 'cantonLedger.item.copyUpdateId']);
      assert.deepEqual(offered(checkpoint), ['cantonLedger.item.copyOffset']);
      const onEvent = offered(created);
      assert.ok(onEvent.includes('cantonLedger.item.copyContractId') && onEvent.includes('cantonLedger.contractEvents.show'), onEvent.join());
      for (const [command, node, value] of [
        ['cantonLedger.item.copyUpdateId', tx, tx.row.updateId],
        ['cantonLedger.item.copyOffset', tx, String(tx.row.offset)],
        ['cantonLedger.item.copyContractId', created, created.row.contractId],
      ] as const) {
        await vscode.env.clipboard.writeText('');
        await vscode.commands.executeCommand(command, node);
        assert.equal(await vscode.env.clipboard.readText(), value, command);
      }
    });

    it('keeps the loaded count on refresh, with the range end moved to the new ledger end', async () => {
      const before = rows(await api.views.updates.getChildren()).length;
      p.state.appendSynthetic(3, { seed: 6 });
      await vscode.commands.executeCommand('cantonLedger.updates.refresh');
      const after = rows(await api.views.updates.getChildren()).length;
      assert.ok(after >= before, `${after} loaded after refresh, ${before} before`);
      assert.equal(api.views.updates.range?.endInclusive, p.state.ledgerEnd);
    });

    it('reveals an update too far to page to by moving the range to it; says when the filter hides one', async () => {
      await setFilter(api, { anyParty: true, includeReassignments: true, verbose: true, pageSize: 2 });
      const target = p.state.entries.filter((e) => e.kind === 'transaction').at(-1)!;
      const updateId = target.kind === 'transaction' ? target.updateId : assert.fail('a transaction');
      assert.equal(await vscode.commands.executeCommand('cantonLedger.updates.reveal', { offset: target.offset, updateId }), false, 'not found within the page budget');
      assert.ok(api.views.updates.loadedNodes.length < p.state.entries.length, 'did not page through the whole range');

      assert.equal(await api.views.updates.showFrom({ offset: target.offset, updateId }), true);
      const selected = api.views.updates.treeView.selection[0];
      assert.equal(selected?.type === 'row' && selected.row.updateId, updateId);
      assert.match(api.views.updates.treeView.description ?? '', new RegExp(`offsets ${target.offset - 1}–end`));

      await setFilter(api, { parties: [dave], verbose: true, pageSize: 10 });
      assert.equal(await api.views.updates.showFrom({ offset: target.offset, updateId }), false, 'Dave does not see it');
    });

    it('narrows by offset range, reassignments and topology events; ledger effects show the exercises', async () => {
      const end = p.state.ledgerEnd;
      const [begin, stop] = [Math.floor(end / 3), Math.floor((2 * end) / 3)];
      await setFilter(api, { anyParty: true, verbose: true, includeReassignments: false, includeTopologyEvents: false, beginExclusive: begin, endInclusive: stop, pageSize: 200 });
      const narrowed = rows(await loadAll(api));
      assert.ok(narrowed.every((n) => n.row.offset! > begin && n.row.offset! <= stop), 'only the range');
      assert.ok(!narrowed.some((n) => n.row.kind === 'update.reassignment' || n.row.kind === 'update.topology'), 'no reassignments, no topology events');
      const transactions = (nodes: RowNode[]) => nodes.filter((n) => n.row.kind === 'update.transaction');
      const expected = p.state.entries.filter((e) => e.kind === 'transaction' && e.offset > begin && e.offset <= stop).map((e) => e.offset);
      assert.deepEqual(transactions(narrowed).map((n) => n.row.offset), expected);
      const exercised = (nodes: RowNode[]) => transactions(nodes).flatMap((n) => n.children()).filter((c) => c.row.kind === 'event.exercised');
      assert.equal(exercised(narrowed).length, 0, 'the ACS delta has no exercised events');
      assert.match(api.views.updates.treeView.description ?? '', new RegExp(`−reassignments · offsets ${begin}–${stop}`));

      await setFilter(api, { anyParty: true, verbose: true, shape: 'ledger-effects', includeTopologyEvents: true, pageSize: 200 });
      const effects = rows(await loadAll(api));
      assert.ok(exercised(effects).length > 0, 'ledger effects show the exercised events');
      assert.ok(effects.some((n) => n.row.kind === 'update.topology') && effects.some((n) => n.row.kind === 'update.reassignment'));
      assert.match(api.views.updates.treeView.description ?? '', /ledger effects · \+topology/);
    });

    it('ignores a second Load more while a page is loading', async () => {
      await setFilter(api, { anyParty: true, includeReassignments: true, includeTopologyEvents: true, verbose: true, pageSize: 30 });
      const first = rows(await api.views.updates.getChildren()).length;
      assert.ok(first > 0 && first <= 30);
      await Promise.all([api.views.updates.loadMore(), api.views.updates.loadMore(), vscode.commands.executeCommand('cantonLedger.updates.loadMore')]);
      const nodes = rows(await api.views.updates.getChildren());
      assert.ok(nodes.length > first && nodes.length <= first + 30, `one page more: ${first} → ${nodes.length}`);
      assert.equal(new Set(nodes.map((n) => n.id)).size, nodes.length);
    });
  });

  describe('Updates view, demo participant (3.5)', () => {
    let p: DemoParticipant;
    let profileId: string;
    before(async () => {
      await vscode.commands.executeCommand('cantonLedger.demo.start');
      p = api.demo.participant!;
      assert.ok(p, 'demo participant running');
      profileId = api.connections.profiles.active()!.id;
      if (p.state.ledgerEnd < 300) p.state.appendSynthetic(300, { checkpointEvery: 10 });
    });
    after(() => vscode.commands.executeCommand('cantonLedger.updates.stopLiveTail'));

    it('lists newest first when descending', async () => {
      await setFilter(api, { anyParty: true, verbose: true, descending: true, pageSize: 40 });
      const nodes = rows(await api.views.updates.getChildren());
      const offsets = nodes.map((n) => n.row.offset!);
      assert.equal(offsets[0], p.state.ledgerEnd);
      assert.ok(offsets.every((o, i) => i === 0 || o <= offsets[i - 1]), 'non-increasing offsets');
      await api.views.updates.loadMore();
      const more = rows(await api.views.updates.getChildren()).map((n) => n.row.offset!);
      assert.ok(more.length > offsets.length && more.every((o, i) => i === 0 || o <= more[i - 1]));
      assert.match(api.views.updates.treeView.description ?? '', /newest first/);
    });

    it('filters by party and by template, and shows the filter in the description', async () => {
      await setFilter(api, { parties: [p.parties.charlie], verbose: true, pageSize: 100 });
      const charlie = rows(await loadAll(api)).filter((n) => n.row.kind === 'update.transaction');
      assert.ok(charlie.length > 0);
      for (const n of charlie) {
        const value = n.row.json!.value as { events: { witnessParties?: string[]; signatories?: string[] }[] };
        assert.ok(value.events.every((e) => (e.witnessParties ?? []).includes(p.parties.charlie)), `offset ${n.row.offset}: every event is witnessed by Charlie`);
      }
      assert.match(api.views.updates.treeView.description ?? '', /^Charlie/);

      await setFilter(api, { anyParty: true, templateIds: [ASSET], verbose: true, pageSize: 100 });
      const assets = rows(await loadAll(api)).filter((n) => n.row.kind === 'update.transaction');
      assert.ok(assets.length > 0);
      assert.ok(assets.every((n) => n.children().filter((c) => c.row.kind.startsWith('event.')).every((e) => e.row.label.endsWith('Asset:Asset'))));
      assert.match(api.views.updates.treeView.description ?? '', /Asset:Asset/);
    });

    it('reads with the deprecated legacy request form when asked, and says so', async () => {
      await setFilter(api, { anyParty: true, verbose: true, legacyForm: true, pageSize: 30 });
      const nodes = rows(await api.views.updates.getChildren());
      assert.ok(nodes.length > 0);
      assert.match(api.views.updates.treeView.description ?? '', /legacy form \(deprecated\)/);
    });

    it('shows "No updates in this range" as an item', async () => {
      const lonely = p.state.allocateParty(`Nobody${Date.now()}`);
      await setFilter(api, { parties: [lonely], verbose: true });
      const nodes = await api.views.updates.getChildren();
      assert.equal(nodes.length, 1);
      assert.equal(label(api, nodes[0]), 'No updates in this range');
    });

    it('shows a failure as items with the Canton code and Retry, not a toast', async () => {
      await setFilter(api, { anyParty: true, templateIds: ['#no-such-package:Mod:T'], verbose: true });
      const nodes = await api.views.updates.getChildren();
      const labels = nodes.map((n) => label(api, n));
      assert.ok(labels.some((l) => /^[A-Z_]+$/.test(l)), `a Canton error code among ${labels.join(' | ')}`);
      assert.equal(labels[labels.length - 1], 'Retry');
    });

    it('live tail picks up a newly submitted transaction, across a dropped connection, once, with a badge', async () => {
      await setFilter(api, { anyParty: true, verbose: true });
      await vscode.commands.executeCommand('workbench.view.explorer');
      // The participant's websocket stream is cut after its first frame: the tail reconnects, missing nothing.
      p.faults.updatesSocket = { cutAfterFrames: 1, times: 1 };
      await vscode.commands.executeCommand('cantonLedger.updates.startLiveTail');
      await waitFor(() => api.views.updates.liveTail.status === 'following', { what: 'live tail following' });
      await waitFor(() => api.views.updates.liveTail.source?.kind === 'websocket', { what: 'the tail reading the websocket stream' });
      const client = api.connections.connectionFor(api.connections.profiles.get(profileId)!).client;
      const first = await client.submitAndWaitForTransaction({ commands: iouCommands(p) });
      const liveIds = async () => rows(await api.views.updates.getChildren()).map((n) => n.row.updateId).filter(Boolean);
      await waitFor(async () => (await liveIds()).includes(first.transaction.updateId), { what: 'the new transaction in the live tail' });
      // The next read is cut after one element: the tail reconnects and delivers the rest exactly once.
      p.faults.updatesList = { cutAfterElements: 1, times: 1 };
      const second = await client.submitAndWaitForTransaction({ commands: iouCommands(p, p.parties.bob) });
      p.state.appendSynthetic(3, { seed: 77 });
      await waitFor(async () => (await liveIds()).includes(second.transaction.updateId), { what: 'the second transaction' });
      const ids = await liveIds();
      assert.equal(ids.filter((id) => id === second.transaction.updateId).length, 1);
      assert.equal(new Set(ids).size, ids.length, 'no duplicates');
      await waitFor(() => api.views.updates.liveTail.received >= 5, { what: 'all five new updates' });
      assert.ok(api.views.updates.liveTail.newCount >= 2, 'new updates counted while the view is hidden');
      await waitFor(() => api.views.updates.treeView.badge?.value === api.views.updates.liveTail.newCount, { what: 'the badge showing the new count' });
      assert.match(api.views.updates.treeView.description ?? '', /● live \(websocket\)/);
      await vscode.commands.executeCommand('cantonLedger.updates.stopLiveTail');
      assert.equal(api.views.updates.liveTail.active, false);
      assert.equal(api.views.updates.treeView.badge, undefined);
    });

    it('reveals a submitted transaction (Reveal in Updates)', async () => {
      await setFilter(api, { anyParty: true, verbose: true, pageSize: 25 });
      const client = api.connections.connectionFor(api.connections.profiles.get(profileId)!).client;
      const r = await client.submitAndWaitForTransaction({ commands: iouCommands(p) });
      const found = await vscode.commands.executeCommand<boolean>('cantonLedger.updates.reveal', { connectionId: profileId, offset: r.transaction.offset, updateId: r.transaction.updateId });
      const loaded = api.views.updates.loadedNodes;
      assert.equal(found, true, `not found in ${loaded.length} loaded (offsets ${loaded[0]?.row.offset}…${loaded[loaded.length - 1]?.row.offset}), range ${JSON.stringify(api.views.updates.range)}, target ${r.transaction.offset}`);
      const selected = api.views.updates.treeView.selection[0];
      assert.equal(selected?.type === 'row' && selected.row.updateId, r.transaction.updateId);
    });
  });

  describe('Updates view, participant with auth: a rejected token', () => {
    let p: DemoParticipant;
    let profileId: string;
    // The participant's clock: moving it on expires the token the extension holds.
    let now = Date.now();
    let previouslyActive: string | undefined;
    const freshToken = async () => registerSecret(await p.mintToken('demo-admin', { expiresInSeconds: 120 }));
    before(async () => {
      p = await startParticipant({ seed: 13, auth: { secret: `e2e-hs256-${randomUUID()}` }, clock: () => new Date(now) });
      extra.push(p);
      previouslyActive = api.connections.profiles.active()?.id;
      const profile = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', { name: 'E2E auth', url: p.url, auth: 'jwt', userId: 'demo-admin' });
      profileId = profile.id;
      addedConnections.push(profileId);
      // The token first: a connection becomes active once it answers.
      await vscode.commands.executeCommand('cantonLedger.token.set', profileId, await freshToken());
      await vscode.commands.executeCommand('cantonLedger.connections.setActive', profileId);
      await api.connections.connectionFor(api.connections.profiles.get(profileId)!).connect();
      await setFilter(api, { anyParty: true, verbose: true });
    });
    after(async () => {
      await vscode.commands.executeCommand('cantonLedger.updates.stopLiveTail');
      // Without a connection to go back to (the suite run alone), the command would ask which one.
      if (previouslyActive) await vscode.commands.executeCommand('cantonLedger.connections.setActive', previouslyActive);
    });
    // Update Token from the item asks for the token, stores it and reconnects; here in two steps.
    const updateToken = async () => {
      await vscode.commands.executeCommand('cantonLedger.token.set', profileId, await freshToken());
      await api.connections.connectionFor(api.connections.profiles.get(profileId)!).connect();
    };

    it('live tail: "Token rejected — Update Token" and Retry; after a new token it resumes where it stopped, missing nothing', async () => {
      const start = p.state.ledgerEnd;
      await vscode.commands.executeCommand('cantonLedger.updates.startLiveTail');
      await waitFor(() => api.views.updates.liveTail.status === 'following', { what: 'live tail following' });
      p.state.appendSynthetic(4, { seed: 21 });
      await waitFor(() => api.views.updates.liveTail.received >= 4, { what: 'the first four updates' });

      now += 10 * 60_000;
      await waitFor(() => api.views.updates.liveTail.status === 'stopped', { what: 'the tail stopped by the expired token', timeoutMs: 15_000 });
      // Written while the tail is stopped: a Retry must not skip them.
      p.state.appendSynthetic(3, { seed: 22 });
      const stopped = await api.views.updates.getChildren();
      assert.equal(label(api, stopped[0]), 'Token rejected — Update Token');
      const update = api.views.updates.getTreeItem(stopped[0]).command;
      assert.equal(update?.command, 'cantonLedger.token.set');
      assert.deepEqual(update?.arguments, [profileId]);
      const retry = stopped.find((n) => label(api, n) === 'Retry');
      assert.ok(retry, 'a Retry item');

      await updateToken();
      const retryCommand = api.views.updates.getTreeItem(retry).command!;
      await vscode.commands.executeCommand(retryCommand.command, ...(retryCommand.arguments ?? []));
      const expected = p.state.entries.filter((e) => e.offset > start).map((e) => e.offset);
      await waitFor(() => api.views.updates.liveTail.received >= expected.length, { what: `all ${expected.length} updates after offset ${start}` });
      const shown = rows(await api.views.updates.getChildren()).map((n) => n.row.offset);
      // The live updates continue the loaded history (oldest first here), after it.
      assert.deepEqual(shown.filter((o) => o! > start), expected, 'every update once, in order, none missed while stopped');
      assert.equal(new Set(shown).size, shown.length, 'the history and the live updates do not overlap');
      await vscode.commands.executeCommand('cantonLedger.updates.stopLiveTail');
    });

    it('pages: "Token rejected — Update Token" and Retry as items; Retry after a new token lists again', async () => {
      now += 10 * 60_000;
      await vscode.commands.executeCommand('cantonLedger.updates.refresh');
      const nodes = await api.views.updates.getChildren();
      const labels = nodes.map((n) => label(api, n));
      assert.equal(labels[0], 'Token rejected — Update Token', labels.join(' | '));
      assert.equal(api.views.updates.getTreeItem(nodes[0]).command?.command, 'cantonLedger.token.set');
      assert.equal(labels[labels.length - 1], 'Retry');
      await updateToken();
      const retry = api.views.updates.getTreeItem(nodes[nodes.length - 1]).command!;
      await vscode.commands.executeCommand(retry.command, ...(retry.arguments ?? []));
      await waitFor(async () => rows(await api.views.updates.getChildren()).length > 0, { what: 'updates listed again' });
    });
  });

  describe('Contract Events view', () => {
    let p: DemoParticipant;
    before(() => {
      p = api.demo.participant!;
    });

    /** A new Iou on the active connection; its contract id. */
    async function newIouContract(): Promise<string> {
      const r = await api.connections.connectionFor(api.connections.profiles.active()!).client.submitAndWaitForTransaction({ commands: iouCommands(p) });
      return r.transaction.events.find((e) => e.kind === 'created')!.contractId;
    }

    /** A contract row's children once its lookup has answered (until then the row shows "Loading…"). */
    async function loadedChildren(node: Awaited<ReturnType<typeof contractNode>>) {
      await api.views.contractEvents.getChildren(node);
      await api.views.contractEvents.settled();
      return api.views.contractEvents.getChildren(node);
    }

    async function contractNode(contractId: string) {
      const roots = await api.views.contractEvents.getChildren();
      const node = roots.find((n) => n.id.endsWith(`/${contractId}`));
      assert.ok(node, 'the contract is first in the history');
      assert.equal(roots[0], node);
      return node;
    }

    it('shows the create event of an active contract', async () => {
      const contractId = await newIouContract();
      const events = await vscode.commands.executeCommand<{ active: boolean }>('cantonLedger.contractEvents.show', contractId);
      assert.equal(events?.active, true);
      const node = await contractNode(contractId);
      const item = api.views.contractEvents.getTreeItem(node);
      assert.equal(item.label, 'Iou:Iou');
      assert.match(String(item.description), /^active/);
      const children = (await api.views.contractEvents.getChildren(node)) as RowNode[];
      assert.deepEqual(children.map((c) => c.row.label), ['Created Iou:Iou']);
      const created = children[0].children().map((c) => c.row.label);
      for (const want of ['Template', 'Contract ID', 'Package', 'Created at', 'Signatories', 'Observers', 'Witnesses', 'Arguments']) assert.ok(created.includes(want), want);
      const args = children[0].children().find((c) => c.row.label === 'Arguments')!.children();
      const amount = args.find((a) => a.row.label === 'amount');
      assert.match(amount?.row.description ?? '', /^10(\.0+)?$/);
    });

    it('shows the create and archive events of an archived contract, looked up from an event in the Updates view', async () => {
      const profile = api.connections.profiles.active()!;
      const client = api.connections.connectionFor(profile).client;
      const created = await client.submitAndWaitForTransaction({ commands: iouCommands(p) });
      const contractId = created.transaction.events.find((e) => e.kind === 'created')!.contractId;
      const archived = await client.submitAndWaitForTransaction({
        commands: {
          commands: [{ ExerciseCommand: { templateId: IOU, contractId, choice: 'Archive', choiceArgument: {} } }],
          commandId: randomUUID(),
          actAs: [p.parties.bank, p.parties.alice],
          userId: 'demo-admin',
        },
      });
      assert.ok(archived.transaction.offset > 0);
      // From the Updates view: the created event's node is what the context menu passes.
      await setFilter(api, { anyParty: true, verbose: true, descending: true, pageSize: 10 });
      const tx = rows(await api.views.updates.getChildren()).find((n) => n.row.updateId === created.transaction.updateId)!;
      const eventNode = tx.children().find((c) => c.row.contractId === contractId)!;
      await vscode.commands.executeCommand('cantonLedger.contractEvents.show', eventNode);
      const children = (await loadedChildren(await contractNode(contractId))) as RowNode[];
      assert.match(String(api.views.contractEvents.getTreeItem(await contractNode(contractId)).description), /^archived/);
      assert.deepEqual(children.map((c) => c.row.label), ['Created Iou:Iou', 'Archived Iou:Iou']);
      assert.equal(children[1].row.offset, archived.transaction.offset);
    });

    it('says clearly when a contract is unknown', async () => {
      const unknown = `00${'ab'.repeat(32)}ca101220${'cd'.repeat(32)}`;
      const events = await vscode.commands.executeCommand('cantonLedger.contractEvents.show', unknown);
      assert.equal(events, undefined);
      const node = await contractNode(unknown);
      assert.match(String(api.views.contractEvents.getTreeItem(node).description), /^not found/);
      const children = await api.views.contractEvents.getChildren(node);
      assert.equal(String(api.views.contractEvents.getTreeItem(children[0]).label), 'Contract not found');
    });

    it('looks up the contract id under the cursor in an editor', async () => {
      const contractId = await newIouContract();
      const doc = await vscode.workspace.openTextDocument({ language: 'json', content: `{\n  "contractId": "${contractId}"\n}\n` });
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(1, 30, 1, 30);
      await vscode.commands.executeCommand('cantonLedger.contractEvents.showAtCursor');
      await contractNode(contractId);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('asks with the event format chosen for the view: a party that cannot see the contract gets "not found"', async () => {
      const contractId = await newIouContract();
      await vscode.commands.executeCommand('cantonLedger.contractEvents.changeFormat', { parties: [p.parties.charlie], verbose: true });
      try {
        assert.match(api.views.contractEvents.treeView.description ?? '', /^as Charlie/);
        assert.equal(await vscode.commands.executeCommand('cantonLedger.contractEvents.show', contractId), undefined);
        assert.match(String(api.views.contractEvents.getTreeItem(await contractNode(contractId)).description), /^not found/);
      } finally {
        await vscode.commands.executeCommand('cantonLedger.contractEvents.changeFormat', 'follow');
      }
      assert.equal(api.views.contractEvents.treeView.description, 'as the Updates filter');
      const events = await vscode.commands.executeCommand<{ active: boolean }>('cantonLedger.contractEvents.show', contractId);
      assert.equal(events?.active, true);
    });

    it('follows the Updates filter: after a filter change it asks again as the new parties', async () => {
      const contractId = await newIouContract();
      await setFilter(api, { anyParty: true, verbose: true });
      assert.ok(await vscode.commands.executeCommand('cantonLedger.contractEvents.show', contractId));
      const status = async () => {
        await loadedChildren(await contractNode(contractId));
        return String(api.views.contractEvents.getTreeItem(await contractNode(contractId)).description);
      };
      assert.match(await status(), /^active/);
      await setFilter(api, { parties: [p.parties.charlie], verbose: true });
      assert.match(await status(), /^not found/, 'Charlie cannot see it');
      await setFilter(api, { anyParty: true, verbose: true });
      assert.match(await status(), /^active/);
    });

    it('asks only a connected connection: "Connect to …" until connected, then the events', async () => {
      const profile = api.connections.profiles.active()!;
      const contractId = await newIouContract();
      api.connections.disconnect(api.connections.connection(profile.id)!);
      try {
        assert.equal(await vscode.commands.executeCommand('cantonLedger.contractEvents.show', contractId), undefined);
        const node = await contractNode(contractId);
        assert.match(String(api.views.contractEvents.getTreeItem(node).description), /^not connected/);
        const children = await api.views.contractEvents.getChildren(node);
        assert.equal(String(api.views.contractEvents.getTreeItem(children[0]).label), `Connect to ${profile.name}`);
      } finally {
        await api.connections.connectionFor(profile).connect();
      }
      const children = (await loadedChildren(await contractNode(contractId))) as RowNode[];
      assert.deepEqual(children.map((c) => c.row.label), ['Created Iou:Iou']);
    });

    it('keeps a short history, newest first, without repeats', async () => {
      const history = api.views.contractEvents.history;
      assert.ok(history.length >= 3);
      assert.equal(new Set(history.map((h) => h.contractId)).size, history.length);
    });
  });

  describe('Vetted Packages view', () => {
    it('shows the vetted packages and topology serial per synchronizer, and copies a package id', async () => {
      const p = api.demo.participant!;
      await vscode.commands.executeCommand('cantonLedger.vettedPackages.refresh');
      const roots = (await api.views.vettedPackages.getChildren()) as RowNode[];
      assert.equal(roots.length, 1);
      const expected = (await api.connections.connectionFor(api.connections.profiles.active()!).client.listVettedPackages())[0];
      assert.match(roots[0].row.description ?? '', new RegExp(`^serial ${expected.topologySerial} · ${expected.packages.length} packages?$`));
      const packages = roots[0].children();
      assert.equal(packages.length, expected.packages.length);
      const iou = packages.find((n) => n.row.label === 'demo-iou 1.0.0');
      assert.ok(iou, packages.map((n) => n.row.label).join());
      assert.match(iou.row.description ?? '', /valid/);
      await vscode.commands.executeCommand('cantonLedger.item.copyPackageId', iou);
      assert.equal(await vscode.env.clipboard.readText(), iou.row.packageId);
      assert.ok(p.state.vetting(roots[0].row.synchronizerId!));
    });
  });

  describe('Vetted Packages: New Vetting File from the current state', () => {
    it('starts a vetting file with the synchronizer and its current topology serial', async () => {
      const roots = (await api.views.vettedPackages.getChildren()) as RowNode[];
      const sync = roots[0];
      const expected = (await api.connections.connectionFor(api.connections.profiles.active()!).client.listVettedPackages())[0];
      const uri = await vscode.commands.executeCommand<vscode.Uri>('cantonLedger.vettedPackages.newVettingFile', sync, { untitled: true });
      assert.ok(uri, 'a file was created');
      const doc = await vscode.workspace.openTextDocument(uri);
      const file = JSON.parse(doc.getText());
      assert.equal(file.synchronizerId, sync.row.synchronizerId);
      assert.deepEqual(file.expectedTopologySerial, { serial: { Prior: { value: expected.topologySerial } } });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });
  });

  describe('version fallback', () => {
    it('reads updates from a 3.6-style participant (no /v2/updates/flats)', async () => {
      const p = await startParticipant({ seed: 12, apiVersion: '3.6' });
      extra.push(p);
      p.state.appendSynthetic(30);
      await addActive('E2E 3.6', p.url);
      await setFilter(api, { anyParty: true, verbose: true, pageSize: 100 });
      const nodes = rows(await loadAll(api));
      const expected = p.state.entries.filter((e) => e.kind === 'transaction').map((e) => e.offset);
      assert.deepEqual(nodes.filter((n) => n.row.kind !== 'update.checkpoint').map((n) => n.row.offset), expected);
      assert.ok(nodes.length > 30);
    });

    it('follows a 3.6-style participant live (no /v2/updates/flats)', async () => {
      const p = extra[extra.length - 1];
      await vscode.commands.executeCommand('cantonLedger.updates.startLiveTail');
      try {
        await waitFor(() => api.views.updates.liveTail.status === 'following', { what: 'live tail following' });
        p.state.appendSynthetic(3, { seed: 31 });
        await waitFor(() => api.views.updates.liveTail.received >= 3, { what: 'three new updates' });
      } finally {
        await vscode.commands.executeCommand('cantonLedger.updates.stopLiveTail');
      }
    });
  });
});
