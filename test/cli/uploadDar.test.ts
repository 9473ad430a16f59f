import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readDar } from '../../src/core/daml/lf/archive';
import { type DemoParticipant } from '../../src/participant/index';
import { DAR_DIR, DARS, requireDarBytes } from '../support/dars';
import { startCheckedParticipant } from '../support/specCheck';
import { cli } from './harness';

describe('cli: upload-dar', () => {
  let participant: DemoParticipant;
  let env: Record<string, string>;
  const darPath = resolve(DAR_DIR, DARS.holding);

  beforeEach(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 31, apiVersion: '3.5' });
    env = { CANTON_LEDGER_URL: participant.url };
  });
  afterEach(() => participant.close());


  it('uploads and vets: prints the report the editor shows, the main package added and vetted', async function () {
    const main = readDar(requireDarBytes(this, DARS.holding)).mainPackageId;
    const r = await cli(['upload-dar', darPath], env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^# ${DARS.holding.replace(/\./g, '\\.')} uploaded to ${participant.url.replace(/\./g, '\\.')}$`, 'm'));
    assert.match(r.stdout, new RegExp(`^\\| splice-api-token-holding-v1 \\(main\\) \\| 1\\.0\\.0 \\| \`${main}\` \\| added \\|$`, 'm'));
    assert.match(r.stdout, /^- \*\*Change:\*\* \d+ added$/m, 'the vetting change');
    const json = await cli(['--json', 'upload-dar', darPath], env);
    assert.equal(json.status, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    assert.equal(report.validatedFirst, true, 'validated before uploading');
    assert.ok(report.packages.some((p: { id: string; isNew: boolean }) => p.id === main && !p.isNew), 'there now');
  });

  it('--validate-only changes nothing; --no-vet stores without vetting', async function () {
    const main = readDar(requireDarBytes(this, DARS.holding)).mainPackageId;
    const packagesBefore = await cli(['--json', 'upload-dar', darPath, '--validate-only'], env);
    assert.equal(packagesBefore.status, 0, packagesBefore.stderr);
    assert.match((await cli(['upload-dar', darPath, '--validate-only'], env)).stdout, /: valid, nothing was changed$/m);
    assert.equal(JSON.parse(packagesBefore.stdout).packages.find((p: { id: string }) => p.id === main).isNew, true, 'still new after validating');

    const stored = await cli(['--json', 'upload-dar', darPath, '--no-vet'], env);
    assert.equal(stored.status, 0, stored.stderr);
    const report = JSON.parse(stored.stdout);
    assert.ok(report.vetting.every((v: { diff: { added: unknown[] } }) => v.diff.added.length === 0), 'nothing vetted');
    assert.equal(report.packages.find((p: { id: string }) => p.id === main).isNew, true, 'added by this upload');
  });

  it('refuses a file it cannot read and contradicting options (exit 2), and a non-DAR is the participant’s error (exit 1)', async () => {
    const missing = await cli(['upload-dar', join(tmpdir(), 'no-such.dar')], env);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /cannot read .*no-such\.dar: no such file/);
    assert.equal((await cli(['upload-dar', darPath, '--no-vet', '--validate-only'], env)).status, 2);
    const bad = join(mkdtempSync(join(tmpdir(), 'cli-dar-')), 'bad.dar');
    writeFileSync(bad, 'not a zip');
    const r = await cli(['upload-dar', bad], env);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error: /m);
  });

  it('on 3.3: --no-vet is not available, and said so without uploading', async function () {
    requireDarBytes(this, DARS.holding);
    await participant.close();
    participant = await startCheckedParticipant({ port: 0, seed: 31, apiVersion: '3.3' });
    env = { CANTON_LEDGER_URL: participant.url };
    const r = await cli(['upload-dar', darPath, '--no-vet'], env);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error: UNSUPPORTED: Uploading a DAR without vetting it is not available on Canton 3\.3/m);
  });
});
