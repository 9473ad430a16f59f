// The pre-flight in the real extension host against a demo network of three participants (Alice
// hosted on app-user and app-provider, demo-asset vetted on app-user only): the diagnostic at the
// templateId names the host and the party, the report opens, Submit asks first; once the package is
// vetted on the other host the pre-flight passes, its diagnostics go, and the submit succeeds.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConnectionProfile } from '../../../src/core/connections';
import { LOCALNET_PARTICIPANTS, startDemoNetwork, type DemoNetwork } from '../../../src/participant/network/index';
import type { PreflightOutcome } from '../../../src/vscode/preflight/preflightController';
import type { SubmitOutcome } from '../../../src/vscode/files/submit/submit';
import { setVetting } from '../../support/demoNetwork';
import { waitFor } from './helpers';
import { closeEditors, scripted, writeWorkspaceJson } from './sendHelpers';

const ASSET = '#demo-asset:Asset:Asset';

describe('pre-flight across a demo network', function () {
  this.timeout(90_000);
  let net: DemoNetwork;
  let previouslyActive: string | undefined;
  const ids = LOCALNET_PARTICIPANTS.map((name) => `preflight-e2e-${name}`);

  before(async () => {
    const { api } = await scripted();
    previouslyActive = api.connections.profiles.active()?.id;
    net = await startDemoNetwork({ participants: LOCALNET_PARTICIPANTS, seed: false });
    setVetting(net, 'app-provider', 'demo-asset', false);
    setVetting(net, 'sv', 'demo-asset', false);
    for (const [i, name] of LOCALNET_PARTICIPANTS.entries()) {
      const profile: ConnectionProfile = { id: ids[i], name, url: net.participant(name).url, auth: 'none', source: 'user' };
      await api.connections.profiles.save(profile);
      await vscode.commands.executeCommand('cantonLedger.connections.connect', profile.id);
    }
    await vscode.commands.executeCommand('cantonLedger.connections.setActive', ids[1]);
    await waitFor(() => ids.every((id) => api.connections.connection(id)?.state.state === 'connected'), { what: 'the three participants connected' });
  });
  after(async () => {
    await closeEditors();
    const { api } = await scripted();
    if (previouslyActive) await vscode.commands.executeCommand('cantonLedger.connections.setActive', previouslyActive);
    for (const id of ids) await api.connections.profiles.remove(id);
    await net?.close();
  });

  it('names the host and the party at the templateId; after vetting there it passes and Submit succeeds', async () => {
    const { alice } = net.parties;
    const uri = writeWorkspaceJson('alice-asset.commands.json', { commandId: `preflight-e2e-${Date.now()}`, actAs: [alice], commands: [{ CreateCommand: { templateId: ASSET, createArguments: { owner: alice, id: 'car-e2e', description: 'Blue' } } }] });
    await vscode.window.showTextDocument(uri);

    const before = await vscode.commands.executeCommand<PreflightOutcome>('cantonLedger.files.preflight', uri);
    assert.equal(before.passes, false);
    // The file's participant first, then every other connected connection (the demo participant too, when another suite left it connected).
    assert.equal(before.members?.[0], 'app-user');
    assert.ok(['app-provider', 'sv'].every((name) => before.members?.includes(name)), `members: ${before.members?.join(', ')}`);
    const marked = vscode.languages.getDiagnostics(uri).filter((d) => d.code === 'preflight-no-version');
    assert.equal(marked.length, 1);
    assert.equal(marked[0].severity, vscode.DiagnosticSeverity.Error);
    assert.match(marked[0].message, /Alice \(Alice::1220[0-9a-f]+\) is hosted on app-provider \(confirmation\), which has not vetted any version of demo-asset/);
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.equal(doc.getText(marked[0].range), `"${ASSET}"`);
    const report = (await vscode.workspace.openTextDocument(before.reportUri!)).getText();
    assert.match(report, /\| ✗ \| demo-asset \| none \| Alice \|/);

    // Submit asks first ("warn", the default); dismissed, nothing is sent.
    const { prompts } = await scripted();
    prompts.answer(undefined);
    const refused = await vscode.commands.executeCommand<SubmitOutcome>('cantonLedger.files.submit', uri);
    assert.equal(refused.record, undefined);
    assert.match(prompts.last().text, /^Pre-flight of alice-asset\.commands\.json over app-user, .*: commands using demo-asset will fail/);
    assert.deepEqual(prompts.last().actions, ['Submit Anyway', 'Show Report']);

    setVetting(net, 'app-provider', 'demo-asset', true);
    const after = await vscode.commands.executeCommand<PreflightOutcome>('cantonLedger.files.preflight', uri);
    assert.equal(after.passes, true);
    // The report's document, still open from the first run, holds the new report once it is shown (a
    // preview opened on the old text could keep it).
    assert.equal(after.reportUri?.toString(), before.reportUri?.toString());
    assert.match((await vscode.workspace.openTextDocument(after.reportUri!)).getText(), /Every command will find its package version\./);
    assert.deepEqual(vscode.languages.getDiagnostics(uri).filter((d) => String(d.code).startsWith('preflight-')), []);
    const submitted = await vscode.commands.executeCommand<SubmitOutcome>('cantonLedger.files.submit', uri);
    assert.equal(submitted.record?.outcome, 'succeeded');
    assert.equal(submitted.record?.connectionName, 'app-user');
  });
});
