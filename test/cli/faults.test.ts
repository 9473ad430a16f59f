// The CLI on a hostile network: a fault-injecting proxy between it and the demo participant.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerClient } from '../../src/core/api/client';
import { type DemoParticipant } from '../../src/participant/index';
import { repeatElements, startFaultProxy, type Fault, type FaultProxy } from '../support/faultProxy';
import { startCheckedParticipant } from '../support/specCheck';
import { cli, writeJson } from './harness';

const IOU_V2 = { packageName: 'demo-iou', packageVersion: '2.0.0' };
const VET = '/v2/package-vetting/update';

describe('cli on a hostile network', function () {
  this.timeout(30_000);
  let participant: DemoParticipant;
  let proxy: FaultProxy;
  let client: LedgerClient;
  let dir: string;
  let env: Record<string, string>;

  before(async () => {
    participant = await startCheckedParticipant({ seed: 8 });
    client = new LedgerClient({ baseUrl: participant.url });
    dir = mkdtempSync(join(tmpdir(), 'cli-faults-'));
  });
  after(() => participant.close());
  beforeEach(async () => {
    proxy = await startFaultProxy(participant.url, { maxHangMs: 5000 });
    env = { CANTON_LEDGER_URL: proxy.url };
  });
  afterEach(() => proxy.close());

  const serial = async () => (await client.listVettedPackages())[0].topologySerial;
  const v2Vetted = async () => (await client.listVettedPackages())[0].packages.some((p) => p.packageName === 'demo-iou' && p.packageVersion === '2.0.0');
  /** A file that changes the state: vets demo-iou 2.0.0, or unvets it when it is vetted. */
  async function changingFile(name: string): Promise<string> {
    const op = (await v2Vetted()) ? { Unvet: { value: { packages: [IOU_V2] } } } : { Vet: { value: { packages: [IOU_V2] } } };
    return writeJson(dir, `${name}.vetting.json`, { changes: [{ operation: op }] });
  }

  const lostAnswers: Array<[string, Fault, string[]]> = [
    ['dropped', { kind: 'drop' }, []],
    ['hung', { kind: 'hang' }, ['--timeout', '400']],
    ['502', { kind: 'answer', status: 502, body: 'Bad Gateway' }, []],
    ['504', { kind: 'answer', status: 504, body: 'Gateway Timeout' }, []],
    ['an HTML page', { kind: 'answer', status: 200, body: '<html><body>Maintenance</body></html>', contentType: 'text/html' }, []],
    ['cut mid-body', { kind: 'cut-body', afterBytes: 20 }, []],
  ];
  for (const [what, fault, extra] of lostAnswers) {
    it(`a vetting apply whose answer is ${what} is an unknown outcome; the printed retry cannot apply twice`, async () => {
      const file = await changingFile(`lost-${what.replace(/\W+/g, '-')}`);
      const before = await serial();
      // The check (a dry run) goes through; the apply's answer is lost after the participant applied it.
      proxy.add({ method: 'POST', path: VET, fault, skip: 1 });
      const argv = [...extra, 'vet', file];
      const lost = await cli(argv, env);
      assert.equal(lost.status, 1, lost.stderr);
      assert.match(lost.stderr, /^error: outcome UNKNOWN: /m);
      assert.match(lost.stderr, /may or may not have been applied/);
      assert.match(lost.stderr, new RegExp(`canton-ledger vet ${file.replace(/[.]/g, '\\.')} --dry-run`));
      assert.equal(await serial(), before + 1, 'the participant applied it');
      const retryLine = /^ {2}canton-ledger (.*)$/m.exec(lost.stderr)![1];
      assert.equal(retryLine, [...extra, 'vet', file, '--expected-serial', String(before)].join(' '));

      const retry = await cli(retryLine.split(' '), env);
      assert.equal(retry.status, 1);
      assert.match(retry.stderr, /^error: TOPOLOGY_SERIAL_MISMATCH: /m);
      assert.match(retry.stderr, /that apply went through/);
      assert.equal(await serial(), before + 1, 'not applied twice');
    });
  }

  it('a vetting apply cut before it reached the participant: the pinned retry applies it, once', async () => {
    const file = await changingFile('never-arrived');
    const before = await serial();
    proxy.add({ method: 'POST', path: VET, fault: { kind: 'cut-request' }, skip: 1 });
    const lost = await cli(['vet', file], env);
    assert.match(lost.stderr, /^error: outcome UNKNOWN: /m);
    assert.equal(await serial(), before, 'nothing applied');
    const retryLine = /^ {2}canton-ledger (.*)$/m.exec(lost.stderr)![1];
    const retry = await cli(retryLine.split(' '), env);
    assert.equal(retry.status, 0, retry.stderr);
    assert.match(retry.stdout, new RegExp(`topology serial: +${before} → ${before + 1}`));
    assert.equal(await serial(), before + 1);
  });

  it('a file that pins expectedTopologySerial itself is retried as it is', async () => {
    const path = await changingFile('pinned');
    const before = await serial();
    const file = writeJson(dir, 'pinned.vetting.json', { ...JSON.parse(readFileSync(path, 'utf8')), expectedTopologySerial: { serial: { Prior: { value: before } } } });
    // The check (a dry run) passes; the apply's answer is lost.
    proxy.add({ method: 'POST', path: VET, fault: { kind: 'drop' }, skip: 1 });
    const lost = await cli(['vet', file], env);
    assert.match(lost.stderr, /^error: outcome UNKNOWN: /m);
    assert.equal(/^ {2}canton-ledger (.*)$/m.exec(lost.stderr)![1], `vet ${file}`, 'the file pins the serial: the retry is the same command');
    assert.equal(proxy.count('POST', VET), 2, 'checked first, as the editor does, then applied with the pin of the file');
    const retry = await cli(['vet', file], env);
    assert.match(retry.stderr, /^error: TOPOLOGY_SERIAL_MISMATCH: /m);
    assert.equal(await serial(), before + 1);
  });

  it('updates: repeated elements are a PROTOCOL error naming the offsets (exit 1), not thousands of duplicates', async () => {
    proxy.add({ method: 'POST', path: '/v2/updates/get-updates-page', fault: { kind: 'rewrite-json', rewrite: repeatElements(50) }, times: 1000 });
    const r = await cli(['updates', '--any-party', '--page-size', '10'], env);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error: PROTOCOL: The answer to POST \/v2\/updates\/get-updates-page breaks the order of offsets: offset \d+ \(element 10\) follows offset \d+ \(element 9\)/m);
    assert.match(r.stderr, /^hint: .*broke the Ledger API protocol/m);
    assert.equal(r.stdout, '', 'nothing of the broken page was printed');
    assert.equal(proxy.count('POST', '/v2/updates/get-updates-page'), 1);
  });

  for (const body of ['{}', '[]', '', 'null']) {
    it(`events: a 200 with ${JSON.stringify(body)} is a PROTOCOL error (exit 1), not "not visible"`, async () => {
      const [contractId] = [...participant.state.contracts.keys()];
      proxy.add({ method: 'POST', path: '/v2/events/events-by-contract-id', fault: { kind: 'answer', status: 200, body, contentType: 'application/json' } });
      const r = await cli(['events', contractId, '--any-party'], env);
      assert.equal(r.status, 1);
      assert.match(r.stderr, /^error: PROTOCOL: The answer to POST \/v2\/events\/events-by-contract-id .*expected/m);
      assert.doesNotMatch(r.stdout, /not visible/);
    });
  }

  it('events: an answer above --max-response-mb is refused with a clear error', async () => {
    const [contractId] = [...participant.state.contracts.keys()];
    const big = JSON.stringify({ created: { createdEvent: { padding: 'x'.repeat(3 * 1024 * 1024) }, synchronizerId: 's' } });
    proxy.add({ method: 'POST', path: '/v2/events/events-by-contract-id', fault: { kind: 'answer', status: 200, body: big, contentType: 'application/json' } });
    const r = await cli(['--max-response-mb', '1', 'events', contractId, '--any-party'], env);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error: PROTOCOL: The response to POST \/v2\/events\/events-by-contract-id is larger than 1048576 bytes$/m);
    assert.match(r.stderr, /^hint: .*--max-response-mb/m);
  });

  it('a redirect to another origin is named, and not followed with the token', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vLWFkbWluIn0.c2lnbmF0dXJl';
    proxy.add({ path: '/v2/version', fault: { kind: 'answer', status: 302, headers: { location: 'https://elsewhere.invalid:8443/login' } } });
    const r = await cli(['updates', '--any-party'], { ...env, CANTON_LEDGER_TOKEN: token });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error: REDIRECTED: The participant redirected to https:\/\/elsewhere\.invalid:8443 \(HTTP 302\); not followed with your token$/m);
  });

  it('a server that echoes the request headers never gets the token printed', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vLWFkbWluIn0.c2lnbmF0dXJl';
    proxy.add({ path: /^\/v2\//, fault: { kind: 'echo-headers' }, times: 10 });
    const r = await cli(['--verbose', 'events', '00' + 'ab'.repeat(33), '--any-party'], { ...env, CANTON_LEDGER_TOKEN: token });
    assert.equal(r.status, 1);
    assert.ok(proxy.faults > 0);
    assert.doesNotMatch(r.stdout + r.stderr, /c2lnbmF0dXJl|eyJ/);
  });

  describe('a submission whose answer is lost', () => {
    const IOU = '#demo-iou:Iou:Iou';
    // A token the participant (without auth) ignores: it must not appear in any output all the same.
    const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vLWFkbWluIn0.c2VjcmV0LXNpZ25hdHVyZQ';
    const SUBMIT = '/v2/commands/submit-and-wait-for-transaction';
    const executions = (commandId: string) => participant.state.entries.filter((e) => e.kind === 'transaction' && (e as { commandId?: string }).commandId === commandId).length;
    const faults: Array<[string, Fault, string[]]> = [
      ['dropped', { kind: 'drop' }, []],
      ['hung', { kind: 'hang' }, ['--timeout', '400']],
      ['cut mid-body', { kind: 'cut-body', afterBytes: 30 }, []],
      ['502', { kind: 'answer', status: 502, body: '<html><body>502 Bad Gateway</body></html>', contentType: 'text/html' }, []],
      ['504', { kind: 'answer', status: 504, body: 'upstream timed out' }, []],
      ['an HTML page with 200', { kind: 'answer', status: 200, body: '<html>Login</html>', contentType: 'text/html' }, []],
      ['the request headers echoed', { kind: 'echo-headers' }, []],
    ];
    for (const [what, fault, extra] of faults) {
      it(`${what}: outcome UNKNOWN, executed at most once, and the printed retry answers "already executed"`, async () => {
        const { bank, alice } = participant.parties;
        const commandId = `cli-fault-${what.replace(/\W+/g, '-')}`;
        const file = writeJson(dir, `${commandId}.commands.json`, {
          commandId,
          actAs: [bank],
          commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '1', observers: [] } } }],
        });
        proxy.add({ method: 'POST', path: SUBMIT, fault });
        const withToken = { ...env, CANTON_LEDGER_TOKEN: TOKEN };
        const lost = await cli([...extra, '--verbose', 'submit', file], withToken);
        assert.equal(lost.status, 1, lost.stderr);
        assert.match(lost.stderr, /^error: outcome UNKNOWN: /m);
        assert.ok(executions(commandId) <= 1);
        const retryLine = /^ {2}canton-ledger (.*)$/m.exec(lost.stderr)![1];
        const retry = await cli(retryLine.split(' '), withToken);
        assert.equal(retry.status, 0, retry.stderr);
        assert.equal(executions(commandId), 1, 'exactly one execution');
        if (fault.kind !== 'echo-headers') assert.match(retry.stderr, /^Already executed: /m);
        for (const out of [lost.stdout, lost.stderr, retry.stdout, retry.stderr]) assert.doesNotMatch(out, /c2VjcmV0LXNpZ25hdHVyZQ|eyJhbGci/);
      });
    }
  });
});
