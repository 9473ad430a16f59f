// Runs inside the VS Code extension host (code-server here, desktop VS Code with test-electron elsewhere).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import { registerSecret } from './helpers';

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

describe('connections and tokens', function () {
  this.timeout(30_000);

  it('adds a connection, persisted without secrets, and makes it active', async () => {
    const a = await api();
    const profile = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', { name: 'E2E Local', url: 'http://127.0.0.1:9/', auth: 'jwt', userId: 'alice' });
    assert.ok(profile?.id);
    const stored = a.connections.profiles.get(profile.id);
    assert.equal(stored?.url, 'http://127.0.0.1:9');
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
    await assert.rejects(a.connections.connect(p));
    assert.equal(a.connections.state(p.id).state, 'error');
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
    const s = a.connections.state(demo!.id);
    assert.equal(s.state, 'connected', JSON.stringify(s));
    if (s.state === 'connected') {
      assert.ok((a.connections.ledger(demo!.id)?.ledgerEnd ?? 0) > 0, 'seeded ledger');
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
