// Connections from WORKSPACE settings (a folder's .vscode/settings.json): listed as such, not editable
// here, and given a token only for a URL the user confirmed. The confirmation itself is a modal, which
// an in-host test cannot click: test/e2e/ui/25-trust.ui.mjs clicks it (Cancel and confirm) in the real
// workbench. Here, what the API shows: the trust is per URL, and once given, every request carries the
// token; a connection without auth never asks and never sends one.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import { activate, newSecret, waitFor, workspaceDir } from './helpers';

interface Seen {
  path: string;
  auth: 'none' | 'token' | 'other';
}

/** A stand-in participant on a loopback port: answers the status calls of a connect, records each request. */
function standIn(token: string): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const answers: Record<string, unknown> = {
    '/v2/version': { version: '3.5.0-e2e-stand-in' },
    '/v2/state/ledger-end': { offset: 777 },
    '/v2/state/connected-synchronizers': { connectedSynchronizers: [] },
    '/v2/parties': { partyDetails: [], nextPageToken: '' },
    '/v2/parties/participant-id': { participantId: 'e2e-stand-in::1220bb' },
    '/v2/authenticated-user': { user: { id: 'alice' } },
    '/v2/users/alice/rights': { rights: [] },
  };
  const server = http.createServer((req, res) => {
    const header = req.headers.authorization;
    const auth = header === undefined ? 'none' : header === `Bearer ${token}` ? 'token' : 'other';
    const full = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push({ path: full, auth });
    const p = full.replace(/^\/open(?=\/)/, ''); // the same participant under the path prefix /open
    req.resume();
    // Open to requests without a token (a sandbox without auth); a wrong token is refused.
    const [status, body] = auth === 'other' ? [401, { code: 'UNAUTHENTICATED', cause: 'wrong token' }] : answers[p] ? [200, answers[p]] : [404, { code: 'NOT_FOUND', cause: p }];
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

describe('workspace-settings connections (trust)', function () {
  this.timeout(30_000);
  const token = newSecret('e2e-workspace-jwt');
  let a: CantonLedgerApi;
  let participant: Awaited<ReturnType<typeof standIn>>;
  const vscodeDir = () => path.join(workspaceDir(), '.vscode');
  let hadVscodeDir = false;
  const config = () => vscode.workspace.getConfiguration('cantonLedger');
  const setWorkspaceConnections = (value: unknown[] | undefined) => config().update('connections', value, vscode.ConfigurationTarget.Workspace);
  const profileNamed = async (name: string) => (await waitFor(() => a.connections.profiles.all().find((p) => p.name === name), { what: `the connection "${name}" from workspace settings` }))!;

  before(async () => {
    a = await activate<CantonLedgerApi>();
    participant = await standIn(token);
    hadVscodeDir = fs.existsSync(vscodeDir());
  });

  after(async () => {
    for (const p of a.connections.profiles.all().filter((x) => x.source === 'workspace')) {
      a.connections.disconnect(a.connections.connection(p.id)!);
      await vscode.commands.executeCommand('cantonLedger.token.clear', p.id, { silent: true });
    }
    await setWorkspaceConnections(undefined);
    await participant?.close();
    // The workspace is shared with the UI phase: leave no .vscode/ behind that we created.
    if (!hadVscodeDir) {
      const file = path.join(vscodeDir(), 'settings.json');
      const left = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '').replace(/\s+/g, '') : '';
      if (!left || left === '{}') fs.rmSync(vscodeDir(), { recursive: true, force: true });
    }
  });

  it('lists a connection from workspace settings as such: not editable, its token in secret storage only', async () => {
    await setWorkspaceConnections([{ name: 'E2E Team', url: participant.url, auth: 'jwt', userId: 'alice' }]);
    const p = await profileNamed('E2E Team');
    assert.equal(p.source, 'workspace');
    assert.equal(p.id, 'settings-workspace:E2E Team');
    assert.equal(a.connections.profiles.isEditable(p), false);
    await vscode.commands.executeCommand('cantonLedger.token.set', p.id, token);
    assert.equal(await a.secrets.get(p.id, 'token'), token);
    const settingsText = fs.readFileSync(path.join(vscodeDir(), 'settings.json'), 'utf8');
    assert.ok(settingsText.includes(participant.url), 'the connection is in .vscode/settings.json');
    assert.ok(!settingsText.includes(token), 'the token is in .vscode/settings.json');
    assert.equal(participant.seen.length, 0, 'setting the token sent something');
  });

  it('trusts exactly the confirmed URL (scheme, host, port, path prefix), remembered outside settings', async () => {
    const p = await profileNamed('E2E Team');
    const profiles = a.connections.profiles;
    assert.equal(profiles.isTrustedUrl(p.url), false, 'trusted before anyone confirmed it');
    // What "Send Token" does when clicked (25-trust.ui.mjs clicks the real modal).
    await profiles.trustUrl(p.url);
    assert.equal(profiles.isTrustedUrl(p.url), true);
    assert.equal(profiles.isTrustedUrl(`${p.url}/`), true, 'a trailing slash is the same URL');
    const port = Number(new URL(p.url).port);
    for (const other of [`http://127.0.0.1:${port + 1}`, `${p.url}/other-prefix`, p.url.replace('http:', 'https:'), `http://localhost:${port}`]) {
      assert.equal(profiles.isTrustedUrl(other), false, `${other} trusted along with ${p.url}`);
    }
    assert.ok(!fs.readFileSync(path.join(vscodeDir(), 'settings.json'), 'utf8').includes('trust'), 'trust is kept in the workspace settings');
  });

  it('once the URL is trusted, connects and sends the token with every request', async () => {
    const p = await profileNamed('E2E Team');
    participant.seen.length = 0;
    const info = await a.connections.connectionFor(p).connect();
    assert.equal(info.version, '3.5.0-e2e-stand-in');
    assert.equal(a.connections.connection(p.id)?.ledger?.ledgerEnd, 777);
    assert.equal(info.user?.id, 'alice');
    assert.equal(a.connections.connection(p.id)!.state.state, 'connected');
    assert.ok(participant.seen.length >= 5, `only ${participant.seen.length} request(s)`);
    assert.deepEqual(participant.seen.filter((s) => s.auth !== 'token'), [], 'a request without the token');
    a.connections.disconnect(a.connections.connection(p.id)!);
  });

  it('a workspace connection without auth never asks and never sends a token', async () => {
    await setWorkspaceConnections([
      { name: 'E2E Team', url: participant.url, auth: 'jwt', userId: 'alice' },
      // Another path prefix on the same server: not trusted, but there is no token to withhold.
      { name: 'E2E Open', url: `${participant.url}/open`, auth: 'none', userId: 'alice' },
    ]);
    const p = await profileNamed('E2E Open');
    assert.equal(a.connections.profiles.isTrustedUrl(p.url), false);
    participant.seen.length = 0;
    // A modal here would never be answered: the connect would time out instead of resolving.
    await a.connections.connectionFor(p).connect();
    assert.equal(a.connections.connection(p.id)?.ledger?.ledgerEnd, 777);
    assert.equal(a.connections.connection(p.id)!.state.state, 'connected');
    assert.deepEqual(participant.seen.filter((s) => s.auth !== 'none'), [], 'a token was sent for a connection without auth');
    assert.ok(participant.seen.every((s) => s.path.startsWith('/open/')), `the path prefix was not kept: ${JSON.stringify(participant.seen)}`);
    a.connections.disconnect(a.connections.connection(p.id)!);
  });
});
