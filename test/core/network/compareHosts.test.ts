import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { compareHostReads, compareHosts, hostsComparisonJson, readOnHosts, type HostRead } from '../../../src/core/network/compareHosts';
import type { NetworkMember } from '../../../src/core/network/model';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { startCheckedNetwork } from '../../support/demoNetwork';

describe('network: a party’s transactions on two of its hosts (Compare Participants)', () => {
  let net: DemoNetwork;
  let hosts: NetworkMember[];
  before(async () => {
    net = await startCheckedNetwork();
    // Alice is hosted on app-user (submission) and app-provider (confirmation).
    hosts = ['app-user', 'app-provider'].map((name) => ({ label: name, client: new LedgerClient({ baseUrl: net.participant(name).url }) }));
  });
  after(() => net.close());

  it('agree on the demo network: the same update ids on the same synchronizer and record time, the same projection, each host with its own offsets', async () => {
    const c = await compareHosts(net.parties.alice, hosts);
    assert.equal(c.consistent, true, JSON.stringify(hostsComparisonJson(c), null, 1));
    assert.ok(c.summary.agree >= 3, `Bank's Ious to Alice, her transfer and her asset: ${c.summary.agree}`);
    assert.deepEqual([c.summary.differ, c.summary.missing, c.summary.pending], [0, 0, 0]);
    assert.deepEqual(c.order, [{ synchronizerId: net.synchronizer.id, sameOrder: true }]);
    assert.deepEqual(c.hosts.map((h) => [h.label, h.transactions]), [['app-user', c.summary.agree], ['app-provider', c.summary.agree]]);
    assert.ok(c.updates.every((u) => u.offsets.every((o) => typeof o === 'number')));
    assert.match((hostsComparisonJson(c) as { verdict: string }).verdict, /^consistent: app-user and app-provider tell the same \d+ transactions$/);
  });

  it('lists what differs: a field of an event, a transaction one host lacks (missing, or pending at the end), a different order', async () => {
    const reads = await readOnHosts(net.parties.alice, hosts);
    const [user, provider] = reads;
    assert.ok(user.transactions.length >= 3);
    const tampered = (change: (r: HostRead) => HostRead) => compareHostReads(net.parties.alice, [user, change(structuredClone(provider))]);

    const createIndex = provider.transactions.findIndex((t) => t.events.some((e) => e.kind === 'created'));
    const differs = tampered((r) => {
      const e = r.transactions[createIndex].events.find((x) => x.kind === 'created')!;
      if (e.kind === 'created') e.createArgument = { ...(e.createArgument as object), amount: '1.5' };
      return r;
    });
    assert.equal(differs.consistent, false);
    const u = differs.updates.find((x) => x.verdict === 'differ')!;
    assert.equal(u.updateId, provider.transactions[createIndex].updateId);
    assert.deepEqual(u.events.map((e) => [e.kind, e.differences.map((d) => d.field)]), [['created', ['createArgument']]]);

    const missing = tampered((r) => ({ ...r, transactions: r.transactions.filter((_, i) => i !== 0) }));
    assert.deepEqual([missing.summary.missing, missing.summary.pending, missing.consistent], [1, 0, false]);
    assert.equal(missing.updates.find((x) => x.verdict === 'missing')!.offsets[1], undefined);

    const pending = tampered((r) => ({ ...r, transactions: r.transactions.slice(0, -1) }));
    assert.deepEqual([pending.summary.missing, pending.summary.pending, pending.consistent], [0, 1, true], 'the last one may just not have arrived yet');

    const swapped = tampered((r) => {
      const [a, b] = [r.transactions[0].offset, r.transactions[1].offset];
      r.transactions[0].offset = b;
      r.transactions[1].offset = a;
      return r;
    });
    assert.deepEqual(swapped.order.map((o) => o.sameOrder), [false]);
    assert.equal(swapped.consistent, false);
    assert.match((hostsComparisonJson(swapped) as { verdict: string }).verdict, /^INCONSISTENT: a different order$/);
  });

  it('refuses a comparison with fewer than two hosts or no party, by field', async () => {
    await assert.rejects(compareHosts(net.parties.alice, hosts.slice(0, 1)), (e: Error & { field?: string }) => /two or more participants/.test(e.message));
    await assert.rejects(compareHosts(' ', hosts), /Name the party/);
  });
});
