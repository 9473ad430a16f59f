// Vetting files in the real extension host against the demo participant: dry run with the diff
// document, apply after a confirmation showing the diff, and each failure with its fix written into the file.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { VettingOutcome } from '../../../src/vscode/files/submit/vetting';
import { extension } from './helpers';
import { closeEditors, demoParticipant, scripted, writeWorkspaceJson } from './sendHelpers';

type Participant = Awaited<ReturnType<typeof demoParticipant>>;

const IOU_V2 = { packageName: 'demo-iou', packageVersion: '2.0.0' };
const vet = (...packages: unknown[]) => ({ operation: { Vet: { value: { packages } } } });
const unvet = (...packages: unknown[]) => ({ operation: { Unvet: { value: { packages } } } });

function dryRun(uri: vscode.Uri): Thenable<VettingOutcome> {
  return vscode.commands.executeCommand<VettingOutcome>('cantonLedger.files.vettingDryRun', uri);
}
function apply(uri: vscode.Uri): Thenable<VettingOutcome> {
  return vscode.commands.executeCommand<VettingOutcome>('cantonLedger.files.vettingApply', uri);
}

async function fileJson(uri: vscode.Uri): Promise<any> {
  return JSON.parse((await vscode.workspace.openTextDocument(uri)).getText());
}

describe('vetting files', function () {
  this.timeout(60_000);
  let p: Participant;
  const sync = () => p.state.synchronizers[0].id;
  const serial = () => p.state.vetting(sync())!.serial;
  /** `name version` of each package vetted now, as the participant lists them. */
  let vettedNow: () => Promise<string[]>;

  before(async () => {
    const { api } = await scripted();
    p = await demoParticipant(api);
    const client = api.connections.connectionFor(api.connections.profiles.get('demo')!).client;
    vettedNow = async () => (await client.listVettedPackages())[0].packages.map((x) => `${x.packageName} ${x.packageVersion}`);
  });
  after(closeEditors);

  it('dry run: shows the diff past → new as a Markdown document and changes nothing', async () => {
    const { prompts } = await scripted();
    const before = serial();
    const uri = writeWorkspaceJson('upgrade.vetting.json', { changes: [vet(IOU_V2)] });
    const outcome = await dryRun(uri);
    assert.equal(outcome.result?.dryRun, true);
    assert.deepEqual(outcome.result?.diff.added.map((x) => `${x.packageName} ${x.packageVersion}`), ['demo-iou 2.0.0']);
    const report = await vscode.workspace.openTextDocument(outcome.reportUri!);
    assert.equal(report.languageId, 'markdown');
    const text = report.getText();
    assert.match(text, /^# Dry run of upgrade\.vetting\.json: nothing was changed$/m);
    assert.match(text, new RegExp(`^- \\*\\*Topology serial:\\*\\* ${before} → ${before + 1}$`, 'm'));
    assert.match(text, /^## Added\n\n\| Package \| Version \| Package id \| Valid \|\n\|.*\n\| demo-iou \| 2\.0\.0 \| `[0-9a-f]{64}` \| always \|$/m);
    // daml-prim, daml-stdlib, demo-holding, demo-iou 1.0.0 and demo-asset.
    assert.match(text, /^## Unchanged \(5\)$/m);
    assert.match(prompts.last().text, new RegExp(`^Dry run of upgrade\\.vetting\\.json on Demo: 1 added \\(topology serial ${before} → ${before + 1}\\)\\. Nothing was changed\\.$`));
    assert.deepEqual(prompts.last().actions, ['Apply Changes']);
    assert.equal(serial(), before);
  });

  it('apply: asks for confirmation with the diff; declining changes nothing, confirming applies it', async () => {
    const { prompts } = await scripted();
    const uri = writeWorkspaceJson('upgrade.vetting.json', { changes: [vet(IOU_V2)] });
    const before = serial();
    prompts.answer(undefined);
    const declined = await apply(uri);
    assert.equal(declined.applied, undefined);
    const confirm = prompts.messages.find((m) => m.modal)!;
    assert.match(confirm.text, /^Apply the vetting changes of upgrade\.vetting\.json to Demo\? 1 added\.$/);
    assert.match(confirm.detail!, new RegExp(`^Topology serial: ${before} → ${before + 1}$`, 'm'));
    assert.match(confirm.detail!, /^\+ demo-iou 2\.0\.0 \([0-9a-f]{12}…\)$/m);
    assert.deepEqual(confirm.actions, ['Apply']);
    assert.equal(serial(), before);

    prompts.answer('Apply');
    const applied = await apply(uri);
    assert.equal(applied.applied, true);
    assert.equal(serial(), before + 1);
    assert.ok((await vettedNow()).includes('demo-iou 2.0.0'));
    const text = (await vscode.workspace.openTextDocument(applied.reportUri!)).getText();
    assert.match(text, /^# Vetting applied from upgrade\.vetting\.json$/m);
    assert.match(prompts.last().text, new RegExp(`^Vetting applied on Demo: 1 added; the topology serial is now ${before + 1}\\.$`));

    // Back to the start: unvet it again (confirmed).
    prompts.answer('Apply');
    const restored = await apply(writeWorkspaceJson('downgrade.vetting.json', { changes: [unvet(IOU_V2)] }));
    assert.deepEqual(restored.result?.diff.removed.map((x) => x.packageVersion), ['2.0.0']);
    assert.ok(!(await vettedNow()).includes('demo-iou 2.0.0'));
  });

  it('an apply whose answer is lost: the state is looked at, and the change in place is "already applied", nothing applied twice', async () => {
    const { prompts } = await scripted();
    const uri = writeWorkspaceJson('lost.vetting.json', { changes: [vet(IOU_V2)] });
    const before = serial();
    // The participant applies the change, then drops the connection without answering.
    p.faults.vettingUpdate = { dropResponse: true, times: 1 };
    prompts.answer('Apply');
    const outcome = await apply(uri);
    assert.equal(outcome.alreadyApplied, true);
    assert.match(prompts.last().text, /^Already applied: .*nothing was applied twice/);
    assert.equal(serial(), before + 1, 'applied once');

    // Back to the start.
    prompts.answer('Apply');
    await apply(writeWorkspaceJson('lost-undo.vetting.json', { changes: [unvet(IOU_V2)] }));
    assert.ok(!(await vettedNow()).includes('demo-iou 2.0.0'));
  });

  it('TOPOLOGY_DEPENDENCIES_NOT_VETTED: names the missing dependency, mentions the force flag, and adds it on request', async () => {
    const { prompts } = await scripted();
    const uri = writeWorkspaceJson('deps.vetting.json', { changes: [unvet({ packageName: 'daml-stdlib' }), vet(IOU_V2)] });
    prompts.answer('Add Force Flag');
    const outcome = await dryRun(uri);
    assert.equal(outcome.failure?.kind, 'dependencies-not-vetted');
    const refusal = prompts.messages[0];
    assert.equal(refusal.severity, 'error');
    assert.match(refusal.text, /^deps\.vetting\.json was refused: a dependency would not be vetted: daml-stdlib 3\.5\.0 \([0-9a-f]{12}…\)\./);
    assert.match(refusal.text, /updateVettedPackagesForceFlags: \["UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES"\]/);
    assert.deepEqual((await fileJson(uri)).updateVettedPackagesForceFlags, ['UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES']);
    // The dry run ran again with the flag: now it passes.
    assert.equal(outcome.next?.result?.dryRun, true);
    assert.deepEqual(outcome.next?.result?.diff.removed.map((x) => x.packageName), ['daml-stdlib']);
  });

  it('a stale expectedTopologySerial: refreshes it from the current state into the file', async () => {
    const { prompts } = await scripted();
    const current = serial();
    const uri = writeWorkspaceJson('stale.vetting.json', { changes: [vet(IOU_V2)], expectedTopologySerial: { serial: { Prior: { value: current - 1 } } } });
    prompts.answer('Refresh the Serial');
    const outcome = await dryRun(uri);
    assert.equal(outcome.failure?.kind, 'serial-mismatch');
    assert.match(prompts.messages[0].text, new RegExp(`expectedTopologySerial is stale \\(the current serial is ${current}\\)`));
    assert.deepEqual((await fileJson(uri)).expectedTopologySerial, { serial: { Prior: { value: current } } });
    assert.equal(outcome.next?.result?.past?.topologySerial, current);
  });

  it('an invalid vetting file is refused before sending', async () => {
    const { prompts } = await scripted();
    const outcome = await dryRun(writeWorkspaceJson('empty.vetting.json', { changes: [] }));
    assert.equal(outcome.result, undefined);
    assert.match(prompts.last().text, /^empty\.vetting\.json was not sent: it has 1 error: /);
  });

  describe('with two synchronizers', () => {
    let two: { url: string; close(): Promise<void>; state: Participant['state'] };
    const PROFILE = 'e2e-two-synchronizers';

    before(async () => {
      const { api } = await scripted();
      // The same participant bundle the extension runs, with the two-synchronizer mode on.
      const mod = require(path.join(extension().extensionPath, 'dist', 'participant.js'));
      two = await mod.startDemoParticipant({ port: 0, seed: 5, synchronizers: 2 });
      await api.connections.profiles.save({ id: PROFILE, name: 'Two Synchronizers', url: two.url, auth: 'none', userId: 'demo-admin', source: 'user' });
      await api.connections.profiles.setActive(PROFILE);
    });
    after(async () => {
      const { api } = await scripted();
      await api.connections.profiles.remove(PROFILE);
      await api.connections.profiles.setActive('demo');
      await two?.close();
    });

    it('PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER: a QuickPick of the synchronizers writes synchronizerId into the file', async () => {
      const { prompts } = await scripted();
      const uri = writeWorkspaceJson('two.vetting.json', { changes: [vet(IOU_V2)] });
      const second = two.state.synchronizers[1].id;
      prompts.answer('Choose Synchronizer').answerPick((items) => items.find((i) => i.description === second));
      const outcome = await dryRun(uri);
      assert.equal(outcome.failure?.kind, 'cannot-autodetect-synchronizer');
      assert.deepEqual(prompts.picks[0].items.map((i) => i.description).sort(), two.state.synchronizers.map((s) => s.id).sort());
      assert.equal((await fileJson(uri)).synchronizerId, second);
      assert.equal(outcome.next?.result?.next.synchronizerId, second);
    });
  });
});
