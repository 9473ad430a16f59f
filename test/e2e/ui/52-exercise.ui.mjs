// Exercise… preselects the choice's controller: on an Iou of the demo participant (signed by Bank, owned
// by another party), Iou_Transfer's party picker highlights the owner, whom the package names as its
// controller, not the signatory; Enter writes a file that acts as the owner and transfers to another party.
import { expand, menu, shot } from './20-connections.ui.mjs';
import { editorText } from './40-editing.ui.mjs';
import { leaveActiveContracts } from './60-acs.ui.mjs';
import { scaled } from './lib.mjs';

const PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="Active Contracts"])';

export default async function (t) {
  const { page } = t;
  let startedDemo = false;
  const rows = (level) => page.locator(`${PANE} [role="treeitem"][aria-level="${level}"]`);
  // A contract Bank signs and someone else owns (observes): Iou_Transfer is the owner's to exercise.
  const ownedIou = () => rows(2).filter({ hasText: /signatories Bank · observers (?!Bank)/ }).first();
  try {
    await t.check("Exercise… Iou_Transfer: the party picker highlights the controller (the Iou's owner), not the signatory", async () => {
      startedDemo = await t.startDemo();
      await t.palette('Canton Ledger: Focus on Active Contracts View');
      await t.onlyPaneExpanded('Active Contracts');
      const iouGroup = rows(1).filter({ hasText: 'demo-iou:Iou:Iou' }).first();
      await iouGroup.waitFor({ timeout: scaled(30000) });
      await expand(iouGroup);
      await ownedIou().waitFor({ timeout: scaled(15000) });
      const owner = /observers ([^,·]+?)(?:,| ·)/.exec((await ownedIou().getAttribute('aria-label')) ?? '')?.[1]?.trim();
      if (!owner) throw new Error(`no owner in the row "${await ownedIou().getAttribute('aria-label')}"`);
      await menu(ownedIou(), 'Exercise…');
      await page.locator('#quickInput_list [role="option"]', { hasText: 'Iou_Transfer → ContractId Iou' }).first().waitFor({ timeout: scaled(15000) });
      await t.quickPick('Iou_Transfer');
      // The party picker: its placeholder names the controller, and its highlighted item is the owner.
      const input = page.locator('.quick-input-widget input').first();
      await t.waitUntil(async () => /controlled by the contract's owner: preselected/.test((await input.getAttribute('placeholder')) ?? ''), {
        timeout: scaled(15000),
        what: async () => `the party picker naming the controller (placeholder: "${await input.getAttribute('placeholder').catch(() => '')}")`,
      });
      const focused = page.locator('#quickInput_list [role="option"].focused');
      const focusedLabel = await t.waitUntil(async () => {
        const label = (await focused.first().getAttribute('aria-label', { timeout: 1000 })) ?? '';
        return label.includes(owner) && /controller/.test(label) ? label : undefined;
      }, { timeout: scaled(10000), what: async () => `the owner ${owner} highlighted as the controller (highlighted: "${await focused.first().getAttribute('aria-label').catch(() => 'none')}")` });
      await shot(t, '52-exercise-controller-preselected');
      // Enter takes the highlighted party: the file acts as the owner and transfers the Iou to another party.
      await page.keyboard.press('Enter');
      // The item's detail is the full party id (its label the short form).
      const ownerId = [...focusedLabel.matchAll(/[^\s,]+::1220[0-9a-f]+/g)].map((m) => m[0]).sort((a, b) => b.length - a.length)[0];
      if (!ownerId) throw new Error(`no party id in the highlighted item "${focusedLabel}"`);
      const text = await t.waitUntil(async () => {
        const shown = await editorText(page);
        return shown.includes('"choice": "Iou_Transfer"') && shown.includes('"newOwner"') ? shown : undefined;
      }, { timeout: scaled(15000), what: async () => `the commands file (editor: ${JSON.stringify((await editorText(page)).slice(0, 300))})` });
      const compact = text.replace(/\s+/g, '');
      if (!compact.includes(`"actAs":["${ownerId}"]`)) throw new Error(`the file does not act as ${ownerId}: ${text}`);
      const newOwner = /"newOwner":"([^"]+)"/.exec(compact)?.[1];
      if (!newOwner || newOwner === ownerId) throw new Error(`the file transfers the Iou to "${newOwner}", the actor itself`);
      await t.screenshot('52-exercise-file');
    });
  } finally {
    await leaveActiveContracts(t, startedDemo);
  }
}
