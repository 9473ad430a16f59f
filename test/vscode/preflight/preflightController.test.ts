// The pre-flight in the editor against the fake VS Code API and a demo network of three participants
// (Alice hosted on app-user and app-provider; demo-asset vetted on app-user only): the diagnostic at
// the templateId names the host and the party, the report opens, an edit clears the diagnostics, and
// Submit is guarded as `cantonLedger.preflight.beforeSubmit` asks. After vetting on the other host the
// pre-flight passes, its diagnostics go, and the submit succeeds.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { SubmissionHistory } from '../../../src/vscode/files/submit/history';
import { SubmitActions, SubmitController } from '../../../src/vscode/files/submit/submit';
import type { MarkdownReports } from '../../../src/vscode/files/submit/textDocuments';
import { PreflightActions, PreflightController } from '../../../src/vscode/preflight/preflightController';
import { setVetting } from '../../support/demoNetwork';
import { DiagnosticSeverity, fake, MemoryMemento, Uri } from '../fake/vscode';
import { networkForSuite, networkWindow, type NetworkWindow } from './networkWindow';

const ASSET = '#demo-asset:Asset:Asset';

describe('PreflightController (Pre-flight and the check before Submit) on a demo network', function () {
  this.timeout(60_000);
  const suite = networkForSuite('preflight-');
  let net: DemoNetwork;
  let window: NetworkWindow;
  let reports: MarkdownReports;
  let controller: PreflightController;
  let submit: SubmitController;
  let history: SubmissionHistory;
  const uri = Uri.file(join(suite.dir, 'alice.commands.json'));
  let text: string;

  const openFile = (commandId: string) => {
    const { alice } = net.parties;
    text = `${JSON.stringify({ commandId, actAs: [alice], commands: [{ CreateCommand: { templateId: ASSET, createArguments: { owner: alice, id: `car-${commandId}`, description: 'Blue' } } }] }, null, 2)}\n`;
    writeFileSync(uri.fsPath, text);
    return fake.openDocument(uri, text);
  };

  beforeEach(async () => {
    ({ net } = suite);
    setVetting(net, 'app-user', 'demo-asset', true);
    setVetting(net, 'app-provider', 'demo-asset', false);
    setVetting(net, 'sv', 'demo-asset', false);
    // The file's participant (active) and the two others, every one connected.
    window = await networkWindow(net, ['app-user', 'app-provider', 'sv']);
    ({ reports } = window);
    controller = new PreflightController(window.deps);
    history = new SubmissionHistory(new MemoryMemento() as never);
    const { connections, errors, targets, prompts } = window.deps;
    submit = new SubmitController({ connections, documents: { show: async () => ({ document: { uri } }) } as never, logger: silentLogger, redactor: new Redactor(), errors, targets }, history, prompts, () => undefined);
    submit.beforeSubmit = (u, t, c) => controller.beforeSubmit(u, t, c);
  });
  afterEach(() => {
    controller.dispose();
    history.dispose();
    window.dispose();
  });

  it('marks the templateId with the host and the party, opens the report, and an edit clears the mark', async () => {
    const doc = openFile('pf-1');
    const outcome = await controller.preflightFile(uri);
    assert.equal(outcome.passes, false);
    assert.deepEqual(outcome.members, ['app-user', 'app-provider', 'sv'], 'the target first, then every other connected connection');
    const [d, ...more] = controller.diagnosticsOf(uri);
    assert.equal(more.length, 0);
    assert.equal(d.severity, DiagnosticSeverity.Error);
    assert.equal(d.code, 'preflight-no-version');
    assert.equal(text.split('\n')[d.range.start.line].trim(), `"templateId": "${ASSET}",`);
    assert.match(d.message, /Alice \(Alice::1220[0-9a-f]+\) is hosted on app-provider \(confirmation\), which has not vetted any version of demo-asset \(app-user has version 1\.0\.0\)/);
    const report = reports.provideTextDocumentContent(outcome.reportUri as never);
    assert.match(report, /^# Pre-flight of alice\.commands\.json/);
    assert.match(report, /\| ✗ \| demo-asset \| none \| Alice \|/);
    assert.match(report, /Participants asked: app-user, app-provider, sv/);

    doc.setText(text.replace('Blue', 'Red'));
    assert.deepEqual(controller.diagnosticsOf(uri), [], 'a verdict on older text is not left standing');
  });

  it('before Submit: "warn" asks, Cancel sends nothing; "block" refuses; once vetted on the other host it passes, the mark goes, and the submit succeeds', async () => {
    openFile(`pf-${Date.now()}`);
    const sent = () => history.all().length;

    fake.answerMessage(undefined);
    assert.deepEqual(await submit.submitFile(uri), {});
    assert.equal(sent(), 0, 'dismissed: not sent');
    const asked = fake.state.messages.at(-1)!;
    assert.match(asked.text, /^Pre-flight of alice\.commands\.json over app-user, app-provider, sv: commands using demo-asset will fail/);
    assert.deepEqual(asked.actions, [PreflightActions.submitAnyway, PreflightActions.showReport]);
    assert.equal(controller.diagnosticsOf(uri).length, 1);

    fake.setSetting('cantonLedger.preflight.beforeSubmit', 'block');
    assert.deepEqual(await submit.submitFile(uri), {});
    assert.match(fake.state.messages.at(-1)!.text, /^alice\.commands\.json was not submitted\. Pre-flight .* "block"/);
    assert.equal(sent(), 0);

    setVetting(net, 'app-provider', 'demo-asset', true);
    const outcome = await submit.submitFile(uri);
    assert.equal(outcome.record?.outcome, 'succeeded', 'passes: submitted without a question');
    assert.deepEqual(controller.diagnosticsOf(uri), [], 'a pass clears the mark');
    assert.ok(!fake.state.messages.some((m) => m.actions.includes(SubmitActions.submitAgain)));
  });

  it('"warn": Submit Anyway sends it, and the participant refuses it as the pre-flight said; "off" asks nothing', async () => {
    openFile(`pf-any-${Date.now()}`);
    fake.answerMessage(PreflightActions.submitAnyway);
    const outcome = await submit.submitFile(uri);
    assert.equal(outcome.record?.outcome, 'failed');
    assert.equal(outcome.record?.errorCode, 'PACKAGE_SELECTION_FAILED');

    fake.setSetting('cantonLedger.preflight.beforeSubmit', 'off');
    openFile(`pf-off-${Date.now()}`);
    controller.diagnosticsOf(uri);
    const asked = fake.state.messages.length;
    const again = await submit.submitFile(uri);
    assert.equal(again.record?.outcome, 'failed');
    assert.ok(!fake.state.messages.slice(asked).some((m) => m.actions.includes(PreflightActions.submitAnyway)), 'no pre-flight question');
  });

  it('before Submit with one participant connected: no pre-flight (its own answer says the same)', async () => {
    for (const name of ['app-provider', 'sv']) window.manager.disconnect(window.manager.connection(name)!);
    openFile(`pf-one-${Date.now()}`);
    const outcome = await submit.submitFile(uri);
    assert.equal(outcome.record?.errorCode, 'PACKAGE_SELECTION_FAILED');
    assert.ok(!fake.state.messages.some((m) => m.actions.includes(PreflightActions.submitAnyway)));
    assert.deepEqual(controller.diagnosticsOf(uri), []);
  });

  it("where a preview of the file's commandId was made, its informees are asked about too", async () => {
    setVetting(net, 'app-provider', 'demo-asset', true);
    openFile('pf-informees');
    const asked: string[] = [];
    const withPreview = new PreflightController({ ...window.deps, informeesOf: (u, commandId) => (asked.push(`${u.path} ${commandId}`), commandId === 'pf-informees' ? [net.parties.charlie] : undefined) });
    try {
      const outcome = await withPreview.preflightFile(uri);
      assert.deepEqual(asked, [`${uri.path} pf-informees`]);
      assert.equal(outcome.passes, false, 'Charlie, an informee of the preview, is on sv, which lacks demo-asset');
      assert.match(withPreview.diagnosticsOf(uri)[0].message, /Charlie \(Charlie::1220[0-9a-f]+\) is hosted on sv/);
    } finally {
      withPreview.dispose();
    }
  });
});
