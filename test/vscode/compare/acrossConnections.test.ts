// Compare Parties with several connections connected: the picker offers every connection's parties,
// each labelled by its connection, and each picked party is read on its own connection (no offset range
// is asked: offsets are each participant's). With one connection, the flow stays the single one.
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { registerComparePartiesView } from '../../../src/vscode/compare/compareView';
import { CommandRegistry } from '../../../src/vscode/kit/registry';
import { startCheckedNetwork } from '../../support/demoNetwork';
import { networkWindow, type NetworkWindow } from '../preflight/networkWindow';
import { commands, fake } from '../fake/vscode';

interface PartyItem {
  label: string;
  description?: string;
  choice: { party: string; connection: { profile: { name: string } } };
}

/** Answers the next multi-pick with the items `choose` accepts, and keeps what was offered. */
function answerPickMany(choose: (item: PartyItem) => boolean): { offered: PartyItem[] } {
  const seen = { offered: [] as PartyItem[] };
  fake.state.quickPickAnswers.push(({ items }) => {
    seen.offered = items as PartyItem[];
    return seen.offered.filter(choose);
  });
  return seen;
}

describe('Compare Parties across connections', function () {
  this.timeout(30_000);
  let net: DemoNetwork;
  let window: NetworkWindow | undefined;
  before(async () => {
    net = await startCheckedNetwork();
  });
  after(() => net.close());
  afterEach(() => window?.dispose());

  function feature(w: NetworkWindow) {
    const registry = new CommandRegistry(commands, w.deps.errors, w.deps.targets);
    const { feature: f, view } = registerComparePartiesView(registry, w.manager, silentLogger, new Redactor(), w.deps.errors, w.deps.prompts());
    return { f, view, dispose: () => (view.dispose(), registry.dispose()) };
  }

  it('offers every connected connection’s parties by connection, and reads each picked party on its own', async () => {
    window = await networkWindow(net, ['app-user', 'app-provider']);
    const { f, view, dispose } = feature(window);
    try {
      const pick = answerPickMany((i) => (i.label === 'Bob' && i.choice.connection.profile.name === 'app-user') || (i.label === 'Bank' && i.choice.connection.profile.name === 'app-provider'));
      const c = await f.compare();
      const offered = pick.offered.map((i) => `${i.label} ${i.description?.split(' · ')[0]}`);
      // Alice is hosted on both: offered on each.
      for (const label of ['Alice on app-user', 'Bob on app-user', 'Alice on app-provider', 'Bank on app-provider']) assert.ok(offered.includes(label), `offered: ${offered.join(', ')}`);
      assert.ok(c, 'compared');
      assert.deepEqual(c.parties, [net.parties.bob, net.parties.bank]);
      assert.deepEqual(c.sides, ['app-user', 'app-provider']);
      assert.ok(c.summary.seenBy.every((n) => n > 0) && c.summary.seenByAll >= 1, JSON.stringify(c.summary));
      // No offset range was asked: the only question was the parties.
      assert.equal(fake.state.quickPickAnswers.length, 0);
      assert.equal(view.state.state, 'ready');
      assert.match(view.treeView.description ?? '', /^Bob on app-user vs Bank on app-provider · app-user \+ app-provider$/);
      assert.ok(fake.state.progressTitles.includes('Compare Parties on app-user + app-provider'), fake.state.progressTitles.join(' | '));
      // Run again: on the same two connections.
      const again = await view.rerun();
      assert.deepEqual(again?.sides, ['app-user', 'app-provider']);
    } finally {
      dispose();
    }
  });

  it('with one connection connected, the single flow: parties without connection labels, then the offset range', async () => {
    window = await networkWindow(net, ['app-user']);
    const { f, dispose } = feature(window);
    try {
      const pick = answerPickMany((i) => i.label === 'Alice' || i.label === 'Bob');
      fake.answerQuickPick((i: { label: string }) => i.label === 'Whole ledger');
      const c = await f.compare();
      assert.ok(pick.offered.every((i) => !i.description?.startsWith('on ')), JSON.stringify(pick.offered.map((i) => i.description)));
      assert.ok(c);
      assert.equal(c.sides, undefined);
      assert.deepEqual(c.parties, [net.parties.alice, net.parties.bob]);
      assert.equal(fake.state.quickPickAnswers.length, 0, 'the range was asked');
    } finally {
      dispose();
    }
  });

  it('given parties and their connections, compares them without a question; a connection not connected is said', async () => {
    window = await networkWindow(net, ['app-user', 'app-provider']);
    const { f, dispose } = feature(window);
    try {
      const c = await f.compare({ parties: [net.parties.bob, net.parties.bank], connectionIds: ['app-user', 'app-provider'] });
      assert.deepEqual(c?.sides, ['app-user', 'app-provider']);
      fake.answerMessage(undefined);
      assert.equal(await f.compare({ parties: [net.parties.bob, net.parties.charlie], connectionIds: ['app-user', 'sv'] }), undefined);
      assert.ok(fake.state.messages.some((m) => m.text === 'Compare Parties: a connection to read from is not connected.'));
    } finally {
      dispose();
    }
  });
});
