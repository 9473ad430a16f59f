// Upload DAR with its report, against the demo participant: the DAR's packages (new or already there)
// and the vetting change, a validation that changes nothing, 3.3 without vetting options, a bad file.
import assert from 'node:assert/strict';
import { readDar } from '../../../src/core/daml/lf/archive';
import { LedgerClient } from '../../../src/core/api/client';
import { CantonApiError } from '../../../src/core/errors';
import { darUploadAbilities, darUploadMarkdown, darUploadSummary, uploadDarWithReport as uploadOutcome, type DarUploadOptions, type DarUploadResult } from '../../../src/core/submit/darUpload';
import type { DemoParticipant } from '../../../src/participant';
import { DARS, requireDar, requireDarBytes } from '../../support/dars';
import { startCheckedParticipant } from '../../support/specCheck';
import { sendJson, TestServer } from '../../support/httpServer';

/** The report of an upload that got its answer. */
async function uploadDarWithReport(client: LedgerClient, dar: Uint8Array, o: DarUploadOptions): Promise<DarUploadResult> {
  const outcome = await uploadOutcome(client, dar, o);
  assert.equal(outcome.kind, 'done');
  return (outcome as { result: DarUploadResult }).result;
}

describe('DAR upload with a report', () => {
  let p: DemoParticipant;
  let client: LedgerClient;
  beforeEach(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 21, apiVersion: '3.5' });
    client = new LedgerClient({ baseUrl: p.url });
  });
  afterEach(() => p.close());

  it('validation: lists the packages that would be new and changes nothing', async function () {
    const dar = requireDarBytes(this, DARS.holding);
    const main = requireDar(this, DARS.holding).mainPackageId;
    const before = await client.listVettedPackages();
    const r = await uploadDarWithReport(client, dar, { mode: 'validate', readDar });
    assert.equal(r.mode, 'validate');
    assert.deepEqual(
      r.packages.filter((x) => x.main).map((x) => [x.id, x.name, x.version, x.isNew]),
      [[main, 'splice-api-token-holding-v1', '1.0.0', true]],
    );
    assert.equal(await client.packageStatus(main), 'PACKAGE_STATUS_UNSPECIFIED');
    assert.deepEqual(await client.listVettedPackages(), before);
    assert.ok(r.vetting.every((v) => v.dryRun && v.diff.added.length === 0));
    assert.match(darUploadMarkdown(r, 'holding.dar', 'Demo'), /^# Validation of holding\.dar on Demo: valid, nothing was changed$/m);
  });

  it('upload: the new packages, and the vetting before → after', async function () {
    const dar = requireDarBytes(this, DARS.holding);
    const contents = requireDar(this, DARS.holding);
    const r = await uploadDarWithReport(client, dar, { mode: 'upload', readDar });
    assert.equal(await client.packageStatus(contents.mainPackageId), 'PACKAGE_STATUS_REGISTERED');
    const fresh = r.packages.filter((x) => x.isNew).map((x) => x.id);
    assert.ok(fresh.includes(contents.mainPackageId));
    assert.equal(r.vetting.length, 1);
    const [v] = r.vetting;
    assert.equal(v.next.topologySerial, (v.past?.topologySerial ?? 0) + 1);
    assert.deepEqual(v.diff.added.map((x) => x.packageId).sort(), [...fresh].sort(), 'every new package is vetted');
    assert.match(darUploadSummary(r), new RegExp(`^${contents.packages.length} packages, ${fresh.length} new; ${fresh.length} vetted on 1 synchronizer$`));
    const md = darUploadMarkdown(r, 'holding.dar', 'Demo');
    assert.match(md, new RegExp(`^\\| splice-api-token-holding-v1 \\(main\\) \\| 1\\.0\\.0 \\| \`${contents.mainPackageId}\` \\| added \\|$`, 'm'));
    assert.match(md, /^### Added$/m);

    // Again: nothing new, vetting unchanged.
    const again = await uploadDarWithReport(client, dar, { mode: 'upload', readDar });
    assert.ok(again.packages.every((x) => !x.isNew));
    assert.match(darUploadSummary(again), /, 0 new; vetting unchanged$/);
  });

  it('the report lists the main package, then its own dependencies, then the standard library folded', async function () {
    const dar = requireDarBytes(this, DARS.amulet);
    const r = await uploadDarWithReport(client, dar, { mode: 'validate', readDar });
    const names = r.packages.map((x) => x.name);
    assert.equal(names[0], 'splice-amulet');
    const firstStandard = r.packages.findIndex((x) => x.standardLibrary);
    assert.ok(firstStandard > 1, 'own dependencies come before the standard library');
    assert.ok(r.packages.slice(0, firstStandard).every((x) => /^splice-/.test(x.name)), names.slice(0, firstStandard).join(', '));
    assert.ok(r.packages.slice(firstStandard).every((x) => /^(daml-prim|daml-stdlib|ghc-stdlib)/.test(x.name)), names.slice(firstStandard).join(', '));
    const md = darUploadMarkdown(r, 'amulet.dar', 'Demo');
    const at = (re: RegExp) => md.search(re);
    assert.ok(at(/^\| splice-amulet \(main\) /m) < at(/^\| splice-util /m), 'main first');
    assert.ok(at(/^\| splice-util /m) < at(/^<details><summary>Standard library: \d+ packages, \d+ new<\/summary>$/m), 'own dependencies before the folded standard library');
    assert.ok(at(/<details>/) < at(/^\| daml-prim /m), 'the standard library inside the fold');
    // The vetting tables follow the same order: the DAR's own packages first.
    const uploaded = await uploadDarWithReport(client, dar, { mode: 'upload', readDar });
    const report = darUploadMarkdown(uploaded, 'amulet.dar', 'Demo');
    const added = report.slice(report.search(/^### Added$/m));
    assert.ok(added.search(/^\| splice-amulet /m) >= 0 && added.search(/^\| splice-amulet /m) < added.search(/^\| daml-prim /m), 'main before the standard library in the vetting change');
  });

  it('upload without vetting: stored, not vetted', async function () {
    const dar = requireDarBytes(this, DARS.holding);
    const main = requireDar(this, DARS.holding).mainPackageId;
    const r = await uploadDarWithReport(client, dar, { mode: 'upload', vetAllPackages: false, readDar });
    assert.equal(await client.packageStatus(main), 'PACKAGE_STATUS_REGISTERED');
    assert.equal(r.vetting[0].diff.added.length, 0);
  });

  it('a file that is not a DAR: sent anyway (the participant judges) and refused with its code', async () => {
    await assert.rejects(uploadDarWithReport(client, new Uint8Array([1, 2, 3]), { mode: 'validate', readDar }), (e) => e instanceof CantonApiError && e.code === 'INVALID_DAR');
    await assert.rejects(uploadDarWithReport(client, new Uint8Array([1, 2, 3]), { mode: 'upload', readDar }), (e) => e instanceof CantonApiError && e.code === 'INVALID_DAR');
  });

  it('3.3: no validation, no vetting options and no vetting list; the upload vets everywhere', async function () {
    const old = await startCheckedParticipant({ port: 0, seed: 22, apiVersion: '3.3' });
    try {
      const c33 = new LedgerClient({ baseUrl: old.url });
      assert.deepEqual(await darUploadAbilities(c33), { canValidate: false, canChooseVetting: false, canListVetting: false });
      assert.deepEqual(await darUploadAbilities(client), { canValidate: true, canChooseVetting: true, canListVetting: true });
      const dar = requireDarBytes(this, DARS.holding);
      const r = await uploadDarWithReport(c33, dar, { mode: 'upload', vetAllPackages: false, readDar });
      assert.ok(r.packages.some((x) => x.main && x.isNew));
      assert.deepEqual(r.vetting, []);
      assert.match(darUploadMarkdown(r, 'h.dar', 'Old'), /^Not shown: this version lists no vetting state; an upload vets the packages on every synchronizer\.$/m);
    } finally {
      await old.close();
    }
  });

  it('a refusal of Smart Contract Upgrades keeps its Canton code and says what to do', async function () {
    const dar = requireDarBytes(this, DARS.holding);
    const server = new TestServer();
    try {
      const refusal = {
        code: 'KNOWN_DAR_VERSION',
        cause: 'A DAR with the same version number has previously been uploaded.',
        context: { packageVersion: '1.0.0' },
        errorCategory: 8,
        grpcCodeValue: 3,
        resources: [],
      };
      server.handler = (r, res) => {
        if (r.url === '/v2/version') return sendJson(res, 200, { version: '3.5.10' });
        if (r.url === '/v2/packages') return sendJson(res, 200, { packageIds: [] });
        if (r.url === '/v2/parties/participant-id') return sendJson(res, 200, { participantId: 'p::1' });
        if (r.url === '/v2/package-vetting/list') return sendJson(res, 200, { vettedPackages: [] });
        return sendJson(res, 400, refusal);
      };
      const c = new LedgerClient({ baseUrl: await server.start() });
      await assert.rejects(uploadDarWithReport(c, dar, { mode: 'upload', readDar }), (e) => e instanceof CantonApiError && e.code === 'KNOWN_DAR_VERSION' && /bump the version in daml\.yaml/.test(e.hint));
    } finally {
      await server.stop();
    }
  });
});
