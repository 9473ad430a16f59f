/**
 * Daml interfaces in the demo participant: the catalog's Holding interface (demo-holding), which Iou
 * implements. Interface filters match the contracts of implementing templates, their views are what
 * the instance computes, and unknown interfaces are refused as Canton refuses them.
 */
import assert from 'node:assert/strict';
import type * as wire from '../../src/core/models/wire';
import { HOLDING_INTERFACE_ID, IOU as IOU_TEMPLATE } from '../../src/participant/catalog';
import type { DemoParticipant } from '../../src/participant/index';
import { DARS, requireDarBytes } from '../support/dars';
import {
  ASSET,
  IOU,
  assertCantonError,
  assertSpecValid,
  createIou,
  createdEvents,
  eventFormat,
  post,
  postBytes,
  start,
  submit,
  transactions,
  transactionsFormat,
} from './helpers';

const HOLDING = '#demo-holding:Holding:Holding';

type Updates = wire.JsGetUpdatesResponse[];

function holdings(options: { view?: boolean; blob?: boolean; interfaceId?: string } = {}): wire.CumulativeFilter {
  const value = { interfaceId: options.interfaceId ?? HOLDING, includeInterfaceView: options.view ?? true, includeCreatedEventBlob: options.blob ?? false };
  return { identifierFilter: { InterfaceFilter: { value } } };
}

function template(templateId: string, blob = false): wire.CumulativeFilter {
  return { identifierFilter: { TemplateFilter: { value: { templateId, includeCreatedEventBlob: blob } } } };
}

function events(updates: Updates): wire.Event[] {
  return transactions(updates).flatMap((tx) => tx.events ?? []);
}

function created(updates: Updates): wire.CreatedEvent[] {
  return events(updates).flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent] : []));
}

describe('demo participant: Daml interfaces (the Holding interface Iou implements)', () => {
  let p: DemoParticipant;
  before(async () => {
    p = await start();
  });
  after(() => p.close());

  const updates = (updateFormat: wire.UpdateFormat) => post<Updates>(p, '/v2/updates', { beginExclusive: 0, endInclusive: p.state.ledgerEnd, updateFormat });

  const holdingView = (iou: wire.CreatedEvent) => {
    const argument = iou.createArgument as Record<string, unknown>;
    return { owner: argument.owner, issuer: argument.issuer, instrument: argument.currency, amount: argument.amount };
  };

  it('an interface filter matches the contracts of implementing templates, with the view the instance computes', async () => {
    const reply = await updates(transactionsFormat([p.parties.alice], 'ACS_DELTA', { cumulative: [holdings()] }));
    assert.equal(reply.status, 200, reply.text);
    for (const u of reply.json) assertSpecValid(u, 'JsGetUpdatesResponse');
    const creates = created(reply.json);
    assert.ok(creates.length > 0, 'the seeded Ious Alice holds or issued to her');
    for (const e of creates) {
      assert.match(e.templateId, /:Iou:Iou$/, 'only contracts of templates implementing Holding (no Asset)');
      assert.deepEqual(e.interfaceViews, [
        { interfaceId: HOLDING_INTERFACE_ID, viewStatus: { code: 0, message: '', details: [] }, viewValue: holdingView(e), implementationPackageId: IOU_TEMPLATE.pkg.id },
      ]);
      assert.equal(e.createdEventBlob, '');
      assert.ok(e.createArgument, 'the create argument is always there (3.x)');
    }
    // Numerics in the view are rendered as in the argument: padded to their scale.
    assert.match(String((creates[0].interfaceViews![0].viewValue as { amount: string }).amount), /^\d+\.\d{10}$/);
    const archives = events(reply.json).flatMap((e) => ('ArchivedEvent' in e ? [e.ArchivedEvent] : []));
    assert.ok(archives.length > 0);
    for (const a of archives) assert.deepEqual(a.implementedInterfaces, [HOLDING_INTERFACE_ID]);
  });

  it('without includeInterfaceView the same contracts match, with no views and no implemented interfaces', async () => {
    const withViews = await updates(transactionsFormat([p.parties.alice], 'ACS_DELTA', { cumulative: [holdings()] }));
    const without = await updates(transactionsFormat([p.parties.alice], 'ACS_DELTA', { cumulative: [holdings({ view: false })] }));
    assert.deepEqual(created(without.json).map((e) => e.contractId), created(withViews.json).map((e) => e.contractId));
    for (const e of created(without.json)) assert.deepEqual(e.interfaceViews, []);
    for (const e of events(without.json)) if ('ArchivedEvent' in e) assert.deepEqual(e.ArchivedEvent.implementedInterfaces, []);
  });

  it('a template filter and an interface filter of one party add up; each asks for its own blob', async () => {
    const both = await updates(transactionsFormat([p.parties.alice], 'ACS_DELTA', { cumulative: [template(ASSET), holdings({ blob: true })] }));
    const creates = created(both.json);
    const assets = creates.filter((e) => e.templateId.endsWith(':Asset:Asset'));
    const ious = creates.filter((e) => e.templateId.endsWith(':Iou:Iou'));
    assert.ok(assets.length > 0 && ious.length > 0, 'contracts of both');
    for (const e of assets) {
      assert.deepEqual(e.interfaceViews, [], 'Asset implements no interface');
      assert.equal(e.createdEventBlob, '', 'its template filter asked for no blob');
    }
    for (const e of ious) {
      assert.equal(e.interfaceViews!.length, 1);
      assert.ok(e.createdEventBlob, 'the interface filter asked for the blob');
    }
    // A wildcard with an interface filter: every contract, and the view on those implementing it.
    const wildcardToo = await updates(transactionsFormat([p.parties.alice], 'ACS_DELTA', { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }, holdings()] }));
    const all = created(wildcardToo.json);
    assert.ok(all.some((e) => e.templateId.endsWith(':Asset:Asset')));
    for (const e of all) assert.equal(e.interfaceViews!.length, e.templateId.endsWith(':Iou:Iou') ? 1 : 0);
  });

  it('views only for interface filters of parties that witness the event', async () => {
    const { alice, bank, charlie } = p.parties;
    const [iou] = createdEvents(await submit(p, [bank], [createIou(bank, alice, '7', 'JPY')]));
    // Alice asks for every contract, Charlie (no stakeholder) for Holding views: Alice's contract gets none.
    const format: wire.UpdateFormat = {
      includeTransactions: {
        eventFormat: { filtersByParty: { [alice]: {}, [charlie]: { cumulative: [holdings()] } }, verbose: false },
        transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
      },
    };
    const mine = created((await updates(format)).json).find((e) => e.contractId === iou.contractId)!;
    assert.deepEqual(mine.witnessParties, [alice]);
    assert.deepEqual(mine.interfaceViews, []);
    // A filter for any party applies to every witness.
    const any = created((await updates(transactionsFormat('any', 'ACS_DELTA', { cumulative: [holdings()] }))).json).find((e) => e.contractId === iou.contractId)!;
    assert.deepEqual(any.interfaceViews!.map((v) => v.interfaceId), [HOLDING_INTERFACE_ID]);
  });

  it('ledger effects: a consuming exercise names the matched interfaces, a create in it has the view', async () => {
    const { alice, bank, bob } = p.parties;
    const [iou] = createdEvents(await submit(p, [bank], [createIou(bank, alice, '40', 'GBP')]));
    const transfer = await submit(p, [alice], [{ ExerciseCommand: { templateId: IOU, contractId: iou.contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner: bob } } }]);
    const reply = await post<Updates>(p, '/v2/updates', {
      beginExclusive: transfer.offset - 1,
      endInclusive: transfer.offset,
      updateFormat: transactionsFormat([alice, bob], 'LEDGER_EFFECTS', { cumulative: [holdings()] }),
    });
    const [tx] = transactions(reply.json);
    const exercised = tx.events!.flatMap((e) => ('ExercisedEvent' in e ? [e.ExercisedEvent] : []));
    assert.deepEqual(exercised.map((e) => [e.choice, e.implementedInterfaces, e.interfaceId]), [['Iou_Transfer', [HOLDING_INTERFACE_ID], null]]);
    const [moved] = createdEvents(tx);
    assert.deepEqual(moved.interfaceViews![0].viewValue, { owner: bob, issuer: bank, instrument: 'GBP', amount: '40.0000000000' });
  });

  it('the active contracts and events by contract id honour interface filters', async () => {
    const { alice, bank } = p.parties;
    const [iou] = createdEvents(await submit(p, [bank], [createIou(bank, alice, '3', 'SEK')]));
    const acs = await post<Array<{ contractEntry: { JsActiveContract: { createdEvent: wire.CreatedEvent } } }>>(p, '/v2/state/active-contracts', {
      activeAtOffset: p.state.ledgerEnd,
      eventFormat: eventFormat([alice], { cumulative: [holdings()] }),
    });
    assert.equal(acs.status, 200, acs.text);
    const active = acs.json.map((entry) => entry.contractEntry.JsActiveContract.createdEvent);
    assert.ok(active.some((e) => e.contractId === iou.contractId));
    for (const e of active) {
      assert.match(e.templateId, /:Iou:Iou$/);
      assert.deepEqual(e.interfaceViews!.map((v) => v.viewValue), [holdingView(e)]);
    }
    const byId = await post(p, '/v2/events/events-by-contract-id', { contractId: iou.contractId, eventFormat: eventFormat([alice], { cumulative: [holdings()] }) });
    assert.equal(byId.status, 200, byId.text);
    assert.deepEqual(byId.json.created.createdEvent.interfaceViews[0].viewValue, { owner: alice, issuer: bank, instrument: 'SEK', amount: '3.0000000000' });
    // An Asset does not implement Holding: under this filter it is not visible.
    const asset = [...p.state.contracts.values()].find((c) => c.template.nameKey === 'demo-asset:Asset:Asset' && c.archivedOffset === undefined)!;
    const hidden = await post(p, '/v2/events/events-by-contract-id', { contractId: asset.contractId, eventFormat: eventFormat('any', { cumulative: [holdings()] }) });
    assertCantonError(hidden, 404, 'CONTRACT_EVENTS_NOT_FOUND', 11);
  });

  it('exercises a choice through the interface: the instance runs it, the event names the interface', async () => {
    const { alice, bank, bob } = p.parties;
    const [iou] = createdEvents(await submit(p, [bank], [createIou(bank, alice, '25', 'NOK')]));
    const exercise = (choice: string, choiceArgument: unknown, contractId = iou.contractId): wire.Command => ({ ExerciseCommand: { templateId: HOLDING, contractId, choice, choiceArgument } });
    const SUBMIT = '/v2/commands/submit-and-wait-for-transaction';
    const refusedFor = (actAs: string[], command: wire.Command) => post(p, SUBMIT, { commands: { commands: [command], commandId: `iface-${Math.random()}`, actAs } });

    // Only the view's owner controls Holding_Transfer, not the issuer.
    assertCantonError(await refusedFor([bank], exercise('Holding_Transfer', { newOwner: bob })), 400, 'DAML_AUTHORIZATION_ERROR', 8);
    // Only the interface's choices can be exercised through it.
    const split = await refusedFor([alice], exercise('Iou_Split', { splitAmount: '1' }));
    assert.match(assertCantonError(split, 400, 'COMMAND_PREPROCESSING_FAILED', 8).cause, /Iou_Split/);

    const format = { eventFormat: eventFormat([alice, bob], { cumulative: [holdings()] }), transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' as const };
    const tx = await submit(p, [alice], [exercise('Holding_Transfer', { newOwner: bob })], { format });
    const [exercised] = tx.events!.flatMap((e) => ('ExercisedEvent' in e ? [e.ExercisedEvent] : []));
    const [moved] = createdEvents(tx);
    assert.equal(exercised.templateId, IOU_TEMPLATE.id, 'the template of the contract');
    assert.equal(exercised.interfaceId, HOLDING_INTERFACE_ID, 'the interface that declares the choice');
    assert.deepEqual([exercised.choice, exercised.consuming, exercised.actingParties, exercised.exerciseResult], ['Holding_Transfer', true, [alice], moved.contractId]);
    assert.deepEqual(exercised.implementedInterfaces, [HOLDING_INTERFACE_ID]);
    assert.equal(moved.templateId, IOU_TEMPLATE.id, 'setOwner keeps the template');
    assert.deepEqual(moved.interfaceViews![0].viewValue, { owner: bob, issuer: bank, instrument: 'NOK', amount: '25.0000000000' });
    assertSpecValid(tx, 'JsTransaction');

    // Archive, which every interface has, through the interface: controlled by the signatories.
    const archived = await submit(p, [bank], [exercise('Archive', {}, moved.contractId)], { format: { ...format, eventFormat: eventFormat([bank]) } });
    const [archive] = archived.events!.flatMap((e) => ('ExercisedEvent' in e ? [e.ExercisedEvent] : []));
    assert.deepEqual([archive.choice, archive.interfaceId, archive.actingParties], ['Archive', HOLDING_INTERFACE_ID, [bank]]);
  });

  it('refuses an exercise through an interface the contract does not implement', async () => {
    const asset = [...p.state.contracts.values()].find((c) => c.template.nameKey === 'demo-asset:Asset:Asset' && c.archivedOffset === undefined)!;
    const owner = String(asset.argument.owner);
    const reply = await post(p, '/v2/commands/submit-and-wait', {
      commands: [{ ExerciseCommand: { templateId: HOLDING, contractId: asset.contractId, choice: 'Archive', choiceArgument: {} } }],
      commandId: 'asset-as-holding',
      actAs: [owner],
    });
    const body = assertCantonError(reply, 400, 'CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE', 8);
    assert.deepEqual(body.resources, [['CONTRACT_ID', asset.contractId], ['TEMPLATE_ID', asset.template.id], ['INTERFACE_ID', HOLDING_INTERFACE_ID]]);
  });

  it('refuses unknown interfaces, and templates given as interfaces, with TEMPLATES_OR_INTERFACES_NOT_FOUND', async () => {
    const refused = async (interfaceId: string, code: string) => {
      const reply = await updates(transactionsFormat([p.parties.alice], 'ACS_DELTA', { cumulative: [holdings({ interfaceId })] }));
      assertCantonError(reply, 404, code, 11);
    };
    await refused('#demo-holding:Holding:Nope', 'TEMPLATES_OR_INTERFACES_NOT_FOUND');
    await refused(IOU, 'TEMPLATES_OR_INTERFACES_NOT_FOUND');
    await refused('#no-such-package:Holding:Holding', 'PACKAGE_NAMES_NOT_FOUND');
    // 3.5 takes only the package-name form in filters, for interfaces as for templates.
    const byId = await updates(transactionsFormat([p.parties.alice], 'ACS_DELTA', { cumulative: [holdings({ interfaceId: HOLDING_INTERFACE_ID })] }));
    assert.match(assertCantonError(byId, 400, 'INVALID_ARGUMENT', 8).cause, /packageId/);
  });

  it('3.4 takes the package-id form of an interface, resolved to its package name; an unknown id is refused', async () => {
    const old = await start({ apiVersion: '3.4' });
    try {
      const list = (interfaceId: string) =>
        post<Updates>(old, '/v2/updates', {
          beginExclusive: 0,
          endInclusive: old.state.ledgerEnd,
          updateFormat: transactionsFormat([old.parties.alice], 'ACS_DELTA', { cumulative: [holdings({ interfaceId })] }),
        });
      const byId = await list(HOLDING_INTERFACE_ID);
      const byName = await list(HOLDING);
      assert.equal(byId.status, 200, byId.text);
      assert.deepEqual(byId.json, byName.json);
      const views = created(byId.json).flatMap((e) => e.interfaceViews ?? []);
      assert.ok(views.length > 0);
      for (const view of views) assert.equal('implementationPackageId' in view, false, 'implementationPackageId arrives with 3.5');
      for (const u of byId.json) assertSpecValid(u, 'JsGetUpdatesResponse', '3.4.12');
      assertCantonError(await list(`${'0'.repeat(64)}:Holding:Holding`), 404, 'TEMPLATES_OR_INTERFACES_NOT_FOUND', 11);
      assertCantonError(await list(`${IOU_TEMPLATE.pkg.id}:Holding:Holding`), 404, 'TEMPLATES_OR_INTERFACES_NOT_FOUND', 11);
    } finally {
      await old.close();
    }
  });
});

describe('demo participant: interfaces of packages from DARs (the token standard Holding, implemented by Amulet)', () => {
  const TOKEN_HOLDING = '#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding';
  let p: DemoParticipant;
  let amulet: wire.CreatedEvent;
  before(async function () {
    const dar = requireDarBytes(this, DARS.amulet);
    p = await start();
    const upload = await postBytes(p, '/v2/dars', dar);
    assert.equal(upload.status, 200, upload.text);
    const { bank, alice } = p.parties;
    const createArguments = { dso: bank, owner: alice, amount: { initialAmount: '12.5', createdAt: { number: '1' }, ratePerRound: { rate: '0.01' } } };
    [amulet] = createdEvents(await submit(p, [bank, alice], [{ CreateCommand: { templateId: '#splice-amulet:Splice.Amulet:Amulet', createArguments } }]));
  });
  after(() => p?.close());

  it('matches the contracts of a DAR template by the DAR interface; the view, Daml code the simulator does not run, has a failed status', async () => {
    const reply = await post<Updates>(p, '/v2/updates', {
      beginExclusive: 0,
      endInclusive: p.state.ledgerEnd,
      updateFormat: transactionsFormat([p.parties.alice], 'ACS_DELTA', { cumulative: [holdings({ interfaceId: TOKEN_HOLDING })] }),
    });
    assert.equal(reply.status, 200, reply.text);
    for (const u of reply.json) assertSpecValid(u, 'JsGetUpdatesResponse');
    const creates = created(reply.json);
    assert.deepEqual(creates.map((e) => e.contractId), [amulet.contractId], 'the Amulet only: Iou implements the demo Holding, not this one');
    const [view] = creates[0].interfaceViews!;
    assert.match(view.interfaceId, /^[0-9a-f]{64}:Splice\.Api\.Token\.HoldingV1:Holding$/);
    assert.equal(view.viewStatus.code, 12);
    assert.match(view.viewStatus.message, /does not interpret Daml/);
    assert.equal(view.viewValue, null);
    assert.equal(view.implementationPackageId, '');
  });

  it('archives through the DAR interface: Archive, controlled by the signatories, needs no Daml code', async () => {
    const { bank, alice } = p.parties;
    const format = { eventFormat: eventFormat([alice]), transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' as const };
    const tx = await submit(p, [bank, alice], [{ ExerciseCommand: { templateId: TOKEN_HOLDING, contractId: amulet.contractId, choice: 'Archive', choiceArgument: {} } }], { format });
    const [exercised] = tx.events!.flatMap((e) => ('ExercisedEvent' in e ? [e.ExercisedEvent] : []));
    assert.deepEqual([exercised.choice, exercised.templateId, exercised.actingParties], ['Archive', amulet.templateId, [alice, bank].sort()]);
    assert.match(exercised.interfaceId!, /:Splice\.Api\.Token\.HoldingV1:Holding$/);
  });
});
