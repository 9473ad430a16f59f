// Compare Parties like a user: the command from the palette, two parties picked in the multi-select,
// the whole ledger, the result side by side (summary, a transaction both see differently, the create
// Alice only witnesses); then a typed offset range, refused while wrong.
import { closeAllEditors } from './50-submit.ui.mjs';
import { scaled } from './lib.mjs';

const SUMMARY = /^Alice sees \d+ of \d+ transactions; Bob sees \d+; \d+ seen by both/;

/** The Compare Parties tab of the panel (a view of its own there: the tab is the view). */
function compareTab(t) {
  // By its text: the tab element itself may carry no aria-label (its label is a child's).
  return t.page.locator('.part.panel [role="tab"]', { hasText: 'Compare Parties' });
}

/** Whether the panel shows the Compare Parties tab as the selected one (any rendering of the tab says so). */
function compareTabSelected(t) {
  return compareTab(t).evaluateAll((tabs) => tabs.some((tab) => tab.getAttribute('aria-selected') === 'true' || tab.classList.contains('checked')));
}

/** The rows of the Compare Parties view, in the panel, by their accessible names. */
async function compareLabels(t) {
  return t.page.locator('.part.panel').getByRole('treeitem').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
}

/** The row of `label` in the open quick pick (a multi-select's rows are checkboxes, not options). */
function pickRow(t, label) {
  return t.page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first();
}

/** Whether a multi-select row is ticked (the row or its checkbox says so). */
function ticked(row) {
  return row.evaluate((r) => r.getAttribute('aria-checked') === 'true' || [...r.querySelectorAll('[aria-checked], input[type="checkbox"]')].some((c) => c.getAttribute('aria-checked') === 'true' || c.checked === true));
}

/** Ticks `label` in the open multi-select quick pick. */
async function tick(t, label) {
  const row = pickRow(t, label);
  await row.waitFor({ timeout: scaled(15000) });
  await row.click();
  await t.waitUntil(() => ticked(row), { what: `${label} ticked` });
}

async function confirmPick(t) {
  await t.page.locator('.quick-input-widget .monaco-button', { hasText: /^OK$/ }).first().click();
}

export default async function (t) {
  let startedDemo = false;

  await t.check('Compare Parties… from the palette: pick Alice and Bob, then the whole ledger', async () => {
    startedDemo = await t.startDemo();
    await t.palette('Canton Ledger: Compare Parties…');
    await t.waitForInput({ prompt: 'Compare Parties (1/2)' });
    await tick(t, 'Alice');
    await tick(t, 'Bob');
    await t.screenshot('65-compare-pick-parties');
    await confirmPick(t);
    await t.waitForInput({ prompt: 'Compare Parties (2/2)' });
    await t.screenshot('65-compare-pick-range');
    await t.quickPick('Whole ledger');
  });

  await t.check('the result opens in the panel, its own tab, shown and focused: the summary, and a row per transaction with a column per party', async () => {
    await t.page.locator('.part.panel').waitFor({ state: 'visible', timeout: scaled(10000) });
    await t.waitUntil(() => compareTabSelected(t), {
      what: async () => `the Compare Parties tab of the panel to be the selected one (tabs: ${JSON.stringify(await t.page.locator('.part.panel [role="tab"]').evaluateAll((tabs) => tabs.map((x) => `${x.textContent} selected=${x.getAttribute('aria-selected')} class=${x.className}`)))})`,
    });
    await t.waitUntil(async () => (await compareLabels(t)).some((l) => SUMMARY.test(l)), {
      timeout: scaled(30000),
      what: async () => `the summary in the Compare Parties view (rows: ${JSON.stringify((await compareLabels(t)).slice(0, 4))})`,
    });
    const labels = await compareLabels(t);
    if (!labels.some((l) => /^\d+ +Transaction, Alice ✓ · Bob — *$/.test(l))) throw new Error(`no transaction Alice alone sees: ${JSON.stringify(labels)}`);
    if (!labels.some((l) => /^\d+ +Transaction, Alice ✓ · Bob ✓ · .*differ$/.test(l))) throw new Error(`no transaction both see differently: ${JSON.stringify(labels)}`);
    await t.screenshot('65-compare-result-in-panel');
  });

  await t.check('a transaction both see differently: the create Alice only witnesses, marked', async () => {
    const row = t.page.getByRole('treeitem', { name: /^\d+ +Transaction, Alice ✓ · Bob ✓ · commandId, events, event views differ$/ }).first();
    await row.waitFor({ timeout: scaled(10000) });
    await row.locator('.monaco-tl-twistie').click();
    const witnessed = t.page.getByRole('treeitem', { name: /^Created Iou:Iou, Alice witness · Bob stakeholder/ }).first();
    await witnessed.waitFor({ timeout: scaled(10000) });
    await t.page.getByRole('treeitem', { name: /^Exercised Iou_Transfer on Iou:Iou, Alice actor · Bob —/ }).first().waitFor({ timeout: scaled(10000) });
    // Selecting the event opens both parties' views of it side by side in one JSON document.
    await witnessed.click();
    const shown = async () => (await t.page.locator('.monaco-editor .view-lines').allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
    await t.waitUntil(async () => /"Alice": \{/.test(await shown()) && /"seenAs": "witness"/.test(await shown()), { timeout: scaled(10000), what: 'the JSON of both views' });
    await t.screenshot('65-compare-witnessed-event');
  });

  await t.check('a typed offset range: a wrong one is refused with the reason, a right one compared', async () => {
    await closeAllEditors(t);
    await t.palette('Canton Ledger: Compare Parties…');
    await t.waitForInput({ prompt: 'Compare Parties (1/2)' });
    // The last pick is offered again.
    await t.waitUntil(async () => (await ticked(pickRow(t, 'Alice'))) && ticked(pickRow(t, 'Bob')), { what: 'Alice and Bob picked as last time' });
    await confirmPick(t);
    await t.quickPick('Offset range…');
    await t.waitForInput({ prompt: 'First and last offset' });
    await t.page.locator('.quick-input-widget input').fill('9-3');
    await t.waitUntil(async () => (await t.inputMessage()).includes('The last offset (3) is before the first (9)'), { what: 'the range refused' });
    await t.screenshot('65-compare-range-refused');
    await t.inputBox('2-12');
    await t.waitUntil(async () => (await compareLabels(t)).some((l) => SUMMARY.test(l) && l.includes('offsets 2–12')), { timeout: scaled(30000), what: 'the summary of offsets 2–12' });
  });

  await t.check('Close Comparison hides the view; cleanup: editors closed, the panel hidden, toasts cleared', async () => {
    await closeAllEditors(t);
    await t.palette('Canton Ledger: Close Comparison');
    await compareTab(t).first().waitFor({ state: 'detached', timeout: scaled(10000) });
    await t.hidePanel();
    await t.palette('Notifications: Clear All Notifications');
    if (startedDemo) await t.stopDemo();
  });
}
