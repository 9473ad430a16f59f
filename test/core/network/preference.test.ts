import assert from 'node:assert/strict';
import { cantonReason, choosePreferred, type PackageRef } from '../../../src/core/network/preference';

const ref = (packageName: string, packageVersion: string): PackageRef => ({ packageId: `${packageName}-${packageVersion}`, packageName, packageVersion });
const IOU1 = ref('iou', '1.0.0');
const IOU2 = ref('iou', '2.0.0');
const IOU10 = ref('iou', '10.0.0');
const ASSET1 = ref('asset', '1.0.0');

describe('network: Canton’s package preference', () => {
  const vetted: Record<string, PackageRef[] | undefined> = {
    alice: [IOU1, IOU2, ASSET1],
    bob: [IOU1, IOU2, IOU10],
    carol: [IOU10],
    dave: [ASSET1],
  };
  const prefer = (requirements: Array<[string, string[]]>) => choosePreferred(new Map(requirements.map(([name, parties]) => [name, new Set(parties)])), (party) => vetted[party]);

  it('picks the highest version every party has, per package name, numerically (10.0.0 after 2.0.0)', () => {
    assert.deepEqual(prefer([['iou', ['alice', 'bob']], ['asset', ['alice']]]), { ok: true, packages: [IOU2, ASSET1] });
    assert.deepEqual(prefer([['iou', ['bob']]]), { ok: true, packages: [IOU10] });
  });

  it('says which party has no version of the name', () => {
    const outcome = prefer([['iou', ['alice', 'dave']]]);
    assert.deepEqual(outcome, { ok: false, failure: { kind: 'party-lacks-name', packageName: 'iou', party: 'dave' } });
    assert.equal(cantonReason((outcome as { failure: Parameters<typeof cantonReason>[0] }).failure), "No package with package-name 'iou' is consistently vetted by all hosting participants of party dave.");
  });

  it('says when the parties have versions but none in common', () => {
    const outcome = prefer([['iou', ['alice', 'carol']]]);
    assert.equal(outcome.ok, false);
    assert.deepEqual((outcome as { failure: unknown }).failure, { kind: 'parties-disagree', packageName: 'iou', party: 'carol', current: [IOU1, IOU2], ofParty: [IOU10] });
  });

  it('says when no participant hosts a party, in Canton’s words', () => {
    const outcome = prefer([['iou', ['nobody']]]);
    assert.deepEqual(outcome, { ok: false, failure: { kind: 'party-unknown', packageName: 'iou', party: 'nobody' } });
    assert.equal(cantonReason({ kind: 'party-unknown', packageName: 'iou', party: 'nobody' }), 'No package is consistently by all hosting participants of nobody.');
  });
});
