// The compatibility report from the extension, against a demo participant that serves its own API
// description (`participant --openapi`): a copy of the official 3.5 spec without the updates page
// endpoint. Show Compatibility Report opens the report, the connection's tooltip carries its summary,
// and the Updates view shows the refused read as "Not sent" with the report's row. In-host.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import type { DemoParticipant } from '../../../src/participant';
import { loadSpec, specAvailable } from '../../support/spec';
import { extension, scaled, waitFor } from './helpers';
import { closeEditors, scripted } from './sendHelpers';

type ParticipantModule = typeof import('../../../src/participant');

const REFUSED_LINE = 'POST /v2/updates/get-updates-page: the participant does not have this endpoint; requests are not sent';

describe('the compatibility report, from the extension', function () {
  this.timeout(60_000);
  let api: CantonLedgerApi;
  let p: DemoParticipant;
  let profileId: string;
  let previouslyActive: string | undefined;

  before(async function () {
    if (!specAvailable('3.5')) this.skip();
    ({ api } = await scripted());
    previouslyActive = api.connections.profiles.active()?.id;
    const doc = structuredClone(loadSpec('3.5'));
    delete (doc.paths as Record<string, unknown>)['/v2/updates/get-updates-page'];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(extension().extensionPath, 'dist', 'participant.js')) as ParticipantModule;
    p = await mod.startDemoParticipant({ port: 0, seed: 23, apiVersion: '3.5', openapi: { text: JSON.stringify(doc) } });
    const profile = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', { name: 'E2E compat', url: p.url, auth: 'none', userId: 'demo-admin' });
    profileId = profile.id;
    await vscode.commands.executeCommand('cantonLedger.connections.setActive', profileId);
    const connection = api.connections.connectionFor(api.connections.profiles.get(profileId)!);
    await connection.connect();
    await connection.whenCompatibilityChecked();
  });
  after(async () => {
    await closeEditors();
    if (profileId) await api.connections.profiles.remove(profileId);
    if (previouslyActive) await vscode.commands.executeCommand('cantonLedger.connections.setActive', previouslyActive);
    await p?.close();
  });

  it('Show Compatibility Report opens the report: the participant, how it was checked, the refused endpoint', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cantonLedger.connections.showCompatibilityReport', profileId);
    assert.ok(uri, 'a report was opened');
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    assert.match(text, /^# Compatibility of E2E compat\n/);
    assert.ok(text.includes("Canton 3.5.10, checked against the participant's own API description (GET /docs/openapi, 3.5.10-SNAPSHOT): 1 refused of"), text.slice(0, 300));
    assert.ok(text.includes(`- ✗ ${REFUSED_LINE}`));
  });

  it('the Connections tooltip carries the summary, the refused line and the link to the report', async () => {
    const row = api.connectionsTree.getChildren().find((n) => n.kind === 'connection' && n.profile.id === profileId)!;
    const tooltip = api.connectionsTree.getTreeItem(row).tooltip as vscode.MarkdownString;
    assert.ok(tooltip.value.includes("Compatibility: Canton 3.5.10, checked against the participant's own API description"), tooltip.value);
    assert.ok(tooltip.value.includes(`- ✗ ${REFUSED_LINE}`));
    assert.ok(tooltip.value.includes('(command:cantonLedger.connections.showCompatibilityReport?'));
  });

  it('a read the participant would refuse is not sent: the Updates view says so with the report’s row', async () => {
    await vscode.commands.executeCommand('cantonLedger.updates.refresh');
    const labels = await waitFor(
      async () => {
        const nodes = await api.views.updates.getChildren();
        const shown = nodes.map((n) => [String(api.views.updates.getTreeItem(n).label), String(api.views.updates.getTreeItem(n).description ?? '')]);
        return shown.some(([label]) => label === 'Not sent') ? shown : undefined;
      },
      { timeoutMs: scaled(15_000), what: 'the Updates view’s “Not sent” row' },
    );
    assert.deepEqual(labels!.slice(0, 2), [
      ['Not sent', REFUSED_LINE],
      ['Show Compatibility Report', ''],
    ]);
  });
});
