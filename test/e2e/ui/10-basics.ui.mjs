// Basic workbench checks: the view container, the palette, the output channel.
import { scaled } from './lib.mjs';
export default async function (t) {
  const { page } = t;

  await t.check('"Canton Ledger" activity bar container shows the Connections view', async () => {
    await t.openView('Canton Ledger');
    // A container with a single view hides that view's header (the side bar title reads "Canton Ledger: Connections"): attached, not visible.
    await t.viewPane('Connections').waitFor({ state: 'attached', timeout: scaled(15000) });
    // Opening the view is this window's first use of the extension: its stand-in view loads the
    // features, whose view takes over and shows the welcome (no connection yet).
    await page.locator('.part.sidebar').getByText('No participant connection yet.').waitFor({ timeout: scaled(15000) });
  });

  await t.check('command palette lists "Canton Ledger: Show Log"', async () => {
    await t.paletteFind('Canton Ledger: Show Log');
    await page.keyboard.press('Escape');
  });

  await t.check('"Canton Ledger: Show Log" shows the "Canton Ledger" output channel', async () => {
    await t.palette('Canton Ledger: Show Log');
    await t.waitUntil(async () => (await t.outputChannel()) === 'Canton Ledger', {
      timeout: scaled(15000),
      what: async () => `the Output panel to show "Canton Ledger" (it shows "${await t.outputChannel()}")`,
    });
  });
}
