// Why did it fail: the transfer of an Iou that is archived already (the demo ledger's seeded transfer
// consumed it) is rejected with CONTRACT_NOT_FOUND; the contract id is marked in the file with the code,
// the Failed Commands view lists the command, and Go to Cause opens the file at the mark again.
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeAllEditors, codeLens } from './50-submit.ui.mjs';
import { scaled } from './lib.mjs';

const FILE = 'ui-failed-transfer.commands.json';
const PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="Failed Commands"])';
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The demo ledger's archived Iou that Alice owned, and the parties: the extension's demo participant is
 * seeded with the same seed, so a participant started here from the same bundle has the same ids.
 */
export async function seededArchivedIou() {
  const { startDemoParticipant } = createRequire(import.meta.url)(path.join(REPO, 'dist/participant.js'));
  const p = await startDemoParticipant({ port: 0, seed: 1 });
  try {
    const { alice, bob } = p.parties;
    const iou = [...p.state.contracts.values()].find((c) => c.archivedOffset !== undefined && c.template.id.endsWith(':Iou:Iou') && c.argument.owner === alice);
    if (!iou) throw new Error('the seeded ledger has no archived Iou of Alice');
    return { contractId: iou.contractId, alice, bob };
  } finally {
    await p.close();
  }
}

export default async function (t) {
  const { page } = t;
  const file = path.join(t.workspace, FILE);
  const commandId = `ui-failed-${Date.now()}`;
  let startedDemo = false;
  let contractId = '';
  let parties = {};
  const pagesFile = path.join(t.workspace, 'ui-failed-pages.commands.json');
  const squiggle = () => page.locator('.editor-group-container.active .monaco-editor .squiggly-error').first();
  const row = () => page.locator(`${PANE} [role="treeitem"]`, { hasText: commandId }).first();

  try {
    await t.check('a transfer of an archived Iou is rejected: CONTRACT_NOT_FOUND, its contract id marked in the file', async () => {
      const seeded = await seededArchivedIou();
      contractId = seeded.contractId;
      parties = seeded;
      writeFileSync(
        file,
        JSON.stringify(
          { commands: [{ ExerciseCommand: { templateId: '#demo-iou:Iou:Iou', contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner: seeded.bob } } }], commandId, actAs: [seeded.alice], userId: 'demo-admin' },
          null,
          2,
        ) + '\n',
      );
      startedDemo = await t.startDemo();
      await t.hidePanel();
      await t.openFile(file);
      const lens = codeLens(t, 'Submit to Demo');
      await lens.waitFor({ timeout: scaled(15000) });
      await lens.click();
      await squiggle().waitFor({ state: 'attached', timeout: scaled(20000) });
      // The mark carries the Canton code: the editor's problem navigation shows it, on the contract id's line.
      await t.palette('Go to Next Problem (Error, Warning, Info)');
      await page.locator('.marker-widget', { hasText: 'CONTRACT_NOT_FOUND' }).first().waitFor({ timeout: scaled(15000) });
      await page.locator('.statusbar-item', { hasText: /Ln 6, Col \d+/ }).first().waitFor({ timeout: scaled(15000) });
      await t.screenshot('80-failed-marked');
      await page.keyboard.press('Escape');
    });

    await t.check('the Failed Commands view lists it; Go to Cause opens the file with the contract id marked', async () => {
      await t.palette('Canton Ledger: Focus on Failed Commands View');
      await t.onlyPaneExpanded('Failed Commands');
      await row().waitFor({ timeout: scaled(20000) });
      const label = (await row().getAttribute('aria-label')) ?? '';
      if (!label.includes('CONTRACT_NOT_FOUND')) throw new Error(`the row does not name the code: "${label}"`);
      // The participant's backlog read: the rows stand in their order (a right-click while they are
      // inserted would land on another row).
      await page.locator(`${PANE} [role="treeitem"]`, { hasText: 'up to date' }).first().waitFor({ timeout: scaled(20000) });
      await t.screenshot('80-failed-view');
      await closeAllEditors(t);
      await t.contextMenu(row(), 'Go to Cause');
      await page.locator('.tabs-container [role="tab"].active', { hasText: FILE }).first().waitFor({ timeout: scaled(15000) });
      await squiggle().waitFor({ state: 'attached', timeout: scaled(15000) });
      // The selection is the contract id: the status bar counts its characters (the id and its quotes).
      const selected = page.locator('.statusbar-item', { hasText: `(${contractId.length + 2} selected)` }).first();
      await selected.waitFor({ timeout: scaled(15000) });
      await t.screenshot('80-failed-go-to-cause');
    });

    await t.check('a paged view: Read From… an offset shows the newest completions, Load more the older ones', async () => {
      // Two completions of one command: it commits at offset N, and sent again it is rejected as a duplicate at N + 1.
      const pagedId = `ui-failed-pages-${Date.now()}`;
      writeFileSync(pagesFile, JSON.stringify({ commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: parties.alice, owner: parties.alice, currency: 'EUR', amount: '1.00', observers: [] } } }], commandId: pagedId, actAs: [parties.alice], userId: 'demo-admin' }, null, 2) + '\n');
      await closeAllEditors(t);
      await t.openFile(pagesFile);
      const lens = codeLens(t, 'Submit to Demo');
      await lens.waitFor({ timeout: scaled(15000) });
      await lens.click();
      const summary = t.toast(/^Transaction \S+ at offset \d+: 1 created \(traffic cost: paid [\d,]+ bytes\)$/);
      await summary.waitFor({ timeout: scaled(20000) });
      const committedAt = Number((await summary.innerText()).match(/at offset (\d+)/)[1]);
      await t.palette('Notifications: Clear All Notifications');
      await lens.click();
      await t.toast(`Already executed: commandId "${pagedId}"`).waitFor({ timeout: scaled(20000) });
      await t.palette('Notifications: Clear All Notifications');
      await closeAllEditors(t);

      await t.palette('Canton Ledger: Focus on Failed Commands View');
      await t.palette('Canton Ledger: Show or Hide Succeeded Commands');
      await t.palette('Canton Ledger: Failed Commands: Read From…');
      await t.quickPick('An offset…');
      await t.inputBox(String(committedAt), { prompt: 'The completions after this offset' });
      const rowsOf = (text) => page.locator(`${PANE} [role="treeitem"]`, { hasText: pagedId }).filter({ hasText: text });
      const more = page.locator(`${PANE} [role="treeitem"]`, { hasText: 'Load more' }).first();
      // The first page: the duplicate only; its command's commit is older, a Load more away.
      await rowsOf('DUPLICATE_COMMAND').first().waitFor({ timeout: scaled(20000) });
      await more.waitFor({ timeout: scaled(20000) });
      if (await rowsOf('succeeded').count()) throw new Error('the commit before the offset read is on the first page');
      await t.screenshot('80-failed-paged');
      await more.click();
      await rowsOf('succeeded').first().waitFor({ timeout: scaled(20000) });
      await t.screenshot('80-failed-older-page');
      // Back to the view's defaults for the checks after this one.
      await t.palette('Canton Ledger: Show or Hide Succeeded Commands');
      await t.palette('Canton Ledger: Failed Commands: Read From…');
      await t.quickPick('The last 1000 offsets');
    });
  } finally {
    await t.check('cleanup: editors closed, toasts cleared, the file removed', async () => {
      await closeAllEditors(t);
      await t.palette('Notifications: Clear All Notifications');
      // A shown Failed Commands view reads completions; the next checks start without it.
      await t.palette('Canton Ledger: Focus on Failed Commands View');
      await t.setPaneExpanded('Failed Commands', false);
      if (startedDemo) await t.stopDemo();
      rmSync(file, { force: true });
      rmSync(pagesFile, { force: true });
    });
  }
}
