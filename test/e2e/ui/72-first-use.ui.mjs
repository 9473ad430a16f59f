// What a first-time user meets, like a user: New Commands File right after connecting offers the
// participant's templates (the picker waits for the packages), and a file submitted again as it is
// gets "Already executed" with New ID and Submit, which runs it once more under a fresh id.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { closeAllEditors, codeLens } from './50-submit.ui.mjs';
import { DEMO_ALICE as ALICE, DEMO_BANK as BANK, scaled } from './lib.mjs';

// The demo participant's seeded parties (fixed seed: the same ids as examples/demo-workspace).
const PICKED = 'first-use-picked.commands.json';
const AGAIN = 'first-use-again.commands.json';

/** The notification toast whose message contains `text`, with its buttons. */
function toastItem(t, text) {
  return t.page.locator('.notifications-toasts .notification-list-item', { hasText: text }).first();
}

export default async function (t) {
  const page = t.page;
  const picked = path.join(t.workspace, PICKED);
  const again = path.join(t.workspace, AGAIN);
  let startedDemo = false;

  await t.check('New Commands File right after connecting: the picker offers the participant\'s templates', async () => {
    rmSync(picked, { force: true });
    // A fresh connection: a demo an earlier check left running is started again (and left running).
    startedDemo = await t.startDemo();
    if (!startedDemo) {
      await t.stopDemo();
      await t.startDemo();
    }
    await t.palette('Canton Ledger: New Commands File');
    await t.waitForInput({ prompt: 'New Commands File (1/2)', timeout: scaled(30000) });
    const iou = page.locator('#quickInput_list [role="option"]', { hasText: '#demo-iou:Iou:Iou' }).first();
    await iou.waitFor({ timeout: scaled(30000) });
    await t.screenshot('72-first-use-template-picker');
    await iou.click();
    await t.waitForInput({ prompt: 'New Commands File (2/2)' });
    await t.quickPick('Create Iou');
    const name = page.locator('.quick-input-widget', { hasText: '.commands.json is added if missing' }).first();
    await name.waitFor({ timeout: scaled(10000) });
    await page.keyboard.type(PICKED.replace('.commands.json', ''));
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container [role="tab"]', { hasText: PICKED }).first().waitFor({ timeout: scaled(10000) });
    await t.waitUntil(async () => existsSync(picked), { what: `${PICKED} written` });
    const value = JSON.parse(readFileSync(picked, 'utf8'));
    if (value.commands?.[0]?.CreateCommand?.templateId !== '#demo-iou:Iou:Iou') throw new Error(`the file creates ${JSON.stringify(value.commands?.[0])}, not the picked template`);
    await closeAllEditors(t);
  });

  const commandId = `ui-first-use-${Date.now()}`;
  const text = JSON.stringify({ commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: BANK, owner: ALICE, currency: 'EUR', amount: '7.00', observers: [] } } }], commandId, actAs: [BANK], userId: 'demo-admin' }, null, 2) + '\n';

  await t.check('Submit again: "Already executed" offers New ID and Submit, which runs it under a fresh commandId', async () => {
    writeFileSync(again, text);
    await t.openFile(again);
    const lens = codeLens(t, 'Submit to Demo');
    await lens.waitFor({ timeout: scaled(15000) });
    await lens.click();
    await t.toast(/^Transaction \S+ at offset \d+: 1 created \(traffic cost: paid [\d,]+ bytes\)$/).waitFor({ timeout: scaled(20000) });
    await t.palette('Notifications: Clear All Notifications');
    await t.openFile(again);
    await codeLens(t, 'Submit to Demo').click();
    const executed = toastItem(t, `Already executed: commandId "${commandId}"`);
    const button = executed.locator('.monaco-button', { hasText: 'New ID and Submit' }).first();
    await button.waitFor({ timeout: scaled(20000) });
    // The picture once the toast has slid in (VS Code marks it so when its animation is done).
    await t.page.locator('.notifications-toasts .notification-fade-in-done', { hasText: 'Already executed' }).first().waitFor({ timeout: scaled(10000) });
    await t.screenshot('72-first-use-already-executed');
    await button.click();
    await t.toast(/^Transaction \S+ at offset \d+: 1 created \(traffic cost: paid [\d,]+ bytes\)$/).waitFor({ timeout: scaled(20000) });
    await t.waitUntil(async () => readFileSync(again, 'utf8') !== text, { what: `${AGAIN} saved with a new commandId` });
    const now = readFileSync(again, 'utf8');
    const fresh = JSON.parse(now).commandId;
    if (fresh === commandId || now !== text.replace(commandId, fresh)) throw new Error(`the file changed beyond its commandId:\n${now}`);
    await page.locator('.tabs-container [role="tab"]', { hasText: fresh }).first().waitFor({ timeout: scaled(10000) });
    await t.screenshot('72-first-use-new-command-id-submitted');
  });

  await t.check('cleanup: editors closed, toasts cleared, the files removed, the demo stopped if started here', async () => {
    await closeAllEditors(t);
    await t.palette('Notifications: Clear All Notifications');
    if (startedDemo) await t.stopDemo();
    rmSync(picked, { force: true });
    rmSync(again, { force: true });
  });
}
