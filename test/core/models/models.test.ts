import assert from 'node:assert/strict';
import { describePackage, diffVettedPackages, isEmptyDiff, VettedPackagesState } from '../../../src/core/models/vetting';
import { decodeRights, readableParties } from '../../../src/core/models/users';
import { ALICE, BOB } from '../../support/wireSamples';

describe('vetting diff', () => {
  const state = (serial: number, packages: VettedPackagesState['packages']): VettedPackagesState => ({ participantId: 'p', synchronizerId: 's', topologySerial: serial, packages });
  it('finds added, removed and validity-changed packages', () => {
    const past = state(3, [{ packageId: 'a' }, { packageId: 'b', validUntilExclusive: '2030-01-01T00:00:00Z' }, { packageId: 'c' }]);
    const next = state(4, [{ packageId: 'a' }, { packageId: 'b' }, { packageId: 'd', packageName: 'demo', packageVersion: '2.0.0' }]);
    const d = diffVettedPackages(past, next);
    assert.deepEqual(d.added.map((p) => p.packageId), ['d']);
    assert.deepEqual(d.removed.map((p) => p.packageId), ['c']);
    assert.deepEqual(d.validityChanged.map((c) => [c.before.validUntilExclusive, c.after.validUntilExclusive]), [['2030-01-01T00:00:00Z', undefined]]);
    assert.deepEqual(d.unchanged.map((p) => p.packageId), ['a']);
    assert.equal(isEmptyDiff(d), false);
    assert.equal(isEmptyDiff(diffVettedPackages(next, next)), true);
    assert.equal(describePackage(d.added[0]), 'demo 2.0.0 (dddddddddddd…)'.replace('dddddddddddd', 'd'));
  });
  it('treats an absent past state as nothing vetted', () => {
    assert.deepEqual(diffVettedPackages(undefined, state(1, [{ packageId: 'x' }])).added.map((p) => p.packageId), ['x']);
  });
});

describe('user rights', () => {
  it('flattens every right kind', () => {
    const r = decodeRights([
      { kind: { CanActAs: { value: { party: ALICE } } } },
      { kind: { CanReadAs: { value: { party: BOB } } } },
      { kind: { CanReadAs: { value: { party: ALICE } } } },
      { kind: { ParticipantAdmin: { value: {} } } },
      { kind: { CanReadAsAnyParty: { value: {} } } },
      { kind: { Empty: {} } },
      { kind: null },
    ]);
    assert.deepEqual(r.actAs, [ALICE]);
    assert.equal(r.participantAdmin, true);
    assert.equal(r.readAsAnyParty, true);
    assert.equal(r.executeAsAnyParty, false);
    assert.deepEqual(readableParties(r), [ALICE, BOB]);
  });
});
