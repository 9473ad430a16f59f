// The vetting commands' controller against the fake VS Code API and a demo participant: a dry run
// changes nothing and reports the diff; Apply asks first (the diff in the question), applies pinned to
// the serial the check saw, and the connection's vetting state follows by itself; a declined
// confirmation applies nothing.
import assert from 'node:assert/strict';
import type { ConnectionProfile } from '../../../src/core/connections';
import type { DemoParticipant } from '../../../src/participant';
import type { ConnectionManager } from '../../../src/vscode/connections/manager';
import { MarkdownReports } from '../../../src/vscode/files/submit/textDocuments';
import { VettingActions, VettingController } from '../../../src/vscode/files/submit/vetting';
import { start } from '../../participant/helpers';
import { fake, Uri, workspace } from '../fake/vscode';
import { sendWindow, type SendWindow } from './sendHarness';

const VET_IOU_2 = { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }] };

describe('VettingController (Dry Run / Apply Vetting Changes) against the fake VS Code API', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let window: SendWindow;
  let manager: ConnectionManager;
  let reports: MarkdownReports;
  let controller: VettingController;
  let profile: ConnectionProfile;
  const uri = Uri.file('/work/vet-iou-2.vetting.json');

  beforeEach(async () => {
    p = await start({ port: 0 });
    window = await sendWindow(p.url);
    ({ manager, profile } = window);
    workspace.textDocuments.splice(0, workspace.textDocuments.length, { uri, getText: () => JSON.stringify(VET_IOU_2) });
    reports = new MarkdownReports();
    controller = new VettingController(window.deps, reports, window.prompts, () => undefined);
  });
  afterEach(async () => {
    workspace.textDocuments.splice(0);
    reports.dispose();
    window.dispose();
    await p.close();
  });

  const vettedIou = async () => (await manager.connectionFor(profile).client.listVettedPackages()).flatMap((s) => s.packages.filter((x) => x.packageName === 'demo-iou').map((x) => x.packageVersion)).sort();

  it('a dry run changes nothing and opens its report with the diff', async () => {
    const before = await vettedIou();
    const outcome = await controller.dryRun(uri);
    assert.ok(outcome.result, 'a result');
    assert.deepEqual(await vettedIou(), before);
    assert.ok(fake.state.executed.some((c) => c.id === 'markdown.showPreview' && String(c.args[0]) === String(outcome.reportUri)), 'the report opened');
    assert.match(reports.provideTextDocumentContent(outcome.reportUri as never), /demo-iou/);
  });

  it('Apply asks first with the diff, applies, and the connection reads its vetting state again by itself', async () => {
    const ledger = manager.connectionFor(profile).ledger!;
    await ledger.vettedPackages();
    const serialBefore = (ledger.vetting.state === 'ready' && ledger.vetting.states[0].topologySerial) || 0;
    fake.answerMessage(VettingActions.confirmApply);
    const outcome = await controller.apply(uri);
    const confirm = fake.state.messages[0];
    assert.equal(confirm.modal, true);
    assert.match(confirm.text, /^Apply the vetting changes of vet-iou-2\.vetting\.json to Demo\?/);
    assert.equal(outcome.applied, true);
    assert.ok((await vettedIou()).includes('2.0.0'));
    const read = await ledger.vettedPackages();
    assert.ok(read[0].topologySerial > serialBefore, 'the state the views show moved to the new serial');
    assert.match(fake.state.messages.at(-1)!.text, /^Vetting applied on Demo: .*the topology serial is now \d+/);
  });

  it('an apply whose answer is lost: the state is looked at, and a change in place is "already applied" (not unknown, not failed), applied once', async () => {
    const serial = async () => (await manager.connectionFor(profile).client.listVettedPackages())[0].topologySerial;
    const before = await serial();
    // The participant applies the change, then drops the connection without answering.
    p.faults.vettingUpdate = { dropResponse: true, times: 1 };
    fake.answerMessage(VettingActions.confirmApply);
    const outcome = await controller.apply(uri);
    assert.equal(outcome.alreadyApplied, true);
    assert.equal(outcome.unknown, undefined);
    assert.equal(await serial(), before + 1, 'applied once');
    const texts = fake.state.messages.map((m) => m.text);
    assert.match(texts.at(-1)!, new RegExp(`^Already applied: the vetted packages on Demo already are as vet-iou-2\\.vetting\\.json says \\(topology serial ${before + 1}\\); nothing was applied twice\\.`));
    assert.ok(!texts.some((t) => /^Outcome unknown|failed/.test(t)), texts.join('\n'));
  });

  it('a declined confirmation applies nothing', async () => {
    const before = await vettedIou();
    fake.answerMessage(undefined);
    const outcome = await controller.apply(uri);
    assert.notEqual(outcome.applied, true);
    assert.deepEqual(await vettedIou(), before);
  });
});
