// Pre-flight like a user, on the demo network started from the palette: demo-asset unvetted on
// app-provider (a vetting file applied there) while Alice is hosted on app-user and app-provider; the
// "Pre-flight" CodeLens of Alice's commands file marks the templateId with the host and the party (in
// the Problems panel) and opens the report, and a hover over the templateId says no version fits her
// and why; once demo-asset is vetted there again, pre-flight passes and the hover names the version
// Canton will use for her.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { closeAllEditors, codeLens } from './50-submit.ui.mjs';
import { problemRows } from './40-editing.ui.mjs';
import { picture } from './95-first-user-send.ui.mjs';
import { scaled } from './lib.mjs';
import { activate, applyVettingOn } from './57-network.ui.mjs';

/** Alice on the network the editor starts (its seed is fixed): her id is in app-user's namespace. */
const NETWORK_ALICE = 'Alice::122096ccd4a0410e84bd2741c8e75f4d31ea0ad1d878244612299fd47282123d0b3c';
const COMMANDS = 'ui-preflight.commands.json';
const UNVET = 'ui-preflight-unvet.vetting.json';
const VET = 'ui-preflight-vet.vetting.json';
const ASSET_REF = { packageName: 'demo-asset', packageVersion: '1.0.0' };

async function networkRunning(t) {
  return t.paletteHas('Canton Ledger: Stop Demo Network', { attempts: 1 });
}

/** Opens Alice's commands file with app-user (her submitting host) as its target and runs its Pre-flight lens. */
async function runPreflight(t) {
  await activate(t, 'app-user');
  await t.openFile(path.join(t.workspace, COMMANDS));
  // The editor may come back scrolled where an earlier check left its cursor (the file's end): the
  // lenses are above the first line.
  await t.page.locator('.editor-group-container').first().locator('.monaco-editor .view-lines').first().click();
  await t.page.keyboard.press('ControlOrMeta+Home');
  // "Pre-flight (N participants)": three here, one more when an earlier check left the single demo connected.
  const lens = codeLens(t, 'Pre-flight (');
  await lens.waitFor({ timeout: scaled(20000) });
  await lens.click();
}

/**
 * Hovers the templateId of the commands file (the first editor group's) until its hover says `text`:
 * the first hover may come before the packages are read or Canton has answered.
 */
async function templateIdHover(t, text) {
  // The editor may be scrolled where the pre-flight left its cursor: its first lines brought into view.
  const editor = t.page.locator('.editor-group-container').first().locator('.monaco-editor .view-lines').first();
  await editor.click();
  await t.page.keyboard.press('ControlOrMeta+Home');
  const id = editor.locator('span[class*="mtk"]', { hasText: 'demo-asset' }).first();
  const hover = t.page.locator('.monaco-hover', { hasText: text }).first();
  await t.waitUntil(
    async () => {
      await t.page.mouse.move(5, 5);
      await id.hover();
      return hover.waitFor({ timeout: scaled(3000) }).then(() => true, () => false);
    },
    { timeout: scaled(30000), what: `a hover over the templateId saying ${text}` },
  );
  return hover.innerText();
}

/**
 * Shows the Problems panel: the keys go to the commands file's editor (the report's preview, a webview
 * beside it, keeps the keys it has focus for).
 */
async function showProblems(t) {
  await t.page.locator('.editor-group-container').first().locator('.monaco-editor .view-lines').first().click();
  await t.page.keyboard.press('ControlOrMeta+Shift+M');
  await t.page.locator('.part.panel .markers-panel, .part.panel [id="workbench.panel.markers"]').first().waitFor({ timeout: scaled(10000) });
}

/**
 * The rendered body of the pre-flight report (the Markdown preview is a frame of its own), once it
 * shows; else the error names what the report's frames and the tabs showed instead.
 */
async function reportBody(t, verdict) {
  const shown = [];
  return t
    .waitUntil(
      async () => {
        shown.length = 0;
        for (const frame of t.page.frames()) {
          const heading = await frame.locator('h1').first().innerText({ timeout: 200 }).catch(() => undefined);
          if (heading !== `Pre-flight of ${COMMANDS}`) continue;
          const body = await frame.locator('body').innerText({ timeout: 1000 }).catch(() => '');
          if (verdict.test(body)) return body;
          shown.push(body.slice(0, 300));
        }
        return undefined;
      },
      { timeout: scaled(30000), what: `the rendered pre-flight report saying ${verdict}` },
    )
    .catch(async (e) => {
      const tabs = await t.page.locator('.part.editor .tabs-container [role="tab"]').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
      throw new Error(`${e.message}; the report frames showed ${JSON.stringify(shown)}; the tabs: ${JSON.stringify(tabs)}`);
    });
}

export default async function (t) {
  const files = [COMMANDS, UNVET, VET].map((f) => path.join(t.workspace, f));
  const [commands, unvet, vet] = files;
  let started = false;
  const commandsText = JSON.stringify({ commandId: `ui-preflight-${Date.now()}`, actAs: [NETWORK_ALICE], commands: [{ CreateCommand: { templateId: '#demo-asset:Asset:Asset', createArguments: { owner: NETWORK_ALICE, id: 'car-ui', description: 'Blue' } } }] }, null, 2) + '\n';
  const templateIdLine = commandsText.split('\n').findIndex((line) => line.includes('"templateId"')) + 1;

  await t.check('on the demo network, demo-asset unvetted on app-provider (a vetting file applied there)', async () => {
    if (!(await networkRunning(t))) {
      await t.palette('Canton Ledger: Start Demo Network');
      started = true;
    }
    await t.waitUntil(async () => t.paletteHas('Canton Ledger: Stop Demo Network', { attempts: 1 }), { timeout: scaled(30000), what: 'the demo network running' });
    writeFileSync(commands, commandsText);
    writeFileSync(unvet, JSON.stringify({ changes: [{ operation: { Unvet: { value: { packages: [ASSET_REF] } } } }] }, null, 2) + '\n');
    writeFileSync(vet, JSON.stringify({ changes: [{ operation: { Vet: { value: { packages: [ASSET_REF] } } } }] }, null, 2) + '\n');
    await applyVettingOn(t, 'app-provider', unvet);
  });

  await t.check('Pre-flight of Alice’s commands file: the templateId is marked with app-provider and Alice, in the Problems panel', async () => {
    await runPreflight(t);
    await t.page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: scaled(30000) });
    await showProblems(t);
    const row = problemRows(t.page).filter({ hasText: 'which has not vetted any version of demo-asset' }).first();
    await row.waitFor({ timeout: scaled(15000) });
    const text = await row.innerText();
    if (!/Alice \(Alice::1220[0-9a-f]+\) is hosted on app-provider \(confirmation\)/.test(text)) throw new Error(`the Problems row reads "${text}"`);
    // The mark is at the templateId.
    if (!new RegExp(`\\[Ln ${templateIdLine}, Col \\d+\\]`).test(text)) throw new Error(`the problem is not at the templateId: "${text}"`);
    await t.screenshot('59-preflight-problem');
  });

  await t.check('a hover over the templateId: no version of demo-asset fits Alice, app-provider lacks it', async () => {
    await t.hidePanel();
    const text = await templateIdHover(t, /No version of demo-asset is vetted by every participant hosting Alice: commands using it will fail/);
    if (!/is hosted on app-provider \(confirmation\), which has not vetted any version of demo-asset/.test(text)) throw new Error(`the hover reads "${text}"`);
    await t.screenshot('59-preflight-hover-none');
    await t.page.mouse.move(5, 5);
  });

  await t.check('the pre-flight report opens rendered: demo-asset has no version for Alice', async () => {
    await t.page.locator('.tabs-container [role="tab"][aria-label*="ui-preflight.commands.json.md"]').first().waitFor({ timeout: scaled(20000) });
    const body = await reportBody(t, /will fail/);
    if (!/demo-asset\s+none\s+Alice/.test(body)) throw new Error(`the report has no failing row for demo-asset: ${body.slice(0, 600)}`);
    await t.screenshot('59-preflight-report');
    await picture(t, 'preflight', { of: t.page.locator('.part.editor') });
  });

  await t.check('after vetting demo-asset on app-provider again, Pre-flight passes and the mark is gone', async () => {
    await closeAllEditors(t);
    await t.hidePanel();
    await applyVettingOn(t, 'app-provider', vet);
    await runPreflight(t);
    await reportBody(t, /Every command will find its package version\./);
    await showProblems(t);
    await t.waitUntil(async () => (await t.page.locator('.editor-group-container .monaco-editor .squiggly-error').count()) === 0, { timeout: scaled(15000), what: 'the squiggle gone' });
    await t.waitUntil(async () => (await problemRows(t.page).filter({ hasText: 'which has not vetted any version of demo-asset' }).count()) === 0, { timeout: scaled(15000), what: 'the pre-flight problem gone' });
    await t.screenshot('59-preflight-passes');
  });

  await t.check('a hover over the templateId names the version Canton will use for Alice', async () => {
    await t.hidePanel();
    const text = await templateIdHover(t, /Canton will use demo-asset 1\.0\.0 for Alice/);
    if (!/preferred-packages on app-user\): the highest version vetted by every participant hosting Alice/.test(text)) throw new Error(`the hover reads "${text}"`);
    await t.screenshot('59-preflight-hover-version');
    // The README's picture: the file's editor from its top left to the hover's bottom right (the hover reaches over the report's column).
    const [editor, shown] = [await t.page.locator('.editor-group-container').first().boundingBox(), await t.page.locator('.monaco-hover', { hasText: 'Canton will use demo-asset' }).first().boundingBox()];
    await picture(t, 'preflight-hover', { clip: { x: editor.x, y: editor.y, width: shown.x + shown.width - editor.x + 8, height: shown.y + shown.height - editor.y + 8 } });
    await t.page.mouse.move(5, 5);
  });

  await t.check('cleanup: Stop Demo Network, the files removed', async () => {
    await closeAllEditors(t);
    if (started) {
      await t.palette('Canton Ledger: Stop Demo Network');
      await t.waitUntil(async () => !(await networkRunning(t)), { timeout: scaled(30000), what: 'the demo network to stop' });
    }
    for (const f of files) rmSync(f, { force: true });
  });
}
