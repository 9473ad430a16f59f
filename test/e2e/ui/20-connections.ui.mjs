// The Connections view, driven like a user would: the demo participant, the Add Connection prompts,
// the masked Set Token input and the token's claims in the tooltip, the context menus and Remove.
//
// Every check cleans up what it adds (connections, tokens, the demo participant, toasts), also when it
// fails. The helpers below are exported for 25-trust.ui.mjs (named exports; the runner only calls
// the default export).

import net from 'node:net';
import path from 'node:path';
import { deadUrl, runMenuItem, scaled } from './lib.mjs';

const STATUS_ITEM = '[id="canton-ledger-explorer.canton-ledger-explorer.cantonLedger.status"]';
const SIDEBAR = '.part.sidebar';
const DIALOG = '.monaco-dialog-box';

function attr(s) {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** One more screenshot, of a moment in the middle of a check: `<run dir>/<name>.png`. */
export async function shot(t, name) {
  await t.page.screenshot({ path: path.join(t.runDir, `${name}.png`), animations: 'disabled' }).catch(() => {});
}

/** A JWT-shaped token (HS256 header, the given claims, a random signature), registered as a secret. */
export function jwtToken(t, claims) {
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const sig = Buffer.from(`ui-e2e-signature-${Math.random()}-${Date.now()}`).toString('base64url');
  return t.secret(`${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}.${sig}`);
}

/** 6 random characters [a-z0-9], to tell this run's connections apart. */
export function rand() {
  return Math.random().toString(36).slice(2, 8).padEnd(6, '0');
}

/**
 * Shows the Canton Ledger side bar without ever toggling it off (clicking the active activity-bar
 * entry hides the side bar; the view's own "Focus on" command only ever shows it).
 */
export async function showConnections(t) {
  const title = t.page.locator(`${SIDEBAR} .composite.title h2`, { hasText: 'Canton Ledger' }).first();
  if (await title.isVisible().catch(() => false)) return;
  await t.palette('Canton Ledger: Focus on Connections View');
  await title.waitFor({ timeout: scaled(10000) });
}

/** The top-level row of a connection (its accessible name is "<name> <description>"). */
export function connectionRow(t, name) {
  return t.page.locator(`${SIDEBAR} [role="treeitem"][aria-level="1"][aria-label^="${attr(name)} "]`).first();
}

/** The accessible names of the rows under the connection `name` (up to the next connection). */
export async function childLabels(t, name) {
  return t.page.locator(`${SIDEBAR} [role="treeitem"]`).evaluateAll((rows, name) => {
    const out = [];
    let inside = false;
    for (const r of rows) {
      const level = r.getAttribute('aria-level');
      const label = r.getAttribute('aria-label') ?? '';
      if (level === '1') {
        if (inside) break;
        inside = label.startsWith(name + ' ');
      } else if (inside && level === '2') {
        out.push(label);
      }
    }
    return out;
  }, name);
}

/** Waits until a child row of connection `name` matches `re`; returns its label. */
export async function waitForChild(t, name, re, timeout = scaled(15000)) {
  return t.waitUntil(async () => (await childLabels(t, name)).find((l) => re.test(l)), {
    timeout,
    what: async () => `a child ${re} under "${name}" (children: ${JSON.stringify(await childLabels(t, name))})`,
  });
}

/** Expands a collapsed tree row with its twistie, like a user; returns whether it was collapsed. */
export async function expand(row) {
  if ((await row.getAttribute('aria-expanded')) !== 'false') return false;
  await row.locator('.monaco-tl-twistie').click();
  await waitAttr(row, 'aria-expanded', 'true');
  return true;
}

async function waitAttr(loc, name, value, timeout = scaled(10000)) {
  const until = Date.now() + timeout;
  while ((await loc.getAttribute(name).catch(() => null)) !== value) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${name}="${value}"`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the accessible name of `row` matches `re`; returns it. */
export async function waitLabel(t, row, re, timeout = scaled(15000)) {
  return t.waitUntil(async () => {
    const l = await row.getAttribute('aria-label', { timeout: 1000 });
    return l && re.test(l) ? l : undefined;
  }, { timeout, what: async () => `a row labelled ${re} (it reads "${await row.getAttribute('aria-label', { timeout: 500 }).catch(() => 'no row')}")` });
}

/** The extension's status bar entry. */
export function statusItem(t) {
  return t.page.locator(STATUS_ITEM);
}

/**
 * Right-clicks `row` and runs the context-menu entry titled exactly `title` ("Connect" ≠ "Disconnect").
 * Right-clicks again (up to 3 times) when the menu does not show the entry: a row re-rendered just
 * then may take the click without opening its menu, or open the menu of its old state.
 */
export async function menu(row, title) {
  const page = row.page();
  for (let attempt = 1; ; attempt++) {
    await row.click({ button: 'right' });
    const item = page.getByRole('menuitem', { name: title, exact: true }).first();
    if (await item.waitFor({ timeout: 3000 }).then(() => true, () => false)) {
      await runMenuItem(page, title);
      return;
    }
    const shown = await page.getByRole('menuitem').allInnerTexts().catch(() => []);
    await page.keyboard.press('Escape');
    if (attempt >= 3) {
      const label = await row.getAttribute('aria-label', { timeout: 1000 }).catch(() => '(no row)');
      throw new Error(`the context menu of "${label}" has no "${title}" (it shows ${JSON.stringify(shown.map((s) => s.split('\n')[0]))})`);
    }
  }
}

/**
 * The rendered hover of `row` (its tooltip): moves away first, so the hover is fresh. Its content may
 * lag behind the tree: retry with waitUntil when it is expected to change.
 */
export async function hoverText(t, row, { timeout = scaled(8000) } = {}) {
  const hover = t.page.locator('.monaco-hover.workbench-hover').first();
  const until = Date.now() + timeout;
  for (;;) {
    // Each attempt enters the row afresh (a mouseover): a row re-rendered under a still mouse gets
    // none. Then the hover is given time to appear, however slow the machine: moving within the row
    // meanwhile would start VS Code's hover delay over.
    await t.page.mouse.move(700, 300); // the editor area: no hover there
    await hover.waitFor({ state: 'hidden', timeout: 3000 }).catch(() => {});
    // The hover belongs to the item's label: the twistie and icon beside it have none.
    await row.locator('.monaco-icon-label').first().hover();
    const left = until - Date.now();
    if (await hover.waitFor({ timeout: Math.max(Math.min(left, 4000), 1000) }).then(() => true, () => false)) break;
    if (Date.now() > until) throw new Error(`no hover over the row within ${timeout}ms`);
  }
  const text = await hover.innerText();
  await t.page.mouse.move(700, 300);
  return text;
}

/** The visible modal dialog whose text contains `text`. */
export function dialog(t, text) {
  return t.page.locator(DIALOG, { hasText: text }).first();
}

/**
 * Answers every modal dialog containing `text` with `button`, one after the other, until none comes
 * for `quietMs`: the first must appear within `timeout` (unless `optional`). Returns how many were answered.
 */
export async function answerDialogs(t, { text, button, timeout = scaled(15000), quietMs = 1000, optional = false }) {
  let n = 0;
  for (;;) {
    const box = dialog(t, text);
    try {
      await box.waitFor({ timeout: n === 0 ? timeout : quietMs });
    } catch (e) {
      if (n === 0 && !optional) throw new Error(`no dialog "${text}" within ${timeout}ms`);
      return n;
    }
    const handle = await box.elementHandle();
    await box.getByRole('button', { name: button, exact: true }).click();
    n++;
    await handle.waitForElementState('hidden', { timeout: scaled(5000) }).catch(() => {});
    await handle.dispose();
  }
}

/** Closes what a failed step may have left open: dialogs (always with Cancel), quick inputs. */
export async function dismissAll(t) {
  for (let i = 0; i < 20; i++) {
    const box = t.page.locator(DIALOG).first();
    if (!(await box.isVisible().catch(() => false))) break;
    await box.getByRole('button', { name: 'Cancel', exact: true }).click({ timeout: 2000 }).catch(() => t.page.keyboard.press('Escape'));
    await t.page.waitForTimeout(300);
  }
  if (await t.page.locator('.quick-input-widget').isVisible().catch(() => false)) await t.page.keyboard.press('Escape');
  if (await t.page.locator('.context-view .monaco-menu').isVisible().catch(() => false)) await t.page.keyboard.press('Escape');
}

export async function clearNotifications(t) {
  if (await t.page.locator('.notifications-toasts .notification-toast').first().isVisible().catch(() => false)) {
    await t.palette('Notifications: Clear All Notifications');
  }
}

/** Types `text` into the input box whose prompt contains `prompt` (replacing its value), then Enter. */
export async function typeInput(t, prompt, text) {
  await t.waitForInput({ prompt: prompt || undefined });
  const box = t.page.locator('.quick-input-widget input').first();
  await box.press('ControlOrMeta+a');
  await box.press('Delete');
  if (text) await t.page.keyboard.type(text);
  await box.press('Enter');
}

/**
 * Runs "Add Connection" from the palette through its prompts. For an auth kind with a secret it stops
 * at the masked Set Token input (returned as a locator) unless `token` is given.
 */
export async function addConnection(t, { name, url, auth = 'No token', userId = '', token, onUrlInput }) {
  await t.palette('Canton Ledger: Add Connection');
  await typeInput(t, 'A name for the connection', name);
  await t.waitForInput({ prompt: 'JSON Ledger API base URL' });
  // A validation message replaces the prompt: after onUrlInput, do not wait for the prompt again.
  if (onUrlInput) await onUrlInput();
  await typeInput(t, onUrlInput ? '' : 'JSON Ledger API base URL', url);
  await t.quickPick(auth);
  await typeInput(t, 'The participant user id', userId);
  if (auth === 'No token') return undefined;
  await t.waitForInput({ prompt: `Set Token: ${name}` });
  const box = t.page.locator('.quick-input-widget input').first();
  if (token) {
    await box.pressSequentially(token);
    await box.press('Enter');
  }
  return box;
}

/** Removes the connection `name` through its context menu and the modal confirmation (if it is there). */
export async function removeConnection(t, name) {
  const row = connectionRow(t, name);
  if (!(await row.count())) return false;
  await menu(row, 'Remove Connection');
  await answerDialogs(t, { text: `Remove the connection "${name}"`, button: 'Remove', timeout: scaled(10000), quietMs: 300 });
  await row.waitFor({ state: 'detached', timeout: scaled(10000) }).catch(() => {
    throw new Error(`the connection "${name}" is still listed after Remove`);
  });
  return true;
}

/** Cleanup for the end of a check: nothing left open, the named connections gone, no toasts. */
export async function cleanup(t, { connections = [], stopDemo = false } = {}) {
  const errors = [];
  const step = async (f) => {
    try {
      await f();
    } catch (e) {
      errors.push(String(e?.message ?? e).split('\n')[0]);
    }
  };
  await step(() => dismissAll(t));
  await step(() => showConnections(t));
  for (const name of connections) await step(() => removeConnection(t, name));
  if (stopDemo) {
    await step(async () => {
      await t.stopDemo();
      await connectionRow(t, 'Demo').waitFor({ state: 'detached', timeout: scaled(10000) });
    });
  }
  await step(() => clearNotifications(t));
  await t.page.mouse.move(700, 300).catch(() => {});
  return errors;
}

/** Names of the connections these checks add: `<prefix> <6 random characters>`. */
const OURS = /^UI (Sandbox|JWT|Menu|Team|Remote|Silent) [a-z0-9]{6}$/;

/** Removes connections a failed check of ours left behind (none, normally: one quick look). */
async function sweepLeftovers(t) {
  const labels = await t.page.locator(`${SIDEBAR} [role="treeitem"][aria-level="1"]`).evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
  for (const l of labels) {
    const name = l.split(' ').slice(0, 3).join(' ');
    if (OURS.test(name) && !name.startsWith('UI Team')) await removeConnection(t, name); // UI Team lives in settings
  }
}

/**
 * Runs `body` (after removing leftovers of earlier failed checks), then `cleanup` (always); a cleanup
 * failure fails a check that otherwise passed.
 */
export async function withCleanup(t, opts, body) {
  let failed = false;
  await showConnections(t);
  await sweepLeftovers(t);
  try {
    await body();
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    const errors = await cleanup(t, opts);
    if (errors.length && !failed) throw new Error(`cleanup failed: ${errors.join('; ')}`);
  }
}

// ---------------------------------------------------------------------------------------------------

export default async function (t) {
  const { page } = t;

  await t.check('"Start Demo Participant" shows the connected "Demo" connection and its ledger end; "Stop" removes it', async () => {
    await withCleanup(t, { stopDemo: true }, async () => {
      await showConnections(t);
      await t.palette('Canton Ledger: Start Demo Participant');
      const row = connectionRow(t, 'Demo');
      await row.waitFor({ timeout: scaled(20000) });
      const label = await waitLabel(t, row, /^Demo active · offset \d+ · http:\/\/127\.0\.0\.1:\d+$/, 20000);
      const offset = label.match(/offset (\d+)/)[1];
      // A connection that is in use is meant to open at once (connectionsTree.ts connectionItem).
      const collapsed = (await row.getAttribute('aria-expanded')) === 'false';
      if (collapsed) throw new Error('the connected "Demo" connection is shown collapsed');
      await expand(row);
      const version = await waitForChild(t, 'Demo', /^Version 3\.5\./);
      const end = await waitForChild(t, 'Demo', /^Ledger end \d+$/);
      if (end !== `Ledger end ${offset}`) throw new Error(`tree says "${end}", the row says offset ${offset}`);
      for (const re of [/^Participant \S+::1220/, /^Synchronizers \d+$/, /^User demo-admin$/, /^Parties \d+/]) await waitForChild(t, 'Demo', re);
      await shot(t, '20-demo-connected');
      const status = statusItem(t);
      await status.waitFor({ timeout: scaled(10000) });
      await t.waitUntil(async () => (await status.innerText()).trim() === `Demo @${offset}`, {
        what: async () => `the status bar to read "Demo @${offset}" (it reads "${(await status.innerText()).trim()}")`,
      });
      if (!(await status.getAttribute('aria-label')).includes(`version ${version.replace('Version ', '')}`)) throw new Error('status bar tooltip lacks the version');

      await t.stopDemo();
      await row.waitFor({ state: 'detached', timeout: scaled(10000) });
      await status.waitFor({ state: 'hidden', timeout: scaled(10000) });
    });
  });

  await t.check('"Add Connection" prompts name, URL (validated), auth, user id; the unreachable connection shows its error and "Retry"', async () => {
    const name = `UI Sandbox ${rand()}`;
    const url = await deadUrl();
    await withCleanup(t, { connections: [name] }, async () => {
      await showConnections(t);
      await addConnection(t, {
        name,
        url,
        auth: 'No token',
        onUrlInput: async () => {
          // The URL step validates as you type.
          const box = page.locator('.quick-input-widget input').first();
          await box.press('ControlOrMeta+a');
          await page.keyboard.type('ftp://127.0.0.1:9');
          await t.waitUntil(async () => (await t.inputMessage()).includes('must start with http:// or https://'), { what: async () => `the URL validation message (it says "${await t.inputMessage()}")` });
        },
      });
      const row = connectionRow(t, name);
      await row.waitFor({ timeout: scaled(10000) });
      await waitLabel(t, row, new RegExp(`^${name} active · error · ${url.replaceAll('.', '\\.')}$`));
      await t.toast(`Connecting to ${name}: Could not reach the participant`).waitFor({ timeout: scaled(10000) });
      const status = statusItem(t);
      await t.waitUntil(async () => (await status.innerText()).trim() === name, { what: async () => `the status bar to read "${name}" (it reads "${await status.innerText().catch(() => '')}")` });
      if (!(await status.getAttribute('aria-label')).includes('ECONNREFUSED')) throw new Error('the status bar tooltip does not give the error');
      if ((await row.getAttribute('aria-expanded')) === 'false') throw new Error(`the connection "${name}" in error is shown collapsed`);
      await expand(row);
      await waitForChild(t, name, /^Could not connect Could not reach the participant \(ECONNREFUSED\)/);
      await waitForChild(t, name, /^Retry$/);
      await shot(t, '20-connection-error-retry');
      // Retry runs another attempt: the row goes through "connecting…" back to "error".
      await t.palette('Notifications: Clear All Notifications');
      await t.toast(`Connecting to ${name}`).waitFor({ state: 'detached', timeout: scaled(10000) });
      await page.locator(`${SIDEBAR} [role="treeitem"][aria-level="2"][aria-label="Retry"]`).click();
      await t.toast(`Connecting to ${name}: Could not reach the participant`).waitFor({ timeout: scaled(10000) });
      await waitLabel(t, row, / error · http/);
    });
  });

  await t.check('"Set Token" for a "Paste a JWT" connection is a masked input; the tooltip shows the token\'s sub; "Clear Token" forgets it', async () => {
    const name = `UI JWT ${rand()}`;
    const sub = `uisub${rand()}${rand()}`;
    const userId = 'ui-jwt-user';
    const token = jwtToken(t, { sub, aud: 'https://daml.com/jwt/aud/participant/ui', exp: 4102444800 });
    const url = await deadUrl();
    await withCleanup(t, { connections: [name] }, async () => {
      await showConnections(t);
      const box = await addConnection(t, { name, url, auth: 'Paste a JWT', userId });
      await t.waitForInput({ prompt: `Set Token: ${name}` });
      if ((await box.getAttribute('type')) !== 'password') throw new Error(`the token input is type="${await box.getAttribute('type')}", not a password input`);
      // "Bearer ..." is refused with a hint, as you type.
      await box.pressSequentially('Bearer abc');
      await t.waitUntil(async () => (await t.inputMessage()).includes('A token has no spaces'), { what: async () => `the no-spaces hint (it says "${await t.inputMessage()}")` });
      await box.press('ControlOrMeta+a');
      await box.press('Delete');
      await box.pressSequentially(token);
      await box.press('Enter');
      await page.locator('.quick-input-widget input').first().waitFor({ state: 'hidden', timeout: scaled(10000) });
      if ((await page.evaluate(() => document.body.innerText)).includes(token)) throw new Error('the token is rendered as text in the workbench');

      const row = connectionRow(t, name);
      await waitLabel(t, row, / error · http/); // nothing listens on port 9; the token was still read
      await t.toast(`Connecting to ${name}: Could not reach the participant`).waitFor({ timeout: scaled(10000) });
      // Add Connection goes on (and connects once more) only when that error toast is closed.
      await t.palette('Notifications: Clear All Notifications');
      await t.toast(`Connecting to ${name}`).waitFor({ state: 'detached', timeout: scaled(5000) });
      const again = await t.toast(`Connecting to ${name}`).waitFor({ timeout: 3000 }).then(() => true, () => false);
      if (again) throw new Error('Add Connection with a token connected twice (a second "Connecting to" error after the first was closed)');
      await waitLabel(t, row, / error · http/);
      let seen = '';
      const tip = await t.waitUntil(async () => {
        seen = await hoverText(t, row).catch((e) => `(${e.message})`);
        return seen.includes(`Token: sub ${sub}`) ? seen : undefined;
      }, { timeout: scaled(25000), what: () => `the tooltip to show "Token: sub <the sub claim>" (it reads ${JSON.stringify(seen)})` });
      if (!/ · aud \S+/.test(tip)) throw new Error(`tooltip lacks the aud claim: ${tip}`);
      if (!tip.includes('Expires 2100-01-01T00:00:00.000Z')) throw new Error(`tooltip lacks the expiry: ${tip}`);
      if (tip.includes(token)) throw new Error('the tooltip shows the token');
      if (!tip.includes(`user ${userId}`) || !tip.includes('aud https://daml.com/jwt/aud/participant/ui')) {
        throw new Error(`the tooltip shows user id "${userId}" as "${(tip.match(/user (\S+)/) ?? [])[1]}" and aud as "${(tip.match(/aud (\S+)/) ?? [])[1]}": ${tip}`);
      }

      await menu(row, 'Clear Token');
      await t.toast(`Cleared the stored secrets of "${name}"`).waitFor({ timeout: scaled(10000) });
      await waitLabel(t, row, new RegExp(`^${name} active · ${url.replaceAll('.', '\\.')}$`)); // disconnected
      let after = '';
      await t.waitUntil(async () => {
        after = await hoverText(t, row).catch((e) => `(${e.message})`);
        return !after.startsWith('(') && !after.includes('Token:');
      }, { timeout: scaled(25000), what: () => `the tooltip to drop the token after Clear Token (it reads ${JSON.stringify(after)})` });
    });
  });

  await t.check('a participant that does not answer: its row says "connecting…" with Cancel, which stops the connect; the active connection stays active', async () => {
    const name = `UI Silent ${rand()}`;
    // Accepts connections and never answers (it reads what comes, so it sees the other end close).
    const sockets = new Set();
    const closed = new Set();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => closed.add(socket));
      socket.resume();
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${server.address().port}`;
    try {
      await withCleanup(t, { connections: [name], stopDemo: true }, async () => {
        await showConnections(t);
        await t.palette('Canton Ledger: Start Demo Participant');
        const demo = connectionRow(t, 'Demo');
        await waitLabel(t, demo, /^Demo active · offset \d+/, 20000);
        await addConnection(t, { name, url, auth: 'No token' });
        const row = connectionRow(t, name);
        await waitLabel(t, row, new RegExp(`^${name} connecting… · `));
        await waitForChild(t, name, /^Cancel stop connecting$/);
        await waitLabel(t, demo, /^Demo active · offset \d+/);
        await shot(t, '20-connecting-cancel');
        await page.locator(`${SIDEBAR} [role="treeitem"][aria-level="2"][aria-label="Cancel stop connecting"]`).click();
        // Back to not connected, not active; the demo is still the active connection.
        await waitLabel(t, row, new RegExp(`^${name} http://127\\.0\\.0\\.1:\\d+$`));
        await waitLabel(t, demo, /^Demo active · offset \d+/);
        await t.waitUntil(async () => /^Demo @\d+$/.test((await statusItem(t).innerText()).trim()), { what: 'the status bar to still show the demo' });
        await t.waitUntil(async () => sockets.size > 0 && closed.size === sockets.size, { what: () => `the requests aborted (${closed.size} of ${sockets.size} connections closed)` });
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => server.close(r));
    }
  });

  await t.check('a new connection that cannot connect does not take over from the active one; context menus offer Connect/Disconnect/Make Active/Copy URL/Edit/Remove as fits; "Remove Connection" asks first', async () => {
    const name = `UI Menu ${rand()}`;
    const url = await deadUrl();
    await withCleanup(t, { connections: [name], stopDemo: true }, async () => {
      await showConnections(t);
      await t.palette('Canton Ledger: Start Demo Participant');
      const demo = connectionRow(t, 'Demo');
      await waitLabel(t, demo, /^Demo active · offset \d+/, 20000);
      await addConnection(t, { name, url, auth: 'No token' });
      const row = connectionRow(t, name);
      // It did not answer: it does not become active, the demo stays the active connection.
      await waitLabel(t, row, new RegExp(`^${name} error · http`));
      await t.toast(`Connecting to ${name}: Could not reach the participant`).waitFor({ timeout: scaled(10000) });
      await waitLabel(t, demo, /^Demo active · offset \d+/);
      await t.waitUntil(async () => /^Demo @\d+$/.test((await statusItem(t).innerText()).trim()), { what: 'the status bar to still show the demo' });
      await shot(t, '20-new-connection-not-active');

      const expectMenu = async (r, label, has, hasNot) => {
        const items = await t.contextMenuItems(r);
        const missing = has.filter((i) => !items.includes(i));
        const extra = hasNot.filter((i) => items.includes(i));
        if (missing.length || extra.length) throw new Error(`${label} menu ${JSON.stringify(items)}: missing ${JSON.stringify(missing)}, unexpected ${JSON.stringify(extra)}`);
      };
      // The demo: connected, active, not editable, no token.
      await expectMenu(demo, 'Demo', ['Disconnect', 'Copy URL'], ['Connect', 'Make Active', 'Edit Connection', 'Remove Connection', 'Set Token', 'Clear Token']);
      // Our own connection: in error, not active, editable, no token.
      await expectMenu(row, name, ['Connect', 'Make Active', 'Copy URL', 'Edit Connection', 'Remove Connection'], ['Disconnect', 'Set Token', 'Clear Token']);

      // Make Active on it tries to connect; it still does not answer, so the demo stays active.
      await clearNotifications(t);
      await menu(row, 'Make Active');
      await t.toast(`Connecting to ${name}: Could not reach the participant`).waitFor({ timeout: scaled(10000) });
      await waitLabel(t, row, new RegExp(`^${name} error · http`));
      await waitLabel(t, demo, /^Demo active · offset \d+/);

      // Disconnect / Connect on the demo, from its menu (it stays the active one).
      await menu(demo, 'Disconnect');
      await waitLabel(t, demo, /^Demo active · http:\/\/127\.0\.0\.1:\d+$/);
      await expectMenu(demo, 'disconnected Demo', ['Connect'], ['Disconnect', 'Make Active']);
      await menu(demo, 'Connect');
      await waitLabel(t, demo, /^Demo active · offset \d+ · /);
      await t.waitUntil(async () => /^Demo @\d+$/.test((await statusItem(t).innerText()).trim()), { what: 'the status bar to show the demo again' });

      // Copy URL puts the connection's URL on the clipboard.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin }).catch(() => {});
      await menu(row, 'Copy URL');
      await t.waitUntil(async () => (await page.evaluate(() => navigator.clipboard.readText())) === url, { what: `the clipboard to hold ${url}` });

      // Remove asks in a modal: Cancel keeps the connection, Remove removes it.
      await menu(row, 'Remove Connection');
      const n = await answerDialogs(t, { text: `Remove the connection "${name}" and its stored secrets?`, button: 'Cancel', quietMs: 300 });
      if (n !== 1) throw new Error(`${n} dialogs for one Remove`);
      await page.waitForTimeout(300);
      if (!(await row.count())) throw new Error('Cancel removed the connection');
      await menu(row, 'Remove Connection');
      await answerDialogs(t, { text: `Remove the connection "${name}"`, button: 'Remove', quietMs: 300 });
      await row.waitFor({ state: 'detached', timeout: scaled(10000) });
    });
  });
}
