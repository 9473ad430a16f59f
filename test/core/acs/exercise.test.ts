// Exercise… on an active contract: who controls the chosen choice (read from its package), which party
// the picker puts first, and which parties the generated ExerciseCommand names. On decoded samples with
// the demo catalog's packages (Iou_Transfer: `controller owner`; Holding_Transfer: `controller (view
// this).owner`) and the Ping package of the shared DARs (Respond: `controller responder`; AbortPing:
// `controller anyone`, a field of its argument).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { LedgerClient, type ActiveContract } from '../../../src/core/api/client';
import { actAsPrompt, actingCandidates, choiceControllers, counterparty, exerciseChoices, exerciseCommand, needsInterfaceView, withInterfaceView } from '../../../src/core/acs/exercise';
import { ActiveContractsPager, activeContractsQueryOf } from '../../../src/core/acs/pager';
import { PackageIndex } from '../../../src/core/daml/packageIndex';
import { CantonApiError } from '../../../src/core/errors';
import { PLACEHOLDER } from '../../../src/core/files/templates';
import { decodeCreatedEvent } from '../../../src/core/models/updates';
import { decodeRights } from '../../../src/core/models/users';
import { CATALOG, HOLDING_INTERFACE_ID } from '../../../src/participant/catalog';
import { DARS, requireDar } from '../../support/dars';
import { startCheckedParticipant } from '../../support/specCheck';
import { ALICE, BOB, PKG, SYNC, createdEvent } from '../../support/wireSamples';

const BANK = 'Bank::1220' + '4'.repeat(64);
const CAROL = 'Carol::1220' + '5'.repeat(64);
const everyone = decodeRights([BANK, ALICE, BOB].map((party) => ({ kind: { CanActAs: { value: { party } } } })));
const contract = (over: Parameters<typeof createdEvent>[0] = {}): ActiveContract => ({ event: decodeCreatedEvent(createdEvent(over)), synchronizerId: SYNC, reassignmentCounter: 0 });

describe('core: Exercise… acts as the choice\'s controller', () => {
  const packages = new PackageIndex(CATALOG.map((x) => x.signature));
  // An Iou as the demo creates it: the issuer signs, the owner observes.
  const iou = contract({ createArgument: { issuer: BANK, owner: ALICE, currency: 'USD', amount: '10.0000000000', observers: [] }, signatories: [BANK], observers: [ALICE] });
  const choice = (c: ActiveContract, name: string, index = packages) => exerciseChoices(c, index)!.find((x) => x.name === name)!;

  it("Iou_Transfer: the owner controls it; the picker puts the owner first, before the signatory and the user's primary party", () => {
    const controllers = choiceControllers(iou, choice(iou, 'Iou_Transfer'));
    assert.deepEqual(controllers, { kind: 'parties', parties: [ALICE], because: "Iou_Transfer is controlled by the contract's owner" });
    const candidates = actingCandidates(iou, everyone, BANK, controllers);
    assert.deepEqual(candidates, [{ party: ALICE, role: 'observer', controller: true }, { party: BANK, role: 'signatory' }]);
    assert.equal(actAsPrompt(candidates, controllers), "Iou_Transfer is controlled by the contract's owner: preselected");
    // A user who may not act as the owner: nobody is marked, and the picker says who the controller is.
    const bankOnly = actingCandidates(iou, decodeRights([{ kind: { CanActAs: { value: { party: BANK } } } }]), undefined, controllers);
    assert.deepEqual(bankOnly, [{ party: BANK, role: 'signatory' }]);
    assert.match(actAsPrompt(bankOnly, controllers), /^Iou_Transfer is controlled by the contract's owner \(Alice::1220.*\), not a party you may act as$/);
  });

  it("Iou_Transfer's file: acts as the owner and transfers to another party, one outside the contract first; else a flagged placeholder", () => {
    const to = counterparty(iou, ALICE, [BANK, ALICE, BOB]);
    assert.equal(to, BOB);
    assert.deepEqual(exerciseCommand(iou, 'Iou_Transfer', packages, ALICE, to), {
      ExerciseCommand: { templateId: '#demo-iou:Iou:Iou', contractId: iou.event.contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner: BOB } },
    });
    assert.equal(counterparty(iou, ALICE, [BANK, ALICE]), BANK, 'a stakeholder when no other party is known');
    assert.equal(counterparty(iou, ALICE, [ALICE]), PLACEHOLDER.party);
  });

  it('Holding_Transfer (an interface choice): the view\'s owner when the event has the view; unknown, and said why, when it has not', () => {
    const withoutView = choiceControllers(iou, choice(iou, 'Holding_Transfer'));
    assert.equal(withoutView.kind, 'unknown');
    assert.match(withoutView.because, /Holding_Transfer is controlled by the interface view's owner, which the contract as loaded does not hold/);
    assert.deepEqual(actingCandidates(iou, everyone, BANK, withoutView).map((x) => x.party), [BANK, ALICE], 'nothing marked: the usual order');
    const viewed = contract({
      ...iou.event.raw,
      interfaceViews: [{ interfaceId: HOLDING_INTERFACE_ID, viewStatus: { code: 0, message: '' }, viewValue: { owner: ALICE, issuer: BANK, instrument: 'USD', amount: '10.0000000000' } }],
    });
    assert.deepEqual(choiceControllers(viewed, choice(viewed, 'Holding_Transfer')), { kind: 'parties', parties: [ALICE], because: "Holding_Transfer is controlled by the interface view's owner" });
  });

  it('Ping (a real package): Respond by the responder field; AbortPing by its argument, which the file fills with the actor', function () {
    const ping = requireDar(this, DARS.ping);
    const index = new PackageIndex(ping.packages);
    const pingContract = contract({
      templateId: `${PKG}:Canton.Internal.Ping:Ping`,
      packageName: 'canton-builtin-admin-workflow-ping',
      createArgument: { id: 'ping-1', initiator: BOB, responder: ALICE },
      signatories: [BOB],
      observers: [ALICE],
    });
    const respond = choiceControllers(pingContract, choice(pingContract, 'Respond', index));
    assert.deepEqual(respond, { kind: 'parties', parties: [ALICE], because: "Respond is controlled by the contract's responder" });
    assert.deepEqual(actingCandidates(pingContract, everyone, BOB, respond).map((x) => x.party), [ALICE, BOB]);

    const abort = choiceControllers(pingContract, choice(pingContract, 'AbortPing', index));
    assert.deepEqual(abort, { kind: 'argument', fields: ['anyone'], parties: [], because: "AbortPing is controlled by the party in the argument's anyone" });
    // Nothing is preselected: the primary party stays first, and the picker says why.
    assert.deepEqual(actingCandidates(pingContract, everyone, BOB, abort), [{ party: BOB, role: 'signatory' }, { party: ALICE, role: 'observer' }]);
    assert.match(actAsPrompt(actingCandidates(pingContract, everyone, BOB, abort), abort), /nothing to preselect/);
    const command = exerciseCommand(pingContract, 'AbortPing', index, BOB, CAROL) as { ExerciseCommand: { choiceArgument: unknown } };
    assert.deepEqual(command.ExerciseCommand.choiceArgument, { anyone: BOB }, 'the field that names the controller holds the actor');
  });

  it('Holding_Transfer on the demo participant: the view the Active Contracts set lacks is read by contract id, and names the owner', async () => {
    const p = await startCheckedParticipant({ port: 0, seed: 23, apiVersion: '3.5' });
    try {
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
      const pager = new ActiveContractsPager(client, activeContractsQueryOf({ anyParty: true, templateIds: ['#demo-iou:Iou:Iou'] }));
      await pager.loadAtLeast(Number.MAX_SAFE_INTEGER);
      const owned = pager.state.contracts.find((c) => (c.event.createArgument as { issuer: string; owner: string }).owner !== (c.event.createArgument as { issuer: string }).issuer)!;
      const owner = (owned.event.createArgument as { owner: string }).owner;
      const transfer = choice(owned, 'Holding_Transfer');
      assert.equal(needsInterfaceView(owned, transfer), true, 'the set was read without views');
      assert.equal(needsInterfaceView(owned, choice(owned, 'Iou_Transfer')), false);
      const viewed = await withInterfaceView(client, owned, transfer, AbortSignal.timeout(10_000));
      assert.equal(needsInterfaceView(viewed, transfer), false);
      assert.deepEqual(choiceControllers(viewed, transfer), { kind: 'parties', parties: [owner], because: "Holding_Transfer is controlled by the interface view's owner" });

      // The file Exercise… writes for Iou_Transfer, acting as the preselected party, is accepted; as the signatory it is not.
      const everyParty = Object.values(p.parties) as string[];
      const send = (actor: string) => {
        const command = exerciseCommand(owned, 'Iou_Transfer', packages, actor, counterparty(owned, actor, everyParty));
        return client.submitAndWaitForTransaction({ commands: { commands: [command as never], commandId: randomUUID(), actAs: [actor], userId: 'demo-admin' } });
      };
      const issuer = (owned.event.createArgument as { issuer: string }).issuer;
      const refused = await send(issuer).catch((e: unknown) => e);
      assert.ok(refused instanceof CantonApiError, String(refused));
      assert.equal(refused.code, 'DAML_AUTHORIZATION_ERROR');
      const preselected = actingCandidates(owned, decodeRights(everyParty.map((party) => ({ kind: { CanActAs: { value: { party } } } }))), issuer, choiceControllers(owned, choice(owned, 'Iou_Transfer')))[0];
      assert.equal(preselected.party, owner);
      const done = await send(preselected.party);
      assert.ok(done.transaction.events.some((e) => e.kind === 'archived' && e.contractId === owned.event.contractId));
    } finally {
      await p.close();
    }
  });

  it('a choice whose package does not say (no controllers expression, a computed set) is unknown: nobody is guessed', () => {
    const archive = choiceControllers(iou, choice(iou, 'Archive'));
    assert.deepEqual(archive, { kind: 'unknown', because: 'the package does not say simply who controls Archive' });
    assert.deepEqual(actingCandidates(iou, everyone, BANK, archive).map((x) => x.party), [BANK, ALICE]);
    assert.match(actAsPrompt([], archive), /nothing to preselect/);
    assert.match(actAsPrompt([], undefined), /not among the packages read/);
  });
});
