import assert from 'node:assert/strict';
import type * as wire from '../../src/core/models/wire';
import { ASSET as ASSET_TEMPLATE, IOU as IOU_TEMPLATE, IOU_V2_TEMPLATE } from '../../src/participant/catalog';
import type { DemoNetwork } from '../../src/participant/network/index';
import { LOCALNET, setVetting, startCheckedNetwork } from '../support/demoNetwork';
import { deadPort } from '../support/deadPort';
import { ASSET, assertCantonError, commands, createdEvents, createIou, get, post, submit, transactions, transactionsFormat } from './helpers';

const PREFERRED = '/v2/interactive-submission/preferred-packages';
const SUBMIT = '/v2/commands/submit-and-wait-for-transaction';
const FAILED_PRECONDITION = 9;

const createAsset = (owner: string, id = 'car-9'): wire.Command => ({ CreateCommand: { templateId: ASSET, createArguments: { owner, id, description: 'Green van' } } });

async function updatesOf(p: { url: string }, parties: string[] | 'any', shape: 'ACS_DELTA' | 'LEDGER_EFFECTS' = 'LEDGER_EFFECTS'): Promise<wire.JsTransaction[]> {
  const reply = await post(p, '/v2/updates', { beginExclusive: 0, updateFormat: transactionsFormat(parties, shape) }, { query: { limit: 200 } });
  assert.equal(reply.status, 200, reply.text);
  return transactions(reply.json);
}

describe('demo network', () => {
  let net: DemoNetwork;
  const url = (name: string) => net.participant(name);
  afterEach(() => net?.close());

  describe('its seed', () => {
    beforeEach(async () => {
      net = await startCheckedNetwork();
    });

    it('runs one participant per name on one synchronizer, each with its own participant id, ledger and users', async () => {
      assert.deepEqual(
        net.participants.map((p) => p.name),
        [...LOCALNET],
      );
      const ids = new Set(net.participants.map((p) => p.participantId));
      assert.equal(ids.size, 3);
      for (const p of net.participants) {
        assert.ok(p.participantId.startsWith(`${p.name}::1220`), p.participantId);
        const own = await get(p, '/v2/parties/participant-id');
        assert.equal(own.json.participantId, p.participantId);
        const synchronizers = await get(p, '/v2/state/connected-synchronizers');
        assert.deepEqual(synchronizers.json.connectedSynchronizers, [{ synchronizerAlias: 'global', synchronizerId: net.synchronizer.id, permission: 'PARTICIPANT_PERMISSION_UNSPECIFIED' }]);
      }
      const users = async (name: string) => ((await get(url(name), '/v2/users')).json.users as wire.User[]).map((u) => u.id).sort();
      assert.deepEqual(await users('app-provider'), ['alice', 'bank', 'demo-admin']);
      assert.deepEqual(await users('app-user'), ['alice', 'bob', 'demo-admin']);
      assert.deepEqual(await users('sv'), ['charlie', 'demo-admin']);
    });

    it('hosts Bank on app-provider, Alice on app-user and app-provider, Bob on app-user, Charlie on sv: each participant answers for every other from the shared topology', async () => {
      const { bank, alice, bob, charlie } = net.parties;
      const expected: Record<string, Record<string, string | undefined>> = {
        [bank]: { 'app-provider': 'SUBMISSION' },
        [alice]: { 'app-user': 'SUBMISSION', 'app-provider': 'CONFIRMATION' },
        [bob]: { 'app-user': 'SUBMISSION' },
        [charlie]: { sv: 'SUBMISSION' },
      };
      for (const asker of net.participants) {
        for (const [party, hosts] of Object.entries(expected)) {
          for (const host of net.participants) {
            const reply = await get(asker, '/v2/state/connected-synchronizers', { query: { party, participantId: host.participantId } });
            assert.equal(reply.status, 200, reply.text);
            const permission = hosts[host.name];
            assert.deepEqual(
              reply.json.connectedSynchronizers,
              permission ? [{ synchronizerAlias: 'global', synchronizerId: net.synchronizer.id, permission: `PARTICIPANT_PERMISSION_${permission}` }] : [],
              `${asker.name} asked whether ${host.name} hosts ${party.split('::')[0]}`,
            );
          }
        }
      }
      // Alice's id is in the namespace of her first host, and both hosts list her as local.
      for (const name of ['app-user', 'app-provider']) {
        const parties = (await get(url(name), '/v2/parties')).json.partyDetails as wire.PartyDetails[];
        assert.ok(parties.some((p) => p.party === alice && p.isLocal), name);
      }
      assert.ok(!((await get(url('sv'), '/v2/parties')).json.partyDetails as wire.PartyDetails[]).some((p) => p.party === alice));
    });

    it('delivered the seed history to every host of an informee: Bank’s Iou to Charlie is on app-provider and sv, not on app-user', async () => {
      const find = (txs: wire.JsTransaction[], owner: string) => txs.find((tx) => createdEvents(tx).some((c) => (c.createArgument as { owner?: string; currency?: string }).owner === owner && (c.createArgument as { currency?: string }).currency === 'CHF'));
      const onSv = find(await updatesOf(url('sv'), 'any'), net.parties.charlie);
      const onProvider = find(await updatesOf(url('app-provider'), 'any'), net.parties.charlie);
      assert.ok(onSv && onProvider);
      assert.equal(onSv.updateId, onProvider.updateId, 'one transaction, the same update id on both');
      assert.equal(find(await updatesOf(url('app-user'), 'any'), net.parties.charlie), undefined);
    });

    it('lists every participant’s vetting from any participant (the synchronizer’s topology state), and its own only when asked by id', async () => {
      for (const asker of net.participants) {
        const all = await post<wire.ListVettedPackagesResponse>(asker, '/v2/package-vetting/list', {});
        assert.deepEqual(all.json.vettedPackages!.map((v) => v.participantId).sort(), net.participants.map((p) => p.participantId).sort());
        const own = await post<wire.ListVettedPackagesResponse>(asker, '/v2/package-vetting/list', { topologyStateFilter: { participantIds: [asker.participantId] } });
        assert.deepEqual(own.json.vettedPackages!.map((v) => v.participantId), [asker.participantId]);
      }
    });
  });

  describe('transactions', () => {
    beforeEach(async () => {
      net = await startCheckedNetwork({ seed: false });
    });

    it('reach every participant hosting an informee, each with its own projection, offset and no command id of another participant', async () => {
      const { alice, bob } = net.parties;
      // On app-user, demo-admin acts as Alice and Bob: two creates, one seen by each owner's hosts.
      const tx = await submit(url('app-user'), [alice, bob], [createAsset(alice, 'a-1'), createAsset(bob, 'b-1')], { format: { eventFormat: { filtersByParty: {}, filtersForAnyParty: { cumulative: [] }, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } });
      assert.deepEqual(createdEvents(tx).map((c) => (c.createArgument as { id: string }).id), ['a-1', 'b-1']);
      assert.notEqual(tx.commandId, '');

      const onProvider = (await updatesOf(url('app-provider'), 'any')).find((t) => t.updateId === tx.updateId);
      assert.ok(onProvider, 'app-provider hosts Alice: it has the transaction');
      assert.deepEqual(
        createdEvents(onProvider).map((c) => [(c.createArgument as { id: string }).id, c.nodeId]),
        [['a-1', 0]],
        'its projection: Alice’s node only, with the node id it has in the whole transaction',
      );
      assert.equal(onProvider.commandId, '', 'the command id stays with the submitting participant');
      assert.equal(onProvider.recordTime, tx.recordTime);
      assert.equal((await updatesOf(url('sv'), 'any')).find((t) => t.updateId === tx.updateId), undefined, 'sv hosts neither owner');

      // The contract is active on both hosts of Alice, each at its own offset.
      const acs = async (name: string) => {
        const end = (await get(url(name), '/v2/state/ledger-end')).json.offset as number;
        const reply = await post(url(name), '/v2/state/active-contracts', { activeAtOffset: end, eventFormat: { filtersByParty: { [alice]: { cumulative: [] } }, verbose: false } });
        assert.equal(reply.status, 200, reply.text);
        return (reply.json as wire.JsGetActiveContractsResponse[]).map((r) => (r.contractEntry as { JsActiveContract: { createdEvent: wire.CreatedEvent } }).JsActiveContract.createdEvent);
      };
      const [onUser, provided] = [await acs('app-user'), await acs('app-provider')];
      assert.deepEqual(onUser.map((c) => c.contractId), provided.map((c) => c.contractId));
      assert.equal(onUser.length, 1);
    });

    it('keep their record time on every host, even where the receiver’s own updates ran ahead (one synchronizer, one clock)', async () => {
      const { bank, alice } = net.parties;
      // app-user's own record time runs a minute ahead of app-provider's (its own updates, a topology change).
      const receiver = net.participant('app-user').state;
      receiver.nextRecordTime(receiver.now() + 60_000_000);
      const issued = await submit(url('app-provider'), [bank], [createIou(bank, alice, '7')]);
      const received = (await updatesOf(url('app-user'), [alice])).find((t) => t.updateId === issued.updateId);
      assert.ok(received, 'app-user hosts Alice');
      assert.equal(received.recordTime, issued.recordTime);
      assert.equal(received.synchronizerId, issued.synchronizerId);
    });

    it('an archive reaches the other host too: the contract leaves both active contract sets', async () => {
      const { bank, alice } = net.parties;
      const issued = await submit(url('app-provider'), [bank], [createIou(bank, alice, '5')]);
      const iou = createdEvents(issued)[0].contractId;
      await submit(url('app-provider'), [bank], [{ ExerciseCommand: { templateId: IOU_TEMPLATE.id, contractId: iou, choice: 'Archive', choiceArgument: {} } }]);
      for (const name of ['app-provider', 'app-user']) {
        const events = await post(url(name), '/v2/events/events-by-contract-id', { contractId: iou, eventFormat: { filtersByParty: { [alice]: { cumulative: [] } }, verbose: false } });
        assert.equal(events.status, 200, `${name}: ${events.text}`);
        assert.ok(events.json.archived, `${name} saw the archive`);
      }
    });
  });

  describe('package vetting across hosts', () => {
    beforeEach(async () => {
      net = await startCheckedNetwork({ seed: false });
    });

    it('refuses a submission as Canton does when a host of an informee has not vetted the package, and takes it once it has', async () => {
      const { alice } = net.parties;
      setVetting(net, 'app-provider', 'demo-asset', false);
      const refused = await post(url('app-user'), SUBMIT, { commands: commands([alice], [createAsset(alice)]) });
      const error = assertCantonError(refused, 400, 'PACKAGE_SELECTION_FAILED', FAILED_PRECONDITION);
      assert.equal(
        error.cause,
        `No synchronizers satisfy the topology requirements for the submitted command: Discarded synchronizers: \n\t${net.synchronizer.id}: Failed to select package-id for package-name 'demo-asset' appearing in a command root node due to: No package with package-name 'demo-asset' is consistently vetted by all hosting participants of party ${alice}.`,
      );
      assert.equal(net.participant('app-user').state.entries.length, 2, 'nothing was committed: only the two topology transactions of the seed');

      setVetting(net, 'app-provider', 'demo-asset', true);
      const tx = await submit(url('app-user'), [alice], [createAsset(alice)]);
      assert.equal(createdEvents(tx)[0].templateId, ASSET_TEMPLATE.id);
    });

    it('a prepare is refused the same way (Canton selects packages before it prepares)', async () => {
      const { alice } = net.parties;
      setVetting(net, 'app-provider', 'demo-asset', false);
      const refused = await post(url('app-user'), '/v2/interactive-submission/prepare', { ...commands([alice], [createAsset(alice)]), userId: 'demo-admin', synchronizerId: '', verboseHashing: false });
      assertCantonError(refused, 400, 'PACKAGE_SELECTION_FAILED', FAILED_PRECONDITION);
    });

    it('uses the highest version every host of the informees has vetted, not the submitting participant’s highest', async () => {
      const { alice, bob } = net.parties;
      setVetting(net, 'app-user', 'demo-iou', true, '2.0.0');
      // Bob is on app-user alone: 2.0.0. Alice is on app-provider too, which has 1.0.0 only.
      const forBob = await submit(url('app-user'), [bob], [createIou(bob, bob)]);
      assert.equal(createdEvents(forBob)[0].templateId, IOU_V2_TEMPLATE.id);
      const forAlice = await submit(url('app-user'), [alice], [createIou(alice, alice)]);
      assert.equal(createdEvents(forAlice)[0].templateId, IOU_TEMPLATE.id);
    });
  });

  describe('preferred-packages', () => {
    beforeEach(async () => {
      net = await startCheckedNetwork({ seed: false });
    });

    it('answers with the version every host of every party has vetted, for each package name', async () => {
      const { alice, bob, charlie } = net.parties;
      setVetting(net, 'app-user', 'demo-iou', true, '2.0.0');
      const reply = await post<wire.GetPreferredPackagesResponse>(url('sv'), PREFERRED, {
        packageVettingRequirements: [
          { parties: [bob], packageName: 'demo-iou' },
          { parties: [alice, charlie], packageName: 'demo-asset' },
        ],
      });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.json, {
        packageReferences: [
          { packageId: IOU_V2_TEMPLATE.pkg.id, packageName: 'demo-iou', packageVersion: '2.0.0' },
          { packageId: ASSET_TEMPLATE.pkg.id, packageName: 'demo-asset', packageVersion: '1.0.0' },
        ],
        synchronizerId: net.synchronizer.id,
      });
      const forAlice = await post<wire.GetPreferredPackagesResponse>(url('sv'), PREFERRED, { packageVettingRequirements: [{ parties: [alice, bob], packageName: 'demo-iou' }] });
      assert.equal(forAlice.json.packageReferences[0].packageVersion, '1.0.0', 'app-provider, a host of Alice, has 1.0.0 only');
    });

    it('answers FAILED_PRECONDITION (NO_PREFERRED_PACKAGES_FOUND) naming the party when no version fits', async () => {
      const { alice } = net.parties;
      setVetting(net, 'app-provider', 'demo-asset', false);
      const reply = await post(url('app-user'), PREFERRED, { packageVettingRequirements: [{ parties: [alice], packageName: 'demo-asset' }] });
      const error = assertCantonError(reply, 400, 'NO_PREFERRED_PACKAGES_FOUND', FAILED_PRECONDITION);
      assert.equal(
        error.cause,
        `Could not compute valid package preferences. Reason: No synchronizer satisfies the vetting requirements. Discarded synchronizers: List((${net.synchronizer.id},No package with package-name 'demo-asset' is consistently vetted by all hosting participants of party ${alice}.))`,
      );
    });

    it('refuses a party nobody hosts, an unknown package name and an empty request as Canton does', async () => {
      const nobody = `Nobody::1220${'ab'.repeat(32)}`;
      const unknown = await post(url('app-user'), PREFERRED, { packageVettingRequirements: [{ parties: [nobody], packageName: 'demo-iou' }] });
      assert.match(assertCantonError(unknown, 400, 'NO_PREFERRED_PACKAGES_FOUND', FAILED_PRECONDITION).cause, new RegExp(`No package is consistently by all hosting participants of ${nobody}\\.`));
      const name = await post(url('app-user'), PREFERRED, { packageVettingRequirements: [{ parties: [net.parties.bob], packageName: 'no-such-package' }] });
      assertCantonError(name, 404, 'PACKAGE_NAMES_NOT_FOUND', 11);
      const empty = await post(url('app-user'), PREFERRED, { packageVettingRequirements: [] });
      assert.equal(assertCantonError(empty, 400, 'MISSING_FIELD', 8).cause, 'The submitted command is missing a mandatory field: package_vetting_requirements/packageVettingRequirements');
    });
  });

  it('checks each participant’s tokens with its own secret, and takes the ports P, P+1, …', async () => {
    const port = await deadPort();
    net = await startCheckedNetwork({ seed: false, port, auth: { 'app-provider': { secret: 'secret-of-the-provider-0123456789' }, 'app-user': { secret: 'secret-of-the-user-0123456789abcd' }, sv: { secret: 'secret-of-the-sv-0123456789abcdefg' } } }).catch((e: NodeJS.ErrnoException) => {
      // Another process took one of the following ports: nothing this test checks.
      if (e.code === 'EADDRINUSE') return startCheckedNetwork({ seed: false, auth: { 'app-provider': { secret: 'secret-of-the-provider-0123456789' }, 'app-user': { secret: 'secret-of-the-user-0123456789abcd' }, sv: { secret: 'secret-of-the-sv-0123456789abcdefg' } } });
      throw e;
    });
    const ports = net.participants.map((p) => Number(new URL(p.url).port));
    if (ports[0] === port) assert.deepEqual(ports, [port, port + 1, port + 2]);
    const token = await url('app-user').mintToken('demo-admin');
    assert.equal((await get(url('app-user'), '/v2/state/ledger-end', { token })).status, 200);
    assert.equal((await get(url('sv'), '/v2/state/ledger-end', { token })).status, 401, 'another participant’s token is not taken');
  });
});
