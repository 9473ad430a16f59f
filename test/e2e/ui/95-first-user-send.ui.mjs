// What a first-time user meets when sending, checked where they meet it: a generated create whose fields
// are still Daml placeholders is refused before anything is sent; after "Submit now" the preview keeps
// its lenses in view, and Compare with Committed and the Explain report open where they can be read;
// notification buttons are short and whole; a Failed Commands row leads with the code and leads on to
// the contract's lineage and events. Runs last (a flow of its own) against the demo participant.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { closeAllEditors, codeLens } from './50-submit.ui.mjs';
import { graphFrame } from './75-graph.ui.mjs';
import { seededArchivedIou } from './80-failed.ui.mjs';
import { expand } from './20-connections.ui.mjs';
import { DEMO_ALICE as ALICE, DEMO_BANK as BANK, scaled } from './lib.mjs';

const GENERATED = 'first-user-generated.commands.json';
const PREVIEWED = 'first-user-previewed.commands.json';
const FAILING = 'first-user-failing.commands.json';
const TWIN = 'first-user-twin.commands.json';
const STATUS_ITEM = '[id="canton-ledger-explorer.canton-ledger-explorer.cantonLedger.status"]';
const FAILED_PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="Failed Commands"])';
const UPDATES_PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="Updates"])';

/** A picture for the README: the region `clip` of the page (or the element `of`), saved as `<run dir>/readme-<name>.png`. */
export async function picture(t, name, { of, clip } = {}) {
  const box = clip ?? (of ? await of.boundingBox() : undefined);
  await t.page.screenshot({ path: path.join(t.runDir, `readme-${name}.png`), animations: 'disabled', ...(box ? { clip: box } : {}) });
}

/** The region of the page from the left edge of `a` to the right edge of `b` (and their full heights). */
export async function spanning(a, b) {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  const left = Math.min(x.x, y.x);
  const top = Math.min(x.y, y.y);
  return { x: left, y: top, width: Math.max(x.x + x.width, y.x + y.width) - left, height: Math.max(x.y + x.height, y.y + y.height) - top };
}


/**
 * Each lens whole in its editor column: inside the column and left of the minimap (a lens row too long
 * for the column runs under the minimap and off the edge).
 */
async function assertLensesInView(group, lenses) {
  const groupBox = await group.boundingBox();
  const minimap = group.locator('.monaco-editor .minimap').first();
  const right = (await minimap.isVisible().catch(() => false)) ? (await minimap.boundingBox()).x : groupBox.x + groupBox.width;
  for (const [name, lens] of lenses) {
    const b = await lens.boundingBox();
    if (!b || b.x < groupBox.x || b.x + b.width > right + 1 || b.y < groupBox.y || b.y + b.height > groupBox.y + groupBox.height) {
      throw new Error(`the "${name}" lens is not in view in its column (lens ${JSON.stringify(b)}, column ${JSON.stringify(groupBox)}, text up to x=${right})`);
    }
  }
}

/** The toast whose message matches `text`, once it has slid in (VS Code marks it so when its animation is done). */
export async function shownToast(t, text, timeout = scaled(20000)) {
  const message = t.page.locator('.notification-list-item-message', { hasText: text });
  const item = t.page.locator('.notifications-toasts .notification-fade-in-done .notification-list-item', { has: message }).first();
  await item.waitFor({ timeout });
  return item;
}

/**
 * A toast's buttons read whole: each label at most 20 characters, none cut by an ellipsis, each inside
 * the toast. Returns the labels.
 */
export async function assertButtonsWhole(toast) {
  const toastBox = await toast.boundingBox();
  const buttons = await toast.locator('.monaco-button').evaluateAll((bs) =>
    bs.map((b) => {
      const r = b.getBoundingClientRect();
      return { label: (b.textContent ?? '').trim(), cut: b.scrollWidth > b.clientWidth + 1, left: r.left, right: r.right };
    }),
  );
  for (const b of buttons) {
    if (b.label.length > 20) throw new Error(`the button "${b.label}" has ${b.label.length} characters (at most 20 read whole)`);
    if (b.cut) throw new Error(`the button "${b.label}" is cut`);
    if (b.left < toastBox.x - 1 || b.right > toastBox.x + toastBox.width + 1) throw new Error(`the button "${b.label}" sticks out of its toast`);
  }
  return buttons.map((b) => b.label);
}

/** Submits `file` by its "Submit to Demo" lens, alone in the editor area, and returns the toast that says how it went. */
async function submitToDemo(t, file, toastText) {
  await closeAllEditors(t);
  await t.palette('Notifications: Clear All Notifications');
  await t.openFile(file);
  const lens = codeLens(t, 'Submit to Demo');
  await lens.waitFor({ timeout: scaled(15000) });
  await lens.click();
  return shownToast(t, toastText);
}

const editorGroups = (t) => t.page.locator('.part.editor .editor-group-container');

/** The width of the editor group showing `tab` (a locator of its tab) as a share of the editor area's. */
async function shareOfEditorArea(t, group) {
  const [area, box] = [await t.page.locator('.part.editor').first().boundingBox(), await group.boundingBox()];
  return box.width / area.width;
}

function statusText(t) {
  return t.page.locator(STATUS_ITEM).innerText().then((s) => s.trim());
}

export default async function (t) {
  const { page } = t;
  const generated = path.join(t.workspace, GENERATED);
  const previewed = path.join(t.workspace, PREVIEWED);
  const failing = path.join(t.workspace, FAILING);
  const twinFile = path.join(t.workspace, TWIN);
  let startedDemo = false;

  try {
    await t.check('first user: a generated create whose fields are still "<Text>" and "<Numeric 10>" is refused before anything is sent, saying which and where', async () => {
      rmSync(generated, { force: true });
      startedDemo = await t.startDemo();
      await closeAllEditors(t);
      await t.hidePanel();
      await t.palette('Canton Ledger: New Commands File');
      await t.waitForInput({ prompt: 'New Commands File (1/2)', timeout: scaled(30000) });
      await page.locator('#quickInput_list [role="option"]', { hasText: '#demo-iou:Iou:Iou' }).first().click({ timeout: scaled(30000) });
      await t.waitForInput({ prompt: 'New Commands File (2/2)' });
      await t.quickPick('Create Iou');
      await page.locator('.quick-input-widget', { hasText: '.commands.json is added if missing' }).first().waitFor({ timeout: scaled(10000) });
      await page.keyboard.type(GENERATED.replace('.commands.json', ''));
      await page.keyboard.press('Enter');
      await page.locator('.tabs-container [role="tab"].active', { hasText: GENERATED }).first().waitFor({ timeout: scaled(10000) });
      await t.waitUntil(async () => existsSync(generated), { what: `${GENERATED} written` });
      // The generator's placeholders, as a new user gets them.
      const text = readFileSync(generated, 'utf8');
      const args = JSON.parse(text).commands[0].CreateCommand.createArguments;
      if (args.currency !== '<Text>' || args.amount !== '<Numeric 10>') throw new Error(`the generated create reads ${JSON.stringify(args)}, not the placeholders`);
      const lineOf = (needle) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
      const [currencyLine, amountLine] = [lineOf('"<Text>"'), lineOf('"<Numeric 10>"')];
      const lens = codeLens(t, 'Submit to Demo');
      await lens.waitFor({ timeout: scaled(15000) });
      await t.waitUntil(async () => /^Demo @\d+$/.test(await statusText(t)), { what: 'the ledger end in the status bar' });
      const endBefore = await statusText(t);
      await lens.click();
      const refusal = await shownToast(t, `${GENERATED} was not submitted`);
      const message = (await refusal.locator('.notification-list-item-message').innerText()).replace(/\s+/g, ' ');
      const expected = new RegExp(`it has 2 errors: line ${currencyLine}:\\d+ Fill in this Text: "<Text>" is a placeholder\\.; line ${amountLine}:\\d+ Fill in this Numeric 10: "<Numeric 10>" is a placeholder\\.`);
      if (!expected.test(message)) throw new Error(`the refusal reads "${message}", not ${expected}`);
      const buttons = await assertButtonsWhole(refusal);
      if (!buttons.includes('Show Problems')) throw new Error(`the refusal offers ${JSON.stringify(buttons)}, not Show Problems`);
      await t.screenshot('95-placeholder-refused');
      // Nothing sent: the ledger end did not move, and the Submissions view has no row of the file.
      if ((await statusText(t)) !== endBefore) throw new Error(`the ledger end moved from "${endBefore}" to "${await statusText(t)}"`);
      await t.palette('Canton Ledger: Focus on Submissions View');
      const pane = page.locator('.part.sidebar .pane:has(.pane-header[aria-label^="Submissions"])');
      await pane.locator('.pane-body').first().waitFor({ timeout: scaled(10000) });
      await t.waitUntil(async () => (await pane.locator('[role="treeitem"]').count()) > 0 || (await pane.locator('.welcome-view-content').isVisible().catch(() => false)), { what: 'the Submissions view rendered (rows or its welcome text)' });
      const rows = await pane.locator('[role="treeitem"]').evaluateAll((rs) => rs.map((r) => r.getAttribute('aria-label') ?? ''));
      if (rows.some((r) => r.includes(GENERATED))) throw new Error(`the Submissions view lists the refused file: ${JSON.stringify(rows)}`);
      await t.palette('Notifications: Clear All Notifications');
    });

    const commandId = `first-user-preview-${Date.now()}`;
    await t.check('first user: after "Submit now" the preview keeps "Open Result" and "Compare with Committed" in view, beside the result; the toasts\' buttons read whole', async () => {
      // Bank issues an Iou to itself and transfers it to Alice in one command: a create, an exercise, a create.
      const command = { CreateAndExerciseCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: BANK, owner: BANK, currency: 'CHF', amount: '3.50', observers: [] }, choice: 'Iou_Transfer', choiceArgument: { newOwner: ALICE } } };
      writeFileSync(previewed, JSON.stringify({ commands: [command], commandId, actAs: [BANK], userId: 'demo-admin' }, null, 2) + '\n');
      await closeAllEditors(t);
      await t.openFile(previewed);
      const previewLens = codeLens(t, 'Preview');
      await previewLens.waitFor({ timeout: scaled(15000) });
      await previewLens.click();
      await assertButtonsWhole(await shownToast(t, /^Preview of first-user-previewed\.commands\.json \(nothing submitted\)/));
      const previewTab = page.locator('.tabs-container [role="tab"]', { hasText: `first-user-previewed preview ${commandId}` }).first();
      await previewTab.waitFor({ timeout: scaled(10000) });
      await t.palette('Notifications: Clear All Notifications');
      // Before submission too, in the half-width column beside the file: the verdict, "Submit now" and "Show Graph" whole.
      const shownPreview = editorGroups(t).filter({ has: page.locator('[role="tab"][aria-selected="true"]', { hasText: `first-user-previewed preview ${commandId}` }) });
      const lensIn = (text) => shownPreview.locator('.codelens-decoration a, .codelens-decoration span', { hasText: text }).first();
      await lensIn('Show Graph').waitFor({ timeout: scaled(15000) });
      await t.waitUntil(async () => (await editorGroups(t).count()) === 2, { what: 'the preview in a column of its own beside the file' });
      await assertLensesInView(shownPreview, [['Hash verified (V2)', lensIn('Hash verified (V2)')], ['Submit now', lensIn('Submit now')], ['Show Graph', lensIn('Show Graph')]]);
      await t.screenshot('95-preview-before-submit-now');
      const submitNow = codeLens(t, 'Submit now');
      await submitNow.waitFor({ timeout: scaled(15000) });
      await submitNow.click();
      await assertButtonsWhole(await shownToast(t, /^Transaction \S+ at offset \d+: 2 created/));
      // Without a click: the preview is still the shown tab of its column, its new lenses in view.
      const previewGroup = editorGroups(t).filter({ has: page.locator('[role="tab"][aria-selected="true"]', { hasText: `first-user-previewed preview ${commandId}` }) });
      const openResult = previewGroup.locator('.codelens-decoration a', { hasText: 'Open Result' }).first();
      const compare = previewGroup.locator('.codelens-decoration a', { hasText: 'Compare with Committed' }).first();
      await openResult.waitFor({ timeout: scaled(20000) });
      await compare.waitFor({ timeout: scaled(10000) });
      await assertLensesInView(previewGroup, [['Open Result', openResult], ['Compare with Committed', compare]]);
      // The result beside it: its own column, two in all.
      const resultGroup = editorGroups(t).filter({ has: page.locator('[role="tab"][aria-selected="true"]', { hasText: new RegExp(`^first-user-previewed ${commandId}`) }) });
      await t.waitUntil(async () => (await resultGroup.count()) === 1 && (await editorGroups(t).count()) === 2, { what: async () => `the result shown in a column of its own, two columns (${await editorGroups(t).count()})` });
      await t.waitUntil(async () => (await t.visibleEditorText()).includes('"CreatedEvent"'), { what: 'the result document showing the created event' });
      await t.screenshot('95-preview-after-submit-now');
      await picture(t, 'preview-after-submit', { of: page.locator('.part.editor').first() });
    });

    await t.check('first user: Compare with Committed opens in a widened column, its drawing readable and its list of differences on screen', async () => {
      await t.palette('Notifications: Clear All Notifications');
      await codeLens(t, 'Compare with Committed').click();
      const frame = await graphFrame(t, new RegExp(`^Preview of ${commandId} beside offset \\d+$`));
      await frame.locator('#verdict').filter({ hasText: /^No differences · traffic cost: paid [\d,]+ bytes \(estimated [\d,]+ bytes\)$/ }).waitFor({ timeout: scaled(20000) });
      const group = editorGroups(t).filter({ has: page.locator('[role="tab"][aria-selected="true"]', { hasText: `Preview vs committed ${commandId}` }) });
      await t.waitUntil(async () => (await group.count()) === 1 && (await shareOfEditorArea(t, group)) >= 0.6, {
        what: async () => `the comparison's column widened to most of the editor area (it has ${((await shareOfEditorArea(t, group).catch(() => 0)) * 100).toFixed(0)}%)`,
      });
      // Readable: the boxes' text drawn at 9 px or more, the list of differences inside the view.
      await frame.locator('g.box text').first().waitFor({ timeout: scaled(10000) });
      const smallest = await frame.locator('g.box text').evaluateAll((ts) => Math.min(...ts.map((x) => x.getBoundingClientRect().height)));
      if (smallest < 9) throw new Error(`the comparison's box text is drawn ${smallest.toFixed(1)} px high`);
      const side = await frame.evaluate(() => {
        const r = document.getElementById('side')?.getBoundingClientRect();
        return r && { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: innerWidth, height: innerHeight };
      });
      if (!side || side.right > side.width + 1 || side.left < 0 || side.top >= side.height || side.bottom <= 0) throw new Error(`the list of differences is off screen: ${JSON.stringify(side)}`);
      await frame.locator('#side li.none').waitFor({ timeout: scaled(5000) });
      await t.screenshot('95-compare-with-committed');
      await picture(t, 'graph-preview-vs-committed', { of: page.locator('.part.editor').first() });
    });

    await t.check('first user: two command ids that differ only at their end read differently in the Updates view', async () => {
      // One tool's ids: a long common start, told apart by their last characters only.
      const stamp = String(Date.now()).slice(-10);
      const twins = ['01', '02'].map((n) => `first-user-twin-commands-of-one-tool-${stamp}${n}`);
      for (const [i, commandId] of twins.entries()) {
        const command = { CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: BANK, owner: BANK, currency: 'CHF', amount: `${i + 1}.00`, observers: [] } } };
        writeFileSync(twinFile, JSON.stringify({ commands: [command], commandId, actAs: [BANK], userId: 'demo-admin' }, null, 2) + '\n');
        await submitToDemo(t, twinFile, /^Transaction \S+ at offset \d+: 1 created/);
      }
      await t.palette('Notifications: Clear All Notifications');
      await t.palette('Canton Ledger: Focus on Updates View');
      await t.onlyPaneExpanded('Updates');
      // The newest rows are the list's last, below the pane's fold when earlier checks made many: End
      // brings them into view (a tree draws only the rows it shows).
      await page.locator(`${UPDATES_PANE} .monaco-list`).first().focus();
      await page.keyboard.press('End');
      // Each row found by the end of its id: a row that cut the id's end would not be found.
      const row = (commandId) => page.locator(`${UPDATES_PANE} [role="treeitem"][aria-level="1"]`, { hasText: commandId.slice(-12) }).first();
      const commandIdShown = async (commandId) => {
        await row(commandId).waitFor({ timeout: scaled(20000) });
        const description = (await row(commandId).locator('.label-description').first().innerText()).trim();
        const shown = /(?:^|· )cmd (\S+)/.exec(description)?.[1];
        if (!shown) throw new Error(`the row's description "${description}" names no command id`);
        return shown;
      };
      const [first, second] = [await commandIdShown(twins[0]), await commandIdShown(twins[1])];
      if (first === second) throw new Error(`two different command ids both read "${first}"`);
      for (const [id, shown] of [[twins[0], first], [twins[1], second]]) {
        if (!shown.endsWith(id.slice(-12))) throw new Error(`"${shown}" cuts the end of ${id}, where it differs from its twin`);
      }
      await t.screenshot('95-updates-twin-command-ids');
    });

    let contractId = '';
    const failedId = `first-user-failed-${Date.now()}`;
    const failedRow = () => page.locator(`${FAILED_PANE} [role="treeitem"][aria-level="1"]`, { hasText: failedId }).first();
    await t.check('first user: a rejected transfer\'s toast offers Explain with whole buttons; the Failed Commands row leads with the code and expands to the contract\'s lineage and events', async () => {
      const seeded = await seededArchivedIou();
      contractId = seeded.contractId;
      writeFileSync(failing, JSON.stringify({ commands: [{ ExerciseCommand: { templateId: '#demo-iou:Iou:Iou', contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner: seeded.bob } } }], commandId: failedId, actAs: [seeded.alice], userId: 'demo-admin' }, null, 2) + '\n');
      const failure = await submitToDemo(t, failing, `Submitting ${FAILING} failed`);
      const buttons = await assertButtonsWhole(failure);
      if (!buttons.includes('Explain')) throw new Error(`the failure offers ${JSON.stringify(buttons)}, not Explain`);
      await t.screenshot('95-failure-toast');
      await t.palette('Notifications: Clear All Notifications');

      await t.palette('Canton Ledger: Focus on Failed Commands View');
      await t.onlyPaneExpanded('Failed Commands');
      await failedRow().waitFor({ timeout: scaled(20000) });
      // The code first: a narrow side bar cuts the end of a row, never its start.
      const label = (await failedRow().locator('.label-name').first().innerText()).trim();
      if (!label.startsWith('CONTRACT_NOT_FOUND: ')) throw new Error(`the row begins "${label.slice(0, 40)}", not with the code`);
      const description = (await failedRow().locator('.label-description').first().innerText().catch(() => '')).trim();
      if (!description.includes(failedId)) throw new Error(`the row's description "${description}" lacks the command id`);
      const code = failedRow().locator('.label-name').first();
      const [codeBox, paneBox] = [await code.boundingBox(), await page.locator(FAILED_PANE).boundingBox()];
      if (codeBox.x + Math.min(codeBox.width, 150) > paneBox.x + paneBox.width) throw new Error('the code is cut off at the side bar\'s edge');
      // The backlog read: the rows stand in their order before one is expanded.
      await page.locator(`${FAILED_PANE} [role="treeitem"]`, { hasText: 'up to date' }).first().waitFor({ timeout: scaled(20000) });
      await expand(failedRow());
      const child = (text) => page.locator(`${FAILED_PANE} [role="treeitem"][aria-level="2"]`, { hasText: text }).first();
      await child('Contract Lineage').waitFor({ timeout: scaled(10000) });
      await child('Contract Events').waitFor({ timeout: scaled(10000) });
      const shortId = contractId.slice(0, 16);
      for (const name of ['Contract Lineage', 'Contract Events']) {
        const l = (await child(name).getAttribute('aria-label')) ?? '';
        if (!l.includes(`of the cause, ${shortId}`)) throw new Error(`the "${name}" row reads "${l}", not the cause's contract ${shortId}…`);
      }
      await t.screenshot('95-failed-commands-row');
      await child('Contract Lineage').click();
      const lineage = await graphFrame(t, /^Lineage of /);
      await lineage.locator('g.box').first().waitFor({ timeout: scaled(30000) });
      const labels = await lineage.locator('g.box').evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label') ?? ''));
      if (!labels.some((l) => l.includes(contractId.slice(0, 8)))) throw new Error(`the lineage does not draw ${contractId.slice(0, 8)}…: ${labels.join(' | ')}`);
      // Readable: every text of the drawing at 12 px at least, or at the editor's font size if that is smaller.
      const drawn = await lineage.evaluate(() => {
        const editorFont = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-font-size')) || 12;
        const sizes = Array.from(document.querySelectorAll('#viewport text')).map((x) => parseFloat(getComputedStyle(x).fontSize) * (x.getScreenCTM()?.a ?? 1));
        return { smallest: Math.min(...sizes), count: sizes.length, editorFont };
      });
      if (drawn.count === 0 || drawn.smallest < Math.min(12, drawn.editorFont) - 0.05) throw new Error(`the lineage's text is drawn at ${drawn.smallest.toFixed(1)} px (the editor's is ${drawn.editorFont} px)`);
      await t.screenshot('95-lineage-readable');
    });

    await t.check('first user: Explain opens the report beside the file, in a column wide enough that its heading breaks no word and no toast covers it', async () => {
      await closeAllEditors(t);
      await t.openFile(failing);
      await t.palette('Canton Ledger: Focus on Failed Commands View');
      // Where a user clicks, on the row's visible start (the whole label is wider than the side bar: a click
      // at its middle would scroll the label off).
      await failedRow().click({ position: { x: 80, y: 10 } });
      const heading = await t.waitUntil(
        async () => {
          for (const frame of page.frames()) {
            const h = frame.locator('h1', { hasText: /^CONTRACT_NOT_FOUND — command / }).first();
            if (await h.isVisible().catch(() => false)) return h;
          }
          return undefined;
        },
        { timeout: scaled(20000), what: 'the Explain report rendered' },
      );
      const count = await editorGroups(t).count();
      if (count !== 2) throw new Error(`${count} editor columns: the report belongs beside the file, not in a third`);
      const reportGroup = editorGroups(t).filter({ has: page.locator('[role="tab"][aria-selected="true"]', { hasText: `Failed ${failedId}` }) });
      const share = await shareOfEditorArea(t, reportGroup);
      if (share < 0.4) throw new Error(`the report's column has ${(share * 100).toFixed(0)}% of the editor area`);
      // Every word of the heading on one line (a column too narrow breaks the long command id inside a
      // word); a line may end after a hyphen, where the reader expects it.
      const broken = await heading.evaluate((h) => {
        const out = [];
        const walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          for (const m of n.textContent.matchAll(/[^\s-]+-?/g)) {
            const range = document.createRange();
            range.setStart(n, m.index);
            range.setEnd(n, m.index + m[0].length);
            const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (tops.size > 1) out.push(m[0]);
          }
        }
        return out;
      });
      if (broken.length) throw new Error(`the heading breaks inside ${JSON.stringify(broken)}`);
      const h = await heading.boundingBox();
      const toasts = await page.locator('.notifications-toasts .notification-toast').evaluateAll((ts) => ts.filter((x) => x.offsetParent !== null).map((x) => x.getBoundingClientRect().toJSON()));
      for (const r of toasts) {
        if (r.left < h.x + h.width && r.right > h.x && r.top < h.y + h.height && r.bottom > h.y) throw new Error('a toast covers the report\'s heading');
      }
      // The row that was clicked shows its code again once the report is open.
      const name = failedRow().locator('.label-name').first();
      const paneLeft = (await page.locator(FAILED_PANE).boundingBox()).x;
      await t.waitUntil(async () => (await name.innerText().catch(() => '')).trim().startsWith('CONTRACT_NOT_FOUND: ') && ((await name.boundingBox())?.x ?? -1) >= paneLeft, {
        what: async () => `the clicked row to show its code (its name is ${JSON.stringify(await name.boundingBox().catch(() => null))}; the row: ${(await failedRow().evaluate((r) => r.outerHTML).catch(() => '')).slice(0, 1500)})`,
      });
      await t.screenshot('95-explain-report');
      await picture(t, 'failed-commands', { clip: await spanning(page.locator('.part.sidebar').first(), page.locator('.part.editor').first()) });
    });
  } finally {
    await t.check('cleanup: editors closed, toasts cleared, the files removed, the demo stopped if started here', async () => {
      await closeAllEditors(t);
      await t.palette('Notifications: Clear All Notifications');
      await t.palette('Canton Ledger: Focus on Failed Commands View');
      await t.setPaneExpanded('Failed Commands', false);
      await t.setPaneExpanded('Connections', true);
      await t.setPaneExpanded('Updates', true);
      for (const f of [generated, previewed, failing, twinFile]) rmSync(f, { force: true });
      if (startedDemo) await t.stopDemo();
    });
  }
}
