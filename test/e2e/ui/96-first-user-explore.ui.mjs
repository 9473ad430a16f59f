// What a first-time user meets when looking and writing, checked where they meet it: the graph's "/"
// search finds a party that is only a stakeholder, the lens leaves every box in view, the toolbar stays
// one row at half width and Mermaid opens as Markdown; a new ledger script runs green as written and a
// failing run shows its failing expectation without a click; Ctrl+. offers the closest field for a far
// misspelling and "Add missing fields"; Active Contracts rows show argument values; Getting Started has
// its eight steps. Runs late (a flow of its own) against the demo participant.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expand } from './20-connections.ui.mjs';
import { cursorToProblem, editorText, problemRows } from './40-editing.ui.mjs';
import { closeAllEditors, codeLens } from './50-submit.ui.mjs';
import { showTransaction } from './75-graph.ui.mjs';
import { picture } from './95-first-user-send.ui.mjs';
import { DEMO_ALICE as ALICE, scaled } from './lib.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TRANSFER_OFFSET = '8';
const SCRIPT = 'first-user-script.ledger.json';
const EDITED = 'first-user-fields.commands.json';
const ACS_PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="Active Contracts"])';
const SELECTION = '.statusbar-item[id="status.editor.selection"]';

/** Where the cursor is, from the status bar ("Ln 12, Col 5"): the line, or undefined. */
async function cursorLine(t) {
  const m = /^Ln (\d+),/.exec(await t.page.locator(SELECTION).innerText().catch(() => ''));
  return m ? Number(m[1]) : undefined;
}

/** The test state ("passed", "failed") the gutter of the active editor shows on `line`, when it shows one there. */
async function gutterStateAt(t, line) {
  const editor = t.page.locator('.editor-group-container.active .monaco-editor').first();
  const number = editor.locator('.margin-view-overlays .line-numbers', { hasText: new RegExp(`^${line}$`) }).first();
  const y = (await number.boundingBox().catch(() => null))?.y;
  if (y === undefined) return undefined;
  for (const state of ['passed', 'failed']) {
    const icons = await editor.locator(`.codicon-testing-${state}-icon`).evaluateAll((is) => is.map((i) => i.getBoundingClientRect().top));
    if (icons.some((top) => Math.abs(top - y) < 12)) return state;
  }
  return undefined;
}

/**
 * Opens the code-action menu at the cursor (Ctrl+., as the light bulb does) and returns its entries once
 * they include `wanted` (a busy machine may compute them after the first press: it tries a few times).
 */
async function codeActions(t, wanted) {
  const rows = t.page.locator('.action-widget .monaco-list-row');
  for (let attempt = 1; ; attempt++) {
    await t.page.keyboard.press('ControlOrMeta+.');
    if (await rows.filter({ hasText: wanted }).first().waitFor({ timeout: scaled(5000) }).then(() => true, () => false)) break;
    if (attempt >= 4) throw new Error(`Ctrl+. offers no "${wanted}" (it offers ${JSON.stringify(await rows.allInnerTexts().catch(() => []))})`);
    await t.page.keyboard.press('Escape');
  }
  return (await rows.allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim()).filter(Boolean);
}

async function pickAction(t, title) {
  await t.page.locator('.action-widget .monaco-list-row', { hasText: title }).first().click();
  await t.page.locator('.action-widget').first().waitFor({ state: 'hidden', timeout: scaled(5000) }).catch(() => {});
}

export default async function (t) {
  const { page } = t;
  const script = path.join(t.workspace, SCRIPT);
  const edited = path.join(t.workspace, EDITED);
  let startedDemo = false;

  try {
    let frame;
    await t.check('first user: with the lens on Alice and Bob every box of the transfer is in view, none cut at the bottom', async () => {
      startedDemo = await t.startDemo();
      await closeAllEditors(t);
      await t.hidePanel();
      frame = await showTransaction(t, TRANSFER_OFFSET);
      await frame.locator('#lens-0').selectOption({ label: 'Alice' });
      await frame.locator('#lens-1').selectOption({ label: 'Bob' });
      await t.waitUntil(async () => (await frame.locator('text.role').allTextContents()).some((x) => /Bob: stakeholder/.test(x)), { what: 'Bob as a stakeholder beside Alice' });
      // Every box inside the drawing's area once the lens has refitted it.
      const outside = () =>
        frame.evaluate(() => {
          const area = document.getElementById('canvas').getBoundingClientRect();
          return [...document.querySelectorAll('g.box')]
            .map((g) => ({ label: g.getAttribute('aria-label') ?? '', r: g.getBoundingClientRect() }))
            .filter(({ r }) => r.top < area.top - 1 || r.bottom > area.bottom + 1 || r.left < area.left - 1 || r.right > area.right + 1)
            .map(({ label, r }) => `${label.split(',')[0]} (${Math.round(r.top)}..${Math.round(r.bottom)} of ${Math.round(area.top)}..${Math.round(area.bottom)})`);
        });
      await t.waitUntil(async () => (await outside()).length === 0, { what: async () => `every box in view (cut: ${JSON.stringify(await outside())})` });
      const legend = await frame.locator('#legend').innerText();
      if (!/Seen as Alice and Bob/.test(legend)) throw new Error(`legend: ${legend}`);
      await t.screenshot('96-graph-lens-all-boxes');
      await picture(t, 'graph-transfer-lens', { of: page.locator('.part.editor').first() });
    });

    await t.check('first user: "/" then "Bob" finds the box of a contract Bob is only a stakeholder of', async () => {
      await frame.locator('#lens-1').selectOption({ label: 'No second party' });
      await frame.locator('#lens-0').selectOption({ label: 'All parties' });
      await t.waitUntil(async () => (await frame.locator('text.role').count()) === 0, { what: 'the lens off' });
      await frame.locator('g.box[tabindex="0"]').first().focus();
      await page.keyboard.press('/');
      await t.waitUntil(() => frame.evaluate(() => document.activeElement?.id === 'search'), { what: 'the search box focused by "/"' });
      await page.keyboard.type('Bob');
      await page.keyboard.press('Enter');
      const focused = () => frame.evaluate(() => (document.activeElement?.classList.contains('box') ? document.activeElement.getAttribute('aria-label') : '') ?? '');
      await t.waitUntil(async () => /^(create Iou:Iou|Iou:Iou \S+, created)/.test(await focused()), {
        what: async () => `a box of the Iou Bob owns focused (focused: "${await focused()}", legend: "${await frame.locator('#legend').innerText()}")`,
      });
      const legend = await frame.locator('#legend').innerText();
      if (/Nothing matches/.test(legend)) throw new Error(`the search says "${legend}"`);
      await t.screenshot('96-graph-search-bob');
    });

    await t.check('first user: in a half-width column the graph\'s controls stay in one row; Mermaid opens as a Markdown document', async () => {
      await closeAllEditors(t);
      await t.openFile(path.join(t.workspace, 'other.json'));
      await t.palette('View: Split Editor Right');
      await t.waitUntil(async () => (await page.locator('.part.editor .editor-group-container').count()) === 2, { what: 'two editor columns' });
      await t.palette('View: Focus First Editor Group');
      frame = await showTransaction(t, TRANSFER_OFFSET);
      const layout = () =>
        frame.evaluate(() => {
          const controls = document.querySelector('.toolbar .controls');
          const heading = document.querySelector('.toolbar .heading');
          const toolbar = document.querySelector('.toolbar');
          return {
            width: innerWidth,
            // One row: every control's vertical extent overlaps every other's (they are centred, not top-aligned).
            oneRow: (() => {
              const boxes = [...controls.children].map((c) => c.getBoundingClientRect());
              return Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom));
            })(),
            toolbar: toolbar.getBoundingClientRect().height,
            parts: heading.getBoundingClientRect().height + controls.getBoundingClientRect().height,
          };
        });
      const area = await page.locator('.part.editor').first().boundingBox();
      const l = await layout();
      if (l.width > area.width * 0.6) throw new Error(`the graph has ${l.width} of ${area.width} px: not a half-width column`);
      if (!l.oneRow) throw new Error(`the controls wrap onto more than one row at ${l.width} px`);
      // The heading and the controls each take one row at most (gaps and padding aside).
      if (l.toolbar > l.parts + 24) throw new Error(`the toolbar is ${l.toolbar} px high for a heading and a row of controls of ${l.parts} px`);
      await t.screenshot('96-graph-half-width');
      await frame.locator('#export-mermaid').click();
      const fence = page.locator('.monaco-editor .view-line', { hasText: '```mermaid' }).first();
      await fence.waitFor({ timeout: scaled(15000) });
      // A Markdown document: VS Code marks its tab with the language's icon (whichever editor has the
      // focus: the Markdown preview may open beside it and take it).
      const exportLabel = page.locator('.tabs-container [role="tab"]', { hasText: '```mermaid' }).locator('.monaco-icon-label').first();
      await t.waitUntil(async () => /\bmarkdown-lang-file-icon\b/.test((await exportLabel.getAttribute('class').catch(() => '')) ?? ''), {
        what: async () => `the export's tab marked as Markdown (its classes: "${await exportLabel.getAttribute('class').catch(() => '')}")`,
      });
      await t.screenshot('96-graph-mermaid-markdown');
      // An untitled editor with content: closed unsaved, none left behind to ask later.
      await closeAllEditors(t);
      if (await page.locator('.part.editor .tabs-container [role="tab"]', { hasText: 'Untitled' }).count()) throw new Error('the exported Markdown editor is still open');
    });

    await t.check('first user: New Ledger Script writes a script that runs green against the demo as written', async () => {
      await closeAllEditors(t);
      rmSync(script, { force: true });
      await t.palette('Canton Ledger: New Ledger Script');
      await page.locator('.quick-input-widget', { hasText: '.ledger.json is added if missing' }).first().waitFor({ timeout: scaled(20000) });
      await page.keyboard.type(SCRIPT.replace('.ledger.json', ''));
      await page.keyboard.press('Enter');
      await page.locator('.tabs-container [role="tab"].active', { hasText: SCRIPT }).first().waitFor({ timeout: scaled(10000) });
      await t.waitUntil(async () => existsSync(script), { what: `${SCRIPT} written` });
      const create = JSON.parse(readFileSync(script, 'utf8')).steps[0].submit.commands[0].CreateCommand;
      if (!/^#demo-/.test(create.templateId) || Object.keys(create.createArguments).length === 0) throw new Error(`the first step creates ${JSON.stringify(create)}, not a filled-in template of the demo`);
      const lens = codeLens(t, 'Run Script');
      await lens.waitFor({ timeout: scaled(20000) });
      await lens.click();
      // The script's own mark on its first line says how the whole run went: passed only when every step did.
      const scriptState = () => gutterStateAt(t, 1);
      await t.waitUntil(async () => (await scriptState()) !== undefined, { timeout: scaled(30000), what: 'the script\'s state in the gutter' });
      if ((await scriptState()) !== 'passed') throw new Error(`the script ${await scriptState()}`);
      const failed = page.locator('.editor-group-container.active .monaco-editor .codicon-testing-failed-icon');
      if ((await failed.count()) !== 0) throw new Error(`${await failed.count()} failed mark(s) in the gutter`);
      await t.screenshot('96-new-script-green');
    });

    await t.check('first user: a failing run moves the editor to the failed expectation and shows actual != expected there, without a click', async () => {
      const text = readFileSync(script, 'utf8');
      const broken = text.replace('"count": 1', '"count": 2');
      if (broken === text) throw new Error(`no "count": 1 in ${SCRIPT}`);
      writeFileSync(script, broken);
      const lines = broken.split('\n');
      const createdLine = lines.findIndex((l) => l.includes('"created": [')) + 1;
      const countLine = lines.findIndex((l) => l.includes('"count": 2')) + 1;
      // The editor reads the file again (it has no edits of its own): the changed line, looked at.
      await t.palette('Go to Line/Column...');
      await t.inputBox(`:${countLine}`);
      await t.waitUntil(async () => (await editorText(page)).includes('"count": 2'), { timeout: scaled(15000), what: 'the editor to show the changed expectation' });
      // The cursor away from the step, at the top.
      await t.palette('Go to Line/Column...');
      await t.inputBox(':1');
      await t.waitUntil(async () => (await cursorLine(t)) === 1, { what: 'the cursor on line 1' });
      // From the palette, on the active editor: the file's change re-renders its lenses, and a click on
      // "Run Script" as it is replaced can be lost.
      await t.palette('Canton Ledger: Run Ledger Script');
      const message = page.locator('.monaco-editor .test-error-content-widget[monaco-visible-content-widget="true"]', { hasText: ' != ' }).first();
      await message.waitFor({ timeout: scaled(30000) });
      await t.waitUntil(async () => {
        const line = await cursorLine(t);
        return line !== undefined && line >= createdLine && line <= countLine;
      }, { what: async () => `the cursor at the failed expectation, lines ${createdLine}-${countLine} (it is on line ${await cursorLine(t)})` });
      const line = await cursorLine(t);
      const number = page.locator('.editor-group-container.active .monaco-editor .margin-view-overlays .line-numbers', { hasText: new RegExp(`^${line}$`) }).first();
      const [messageY, lineY] = [(await message.boundingBox())?.y, (await number.boundingBox())?.y];
      if (messageY === undefined || lineY === undefined || Math.abs(messageY - lineY) > 12) throw new Error(`actual != expected is not on line ${line}, where the cursor is (message at y=${messageY}, line at y=${lineY})`);
      await t.screenshot('96-script-failure-revealed');
      await page.keyboard.press('Escape');
    });

    await t.check('first user: Ctrl+. on "curr", far from "currency", offers "currency" first; on a missing field, "Add missing fields" fills them all', async () => {
      await closeAllEditors(t);
      writeFileSync(
        edited,
        JSON.stringify({ commandId: `first-user-fields-${Date.now()}`, actAs: [ALICE], userId: 'demo-admin', commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: ALICE, owner: ALICE, curr: 'USD' } } }] }, null, 2) + '\n',
      );
      await t.openFile(edited);
      await page.keyboard.press('ControlOrMeta+Shift+M');
      const ours = () => problemRows(page).filter({ hasText: 'Canton Ledger' });
      // No "did you mean": "curr" is too far from "currency" for that; the fix finds it anyway.
      await ours().filter({ hasText: 'Iou has no field "curr".' }).first().waitFor({ timeout: scaled(20000) });
      await cursorToProblem(page, 'has no field "curr"');
      const offered = await codeActions(t, 'Rename "curr" to "currency"');
      const renames = offered.filter((o) => o.startsWith('Rename "curr"'));
      if (renames[0] !== 'Rename "curr" to "currency"') throw new Error(`the renames offered begin with ${JSON.stringify(renames)}`);
      await t.screenshot('96-closest-field-offered');
      await pickAction(t, 'Rename "curr" to "currency"');
      await t.waitUntil(async () => (await editorText(page)).includes('"currency": "USD"'), { timeout: scaled(10000), what: 'the field renamed' });

      await cursorToProblem(page, 'Missing field "amount"');
      await codeActions(t, 'Add missing fields');
      await t.screenshot('96-add-missing-fields-offered');
      await pickAction(t, 'Add missing fields');
      await t.waitUntil(async () => {
        const text = await editorText(page);
        return /"amount": "/.test(text) && /"observers": \[\]/.test(text);
      }, { timeout: scaled(10000), what: async () => `amount and observers added (editor: ${JSON.stringify(await editorText(page))})` });
      await t.waitUntil(async () => (await ours().filter({ hasText: 'Missing field' }).count()) === 0, { timeout: scaled(15000), what: async () => `no missing field left (rows: ${JSON.stringify(await ours().allInnerTexts())})` });
      await page.keyboard.press('ControlOrMeta+Shift+M');
      await t.palette('View: Revert and Close Editor');
    });

    await t.check('first user: Active Contracts rows show the contracts\' argument values', async () => {
      await closeAllEditors(t);
      await t.palette('Canton Ledger: Focus on Active Contracts View');
      await t.onlyPaneExpanded('Active Contracts');
      const iouGroup = page.locator(`${ACS_PANE} [role="treeitem"][aria-level="1"]`, { hasText: 'demo-iou:Iou:Iou' }).first();
      await iouGroup.waitFor({ timeout: scaled(30000) });
      await expand(iouGroup);
      const contracts = page.locator(`${ACS_PANE} [role="treeitem"][aria-level="2"]`);
      await contracts.first().waitFor({ timeout: scaled(10000) });
      const descriptions = await contracts.evaluateAll((rows) => rows.map((r) => r.querySelector('.label-description')?.textContent ?? ''));
      const withValues = descriptions.filter((d) => /^currency [^,]+, amount \d+(\.\d+)? · signatories /.test(d));
      if (withValues.length !== descriptions.length) throw new Error(`rows without their values: ${JSON.stringify(descriptions.filter((d) => !withValues.includes(d)))}`);
      await t.screenshot('96-acs-argument-values');
    });

    await t.check('first user: Getting Started has its eight steps, the graph, scripts, Failed Commands and PQS among them', async () => {
      await t.setPaneExpanded('Connections', true);
      await t.setPaneExpanded('Updates', true);
      await t.hidePanel();
      const walkthrough = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).contributes.walkthroughs[0];
      const titles = walkthrough.steps.map((s) => s.title);
      if (titles.length !== 8) throw new Error(`package.json has ${titles.length} steps`);
      await t.palette('Welcome: Open Walkthrough...');
      await t.quickPick(walkthrough.title, { filter: walkthrough.title });
      const steps = page.locator('.gettingStartedContainer .getting-started-step .step-title');
      await t.waitUntil(async () => (await steps.count()) === titles.length, { timeout: scaled(20000), what: async () => `${titles.length} steps shown (shown: ${JSON.stringify(await steps.allInnerTexts())})` });
      const shown = (await steps.allInnerTexts()).map((s) => s.trim());
      if (JSON.stringify(shown) !== JSON.stringify(titles)) throw new Error(`the steps read ${JSON.stringify(shown)}, not ${JSON.stringify(titles)}`);
      // The first step's page beside the steps (a webview of its own, drawn after them).
      await t.waitUntil(async () => {
        for (const frame of page.frames()) if ((await frame.locator('body').innerText({ timeout: 200 }).catch(() => '')).includes('JSON Ledger API v2')) return true;
        return false;
      }, { timeout: scaled(15000), what: 'the first step\'s page drawn' });
      await t.screenshot('96-getting-started');
      // The picture in a taller window, all eight steps in view beside the first one's page.
      const viewport = page.viewportSize();
      await page.setViewportSize({ width: viewport.width, height: 1040 });
      try {
        const editor = page.locator('.part.editor').first();
        await t.waitUntil(async () => (await steps.last().boundingBox()).y + 30 < (await editor.boundingBox()).y + (await editor.boundingBox()).height, { what: 'the last step in view' });
        await picture(t, 'getting-started', { of: editor });
      } finally {
        await page.setViewportSize(viewport);
      }
    });
  } finally {
    await t.check('cleanup: editors closed, toasts cleared, the files removed, the demo stopped if started here', async () => {
      await page.keyboard.press('Escape');
      await closeAllEditors(t);
      await t.palette('Notifications: Clear All Notifications');
      await t.setPaneExpanded('Connections', true);
      await t.setPaneExpanded('Updates', true);
      await t.palette('View: Show Explorer');
      for (const f of [script, edited]) rmSync(f, { force: true });
      if (startedDemo) await t.stopDemo();
    });
  }
}
