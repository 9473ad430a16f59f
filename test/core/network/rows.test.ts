import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { readNetwork } from '../../../src/core/network/read';
import { networkHeading, networkRows } from '../../../src/core/network/rows';
import type { LedgerRow } from '../../../src/core/rows';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { setVetting, startCheckedNetwork } from '../../support/demoNetwork';

/** A row and its children, as the tree draws them: "label — description". */
const drawn = (row: LedgerRow): string => `${row.label} — ${row.description}`;
const childrenOf = (rows: LedgerRow[], key: string) => rows.find((r) => r.key === key)!.children!();

describe('network: the Network view’s rows', () => {
  let net: DemoNetwork;
  afterEach(() => net.close());

  it('lists each participant with the parties it hosts and their permission, and marks the drift of a party on two hosts', async () => {
    net = await startCheckedNetwork({ seed: false });
    setVetting(net, 'app-user', 'demo-iou', true, '2.0.0');
    const snapshot = await readNetwork(
      net.participants.map((p) => ({ label: p.name, client: new LedgerClient({ baseUrl: p.url }) })),
      { parties: 'hosted' },
    );
    const rows = networkRows(snapshot);
    assert.deepEqual(rows.map((r) => r.label), ['Participants', 'Vetting']);

    const participants = childrenOf(rows, 'participants');
    assert.deepEqual(participants.map((r) => r.label), ['app-provider', 'app-user', 'sv']);
    const partiesOn = (name: string) => participants.find((r) => r.label === name)!.children!().map(drawn).sort();
    assert.deepEqual(partiesOn('app-provider'), ['Alice — confirmation · also on app-user', 'Bank — submission']);
    assert.deepEqual(partiesOn('app-user'), ['Alice — submission · also on app-provider', 'Bob — submission']);
    assert.deepEqual(partiesOn('sv'), ['Charlie — submission']);
    assert.match(participants[0].description!, /^Canton 3\.\d+\S* · 2 parties$/);

    const vetting = childrenOf(rows, 'vetting');
    assert.match(rows[1].description!, / · 1 drifting$/);
    const iou = vetting.find((r) => r.label === 'demo-iou')!;
    assert.equal(iou.icon, 'warning');
    assert.equal(iou.description, 'drift for Alice');
    assert.match(iou.tooltip!, /Alice .*app-provider has 1\.0\.0; app-user has 2\.0\.0, 1\.0\.0 — in common: 1\.0\.0/);
    assert.deepEqual(iou.children!().map(drawn), ['2.0.0 — app-user · not on app-provider, sv', '1.0.0 — app-provider, app-user, sv']);
    const asset = vetting.find((r) => r.label === 'demo-asset')!;
    assert.equal(asset.icon, 'package', 'vetted alike everywhere: no drift');
    assert.ok(asset.children!().every((v) => v.icon === 'pass'));
  });

  it('once the other host of the party has vetted the version too, the drift is gone', async () => {
    net = await startCheckedNetwork({ seed: false });
    setVetting(net, 'app-user', 'demo-iou', true, '2.0.0');
    setVetting(net, 'app-provider', 'demo-iou', true, '2.0.0');
    const snapshot = await readNetwork(net.participants.map((p) => ({ label: p.name, client: new LedgerClient({ baseUrl: p.url }) })), { parties: 'hosted' });
    const iou = childrenOf(networkRows(snapshot), 'vetting').find((r) => r.label === 'demo-iou')!;
    assert.equal(iou.icon, 'package');
    assert.deepEqual(iou.children!().map(drawn), ['2.0.0 — app-provider, app-user · not on sv', '1.0.0 — app-provider, app-user, sv']);
  });
});

describe('network rows: the heading of each network', () => {
  const GLOBAL = `global-domain::1220${'ab'.repeat(32)}`;
  const SECOND = `other-sync::1220${'cd'.repeat(32)}`;

  it('names a network by the alias its participants gave each synchronizer, else the name part of its id, with its participants', () => {
    const one = networkHeading([{ id: GLOBAL, alias: 'global' }], ['app-provider', 'app-user', 'sv']);
    assert.deepEqual([one.label, one.description], ['global', '3 participants · global-domain::1220abab…']);
    assert.match(one.tooltip, new RegExp(`\`${GLOBAL}\``));
    const two = networkHeading([{ id: GLOBAL, alias: 'global' }, { id: SECOND }], ['bridge']);
    assert.deepEqual([two.label, two.description], ['global + other-sync', '1 participant · global-domain::1220abab…, other-sync::1220cdcd…']);
  });

  it('says when a participant’s synchronizers are not known: read as a network of its own', () => {
    const h = networkHeading([], ['Demo as alice']);
    assert.deepEqual([h.label, h.description], ['Synchronizer not known', 'Demo as alice']);
    assert.match(h.tooltip, /read as a network of its own/);
  });
});
