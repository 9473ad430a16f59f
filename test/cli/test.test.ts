// `canton-ledger test`: ledger scripts from the command line against the demo participant: a line per
// step, the exit status, and the JUnit XML, read back by a JUnit report parser that CI tools use.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DemoParticipant } from '../../src/participant/index';
import { startFaultProxy } from '../support/faultProxy';
import { startCheckedParticipant } from '../support/specCheck';
import { REPO_ROOT } from '../support/spec';
import { cli } from './harness';

// test-results-parser: the reader of JUnit (and other) reports behind testbeats; typed here by what is used.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parse } = require('test-results-parser') as { parse(o: { type: 'junit'; files: string[] }): JUnitResult };
interface JUnitCase {
  name: string;
  status: 'PASS' | 'FAIL' | 'SKIP';
  failure: string;
  stack_trace: string;
}
interface JUnitResult {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  suites: Array<{ name: string; total: number; passed: number; failed: number; skipped: number; cases: JUnitCase[]; metadata: Record<string, string> }>;
}

const EXAMPLES = join(REPO_ROOT, 'examples/demo-workspace/scripts');
const SCRIPTS = ['iou-lifecycle.ledger.json', 'holding-transfer.ledger.json', 'wrong-party-transfer.ledger.json'];

describe('cli: test (ledger scripts)', function () {
  this.timeout(60_000);
  let participant: DemoParticipant;
  let env: Record<string, string>;
  let dir: string;
  let onExchange: ((path: string) => void) | undefined;

  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 7, onExchange: (x) => onExchange?.(x.path) });
    env = { CANTON_LEDGER_URL: participant.url };
    dir = mkdtempSync(join(tmpdir(), 'cli-test-'));
    for (const name of SCRIPTS) copyFileSync(join(EXAMPLES, name), join(dir, name));
  });
  after(() => participant.close());
  afterEach(() => {
    participant.faults.submit = undefined;
    onExchange = undefined;
  });

  const inDir = (name: string) => join(dir, name);

  it('runs the example scripts green: exit 0, a line per step, and JUnit XML a report reader reads as all passed', async () => {
    const junit = inDir('all.xml');
    const r = await cli(['test', '--junit', junit, ...SCRIPTS.map(inDir)], env);
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(r.stdout.split('\n').filter((l) => /^  ok +\d+\. /.test(l)).length, 11);
    assert.match(r.stdout, /^3 scripts: 3 passed, 0 did not; steps: 11 passed, 0 failed, 0 unknown, 0 not run$/m);
    const report = parse({ type: 'junit', files: [junit] });
    assert.deepEqual([report.total, report.passed, report.failed, report.skipped], [11, 11, 0, 0]);
    assert.deepEqual(report.suites.map((s) => [s.name.split('/').pop(), s.total]), [['iou-lifecycle.ledger.json', 5], ['holding-transfer.ledger.json', 3], ['wrong-party-transfer.ledger.json', 3]]);
    assert.deepEqual(report.suites[0].cases.map((c) => c.name), ['1. Bank issues an Iou to Alice', '2. Alice transfers it to Bob', '3. Bob splits it', "4. Alice's Iou is archived", '5. Charlie does not see Bob\'s Iou']);
    // The run id the XML records is the one printed for the file. The reader turns values that look like
    // numbers into numbers (an id of decimal digits, or one like 12e45678), so it is compared as the reader reads it.
    const printed = /iou-lifecycle\.ledger\.json \(run ([0-9a-f]{8})\)$/m.exec(r.stdout)?.[1];
    assert.ok(printed, r.stdout);
    const recorded: unknown = report.suites[0].metadata.runId;
    assert.equal(recorded, typeof recorded === 'number' ? Number(printed) : printed);
  });

  it('a broken copy fails at the right step with its message and position: exit 1, failure and skipped cases in the XML', async () => {
    const broken = inDir('broken.ledger.json');
    writeFileSync(broken, readFileSync(join(EXAMPLES, 'iou-lifecycle.ledger.json'), 'utf8').replace('"fields": { "amount": "40" }', '"fields": { "amount": "45" }'));
    const junit = inDir('broken.xml');
    const r = await cli(['test', '--junit', junit, broken, inDir('holding-transfer.ledger.json')], env);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^  FAIL +3\. Bob splits it \d+ ms$/m);
    assert.match(r.stdout, new RegExp(`^ {10}${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:52:11: Expected 1 created #demo-iou:Iou:Iou with \\{"amount":"45"\\}; found 0 with those fields, of 2: `, 'm'));
    assert.match(r.stdout, /^  not run 4\. Alice's Iou is archived \(an earlier step did not pass\)$/m);
    assert.match(r.stdout, /^  ok +3\. Bob sees the new holding/m, 'the next script still ran');
    const report = parse({ type: 'junit', files: [junit] });
    const [suite] = report.suites;
    assert.deepEqual(suite.cases.map((c) => c.status), ['PASS', 'PASS', 'FAIL', 'SKIP', 'SKIP']);
    assert.match(suite.cases[2].failure, /^Expected 1 created #demo-iou:Iou:Iou with \{"amount":"45"\}/);
    assert.match(suite.cases[2].stack_trace, /expected: 1 created #demo-iou:Iou:Iou with \{"amount":"45"\}\nactual: 0 with those fields, of 2: .*\nat \/steps\/2\/expect\/created\/1$/);
    assert.deepEqual([report.passed, report.failed, report.skipped], [5, 1, 2]);
  });

  it('a script with an error is refused with positions and nothing is sent (exit 1); the XML has an error case', async () => {
    const bad = inDir('bad.ledger.json');
    writeFileSync(bad, readFileSync(join(EXAMPLES, 'iou-lifecycle.ledger.json'), 'utf8').replace('"contractId": "${bobIou}", "choice": "Iou_Split"', '"contractId": "${bobIuo}", "choice": "Iou_Split"'));
    const before = participant.state.ledgerEnd;
    const junit = inDir('bad.xml');
    const r = await cli(['test', '--junit', junit, bad], env);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /bad\.ledger\.json:46:83: error: \$\{bobIuo\} is not a party alias or an earlier capture: did you mean \$\{bobIou\}\? \[unknown-name\]/);
    assert.match(r.stdout, /refused: fix the errors above; nothing was sent\./);
    assert.equal(participant.state.ledgerEnd, before);
    const report = parse({ type: 'junit', files: [junit] });
    assert.deepEqual(report.suites[0].cases.map((c) => c.status), ['FAIL', 'SKIP', 'SKIP', 'SKIP', 'SKIP', 'SKIP']);
  });

  it('an unknown outcome: exit 3, the command id to look up, the rest not run', async () => {
    participant.faults.submit = { dropResponse: true, times: 1 };
    const r = await cli(['test', inDir('holding-transfer.ledger.json')], env);
    assert.equal(r.status, 3, r.stdout + r.stderr);
    assert.match(r.stdout, /^  UNKNOWN 1\. Bank issues an Iou to Alice/m);
    assert.match(r.stdout, /Look up command id "ledger-script-[0-9a-f]{8}-step-1" before running the script again; nothing was re-sent\./);
    assert.match(r.stdout, /^  not run 2\. /m);
  });

  it('Ctrl-C: exit 130, the steps that ran, and those not run because of the cancel', async () => {
    const interrupt = new AbortController();
    // The first read of contract events is step 4's: Ctrl-C as it is answered (step 4 itself may finish or be stopped).
    onExchange = (path) => path === '/v2/events/events-by-contract-id' && interrupt.abort();
    const r = await cli(['test', inDir('iou-lifecycle.ledger.json'), inDir('holding-transfer.ledger.json')], env, interrupt.signal);
    assert.equal(r.status, 130, r.stdout + r.stderr);
    for (const step of ['1. Bank issues an Iou to Alice', '2. Alice transfers it to Bob', '3. Bob splits it']) assert.match(r.stdout, new RegExp(`^  ok +${step.replace('.', '\\.')} `, 'm'));
    assert.match(r.stdout, /^  not run 5\. Charlie does not see Bob's Iou \(cancelled\)$/m);
    assert.doesNotMatch(r.stdout, /holding-transfer/, 'the next script is not started');
    assert.match(r.stdout, /^2 scripts: 0 passed, 1 did not, 1 not run;/m);
  });

  it('validate checks ledger scripts too: positions of a misspelt name and an unknown step kind, exit 1; a good one is ok', async () => {
    const bad = inDir('validate-bad.ledger.json');
    writeFileSync(bad, JSON.stringify({ parties: { Alice: {} }, steps: [{ sumbit: {} }, { updates: { party: '${Alise}' } }] }, null, 2));
    const r = await cli(['validate', bad, inDir('holding-transfer.ledger.json')], env);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /validate-bad\.ledger\.json:6:5: error: Step 1 does nothing: give it one of submit, preview, vet, uploadDar, activeContracts, contractEvents, updates \(did you mean submit\?\) \[unknown-step-kind\]/);
    assert.match(r.stdout, /validate-bad\.ledger\.json:11:18: error: \$\{Alise\} is not a party alias or an earlier capture: did you mean \$\{Alice\}\? \[unknown-name\]/);
    assert.match(r.stdout, /holding-transfer\.ledger\.json: ok/);
  });

  it('a token that an error body quotes reaches no output: not the terminal, not the log lines, not the JUnit file', async () => {
    // A gateway in front of the participant that quotes the request's Authorization header in every error it passes on.
    const guarded = await startCheckedParticipant({ port: 0, seed: 7, auth: { secret: 'a-shared-secret-of-this-test' } });
    const proxy = await startFaultProxy(guarded.url);
    try {
      proxy.add({ path: /./, fault: { kind: 'quote-authorization' }, times: 1000 });
      const token = await guarded.mintToken('demo-admin');
      const refused = inDir('refused-as-other.ledger.json');
      writeFileSync(refused, readFileSync(join(EXAMPLES, 'wrong-party-transfer.ledger.json'), 'utf8').replace('"code": "DAML_AUTHORIZATION_ERROR"', '"code": "CONTRACT_NOT_FOUND"'));
      const junit = inDir('quoted.xml');
      const r = await cli(['test', '--verbose', '--junit', junit, refused], { CANTON_LEDGER_URL: proxy.url, CANTON_LEDGER_TOKEN: token });
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.ok(proxy.fired['quote-authorization'] > 0, 'an error body quoted the header');
      const xml = readFileSync(junit, 'utf8');
      assert.match(xml, /the request had Authorization: Bearer \[REDACTED\]/, 'the failure is still reported, the token masked');
      for (const [name, text] of [['stdout', r.stdout], ['stderr', r.stderr], ['JUnit', xml]]) assert.ok(!text.includes(token), `${name} holds the token:\n${text}`);
    } finally {
      await proxy.close();
      await guarded.close();
    }
  });

  describe('hostile scripts', () => {
    const wrongParty = () => JSON.parse(readFileSync(join(EXAMPLES, 'wrong-party-transfer.ledger.json'), 'utf8')) as { steps: Array<Record<string, unknown>> };

    it('a message pattern that backtracks without end fails its step in bounded time, and the run goes on to report', async () => {
      const script = wrongParty();
      // Minutes on the event loop for the ~300 characters of the authorization error.
      script.steps[1].expect = { failed: { code: 'DAML_AUTHORIZATION_ERROR', message: '^(.*.*.*.*)*X$' } };
      const file = inDir('runaway.ledger.json');
      writeFileSync(file, JSON.stringify(script, null, 2));
      const r = await cli(['test', file], env);
      assert.equal(r.status, 1, r.stdout + r.stderr);
      assert.match(r.stdout, /^  FAIL +2\. Bob tries to transfer it to himself/m);
      assert.match(r.stdout, /runaway\.ledger\.json:\d+:\d+: Failed with DAML_AUTHORIZATION_ERROR; matching the message against \/\^\(\.\*\.\*\.\*\.\*\)\*X\$\/ took longer than 1 s and was stopped/);
    });

    it('a step file or DAR that is a device or a FIFO is refused, not read; so is a script that is one', async () => {
      execFileSync('mkfifo', [inDir('pipe.commands.json')]);
      const large = inDir('large.commands.json');
      writeFileSync(large, '');
      truncateSync(large, 33 * 1024 * 1024);
      const steps = [{ uploadDar: '/dev/zero' }, { submit: { file: 'pipe.commands.json' } }, { submit: { file: 'large.commands.json' } }];
      const results: string[] = [];
      for (const [i, step] of steps.entries()) {
        const file = inDir(`device-${i}.ledger.json`);
        writeFileSync(file, JSON.stringify({ parties: { Bank: {} }, steps: [{ name: 'reads a file', ...step }] }, null, 2));
        const r = await cli(['test', file], env);
        assert.equal(r.status, 1, r.stdout + r.stderr);
        results.push(/^ {10}\S+: (Cannot read .*)$/m.exec(r.stdout)?.[1] ?? r.stdout);
      }
      assert.deepEqual(results, [
        'Cannot read /dev/zero: not a regular file (a FIFO, a device or a directory).',
        'Cannot read pipe.commands.json: not a regular file (a FIFO, a device or a directory).',
        `Cannot read large.commands.json: ${large} is larger than 32 MiB: not read.`,
      ]);
      symlinkSync('/dev/zero', inDir('zero.ledger.json'));
      const r = await cli(['test', inDir('zero.ledger.json')], env);
      assert.equal(r.status, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /^error: cannot read \S+zero\.ledger\.json is not a regular file \(a FIFO, a device or a directory\): not read$/m);
    });

    it("a step's name with escape sequences and a carriage return reaches the terminal as visible text, not as control characters", async () => {
      const script = wrongParty();
      script.steps[0].name = 'Clear\u001b[2J\u001b]0;title\u0007 then\roverwrite';
      const file = inDir('escapes.ledger.json');
      writeFileSync(file, JSON.stringify(script, null, 2));
      const r = await cli(['test', file], env);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/);
      assert.match(r.stdout, /^  ok +1\. Clear\\x1b\[2J\\x1b\]0;title\\x07 then\\x0doverwrite /m);
    });

    // The CLI as a process, sent a real SIGINT when a request of the run hangs at the participant: before the first step, and in a step.
    for (const [where, path, firstStep] of [
      ['while connecting', '/v2/version', /^  not run 1\. Bank issues an Iou to Alice, observed by Bob \(cancelled\)$/m],
      // The submit was sent: its outcome is unknown, and said so, with what to look up.
      ['in a step', '/v2/commands/submit-and-wait-for-transaction', /^  UNKNOWN 1\. Bank issues an Iou to Alice, observed by Bob \d+ ms\n.*Look up command id "ledger-script-[0-9a-f]{8}-step-1"/m],
    ] as const) {
      it(`Ctrl-C ${where} stops the run: exit 130 and a report of every step`, async () => {
        const proxy = await startFaultProxy(participant.url, { maxHangMs: 60_000 });
        try {
          proxy.add({ path, fault: { kind: 'hang' }, times: 10 });
          const file = inDir('wrong-party-transfer.ledger.json');
          const child = spawn(process.execPath, ['-r', 'tsx/cjs', join(REPO_ROOT, 'src/cli/main.ts'), 'test', file], { cwd: REPO_ROOT, env: { PATH: process.env.PATH, CANTON_LEDGER_URL: proxy.url }, stdio: ['ignore', 'pipe', 'pipe'] });
          let stdout = '';
          child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
          child.stderr.on('data', (c: Buffer) => (stdout += c.toString()));
          const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
          // Wait until the request hangs (a state of the proxy), then Ctrl-C.
          while (proxy.fired.hang === undefined) {
            if (child.exitCode !== null) assert.fail(`the CLI exited early (${child.exitCode}): ${stdout}`);
            await new Promise((r) => setTimeout(r, 20));
          }
          child.kill('SIGINT');
          assert.equal(await exited, 130, stdout);
          assert.match(stdout, /wrong-party-transfer\.ledger\.json \(run [0-9a-f]{8}\)/);
          assert.match(stdout, /^  not run 2\. Bob tries to transfer it to himself \(cancelled\)$/m);
          assert.match(stdout, /^  not run 3\. The Iou is still Alice's \(cancelled\)$/m);
          assert.match(stdout, /^1 script: 0 passed, 1 did not;/m);
          assert.match(stdout, firstStep);
        } finally {
          await proxy.close();
        }
      });
    }
  });

  it('a file that is not a ledger script is a usage error', async () => {
    const r = await cli(['test', inDir('x.commands.json')], env);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /a ledger script's name ends in \.ledger\.json/);
  });
});
