// Dry Run Across the Network against the fake VS Code API and a demo network: unvetting demo-asset on
// app-provider takes it from Alice (hosted there too) and Bank, marked at the Unvet entry and in the
// report; nothing changes; an edit clears the marks.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { PreflightController } from '../../../src/vscode/preflight/preflightController';
import { VettingAcrossNetwork } from '../../../src/vscode/preflight/vettingAcrossNetwork';
import { DiagnosticSeverity, fake, Uri } from '../fake/vscode';
import { networkForSuite, networkWindow, type NetworkWindow } from './networkWindow';

describe('VettingAcrossNetwork (Dry Run Across the Network) on a demo network', function () {
  this.timeout(60_000);
  const suite = networkForSuite('vetting-network-');
  let net: DemoNetwork;
  let window: NetworkWindow;
  let vetting: VettingAcrossNetwork;
  const uri = Uri.file(join(suite.dir, 'drop-asset.vetting.json'));

  beforeEach(async () => {
    ({ net } = suite);
    window = await networkWindow(net, ['app-provider', 'app-user', 'sv']);
    vetting = new VettingAcrossNetwork(window.deps, new PreflightController(window.deps));
  });
  afterEach(() => {
    vetting.dispose();
    window.dispose();
  });

  it('marks the Unvet entry with each party that loses its last version, opens the report, changes nothing', async () => {
    const text = `${JSON.stringify({ changes: [{ operation: { Unvet: { value: { packages: [{ packageName: 'demo-asset' }] } } } }] }, null, 2)}\n`;
    writeFileSync(uri.fsPath, text);
    const doc = fake.openDocument(uri, text);
    const serial = net.participant('app-provider').state.vetting(net.synchronizer.id)!.serial;
    const outcome = await vetting.dryRun(uri);
    assert.deepEqual(outcome.members, ['app-provider', 'app-user', 'sv']);
    const marks = vetting.diagnosticsOf(uri);
    assert.deepEqual(marks.map((d) => [d.code, d.severity, d.range.start.line]), [
      ['vetting-loss', DiagnosticSeverity.Error, 7],
      ['vetting-loss', DiagnosticSeverity.Error, 7],
    ]);
    assert.deepEqual(marks.map((d) => d.message.split(' (')[0]).sort(), ['Alice', 'Bank']);
    assert.match(marks.find((d) => d.message.startsWith('Alice'))!.message, /^Alice \(hosted on app-provider\) could no longer use any version of demo-asset/);
    assert.match(window.reports.provideTextDocumentContent(outcome.reportUri as never), /^# drop-asset\.vetting\.json across the network: nothing was changed/);
    assert.match(fake.state.messages.at(-1)!.text, /^Dry run of drop-asset\.vetting\.json across app-provider, app-user, sv: 2 parties would lose a usable version \(marked in the file\)\. Nothing was changed\.$/);
    assert.equal(net.participant('app-provider').state.vetting(net.synchronizer.id)!.serial, serial, 'a dry run');

    doc.setText(text.replace('demo-asset', 'demo-iou'));
    assert.deepEqual(vetting.diagnosticsOf(uri), []);
  });
});
