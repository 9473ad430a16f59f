// Completing a Daml field as a person does, against the demo participant: on a new line after the last
// field (no comma typed), the accepted completion adds the comma the JSON needs, and the value it
// inserts is a marked placeholder that the Problems panel flags until it is typed over.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cursorToProblem, editorText, problemRows } from './40-editing.ui.mjs';
import { closeAllEditors } from './50-submit.ui.mjs';
import { DEMO_ALICE as ALICE, scaled } from './lib.mjs';

const FILE = 'ui-completions.commands.json';
// Line 9 is the last field of createArguments: the check adds "currency", the one missing, on a new line after it.
const TEXT = `{
  "commandId": "ui-completions-1",
  "actAs": ["${ALICE}"],
  "commands": [
    {"CreateCommand": {"templateId": "#demo-iou:Iou:Iou", "createArguments": {
      "issuer": "${ALICE}",
      "owner": "${ALICE}",
      "observers": [],
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
    await t.check('a field completion accepted after the last field adds the comma the JSON needs', async () => {
      startedDemo = await t.startDemo();
      await t.openFile(file);
      await page.keyboard.press('ControlOrMeta+Shift+M');
      // The packages are read: the missing fields are reported with their Daml types.
      await ours().filter({ hasText: 'Missing field "currency" (Text)' }).first().waitFor({ timeout: scaled(20000) });
      await t.palette('Go to Line/Column...');
      await t.inputBox(':9');
      await t.waitUntil(async () => /Ln 9,/.test(await page.locator('.statusbar-item[id="status.editor.selection"]').innerText().catch(() => '')), { timeout: scaled(5000), what: 'the cursor on line 9' });
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      // The field's own row, not the one that fills every missing field.
      const suggestion = page.locator('.suggest-widget .monaco-list-row').filter({ hasText: 'currency' }).filter({ hasNotText: /All \d+ fields/ }).first();
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('Control+Space');
        if (await suggestion.waitFor({ timeout: scaled(5000) }).then(() => true, () => false)) break;
        if (attempt >= 3) throw new Error('no "currency" among the suggestions');
        await page.keyboard.press('Escape');
      }
      await t.screenshot('42-completions-suggestion');
      await suggestion.click();
      // (The rendered lines are not in document order: each is looked for on its own.)
      await t.waitUntil(async () => {
        const text = await editorText(page);
        return ['"amount": "12.50",', '"currency": "<Text>"'].every((line) => text.includes(line));
      }, {
        timeout: scaled(10000),
        what: async () => `the field inserted with the comma before it (editor: ${await editorText(page)})`,
      });
      await page.keyboard.press('Escape');
    });

    await t.check('the inserted value is a placeholder the Problems panel flags, and no syntax error shows', async () => {
      const placeholder = ours().filter({ hasText: 'Fill in this Text: "<Text>" is a placeholder' }).first();
      await placeholder.waitFor({ timeout: scaled(15000) });
      // The Missing-field problem went with the insertion; VS Code's JSON support finds nothing to say about the syntax.
      await t.waitUntil(async () => (await ours().filter({ hasText: 'Missing field' }).count()) === 0, { timeout: scaled(10000), what: 'the missing field no longer reported' });
      const rows = await problemRows(page).allInnerTexts();
      if (rows.some((r) => /Expected comma|Expected ','|json-syntax/.test(r))) throw new Error(`a syntax error is listed: ${JSON.stringify(rows)}`);
      await t.screenshot('42-completions-placeholder-flagged');
    });

    await t.check('typing a value over the placeholder clears it', async () => {
      // The placeholder (the last value of its line) selected from the Problems row's position, deleted,
      // then typed over (a quote typed on a selection would surround it).
      await cursorToProblem(page, 'is a placeholder');
      await page.keyboard.press('Shift+End');
      await page.keyboard.press('Delete');
      await page.keyboard.type('"USD"');
      await t.waitUntil(async () => (await editorText(page)).includes('"currency": "USD"'), { timeout: scaled(10000), what: 'the value typed' });
      await t.waitUntil(async () => (await ours().count()) === 0, { timeout: scaled(15000), what: async () => `no Canton Ledger problem left (rows: ${JSON.stringify(await ours().allInnerTexts())})` });
      await t.screenshot('42-completions-filled');
    });
  } finally {
    await t.palette('View: Revert and Close Editor').catch(() => {});
    await closeAllEditors(t).catch(() => {});
    await page.keyboard.press('Escape').catch(() => {});
    if (startedDemo) await t.stopDemo().catch(() => {});
    rmSync(file, { force: true });
  }
}
