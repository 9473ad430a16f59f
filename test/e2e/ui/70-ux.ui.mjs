// Rough edges a new user meets, checked like a user would meet them: the vetting report rendered (not
// Markdown source), the Add Connection step counter on each path, Refresh Connections with two dead
// connections (failures on the rows, no toast storm), and Upload DAR from the explorer's context menu
// with its validation, report and the Packages view showing the new package.
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeAllEditors, codeLens } from './50-submit.ui.mjs';
import { addConnection, connectionRow, rand, shot, showConnections, waitLabel, withCleanup } from './20-connections.ui.mjs';
import { scaled } from './lib.mjs';

const VETTING_FILE = 'ui-ux-upgrade.vetting.json';
const DAR = 'splice-api-token-holding-v1-1.0.0.dar';
const TOASTS = '.notifications-toasts .notification-toast';

/** Whether a rendered Markdown preview (a webview, in frames of its own) shows a heading matching `re`. */
export async function previewShows(page, re, selector = 'h1') {
  for (const frame of page.frames()) {
    const texts = await frame.locator(selector).allInnerTexts().catch(() => []);
    if (texts.some((x) => re.test(x))) return true;
  }
  return false;
}

/** The lines of the extension's log file in the UI's code-server (written as the Output channel is). */
function cantonLogLines(t) {
  const logs = path.join(t.runDir, 'ui', 'ud', 'logs');
  if (!existsSync(logs)) return [];
  const files = readdirSync(logs, { recursive: true }).filter((f) => String(f).endsWith('Canton Ledger.log'));
  return files.flatMap((f) => readFileSync(path.join(logs, String(f)), 'utf8').split('\n'));
}

/** The title of the open quick input, e.g. "Add Canton Connection (4/8)". */
async function inputTitle(t) {
  const title = t.page.locator('.quick-input-widget .quick-input-title').first();
  await title.waitFor({ timeout: scaled(10000) });
  return (await title.innerText()).trim();
}

async function expectTitle(t, expected) {
  await t.waitUntil(async () => (await inputTitle(t).catch(() => '')) === expected, { what: async () => `the step title "${expected}" (it reads "${await inputTitle(t).catch(() => '')}")` });
}

/** Accepts the open input box as it is (its proposed value) with Enter. */
async function enter(t) {
  await t.page.locator('.quick-input-widget input').first().press('Enter');
}

export default async function (t) {
  const { page } = t;
  let startedDemo = false;

  await t.check('a vetting dry run opens its report rendered (a Markdown preview), with "Open Source" for the text', async () => {
    const file = path.join(t.workspace, VETTING_FILE);
    writeFileSync(file, JSON.stringify({ changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }] }, null, 2) + '\n');
    try {
      startedDemo = await t.startDemo();
      await closeAllEditors(t);
      await t.openFile(file);
      const lens = codeLens(t, 'Dry Run on Demo');
      await lens.waitFor({ timeout: scaled(15000) });
      await lens.click();
      await t.waitUntil(() => previewShows(page, /^Dry run of ui-ux-upgrade\.vetting\.json: nothing was changed$/), { timeout: scaled(20000), what: 'the rendered report heading' });
      await t.waitUntil(() => previewShows(page, /^Added$/, 'h2'), { what: 'the rendered "Added" table heading' });
      const tab = page.locator('.tabs-container .tab', { hasText: 'ui-ux-upgrade dry run' }).first();
      await tab.waitFor({ timeout: scaled(10000) });
      if (!/Preview/.test(await tab.innerText())) throw new Error(`the report tab is not a preview: "${await tab.innerText()}"`);
      await t.screenshot('70-vetting-report-rendered');
      // The text is one click away: the preview's own "Open Source".
      await tab.click();
      await page.locator('.editor-group-container .editor-actions .action-label[aria-label^="Open Source"]').first().click();
      await t.waitUntil(async () => (await page.locator('.monaco-editor .view-lines').allInnerTexts()).join('\n').replace(/\u00a0/g, ' ').includes('# Dry run of ui-ux-upgrade.vetting.json'), {
        what: 'the report as text after Open Source',
      });
    } finally {
      await closeAllEditors(t);
      await t.palette('Notifications: Clear All Notifications');
      rmSync(file, { force: true });
    }
  });

  await t.check('Add Connection counts the steps of the path chosen: k alone before the auth kind, then k/8 (OAuth2) or k/6 (sandbox secret); Back goes back', async () => {
    await showConnections(t);
    await t.palette('Canton Ledger: Add Connection');
    await expectTitle(t, 'Add Canton Connection (1)');
    await enter(t);
    await expectTitle(t, 'Add Canton Connection (2)');
    await enter(t);
    await expectTitle(t, 'Add Canton Connection (3)');
    await t.quickPick('OAuth2 client credentials');
    await expectTitle(t, 'Add Canton Connection (4/8)');
    await t.waitForInput({ prompt: "The participant user id (the token's sub)" });
    await shot(t, '70-wizard-step-4-of-8');
    await enter(t);
    await expectTitle(t, 'Add Canton Connection (5/8)');
    await t.waitForInput({ prompt: 'OAuth2 token URL' });
    // Back: the user id again, then the auth kind; another kind counts its own steps.
    await page.locator('.quick-input-widget .quick-input-titlebar .action-label.codicon-quick-input-back').first().click();
    await expectTitle(t, 'Add Canton Connection (4/8)');
    await page.locator('.quick-input-widget .quick-input-titlebar .action-label.codicon-quick-input-back').first().click();
    // The auth kind is known now: its step counts the chosen path.
    await expectTitle(t, 'Add Canton Connection (3/8)');
    await t.quickPick('Mint sandbox tokens from a shared secret');
    await expectTitle(t, 'Add Canton Connection (4/6)');
    await enter(t);
    await expectTitle(t, 'Add Canton Connection (5/6)');
    await t.waitUntil(async () => (await page.locator('#quickInput_list [role="option"]', { hasText: 'Audience' }).count()) > 0, { what: 'the token form choices' });
    await t.quickPick('Audience');
    await expectTitle(t, 'Add Canton Connection (6/6)');
    await t.waitForInput({ prompt: "The participant id, for the token's audience" });
    await shot(t, '70-wizard-step-6-of-6');
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: scaled(5000) });
  });

  await t.check('Refresh Connections with two dead connections: no toast, each failure on its row', async () => {
    const names = [`UI Sandbox ${rand()}`, `UI Sandbox ${rand()}`];
    await withCleanup(t, { connections: names }, async () => {
      await showConnections(t);
      // Room for the new rows below the demo's expanded one.
      await t.onlyPaneExpanded('Connections');
      for (const [i, name] of names.entries()) {
        await addConnection(t, { name, url: `http://127.0.0.1:${i === 0 ? 9 : 1}` });
        await waitLabel(t, connectionRow(t, name), / error · http/);
      }
      // What adding them said is not what this check is about.
      await t.palette('Notifications: Clear All Notifications');
      await page.locator(TOASTS).first().waitFor({ state: 'detached', timeout: scaled(10000) });
      await t.palette('Canton Ledger: Refresh Connections');
      // The refresh is over once the extension's log has recorded both failures.
      const recorded = () => cantonLogLines(t).filter((l) => names.some((n) => l.includes(`Refreshing ${n}: Could not reach the participant`)));
      await t.waitUntil(async () => recorded().length >= 2, { timeout: scaled(20000), what: async () => `both refresh failures in the log (found: ${JSON.stringify(recorded())})` });
      const toasts = await page.locator(TOASTS).allInnerTexts();
      if (toasts.length) throw new Error(`Refresh Connections showed ${toasts.length} toast(s): ${toasts.join(' | ')}`);
      for (const name of names) await waitLabel(t, connectionRow(t, name), /^UI Sandbox \S+ (active · )?error · http/);
      await shot(t, '70-refresh-two-dead-connections');
    });
  });

  await t.check('Upload DAR… from the explorer context menu of a .dar: validate first (report rendered), then upload; the Packages view lists it', async () => {
    const sharedDar = fileURLToPath(new URL(`../../../../shared/daml/dars/${DAR}`, import.meta.url));
    if (!existsSync(sharedDar)) {
      console.log(`  note [ui] SKIPPED Upload DAR: ${sharedDar} is missing (the shared DARs live beside the repository)`);
      return;
    }
    // A link to the shared DAR (never a copy), so that the explorer lists it.
    const link = path.join(t.workspace, DAR);
    rmSync(link, { force: true });
    symlinkSync(sharedDar, link);
    try {
      if (!startedDemo) startedDemo = await t.startDemo();
      await t.palette('View: Show Explorer');
      await t.refreshExplorer();
      const row = page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${DAR}"]`).first();
      await row.waitFor({ timeout: scaled(15000) });
      await t.contextMenu(row, 'Upload DAR…');
      await t.quickPick('Validate Only (Dry Run)');
      await t.toast(/is valid on Demo: \d+ packages?, \d+ new; vetting unchanged\. Nothing was changed\./).waitFor({ timeout: scaled(30000) });
      await t.waitUntil(() => previewShows(page, /^Validation of splice-api-token-holding-v1-1\.0\.0\.dar on Demo: valid, nothing was changed$/), { timeout: scaled(15000), what: 'the rendered validation report' });
      await t.screenshot('70-upload-dar-validation');
      await page.locator('.notifications-toasts .monaco-button', { hasText: 'Upload and Vet' }).first().click();
      await t.waitUntil(() => previewShows(page, /^splice-api-token-holding-v1-1\.0\.0\.dar uploaded to Demo$/), { timeout: scaled(30000), what: 'the rendered upload report' });
      await t.waitUntil(() => previewShows(page, /^Packages: \d+ packages?, [1-9]\d* new; [1-9]\d* vetted on 1 synchronizer$/, 'li'), { what: 'the summary: new packages, vetted' });
      await t.waitUntil(() => previewShows(page, /^Added$/, 'h3'), { what: 'the vetting change in the report' });
      await t.screenshot('70-upload-dar-report');
      await t.palette('Canton Ledger: Focus on Packages View');
      await page.getByRole('treeitem', { name: /^splice-api-token-holding-v1\b/ }).first().waitFor({ timeout: scaled(20000) });
      await t.screenshot('70-upload-dar-packages-view');
    } finally {
      rmSync(link, { force: true });
      await closeAllEditors(t);
      await t.palette('Notifications: Clear All Notifications');
    }
  });

  await t.check('the palette offers Upload DAR… while connected, and hides it once no connection is', async () => {
    if (!startedDemo) {
      console.log('  note [ui] the demo participant ran before these checks: the hidden-when-disconnected half is not checked');
      return;
    }
    if (!(await t.paletteHas('Canton Ledger: Upload DAR…'))) throw new Error('"Upload DAR…" is not in the palette while the demo participant is connected');
    await t.stopDemo();
    startedDemo = false;
    if (await t.paletteHas('Canton Ledger: Upload DAR…', { attempts: 1 })) throw new Error('"Upload DAR…" is still in the palette without a connected participant');
    if (!(await t.paletteHas('Canton Ledger: Add Connection'))) throw new Error('"Add Connection" is missing from the palette');
  });

  await t.check('New Commands File asks the name with the stem selected: typing "transfer" creates transfer.commands.json', async () => {
    const created = path.join(t.workspace, 'transfer.commands.json');
    rmSync(created, { force: true });
    try {
      await t.palette('Canton Ledger: New Commands File');
      // With a connected participant a template is asked first: take the blank file.
      const blank = page.locator('#quickInput_list [role="option"]', { hasText: 'Blank commands file' }).first();
      const name = page.locator('.quick-input-widget', { hasText: '.commands.json is added if missing' }).first();
      await t.waitUntil(async () => (await name.isVisible().catch(() => false)) || (await blank.isVisible().catch(() => false)), { what: 'the name input (or the template pick)' });
      if (await blank.isVisible().catch(() => false)) await blank.click();
      await name.waitFor({ timeout: scaled(10000) });
      const box = page.locator('.quick-input-widget input').first();
      const { value, start, end } = await box.evaluate((el) => ({ value: el.value, start: el.selectionStart, end: el.selectionEnd }));
      if (!/^new(-\d+)?\.commands\.json$/.test(value) || start !== 0 || value.slice(start, end) !== value.replace('.commands.json', '')) {
        throw new Error(`the name box holds "${value}" with [${start}, ${end}) selected, not the stem`);
      }
      await page.keyboard.type('transfer');
      if ((await box.inputValue()) !== 'transfer.commands.json') throw new Error(`typing a name gave "${await box.inputValue()}"`);
      await shot(t, '70-new-commands-file-name');
      await box.press('Enter');
      await page.locator('.tabs-container [role="tab"]', { hasText: 'transfer.commands.json' }).first().waitFor({ timeout: scaled(10000) });
      if (!existsSync(created)) throw new Error('transfer.commands.json was not created');
    } finally {
      await closeAllEditors(t);
      await t.palette('Notifications: Clear All Notifications');
      rmSync(created, { force: true });
    }
  });

  await t.check('cleanup: the demo participant stopped if started here', async () => {
    if (startedDemo) await t.stopDemo();
  });
}
