import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli/main';
import type { DemoNetwork } from '../../src/participant/network/index';
import { deadUrl } from '../support/deadPort';
import { setVetting, startCheckedNetwork } from '../support/demoNetwork';
import { Capture, cli, writeJson } from './harness';

describe('cli: preflight', () => {
  let net: DemoNetwork;
  let dir: string;
  let file: string;
  let urls: string[];
  const args = (...rest: string[]) => ['preflight', ...urls.flatMap((u) => ['--url', u]), ...rest];

  beforeEach(async () => {
    net = await startCheckedNetwork({ seed: false });
    setVetting(net, 'app-provider', 'demo-asset', false);
    dir = mkdtempSync(join(tmpdir(), 'preflight-'));
    const { alice } = net.parties;
    file = writeJson(dir, 'car.commands.json', {
      commandId: 'car-1',
      actAs: [alice],
      commands: [{ CreateCommand: { templateId: '#demo-asset:Asset:Asset', createArguments: { owner: alice, id: 'car-1', description: 'Blue' } } }],
    });
    urls = ['app-user', 'app-provider', 'sv'].map((n) => net.participant(n).url);
  });
  afterEach(async () => {
    await net.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 1 and names the host and the party at the templateId when a command will fail; 0 once the host has vetted', async () => {
    const failing = await cli(args(file));
    assert.equal(failing.status, 1, failing.stderr);
    assert.match(failing.stdout, new RegExp(`^${escape(file)}:9:23: error: This command will fail: no version of demo-asset is vetted by every participant hosting Alice\\..*hosted on app-provider \\(127\\.0\\.0\\.1:\\d+\\) \\(confirmation\\), which has not vetted any version of demo-asset.*\\[preflight-no-version\\]$`, 'm'));
    assert.match(failing.stdout, new RegExp(`^${escape(file)}: demo-asset: no version for Alice: the commands using it will fail$`, 'm'));
    assert.match(failing.stdout, /^ {2}Canton: Could not compute valid package preferences/m);

    setVetting(net, 'app-provider', 'demo-asset', true);
    const passing = await cli(args(file));
    assert.equal(passing.status, 0, passing.stdout + passing.stderr);
    assert.match(passing.stdout, new RegExp(`^${escape(file)}: demo-asset 1\\.0\\.0 \\([0-9a-f]{64}\\) for Alice$`, 'm'));
    assert.doesNotMatch(passing.stdout, /error|warning/);
  });

  it('--json: one line per file with its verdicts and problems', async () => {
    const r = await cli(args('--json', file));
    assert.equal(r.status, 1);
    const line = JSON.parse(r.stdout.trim());
    assert.equal(line.file, file);
    assert.equal(line.passes, false);
    assert.deepEqual(line.packages.map((v: { packageName: string; verdict: string }) => [v.packageName, v.verdict]), [['demo-asset', 'fails']]);
    assert.equal(line.problems[0].code, 'preflight-no-version');
  });

  it('exits 1 when a participant given does not answer, 2 for a file it cannot read or that is no commands file', async () => {
    setVetting(net, 'app-provider', 'demo-asset', true);
    urls = [urls[0], await deadUrl()];
    const dead = await cli(args(file));
    assert.equal(dead.status, 1);
    assert.match(dead.stdout, /warning: Not checked against 127\.0\.0\.1:\d+: 127\.0\.0\.1:\d+ did not answer/);

    urls = [net.participant('app-user').url];
    const missing = await cli(args(join(dir, 'nothing.commands.json')));
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /no such file/);
    const wrongKind = await cli(args(writeJson(dir, 'x.vetting.json', {})));
    assert.equal(wrongKind.status, 2);
    assert.match(wrongKind.stderr, /preflight takes a \.commands\.json file/);
  });

  it('takes the token of the n-th --url from CANTON_LEDGER_TOKEN_n, else CANTON_LEDGER_TOKEN', async () => {
    await net.close();
    net = await startCheckedNetwork({ seed: false, auth: { 'app-provider': { secret: 'a-secret-0123456789abcdefghijklmn' }, 'app-user': { secret: 'u-secret-0123456789abcdefghijklmn' }, sv: { secret: 's-secret-0123456789abcdefghijklmn' } } });
    urls = ['app-user', 'app-provider'].map((n) => net.participant(n).url);
    const { alice } = net.parties;
    file = writeJson(dir, 'car.commands.json', { commandId: 'car-1', actAs: [alice], commands: [{ CreateCommand: { templateId: '#demo-asset:Asset:Asset', createArguments: { owner: alice, id: 'car-1', description: 'Blue' } } }] });
    const userToken = await net.participant('app-user').mintToken('demo-admin');
    const providerToken = await net.participant('app-provider').mintToken('demo-admin');
    const both = await cli(args(file), { CANTON_LEDGER_TOKEN: userToken, CANTON_LEDGER_TOKEN_2: providerToken });
    assert.equal(both.status, 0, both.stdout + both.stderr);
    assert.doesNotMatch(both.stdout + both.stderr, new RegExp(escape(userToken)));
    const oneToken = await cli(args(file), { CANTON_LEDGER_TOKEN: userToken });
    assert.equal(oneToken.status, 1, 'app-provider refuses app-user’s token: not checked against it');
    assert.match(oneToken.stdout, /Not checked against 127\.0\.0\.1:\d+/);
  });
});

describe('cli: participant --network', () => {
  it('starts one participant per name on consecutive ports, prints each one’s URL, and stops on Ctrl-C', async () => {
    const stdout = new Capture();
    const stderr = new Capture();
    const interrupt = new AbortController();
    const exited = run(['participant', '--network', 'app-provider,app-user,sv', '--port', '0'], {}, { stdout, stderr, signal: interrupt.signal });
    let status: number | undefined;
    void exited.then((s) => (status = s));
    while (!stdout.text.includes('Press Ctrl-C to stop.')) {
      if (status !== undefined) assert.fail(`exited with ${status}: ${stderr.text}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const found = [...stdout.text.matchAll(/^(app-provider|app-user|sv)\n {2}URL: +(http:\/\/127\.0\.0\.1:\d+)$/gm)].map((m) => [m[1], m[2]]);
    assert.deepEqual(found.map(([name]) => name), ['app-provider', 'app-user', 'sv']);
    assert.match(stdout.text, /^app-user\n.*\n.*\n {2}parties: +Alice \(submission\), Bob \(submission\)$/m);
    assert.match(stdout.text, /^app-provider\n.*\n.*\n {2}parties: +Bank \(submission\), Alice \(confirmation\)$/m);
    const ledgerEnd = await cli(['--url', found[2][1], 'updates', '--limit', '1']);
    assert.equal(ledgerEnd.status, 0, ledgerEnd.stderr);
    interrupt.abort();
    assert.equal(await exited, 0);
  });

  it('refuses names it cannot use and options for a single participant', async () => {
    const bad = await cli(['participant', '--network', 'app user']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--network takes participant names/);
    const twice = await cli(['participant', '--network', 'sv,sv']);
    assert.equal(twice.status, 2);
    const state = await cli(['participant', '--network', 'a,b', '--state', 'x.json']);
    assert.equal(state.status, 2);
    assert.match(state.stderr, /--state is for a single participant/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
