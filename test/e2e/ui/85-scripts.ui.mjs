// Ledger scripts like a user: the "Run Script" CodeLens on a script that passes and on a broken copy,
// the failure shown at the step's expectation with expected vs actual (the peek VS Code opens for a
// failed test in the visible editor), and the Test Explorer with both scripts and their steps.
// Runs against the demo participant.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeAllEditors, codeLens } from './50-submit.ui.mjs';
import { scaled } from './lib.mjs';

const EXAMPLES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'examples', 'demo-workspace', 'scripts');
const PASSING = 'ui-holding.ledger.json';
const FAILING = 'ui-lifecycle-broken.ledger.json';

export default async function (t) {
  writeFileSync(path.join(t.workspace, PASSING), readFileSync(path.join(EXAMPLES, 'holding-transfer.ledger.json'), 'utf8'));
  // The split makes 40 and 60: the copy expects 45.
  writeFileSync(path.join(t.workspace, FAILING), readFileSync(path.join(EXAMPLES, 'iou-lifecycle.ledger.json'), 'utf8').replace('"fields": { "amount": "40" }', '"fields": { "amount": "45" }'));
  let startedDemo = false;
  try {
    await t.check('"Run Script" on a script that passes: every step passes', async () => {
      startedDemo = await t.startDemo();
      await closeAllEditors(t);
      await t.hidePanel();
      await t.openFile(path.join(t.workspace, PASSING));
      const lens = codeLens(t, 'Run Script');
      await lens.waitFor({ timeout: scaled(20000) });
      await lens.click();
      // The gutter of each step shows its state once the run reports it.
      await t.waitUntil(async () => (await t.page.locator('.monaco-editor .codicon-testing-passed-icon').count()) >= 3, { timeout: scaled(30000), what: 'three passed steps in the gutter' });
      await t.screenshot('85-scripts-passed');
    });

    await t.check('"Run Script" on a broken copy: the failure is shown at the step\'s expectation, with expected and actual', async () => {
      await closeAllEditors(t);
      await t.openFile(path.join(t.workspace, FAILING));
      const lens = codeLens(t, 'Run Script');
      await lens.waitFor({ timeout: scaled(20000) });
      await lens.click();
      // The run's verdict shows on the failing step's first line, the step's failure at its expectation
      // (line 52), each as VS Code's inline test message; a message with expected and actual reads
      // "actual != expected".
      const inline = (text) => t.page.locator('.monaco-editor .test-error-content-widget[monaco-visible-content-widget="true"]', { hasText: text }).first();
      await inline('a step failed (2 passed, 1 failed, 0 unknown, 2 not run)').waitFor({ timeout: scaled(30000) });
      await t.palette('Go to Line/Column...');
      await t.inputBox(':60');
      await t.waitUntil(async () => /Ln 60,/.test(await t.page.locator('.statusbar-item[id="status.editor.selection"]').innerText().catch(() => '')), { timeout: scaled(5000), what: 'the cursor on line 60' });
      const stepMessage = inline(/ != 1 created #dem/);
      await stepMessage.waitFor({ timeout: scaled(15000) });
      const line52 = t.page.locator('.monaco-editor .margin-view-overlays .line-numbers', { hasText: /^52$/ }).first();
      await line52.waitFor({ timeout: scaled(10000) });
      const [messageY, lineY] = [(await stepMessage.boundingBox())?.y, (await line52.boundingBox())?.y];
      if (messageY === undefined || lineY === undefined || Math.abs(messageY - lineY) > 12) throw new Error(`the failure message is not on line 52, the expectation that failed (message at y=${messageY}, line 52 at y=${lineY})`);
      await t.screenshot('85-scripts-failure-at-step');
      await t.page.keyboard.press('Escape');
    });

    await t.check('the Test Explorer lists both scripts and their steps, the failing step marked', async () => {
      await t.palette('Testing: Focus on Test Explorer View');
      const row = (text) => t.page.locator('.part.sidebar .monaco-list-row', { hasText: text }).first();
      await row(PASSING).waitFor({ timeout: scaled(20000) });
      const failingRow = row(FAILING);
      await failingRow.waitFor({ timeout: scaled(20000) });
      if ((await failingRow.getAttribute('aria-expanded')) === 'false') await failingRow.click().then(() => t.page.keyboard.press('ArrowRight'));
      const step = row('3. Bob splits it');
      await step.waitFor({ timeout: scaled(20000) });
      await t.waitUntil(async () => (await step.locator('.codicon-testing-failed-icon').count()) === 1 && (await failingRow.locator('.codicon-testing-failed-icon').count()) === 1 && (await row(PASSING).locator('.codicon-testing-passed-icon').count()) === 1, { timeout: scaled(15000), what: 'the passing script marked passed, the failing one and its step "3. Bob splits it" marked failed' });
      await t.screenshot('85-scripts-test-explorer');
    });
  } finally {
    await t.page.keyboard.press('Escape').catch(() => {});
    await closeAllEditors(t).catch(() => {});
    await t.palette('Notifications: Clear All Notifications').catch(() => {});
    // The side bar back on the Explorer, as the checks before left it.
    await t.palette('View: Show Explorer').catch(() => {});
    rmSync(path.join(t.workspace, PASSING), { force: true });
    rmSync(path.join(t.workspace, FAILING), { force: true });
    if (startedDemo) await t.stopDemo();
  }
}
