// Where a token may go: a connection from WORKSPACE settings gets the token only after the user
// confirmed its URL in a modal ("Send Token"), and plain http to another machine only
// after "Send Unencrypted". Modals are answered with real clicks.
//
// The participant of the first check is a small JSON Ledger API stand-in started here (the runner's
// Node process, on a loopback port the extension host reaches): it records every request and whether
// it carried the token. The second check never sends anything to its non-loopback address: the
// modal is cancelled (only ever "Cancel" is clicked there), and the token provider runs before any
// request is made.
import http from 'node:http';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  addConnection, answerDialogs, childLabels, connectionRow, dialog, expand, hoverText, jwtToken, menu, rand,
  shot, showConnections, waitForChild, waitLabel, withCleanup,
} from './20-connections.ui.mjs';
import { scaled } from './lib.mjs';

/** A stand-in participant: answers the status calls of a connect when the expected token comes with them. */
async function startParticipant(expectedToken) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const auth = req.headers.authorization;
    requests.push({ method: req.method, url: req.url, auth: auth === undefined ? 'none' : auth === `Bearer ${expectedToken}` ? 'token' : 'other' });
    req.resume();
    const json = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (auth !== `Bearer ${expectedToken}`) return json(401, { code: 'UNAUTHENTICATED', cause: 'no or wrong token', grpcCodeValue: 16, errorCategory: 6, context: {}, resources: [] });
    const p = new URL(req.url, 'http://x').pathname;
    const answers = {
      '/v2/version': { version: '3.5.0-ui-stand-in' },
      '/v2/state/ledger-end': { offset: 4242 },
      '/v2/state/connected-synchronizers': { connectedSynchronizers: [] },
      '/v2/parties': { partyDetails: [], nextPageToken: '' },
      '/v2/parties/participant-id': { participantId: 'ui-stand-in::1220aa' },
      '/v2/authenticated-user': { user: { id: 'alice' } },
      '/v2/users/alice/rights': { rights: [] },
    };
    if (answers[p]) return json(200, answers[p]);
    return json(404, { code: 'NOT_FOUND', cause: p });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, requests, close: () => new Promise((r) => {
    server.close(r);
    server.closeAllConnections(); // the extension keeps connections alive
  }) };
}

/** Writes `cantonLedger.connections` into the workspace's .vscode/settings.json; returns the undo. */
function writeWorkspaceConnections(workspace, connections) {
  const dir = path.join(workspace, '.vscode');
  const file = path.join(dir, 'settings.json');
  const hadDir = existsSync(dir);
  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const settings = before ? JSON.parse(before) : {};
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify({ ...settings, 'cantonLedger.connections': connections }, null, 2) + '\n');
  return () => {
    if (before !== undefined) writeFileSync(file, before);
    else if (hadDir) rmSync(file, { force: true });
    else rmSync(dir, { recursive: true, force: true });
  };
}

export default async function (t) {
  const { page } = t;

  await t.check('a WORKSPACE-settings connection asks "Send Token": Cancel sends nothing, confirming sends the token (once asked)', async () => {
    const name = `UI Team ${rand()}`;
    const token = jwtToken(t, { sub: 'alice', exp: 4102444800 });
    const participant = await startParticipant(token);
    let undo;
    const origin = participant.url;
    await withCleanup(t, {}, async () => {
      let passed = false;
      try {
        await showConnections(t);
        undo = writeWorkspaceConnections(t.workspace, [{ name, url: origin, auth: 'jwt', userId: 'alice' }]);
        const row = connectionRow(t, name);
        await row.waitFor({ timeout: scaled(20000) });
        let tip = '';
        await t.waitUntil(async () => (tip = await hoverText(t, row).catch((e) => `(${e.message})`)).includes('from workspace settings'), {
          timeout: scaled(25000),
          what: () => `the tooltip to say "from workspace settings" (it reads ${JSON.stringify(tip)})`,
        });
        const items = await t.contextMenuItems(row);
        for (const i of ['Connect', 'Set Token', 'Clear Token', 'Copy URL']) if (!items.includes(i)) throw new Error(`menu ${JSON.stringify(items)} lacks ${i}`);
        for (const i of ['Edit Connection', 'Remove Connection']) if (items.includes(i)) throw new Error(`a workspace connection offers "${i}"`);

        // Set Token (masked), which connects at once: the URL must be confirmed first.
        await menu(row, 'Set Token');
        await t.waitForInput({ prompt: `Set Token: ${name}` });
        const box = page.locator('.quick-input-widget input').first();
        if ((await box.getAttribute('type')) !== 'password') throw new Error('the token input is not a password input');
        await box.pressSequentially(token);
        await box.press('Enter');
        const ask = `The workspace settings point the connection "${name}" at ${origin}. Send your token for it there?`;
        await dialog(t, ask).waitFor({ timeout: scaled(15000) });
        if (!(await dialog(t, ask).innerText()).includes('Only confirm if you know and trust this participant URL')) throw new Error('the dialog lacks its detail');
        await shot(t, '25-send-token-dialog');
        const cancelled = await answerDialogs(t, { text: ask, button: 'Cancel' });
        if (cancelled !== 1) throw new Error(`one connect asked "Send Token" ${cancelled} times`);
        await waitLabel(t, row, new RegExp(` error · ${origin.replace(/[.]/g, '\\.')}$`));
        await expand(row);
        await waitForChild(t, name, new RegExp(`^Could not connect The token was not sent to ${origin.replace(/[.]/g, '\\.')}: its URL comes from workspace settings and was not confirmed$`));
        await t.toast(`Connecting to ${name}: The token was not sent`).waitFor({ timeout: scaled(10000) });
        if (participant.requests.length) throw new Error(`the participant got ${participant.requests.length} request(s) though the URL was not confirmed: ${JSON.stringify(participant.requests)}`);

        // Retry, and confirm this time: the token goes there and the connection connects.
        await page.locator('.part.sidebar [role="treeitem"][aria-level="2"][aria-label="Retry"]').click();
        const confirmed = await answerDialogs(t, { text: ask, button: 'Send Token' });
        if (confirmed !== 1) throw new Error(`after "Send Token" was clicked, the same connect asked ${confirmed - 1} more time(s)`);
        await waitLabel(t, row, new RegExp(`^${name} (active · )?offset 4242 · `));
        await waitForChild(t, name, /^Version 3\.5\.0-ui-stand-in$/);
        await waitForChild(t, name, /^User alice$/);
        const sent = participant.requests;
        if (!sent.length || sent.some((r) => r.auth !== 'token')) throw new Error(`every request should carry the token: ${JSON.stringify(sent)}`);

        // Remembered: disconnect and connect again without a question.
        const count = sent.length;
        await menu(row, 'Disconnect');
        await waitLabel(t, row, new RegExp(`^${name} (active · )?http`));
        await menu(row, 'Connect');
        await waitLabel(t, row, / offset 4242 · /);
        if (await page.locator('.monaco-dialog-box').count()) throw new Error('asked again for a confirmed URL');
        if (participant.requests.length <= count) throw new Error('the second connect sent nothing');

        await menu(row, 'Clear Token');
        await t.toast(`Cleared the stored secrets of "${name}"`).waitFor({ timeout: scaled(10000) });
        if (JSON.stringify(await childLabels(t, name)).includes('offset')) throw new Error('still connected');
        passed = true;
      } finally {
        // Clear Token (again, in case the check failed before it), then drop the setting: the connection goes.
        const row = connectionRow(t, name);
        if (!passed && (await row.count())) await menu(row, 'Clear Token').catch(() => {});
        undo?.();
        await participant.close();
        const gone = await row.waitFor({ state: 'detached', timeout: scaled(15000) }).then(() => true, () => false);
        // Do not hide the first failure behind this one.
        if (passed && !gone) throw new Error(`"${name}" is still listed after its setting was removed`);
      }
    });
  });

  await t.check('plain http to another machine asks "Send Unencrypted" before any request; Cancel leaves "token was not sent"', async () => {
    const name = `UI Remote ${rand()}`;
    const url = 'http://10.255.255.1:1';
    const token = jwtToken(t, { sub: 'bob', exp: 4102444800 });
    await withCleanup(t, { connections: [name] }, async () => {
      await showConnections(t);
      await addConnection(t, { name, url, auth: 'Paste a JWT', userId: 'bob', token });
      const ask = `${url} uses plain http on another machine: the token would cross the network unencrypted.`;
      // Only ever Cancel here: confirming would send the token to that address.
      await dialog(t, ask).waitFor({ timeout: scaled(15000) });
      await shot(t, '25-send-unencrypted-dialog');
      const asked = await answerDialogs(t, { text: ask, button: 'Cancel' });
      if (asked !== 1) throw new Error(`one connect asked "Send Unencrypted" ${asked} times`);
      const row = connectionRow(t, name);
      // Not active (it did not connect), unless it is the only connection there is.
      await waitLabel(t, row, new RegExp(`^${name} (active · )?error · http://10\\.255\\.255\\.1:1$`));
      await t.toast(`Connecting to ${name}: The token was not sent over unencrypted http`).waitFor({ timeout: scaled(10000) });
      // Closing the error does not start another connect (nor another question).
      await t.palette('Notifications: Clear All Notifications');
      const again = await answerDialogs(t, { text: ask, button: 'Cancel', timeout: 3000, optional: true });
      if (again !== 0) throw new Error(`after Cancel, Add Connection connected again and asked "Send Unencrypted" ${again} more time(s)`);
      await expand(row);
      // Withheld before any request: the error is not a network error (nothing could answer there).
      await waitForChild(t, name, /^Could not connect The token was not sent over unencrypted http to http:\/\/10\.255\.255\.1:1$/);
      const labels = await childLabels(t, name);
      if (labels.some((l) => /ECONN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|timed out/i.test(l))) throw new Error(`a request went out: ${JSON.stringify(labels)}`);
    });
  });
}
