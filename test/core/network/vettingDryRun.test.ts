import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import type { NetworkMember } from '../../../src/core/network/model';
import { describeLoss, vettingDryRun, vettingDryRunMarkdown, vettingLossProblems } from '../../../src/core/network/vettingDryRun';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { setVetting, startCheckedNetwork } from '../../support/demoNetwork';

const unvet = (packageName: string, packageVersion?: string) => ({ changes: [{ operation: { Unvet: { value: { packages: [{ packageName, ...(packageVersion ? { packageVersion } : {}) }] } } } }] });

describe('network: a vetting change judged across the network (dry run)', () => {
  let net: DemoNetwork;
  let members: Record<string, NetworkMember>;
  beforeEach(async () => {
    net = await startCheckedNetwork({ seed: false });
    members = Object.fromEntries(net.participants.map((p) => [p.name, { label: p.name, client: new LedgerClient({ baseUrl: p.url }) }]));
  });
  afterEach(() => net.close());

  it('names the parties whose commands lose a usable version: those the participant hosts, also when hosted elsewhere too', async () => {
    const result = await vettingDryRun(unvet('demo-asset'), members['app-provider'], Object.values(members));
    assert.deepEqual(result.removed.map((r) => r.split(' (')[0]), ['demo-asset 1.0.0']);
    assert.deepEqual(
      result.losses.map((l) => [l.party.split('::')[0], l.packageName, l.before, l.after]).sort(),
      [
        ['Alice', 'demo-asset', ['1.0.0'], []],
        ['Bank', 'demo-asset', ['1.0.0'], []],
      ],
    );
    assert.match(describeLoss(result.losses.find((l) => l.party === net.parties.alice)!, result.participantId), /^Alice \(hosted on app-provider\) could no longer use any version of demo-asset \(now 1\.0\.0\): its commands on it would fail\.$/);
    // It was a dry run: nothing changed.
    const still = await members['app-user'].client.preferredPackages([{ packageName: 'demo-asset', parties: [net.parties.alice] }]);
    assert.equal(still.packageReferences[0].packageVersion, '1.0.0');
  });

  it('a version another version replaces is a loss with what stays; a participant’s change concerns only the parties it hosts', async () => {
    setVetting(net, 'app-user', 'demo-iou', true, '2.0.0');
    setVetting(net, 'app-provider', 'demo-iou', true, '2.0.0');
    const result = await vettingDryRun(unvet('demo-iou', '2.0.0'), members['app-provider'], Object.values(members));
    const alice = result.losses.find((l) => l.party === net.parties.alice)!;
    assert.deepEqual([alice.before, alice.after], [['2.0.0', '1.0.0'], ['1.0.0']]);
    assert.match(describeLoss(alice), /^Alice would lose demo-iou 2\.0\.0; 1\.0\.0 stays usable\.$/);
    const sv = await vettingDryRun(unvet('demo-iou', '1.0.0'), members.sv, [members.sv]);
    assert.deepEqual(sv.losses.map((l) => l.party.split('::')[0]), ['Charlie'], 'sv hosts Charlie alone');
  });

  it('each loss is a problem where the file names the package (an error when nothing stays), and a report', async () => {
    const file = { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '1.0.0' }] } } } }, ...unvet('demo-asset').changes] };
    const text = JSON.stringify(file, null, 2);
    const result = await vettingDryRun(file as never, members['app-provider'], Object.values(members));
    const problems = vettingLossProblems(text, result);
    assert.deepEqual(problems.map((p) => [p.code, p.severity, p.path, p.data?.packageName]), [
      ['vetting-loss', 'error', '/changes/1/operation/Unvet/value/packages/0', 'demo-asset'],
      ['vetting-loss', 'error', '/changes/1/operation/Unvet/value/packages/0', 'demo-asset'],
    ]);
    assert.ok(text.slice(problems[0].offset, problems[0].offset + problems[0].length).includes('"packageName": "demo-asset"'));
    assert.deepEqual(problems.map((p) => p.message.split(' ')[0]).sort(), ['Alice', 'Bank']);
    const report = vettingDryRunMarkdown('x.vetting.json', ['app-provider', 'app-user', 'sv'], result);
    assert.match(report, /^# x\.vetting\.json across the network: nothing was changed\n\nDry run on app-provider \(app-provider\); the network read from app-provider, app-user, sv\.\n\n\*\*2 losses:\*\*/);
    assert.match(report, /^- removed: demo-asset 1\.0\.0/m);
    assert.deepEqual(vettingLossProblems('{ not json', result), []);
  });
});
