// Ledger scripts like a user: the "Run Script" CodeLens on a script that passes and on a broken copy,
// the failure shown at the step's expectation with expected vs actual (the peek VS Code opens for a
// failed test in the visible editor), and the Test Explorer with both scripts and their steps.
// Runs against the demo participant.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeAllEditors, codeLens } from './50-submit.ui.mjs';

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
      await lens.waitFor({ timeout: 20000 });
      await lens.click();
      // The gutter of each step shows its state once the run reports it.
      await t.waitUntil(async () => (await t.page.locator('.monaco-editor .codicon-testing-passed-icon').count()) >= 3, { timeout: 30000, what: 'three passed steps in the gutter' });
      await t.screenshot('85-scripts-passed');
    });

    await t.check('"Run Script" on a broken copy: the failure is shown at the step\'s expectation, with expected and actual', async () => {
      await closeAllEditors(t);
      await t.openFile(path.join(t.workspace, FAILING));
      const lens = codeLens(t, 'Run Script');
      await lens.waitFor({ timeout: 20000 });
      await lens.click();
      const message = t.page.getByText(/Expected 1 created #demo-iou:Iou:Iou with \{"amount":"45"\}; found 0 with those fields/).first();
      await message.waitFor({ timeout: 30000 });
      await t.waitUntil(async () => (await t.page.locator('.monaco-editor .codicon-testing-failed-icon').count()) >= 1, { timeout: 15000, what: 'a failed step in the gutter' });
      await t.screenshot('85-scripts-failure-at-step');
      await t.page.keyboard.press('Escape');
    });

    await t.check('the Test Explorer lists both scripts and their steps, the failing step marked', async () => {
      await t.palette('Testing: Focus on Test Explorer View');
      const failingRow = t.page.getByRole('treeitem', { name: new RegExp(FAILING.replace(/\./g, '\\.')) }).first();
      await failingRow.waitFor({ timeout: 20000 });
      await t.page.getByRole('treeitem', { name: new RegExp(PASSING.replace(/\./g, '\\.')) }).first().waitFor({ timeout: 20000 });
      if ((await failingRow.getAttribute('aria-expanded')) === 'false') await failingRow.click().then(() => t.page.keyboard.press('ArrowRight'));
      const step = t.page.getByRole('treeitem', { name: /3\. Bob splits it/ }).first();
      await step.waitFor({ timeout: 20000 });
      await t.waitUntil(async () => (await step.locator('.codicon-testing-failed-icon').count()) === 1, { timeout: 15000, what: 'the step "3. Bob splits it" marked failed' });
      await t.screenshot('85-scripts-test-explorer');
    });
  } finally {
    await t.page.keyboard.press('Escape').catch(() => {});
    await closeAllEditors(t).catch(() => {});
    await t.palette('Notifications: Clear All Notifications').catch(() => {});
    await t.palette('View: Close Primary Side Bar').catch(() => {});
    rmSync(path.join(t.workspace, PASSING), { force: true });
    rmSync(path.join(t.workspace, FAILING), { force: true });
    if (startedDemo) await t.stopDemo();
  }
}
