// Vetting a package like a user: the CodeLens dry run and its diff document, and Apply from the
// explorer's context menu with its confirmation dialog showing the diff (cancelled: nothing changes).
import { writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { closeAllEditors, codeLens } from './50-submit.ui.mjs';
import { previewShows } from './70-ux.ui.mjs';
import { scaled } from './lib.mjs';

const FILE = 'ui-upgrade.vetting.json';

export default async function (t) {
  const file = path.join(t.workspace, FILE);
  writeFileSync(file, JSON.stringify({ changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }] }, null, 2) + '\n');
  let startedDemo = false;
  const row = () => t.page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${FILE}"]`).first();

  await t.check('the CodeLens "Dry Run on Demo" shows the vetting diff past → new as a document', async () => {
    startedDemo = await t.startDemo();
    await t.openFile(path.join(t.workspace, FILE));
    const lens = codeLens(t, 'Dry Run on Demo');
    await lens.waitFor({ timeout: scaled(15000) });
    if (!(await codeLens(t, 'Apply on Demo').isVisible())) throw new Error('no "Apply on Demo" CodeLens');
    await lens.click();
    await t.toast(/^Dry run of ui-upgrade\.vetting\.json on Demo: 1 added \(topology serial \d+ → \d+\)\. Nothing was changed\.$/).waitFor({ timeout: scaled(20000) });
    // The report opens rendered (a Markdown preview).
    await t.waitUntil(async () => (await previewShows(t.page, /^Dry run of ui-upgrade\.vetting\.json: nothing was changed$/)) && (await previewShows(t.page, /^Added$/, 'h2')), {
      timeout: scaled(10000),
      what: 'the diff document',
    });
    await t.screenshot('55-vetting-diff-document');
  });

  await t.check('Apply from the explorer context menu asks for confirmation with the diff; Cancel applies nothing', async () => {
    await t.palette('View: Show Explorer');
    await row().waitFor({ timeout: scaled(15000) });
    await t.contextMenu(row(), 'Apply Vetting Changes');
    const dialog = t.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: scaled(20000) });
    const text = await dialog.innerText();
    if (!/Apply the vetting changes of ui-upgrade\.vetting\.json to Demo\?/.test(text) || !/\+ demo-iou 2\.0\.0/.test(text)) throw new Error(`dialog reads: ${text}`);
    await t.screenshot('55-vetting-apply-confirmation');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached', timeout: scaled(10000) });
  });

  await t.check('cleanup: editors closed, toasts cleared, the file removed', async () => {
    await closeAllEditors(t);
    await t.palette('Notifications: Clear All Notifications');
    if (startedDemo) await t.stopDemo();
    rmSync(file, { force: true });
  });
}
