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
    if ((await demoNetwork.getAttribute('aria-expanded')) === 'true') await demoNetwork.click();
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
    // Rows a participant has only once its connection is connected (its Canton version) and read.
    const demoNetwork = networkRow(t, 'demo-sync, ');
    await demoNetwork.waitFor({ timeout: scaled(60000) });
    await networkRow(t, 'demo-participant (Demo), Canton').waitFor({ timeout: scaled(60000) });
    await networkRow(t, 'global, 3 participants').waitFor({ timeout: scaled(60000) });
    await t.screenshot('99-reload-demos-back');
    // The demo participant's network folded, so that the demo network's rows fit in the pane (a tree draws only the rows it shows).
    if ((await demoNetwork.getAttribute('aria-expanded')) === 'true') await demoNetwork.click();
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
