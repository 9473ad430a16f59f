import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { CancelledError } from '../../../src/core/errors';
import type * as wire from '../../../src/core/models/wire';
import type { NetworkMember } from '../../../src/core/network/model';
import { describeVersionAnswer, PreferredVersions, type VersionScope } from '../../../src/core/network/preferredVersions';
import { IOU as IOU_V1, IOU_V2_TEMPLATE } from '../../../src/participant/catalog';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { setVetting, startCheckedNetwork, withoutPreferredPackages } from '../../support/demoNetwork';

const PREFERRED = '/v2/interactive-submission/preferred-packages';

function member(label: string, url: string): NetworkMember {
  return { label, client: new LedgerClient({ baseUrl: url, timeoutMs: 5000 }) };
}

function scope(members: NetworkMember[], state = 'v1'): VersionScope {
  return { members, key: `conn#1@${state}`, connectionKey: 'conn#1' };
}

describe('network: the version Canton will use, for the editor', () => {
  let net: DemoNetwork;
  /** The participants asked preferred-packages, one entry per request, with the body sent. */
  const preferredCalls: Array<{ name: string; body: wire.GetPreferredPackagesRequest }> = [];
  afterEach(() => net?.close());

  describe('on three participants, Alice on app-user and app-provider, Bob on app-user, demo-iou 2.0.0 vetted on app-user only', () => {
    let members: NetworkMember[];
    beforeEach(async () => {
      preferredCalls.length = 0;
      net = await startCheckedNetwork({ seed: false, onExchange: (name, x) => void (x.path === PREFERRED && preferredCalls.push({ name, body: JSON.parse(x.requestBody) as wire.GetPreferredPackagesRequest })) });
      setVetting(net, 'app-user', 'demo-iou', true, '2.0.0');
      members = ['app-user', 'app-provider', 'sv'].map((name) => member(name, net.participant(name).url));
    });

    it('names the older version for Alice (app-provider lacks 2.0.0) and the newer for Bob; after vetting it on app-provider, the newer for Alice', async () => {
      const versions = new PreferredVersions();
      const { alice, bob } = net.parties;
      const [forAlice, forBob] = await versions.answer(scope(members), [
        { packageName: 'demo-iou', parties: [alice] },
        { packageName: 'demo-iou', parties: [bob] },
      ]);
      assert.deepEqual(forAlice.verdict.verdict === 'ok' && [forAlice.verdict.chosen.packageId, forAlice.verdict.source], [IOU_V1.pkg.id, 'canton']);
      assert.deepEqual(forBob.verdict.verdict === 'ok' && forBob.verdict.chosen.packageId, IOU_V2_TEMPLATE.pkg.id);
      const words = describeVersionAnswer(forAlice);
      assert.equal(words.headline, 'Canton will use demo-iou 1.0.0 for Alice');
      assert.match(words.why[0], /preferred-packages on app-user\): the highest version vetted by every participant hosting Alice/);
      // One request per question, the shape of the 3.5/3.6 spec (GetPreferredPackagesRequest: packageVettingRequirements of parties and packageName).
      assert.deepEqual(
        preferredCalls.map((c) => [c.name, c.body.packageVettingRequirements]),
        [
          ['app-user', [{ parties: [alice], packageName: 'demo-iou' }]],
          ['app-user', [{ parties: [bob], packageName: 'demo-iou' }]],
        ],
      );

      // Asked again in the same ledger state: from what is known, no request.
      await versions.answer(scope(members), [{ packageName: 'demo-iou', parties: [alice] }]);
      assert.equal(preferredCalls.length, 2);

      setVetting(net, 'app-provider', 'demo-iou', true, '2.0.0');
      // The old answer stays known, marked as not current, until the new one comes.
      const stale = versions.known(scope(members, 'v2'), { packageName: 'demo-iou', parties: [alice] })!;
      assert.deepEqual([stale.current, stale.verdict.verdict === 'ok' && stale.verdict.chosen.packageVersion], [false, '1.0.0']);
      const [after] = await versions.answer(scope(members, 'v2'), [{ packageName: 'demo-iou', parties: [alice] }]);
      assert.deepEqual([after.current, after.verdict.verdict === 'ok' && after.verdict.chosen.packageVersion], [true, '2.0.0']);
      assert.equal(preferredCalls.length, 3);
    });

    it('where Canton chooses below the version the asker knows, names the hosts that lack it', async () => {
      const versions = new PreferredVersions();
      const [forAlice] = await versions.answer(scope(members), [{ packageName: 'demo-iou', parties: [net.parties.alice], above: '2.0.0' }]);
      const words = describeVersionAnswer(forAlice);
      assert.equal(words.headline, 'Canton will use demo-iou 1.0.0 for Alice');
      assert.deepEqual(words.why.slice(1), ['Alice is hosted on app-provider (confirmation), which has not vetted demo-iou 2.0.0.']);
      const [forBob] = await versions.answer(scope(members), [{ packageName: 'demo-iou', parties: [net.parties.bob], above: '2.0.0' }]);
      assert.deepEqual(describeVersionAnswer(forBob).why.length, 1, 'Canton chose 2.0.0 for Bob: nothing to explain');
    });

    it('when none fits: which party, hosted where, lacks which vetting', async () => {
      setVetting(net, 'app-provider', 'demo-asset', false);
      const versions = new PreferredVersions();
      const [asset] = await versions.answer(scope(members), [{ packageName: 'demo-asset', parties: [net.parties.alice, net.parties.bob] }]);
      const words = describeVersionAnswer(asset);
      assert.equal(words.verdict, 'fails');
      assert.equal(words.headline, 'No version of demo-asset is vetted by every participant hosting Alice, Bob: commands using it will fail');
      assert.deepEqual(words.why.filter((w) => /app-provider/.test(w)).length, 1);
      assert.match(words.why.join(' '), /Alice \(Alice::1220[0-9a-f]+\) is hosted on app-provider \(confirmation\), which has not vetted any version of demo-asset \(app-user has version 1\.0\.0\)/);
    });

    it('one participant alone answers for the whole topology it knows', async () => {
      const versions = new PreferredVersions();
      const [forAlice] = await versions.answer(scope([members[0]]), [{ packageName: 'demo-iou', parties: [net.parties.alice] }]);
      assert.deepEqual(forAlice.verdict.verdict === 'ok' && forAlice.verdict.chosen.packageVersion, '1.0.0', 'app-user knows that app-provider hosts Alice too');
      assert.deepEqual(forAlice.askedOf, ['app-user']);
    });

    it('questions asked at once go out together, one request per package name; the same question asked twice meanwhile is asked once', async () => {
      const versions = new PreferredVersions();
      const { alice } = net.parties;
      const questions = [
        { packageName: 'demo-iou', parties: [alice] },
        { packageName: 'demo-asset', parties: [alice] },
      ];
      const [a, b] = await Promise.all([versions.answer(scope(members), questions), versions.answer(scope(members), [questions[1], questions[0]])]);
      assert.deepEqual(preferredCalls.map((c) => c.body.packageVettingRequirements[0].packageName).sort(), ['demo-asset', 'demo-iou']);
      assert.deepEqual(b.map((x) => x.verdict.packageName), ['demo-asset', 'demo-iou']);
      assert.deepEqual(a.map((x) => x.verdict.verdict), ['ok', 'ok']);
    });

    it('a file with no party is not asked about (the request needs one): said, not a version', async () => {
      const versions = new PreferredVersions();
      const [answer] = await versions.answer(scope(members), [{ packageName: 'demo-iou', parties: [] }]);
      const words = describeVersionAnswer(answer);
      assert.deepEqual([words.verdict, preferredCalls.length], ['unknown', 0]);
      assert.match(words.why.join(' '), /No party to ask for/);
    });

    it('where the participant cannot answer preferred-packages (a 3.3 participant: 404), decides from every host’s vetting, as the pre-flight does, and says so', async () => {
      const proxy = await withoutPreferredPackages(net.participant('app-user').url);
      try {
        const versions = new PreferredVersions();
        const [forAlice] = await versions.answer(scope([member('app-user', proxy.url), members[1]]), [{ packageName: 'demo-iou', parties: [net.parties.alice] }]);
        const words = describeVersionAnswer(forAlice);
        assert.deepEqual([words.verdict, words.chosen?.packageVersion], ['ok', '1.0.0']);
        assert.equal(words.headline, 'Canton would use demo-iou 1.0.0 for Alice');
        assert.match(words.why[0], /Computed from every host's vetting, as Canton would choose it: app-user cannot answer preferred-packages/);
      } finally {
        await proxy.close();
      }
    });
  });

  describe('waiting and cancelling', () => {
    /** A participant whose preferred-packages answer waits until released, and which records whether a request was aborted. */
    function slowMember() {
      const calls: Array<{ signal?: AbortSignal; release: () => void }> = [];
      const client = {
        preferredPackages: (requirements: wire.PackageVettingRequirement[], o: { signal?: AbortSignal }) =>
          new Promise<wire.GetPreferredPackagesResponse>((resolve, reject) => {
            const release = () => resolve({ synchronizerId: 'sync::1220', packageReferences: [{ packageId: 'p1', packageName: requirements[0].packageName, packageVersion: '1.0.0' }] });
            calls.push({ signal: o.signal, release });
            o.signal?.addEventListener('abort', () => reject(new CancelledError(true)), { once: true });
          }),
      } as unknown as LedgerClient;
      return { member: { label: 'slow', client }, calls };
    }

    it('the last waiter to cancel aborts the request; while another waits, it goes on and is kept for later', async () => {
      const versions = new PreferredVersions();
      const { member: slow, calls } = slowMember();
      const q = { packageName: 'demo-iou', parties: ['Alice::1220'] };

      const alone = new AbortController();
      const lone = versions.answer(scope([slow]), [q], { signal: alone.signal });
      alone.abort();
      await assert.rejects(lone, CancelledError);
      assert.equal(calls[0].signal?.aborted, true, 'nobody waits: the request is aborted');

      const first = new AbortController();
      const one = versions.answer(scope([slow]), [q], { signal: first.signal });
      const two = versions.answer(scope([slow]), [q]);
      assert.equal(calls.length, 2, 'the second waiter joined the request on its way');
      first.abort();
      await assert.rejects(one, CancelledError);
      assert.equal(calls[1].signal?.aborted, false, 'another still waits: the request goes on');
      calls[1].release();
      const [answer] = await two;
      assert.deepEqual(answer.verdict.verdict === 'ok' && answer.verdict.chosen.packageId, 'p1');
      assert.equal(versions.known(scope([slow]), q)?.current, true);
    });

    it('an answer older than the maximum age is known but not current, and asked again', async () => {
      let now = 1_000;
      const versions = new PreferredVersions({ maxAgeMs: 100, now: () => now });
      const { member: slow, calls } = slowMember();
      const q = { packageName: 'demo-iou', parties: ['Alice::1220'] };
      const asking = versions.answer(scope([slow]), [q]);
      calls[0].release();
      await asking;
      now += 150;
      assert.equal(versions.known(scope([slow]), q)?.current, false);
      const again = versions.answer(scope([slow]), [q]);
      assert.equal(calls.length, 2);
      calls[1].release();
      assert.equal((await again)[0].current, true);
    });
  });
});
