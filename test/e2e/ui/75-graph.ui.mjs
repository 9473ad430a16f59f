// The transaction graph like a user: the seeded transfer drawn from the palette, the party lens for
// Alice and Bob, the keyboard, the lineage of an Iou through two transfers and a split, the active
// contract changes of a range, the Mermaid export, and the light theme. The demo ledger's seed puts the
// three issued Ious at offsets 5-7, Alice's transfer at 8, the split at 9 and a transfer of one half at 10.
import { writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { closeAllEditors, revealedExplorerRow } from './50-submit.ui.mjs';
import { scaled } from './lib.mjs';

const TRANSFER_OFFSET = '8';
const LAST_TRANSFER_OFFSET = '10';

/** The frame of the graph webview whose title matches `title` (webviews live in frames of their own). */
export async function graphFrame(t, title) {
  return t.waitUntil(
    async () => {
      for (const frame of t.page.frames()) {
        const text = await frame.locator('#title').innerText({ timeout: 200 }).catch(() => undefined);
        if (text !== undefined && title.test(text)) return frame;
      }
      return undefined;
    },
    { timeout: scaled(30000), what: `a graph view titled ${title}` },
  );
}

/** The accessible names of the drawn boxes. */
function boxLabels(frame) {
  return frame.locator('g.box').evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label') ?? ''));
}

export async function showTransaction(t, offset) {
  await t.palette('Canton Ledger: Show Transaction Graph');
  await t.inputBox(offset, { prompt: 'update id or the offset' });
  const frame = await graphFrame(t, new RegExp(`^Transaction at offset ${offset}$`));
  await frame.locator('g.box').first().waitFor({ timeout: scaled(30000) });
  return frame;
}

export default async function (t) {
  let startedDemo = false;
  let frame;

  await t.check('Show Transaction Graph from the palette: the transfer, the Iou it consumed and the one it created', async () => {
    startedDemo = await t.startDemo();
    await closeAllEditors(t);
    await t.hidePanel();
    frame = await showTransaction(t, TRANSFER_OFFSET);
    const labels = await boxLabels(frame);
    if (!labels.some((l) => /^exercise Iou_Transfer, on Iou:Iou, by Alice/.test(l))) throw new Error(`no exercise box: ${labels.join(' | ')}`);
    if (!labels.some((l) => /^Iou:Iou \S+, consumed/.test(l))) throw new Error(`no consumed Iou: ${labels.join(' | ')}`);
    if (!labels.some((l) => /^Iou:Iou \S+, created/.test(l))) throw new Error(`no created Iou: ${labels.join(' | ')}`);
    await frame.locator('#fit').click();
    await t.screenshot('75-graph-transfer');
  });

  await t.check('the party lens: Alice, then Bob beside her, each box says who sees it as what', async () => {
    await frame.locator('#lens-0').selectOption({ label: 'Alice' });
    await t.waitUntil(async () => (await frame.locator('text.role').allTextContents()).some((x) => /Alice: actor/.test(x)), { what: 'Alice as the actor' });
    await t.screenshot('75-graph-lens-alice');
    await frame.locator('#lens-1').selectOption({ label: 'Bob' });
    await t.waitUntil(async () => (await frame.locator('text.role').allTextContents()).some((x) => /Bob: /.test(x)), { what: 'Bob’s roles beside Alice’s' });
    const legend = await frame.locator('#legend').innerText();
    if (!/Seen as Alice and Bob/.test(legend)) throw new Error(`legend: ${legend}`);
    await t.screenshot('75-graph-lens-alice-bob');
    await frame.locator('#lens-1').selectOption({ label: 'No second party' });
    await frame.locator('#lens-0').selectOption({ label: 'All parties' });
    await t.waitUntil(async () => (await frame.locator('g.box.unseen').count()) === 0 && (await frame.locator('text.role').count()) === 0, { what: 'the lens off' });
  });

  await t.check('the keyboard walks the tree, and Enter opens the node’s event as JSON', async () => {
    const first = frame.locator('g.box[tabindex="0"]');
    await first.focus();
    const focused = () => frame.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    const top = await focused();
    await t.page.keyboard.press('ArrowDown');
    await t.waitUntil(async () => (await focused()) !== top, { what: 'the focus to move down' });
    await t.waitUntil(async () => /^exercise Iou_Transfer/.test(await focused()), { what: 'the exercise under its input' });
    await t.screenshot('75-graph-keyboard');
    await t.page.keyboard.press('Enter');
    await t.page.locator('.tab', { hasText: /node-\d+/ }).first().waitFor({ timeout: scaled(15000) });
  });

  await t.check('Open as Mermaid puts the drawing in a Markdown editor, in a mermaid fence', async () => {
    await closeAllEditors(t);
    frame = await showTransaction(t, TRANSFER_OFFSET);
    await frame.locator('#export-mermaid').click();
    const line = t.page.locator('.monaco-editor .view-line', { hasText: 'flowchart TB' }).first();
    await line.waitFor({ timeout: scaled(15000) });
    await t.page.locator('.monaco-editor .view-line', { hasText: '```mermaid' }).first().waitFor({ timeout: scaled(15000) });
    await t.screenshot('75-graph-mermaid');
    // The export is an untitled editor with content: closed unsaved, none is left behind to ask later.
    await closeAllEditors(t);
    if (await t.page.locator('.part.editor .tabs-container [role="tab"]', { hasText: 'Untitled' }).count()) throw new Error('the exported Markdown editor is still open');
  });

  await t.check('the lineage of the last Iou: back through two transfers and a split to its issue', async () => {
    await closeAllEditors(t);
    frame = await showTransaction(t, LAST_TRANSFER_OFFSET);
    const created = frame.locator('g.box.contract.created');
    await created.first().focus();
    await t.page.keyboard.press('l');
    const lineage = await graphFrame(t, /^Lineage of /);
    await t.waitUntil(async () => (await lineage.locator('text.edge-label').allTextContents()).length >= 3, { timeout: scaled(30000), what: 'three links' });
    const links = await lineage.locator('text.edge-label').allTextContents();
    const want = [`Iou_Transfer @${TRANSFER_OFFSET}`, 'Iou_Split @9', `Iou_Transfer @${LAST_TRANSFER_OFFSET}`];
    for (const w of want) if (!links.includes(w)) throw new Error(`links ${links.join(', ')} lack ${w}`);
    await lineage.locator('#fit').click();
    await t.screenshot('75-graph-lineage');
  });

  await t.check('Show Active Contract Changes of a Range: added, removed and transient per template', async () => {
    await closeAllEditors(t);
    await t.palette('Canton Ledger: Show Active Contract Changes of a Range…');
    await t.inputBox(`5-${LAST_TRANSFER_OFFSET}`, { prompt: 'First and last offset' });
    const diff = await graphFrame(t, /^Active contract changes over offsets 5\.\.10$/);
    const row = diff.locator('table.diff tbody tr', { hasText: '#demo-iou:Iou:Iou' });
    await row.waitFor({ timeout: scaled(30000) });
    // Offsets 5-10: three Ious issued (+3), one of them transferred (−1 +1), split (−1 +2), one half
    // transferred (−1 +1). Nothing removed reads 0, not a signed zero.
    const cells = await row.locator('td').allTextContents();
    if (cells[0] !== '+4' || cells[1] !== '0' || cells[2] !== '3') throw new Error(`the Iou row reads ${cells.join(' ')}`);
    await t.screenshot('75-graph-range-diff');
  });

  await t.check('a transaction of 1,002 boxes is drawn in code-server, its first paint measured', async () => {
    // 334 Ious each created and archived in one transaction: 668 actions and 334 transient contracts, and
    // the active contracts the later checks see stay as they were.
    const file = 'ui-graph-big.commands.json';
    const bank = 'Bank::122030ae391cfbaf4aecef53d588a826fd7da6f31dc276af9486a413396bcc67f620';
    const commands = Array.from({ length: 334 }, (_, i) => ({ CreateAndExerciseCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: bank, owner: bank, currency: 'EUR', amount: `${i + 1}.0`, observers: [] }, choice: 'Archive', choiceArgument: {} } }));
    writeFileSync(path.join(t.workspace, file), JSON.stringify({ commands, commandId: `ui-graph-big-${Date.now()}`, actAs: [bank], userId: 'demo-admin' }, null, 2) + '\n');
    try {
      await closeAllEditors(t);
      await t.contextMenu(await revealedExplorerRow(t, file), 'Submit Commands to Participant');
      const summary = t.toast(/^Transaction \S+ at offset \d+/);
      await summary.waitFor({ timeout: scaled(30000) });
      const offset = (await summary.innerText()).match(/at offset (\d+)/)[1];
      await t.palette('Notifications: Clear All Notifications');
      const big = await showTransaction(t, offset);
      await big.locator('#app[data-paint-ms]').waitFor({ timeout: scaled(30000) });
      const boxes = await big.locator('g.box').count();
      if (boxes !== 1002) throw new Error(`${boxes} boxes drawn, expected 1,002`);
      const ms = Number(await big.locator('#app').getAttribute('data-paint-ms'));
      console.log(`      first paint of 1,002 boxes in code-server: ${ms} ms`);
      await t.screenshot('75-graph-1000-nodes');
    } finally {
      rmSync(path.join(t.workspace, file), { force: true });
      await closeAllEditors(t);
    }
  });

  await t.check('in the light theme the graph takes the theme’s colours', async () => {
    await closeAllEditors(t);
    await t.palette('Preferences: Color Theme');
    await t.quickPick('Light Modern', { filter: 'Light Modern' });
    try {
      frame = await showTransaction(t, TRANSFER_OFFSET);
      await t.waitUntil(() => frame.evaluate(() => document.body.classList.contains('vscode-light')), { what: 'the webview in the light theme' });
      const fill = await frame.locator('g.box rect').first().evaluate((r) => getComputedStyle(r).fill);
      const background = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
      if (!fill || !background) throw new Error('no computed colours');
      await frame.locator('#fit').click();
      await t.screenshot('75-graph-light');
    } finally {
      await t.palette('Preferences: Color Theme');
      await t.quickPick('Dark Modern', { filter: 'Dark Modern' });
    }
  });

  await t.check('leave the graphs closed', async () => {
    await closeAllEditors(t);
    if (startedDemo) await t.stopDemo();
  });
}
