// Editing a commands file as a person would: an invalid file shows a squiggle and a Problems entry from
// "Canton Ledger", and the quick fix from Ctrl+. (the light bulb's menu) repairs it.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inputBox, palette, waitUntil, scaled } from './lib.mjs';

const FILE = 'ui-editing.commands.json';
const ALICE = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';
const TEXT = `{
  "actAs": ["${ALICE}"],
  "applicationId": "ui-app",
  "commands": [
    {"CreateCommand": {"templateId": "#demo-iou:Iou:Iou", "createArguments": {}}}
  ]
}
`;

/** The text of the active editor as rendered (monaco renders spaces as non-breaking ones). */
export async function editorText(page) {
  const text = await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText();
  return text.replace(/\u00a0/g, ' ');
}

/** The rows of the Problems panel. */
export function problemRows(page) {
  return page.locator('.markers-panel .monaco-list-row');
}

/**
 * Puts the editor's cursor on a problem: reads its position from the Problems row ("[Ln 3, Col 3]") and
 * goes there with Go to Line/Column (a click on the row can land while the list re-renders), then
 * waits until the status bar shows the cursor there.
 */
export async function cursorToProblem(page, text) {
  const row = problemRows(page).filter({ hasText: text }).first();
  await row.waitFor({ timeout: scaled(15000) });
  const m = /\[Ln (\d+), Col (\d+)\]/.exec(await row.innerText());
  if (!m) throw new Error(`no position in the Problems row "${await row.innerText()}"`);
  await palette(page, 'Go to Line/Column...');
  await inputBox(page, `:${m[1]}:${m[2]}`);
  const selection = page.locator('.statusbar-item[id="status.editor.selection"]');
  await waitUntil(async () => (await selection.innerText()).startsWith(`Ln ${m[1]}, Col ${m[2]}`), { timeout: scaled(10000), what: async () => `the cursor at Ln ${m[1]}, Col ${m[2]} (status: ${await selection.innerText().catch(() => '')})` });
}

/**
 * Opens the editor's code action menu (Ctrl+., as the light bulb does) at the cursor and picks `title`.
 * On a busy machine the actions may not be computed at the first press: it tries a few times.
 */
export async function quickFix(t, title) {
  const item = t.page.locator('.action-widget .monaco-list-row', { hasText: title }).first();
  for (let attempt = 1; ; attempt++) {
    await t.page.keyboard.press('ControlOrMeta+.');
    try {
      await item.waitFor({ timeout: scaled(5000) });
      break;
    } catch (e) {
      if (attempt >= 4) throw e;
      await t.page.keyboard.press('Escape');
    }
  }
  await t.screenshot('40-editing-quick-fix-menu');
  await item.click();
}

export default async function (t) {
  const { page } = t;
  const file = path.join(t.workspace, FILE);
  writeFileSync(file, TEXT);

  try {
    await t.check('an invalid commands file shows squiggles from Canton Ledger', async () => {
      await page.keyboard.press('F1');
      const box = page.locator('.quick-input-widget input');
      await box.fill(FILE);
      await page.locator('#quickInput_list [role="option"]', { hasText: FILE }).first().click({ timeout: scaled(10000) });
      await page.locator('.tabs-container [role="tab"][aria-label^="ui-editing.commands.json"]').first().waitFor({ timeout: scaled(15000) });
      // The missing commandId (an error) and the deprecated applicationId (a warning, shown faded too).
      await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: scaled(15000) });
      await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ timeout: scaled(15000) });
    });

    await t.check('Canton ids are coloured apart from plain strings (injection grammar)', async () => {
      const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines');
      // Monaco renders each token as a span whose mtkN class is its colour.
      const colourOf = async (text) => (await lines.locator('span > span', { hasText: text }).first().getAttribute('class', { timeout: scaled(5000) })) ?? '';
      const plain = await colourOf('ui-app');
      const party = await colourOf('Alice');
      const pkg = await colourOf('#demo-iou');
      if (!plain || party === plain || pkg === plain) throw new Error(`classes: plain string ${plain}, party hint ${party}, package name ${pkg}`);
    });

    await t.check('the Problems panel lists them with their source and code', async () => {
      await page.keyboard.press('ControlOrMeta+Shift+M');
      const missing = problemRows(page).filter({ hasText: 'Missing required field "commandId"' }).first();
      await missing.waitFor({ timeout: scaled(15000) });
      const text = await missing.innerText();
      if (!/Canton Ledger/.test(text) || !/missing-command-id/.test(text)) throw new Error(`the Problems row reads "${text}"`);
      await problemRows(page).filter({ hasText: '"applicationId" is the pre-Canton-3 name' }).first().waitFor({ timeout: scaled(5000) });
    });

    await t.check('Ctrl+. on the problem offers and applies the quick fix', async () => {
      await cursorToProblem(page, 'Missing required field "commandId"');
      await quickFix(t, 'Set "commandId" to a fresh UUID');
      await t.waitUntil(async () => /"commandId": "[0-9a-f-]{36}"/.test(await editorText(page)), { timeout: scaled(10000), what: 'a commandId in the editor' });
      await t.waitUntil(async () => (await page.locator('.monaco-editor .squiggly-error').count()) === 0, { timeout: scaled(10000), what: 'the error squiggle gone' });

      await cursorToProblem(page, '"applicationId" is the pre-Canton-3 name');
      await quickFix(t, 'Rename "applicationId" to "userId"');
      await t.waitUntil(async () => (await editorText(page)).includes('"userId": "ui-app"'), { timeout: scaled(10000), what: 'the field renamed' });
      // Left: only the note that the Daml arguments were not checked (no participant, no .dar here).
      const ours = () => problemRows(page).filter({ hasText: 'Canton Ledger' });
      await t.waitUntil(async () => (await ours().count()) === 1 && /arguments-unchecked/.test(await ours().first().innerText()), {
        timeout: scaled(10000),
        what: async () => `only the arguments-unchecked note left (rows: ${JSON.stringify(await ours().allInnerTexts())})`,
      });
    });
  } finally {
    // Leave the workbench as it was: the file closed without saving, and gone.
    await t.palette('View: Revert and Close Editor').catch(() => {});
    await page.keyboard.press('Escape').catch(() => {});
    rmSync(file, { force: true });
  }
}
