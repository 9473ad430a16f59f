// The ledger's own Daml types in the editor, as a person sees them against the demo participant (its
// packages are real Daml-LF): a misspelt field and a wrong value kind marked with their Daml types, the
// hover with a field's type, completions of the missing field, quick fixes; the Packages view.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cursorToProblem, editorText, problemRows, quickFix } from './40-editing.ui.mjs';
import { closeAllEditors } from './50-submit.ui.mjs';
import { DEMO_ALICE as ALICE, scaled } from './lib.mjs';

const FILE = 'ui-daml.commands.json';
// Line 10 is the last field of createArguments: the completion check adds the missing one after it.
const TEXT = `{
  "commandId": "ui-daml-1",
  "actAs": ["${ALICE}"],
  "commands": [
    {"CreateCommand": {"templateId": "#demo-iou:Iou:Iou", "createArguments": {
      "issuer": "${ALICE}",
      "ownr": "${ALICE}",
      "currency": 5,
      "amount": "12.50"
    }}}
  ]
}
`;

export default async function (t) {
  const { page } = t;
  const file = path.join(t.workspace, FILE);
  writeFileSync(file, TEXT);
  let startedDemo = false;
  const ours = () => problemRows(page).filter({ hasText: 'Canton Ledger' });
  try {
    await t.check('against the demo participant\'s packages, a misspelt field, a missing one and a wrong kind are marked with their Daml types', async () => {
      startedDemo = await t.startDemo();
      await t.openFile(path.join(t.workspace, FILE));
      await page.keyboard.press('ControlOrMeta+Shift+M');
      await ours().filter({ hasText: 'Iou has no field "ownr": did you mean "owner"?' }).first().waitFor({ timeout: scaled(20000) });
      await ours().filter({ hasText: 'Expected Text' }).first().waitFor({ timeout: scaled(5000) });
      await ours().filter({ hasText: 'Missing field "observers" ([Party])' }).first().waitFor({ timeout: scaled(5000) });
      await t.screenshot('45-daml-diagnostics');
    });

    await t.check('hovering a field shows its Daml type', async () => {
      await page.locator('.editor-group-container.active').first().click({ position: { x: 200, y: 10 } });
      const key = page.locator('.editor-group-container.active .view-lines span', { hasText: '"currency"' }).first();
      await key.hover();
      const hover = page.locator('.monaco-hover', { hasText: 'currency : Text' }).first();
      await hover.waitFor({ timeout: scaled(10000) });
      await t.screenshot('45-daml-hover');
      await page.mouse.move(5, 5);
    });

    await t.check('Ctrl+. renames the misspelt field to the closest one', async () => {
      await cursorToProblem(page, 'has no field "ownr"');
      await quickFix(t, 'Rename "ownr" to "owner"');
      await t.waitUntil(async () => (await editorText(page)).includes('"owner": '), { timeout: scaled(10000), what: 'the field renamed' });
    });

    await t.check('completion offers the missing field with its Daml type and inserts a valid value', async () => {
      // Ctrl+G's box starts with ':' (line mode); the cursor then goes to the end of line 9.
      await t.palette('Go to Line/Column...');
      await t.inputBox(':9');
      await t.waitUntil(async () => /Ln 9,/.test(await page.locator('.statusbar-item[id="status.editor.selection"]').innerText().catch(() => '')), { timeout: scaled(5000), what: 'the cursor on line 9' });
      await page.keyboard.press('End');
      await page.keyboard.type(',');
      await page.keyboard.press('Enter');
      const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: 'observers' }).first();
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('Control+Space');
        if (await suggestion.waitFor({ timeout: scaled(5000) }).then(() => true, () => false)) break;
        if (attempt >= 3) throw new Error('no "observers" among the suggestions');
        await page.keyboard.press('Escape');
      }
      if (!/\[Party\]/.test(await suggestion.innerText())) throw new Error(`the suggestion reads "${await suggestion.innerText()}"`);
      await t.screenshot('45-daml-completion');
      await suggestion.click();
      await t.waitUntil(async () => /"observers": \[\]/.test(await editorText(page)), { timeout: scaled(10000), what: 'the inserted field' });
      await page.keyboard.press('Escape');
    });

    await t.check('Ctrl+. quotes the number written for a Text; no Daml problem is left', async () => {
      await cursorToProblem(page, 'Expected Text');
      await quickFix(t, 'Write 5 as a string');
      await t.waitUntil(async () => (await editorText(page)).includes('"currency": "5"'), { timeout: scaled(10000), what: 'the number quoted' });
      await t.waitUntil(async () => (await ours().count()) === 0, { timeout: scaled(15000), what: async () => `no Canton Ledger problem left (rows: ${JSON.stringify(await ours().allInnerTexts())})` });
    });

    await t.check('the Packages view lists the participant\'s packages, their templates and choices with signatures', async () => {
      await t.palette('Canton Ledger: Focus on Packages View');
      // A tree renders only the rows that fit in its pane: the Packages pane gets the side bar.
      await t.onlyPaneExpanded('Packages');
      const pkg = t.treeItem(/^demo-iou 2\.0\.0/);
      await pkg.waitFor({ timeout: scaled(20000) });
      await pkg.click();
      await page.keyboard.press('ArrowRight');
      const template = t.treeItem(/^Iou, 5 fields/);
      await template.waitFor({ timeout: scaled(10000) });
      await template.click();
      await page.keyboard.press('ArrowRight');
      const issuer = t.treeItem(/^issuer, Party/);
      await issuer.waitFor({ timeout: scaled(10000) });
      await issuer.click();
      const focused = page.locator('.part.sidebar .pane:has(.pane-header[aria-label^="Packages"]) [role="treeitem"].focused');
      // Down to the choices below the fields.
      await t.waitUntil(async () => {
        if (/^Iou_Transfer, Iou_Transfer → ContractId Iou/.test((await focused.getAttribute('aria-label', { timeout: 1000 }).catch(() => '')) ?? '')) return true;
        await page.keyboard.press('ArrowDown');
        return false;
      }, { timeout: scaled(15000), what: async () => `the Iou_Transfer choice row (focused: ${await focused.getAttribute('aria-label').catch(() => 'none')})` });
      await t.screenshot('45-daml-packages-view');
    });
  } finally {
    await t.palette('View: Revert and Close Editor').catch(() => {});
    await closeAllEditors(t).catch(() => {});
    await page.keyboard.press('Escape').catch(() => {});
    if (startedDemo) await t.stopDemo().catch(() => {});
    rmSync(file, { force: true });
  }
}
