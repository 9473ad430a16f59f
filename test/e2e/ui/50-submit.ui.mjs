// Submitting a commands file like a user: right-click in the explorer, the CodeLens at the top of the
// file, the result document and the summary toast, the Submissions view. Runs against the demo
// participant (started here, stopped again if it was not running before).
import { writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DEMO_ALICE as ALICE, DEMO_BANK as BANK, scaled } from './lib.mjs';

// The demo participant's seeded parties (fixed seed: the same ids as examples/demo-workspace).
const FILE = 'ui-submit.commands.json';

export function explorerRow(t, name) {
  return t.page.locator(`.explorer-folders-view .monaco-list-row[aria-label^="${name}"]`).first();
}

/**
 * The explorer row of a file at the workspace's root, brought into view: the explorer renders only the
 * rows that fit, and the in-host suites leave many files beside it. Opening the file makes the
 * explorer reveal it (explorer.autoReveal); the editor is closed again.
 */
export async function revealedExplorerRow(t, name) {
  await showExplorer(t);
  await t.openFile(path.join(t.workspace, name));
  const row = explorerRow(t, name);
  await row.waitFor({ timeout: scaled(15000) });
  await t.palette('View: Close Editor');
  await row.waitFor({ timeout: scaled(15000) });
  return row;
}

export async function showExplorer(t) {
  await t.palette('View: Show Explorer');
  await t.page.locator('.explorer-folders-view').first().waitFor({ timeout: scaled(10000) });
  // Files a check wrote just now are listed without waiting for the file watcher.
  await t.refreshExplorer();
}

export async function closeAllEditors(t) {
  await t.palette('View: Close All Editors');
  // An editor with unsaved changes (an untitled export a check opened) asks whether to save it when
  // closed, and the question blocks the rest of the workbench: its content was the check's to look at,
  // so it goes unsaved. The question may come late on a loaded machine: wait until no tab is left,
  // answering each question as it comes (a check after this one reads what it opens, not a tab left over).
  const dontSave = t.page.locator('.monaco-dialog-box').getByRole('button', { name: "Don't Save" }).first();
  const tabs = t.page.locator('.part.editor .tabs-container [role="tab"]');
  await t.waitUntil(
    async () => {
      if (await dontSave.isVisible().catch(() => false)) {
        await dontSave.click();
        return false;
      }
      return (await tabs.count()) === 0;
    },
    { timeout: scaled(15000), what: 'every editor closed (those with unsaved changes unsaved)' },
  );
}

/** The CodeLens whose text contains `text`, in the active editor. */
export function codeLens(t, text) {
  return t.page.locator('.monaco-editor .codelens-decoration a', { hasText: text }).first();
}

export default async function (t) {
  const file = path.join(t.workspace, FILE);
  const commandId = `ui-submit-${Date.now()}`;
  writeFileSync(
    file,
    JSON.stringify(
      { commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: BANK, owner: ALICE, currency: 'CHF', amount: '12.50', observers: [] } } }], commandId, actAs: [BANK], userId: 'demo-admin' },
      null,
      2,
    ) + '\n',
  );
  let startedDemo = false;

  await t.check('right-click a *.commands.json in the explorer: "Submit Commands to Participant" submits it; the summary toast and the result document show', async () => {
    startedDemo = await t.startDemo();
    const row = await revealedExplorerRow(t, FILE);
    await t.contextMenu(row, 'Submit Commands to Participant');
    const summary = t.toast(/^Transaction \S+ at offset \d+: 1 created \(traffic cost: paid [\d,]+ bytes\)$/);
    await summary.waitFor({ timeout: scaled(20000) });
    // The status bar follows the write: it shows the transaction's offset as the ledger end, no refresh.
    const offset = (await summary.innerText()).match(/at offset (\d+)/)[1];
    const status = t.page.locator('[id="canton-ledger-explorer.canton-ledger-explorer.cantonLedger.status"]');
    await t.waitUntil(async () => (await status.innerText()).trim() === `Demo @${offset}`, { what: async () => `the status bar to read "Demo @${offset}" (it reads "${(await status.innerText()).trim()}")` });
    const tab = t.page.locator('.tabs-container [role="tab"]', { hasText: commandId }).first();
    await tab.waitFor({ timeout: scaled(10000) });
    const text = await t.page.locator('.editor-group-container.active .monaco-editor .view-lines, .monaco-editor .view-lines').first().innerText();
    await t.waitUntil(async () => /"CreatedEvent"/.test(await t.page.locator('.monaco-editor .view-lines').allInnerTexts().then((a) => a.join('\n'))), {
      timeout: scaled(10000),
      what: `the result document to show a CreatedEvent (it shows ${text.slice(0, 200)})`,
    });
    await t.screenshot('50-submit-result-document');
  });

  await t.check('the submit entry is only in the context menu of *.commands.json files', async () => {
    const items = await t.contextMenuItems(await revealedExplorerRow(t, 'other.json'));
    if (items.includes('Submit Commands to Participant')) throw new Error(`other.json offers submit: ${items.join(', ')}`);
    const own = await t.contextMenuItems(await revealedExplorerRow(t, FILE));
    if (!own.includes('Submit Commands to Participant')) throw new Error(`${FILE} lacks submit: ${own.join(', ')}`);
  });

  await t.check('the CodeLens "Submit to Demo" at the top of the file submits again: "Already executed" (same commandId), with the first transaction', async () => {
    await closeAllEditors(t);
    await t.openFile(path.join(t.workspace, FILE));
    const lens = codeLens(t, 'Submit to Demo');
    await lens.waitFor({ timeout: scaled(15000) });
    await t.screenshot('50-submit-codelens');
    await lens.click();
    await t.toast(`Already executed: commandId "${commandId}"`).waitFor({ timeout: scaled(20000) });
  });

  await t.check('the Submissions view lists the submissions with their outcomes', async () => {
    await t.palette('Canton Ledger: Focus on Submissions View');
    const item = t.page.locator('.part.sidebar [role="treeitem"]', { hasText: FILE }).first();
    await item.waitFor({ timeout: scaled(10000) });
    await t.page.locator('.part.sidebar [role="treeitem"]', { hasText: 'already executed' }).first().waitFor({ timeout: scaled(10000) });
    await t.screenshot('50-submit-submissions-view');
  });

  await t.check('cleanup: editors closed, toasts cleared, the file removed', async () => {
    await closeAllEditors(t);
    await t.palette('Notifications: Clear All Notifications');
    if (startedDemo) await t.stopDemo();
    rmSync(file, { force: true });
  });
}
