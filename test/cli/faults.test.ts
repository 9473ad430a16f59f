// The CLI on a hostile network: a fault-injecting proxy between it and the demo participant.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LedgerClient } from '../../src/core/api/client';
import { type DemoParticipant } from '../../src/participant/index';
import { readDar } from '../../src/core/daml/lf/archive';
import { DAR_DIR, DARS, requireDarBytes } from '../support/dars';
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
    // The deadline is per request: long enough for every other call on a loaded 2-core machine, shorter than the proxy's 5 s hang.
    ['hung', { kind: 'hang' }, ['--timeout', '3000']],
    ['502', { kind: 'answer', status: 502, body: 'Bad Gateway' }, []],
    ['504', { kind: 'answer', status: 504, body: 'Gateway Timeout' }, []],
    ['an HTML page', { kind: 'answer', status: 200, body: '<html><body>Maintenance</body></html>', contentType: 'text/html' }, []],
    ['cut mid-body', { kind: 'cut-body', afterBytes: 20 }, []],
  ];
  for (const [what, fault, extra] of lostAnswers) {
    it(`a vetting apply whose answer is ${what} is an unknown outcome, and the look-up says "already applied" (exit 0); the pinned retry says so too`, async () => {
      const file = await changingFile(`lost-${what.replace(/\W+/g, '-')}`);
      const before = await serial();
      // The check (a dry run) goes through; the apply's answer is lost after the participant applied it.
      proxy.add({ method: 'POST', path: VET, fault, skip: 1 });
      const argv = [...extra, 'vet', file];
      const lost = await cli(argv, env);
      assert.equal(lost.status, 0, lost.stderr);
      assert.match(lost.stderr, /^error: outcome UNKNOWN: /m);
      assert.match(lost.stderr, new RegExp(`^Already applied: the vetted packages already are as ${file.replace(/[.]/g, '\\.')} says \\(topology serial ${before + 1}\\); nothing was applied twice\\.$`, 'm'));
      assert.equal(await serial(), before + 1, 'the participant applied it, once');

      // A retry pinned to the serial before the lost attempt (as a script would run it): already applied, not a failure.
      const retry = await cli([...extra, 'vet', file, '--expected-serial', String(before)], env);
      assert.equal(retry.status, 0, retry.stderr);
      assert.match(retry.stderr, /^Already applied: .*\(Refused with TOPOLOGY_SERIAL_MISMATCH: the serial it was pinned to had moved on\.\)$/m);
      assert.doesNotMatch(retry.stderr, /^error: /m);
      assert.equal(await serial(), before + 1, 'not applied twice');
    });
  }

  it('a pinned apply refused because another change came first is still a failure (exit 1): the state is not as the file says', async () => {
    const file = await changingFile('overtaken');
    const before = await serial();
    // Someone else changes the vetting state after the pin was taken (here: an unrelated unvet).
    const other = await changingFile('other');
    assert.equal((await cli(['vet', other], env)).status, 0);
    const otherFlip = await changingFile('other-back');
    assert.equal((await cli(['vet', otherFlip], env)).status, 0);
    const r = await cli(['vet', file, '--expected-serial', String(before)], env);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /^error: TOPOLOGY_SERIAL_MISMATCH: /m);
    assert.match(r.stderr, /the vetted packages are not as .* says/);
  });

  it('a vetting apply cut before it reached the participant: the pinned retry applies it, once', async () => {
    const file = await changingFile('never-arrived');
    const before = await serial();
    proxy.add({ method: 'POST', path: VET, fault: { kind: 'cut-request' }, skip: 1 });
    const lost = await cli(['vet', file], env);
    assert.equal(lost.status, 3, lost.stderr);
    assert.match(lost.stderr, /^error: outcome UNKNOWN: /m);
    assert.match(lost.stderr, /^A dry run now shows the change not in place/m);
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
    assert.match(lost.stderr, /^Already applied: /m);
    assert.equal(proxy.count('POST', VET), 3, 'checked first, as the editor does, then applied with the pin of the file, then looked at (a dry run)');
    const retry = await cli(['vet', file], env);
    assert.equal(retry.status, 0, retry.stderr);
    assert.match(retry.stderr, /^Already applied: .*TOPOLOGY_SERIAL_MISMATCH/m);
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

  describe('a page that cannot be the last one', () => {
    const PROTOCOL_EARLY = /^error: PROTOCOL: The answer to POST \/v2\/[\w/-]+ (ends the paging early|has empty at activeContracts)/m;
    it('acs on 3.5: a `{}` page after the first is a PROTOCOL error (exit 1), not a short list with exit 0', async () => {
      const whole = await cli(['acs', '--any-party', '--page-size', '2'], env);
      assert.equal(whole.status, 0, whole.stderr);
      const pagesBefore = proxy.count('POST', '/v2/state/active-contracts-page');
      assert.ok(pagesBefore > 2, 'more than two pages in all');
      proxy.add({ method: 'POST', path: '/v2/state/active-contracts-page', fault: { kind: 'answer', status: 200, body: '{}', contentType: 'application/json' }, skip: 1 });
      const r = await cli(['acs', '--any-party', '--page-size', '2'], env);
      assert.equal(r.status, 1, r.stdout);
      assert.match(r.stderr, /^error: PROTOCOL: The answer to POST \/v2\/state\/active-contracts-page has empty at activeContracts, expected the list of active contracts$/m);
      assert.equal(proxy.count('POST', '/v2/state/active-contracts-page'), pagesBefore + 2, 'reading stopped at the broken page');
    });

    describe('on 3.4 (lists by offset; the active contracts read again page by page)', () => {
      let old: DemoParticipant;
      let oldProxy: FaultProxy;
      let oldEnv: Record<string, string>;
      before(async () => {
        old = await startCheckedParticipant({ seed: 8, apiVersion: '3.4' });
      });
      after(() => old.close());
      beforeEach(async () => {
        oldProxy = await startFaultProxy(old.url);
        oldEnv = { CANTON_LEDGER_URL: oldProxy.url };
      });
      afterEach(() => oldProxy.close());

      const emptyAfterMore: Array<[string, string, RegExp]> = [
        ['acs', '/v2/state/active-contracts', /it is empty, but the page before it showed another contract/],
        ['updates', '/v2/updates', /it is empty, but the page before it showed an update in \(\d+, \d+\]/],
      ];
      for (const [command, path, why] of emptyAfterMore) {
        it(`${command}: an empty page after one that showed more is a PROTOCOL error (exit 1)`, async () => {
          assert.equal((await cli([command, '--any-party', '--page-size', '2'], oldEnv)).status, 0);
          oldProxy.add({ method: 'POST', path, fault: { kind: 'answer', status: 200, body: '[]', contentType: 'application/json' }, skip: 1 });
          const r = await cli([command, '--any-party', '--page-size', '2'], oldEnv);
          assert.equal(r.status, 1, r.stdout);
          assert.match(r.stderr, PROTOCOL_EARLY);
          assert.match(r.stderr, why);
        });
      }

      it('acs: a page read again (3.4 has no continuation token) whose earlier contracts changed is a PROTOCOL error (exit 1), not a gap', async () => {
        // The second page reads the list again from its start: here it comes back without its first contract.
        const dropFirst = (body: unknown) => (body as unknown[]).slice(1);
        oldProxy.add({ method: 'POST', path: '/v2/state/active-contracts', fault: { kind: 'rewrite-json', rewrite: dropFirst }, skip: 1 });
        const r = await cli(['acs', '--any-party', '--page-size', '2'], oldEnv);
        assert.equal(r.status, 1, r.stdout);
        assert.match(r.stderr, /ends the paging early: read again, the list no longer ends the page before with \S+ \(it has \S+ there\)/);
      });
    });
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

  describe('a DAR upload whose answer is lost', () => {
    // A participant of its own per case: each upload must find the DAR's packages new.
    let fresh: DemoParticipant;
    let freshProxy: FaultProxy;
    let freshEnv: Record<string, string>;
    beforeEach(async () => {
      fresh = await startCheckedParticipant({ seed: 9 });
      freshProxy = await startFaultProxy(fresh.url, { maxHangMs: 10_000 });
      freshEnv = { CANTON_LEDGER_URL: freshProxy.url };
    });
    afterEach(async () => {
      await freshProxy.close();
      await fresh.close();
    });
    const darPath = resolve(DAR_DIR, DARS.holding);
    const lostUploads: Array<[string, Fault, string[]]> = [
      ['dropped', { kind: 'drop' }, []],
      // The proxy hangs only once the participant answered: the upload is stored when the client gives up.
      ['timed out', { kind: 'hang' }, ['--timeout', '6000']],
      ['502 after forwarding', { kind: 'answer', status: 502, body: 'Bad Gateway' }, []],
      ['504 after forwarding', { kind: 'answer', status: 504, body: 'Gateway Timeout' }, []],
    ];
    for (const [what, fault, extra] of lostUploads) {
      it(`${what}: outcome UNKNOWN, then the look-up finds the main package there (exit 0), never "failed"`, async function () {
        const main = readDar(requireDarBytes(this, DARS.holding)).mainPackageId;
        freshProxy.add({ method: 'POST', path: '/v2/dars', fault });
        const r = await cli([...extra, 'upload-dar', darPath], freshEnv);
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stderr, /^error: outcome UNKNOWN: /m);
        assert.match(r.stderr, new RegExp(`^Its main package ${main} is on the participant now: the upload went through\.$`, 'm'));
        assert.doesNotMatch(r.stderr, /failed/);
        assert.equal(freshProxy.count('POST', '/v2/dars'), 1, 'not re-sent by itself');
        assert.equal(await new LedgerClient({ baseUrl: fresh.url }).packageStatus(main), 'PACKAGE_STATUS_REGISTERED');
      });
    }

    it('cut before it reached the participant: the look-up finds nothing (exit 3), says another upload is safe, and the printed one uploads it', async function () {
      const main = readDar(requireDarBytes(this, DARS.holding)).mainPackageId;
      freshProxy.add({ method: 'POST', path: '/v2/dars', fault: { kind: 'cut-request' } });
      const lost = await cli(['upload-dar', darPath], freshEnv);
      assert.equal(lost.status, 3, lost.stderr);
      assert.match(lost.stderr, /^error: outcome UNKNOWN: /m);
      assert.match(lost.stderr, new RegExp(`^Its main package ${main} is not on the participant .*Uploading the same DAR again is safe`, 'm'));
      const retryLine = /^ {2}canton-ledger (.*)$/m.exec(lost.stderr)![1];
      const again = await cli(retryLine.split(' '), freshEnv);
      assert.equal(again.status, 0, again.stderr);
      assert.equal(await new LedgerClient({ baseUrl: fresh.url }).packageStatus(main), 'PACKAGE_STATUS_REGISTERED');
    });
  });

  describe('a submission whose answer is lost', () => {
    const IOU = '#demo-iou:Iou:Iou';
    // A token the participant (without auth) ignores: it must not appear in any output all the same.
    const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vLWFkbWluIn0.c2VjcmV0LXNpZ25hdHVyZQ';
    const SUBMIT = '/v2/commands/submit-and-wait-for-transaction';
    const executions = (commandId: string) => participant.state.entries.filter((e) => e.kind === 'transaction' && (e as { commandId?: string }).commandId === commandId).length;
    const faults: Array<[string, Fault, string[]]> = [
      ['dropped', { kind: 'drop' }, []],
      // The deadline is per request: long enough for every other call on a loaded 2-core machine (400 ms was
      // not: a ledger-end read once took 512 ms), shorter than the proxy's 5 s hang.
      ['hung', { kind: 'hang' }, ['--timeout', '3000']],
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
        assert.equal(lost.status, 3, lost.stderr);
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
