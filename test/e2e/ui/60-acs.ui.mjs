// The Active Contracts view as a person uses it against the demo participant: contracts grouped by
// template with counts, a contract expanded to its arguments, its context menu, the set at an earlier
// offset and back, and Exercise… (choice and party picked) opening a commands file with the command.
import { expand, menu, shot } from './20-connections.ui.mjs';
import { closeAllEditors } from './50-submit.ui.mjs';
import { editorText, problemRows } from './40-editing.ui.mjs';
import { scaled } from './lib.mjs';

const PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="Active Contracts"])';

function rowsAt(t, level) {
  return t.page.locator(`${PANE} [role="treeitem"][aria-level="${level}"]`);
}

async function labels(t, level) {
  return rowsAt(t, level).evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
}

export default async function (t) {
  const { page } = t;
  let startedDemo = false;
  const iouGroup = () => rowsAt(t, 1).filter({ hasText: 'demo-iou:Iou:Iou' }).first();
  const firstContract = () => rowsAt(t, 2).first();
  try {
    await t.check('the Active Contracts view groups the demo participant\'s contracts by template, with counts', async () => {
      startedDemo = await t.startDemo();
      await t.palette('Canton Ledger: Focus on Active Contracts View');
      await t.onlyPaneExpanded('Active Contracts');
      await t.waitUntil(async () => {
        const top = await labels(t, 1);
        return top.some((l) => /^demo-iou:Iou:Iou, \d+ active/.test(l)) && top.some((l) => /^demo-asset:Asset:Asset, \d+ active/.test(l));
      }, { timeout: scaled(30000), what: async () => `the Iou and Asset groups (rows: ${JSON.stringify(await labels(t, 1))})` });
      const description = await page.locator('.part.sidebar .pane-header[aria-label^="Active Contracts"] .description').first().innerText().catch(() => '');
      if (!/^at offset \d+ \(ledger end\)/.test(description)) throw new Error(`the view's description reads "${description}"`);
      await t.screenshot('60-acs-groups');
    });

    await t.check('a contract shows its stakeholders and offset, and expands to its create arguments', async () => {
      await expand(iouGroup());
      await firstContract().waitFor({ timeout: scaled(10000) });
      const label = await firstContract().getAttribute('aria-label');
      if (!/signatories Bank · observers .+ · offset \d+$/.test(label)) throw new Error(`the contract row reads "${label}"`);
      await expand(firstContract());
      await t.waitUntil(async () => {
        const args = await labels(t, 3);
        return ['issuer', 'owner', 'currency', 'amount'].every((f) => args.some((l) => l.startsWith(`${f}, `)));
      }, { timeout: scaled(10000), what: async () => `the argument rows (got ${JSON.stringify(await labels(t, 3))})` });
      await t.screenshot('60-acs-contract-expanded');
    });

    await t.check('the context menu of a contract offers Exercise…, Show Contract Events… and Copy Contract ID', async () => {
      await firstContract().click({ button: 'right' });
      const items = page.locator('.context-view .monaco-menu [role="menuitem"]').filter({ hasText: /\S/ });
      await items.first().waitFor({ timeout: scaled(10000) });
      const shown = (await items.allInnerTexts()).map((s) => s.split('\n')[0].trim());
      for (const want of ['Exercise…', 'Show Contract Events…', 'Copy Contract ID', 'Open JSON']) {
        if (!shown.includes(want)) throw new Error(`the menu lacks "${want}": ${JSON.stringify(shown)}`);
      }
      // Animations off: the menu fades in.
      await shot(t, '60-acs-context-menu');
      await page.keyboard.press('Escape');
    });

    await t.check('the view\'s Filter is the Updates filter', async () => {
      await t.palette('Canton Ledger: Filter Active Contracts (Shared with Updates)…');
      await page.locator('.quick-input-widget', { hasText: 'Updates Filter' }).first().waitFor({ timeout: scaled(10000) });
      await page.locator('#quickInput_list [role="option"]', { hasText: 'Templates' }).first().waitFor({ timeout: scaled(10000) });
      await page.keyboard.press('Escape');
    });

    await t.check('"Show at Offset…" shows the set at an earlier offset; the title action brings back the ledger end', async () => {
      await t.palette('Canton Ledger: Show Active Contracts at Offset…');
      await t.inputBox('5', { prompt: 'offset' });
      const header = page.locator('.part.sidebar .pane-header[aria-label^="Active Contracts"] .description').first();
      await t.waitUntil(async () => /^at offset 5 · /.test(await header.innerText()), { timeout: scaled(15000), what: async () => `"at offset 5" (got "${await header.innerText().catch(() => '')}")` });
      await t.palette('Canton Ledger: Show Active Contracts at the Ledger End');
      await t.waitUntil(async () => /\(ledger end\)/.test(await header.innerText()), { timeout: scaled(15000), what: 'the ledger end again' });
    });

    await t.check('Exercise… on a contract asks for the choice (with signatures) and the party, then opens the commands file', async () => {
      await expand(iouGroup());
      await firstContract().waitFor({ timeout: scaled(10000) });
      const contractLabel = await firstContract().getAttribute('aria-label');
      await menu(firstContract(), 'Exercise…');
      await page.locator('#quickInput_list [role="option"]', { hasText: 'Iou_Transfer → ContractId Iou' }).first().waitFor({ timeout: scaled(15000) });
      await t.quickPick('Iou_Transfer');
      // The owner (an observer) controls Iou_Transfer.
      await t.quickPick('observer');
      await t.waitUntil(async () => {
        const text = await editorText(page);
        return text.includes('"ExerciseCommand"') && text.includes('"choice": "Iou_Transfer"') && text.includes('"newOwner"');
      }, { timeout: scaled(15000), what: async () => `the commands file with the ExerciseCommand (editor: ${JSON.stringify((await editorText(page)).slice(0, 300))})` });
      const shortId = contractLabel.split(',')[0].split('…')[0];
      if (!(await editorText(page)).includes(`"contractId": "${shortId}`)) throw new Error(`the file does not exercise ${shortId}…`);
      await t.screenshot('60-acs-exercise-file');
      // Complete and valid against the participant's packages: the editor reports no problem in it.
      await page.keyboard.press('ControlOrMeta+Shift+M');
      const ours = () => problemRows(page).filter({ hasText: 'Canton Ledger' });
      await page.locator('.part.panel .markers-panel, .part.panel [id="workbench.panel.markers"]').first().waitFor({ timeout: scaled(10000) });
      await t.waitUntil(async () => (await ours().count()) === 0, { timeout: scaled(15000), what: async () => `no Canton Ledger problem (rows: ${JSON.stringify(await problemRows(page).allInnerTexts())})` });
      await t.screenshot('60-acs-exercise-problems');
      await page.keyboard.press('ControlOrMeta+Shift+M');
    });
  } finally {
    await leaveActiveContracts(t, startedDemo);
  }
}

/** What a check of the Active Contracts view leaves behind: its editors closed, the other panes open again, the demo stopped if it started it. */
export async function leaveActiveContracts(t, startedDemo) {
  await t.palette('View: Revert and Close Editor').catch(() => {});
  await closeAllEditors(t).catch(() => {});
  await t.page.keyboard.press('Escape').catch(() => {});
  await t.setPaneExpanded('Connections', true).catch(() => {});
  await t.setPaneExpanded('Updates', true).catch(() => {});
  if (startedDemo) await t.stopDemo().catch(() => {});
}
