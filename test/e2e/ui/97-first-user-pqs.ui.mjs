// PQS with the demo participant as a first-time user who has a PostgreSQL database: the PQS view's empty
// state says how to start, and "Set Up PQS for the Demo…" (the database's URL, then its password, kept in
// secret storage) starts the demo mirroring there and leads to the PQS view with the templates. The
// database is an empty one of a throw-away cluster (test/support/postgresProcess.ts), owned by a role
// with a random password. Runs last: the setting it writes is taken out again when it is done.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { showConnections } from './20-connections.ui.mjs';
import { closeAllEditors } from './50-submit.ui.mjs';
import { startFixture, stopFixture } from './90-pqs.ui.mjs';
import { picture } from './95-first-user-send.ui.mjs';
import { inputValue, scaled } from './lib.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="PQS"])';
const SETTING = 'cantonLedger.demo.pqsUrl';
const WIDER = 260;

/** The region of the PQS pane from its header to its last row, the side bar's width. */
async function pqsRows(t) {
  const header = await t.page.locator('.part.sidebar .pane-header[aria-label^="PQS"]').first().boundingBox();
  const last = await t.page.locator(`${PANE} [role="treeitem"]`).last().boundingBox();
  const bar = await t.page.locator('.part.sidebar').first().boundingBox();
  return { x: bar.x, y: header.y - 4, width: bar.width, height: last.y + last.height + 8 - (header.y - 4) };
}

/**
 * Drags the side bar's edge `by` pixels to the right (left when negative), as a user widens it to read
 * whole rows; waits until it has the new width.
 */
async function dragSideBarEdge(t, by) {
  const bar = t.page.locator('.part.sidebar').first();
  const before = await bar.boundingBox();
  const edge = before.x + before.width;
  const sashes = await t.page.locator('.monaco-sash.vertical').evaluateAll((ss) => ss.map((s) => s.getBoundingClientRect().toJSON()));
  const sash = sashes.find((r) => Math.abs(r.left + r.width / 2 - edge) < 6 && r.height > 100);
  if (!sash) throw new Error(`no sash at the side bar's edge (x=${edge})`);
  const y = sash.top + sash.height / 2;
  await t.page.mouse.move(edge, y);
  await t.page.mouse.down();
  await t.page.mouse.move(edge + by, y, { steps: 10 });
  await t.page.mouse.up();
  await t.waitUntil(async () => Math.abs((await bar.boundingBox()).width - (before.width + by)) < 20, { what: `the side bar ${before.width + by} px wide` });
}

async function topLabels(t) {
  return t.page.locator(`${PANE} [role="treeitem"][aria-level="1"]`).evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
}

/** Takes the demo's database out of the user settings again (as a user editing settings.json would); false: it was not there. */
function removeSetting(t) {
  const file = path.join(t.runDir, 'ui', 'ud', 'User', 'settings.json');
  if (!existsSync(file)) return false;
  const settings = JSON.parse(readFileSync(file, 'utf8'));
  if (!(SETTING in settings)) return false;
  delete settings[SETTING];
  writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
  return true;
}

/**
 * Waits until VS Code reads the settings without the database (the set-up's first question shows the
 * setting as the editor has it): a demo started before that would mirror into the database about to be
 * stopped, and fail to start.
 */
async function untilSettingGone(t, url) {
  await t.waitUntil(
    async () => {
      await t.palette('Canton Ledger: Set Up PQS for the Demo…');
      const value = await inputValue(t.page, { prompt: 'Set Up PQS for the Demo (1/2)' });
      await t.page.keyboard.press('Escape');
      return !value.includes(url);
    },
    { timeout: scaled(30000), what: 'VS Code to read the settings without the database' },
  );
}

export default async function (t) {
  const { page } = t;
  let fixture;
  let startedDemo = false;
  let widened = false;
  try {
    await t.check('first user: with the demo and no PQS, the PQS view says how to start: Set Up PQS for the Demo…, or Connect to PQS…', async () => {
      startedDemo = await t.startDemo();
      await closeAllEditors(t);
      await showConnections(t);
      await t.palette('Canton Ledger: Focus on PQS View');
      await t.onlyPaneExpanded('PQS');
      // Wide enough to read the rows whole (put back when done).
      await dragSideBarEdge(t, WIDER);
      widened = true;
      await t.waitUntil(async () => {
        const rows = await topLabels(t);
        return rows[0]?.startsWith('Set Up PQS for the Demo…, mirror the demo’s ledger into your PostgreSQL') && rows.some((l) => l.startsWith('Connect to PQS…'));
      }, { timeout: scaled(15000), what: async () => `the set-up first, then Connect to PQS… (rows: ${JSON.stringify(await topLabels(t))})` });
      await t.screenshot('97-pqs-empty-state');
      await picture(t, 'pqs-empty-state', { clip: await pqsRows(t) });
    });

    await t.check('first user: "Set Up PQS for the Demo…" asks for the database and its password, starts the demo mirroring there and shows the PQS view with the templates', async () => {
      fixture = await startFixture(REPO, 'test/support/postgresProcess.ts');
      t.secret(fixture.password);
      await page.locator(`${PANE} [role="treeitem"][aria-level="1"]`, { hasText: 'Set Up PQS for the Demo…' }).first().click();
      await t.inputBox(fixture.url, { prompt: 'Set Up PQS for the Demo (1/2)' });
      await t.waitForInput({ prompt: 'Set Up PQS for the Demo (2/2)' });
      // The password is typed into a masked box.
      if ((await page.locator('.quick-input-widget input').first().getAttribute('type')) !== 'password') throw new Error('the password box is not masked');
      await t.inputBox(fixture.password, { prompt: 'Set Up PQS for the Demo (2/2)' });
      await t.waitUntil(async () => {
        const rows = await topLabels(t);
        return rows.some((l) => /^Watermark, latest \d+ · oldest \d+ · never pruned · lag 0 behind ledger end \d+/.test(l)) && rows.some((l) => /^demo-iou:Iou:Iou, \d+ active/.test(l));
      }, { timeout: scaled(60000), what: async () => `the watermark and the Iou template (rows: ${JSON.stringify(await topLabels(t))})` });
      // The password is in secret storage, not in the setting.
      const settings = readFileSync(path.join(t.runDir, 'ui', 'ud', 'User', 'settings.json'), 'utf8');
      if (!settings.includes(fixture.url)) throw new Error(`the setting does not name the database: ${settings}`);
      await t.screenshot('97-pqs-set-up-for-the-demo');
      await picture(t, 'pqs-demo-set-up', { clip: await pqsRows(t) });
    });
  } finally {
    await t.check('cleanup: PQS disconnected, the demo stopped, the setting taken out, the database gone', async () => {
      await page.keyboard.press('Escape');
      await t.palette('Canton Ledger: Disconnect PQS').catch(() => {});
      await t.palette('Notifications: Clear All Notifications');
      await t.setPaneExpanded('Connections', true);
      await t.setPaneExpanded('Updates', true);
      // A demo started here stops; one that ran before is left running, mirroring nowhere once the setting is out.
      if (startedDemo) await t.stopDemo();
      if (removeSetting(t) && fixture) {
        // VS Code in code-server does not see a settings file written by another process (found: the setting was
        // still read 90 s later); a reload reads it again. The demo that ran comes back with the window, mirroring nowhere.
        const reloaded = t.page.waitForEvent('load', { timeout: scaled(30000) });
        await t.palette('Developer: Reload Window');
        await reloaded;
        await t.openView('Canton Ledger');
        await untilSettingGone(t, fixture.url);
      }
      if (widened) await dragSideBarEdge(t, -WIDER);
      await stopFixture(fixture);
    });
  }
}
