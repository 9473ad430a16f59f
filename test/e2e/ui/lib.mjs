// UI-check framework and workbench helpers for the e2e run (VS Code 1.139 in code-server, headless
// Chromium driven by playwright-core). Check files (test/e2e/ui/*.ui.mjs) get a context `t`:
//
//   export default async function (t) {
//     await t.check('palette runs Show Log', async () => {
//       await t.palette('Canton Ledger: Show Log');
//       ...
//     });
//   }
//
// `t.page` is the playwright Page; every helper below is also available unbound (`palette(page, ...)`).
import net from 'node:net';
import path from 'node:path';

/**
 * The deadlines of the UI checks, scaled for the machine: a loaded 2-core CI machine answers several
 * times slower than a desk. A check waits on a state; its deadline only says how long before the
 * state not coming is a failure. CANTON_E2E_TIME_SCALE sets the factor (default 3 under CI, else 1).
 */
export const TIME_SCALE = Number(process.env.CANTON_E2E_TIME_SCALE) || (process.env.CI ? 3 : 1);

/** The demo participant's seeded parties (its participant's namespace is fixed). */
export const DEMO_BANK = 'Bank::122030ae391cfbaf4aecef53d588a826fd7da6f31dc276af9486a413396bcc67f620';
export const DEMO_ALICE = 'Alice::122030ae391cfbaf4aecef53d588a826fd7da6f31dc276af9486a413396bcc67f620';

/** The text of every visible editor as rendered (monaco renders spaces as non-breaking ones). */
export async function visibleEditorText(page) {
  return (await page.locator('.editor-group-container .monaco-editor .view-lines').allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
}

/** A deadline of `ms` on a desk, scaled for this machine. */
/**
 * `http://127.0.0.1:PORT` with a port nothing listens on: bound and closed a moment ago, to be used at
 * once. A fixed "dead" port (1, 9) may be taken on a shared machine.
 */
export async function deadUrl() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

export function scaled(ms) {
  return Math.round(ms * TIME_SCALE);
}

const DEFAULT_CHECK_TIMEOUT = scaled(60000);

export function slug(s) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'check';
}

/**
 * The check runner: `check(name, fn, {timeout})` runs one named step, prints `ok`/`FAIL`, screenshots
 * the page after it (`<n>-<name>.png`, or `fail-<n>-<name>.png` when it failed), and never throws.
 */
export function createChecks({ page, runDir, log = console.log, results }) {
  let n = 0;
  async function check(name, fn, { timeout = DEFAULT_CHECK_TIMEOUT } = {}) {
    const i = ++n;
    const t0 = Date.now();
    let timer;
    try {
      await Promise.race([
        fn(),
        new Promise((_, rej) => {
          timer = setTimeout(() => rej(new Error(`check timed out after ${timeout / 1000}s`)), timeout);
        }),
      ]);
      clearTimeout(timer);
      const ms = Date.now() - t0;
      results.push({ kind: 'ui', name, state: 'passed', ms });
      log(`  ok   [ui] ${name} (${ms}ms)`);
      await page.screenshot({ path: path.join(runDir, `${String(i).padStart(2, '0')}-${slug(name)}.png`) }).catch(() => {});
      return true;
    } catch (e) {
      clearTimeout(timer);
      const ms = Date.now() - t0;
      const shot = path.join(runDir, `fail-${i}-${slug(name)}.png`);
      await page.screenshot({ path: shot }).catch(() => {});
      const message = String(e?.message ?? e).split('\n').filter(Boolean).slice(0, 6).join('\n         ');
      results.push({ kind: 'ui', name, state: 'failed', ms, error: message, screenshot: path.basename(shot) });
      log(`  FAIL [ui] ${name} (${ms}ms): ${message}\n         screenshot: ${shot}`);
      // Leave the workbench usable for the next check: close quick input, menus, dialogs.
      await page.keyboard.press('Escape').catch(() => {});
      await page.keyboard.press('Escape').catch(() => {});
      return false;
    }
  }
  return check;
}

// ---------------------------------------------------------------------------------------------------
// Workbench helpers. All take the playwright `page` first.

const QUICK_INPUT = '.quick-input-widget';
const QUICK_INPUT_BOX = `${QUICK_INPUT} input`;

function attr(s) {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** Waits until the explorer lists `fileName` (the workbench is up with the workspace open). */
export async function waitForWorkbench(page, fileName, timeout = scaled(60000)) {
  await page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${attr(fileName)}"]`).first().waitFor({ timeout });
}

/** The quick-pick option of the command palette for a command `title` ("Category: Title"). */
function paletteOption(page, title) {
  return page.locator(`#quickInput_list [role="option"][aria-label="${attr(title)}"], #quickInput_list [role="option"][aria-label^="${attr(title)}, "]`).first();
}

/**
 * Opens the command palette, types `title` and waits for its entry (retrying: right after the
 * workbench renders, the palette may say "No matching commands" for a moment). Leaves the palette
 * open with the entry visible; returns the entry's locator.
 */
export async function paletteFind(page, title, { attempts = 10 } = {}) {
  for (let i = 0; ; i++) {
    // A webview with the focus (a report's preview) keeps F1: the palette does not open.
    await page.evaluate(() => document.activeElement instanceof HTMLIFrameElement && document.activeElement.blur());
    await page.keyboard.press('F1');
    const box = page.locator(QUICK_INPUT_BOX);
    const opt = paletteOption(page, title);
    try {
      // The palette can close again right after opening (focus moving on a re-render): retry then too.
      // A webview opened just before (a report's preview) takes the focus once it has loaded, which
      // closes the palette: a fill that does not happen at once is tried again, not waited for.
      await box.waitFor({ timeout: scaled(5000) });
      await box.fill('>' + title, { timeout: 2000 });
      await opt.waitFor({ timeout: 2000 });
      return opt;
    } catch (e) {
      await page.keyboard.press('Escape');
      if (i + 1 >= attempts) throw new Error(`command palette has no entry "${title}" (after ${attempts} tries)`);
      await page.waitForTimeout(500);
    }
  }
}

/** Runs the command titled `title` ("Category: Title") from the command palette. */
export async function palette(page, title, opts) {
  const opt = await paletteFind(page, title, opts);
  await opt.click();
}

/** Whether the command palette lists `title`, without running it (closes the palette again). */
export async function paletteHas(page, title, { attempts = 3 } = {}) {
  try {
    await paletteFind(page, title, { attempts });
    await page.keyboard.press('Escape');
    return true;
  } catch {
    return false;
  }
}

/** The notification toast whose message contains `text` (string or RegExp). Wait with `.waitFor()`. */
export function toast(page, text) {
  return page.locator('.notifications-toasts .notification-list-item-message', { hasText: text }).first();
}

/** The activity-bar entry of a view container (e.g. "Canton Ledger"). */
export function activityBarItem(page, containerTitle) {
  return page
    .locator(`.part.activitybar [role="tab"][aria-label^="${attr(containerTitle)}"], .part.activitybar a[aria-label^="${attr(containerTitle)}"]`)
    .first();
}

/**
 * Shows the view container `containerTitle` in the side bar, through the palette's "View: Show …",
 * which never hides it. A click on its activity-bar entry toggles the side bar, so a click made when
 * the side bar only read as not shown hides it (a check found the side bar closed after that click).
 */
export async function openView(page, containerTitle) {
  await activityBarItem(page, containerTitle).waitFor({ timeout: scaled(15000) });
  const sideBarTitle = page.locator('.part.sidebar .composite.title h2', { hasText: containerTitle }).first();
  if (await sideBarTitle.isVisible().catch(() => false)) return;
  await palette(page, `View: Show ${containerTitle}`);
  await sideBarTitle.waitFor({ timeout: scaled(10000) });
}

/** The header of a view (pane) in the side bar, by its name (e.g. "Connections"). */
export function viewPane(page, viewName) {
  return page.locator(`.part.sidebar .pane-header[aria-label^="${attr(viewName)}"]`).first();
}

/** Expands or collapses a side-bar pane by its header, like a user. */
export async function setPaneExpanded(page, viewName, expanded) {
  const header = viewPane(page, viewName);
  await header.waitFor({ timeout: scaled(10000) });
  if ((await header.getAttribute('aria-expanded')) !== String(expanded)) await header.click();
}

/**
 * Gives one pane of the side bar the room: every other expanded pane is collapsed. A tree renders only
 * the rows that fit in its pane, and which panes earlier checks left open is not this check's business.
 */
export async function onlyPaneExpanded(page, viewName) {
  const others = page.locator(`.part.sidebar .pane-header[aria-expanded="true"]:not([aria-label^="${attr(viewName)}"])`);
  for (let n = await others.count(); n > 0; n = await others.count()) {
    await others.first().click();
    await waitUntil(async () => (await others.count()) < n, { timeout: scaled(5000), what: 'the pane collapsed' });
  }
  await setPaneExpanded(page, viewName, true);
}

/** Hides the bottom panel (Problems, Output, …) when shown, so that an editor shows as many lines as it can. */
export async function hidePanel(page) {
  if (await page.locator('.part.panel').isVisible().catch(() => false)) await palette(page, 'View: Hide Panel');
  await page.locator('.part.panel').waitFor({ state: 'hidden', timeout: scaled(10000) });
}

/** Makes the explorer read the workspace folder again (its Refresh button), for a file written just now. */
export async function refreshExplorer(page) {
  await page.locator('.part.sidebar .pane-header').first().hover();
  await page.locator('.part.sidebar .action-label[aria-label^="Refresh Explorer"]').first().click();
}

/**
 * Opens `file` (an absolute path) with File: Open File…, typing its path as a user would, and waits
 * for its tab to be the active one. Not a double click in the explorer: the explorer re-renders its
 * rows while it reads the folder again (a file written just now), and the second click of a double
 * click can land on the row that moved under the pointer, opening another file. Not Go to File
 * either: its file search answers from an index that may not have the file yet.
 */
export async function openFile(page, file) {
  await palette(page, 'File: Open File...');
  const box = page.locator(QUICK_INPUT_BOX);
  // The dialog writes its starting folder into the box once it has listed it: typing before that is overwritten.
  await waitUntil(async () => (await box.inputValue().catch(() => '')).endsWith('/') && (await page.locator('#quickInput_list [role="option"]').count()) > 0, {
    timeout: scaled(15000),
    what: 'the Open File dialog to list its folder',
  });
  await box.fill(file);
  await waitUntil(async () => (await box.inputValue().catch(() => '')) === file, { what: `the Open File dialog to read ${file}` });
  await page.keyboard.press('Enter');
  await page.locator(`.tabs-container [role="tab"].active[aria-label^="${attr(path.basename(file))}"]`).first().waitFor({ timeout: scaled(15000) });
}

/** A tree item by its accessible name (label, plus description for some trees). */
export function treeItem(page, label, { exact = false } = {}) {
  return page.getByRole('treeitem', { name: label, exact }).first();
}

/**
 * Runs the entry `title` of the open context menu with the keyboard: arrows down until the menu
 * itself marks that entry focused, then Enter. (A mouse click right after the menu opened can be
 * taken as the end of the right-click and ignored; the keyboard waits on the menu's own state.)
 */
export async function runMenuItem(page, title) {
  const target = page.getByRole('menuitem', { name: title, exact: true }).first();
  await target.waitFor({ timeout: scaled(10000) });
  const count = await page.getByRole('menuitem').count();
  for (let i = 0; i <= count; i++) {
    if (await target.evaluate((a) => a.parentElement?.classList.contains('focused') && a === a.getRootNode().activeElement)) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`could not focus the menu entry "${title}"`);
}

/** Right-clicks `row` (a locator) and runs the context-menu entry `title`. */
export async function contextMenu(row, title) {
  await row.click({ button: 'right' });
  await runMenuItem(row.page(), title);
}

/** The context-menu entries of `row` (opens the menu, reads the labels, closes it). */
export async function contextMenuItems(row) {
  const page = row.page();
  await row.click({ button: 'right' });
  // The open menu's entries once rendered with their labels (a menu just closed may linger, hidden and empty).
  const items = page.locator('.context-view .monaco-menu [role="menuitem"]').filter({ hasText: /\S/ });
  await items.first().waitFor({ timeout: scaled(10000) });
  const labels = (await items.allInnerTexts()).map((s) => s.split('\n')[0].trim()).filter(Boolean);
  await page.keyboard.press('Escape');
  await page.locator('.context-view .monaco-menu').first().waitFor({ state: 'hidden', timeout: scaled(5000) }).catch(() => {});
  return labels;
}

/** Waits for a quick input (input box or quick pick) to be visible; optional `prompt` text to expect. */
export async function waitForInput(page, { prompt, timeout = scaled(15000) } = {}) {
  await page.locator(QUICK_INPUT_BOX).waitFor({ state: 'visible', timeout });
  if (prompt) {
    await page.locator(QUICK_INPUT, { hasText: prompt }).first().waitFor({ timeout });
  }
}

/** Types `text` into the visible input box and presses Enter. */
export async function inputBox(page, text, { prompt, timeout } = {}) {
  await waitForInput(page, { prompt, timeout });
  const box = page.locator(QUICK_INPUT_BOX);
  await box.fill(text);
  await box.press('Enter');
}

/** The value the input box (with `prompt` in its title or prompt) was shown with. */
export async function inputValue(page, { prompt, timeout } = {}) {
  await waitForInput(page, { prompt, timeout });
  return page.locator(QUICK_INPUT_BOX).inputValue();
}

/** Picks `label` in the visible quick pick (optionally typing `filter` first). */
export async function quickPick(page, label, { filter, timeout = scaled(15000) } = {}) {
  await waitForInput(page, { timeout });
  if (filter !== undefined) await page.locator(QUICK_INPUT_BOX).fill(filter);
  const opt = page.locator('#quickInput_list [role="option"]', { hasText: label }).first();
  await opt.waitFor({ timeout });
  await opt.click();
}

/** The validation message under the input box (e.g. "Enter a URL"), or '' when none is shown. */
export async function inputMessage(page) {
  const m = page.locator(`${QUICK_INPUT} .quick-input-message`);
  return ((await m.isVisible().catch(() => false)) ? await m.innerText() : '').trim();
}

/** The name of the channel shown in the Output panel, or '' when the panel shows no output view. */
export async function outputChannel(page) {
  const select = page.locator('.part.panel select.monaco-select-box, .part.panel .monaco-select-box').first();
  if (!(await select.isVisible().catch(() => false))) return '';
  return (await select.evaluate((el) => (el.tagName === 'SELECT' ? el.options[el.selectedIndex]?.text : el.getAttribute('title') || el.textContent) || '')).trim();
}

/** The text currently rendered in the Output panel's editor (visible lines only). */
export async function outputText(page) {
  return page.locator('.part.panel .monaco-editor .view-lines').first().innerText().catch(() => '');
}

/** Polls `fn` until truthy; `what` (a string, or an async function called on time-out) describes it. */
export async function waitUntil(fn, { timeout = scaled(10000), interval = 200, what = 'condition' } = {}) {
  const until = Date.now() + timeout;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > until) {
      const desc = typeof what === 'function' ? await Promise.resolve(what()).catch(() => 'condition') : what;
      throw new Error(`timed out after ${timeout}ms waiting for ${desc}`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}

/** Whether the demo participant runs: the palette offers "Stop Demo Participant" exactly then. */
async function demoRunning(page) {
  return paletteHas(page, 'Canton Ledger: Stop Demo Participant', { attempts: 1 });
}

/**
 * Starts the demo participant and waits until it runs (connected and active: the extension sets
 * "demo running" last); returns whether it was started here (false: it already ran).
 */
export async function startDemo(page) {
  if (await demoRunning(page)) return false;
  await palette(page, 'Canton Ledger: Start Demo Participant');
  await waitUntil(() => demoRunning(page), { timeout: scaled(30000), what: 'the demo participant to run' });
  return true;
}

/**
 * Stops the demo participant and waits until it has (its ledger saved: a start right after it would
 * otherwise race the save).
 */
export async function stopDemo(page) {
  if (!(await demoRunning(page))) return;
  await palette(page, 'Canton Ledger: Stop Demo Participant');
  await waitUntil(async () => !(await demoRunning(page)), { timeout: scaled(30000), what: 'the demo participant to stop' });
}
