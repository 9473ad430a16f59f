import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { CantonApiError } from '../../../src/core/errors';
import type * as wire from '../../../src/core/models/wire';
import type { NetworkMember } from '../../../src/core/network/model';
import { preflightCommands, preflightPasses, preflightReport, type PackageVerdict } from '../../../src/core/network/preflight';
import { readNetwork } from '../../../src/core/network/read';
import { ASSET as ASSET_TEMPLATE, IOU as IOU_TEMPLATE } from '../../../src/participant/catalog';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { deadUrl } from '../../support/deadPort';
import { setVetting, startCheckedNetwork, withoutPreferredPackages } from '../../support/demoNetwork';
import type { FaultProxy } from '../../support/faultProxy';

const ASSET = '#demo-asset:Asset:Asset';
const IOU = '#demo-iou:Iou:Iou';
const PREFERRED = '/v2/interactive-submission/preferred-packages';

function member(label: string, url: string, token?: string): NetworkMember {
  return { label, client: new LedgerClient({ baseUrl: url, token: token === undefined ? undefined : async () => token, timeoutMs: 5000 }) };
}

/** A commands file for Alice: an Asset of hers and an Iou of hers to Bob (so, for Bob too). */
function aliceFile(net: DemoNetwork, extra: wire.Command[] = []): string {
  const { alice, bob } = net.parties;
  const file: wire.JsCommands = {
    commandId: 'preflight-1',
    actAs: [alice],
    commands: [
      { CreateCommand: { templateId: ASSET, createArguments: { owner: alice, id: 'car-7', description: 'Blue' } } },
      { CreateCommand: { templateId: IOU, createArguments: { issuer: alice, owner: bob, currency: 'USD', amount: '5', observers: [] } } },
      ...extra,
    ],
  };
  return JSON.stringify(file, null, 2);
}

const verdictOf = (verdicts: readonly PackageVerdict[], name: string) => verdicts.find((v) => v.packageName === name)!;

describe('network: the pre-flight of a commands file', () => {
  let net: DemoNetwork;
  let members: NetworkMember[];
  const preferredCalls: string[] = [];
  afterEach(() => net?.close());

  describe('on three participants, Alice on two, demo-asset vetted on one', () => {
    beforeEach(async () => {
      preferredCalls.length = 0;
      net = await startCheckedNetwork({ seed: false, onExchange: (name, x) => void (x.path === PREFERRED && preferredCalls.push(name)) });
      setVetting(net, 'app-provider', 'demo-asset', false);
      setVetting(net, 'sv', 'demo-asset', false);
      members = ['app-user', 'app-provider', 'sv'].map((name) => member(name, net.participant(name).url));
    });

    it('names the host and the party, at the templateId; after vetting there, passes, and the submit succeeds', async () => {
      const text = aliceFile(net);
      const before = await preflightCommands(text, members);
      assert.equal(preflightPasses(before), false);
      const asset = verdictOf(before.packages, 'demo-asset');
      assert.equal(asset.verdict, 'fails');
      assert.deepEqual(asset.verdict === 'fails' && asset.missing, [
        {
          kind: 'host-lacks-package',
          party: net.parties.alice,
          host: { participantId: net.participant('app-provider').participantId, label: 'app-provider' },
          permission: 'confirmation',
          packageName: 'demo-asset',
          elsewhere: [{ host: { participantId: net.participant('app-user').participantId, label: 'app-user' }, versions: ['1.0.0'] }],
        },
      ]);
      assert.match(asset.verdict === 'fails' ? asset.cause! : '', /^Could not compute valid package preferences/);
      const [problem] = before.problems.filter((p) => p.severity === 'error');
      assert.deepEqual([problem.code, problem.path, problem.line, text.slice(problem.offset, problem.offset + problem.length)], ['preflight-no-version', '/commands/0/CreateCommand/templateId', 9, `"${ASSET}"`]);
      assert.match(problem.message, /hosted on app-provider \(confirmation\), which has not vetted any version of demo-asset \(app-user has version 1\.0\.0\)/);
      const iou = verdictOf(before.packages, 'demo-iou');
      assert.deepEqual(iou.verdict === 'ok' && [iou.chosen.packageId, iou.source, iou.parties], [IOU_TEMPLATE.pkg.id, 'canton', [net.parties.alice, net.parties.bob].sort()]);
      assert.match(preflightReport('f.commands.json', before).join('\n'), /f\.commands\.json: demo-asset: no version for Alice: the commands using it will fail\n {2}Alice \(Alice::1220[0-9a-f]+\) is hosted on app-provider/);

      // What the pre-flight foresaw is what the participant does.
      const submit = () => members[0].client.submitAndWaitForTransaction({ commands: { ...JSON.parse(text), commandId: `c-${Date.now()}` } });
      await assert.rejects(submit(), (e) => e instanceof CantonApiError && e.code === 'PACKAGE_SELECTION_FAILED');

      setVetting(net, 'app-provider', 'demo-asset', true);
      const after = await preflightCommands(text, members);
      assert.ok(preflightPasses(after), JSON.stringify(after.problems));
      assert.deepEqual(after.packages.map((v) => v.verdict === 'ok' && `${v.packageName} ${v.chosen.packageVersion}`), ['demo-asset 1.0.0', 'demo-iou 1.0.0']);
      assert.deepEqual(after.problems.map((p) => [p.severity, p.code]), [['info', 'preflight-version'], ['info', 'preflight-version']]);
      const { transaction } = await submit();
      assert.deepEqual(transaction.events.map((e) => e.templateId), [ASSET_TEMPLATE.id, IOU_TEMPLATE.id]);
    });

    it('asks preferred-packages once per package name, not per command, and reads no more of the network when Canton says yes', async () => {
      setVetting(net, 'app-provider', 'demo-asset', true);
      const { alice } = net.parties;
      const many = Array.from({ length: 50 }, (_, i): wire.Command => ({ CreateCommand: { templateId: i % 2 ? IOU : ASSET, createArguments: i % 2 ? { issuer: alice, owner: alice, currency: 'USD', amount: '1', observers: [] } : { owner: alice, id: `a${i}`, description: 'x' } } }));
      const result = await preflightCommands(aliceFile(net, many), members);
      assert.ok(preflightPasses(result));
      assert.equal(result.problems.length, 52);
      assert.deepEqual(preferredCalls, ['app-user', 'app-user']);
      assert.equal(result.networkRead, false);
    });

    it('a participant that does not answer is said, never a silent pass; the others still explain', async () => {
      const dead = member('dead', await deadUrl());
      const { alice } = net.parties;
      const iouOnly = JSON.stringify({ commandId: 'x', actAs: [alice], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: alice, owner: alice, currency: 'USD', amount: '1', observers: [] } } }] });
      const fine = await preflightCommands(iouOnly, [members[0], dead]);
      assert.ok(fine.packages.every((v) => v.verdict === 'ok'));
      assert.equal(preflightPasses(fine), false, 'not checked against every participant given');
      const warning = fine.problems.find((p) => p.severity === 'warning')!;
      assert.deepEqual([warning.code, warning.path], ['preflight-unchecked', '']);
      assert.match(warning.message, /^Not checked against dead: dead did not answer/);

      const failing = await preflightCommands(aliceFile(net), [members[0], dead]);
      const asset = verdictOf(failing.packages, 'demo-asset');
      assert.deepEqual(asset.verdict === 'fails' && asset.missing.map((m) => m.kind === 'host-lacks-package' && m.host.label), ['app-provider'], 'app-provider is known from the topology, and asked about through app-user');
      assert.ok(failing.notes.some((n) => /dead did not answer/.test(n)));

      const deadFirst = await preflightCommands(aliceFile(net), [dead, members[0]]);
      assert.deepEqual(deadFirst.packages.map((v) => v.verdict), ['unchecked', 'unchecked']);
      assert.match(deadFirst.problems[0].message, /^Not checked: which version of demo-asset Alice can use could not be told\. dead did not answer/);
    });

    it('a party no participant hosts is named as such', async () => {
      const nobody = `Nobody::1220${'cd'.repeat(32)}`;
      const text = JSON.stringify({ commandId: 'x', actAs: [nobody], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: nobody, owner: nobody, currency: 'USD', amount: '1', observers: [] } } }] });
      const result = await preflightCommands(text, members);
      const iou = verdictOf(result.packages, 'demo-iou');
      assert.deepEqual(iou.verdict === 'fails' && iou.missing, [{ kind: 'party-hosted-nowhere', party: nobody }]);
      assert.match(result.problems[0].message, /Nobody \(Nobody::1220[cd]+\) is not hosted on any participant of the synchronizer/);
    });

    it('a package id the network does not know, and a file that is not JSON, are not checked: warnings, not passes', async () => {
      const unknownId = `${'ef'.repeat(32)}:Iou:Iou`;
      const result = await preflightCommands(JSON.stringify({ commandId: 'x', actAs: [net.parties.alice], commands: [{ CreateCommand: { templateId: unknownId, createArguments: {} } }] }), members);
      assert.deepEqual(result.problems.map((p) => [p.severity, p.code]), [['warning', 'preflight-unchecked']]);
      assert.equal(preflightPasses(result), false);
      const broken = await preflightCommands('{ "commands": [', members);
      assert.deepEqual(broken.problems.map((p) => p.code), ['preflight-unchecked']);
      assert.equal(preflightPasses(broken), false);
    });
  });

  describe('with tokens', () => {
    const secrets = { 'app-provider': { secret: 'provider-secret-0123456789abcdef' }, 'app-user': { secret: 'user-secret-0123456789abcdefghij' }, sv: { secret: 'sv-secret-0123456789abcdefghijkl' } };
    beforeEach(async () => {
      net = await startCheckedNetwork({ seed: false, auth: secrets });
      setVetting(net, 'app-provider', 'demo-asset', false);
    });

    it('a token that may not read where a party is hosted: Canton’s refusal stays, and what could not be read is said', async () => {
      const bob = await net.participant('app-user').mintToken('bob');
      const admin = await net.participant('app-provider').mintToken('demo-admin');
      const result = await preflightCommands(aliceFile(net), [member('app-user', net.participant('app-user').url, bob), member('app-provider', net.participant('app-provider').url, admin)]);
      const asset = verdictOf(result.packages, 'demo-asset');
      assert.equal(asset.verdict, 'fails');
      assert.ok(asset.verdict === 'fails' && asset.cause && /party Alice::/.test(asset.cause), 'Canton’s own reason names the party');
      assert.ok(result.notes.some((n) => /would not tell where the party is hosted for Alice::.*the token's user may not read it/.test(n)), result.notes.join('\n'));
      assert.match(result.problems.find((p) => p.severity === 'error')!.message, /could not be read|Could not compute/);
    });

    it('a token the participant refuses: not checked', async () => {
      const result = await preflightCommands(aliceFile(net), [member('app-user', net.participant('app-user').url, await net.participant('sv').mintToken('demo-admin'))]);
      assert.deepEqual(result.packages.map((v) => v.verdict), ['unchecked', 'unchecked']);
      assert.ok(result.packages.every((v) => v.verdict === 'unchecked' && v.problems[0].kind === 'forbidden'));
    });
  });

  describe('where the participant cannot answer preferred-packages', () => {
    let proxy: FaultProxy;
    afterEach(() => proxy?.close());

    it('decides from every host’s vetting, as Canton would, and says so', async () => {
      net = await startCheckedNetwork({ seed: false });
      setVetting(net, 'app-user', 'demo-iou', true, '2.0.0');
      setVetting(net, 'app-provider', 'demo-asset', false);
      proxy = await withoutPreferredPackages(net.participant('app-user').url);
      const result = await preflightCommands(aliceFile(net), [member('app-user', proxy.url), member('app-provider', net.participant('app-provider').url)]);
      const iou = verdictOf(result.packages, 'demo-iou');
      assert.deepEqual(iou.verdict === 'ok' && [iou.chosen.packageVersion, iou.source], ['1.0.0', 'vetting'], 'Alice’s other host has 1.0.0 only');
      const asset = verdictOf(result.packages, 'demo-asset');
      assert.deepEqual(asset.verdict === 'fails' && asset.missing.map((m) => m.kind === 'host-lacks-package' && m.host.label), ['app-provider']);
      assert.ok(result.notes.some((n) => /cannot answer preferred-packages: the versions were computed from every host's vetting/.test(n)));
    });

    it('on 3.3, whose vetting cannot be listed either, says that nothing could be checked', async () => {
      net = await startCheckedNetwork({ seed: false, apiVersion: '3.3' });
      proxy = await withoutPreferredPackages(net.participant('app-user').url);
      const result = await preflightCommands(aliceFile(net), [member('app-user', proxy.url)]);
      assert.deepEqual(result.packages.map((v) => v.verdict), ['unchecked', 'unchecked']);
      assert.ok(result.notes.some((n) => /runs Canton 3\.3\.0-demo, which cannot tell its vetted packages/.test(n)), result.notes.join('\n'));
      assert.equal(preflightPasses(result), false);
    });
  });

  describe('on a 3.3 and a 3.6 network (Canton answers; its vetting list and request shapes differ)', () => {
    for (const apiVersion of ['3.3', '3.6'] as const) {
      it(`${apiVersion}: the version, or the host that lacks it`, async () => {
        net = await startCheckedNetwork({ seed: false, apiVersion });
        setVetting(net, 'app-provider', 'demo-asset', false);
        members = ['app-user', 'app-provider'].map((name) => member(name, net.participant(name).url));
        const result = await preflightCommands(aliceFile(net), members);
        assert.deepEqual(result.packages.map((v) => [v.packageName, v.verdict]), [['demo-asset', 'fails'], ['demo-iou', 'ok']]);
        const asset = verdictOf(result.packages, 'demo-asset');
        if (apiVersion === '3.6') assert.deepEqual(asset.verdict === 'fails' && asset.missing.map((m) => m.kind), ['host-lacks-package']);
        // 3.3 cannot list vetting: the refusal is Canton's, and the hosts whose vetting is unknown are said.
        else {
          assert.ok(asset.verdict === 'fails' && asset.cause && asset.notes.some((n) => /is hosted on app-provider, whose vetted packages could not be read/.test(n)), JSON.stringify(asset));
          assert.ok(result.notes.some((n) => /app-provider runs Canton 3\.3\.0-demo, which cannot tell its vetted packages/.test(n)), result.notes.join('\n'));
        }
      });
    }
  });

  it('reads the network: every participant, the ones the topology names too, with hosting and vetting', async () => {
    net = await startCheckedNetwork({ seed: false });
    const snapshot = await readNetwork([member('user', net.participant('app-user').url)], { parties: [net.parties.alice, net.parties.charlie] });
    assert.deepEqual(snapshot.hosts.map((h) => h.label), ['app-user (user)', 'app-provider', 'sv']);
    assert.deepEqual(snapshot.hosting.get(net.parties.alice)!.hosts.map((h) => [h.participantId.split('::')[0], h.permission]), [['app-user', 'submission'], ['app-provider', 'confirmation']]);
    assert.deepEqual(snapshot.hosting.get(net.parties.charlie)!.hosts.map((h) => h.participantId.split('::')[0]), ['sv']);
    assert.deepEqual([...snapshot.vetting.keys()].map((id) => id.split('::')[0]).sort(), ['app-provider', 'app-user', 'sv']);
    assert.deepEqual(snapshot.problems, []);
  });
});
