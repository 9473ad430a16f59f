// The PQS view and *.pqs.sql files against a real PostgreSQL filled by the demo participant (a process
// of its own: test/support/pqsDemoProcess.ts, a throw-away cluster): Connect to PQS (URL, masked
// password), the watermark and lag, templates with counts, a template's contracts at a pinned offset
// with a payload filter and the suggested index, a contract's history, a file run into the result
// grid, and Cancel of a long query (checked on the server: the query is gone from pg_stat_activity).
import { spawn } from 'node:child_process';
import { writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { addConnection, expand, menu, rand, removeConnection, shot, showConnections, clearNotifications } from './20-connections.ui.mjs';
import { closeAllEditors, codeLens } from './50-submit.ui.mjs';

const PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="PQS"])';

function rowsAt(t, level) {
  return t.page.locator(`${PANE} [role="treeitem"][aria-level="${level}"]`);
}

async function labels(t, level) {
  return rowsAt(t, level).evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
}

/** Starts the demo participant mirrored into PostgreSQL (or another fixture `script`); resolves with what it printed. */
export function startFixture(root, script = 'test/support/pqsDemoProcess.ts') {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, script)], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve({ child, ...JSON.parse(line) }));
    child.once('exit', (code) => reject(new Error(`the PQS fixture exited (${code}) before it was ready`)));
  });
}

export async function stopFixture(fixture) {
  if (!fixture || fixture.child.exitCode !== null) return;
  const exited = new Promise((resolve) => fixture.child.once('exit', resolve));
  fixture.child.kill('SIGTERM');
  await exited;
}

/** The result grid's frame (webviews live in frames of their own). */
async function gridFrame(t, summary) {
  return t.waitUntil(
    async () => {
      for (const frame of t.page.frames()) {
        const text = await frame.locator('#summary').innerText({ timeout: 200 }).catch(() => undefined);
        if (text !== undefined && summary.test(text)) return frame;
      }
      return undefined;
    },
    { timeout: 30000, what: `a result grid reading ${summary}` },
  );
}

async function activeQueries(fixture, marker) {
  const c = new pg.Client({ host: fixture.cluster.host, port: fixture.cluster.port, user: fixture.cluster.user, password: fixture.cluster.password, database: fixture.database });
  await c.connect();
  try {
    const r = await c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()`, [`%${marker}%`]);
    return r.rows[0].n;
  } finally {
    await c.end();
  }
}

export default async function (t) {
  const { page } = t;
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
  const name = `UI PQS ${rand()}`;
  const files = [path.join(t.workspace, 'counts.pqs.sql'), path.join(t.workspace, 'slow.pqs.sql')];
  let fixture;
  const template = () => rowsAt(t, 1).filter({ hasText: 'demo-iou:Iou:Iou' }).first();
  try {
    await t.check('Connect to PQS: the watermark and lag, and the templates with their active counts', async () => {
      fixture = await startFixture(root);
      t.secret(fixture.password);
      await showConnections(t);
      await addConnection(t, { name, url: fixture.participantUrl });
      await t.palette('Canton Ledger: Focus on PQS View');
      await t.onlyPaneExpanded('PQS');
      await t.palette('Canton Ledger: Connect to PQS…');
      await t.inputBox(fixture.pqsUrl, { prompt: 'postgresql://' });
      await t.inputBox(fixture.password, { prompt: 'Password of pqs_reader' });
      await t.waitUntil(async () => {
        const top = await labels(t, 1);
        return top.some((l) => /^Watermark, latest \d+ · oldest \d+ · never pruned · lag 0 behind ledger end \d+/.test(l)) && top.some((l) => /^demo-iou:Iou:Iou, \d+ active/.test(l));
      }, { timeout: 30000, what: async () => `the watermark and the Iou count (rows: ${JSON.stringify(await labels(t, 1))})` });
      const top = await labels(t, 1);
      if (!top.some((l) => l.startsWith('Not filtered by party rights'))) throw new Error(`the authorization caveat is missing: ${JSON.stringify(top)}`);
      await t.screenshot('90-pqs-watermark-templates');
    });

    await t.check('a template\'s active contracts at a pinned offset, filtered on the payload, with the suggested index', async () => {
      await t.palette('Canton Ledger: PQS: Read as of…');
      await t.inputBox('20', { prompt: 'An offset' });
      await t.waitUntil(async () => (await labels(t, 1)).some((l) => l.startsWith('Reading at offset 20')), { timeout: 15000, what: async () => `"Reading at offset 20" (rows: ${JSON.stringify(await labels(t, 1))})` });
      await menu(template(), 'Filter by Payload…');
      await t.inputBox('currency=USD', { prompt: 'PATH OPERATOR VALUE' });
      await t.waitUntil(async () => /where currency=USD/.test((await template().getAttribute('aria-label')) ?? ''), { timeout: 15000, what: 'the filter on the template row' });
      await expand(template());
      await t.waitUntil(async () => {
        const rows = await labels(t, 2);
        return rows.some((l) => l.startsWith('Suggested payload index')) && rows.some((l) => /currency=USD/.test(l));
      }, { timeout: 15000, what: async () => `USD contracts and the index hint (rows: ${JSON.stringify(await labels(t, 2))})` });
      const rows = await labels(t, 2);
      if (rows.some((l) => /currency=(EUR|GBP|CHF)/.test(l))) throw new Error(`the filter let other currencies through: ${JSON.stringify(rows)}`);
      await t.screenshot('90-pqs-filtered-contracts');
    });

    await t.check('a contract\'s history: its create, the choices exercised on it, links to the graph and Contract Events', async () => {
      const contract = rowsAt(t, 2).filter({ hasText: 'currency=USD' }).first();
      await expand(contract);
      await t.waitUntil(async () => {
        const rows = await labels(t, 3);
        return rows.some((l) => /^create, offset \d+/.test(l)) && rows.some((l) => l.startsWith('Contract Events'));
      }, { timeout: 15000, what: async () => `the history rows (got ${JSON.stringify(await labels(t, 3))})` });
      await t.screenshot('90-pqs-history');
    });

    await t.check('a *.pqs.sql file runs from its CodeLens into the result grid, with the time taken', async () => {
      writeFileSync(files[0], "-- active contracts per template\nSELECT template_fqn, count FROM summary_active() WHERE payload_type = 'template' ORDER BY template_fqn;\n");
      await t.openFile(files[0]);
      await codeLens(t, 'Run on PQS').click();
      const frame = await gridFrame(t, /^\d+ rows in \d+ ms$/);
      await frame.locator('#grid tbody tr').first().waitFor({ timeout: 15000 });
      const cells = await frame.locator('#grid tbody td').allInnerTexts();
      if (!cells.includes('demo-iou:Iou:Iou')) throw new Error(`the grid lacks the Iou row: ${JSON.stringify(cells)}`);
      await t.screenshot('90-pqs-sql-grid');
      await closeAllEditors(t);
    });

    await t.check('Cancel stops a long query on the server', async () => {
      // A read that runs for minutes (pg_sleep is refused by the guard); while it runs, the session shows the FETCH from its cursor.
      writeFileSync(files[1], 'SELECT count(*) FROM (SELECT generate_series(1, 1000000000000)) AS s;\n');
      await t.openFile(files[1]);
      await codeLens(t, 'Run on PQS').click();
      await t.waitUntil(async () => (await activeQueries(fixture, 'FETCH FORWARD%canton_ledger_rows')) === 1, { timeout: 20000, what: 'the query running on the server' });
      const toast = page.locator('.notifications-toasts .notification-list-item', { hasText: 'Running slow.pqs.sql on PQS' }).first();
      await toast.waitFor({ timeout: 15000 });
      await shot(t, '90-pqs-running');
      await toast.getByRole('button', { name: 'Cancel' }).click();
      await t.waitUntil(async () => (await activeQueries(fixture, 'FETCH FORWARD%canton_ledger_rows')) === 0, { timeout: 20000, what: 'the query gone from pg_stat_activity' });
      await closeAllEditors(t);
    });
  } finally {
    await t.palette('Canton Ledger: Disconnect PQS').catch(() => {});
    await closeAllEditors(t).catch(() => {});
    await page.keyboard.press('Escape').catch(() => {});
    await t.setPaneExpanded('Connections', true).catch(() => {});
    await t.setPaneExpanded('Updates', true).catch(() => {});
    await showConnections(t).catch(() => {});
    await removeConnection(t, name).catch(() => {});
    await clearNotifications(t).catch(() => {});
    for (const f of files) rmSync(f, { force: true });
    await stopFixture(fixture);
  }
}
