import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invalidCorpus, validCorpus } from '../fixtures/files/corpus';
import { PackageIndex } from '../../src/core/daml/packageIndex';
import { validateText } from '../../src/core/files/validate';
import { commandsFileTemplate, templateText, vettingFileTemplate } from '../../src/core/files/templates';
import { DAR_DIR, DARS, requireDar, requireDarBytes } from '../support/dars';
import { deadUrl } from '../support/deadPort';
import { cli } from './harness';
import type { DemoParticipant } from '../../src/participant/index';
import { startCheckedParticipant } from '../support/specCheck';
import { LedgerClient } from '../../src/core/api/client';
import { decodeArchivePayload } from '../../src/core/daml/lf/archive';
import { startFaultProxy, type Fault, type FaultProxy } from '../support/faultProxy';

/** `file:line:col: severity: message [code]` */
const PROBLEM_LINE = /^(.+):(\d+):(\d+): (error|warning): (.+) \[([a-z-]+)\]$/;

function problemLines(stdout: string, file: string) {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith(`${file}:`))
    .map((l) => {
      const m = PROBLEM_LINE.exec(l);
      assert.ok(m, `not a problem line: ${l}`);
      return { line: Number(m[2]), column: Number(m[3]), severity: m[4], code: m[6] };
    });
}

describe('cli: validate', () => {
  for (const file of validCorpus()) {
    it(`accepts valid/${file.name}`, async () => {
      const r = await cli(['validate', file.path]);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.equal(r.stdout, `${file.path}: ok\n`);
    });
  }

  for (const file of invalidCorpus()) {
    it(`reports exactly the expected positions and codes for invalid/${file.name}`, async () => {
      const r = await cli(['validate', file.path]);
      const problems = problemLines(r.stdout, file.path);
      assert.deepEqual(
        problems.map(({ line, column, code }) => ({ line, column, code })),
        file.expected.map(({ line, column, code }) => ({ line, column, code })),
      );
      // Exit 1 exactly when an error-severity problem was printed (warnings alone pass).
      assert.equal(r.status, problems.some((p) => p.severity === 'error') ? 1 : 0);
    });
  }

  it('reads a file saved with a UTF-8 byte-order mark as VS Code does', async () => {
    const [valid] = validCorpus();
    const dir = mkdtempSync(join(tmpdir(), 'cli-validate-bom-'));
    const file = join(dir, `bom-${valid.name}`);
    writeFileSync(file, '\ufeff' + valid.text);
    const r = await cli(['validate', file]);
    assert.equal(r.stdout, `${file}: ok\n`, r.stderr);
    assert.equal(r.status, 0);
  });

  it('checks every file in one run and exits with the worst status', async () => {
    const [valid] = validCorpus();
    const invalid = invalidCorpus().find((f) => f.name.startsWith('syntax-unclosed'))!;
    const dir = mkdtempSync(join(tmpdir(), 'cli-validate-'));
    const unknownKind = join(dir, 'notes.json');
    writeFileSync(unknownKind, '{}');

    const mixed = await cli(['validate', valid.path, invalid.path]);
    assert.equal(mixed.status, 1);
    assert.match(mixed.stdout, new RegExp(`^${escape(valid.path)}: ok$`, 'm'));
    assert.ok(problemLines(mixed.stdout, invalid.path).length > 0);

    const withUsage = await cli(['validate', unknownKind, invalid.path, join(dir, 'missing.vetting.json')]);
    assert.equal(withUsage.status, 2);
    assert.match(withUsage.stderr, /notes\.json: the name must end in \.commands\.json or \.vetting\.json/);
    assert.match(withUsage.stderr, /cannot read .*missing\.vetting\.json: no such file/);
    // The usable file in between was still checked.
    assert.ok(problemLines(withUsage.stdout, invalid.path).length > 0);
  });

  it('prints one JSON line per file with --json', async () => {
    const invalid = invalidCorpus().find((f) => f.name.startsWith('missing-command-id'))!;
    const r = await cli(['validate', '--json', invalid.path]);
    assert.equal(r.status, 1);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const parsed = JSON.parse(lines[0]);
    assert.equal(parsed.file, invalid.path);
    assert.equal(parsed.kind, 'commands');
    assert.deepEqual(
      parsed.problems.map((p: { line: number; column: number; code: string }) => ({ line: p.line, column: p.column, code: p.code })),
      invalid.expected,
    );
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('cli: validate, Daml arguments', () => {
  const ALICE = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';
  const PING = '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping';

  it('checks the arguments against the packages of --dar files, as the editor does, and says so when there are none', async function () {
    requireDarBytes(this, DARS.ping);
    const dir = mkdtempSync(join(tmpdir(), 'cli-validate-dar-'));
    const file = join(dir, 'ping.commands.json');
    const text = JSON.stringify({ commandId: 'c', actAs: [ALICE], commands: [{ CreateCommand: { templateId: PING, createArguments: { id: 7, initator: ALICE, responder: ALICE } } }] }, null, 2);
    writeFileSync(file, text);
    const r = await cli(['validate', '--dar', join(DAR_DIR, DARS.ping), file]);
    assert.equal(r.status, 1, r.stderr);
    const expected = validateText('commands', text, { packages: { packages: new PackageIndex(requireDar(this, DARS.ping).packages), source: 'x' } }).problems;
    assert.deepEqual(problemLines(r.stdout, file).map((p) => p.code), expected.map((p) => p.code));
    assert.ok(expected.some((p) => p.code === 'unknown-field') && expected.some((p) => p.code === 'wrong-kind'));
    assert.doesNotMatch(r.stderr, /not checked/);

    const offline = await cli(['validate', file]);
    assert.equal(offline.status, 0);
    assert.match(offline.stderr, /note: the Daml arguments were not checked: give --url \(a participant\) or --dar FILE/);
  });
});

describe('cli: validate --url, Daml arguments against the participant', function () {
  this.timeout(30_000);
  let participant: DemoParticipant;
  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 7 });
  });
  after(() => participant.close());

  const iouFile = (args: Record<string, unknown>) => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-validate-url-'));
    const file = join(dir, 'iou.commands.json');
    const { bank, alice } = participant.parties;
    writeFileSync(file, JSON.stringify({ commandId: 'c', actAs: [bank], commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: bank, owner: alice, currency: 'USD', observers: [], ...args } } }] }, null, 2));
    return file;
  };

  it("checks the arguments against the participant's packages (read as the editor reads them), before any --dar", async function () {
    const wrong = iouFile({ amount: 'ten', colour: 'red' });
    const r = await cli(['validate', wrong], { CANTON_LEDGER_URL: participant.url });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const codes = problemLines(r.stdout, wrong).map((p) => p.code);
    assert.ok(codes.includes('unknown-field'), codes.join());
    assert.doesNotMatch(r.stderr, /not checked/);
    // A DAR given too does not replace the participant's packages (the ping DAR has no Iou).
    requireDarBytes(this, DARS.ping);
    const both = await cli(['validate', '--dar', join(DAR_DIR, DARS.ping), wrong], { CANTON_LEDGER_URL: participant.url });
    assert.deepEqual(problemLines(both.stdout, wrong).map((p) => p.code), codes);
    const right = iouFile({ amount: '10.0' });
    const ok = await cli(['validate', right], { CANTON_LEDGER_URL: participant.url });
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  });

  it('a participant that cannot be read fails the run (a CI job never passes unchecked)', async () => {
    const file = iouFile({ amount: '10.0' });
    const r = await cli(['validate', '--url', await deadUrl(), file]);
    assert.notEqual(r.status, 0);
    assert.doesNotMatch(r.stdout, /: ok$/m);
  });
});

describe('cli: validate --url, a package of the participant that cannot be read', function () {
  this.timeout(30_000);
  let participant: DemoParticipant;
  let proxy: FaultProxy;
  let assetId: string;
  let dir: string;
  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 7 });
    const client = new LedgerClient({ baseUrl: participant.url });
    for (const id of await client.packages()) if (decodeArchivePayload(await client.packageArchive(id), id).name === 'demo-asset') assetId = id;
    assert.ok(assetId, 'the demo participant has demo-asset');
    dir = mkdtempSync(join(tmpdir(), 'cli-validate-unreadable-'));
  });
  after(() => participant.close());
  beforeEach(async () => {
    proxy = await startFaultProxy(participant.url, { maxHangMs: 10_000 });
  });
  afterEach(() => proxy.close());

  const commandsFile = (name: string, templateId: string, createArguments: Record<string, unknown>) => {
    const file = join(dir, `${name}.commands.json`);
    writeFileSync(file, JSON.stringify({ commandId: name, actAs: [participant.parties.bank], commands: [{ CreateCommand: { templateId, createArguments } }] }, null, 2));
    return file;
  };

  const faults: Array<[string, Fault, string[]]> = [
    ['a 500', { kind: 'answer', status: 500, body: 'internal error' }, []],
    ['an HTML page', { kind: 'answer', status: 200, body: '<html><body>Sign in</body></html>', contentType: 'text/html' }, []],
    ['damaged bytes', { kind: 'answer', status: 200, body: 'not a Daml-LF archive', contentType: 'application/octet-stream', headers: { 'canton-package-hash': '' } }, []],
    ['a hang', { kind: 'hang' }, ['--timeout', '1500']],
    ['a truncated body', { kind: 'cut-body', afterBytes: 100 }, []],
  ];
  for (const [what, fault, extra] of faults) {
    it(`${what}: that package is named in one warning with its error, its templates cannot be checked, every other file is checked`, async () => {
      const f = typeof fault === 'object' && fault.kind === 'answer' && fault.headers ? { ...fault, headers: { 'canton-package-hash': assetId } } : fault;
      proxy.add({ method: 'GET', path: `/v2/packages/${assetId}`, fault: f });
      const { bank, alice } = participant.parties;
      const iouWrong = commandsFile('iou-wrong', '#demo-iou:Iou:Iou', { issuer: bank, owner: alice, currency: 'USD', observers: [], amount: 'ten' });
      const iouRight = commandsFile('iou-right', '#demo-iou:Iou:Iou', { issuer: bank, owner: alice, currency: 'USD', observers: [], amount: '10.0' });
      const asset = commandsFile('asset', `${assetId}:Asset:Asset`, { anything: 1 });
      const r = await cli([...extra, 'validate', iouWrong, iouRight, asset], { CANTON_LEDGER_URL: proxy.url });
      assert.equal(r.status, 1, r.stdout + r.stderr);
      const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning: '));
      assert.equal(warnings.length, 1, r.stderr);
      assert.match(warnings[0], new RegExp(`^warning: 1 of the Daml packages on .* could not be read, and the commands on the templates they hold are not checked: package ${assetId} \\(.+\\)$`));
      // The files that do not use that package get their verdict as if nothing had happened.
      assert.ok(problemLines(r.stdout, iouWrong).some((p) => p.code === 'number-format' || p.severity === 'error'), r.stdout);
      assert.match(r.stdout, new RegExp(`^${iouRight.replace(/[.]/g, '\\.')}: ok$`, 'm'));
      // The file on a template of the unreadable package: not checked, and said so, as an error (it fails the run).
      assert.deepEqual(problemLines(r.stdout, asset).filter((p) => p.code !== 'package-id-template').map((p) => [p.severity, p.code]), [['error', 'package-unreadable']]);
      assert.match(r.stdout, new RegExp(`Cannot check: package ${assetId} \\(.+\\) could not be read on `));
    });
  }

  it('a template named by package name that no readable package has: cannot check (not "no package named")', async () => {
    proxy.add({ method: 'GET', path: `/v2/packages/${assetId}`, fault: { kind: 'answer', status: 500, body: 'internal error' } });
    const asset = commandsFile('asset-by-name', '#demo-asset:Asset:Asset', {});
    const r = await cli(['validate', asset], { CANTON_LEDGER_URL: proxy.url });
    assert.equal(r.status, 1);
    assert.deepEqual(problemLines(r.stdout, asset).map((p) => [p.severity, p.code]), [['error', 'package-unreadable']], 'the exit status follows the severity printed');
  });
});

describe('cli: validate, a new file with its placeholders left in', () => {
  it('flags the placeholder template id without a participant (exit 1, its position), and nothing else of a filled-in file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-validate-placeholder-'));
    const file = join(dir, 'new.commands.json');
    writeFileSync(file, templateText(commandsFileTemplate({ userId: 'alice', actAs: 'Alice::1220aa' })));
    const r = await cli(['validate', file]);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const problems = problemLines(r.stdout, file);
    assert.deepEqual(problems.map((p) => [p.code, p.severity]), [['placeholder', 'error']]);
    assert.equal(problems[0].line, 5, 'the templateId line');
  });

  it('flags the placeholder package of a new vetting file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-validate-placeholder-'));
    const file = join(dir, 'new.vetting.json');
    writeFileSync(file, templateText(vettingFileTemplate({ topologySerial: 3 })));
    const r = await cli(['validate', file]);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.deepEqual(problemLines(r.stdout, file).map((p) => p.code), ['placeholder']);
  });
});
