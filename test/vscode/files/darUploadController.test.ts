// The Upload DAR command's controller against the fake VS Code API and a demo participant: the report
// names the DAR's packages, read with the lazily loaded decoder of the package store, and after an
// upload the connection reads its packages again by itself (every view follows).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { PackageStore } from '../../../src/core/ledger/packages';
import type { DemoParticipant } from '../../../src/participant';
import { DarUploadController } from '../../../src/vscode/files/submit/darUpload';
import { MarkdownReports } from '../../../src/vscode/files/submit/textDocuments';
import { start } from '../../participant/helpers';
import { DAR_DIR, DARS, requireDarBytes } from '../../support/dars';
import { startFaultProxy, type Fault } from '../../support/faultProxy';
import { fake, Uri } from '../fake/vscode';
import { sendWindow, type SendWindow } from './sendHarness';

describe('DarUploadController (Upload DAR…) against the fake VS Code API', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let window: SendWindow | undefined;
  let reports: MarkdownReports | undefined;
  let controller: DarUploadController;
  let decoderLoads: number;
  const dar = Uri.file(join(DAR_DIR, DARS.ping));

  beforeEach(async function () {
    requireDarBytes(this, DARS.ping);
    p = await start({ port: 0 });
    decoderLoads = 0;
    const packages = new PackageStore(() => (decoderLoads++, { PackageCache, PackageIndex, readDar }));
    window = await sendWindow(p.url, { packages });
    reports = new MarkdownReports();
    controller = new DarUploadController(window.deps, reports, window.prompts, () => undefined);
  });
  afterEach(async () => {
    reports?.dispose();
    window?.dispose();
    await p?.close();
  });

  it('an upload names the DAR main package in its report, and the connection lists it afterwards without being told', async () => {
    const connection = window!.manager.connection(window!.profile.id)!;
    const before = await connection.readPackages();
    assert.equal(before.state, 'ready');
    const outcome = await controller.upload(dar, { mode: 'upload' });
    assert.equal(outcome.error, undefined);
    const main = outcome.result!.packages.find((x) => x.main)!;
    assert.equal(main.isNew, true);
    assert.ok(decoderLoads > 0, 'the DAR was read with the package store decoder');
    const report = reports!.provideTextDocumentContent(outcome.reportUri as never);
    assert.match(report, new RegExp(`^# ${DARS.ping.replace(/\./g, '\\.')} uploaded to Demo$`, 'm'));
    const after = await connection.readPackages();
    assert.ok(after.state === 'ready' && after.packageIds.includes(main.id), 'the new package is among the connection packages');
  });

  const lostAnswers: Array<[string, Fault]> = [
    ['dropped', { kind: 'drop' }],
    ['a 502 after forwarding', { kind: 'answer', status: 502, body: 'Bad Gateway' }],
  ];
  for (const [what, fault] of lostAnswers) {
    it(`an upload whose answer is ${what}: said to be unknown, then found on the participant; not reported as failed, not sent again`, async function () {
      const proxy = await startFaultProxy(p.url);
      try {
        window!.dispose();
        window = await sendWindow(proxy.url, { packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })) });
        controller = new DarUploadController(window.deps, reports!, window.prompts, () => undefined);
        const main = readDar(requireDarBytes(this, DARS.ping)).mainPackageId;
        proxy.add({ method: 'POST', path: '/v2/dars', fault });
        const outcome = await controller.upload(dar, { mode: 'upload' });
        assert.equal(outcome.error, undefined, String(outcome.error));
        assert.deepEqual(outcome.unknown?.lookUp, { found: 'present', mainPackageId: main, wasThereBefore: false });
        const shown = fake.state.messages.map((m) => m.text);
        assert.ok(shown.some((m) => /^The outcome of uploading .* to Demo is unknown: .*Its main package \S+ is on the participant now: the upload went through\.$/.test(m)), shown.join('\n'));
        assert.ok(!shown.some((m) => /failed/.test(m)), shown.join('\n'));
        assert.equal(proxy.count('POST', '/v2/dars'), 1, 'not sent again');
      } finally {
        await proxy.close();
      }
    });
  }

  it('a file that is not a DAR is still sent, and refused by the participant with its code, also when the decoder is a bundle of its own (another LfDecodeError class)', async () => {
    // What dist/daml.js throws: an error of its own copy of the class, with the same kind.
    class BundledLfDecodeError extends Error {
      readonly kind = 'package-decode';
    }
    window!.dispose();
    window = await sendWindow(p.url, { packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar: () => { throw new BundledLfDecodeError('not a zip file'); } })) });
    controller = new DarUploadController(window.deps, reports!, window.prompts, () => undefined);
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'not-a-dar-')), 'not-a.dar');
    writeFileSync(file, 'not a dar');
    const outcome = await controller.upload(Uri.file(file), { mode: 'upload' });
    assert.equal((outcome.error as { code?: string } | undefined)?.code, 'INVALID_DAR', String(outcome.error));
  });
});
