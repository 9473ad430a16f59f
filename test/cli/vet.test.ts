import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerClient } from '../../src/core/api/client';
import { type DemoParticipant } from '../../src/participant/index';
import { startCheckedParticipant } from '../support/specCheck';
import { cli, writeJson } from './harness';

const IOU_V2 = { packageName: 'demo-iou', packageVersion: '2.0.0' };
const IOU_V1 = { packageName: 'demo-iou', packageVersion: '1.0.0' };

describe('cli: vet', () => {
  let participant: DemoParticipant;
  let env: Record<string, string>;
  let dir: string;
  let client: LedgerClient;

  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 3 });
    env = { CANTON_LEDGER_URL: participant.url };
    dir = mkdtempSync(join(tmpdir(), 'cli-vet-'));
    client = new LedgerClient({ baseUrl: participant.url });
  });
  after(() => participant.close());

  const vettingFile = (name: string, body: unknown) => writeJson(dir, `${name}.vetting.json`, body);
  const vet = (packages: unknown[], extra: Record<string, unknown> = {}) => ({ operation: { Vet: { value: { packages, ...extra } } } });
  const unvet = (packages: unknown[]) => ({ operation: { Unvet: { value: { packages } } } });
  /** `name version` of the vetted packages, as the participant lists them now. */
  async function vetted(): Promise<string[]> {
    const [state] = await client.listVettedPackages();
    return state.packages.map((p) => `${p.packageName} ${p.packageVersion}`);
  }
  async function serial(): Promise<number> {
    return (await client.listVettedPackages())[0].topologySerial;
  }

  it('previews with --dry-run, even when the file says dryRun: false, and changes nothing', async () => {
    const before = await serial();
    const file = vettingFile('upgrade', { changes: [vet([IOU_V2])], dryRun: false });
    const r = await cli(['vet', file, '--dry-run'], env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^Dry run: nothing was changed/);
    assert.match(r.stdout, new RegExp(`^  topology serial: +${before} → ${before + 1}$`, 'm'));
    assert.match(r.stdout, /^Added:\n  \+ demo-iou 2\.0\.0 \([0-9a-f]{12}…\)  always valid$/m);
    assert.ok(!(await vetted()).includes('demo-iou 2.0.0'));
    assert.equal(await serial(), before);
  });

  it('applies the change and prints the diff and the new serial', async () => {
    const before = await serial();
    const r = await cli(['vet', vettingFile('apply', { changes: [vet([IOU_V2])] })], env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^Vetting updated\./);
    assert.match(r.stdout, new RegExp(`^  topology serial: +${before} → ${before + 1}$`, 'm'));
    assert.match(r.stdout, /^  \+ demo-iou 2\.0\.0 /m);
    assert.ok((await vetted()).includes('demo-iou 2.0.0'));
    assert.equal(await serial(), before + 1);
  });

  it('shows validity changes and removals', async () => {
    const window = await cli(['vet', vettingFile('window', { changes: [vet([IOU_V1], { newValidFromInclusive: '2030-01-01T00:00:00Z' })] })], env);
    assert.equal(window.status, 0, window.stderr);
    assert.match(window.stdout, /^Validity changed:\n  ~ demo-iou 1\.0\.0 \([0-9a-f]{12}…\)  always valid → valid from 2030-01-01T00:00:00Z$/m);

    const removal = await cli(['vet', vettingFile('unvet', { changes: [unvet([IOU_V2])] })], env);
    assert.equal(removal.status, 0, removal.stderr);
    assert.match(removal.stdout, /^Removed:\n  - demo-iou 2\.0\.0 /m);
    assert.ok(!(await vetted()).includes('demo-iou 2.0.0'));
  });

  it('prints the raw response with --json', async () => {
    const r = await cli(['vet', vettingFile('json', { changes: [vet([IOU_V2])] }), '--dry-run', '--json'], env);
    assert.equal(r.status, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.equal(body.newVettedPackages.topologySerial, body.pastVettedPackages.topologySerial + 1);
  });

  it('reports the participant rejecting a change (exit 1), and an invalid file before sending', async () => {
    const before = await serial();
    const unknown = await cli(['vet', vettingFile('unknown', { changes: [vet([{ packageName: 'no-such-package' }])] })], env);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /^error: INVALID_ARGUMENT: .*no-such-package/m);
    assert.match(unknown.stderr, /^hint: /m);

    const invalidPath = vettingFile('invalid', { changes: [] });
    const invalid = await cli(['vet', invalidPath], env);
    assert.equal(invalid.status, 1);
    assert.match(invalid.stderr, /:\d+:\d+: error: .*\[empty-changes\]$/m);
    assert.match(invalid.stderr, /not sent/);
    assert.equal(await serial(), before);
  });
});
