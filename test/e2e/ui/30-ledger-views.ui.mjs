// The ledger views driven like a user would: the Updates view against the demo participant, the filter
// QuickPick (a small page size), Load more, an update's JSON, and a contract's events from the context menu.
import { expand, menu, shot } from './20-connections.ui.mjs';
import { scaled } from './lib.mjs';

const SIDEBAR = '.part.sidebar';

/** Top-level rows of the Updates view that are updates ("<offset>  Transaction, …"). */
function updateRows(t) {
  return t.page.locator(`${SIDEBAR} .pane:has(.pane-header[aria-label^="Updates"]) [role="treeitem"][aria-level="1"]`);
}

async function updateLabels(t) {
  return (await updateRows(t).evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''))).filter((l) => /^\d+ {2}\S/.test(l));
}

export default async function (t) {
  const { page } = t;

  await t.check('the Updates view lists the demo participant\'s updates', async () => {
    await t.startDemo();
    await t.palette('Canton Ledger: Focus on Updates View');
    // Room for the rows: a tree renders only the rows that fit in its pane.
    await t.setPaneExpanded('Connections', false);
    await t.waitUntil(async () => (await updateLabels(t)).some((l) => /^\d+ {2}Transaction, /.test(l)), {
      timeout: scaled(30000),
      what: async () => `transaction rows in the Updates view (rows: ${JSON.stringify((await updateRows(t).evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')))).slice(0, 5))})`,
    });
  });

  await t.check('the filter QuickPick sets the page size, shown as Load more', async () => {
    await t.palette('Canton Ledger: Filter Updates…');
    await t.quickPick('Page size');
    await t.inputBox('4');
    await t.quickPick('Apply', { filter: 'Apply' });
    await t.waitUntil(async () => (await updateLabels(t)).length === 4, { timeout: scaled(15000), what: async () => `4 update rows (got ${(await updateLabels(t)).length})` });
    await t.treeItem('Load more').waitFor({ timeout: scaled(10000) });
  });

  await t.check('"Load more" appends the next page to the list', async () => {
    const before = await updateLabels(t);
    await t.treeItem('Load more').click();
    const after = await t.waitUntil(async () => {
      const now = await updateLabels(t);
      return now.length > before.length ? now : undefined;
    }, { timeout: scaled(15000), what: 'more update rows' });
    if (after.slice(0, before.length).join('|') !== before.join('|')) throw new Error('the first page changed instead of growing');
    if (after.length !== before.length + 4) throw new Error(`one page of 4 more expected, got ${after.length - before.length}`);
  });

  await t.check('selecting a transaction opens its JSON in a read-only editor', async () => {
    const row = updateRows(t).filter({ hasText: 'Transaction' }).first();
    const offset = (await row.getAttribute('aria-label')).split(' ')[0];
    await row.click();
    const tab = page.locator('.tabs-container [role="tab"]', { hasText: `transaction-${offset}.json` }).first();
    await tab.waitFor({ timeout: scaled(15000) });
    await t.waitUntil(async () => (await page.locator('.editor-instance .view-lines').first().innerText()).includes('"updateId"'), { timeout: scaled(10000), what: 'the JSON with "updateId"' });
  });

  await t.check('"Show Contract Events" on a created event shows the contract in its view', async () => {
    const tx = updateRows(t).filter({ hasText: 'created' }).first();
    await expand(tx);
    const created = page.locator(`${SIDEBAR} [role="treeitem"][aria-level="2"][aria-label^="Created "]`).first();
    await created.waitFor({ timeout: scaled(10000) });
    const entity = (await created.getAttribute('aria-label')).split(',')[0].replace(/^Created /, '');
    await menu(created, 'Show Contract Events…');
    const contract = page.locator(`${SIDEBAR} .pane:has(.pane-header[aria-label^="Contract Events"]) [role="treeitem"][aria-level="1"]`).first();
    await t.waitUntil(async () => {
      const l = await contract.getAttribute('aria-label', { timeout: 1000 });
      return l && l.startsWith(`${entity}, `) && /(active|archived)/.test(l);
    }, { timeout: scaled(15000), what: async () => `the contract row "${entity}, active|archived" (got "${await contract.getAttribute('aria-label').catch(() => '')}")` });
    await page.locator(`${SIDEBAR} [role="treeitem"][aria-level="2"][aria-label^="Created ${entity}"]`).last().waitFor({ timeout: scaled(10000) });
    await shot(t, 'contract-events');
  });

  await t.check('cleanup: filter reset, demo participant stopped', async () => {
    await t.setPaneExpanded('Connections', true);
    await t.palette('Canton Ledger: Reset Updates Filter');
    await t.stopDemo();
  });
}
