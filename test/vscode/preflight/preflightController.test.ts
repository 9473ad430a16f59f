// The pre-flight in the editor against the fake VS Code API and a demo network of three participants
// (Alice hosted on app-user and app-provider; demo-asset vetted on app-user only): the diagnostic at
// the templateId names the host and the party, the report opens, an edit clears the diagnostics, and
// Submit is guarded as `cantonLedger.preflight.beforeSubmit` asks. After vetting on the other host the
// pre-flight passes, its diagnostics go, and the submit succeeds.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionProfile } from '../../../src/core/connections';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { ConnectionTargets } from '../../../src/vscode/commands/registry';
import { ConnectionManager, type TokenSourceFactory } from '../../../src/vscode/connections/manager';
import { ProfileStore } from '../../../src/vscode/connections/profiles';
import { SubmissionHistory } from '../../../src/vscode/files/submit/history';
import { SubmitActions, SubmitController } from '../../../src/vscode/files/submit/submit';
import { MarkdownReports } from '../../../src/vscode/files/submit/textDocuments';
import { PreflightActions, PreflightController } from '../../../src/vscode/preflight/preflightController';
import { ErrorReporter, PromptsPort } from '../../../src/vscode/prompts';
import { windowPrompts } from '../../../src/vscode/ui';
import { setVetting, startCheckedNetwork } from '../../support/demoNetwork';
import { commands, DiagnosticSeverity, fake, MemoryMemento, Uri, workspace } from '../fake/vscode';

const noTokens: TokenSourceFactory = { sourceFor: () => undefined };
const ASSET = '#demo-asset:Asset:Asset';

describe('PreflightController (Pre-flight and the check before Submit) on a demo network', function () {
  this.timeout(60_000);
  let net: DemoNetwork;
  let manager: ConnectionManager;
  let profiles: ProfileStore;
  let reports: MarkdownReports;
  let controller: PreflightController;
  let submit: SubmitController;
  let history: SubmissionHistory;
  const dir = mkdtempSync(join(tmpdir(), 'preflight-'));
  const uri = Uri.file(join(dir, 'alice.commands.json'));
  let text: string;

  const openFile = (commandId: string) => {
    const { alice } = net.parties;
    text = `${JSON.stringify({ commandId, actAs: [alice], commands: [{ CreateCommand: { templateId: ASSET, createArguments: { owner: alice, id: `car-${commandId}`, description: 'Blue' } } }] }, null, 2)}\n`;
    writeFileSync(uri.fsPath, text);
    return fake.openDocument(uri, text);
  };

  before(async () => {
    net = await startCheckedNetwork({ seed: false });
  });
  after(async () => {
    workspace.textDocuments.splice(0);
    rmSync(dir, { recursive: true, force: true });
    await net.close();
  });

  beforeEach(async () => {
    fake.reset();
    commands.registerCommand('markdown.showPreview', () => undefined);
    setVetting(net, 'app-user', 'demo-asset', true);
    setVetting(net, 'app-provider', 'demo-asset', false);
    setVetting(net, 'sv', 'demo-asset', false);
    profiles = new ProfileStore(new MemoryMemento() as never);
    manager = new ConnectionManager(profiles, noTokens, silentLogger, new Redactor());
    // The file's participant (active) and the two others, every one connected.
    for (const name of ['app-user', 'app-provider', 'sv']) {
      const profile: ConnectionProfile = { id: name, name, url: net.participant(name).url, auth: 'none', source: 'user' };
      await profiles.save(profile);
      await manager.connectionFor(profile).connect();
    }
    await profiles.setActive('app-user');
    const port = new PromptsPort(windowPrompts);
    const errors = new ErrorReporter(silentLogger, new Redactor(), port, () => undefined);
    const targets = new ConnectionTargets(manager, port, commands, errors);
    reports = new MarkdownReports();
    controller = new PreflightController({ connections: manager, targets, reports, errors, prompts: () => port });
    history = new SubmissionHistory(new MemoryMemento() as never);
    submit = new SubmitController({ connections: manager, documents: { show: async () => ({ document: { uri } }) } as never, logger: silentLogger, redactor: new Redactor(), errors, targets }, history, () => port, () => undefined);
    submit.beforeSubmit = (u, t, c) => controller.beforeSubmit(u, t, c);
  });
  afterEach(() => {
    controller.dispose();
    reports.dispose();
    history.dispose();
    manager.dispose();
    profiles.dispose();
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
});
