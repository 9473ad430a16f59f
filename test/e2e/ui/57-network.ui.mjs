// The network like a user: Start Demo Network from the palette (three participants, a connection
// each), the Network view with the parties each hosts and the vetting matrix; a version of demo-iou
// vetted on app-user alone (a vetting file applied there) marks drift for Alice, who is hosted on
// app-user and app-provider; Compare Participants from Alice's row opens the consistency check.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { closeAllEditors, codeLens } from './50-submit.ui.mjs';
import { picture } from './95-first-user-send.ui.mjs';
import { scaled } from './lib.mjs';

/** Makes `name` the active connection (the target of a file's CodeLenses). */
export async function activate(t, name) {
  await t.palette('Canton Ledger: Select Active Connection');
  await t.quickPick(name);
}

/** Applies a vetting file on the participant `name` through its CodeLens and the confirmation, and waits for its report. */
export async function applyVettingOn(t, name, file) {
  await activate(t, name);
  await t.openFile(file);
  const lens = codeLens(t, `Apply on ${name}`);
  await lens.waitFor({ timeout: scaled(15000) });
  await lens.click();
  const dialog = t.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: scaled(20000) });
  await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
  await dialog.waitFor({ state: 'detached', timeout: scaled(10000) });
  // The report of the apply opens (rendered) once the vetting is changed.
  const base = path.basename(file).replace(/\.vetting\.json$/, '');
  await t.page.locator(`.tabs-container [role="tab"][aria-label*="${base} applied"]`).first().waitFor({ timeout: scaled(20000) });
  await closeAllEditors(t);
}

const FILE = 'ui-network.vetting.json';
const NETWORK_PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="Network"])';

/** A row of the Network view by the start of its accessible name ("label, description"). */
export function networkRow(t, name) {
  return t.page.locator(`${NETWORK_PANE} [role="treeitem"][aria-label^="${name}"]`).first();
}

export async function networkRunning(t) {
  return t.paletteHas('Canton Ledger: Stop Demo Network', { attempts: 1 });
}

export default async function (t) {
  const file = path.join(t.workspace, FILE);
  let started = false;

  await t.check('Start Demo Network: the Network view lists app-provider, app-user and sv with the parties each hosts', async () => {
    if (!(await networkRunning(t))) {
      await t.palette('Canton Ledger: Start Demo Network');
      started = true;
    }
    await t.openView('Canton Ledger');
    await t.onlyPaneExpanded('Network');
    for (const row of ['app-provider, Canton', 'app-user, Canton', 'sv, Canton', 'Alice, confirmation · also on app-user', 'Bob, submission', 'Charlie, submission']) {
      await networkRow(t, row).waitFor({ timeout: scaled(30000) });
    }
    await networkRow(t, 'Vetting, 5 package names').waitFor({ timeout: scaled(10000) });
    await t.screenshot('57-network-view');
  });

  await t.check('a version vetted on app-user alone marks demo-iou as drifting for Alice, with the hosts that lack it', async () => {
    writeFileSync(file, JSON.stringify({ changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }] }, null, 2) + '\n');
    await applyVettingOn(t, 'app-user', file);
    await t.openView('Canton Ledger');
    await t.onlyPaneExpanded('Network');
    const drifting = networkRow(t, 'demo-iou, drift for Alice');
    await drifting.waitFor({ timeout: scaled(30000) });
    if ((await drifting.getAttribute('aria-expanded')) !== 'true') await drifting.click();
    await networkRow(t, '2.0.0, app-user · not on app-provider, sv').waitFor({ timeout: scaled(10000) });
    await networkRow(t, 'Vetting, 5 package names · 1 drifting').waitFor({ timeout: scaled(10000) });
    await t.screenshot('57-network-drift');
    await picture(t, 'network-view', { of: t.page.locator('.part.sidebar') });
  });

  await t.check('Compare Participants from Alice’s row: her two hosts agree, the check opens as a document', async () => {
    const alice = networkRow(t, 'Alice, confirmation');
    await t.contextMenu(alice, 'Compare Participants…');
    const tab = t.page.locator('.tabs-container [role="tab"].active[aria-label^="Alice on app-provider vs app-user"]').first();
    await tab.waitFor({ timeout: scaled(30000) });
    await t.waitUntil(async () => /consistent: app-provider and app-user tell the same \d+ transactions/.test(await t.visibleEditorText()), { what: 'the verdict in the document' });
    await t.screenshot('57-network-compare-participants');
  });

  await t.check('cleanup: Stop Demo Network, the file removed', async () => {
    await closeAllEditors(t);
    if (started) {
      await t.palette('Canton Ledger: Stop Demo Network');
      await t.waitUntil(async () => !(await networkRunning(t)), { timeout: scaled(30000), what: 'the demo network to stop' });
    }
    rmSync(file, { force: true });
  });
}
