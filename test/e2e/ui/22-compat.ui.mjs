// The compatibility report, as a user meets it: the connected demo's tooltip in the Connections view
// carries the report's summary (the demo serves no API description: the version table decides, and it
// says so), and "Show Compatibility Report" from the palette opens the report, rendered. Screenshots of both.

import { scaled } from './lib.mjs';
import { connectionRow, hoverText, shot, showConnections, withCleanup } from './20-connections.ui.mjs';

export default async function (t) {
  await t.check('the Connections tooltip carries the compatibility summary; "Show Compatibility Report" opens the report', async () => {
    await withCleanup(t, { stopDemo: true }, async () => {
      await showConnections(t);
      await t.startDemo();
      const row = connectionRow(t, 'Demo');
      await row.waitFor({ timeout: scaled(20000) });
      const reportSummary = /Canton 3\.5\.\d+, checked against the version table only: the participant does not serve its API description/;
      const summary = /Compatibility: Canton 3\.5\.\d+, checked against the version table only: the participant does not serve its API description/;
      const text = await t.waitUntil(
        async () => {
          const hover = await hoverText(t, row);
          return summary.test(hover) ? hover : undefined;
        },
        { timeout: scaled(20000), what: 'the compatibility summary in the Demo connection’s tooltip' },
      );
      if (!text.includes('Show Compatibility Report')) throw new Error(`the tooltip has no link to the report: ${text}`);
      await t.page.locator('.monaco-icon-label', { hasText: 'Demo' }).first().hover();
      await t.page.locator('.monaco-hover.workbench-hover').first().waitFor({ timeout: scaled(8000) });
      await shot(t, '22-compat-tooltip');
      await t.page.mouse.move(700, 300);

      await t.palette('Canton Ledger: Show Compatibility Report');
      await t.page.locator('.tabs-container [role="tab"]', { hasText: 'Compatibility of Demo' }).first().waitFor({ timeout: scaled(15000) });
      // The Markdown preview renders in a webview, a frame of its own: wait for the report's heading there.
      await t.waitUntil(
        async () => {
          for (const frame of t.page.frames()) {
            const heading = await frame.locator('h1').first().innerText({ timeout: 200 }).catch(() => undefined);
            if (heading === 'Compatibility of Demo' && reportSummary.test(await frame.locator('body').innerText({ timeout: 1000 }))) return true;
          }
          return undefined;
        },
        { timeout: scaled(20000), what: 'the rendered report: its heading and summary' },
      );
      await shot(t, '22-compat-report');
      await t.palette('View: Close All Editors');
    });
  });
}
