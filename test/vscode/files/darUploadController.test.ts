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
import { Uri } from '../fake/vscode';
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
