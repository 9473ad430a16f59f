// A window reload, last of the UI checks (every check after it would run in the reloaded window): the
// reload ends the extension host and the demos with it; the demo participant and the demo network that
// ran come back by themselves, their connections connected, each a network of its own in the Network
// view (the demo participant on its synchronizer, the demo network on LocalNet's `global`).
import { closeAllEditors } from './50-submit.ui.mjs';
import { networkRow, networkRunning } from './57-network.ui.mjs';
import { scaled } from './lib.mjs';

export default async function (t) {
  let networkStarted = false;
  let demoStarted = false;

  await t.check('before the reload: the demo participant and the demo network run', async () => {
    demoStarted = await t.startDemo();
    if (!(await networkRunning(t))) {
      await t.palette('Canton Ledger: Start Demo Network');
      networkStarted = true;
    }
    await t.openView('Canton Ledger');
    await t.onlyPaneExpanded('Network');
    // The demo participant's network folded, so that the demo network's row is drawn (a tree draws only the rows it shows).
    const demoNetwork = networkRow(t, 'demo-sync, ');
    await demoNetwork.waitFor({ timeout: scaled(30000) });
    await setRowExpanded(t, demoNetwork, false);
    await networkRow(t, 'global, 3 participants').waitFor({ timeout: scaled(30000) });
    await closeAllEditors(t);
  });

  await t.check('Developer: Reload Window: both demos start again by themselves, connected, a network each in the Network view', async () => {
    // A new page: nothing of the window before the reload is left to be found.
    const reloaded = t.page.waitForEvent('load', { timeout: scaled(30000) });
    await t.palette('Developer: Reload Window');
    await reloaded;
    await t.openView('Canton Ledger');
    await t.onlyPaneExpanded('Network');
    // Rows a participant has only once its connection is connected (its Canton version) and read. A tree
    // draws only the rows it shows, and VS Code restores the rows' folding of before the reload (the
    // checks before may have unfolded the demo's vetting): one network unfolded at a time.
    const demoNetwork = networkRow(t, 'demo-sync, ');
    await demoNetwork.waitFor({ timeout: scaled(60000) });
    await setRowExpanded(t, demoNetwork, true);
    await networkRow(t, 'demo-participant (Demo), Canton').waitFor({ timeout: scaled(60000) });
    await t.screenshot('99-reload-demos-back');
    await setRowExpanded(t, demoNetwork, false);
    const global = networkRow(t, 'global, 3 participants');
    await global.waitFor({ timeout: scaled(60000) });
    await setRowExpanded(t, global, true);
    await setRowExpanded(t, networkRow(t, 'Participants'), true);
    for (const row of ['app-provider, Canton', 'app-user, Canton', 'sv, Canton']) await networkRow(t, row).waitFor({ timeout: scaled(60000) });
    await t.waitUntil(() => networkRunning(t), { what: 'Stop Demo Network offered (the network runs)' });
    await t.waitUntil(() => t.paletteHas('Canton Ledger: Stop Demo Participant', { attempts: 1 }), { what: 'the demo participant running' });
    await t.screenshot('99-reload-demo-network-back');
  });

  await t.check('cleanup: the demos as they were before these checks', async () => {
    if (networkStarted) {
      await t.palette('Canton Ledger: Stop Demo Network');
      await t.waitUntil(async () => !(await networkRunning(t)), { timeout: scaled(30000), what: 'the demo network to stop' });
    }
    if (demoStarted) await t.stopDemo();
  });
}

/**
 * Unfolds or folds a tree row, until the tree says it is so: a click toggles it, and a click that lands
 * while the view redraws (its connections connecting) may be lost, so it is clicked again if need be.
 */
async function setRowExpanded(t, row, expanded) {
  await row.waitFor({ timeout: scaled(30000) });
  const isSo = async () => (await row.getAttribute('aria-expanded')) === String(expanded);
  await t.waitUntil(
    async () => {
      if (await isSo()) return true;
      await row.click();
      return false;
    },
    { timeout: scaled(30000), interval: 1000, what: `the row ${expanded ? 'unfolded' : 'folded'}` },
  );
}
