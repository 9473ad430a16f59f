// `canton-ledger doctor`: connects, prints the compatibility report made from the participant's own
// API description (or says that only the version table was used), as text or JSON, and exits with
// the report's severity. `participant --openapi FILE` serves a description as a participant does.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { participantDescriptions } from '../../src/core/compat/descriptions';
import type { CompatibilityReport } from '../../src/core/compat/report';
import type { DemoParticipant } from '../../src/participant/index';
import { deadUrl } from '../support/deadPort';
import { loadSpec, requireSpec, specPath } from '../support/spec';
import { startCheckedParticipant } from '../support/specCheck';
import { cli, startParticipantCommand } from './harness';

describe('cli: doctor', function () {
  this.timeout(60_000);
  const started: DemoParticipant[] = [];
  // One process, one check per version: each test's participant serves its own description.
  beforeEach(() => participantDescriptions.clear());
  afterEach(async () => {
    participantDescriptions.clear();
    await Promise.all(started.splice(0).map((p) => p.close()));
  });

  async function demo(openapi?: string | { text: string }): Promise<DemoParticipant> {
    const p = await startCheckedParticipant({ port: 0, seed: 5, apiVersion: '3.5', ...(openapi ? { openapi } : {}) });
    started.push(p);
    return p;
  }

  function withoutGetUpdatesPage(): { text: string } {
    const doc = structuredClone(loadSpec('3.5'));
    delete (doc.paths as Record<string, unknown>)['/v2/updates/get-updates-page'];
    return { text: JSON.stringify(doc) };
  }

  it('the official spec: the report, every request accepted, exit 0; --json is the typed report', async function () {
    requireSpec(this, '3.5');
    const p = await demo(specPath('3.5'));
    const r = await cli(['--url', p.url, 'doctor']);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.equal(lines[0], "Canton 3.5.10, checked against the participant's own API description (GET /docs/openapi, 3.5.10-SNAPSHOT): everything the extension sends is accepted.");
    assert.ok(lines.includes('Works (31):'), r.stdout);
    assert.ok(lines.includes('  Listing updates (POST /v2/updates)'));
    assert.ok(lines.includes('  Preferred packages (interactive-submission preferred-packages) (POST /v2/interactive-submission/preferred-packages)'));
    assert.ok(lines.some((l) => /^Not used yet .*\(\d+\):$/.test(l)) && lines.includes('  POST /v2/commands/async/submit'));
    const json = await cli(['--url', p.url, '--json', 'doctor']);
    assert.equal(json.status, 0);
    const report = JSON.parse(json.stdout) as CompatibilityReport;
    assert.equal(report.severity, 'ok');
    assert.equal(report.summary, lines[0]);
    assert.deepEqual(report.source, { kind: 'participant-spec', documentVersion: '3.5.10-SNAPSHOT' });
  });

  it('an endpoint the participant lacks: its line, exit 5; something ignored only: exit 4', async function () {
    requireSpec(this, '3.5');
    const p = await demo(withoutGetUpdatesPage());
    const r = await cli(['--url', p.url, 'doctor']);
    assert.equal(r.status, 5, r.stderr);
    assert.match(r.stdout, /^Refused \(not sent\) \(1\):\n {2}Paged updates \(get-updates-page\):\n {4}✗ POST \/v2\/updates\/get-updates-page: the participant does not have this endpoint; requests are not sent$/m);
    participantDescriptions.clear();
    const doc = structuredClone(loadSpec('3.5'));
    delete (doc.components.schemas.GetUpdatesRequest as { properties: Record<string, unknown> }).properties.verbose;
    const q = await demo({ text: JSON.stringify(doc) });
    const limited = await cli(['--url', q.url, 'doctor']);
    assert.equal(limited.status, 4, limited.stderr);
    assert.match(limited.stdout, /^ {4}! POST \/v2\/updates: GetUpdatesRequest\.verbose is not a field the participant knows; it ignores it$/m);
  });

  it('a participant without a description: the version table only, and it says so (exit 0)', async () => {
    const p = await demo();
    const r = await cli(['--url', p.url, 'doctor']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.split('\n')[0], 'Canton 3.5.10, checked against the version table only: the participant does not serve its API description (GET /docs/openapi): the version table decides what is sent.');
  });

  it('a participant that cannot be reached: exit 1 with the error; the help names the exit statuses', async () => {
    const r = await cli(['--url', await deadUrl(), 'doctor']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error: ECONNREFUSED/m);
    const help = await cli(['doctor', '--help']);
    assert.match(help.stdout, /Exit status: 0 nothing found; 4 something is ignored/);
    assert.match((await cli(['--help'])).stdout, /^ {2}doctor +Check every request/m);
  });

  it('`participant --openapi FILE` serves the file at GET /docs/openapi, which doctor reads; a missing file is a usage error', async function () {
    requireSpec(this, '3.5');
    const dir = mkdtempSync(join(tmpdir(), 'doctor-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, withoutGetUpdatesPage().text);
    const p = await startParticipantCommand(['--openapi', file]);
    try {
      assert.match(p.banner, /^ {2}API description: served at http:\/\/127\.0\.0\.1:\d+\/docs\/openapi$/m);
      const r = await cli(['--url', p.url, 'doctor']);
      assert.equal(r.status, 5, r.stderr);
      assert.match(r.stdout, /✗ POST \/v2\/updates\/get-updates-page: the participant does not have this endpoint/);
    } finally {
      assert.equal((await p.stop()).status, 0);
    }
    const missing = await cli(['participant', '--port', '0', '--openapi', join(dir, 'nope.yaml')]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /cannot read the API description .*nope\.yaml: no such file/);
  });
});
