// `updates --compare-parties` across participants of the demo network (--url repeated, each with its
// own token from the environment): each party read on its own participant, named party@participant or
// found on the first participant given that hosts it; the comparison as the editor's Compare Parties
// across participants makes it (compareSides: whole ledgers, transactions matched by update id).
import assert from 'node:assert/strict';
import { LedgerClient } from '../../src/core/api/client';
import { compareSides, comparisonJson } from '../../src/core/updates/compare';
import type { DemoNetwork } from '../../src/participant/network/index';
import { startCheckedNetwork } from '../support/demoNetwork';
import { cli } from './harness';

const SECRETS = { 'app-provider': { secret: 'a-secret-0123456789abcdefghijklmn' }, 'app-user': { secret: 'u-secret-0123456789abcdefghijklmn' }, sv: { secret: 's-secret-0123456789abcdefghijklmn' } };

describe('cli: updates --compare-parties across participants of the demo network', function () {
  this.timeout(30_000);
  let net: DemoNetwork;
  let provider: string;
  let user: string;
  /** Each --url's admin token, as CANTON_LEDGER_TOKEN_n. */
  let env: Record<string, string>;
  before(async () => {
    net = await startCheckedNetwork({ auth: SECRETS });
    provider = net.participant('app-provider').url;
    user = net.participant('app-user').url;
    env = { CANTON_LEDGER_TOKEN_1: await net.participant('app-provider').mintToken('demo-admin'), CANTON_LEDGER_TOKEN_2: await net.participant('app-user').mintToken('demo-admin') };
  });
  after(() => net.close());

  it('reads Bank on app-provider and Bob on app-user (each found where it is hosted), as the editor compares them', async () => {
    const r = await cli(['--json', 'updates', '--compare-parties', 'Bank,Bob', '--url', provider, '--url', user], env);
    assert.equal(r.status, 0, r.stderr);
    const c = JSON.parse(r.stdout);
    assert.deepEqual(c.parties, [net.parties.bank, net.parties.bob]);
    const client = (url: string, token: string) => new LedgerClient({ baseUrl: url, token: async () => token });
    const expected = await compareSides([
      { party: net.parties.bank, client: client(provider, env.CANTON_LEDGER_TOKEN_1), label: 'p' },
      { party: net.parties.bob, client: client(user, env.CANTON_LEDGER_TOKEN_2), label: 'u' },
    ]);
    const { text, ...counts } = c.summary;
    const { text: _label, ...expectedCounts } = (comparisonJson(expected) as { summary: Record<string, unknown> }).summary;
    assert.deepEqual(counts, JSON.parse(JSON.stringify(expectedCounts)));
    assert.match(text, /^Bank on \S+ sees [1-9]\d* of \d+ transactions; Bob on \S+ sees [1-9]\d*; [1-9]\d* seen by both$/, 'the transfer to Bob reaches both hosts');
    assert.deepEqual(c.updates.map((u: { updateId: string }) => u.updateId), expected.updates.map((u) => u.updateId));
  });

  it('names each side party@participant (participant name or URL), and says where each is read', async () => {
    const r = await cli(['updates', '--compare-parties', `Alice@app-user,Bank@${provider}`, '--url', provider, '--url', user], env);
    assert.equal(r.status, 0, r.stderr);
    const [summary, alice, bank, how] = r.stdout.split('\n');
    const [p, u] = [new URL(provider).host, new URL(user).host];
    assert.match(summary, new RegExp(`^Alice on ${u} sees \\d+ of \\d+ transactions; Bank on ${p} sees \\d+; \\d+ seen by both$`));
    assert.equal(alice.replace(/ +/g, ' '), ` Alice ${net.parties.alice} on ${u}`);
    assert.equal(bank.replace(/ +/g, ' '), ` Bank ${net.parties.bank} on ${p}`);
    assert.match(how, /^Each participant's whole ledger, read once per party, ledger-effects shape; transactions matched by update id/);
  });

  it('takes the n-th --url’s token from CANTON_LEDGER_TOKEN_n: without app-user’s, app-user refuses', async () => {
    const r = await cli(['updates', '--compare-parties', 'Bank,Bob@app-user', '--url', provider, '--url', user], { CANTON_LEDGER_TOKEN_1: env.CANTON_LEDGER_TOKEN_1 });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /401|unauthenticated|UNAUTHENTICATED/i);
  });

  it('refuses what cannot be placed or compared across participants: exit 1 with the reason, 2 for a --url repeated without --compare-parties', async () => {
    const nowhere = await cli(['updates', '--compare-parties', 'Bank,Bob@nowhere', '--url', provider, '--url', user], env);
    assert.equal(nowhere.status, 1);
    assert.match(nowhere.stderr, /No participant given is nowhere: they are .*\(app-provider\), .*\(app-user\)/);
    const charlie = await cli(['updates', '--compare-parties', 'Bank,Charlie', '--url', provider, '--url', user], env);
    assert.equal(charlie.status, 1);
    assert.match(charlie.stderr, /No participant given hosts a party called Charlie/);
    const range = await cli(['updates', '--compare-parties', 'Bank,Bob', '--begin', '2', '--url', provider, '--url', user], env);
    assert.equal(range.status, 1);
    assert.match(range.stderr, /An offset range belongs to one participant/);
    const twice = await cli(['updates', '--url', provider, '--url', user], env);
    assert.equal(twice.status, 2);
    assert.match(twice.stderr, /only --compare-parties reads several participants/);
  });

  it('one --url is the run’s participant, as before: a single read on it', async () => {
    const r = await cli(['updates', '--url', provider, '--limit', '1'], { CANTON_LEDGER_TOKEN: env.CANTON_LEDGER_TOKEN_1 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\d+ +transaction /m);
  });
});
