// Previewing a commands file like a user: the "Preview" CodeLens, the read-only preview document (what
// would be created, exercised and archived, with informees, and "hash verified (V2)": the hash recomputed
// from the transaction), nothing on the ledger until "Submit now", whose result opens in the preview's
// column (two columns, never a third), a preview that then says it was submitted and opens the result,
// the preview beside the transaction it committed, and a refusal that says why and what to do. Runs against the demo participant.
import { writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { codeLens, closeAllEditors } from './50-submit.ui.mjs';
import { graphFrame } from './75-graph.ui.mjs';
import { DEMO_ALICE as ALICE, DEMO_BANK as BANK, scaled } from './lib.mjs';

// The demo participant's seeded parties (fixed seed: the same ids as examples/demo-workspace).
const FILE = 'ui-preview.commands.json';
const TWO_COMMANDS_FILE = 'ui-preview-two.commands.json';

const iou = (currency) => ({ issuer: BANK, owner: BANK, currency, amount: '7.25', observers: [] });

/** A CodeLens shown as a label (no command), in any visible editor. */
function lensLabel(t, text) {
  return t.page.locator('.monaco-editor .codelens-decoration', { hasText: text }).first();
}

const editorGroups = (t) => t.page.locator('.part.editor .editor-group-container').count();


export default async function (t) {
  const commandId = `ui-preview-${Date.now()}`;
  const write = (name, commands, id) =>
    writeFileSync(path.join(t.workspace, name), JSON.stringify({ commands, commandId: id, actAs: [BANK], userId: 'demo-admin' }, null, 2) + '\n');
  write(FILE, [{ CreateAndExerciseCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: iou('JPY'), choice: 'Iou_Transfer', choiceArgument: { newOwner: ALICE } } }], commandId);
  write(TWO_COMMANDS_FILE, [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: iou('SEK') } }, { CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: iou('NOK') } }], `${commandId}-two`);
  let startedDemo = false;
  const commandIdInResult = (text) => text.includes(commandId);

  try {
    await t.check('the "Preview" CodeLens prepares the file: the preview document shows the exercise, the archive and the child create with their informees; nothing submitted', async () => {
      startedDemo = await t.startDemo();
      await closeAllEditors(t);
      // The preview document's lines in view: an editor renders only the lines that fit.
      await t.hidePanel();
      await t.openFile(path.join(t.workspace, FILE));
      const lens = codeLens(t, 'Preview');
      await lens.waitFor({ timeout: scaled(15000) });
      await lens.click();
      await t.toast(/^Preview of ui-preview\.commands\.json \(nothing submitted\): Would create 2 contracts, archive 1, exercise 1 choice \(Iou_Transfer\)/).waitFor({ timeout: scaled(20000) });
      await t.page.locator('.tabs-container [role="tab"]', { hasText: `ui-preview preview ${commandId}` }).first().waitFor({ timeout: scaled(10000) });
      await t.waitUntil(async () => {
        const text = await t.visibleEditorText();
        return /"exercise": "Iou_Transfer"/.test(text) && /"archives":/.test(text) && /"informees":/.test(text) && /Nothing was submitted/.test(text);
      }, { timeout: scaled(10000), what: 'the preview document to show the exercise, what it archives, the informees and the caveat' });
      await lensLabel(t, 'Hash verified (V2)').waitFor({ timeout: scaled(10000) });
      await t.waitUntil(async () => /"hashCheck": "hash verified \(V2\): recomputed here/.test(await t.visibleEditorText()), { timeout: scaled(10000), what: 'the preview document to say "hash verified (V2)"' });
      await t.screenshot('58-preview-document');
    });

    await t.check('"Show Graph" on the preview draws its prepared CreateAndExercise: the Iou created and consumed inside it (transient), the exercise, the new Iou', async () => {
      const lens = codeLens(t, 'Show Graph');
      await lens.waitFor({ timeout: scaled(15000) });
      await lens.click();
      const frame = await graphFrame(t, new RegExp(`^Preview of ${commandId}$`));
      await frame.locator('g.box').first().waitFor({ timeout: scaled(20000) });
      const labels = await frame.locator('g.box').evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label') ?? ''));
      for (const want of [/^exercise Iou_Transfer, on Iou:Iou/, /^Iou:Iou \S+, transient/, /^Iou:Iou \S+, created/]) {
        if (!labels.some((l) => want.test(l))) throw new Error(`no box ${want}: ${labels.join(' | ')}`);
      }
      await frame.locator('#fit').click();
      await t.screenshot('58-preview-graph');
      // Back to the preview and the file only, as the next check expects.
      await t.palette('View: Close Editor');
      await t.page.locator('.tabs-container [role="tab"]', { hasText: `ui-preview preview ${commandId}` }).first().waitFor({ timeout: scaled(10000) });
    });

    await t.check('"Submit now" in the preview document submits the same file, same commandId: a new transaction, not "Already executed" (the preview submitted nothing); the result opens in the file\'s column, beside the preview it leaves in view, not a third one', async () => {
      const previewTab = t.page.locator('.tabs-container [role="tab"]', { hasText: `ui-preview preview ${commandId}` }).first();
      await previewTab.click();
      const lens = codeLens(t, 'Submit now');
      await lens.waitFor({ timeout: scaled(15000) });
      await t.screenshot('58-preview-submit-now-lens');
      if ((await editorGroups(t)) !== 2) throw new Error(`before Submit now: ${await editorGroups(t)} editor columns, expected the file and the preview`);
      await lens.click();
      // The outcome as the Submissions view records it (a toast can be dropped by VS Code's spam
      // protection when several notifications come at once): "succeeded", where a second submission of
      // the same commandId would read "already executed".
      const resultTab = t.page.locator('.tabs-container [role="tab"]', { hasText: `ui-preview ${commandId}` }).first();
      await resultTab.waitFor({ timeout: scaled(20000) });
      await t.waitUntil(async () => commandIdInResult(await t.visibleEditorText()), { timeout: scaled(10000), what: `the submission result of ${commandId}` });
      // Still two columns: the result takes the file's column, and the preview stays the shown tab of its
      // own, so its "Open Result" and "Compare with Committed" lenses stay in view.
      const groups = await editorGroups(t);
      const previewGroup = t.page.locator('.part.editor .editor-group-container', { has: t.page.locator('[role="tab"]', { hasText: `ui-preview preview ${commandId}` }) });
      const resultWithPreview = await previewGroup.locator('[role="tab"]', { hasText: new RegExp(`ui-preview ${commandId}`) }).count();
      const previewShown = await previewGroup.locator('[role="tab"][aria-selected="true"]', { hasText: `ui-preview preview ${commandId}` }).count();
      if (groups !== 2 || resultWithPreview !== 0 || previewShown !== 1) {
        throw new Error(`after Submit now: ${groups} editor columns, the result ${resultWithPreview ? 'covers' : 'beside'} the preview, the preview ${previewShown ? 'shown' : 'hidden'}`);
      }
      await t.screenshot('58-preview-column-reused');
      await t.palette('Canton Ledger: Focus on Submissions View');
      const row = t.page.locator('.part.sidebar [role="treeitem"]', { hasText: FILE }).first();
      await row.waitFor({ timeout: scaled(10000) });
      const label = `${(await row.getAttribute('aria-label')) ?? ''} ${await row.innerText()}`;
      if (!/succeeded/.test(label)) throw new Error(`the Submissions view records ${FILE} as "${label}", not succeeded`);
    });

    await t.check('the submitted preview says so, and offers the result instead of "Submit now"', async () => {
      await t.page.locator('.tabs-container [role="tab"]', { hasText: `ui-preview preview ${commandId}` }).first().click();
      const openResult = codeLens(t, 'Submitted (succeeded): Open Result');
      await openResult.waitFor({ timeout: scaled(15000) });
      await t.waitUntil(async () => /"submitted": "Submitted since this preview \(succeeded/.test(await t.visibleEditorText()), { timeout: scaled(10000), what: 'the preview to say it was submitted' });
      if ((await codeLens(t, 'Submit now').count()) !== 0) throw new Error('the submitted preview still offers "Submit now"');
      await t.screenshot('58-preview-submitted');
      await openResult.click();
      const activeResult = t.page.locator('.tabs-container [role="tab"].active', { hasText: `ui-preview ${commandId}` }).filter({ hasNotText: 'preview preview' });
      await t.waitUntil(async () => (await activeResult.count()) === 1 && (await editorGroups(t)) === 2, { timeout: scaled(10000), what: 'the result tab active, in the same two columns' });
    });

    await t.check('"Compare with Committed" on the submitted preview draws the prepared and the committed transaction side by side: every action matched, the new contract ids matched, nothing flagged', async () => {
      await t.page.locator('.tabs-container [role="tab"]', { hasText: `ui-preview preview ${commandId}` }).first().click();
      const lens = codeLens(t, 'Compare with Committed');
      await lens.waitFor({ timeout: scaled(15000) });
      await lens.click();
      const frame = await graphFrame(t, new RegExp(`^Preview of ${commandId} beside offset \\d+$`));
      await frame.locator('#verdict').filter({ hasText: /^No differences · traffic cost: paid [\d,]+ bytes \(estimated [\d,]+ bytes\)$/ }).waitFor({ timeout: scaled(20000) });
      const captions = await frame.locator('text.caption').allTextContents();
      if (captions.length !== 2 || captions[0] !== 'Preview (prepared)' || !/^Committed \(offset \d+\)$/.test(captions[1])) throw new Error(`captions: ${captions.join(' | ')}`);
      const legend = (await frame.locator('#legend').textContent()) ?? '';
      // The create, the exercise on it and the exercise's create; the two new contracts' ids.
      if (!/^3 actions matched · 2 new contract ids matched/.test(legend)) throw new Error(`legend: ${legend}`);
      if ((await frame.locator('g.box.differs, g.box.unmatched').count()) !== 0) throw new Error('a box is flagged');
      await frame.locator('#fit').click();
      await t.screenshot('58-preview-vs-committed');
      await t.palette('View: Close Editor');
    });

    await t.check('a file of two commands on a participant that prepares one at a time: the error says why and to preview each command alone', async () => {
      await closeAllEditors(t);
      await t.openFile(path.join(t.workspace, TWO_COMMANDS_FILE));
      const lens = codeLens(t, 'Preview');
      await lens.waitFor({ timeout: scaled(15000) });
      await lens.click();
      await t.toast(/could not be previewed: the participant prepares one command at a time .* To do: preview each command alone/).waitFor({ timeout: scaled(20000) });
      await t.screenshot('58-preview-refusal');
    });
  } finally {
    await closeAllEditors(t).catch(() => {});
    await t.palette('Notifications: Clear All Notifications').catch(() => {});
    rmSync(path.join(t.workspace, FILE), { force: true });
    rmSync(path.join(t.workspace, TWO_COMMANDS_FILE), { force: true });
    if (startedDemo) await t.stopDemo();
  }
}
