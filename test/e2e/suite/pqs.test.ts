// PQS in the real extension host: a demo participant mirrored into a throw-away PostgreSQL (a process
// of its own, test/support/pqsDemoProcess.ts), a connection to it, Connect to PQS, the view's watermark
// and counts read from the store, a *.pqs.sql file run through the command, and a write refused.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/features';
import { extension, registerSecret, workspaceDir } from './helpers';
import { closeEditors, scripted } from './sendHelpers';

interface Fixture {
  child: ChildProcess;
  participantUrl: string;
  pqsUrl: string;
  password: string;
}

/** Starts the mirrored demo from the repository (the extension under test is the repository). */
function startFixture(): Promise<Fixture> {
  const root = extension().extensionPath;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'test/support/pqsDemoProcess.ts')], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ child, ...JSON.parse(line) }));
    child.once('exit', (code) => reject(new Error(`the PQS fixture exited (${code}) before it was ready`)));
  });
}

describe('PQS in the extension host', function () {
  this.timeout(120_000);
  let api: CantonLedgerApi;
  let prompts: Awaited<ReturnType<typeof scripted>>['prompts'];
  let fixture: Fixture;
  const id = `e2e-pqs-${Date.now()}`;
  /** The suites after this one find the connection that was active before it. */
  let previous: string | undefined;
  const dir = path.join(workspaceDir(), 'pqs-e2e');

  before(async () => {
    ({ api, prompts } = await scripted());
    previous = api.connections.profiles.active()?.id;
    fixture = await startFixture();
    registerSecret(fixture.password);
    await api.connections.profiles.save({ id, name: 'E2E PQS', url: fixture.participantUrl, auth: 'none', userId: 'demo-admin', source: 'user' });
    await vscode.commands.executeCommand('cantonLedger.connections.setActive', id);
    assert.equal(api.connections.connection(id)!.state.state, 'connected');
  });
  after(async () => {
    await closeEditors();
    fs.rmSync(dir, { recursive: true, force: true });
    if (previous) await vscode.commands.executeCommand('cantonLedger.connections.setActive', previous);
    await api.connections.profiles.remove(id);
    if (fixture?.child.exitCode === null) {
      const exited = new Promise((resolve) => fixture.child.once('exit', resolve));
      fixture.child.kill('SIGTERM');
      await exited;
    }
  });

  const labels = async (): Promise<string[]> =>
    (await api.pqs.getChildren()).map((n) => {
      const item = api.pqs.getTreeItem(n as never) as vscode.TreeItem;
      return `${typeof item.label === 'string' ? item.label : item.label?.label}${item.description ? ` | ${item.description}` : ''}`;
    });

  it('Connect to PQS: the caveat, the watermark with no lag, the templates with their active counts', async () => {
    await vscode.commands.executeCommand('cantonLedger.pqs.connect', { url: fixture.pqsUrl, password: fixture.password });
    const end = api.connections.connection(id)?.ledger?.ledgerEnd;
    const rows = await labels();
    assert.match(rows[0], /^Not filtered by party rights/);
    assert.ok(rows.some((r) => r.startsWith('Watermark | latest ') && r.includes(` lag 0 behind ledger end ${end}`)), rows.join('\n'));
    assert.ok(rows.some((r) => /^demo-iou:Iou:Iou \| \d+ active/.test(r)), rows.join('\n'));
  });

  it('a *.pqs.sql file runs through the command into rows; a statement that would write is refused before it is sent', async () => {
    fs.mkdirSync(dir, { recursive: true });
    const counts = path.join(dir, 'counts.pqs.sql');
    fs.writeFileSync(counts, "SELECT template_fqn, count FROM summary_active() WHERE payload_type = 'template' ORDER BY template_fqn\n");
    const result = (await vscode.commands.executeCommand('cantonLedger.pqs.runFile', vscode.Uri.file(counts))) as { columns: { name: string }[]; rows: unknown[][] } | undefined;
    assert.ok(result, 'a result');
    assert.deepEqual(result.columns.map((c) => c.name), ['template_fqn', 'count']);
    const iou = result.rows.find((r) => r[0] === 'demo-iou:Iou:Iou');
    const rows = await labels();
    const shown = rows.find((r) => r.startsWith('demo-iou:Iou:Iou | '))!;
    assert.equal(`demo-iou:Iou:Iou | ${Number(iou?.[1])} active`, shown.split(' · ')[0], 'the file and the view agree');

    const write = path.join(dir, 'write.pqs.sql');
    fs.writeFileSync(write, 'DELETE FROM transactions\n');
    const refused = await vscode.commands.executeCommand('cantonLedger.pqs.runFile', vscode.Uri.file(write));
    assert.equal(refused, undefined, 'nothing ran');
    // Refused by the statement guard, with its position: the read-only session never saw it.
    assert.ok(prompts.messages.some((m) => m.severity === 'error' && /"DELETE" at line 1, column 1 is not a reading statement/.test(m.text)), JSON.stringify(prompts.messages.map((m) => m.text)));
  });
});
