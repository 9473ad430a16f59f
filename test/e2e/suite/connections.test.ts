// Runs inside the VS Code extension host (code-server here, desktop VS Code with test-electron elsewhere).
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import { ConnectionNode, type ConnectionsNode } from '../../../src/vscode/connections/connectionsTree';
import { deadUrl } from '../../support/deadPort';
import { registerSecret } from './helpers';
import { scripted } from './sendHelpers';

const EXTENSION_ID = 'canton-ledger-explorer.canton-ledger-explorer';

async function api(): Promise<CantonLedgerApi> {
  const ext = vscode.extensions.getExtension<CantonLedgerApi>(EXTENSION_ID);
  assert.ok(ext, 'extension installed');
  return ext.activate();
}

/** Everything VS Code persisted for the extension that is not secret storage: global state and settings. */
function persistedText(a: CantonLedgerApi): string {
  const state = a.connections.profiles as unknown as { state: vscode.Memento };
  const keys = state.state.keys();
  return JSON.stringify({ state: keys.map((k) => [k, state.state.get(k)]), settings: vscode.workspace.getConfiguration('cantonLedger') });
}

/** A participant URL nothing listens at (a fixed port such as 9 may be taken on a shared machine), reserved once for this file. */
let dead: string;

describe('connections and tokens', function () {
  this.timeout(30_000);
  before(async () => {
    dead ??= await deadUrl();
  });

  it('adds a connection, persisted without secrets, and makes it active', async () => {
    const a = await api();
    const profile = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', { name: 'E2E Local', url: `${dead}/`, auth: 'jwt', userId: 'alice' });
    assert.ok(profile?.id);
    const stored = a.connections.profiles.get(profile.id);
    assert.equal(stored?.url, dead);
    assert.equal(stored?.auth, 'jwt');
    assert.equal(a.connections.profiles.active()?.id, profile.id);
  });

  it('stores a token in SecretStorage only, reads it back, and clears it', async () => {
    const a = await api();
    const p = a.connections.profiles.all().find((x) => x.name === 'E2E Local');
    assert.ok(p);
    const token = registerSecret('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJlMmUtc2VjcmV0LXVzZXIiLCJleHAiOjQxMDI0NDQ4MDB9.e2e-token-signature-1');
    await vscode.commands.executeCommand('cantonLedger.token.set', p.id, token);
    assert.equal(await a.secrets.get(p.id, 'token'), token);
    assert.ok(!persistedText(a).includes(token), 'token persisted outside SecretStorage');
    await vscode.commands.executeCommand('cantonLedger.token.clear', p.id, { silent: true });
    assert.equal(await a.secrets.get(p.id, 'token'), undefined);
  });

  it('records a failed connection as the connection\'s error state', async () => {
    const a = await api();
    const p = a.connections.profiles.all().find((x) => x.name === 'E2E Local')!;
    // Nothing listens on port 9: connecting fails as a network error, shown as the connection's state.
    await assert.rejects(a.connections.connectionFor(p).connect());
    assert.equal(a.connections.connection(p.id)!.state.state, 'error');
  });
});

describe('a participant that accepts and never answers', function () {
  this.timeout(60_000);

  it('a connect gives up at cantonLedger.connectTimeoutSeconds (10 s by default), not at the 30 s request timeout', async () => {
    const a = await api();
    const settings = () => vscode.workspace.getConfiguration('cantonLedger');
    assert.equal(settings().inspect<number>('connectTimeoutSeconds')?.defaultValue, 10);
    assert.equal(settings().inspect<number>('requestTimeoutSeconds')?.defaultValue, 30);
    // Our own port, bound for the test: it accepts and reads, and never answers.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => void sockets.add(socket.resume()));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const id = `hung-${Date.now()}`;
    await settings().update('connectTimeoutSeconds', 2, vscode.ConfigurationTarget.Global);
    try {
      await a.connections.profiles.save({ id, name: 'E2E Hung', url: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, auth: 'none', userId: 'alice', source: 'user' });
      const started = Date.now();
      const error = await a.connections.connectionFor(a.connections.profiles.get(id)!).connect().then(() => assert.fail('connected to a participant that never answers'), (e: unknown) => e as Error & { kind?: string; timeoutMs?: number });
      const took = Date.now() - started;
      // The extension's own TimeoutError (a class of another bundle: told by its data).
      assert.equal(error.kind, 'timeout', String(error));
      assert.equal(error.timeoutMs, 2000);
      // At the setting's 2 s, with room for a busy machine; far from the 10 s default and the 30 s request timeout.
      assert.ok(took >= 1900 && took < 6000, `gave up after ${took} ms`);
      assert.equal(a.connections.connection(id)!.state.state, 'error');
      assert.ok(sockets.size > 0, 'the connect reached the participant');
    } finally {
      await settings().update('connectTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
      await a.connections.profiles.remove(id);
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => silent.close(r));
    }
  });
});

describe('demo participant', function () {
  this.timeout(60_000);

  it('starts on a loopback port, becomes the active "Demo" connection and connects', async () => {
    const a = await api();
    await vscode.commands.executeCommand('cantonLedger.demo.start');
    const participant = a.demo.participant;
    assert.ok(participant, 'running');
    assert.match(participant.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const demo = a.connections.profiles.active();
    assert.equal(demo?.name, 'Demo');
    const s = a.connections.connection(demo!.id)!.state;
    assert.equal(s.state, 'connected', JSON.stringify(s));
    if (s.state === 'connected') {
      assert.ok((a.connections.connection(demo!.id)?.ledger?.ledgerEnd ?? 0) > 0, 'seeded ledger');
      assert.ok(s.info.parties.length >= 2, 'seeded parties');
      assert.match(s.info.version, /^3\./);
    }
  });

  it('stops, closing the port and removing the connection', async () => {
    const a = await api();
    const url = a.demo.participant!.url;
    await vscode.commands.executeCommand('cantonLedger.demo.stop');
    assert.equal(a.demo.participant, undefined);
    assert.equal(a.connections.profiles.get('demo'), undefined);
    await assert.rejects(fetch(`${url}/livez`));
  });

  it('a start right after a stop (not awaited) keeps what the stopped participant wrote last', async () => {
    const a = await api();
    await vscode.commands.executeCommand('cantonLedger.demo.start');
    const before = a.demo.participant!;
    before.state.allocateParty(`Restart${Date.now()}`);
    const end = before.state.ledgerEnd;
    // The stopping participant saves its ledger while the new one starts: the new one must load that save.
    const stopping = vscode.commands.executeCommand('cantonLedger.demo.stop');
    await vscode.commands.executeCommand('cantonLedger.demo.start');
    await stopping;
    const after = a.demo.participant;
    assert.ok(after && after !== before, 'a new participant runs');
    assert.equal(after.state.ledgerEnd, end, 'the restarted demo continues at the ledger end it had');
    await vscode.commands.executeCommand('cantonLedger.demo.stop');
    assert.equal(a.demo.participant, undefined);
  });
});

describe('the Connections tree', function () {
  before(async () => {
    dead ??= await deadUrl();
  });
  this.timeout(60_000);
  const ids: string[] = [];
  after(async () => {
    const a = await api();
    for (const id of ids) await a.connections.profiles.remove(id);
    await vscode.commands.executeCommand('cantonLedger.demo.stop');
  });

  type TreeEvent = ConnectionsNode | ConnectionsNode[] | undefined | void;
  const rowsOf = (e: TreeEvent) => (e === undefined ? 'root' : (Array.isArray(e) ? e : [e]).map((n) => (n as ConnectionNode).profile.id).join(','));

  it('refreshes only the rows whose connection changed, keeping their nodes; the whole tree only when the list of connections changes', async () => {
    const a = await api();
    await vscode.commands.executeCommand('cantonLedger.demo.start');
    const events: TreeEvent[] = [];
    const listening = a.connectionsTree.onDidChangeTreeData((e) => events.push(e));
    try {
      a.connectionsTree.getChildren();
      const added = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', { name: `Tree ${Date.now()}`, url: dead });
      ids.push(added.id);
      assert.ok(events.includes(undefined), `a new connection lists the rows again: ${events.map(rowsOf)}`);
      const rows = a.connectionsTree.getChildren() as ConnectionNode[];
      const row = rows.find((n) => n.profile.id === added.id)!;

      // Its failed connect, the demo's reconnect and a change of the active connection: rows only,
      // and each the node listed before (VS Code finds a row's menu target by it).
      events.length = 0;
      await assert.rejects(a.connections.connectionFor(a.connections.profiles.get(added.id)!).connect());
      await a.connections.connectionFor(a.connections.profiles.get('demo')!).connect();
      await a.connections.profiles.setActive('demo');
      assert.ok(events.length > 0, 'the rows were refreshed');
      assert.ok(!events.includes(undefined), `no refresh of the whole tree: ${events.map(rowsOf)}`);
      const refreshed = events.flatMap((e) => (Array.isArray(e) ? e : [e])) as ConnectionNode[];
      assert.ok(refreshed.some((n) => n === row), 'the failed connection\'s own row node was refreshed');
      assert.ok(refreshed.every((n) => rows.includes(n)), 'every refreshed node is one of the listed rows');
      assert.match(String(a.connectionsTree.getTreeItem(row).description), /^error · /);
    } finally {
      listening.dispose();
    }
  });

  it('a row command that VS Code gives no row asks which connection was meant, among those it fits', async () => {
    const a = await api();
    const { prompts } = await scripted();
    const demoUrl = a.connections.profiles.get('demo')!.url;
    // Copy URL: every connection fits; the answer is the demo.
    prompts.answerPick((items) => items.find((i) => i.label === 'Demo'));
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('cantonLedger.connections.copyUrl');
    assert.equal(prompts.picks.at(-1)?.title, 'Copy the URL of which connection?');
    assert.equal(await vscode.env.clipboard.readText(), demoUrl);
    // Disconnect: only connected connections are offered (the dead one is not); dismissed, nothing happens.
    await vscode.commands.executeCommand('cantonLedger.connections.disconnect');
    const asked = prompts.picks.at(-1)!;
    assert.equal(asked.title, 'Disconnect which connection?');
    assert.deepEqual(asked.items.map((i) => i.label), a.connections.profiles.all().filter((p) => a.connections.connection(p.id)!.state.state === 'connected').map((p) => p.name));
    assert.ok(!asked.items.some((i) => i.description === dead), 'a connection in error is not offered');
    assert.equal(a.connections.connection('demo')!.state.state, 'connected', 'dismissing the question disconnects nothing');
    // Answered: the chosen one is disconnected.
    prompts.answerPick((items) => items.find((i) => i.label === 'Demo'));
    await vscode.commands.executeCommand('cantonLedger.connections.disconnect');
    assert.equal(a.connections.connection('demo')!.state.state, 'disconnected');
  });

  it('a connection made active that fails to connect does not become active on a later plain Connect', async () => {
    const a = await api();
    const { prompts } = await scripted();
    await a.connections.connectionFor(a.connections.profiles.get('demo')!).connect();
    await a.connections.profiles.setActive('demo');
    const deadId = ids[0];
    prompts.answerPick((items) => items.find((i) => i.description === dead));
    // Make Active (no row given: the question) → it is asked to connect, fails, the demo stays active.
    await vscode.commands.executeCommand('cantonLedger.connections.setActive');
    assert.equal(a.connections.connection(deadId)!.state.state, 'error');
    assert.equal(a.connections.profiles.active()?.id, 'demo');
    // Its URL now answers (the demo's): a plain Connect connects it but does not make it active.
    const p = a.connections.profiles.get(deadId)!;
    await a.connections.profiles.save({ ...p, url: a.connections.profiles.get('demo')!.url });
    await vscode.commands.executeCommand('cantonLedger.connections.connect', deadId);
    assert.equal(a.connections.connection(deadId)!.state.state, 'connected');
    assert.equal(a.connections.profiles.active()?.id, 'demo', 'the failed Make Active was not remembered');
  });
});
