import assert from 'node:assert/strict';
import { describeMissingVetting, missingVetting } from '../../../src/core/network/explain';
import { networksOf, sameNetwork, vettedByParty, vettingDrift, vettingMatrix, type NetworkSnapshot } from '../../../src/core/network/model';
import type { VettedPackage, VettedPackagesState } from '../../../src/core/models/vetting';

const P = 'app-provider::1220aa';
const U = 'app-user::1220bb';
const S = 'sv::1220cc';
const ALICE = 'Alice::1220aa';
const BOB = 'Bob::1220bb';
const pkg = (packageName: string, packageVersion: string, extra: Partial<VettedPackage> = {}): VettedPackage => ({ packageId: `${packageName}@${packageVersion}`, packageName, packageVersion, ...extra });
const state = (participantId: string, ...packages: VettedPackage[]): VettedPackagesState[] => [{ participantId, synchronizerId: 'global::1220', topologySerial: 1, packages }];

function snapshot(vetting: Record<string, VettedPackage[]>, hosting: Record<string, string[]>, complete = true): NetworkSnapshot {
  return {
    hosts: [P, U, S].map((participantId) => ({ participantId, label: participantId.split('::')[0] })),
    vetting: new Map(Object.entries(vetting).map(([id, packages]) => [id, state(id, ...packages)])),
    hosting: new Map(Object.entries(hosting).map(([party, hosts]) => [party, { hosts: hosts.map((participantId) => ({ participantId, permission: 'submission' as const, synchronizerId: 'global::1220' })), complete }])),
    problems: [],
    readAt: '2026-01-01T00:00:00Z',
  };
}

describe('network: the model', () => {
  const drifting = snapshot(
    { [P]: [pkg('iou', '1.0.0'), pkg('asset', '1.0.0')], [U]: [pkg('iou', '1.0.0'), pkg('iou', '2.0.0'), pkg('asset', '1.0.0')], [S]: [pkg('iou', '1.0.0')] },
    { [ALICE]: [U, P], [BOB]: [U] },
  );

  it('a party has vetted what every one of its hosts has', () => {
    assert.deepEqual(vettedByParty(drifting, ALICE)?.map((p) => p.packageId).sort(), ['asset@1.0.0', 'iou@1.0.0']);
    assert.deepEqual(vettedByParty(drifting, BOB)?.map((p) => p.packageId).sort(), ['asset@1.0.0', 'iou@1.0.0', 'iou@2.0.0']);
  });

  it('cannot say what a party has vetted when its hosting was not read completely', () => {
    assert.equal(vettedByParty(snapshot({ [U]: [pkg('iou', '1.0.0')] }, { [ALICE]: [U] }, false), ALICE), undefined);
  });

  it('leaves out a vetting whose validity window does not hold when read', () => {
    const s = snapshot({ [U]: [pkg('iou', '1.0.0', { validUntilExclusive: '2025-12-31T00:00:00Z' }), pkg('iou', '2.0.0', { validFromInclusive: '2025-01-01T00:00:00Z' })] }, { [BOB]: [U] });
    assert.deepEqual(vettedByParty(s, BOB)?.map((p) => p.packageVersion), ['2.0.0']);
  });

  it('finds drift: a package name whose versions differ between the hosts of one party (not between unrelated participants)', () => {
    assert.deepEqual(vettingDrift(drifting), [
      {
        party: ALICE,
        packageName: 'iou',
        hosts: [
          { participantId: U, label: 'app-user', versions: ['2.0.0', '1.0.0'] },
          { participantId: P, label: 'app-provider', versions: ['1.0.0'] },
        ],
        common: ['1.0.0'],
      },
    ]);
  });

  it('draws the vetting matrix: package name × version × participant, drift marked', () => {
    const m = vettingMatrix(drifting);
    assert.deepEqual(m.participants.map((p) => [p.label, p.read]), [['app-provider', true], ['app-user', true], ['sv', true]]);
    assert.deepEqual(
      m.rows.map((r) => [r.packageName, r.drift, r.versions.map((v) => [v.packageVersion, v.vettedOn.map((id) => id.split('::')[0])])]),
      [
        ['asset', false, [['1.0.0', ['app-provider', 'app-user']]]],
        ['iou', true, [['2.0.0', ['app-user']], ['1.0.0', ['app-provider', 'app-user', 'sv']]]],
      ],
    );
  });

  it('names the host that lacks a package, and what the other hosts have', () => {
    const s = snapshot({ [P]: [pkg('iou', '1.0.0')], [U]: [pkg('asset', '1.0.0')] }, { [ALICE]: [U, P] });
    const missing = missingVetting(s, 'asset', [ALICE]);
    assert.deepEqual(missing, [
      { kind: 'host-lacks-package', party: ALICE, host: { participantId: P, label: 'app-provider' }, permission: 'submission', packageName: 'asset', elsewhere: [{ host: { participantId: U, label: 'app-user' }, versions: ['1.0.0'] }] },
    ]);
    assert.equal(describeMissingVetting(missing[0]), `Alice (${ALICE}) is hosted on app-provider (submission), which has not vetted any version of asset (app-user has version 1.0.0): vet it on app-provider.`);
  });

  it('tells hosts that disagree, parties that disagree, and a party hosted nowhere apart', () => {
    const s = snapshot({ [P]: [pkg('iou', '1.0.0')], [U]: [pkg('iou', '2.0.0')], [S]: [pkg('iou', '1.0.0')] }, { [ALICE]: [U, P], [BOB]: [U], Carol: [S], Nobody: [] });
    assert.deepEqual(missingVetting(s, 'iou', [ALICE]).map((m) => m.kind), ['hosts-disagree']);
    assert.deepEqual(missingVetting(s, 'iou', [BOB, 'Carol']).map((m) => m.kind), ['parties-disagree']);
    assert.deepEqual(missingVetting(s, 'iou', ['Nobody']), [{ kind: 'party-hosted-nowhere', party: 'Nobody' }]);
    assert.deepEqual(missingVetting(s, 'iou', [BOB]), [], 'nothing in the way');
  });
});

describe('sameNetwork: the connections that are one network with a target', () => {
  const syncs: Record<string, string[]> = { target: ['sync-a', 'sync-b'], peer: ['sync-b'], stranger: ['sync-c'], unknown: [] };
  const of = (name: string) => syncs[name];

  it('keeps the ones on a synchronizer the target is on, leaves out one of another network', () => {
    assert.deepEqual(sameNetwork('target', ['peer', 'stranger', 'unknown'], of), ['peer']);
  });

  it('keeps every one when the target’s synchronizers are not known', () => {
    assert.deepEqual(sameNetwork('unknown', ['peer', 'stranger'], of), ['peer', 'stranger']);
  });
});

describe('networksOf: the networks a set of participants forms', () => {
  const syncs: Record<string, string[]> = { a1: ['sync-a'], a2: ['sync-a'], b1: ['sync-b'], bridge: ['sync-b', 'sync-c'], c1: ['sync-c'], unknown: [], unknown2: [] };
  const of = (name: string) => syncs[name];
  const shape = (names: string[]) => networksOf(names, of).map((g) => [g.synchronizers.join('+'), g.members.join(',')]);

  it('one network per synchronizer, in the order of their first member, members in their order', () => {
    assert.deepEqual(shape(['a1', 'b1', 'a2']), [['sync-a', 'a1,a2'], ['sync-b', 'b1']]);
  });

  it('a participant on two synchronizers joins their networks into one', () => {
    assert.deepEqual(shape(['b1', 'a1', 'c1', 'bridge']), [['sync-b+sync-c', 'b1,c1,bridge'], ['sync-a', 'a1']]);
  });

  it('a participant whose synchronizers are not known is a network of its own, each', () => {
    assert.deepEqual(shape(['a1', 'unknown', 'a2', 'unknown2']), [['sync-a', 'a1,a2'], ['', 'unknown'], ['', 'unknown2']]);
  });

  it('sameNetwork is the target’s network of networksOf', () => {
    assert.deepEqual(sameNetwork('b1', ['a1', 'c1', 'bridge'], of), ['c1', 'bridge']);
  });
});
