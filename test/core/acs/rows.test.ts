// The Active Contracts view's rows and its "Exercise…" command, built in the core: against the demo
// participant (groups and counts equal to the ledger's active set, paging, an earlier offset) and on
// decoded samples (labels, the contract's children, what it opens).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { LedgerClient, type ActiveContract } from '../../../src/core/api/client';
import { actingCandidates, canExerciseByKey, exerciseChoices, exerciseCommand } from '../../../src/core/acs/exercise';
import { ActiveContractsPager, activeContractsQueryOf } from '../../../src/core/acs/pager';
import { activeContractRow, activeContractRows, countText, templateGroup } from '../../../src/core/acs/rows';
import { PackageIndex } from '../../../src/core/daml/packageIndex';
import { RequestValidationError } from '../../../src/core/errors';
import { decodeCreatedEvent } from '../../../src/core/models/updates';
import { decodeRights } from '../../../src/core/models/users';
import { validateText } from '../../../src/core/files/validate';
import { commandsFileTemplate, templateText } from '../../../src/core/files/templates';
import type { DemoParticipant } from '../../../src/participant';
import { CATALOG } from '../../../src/participant/catalog';
import { startCheckedParticipant } from '../../support/specCheck';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { requireSpec, specValidator } from '../../support/spec';
import { ALICE, BOB, CID, PKG, SYNC, createdEvent } from '../../support/wireSamples';

const sample = (over: Parameters<typeof createdEvent>[0] = {}): ActiveContract => ({ event: decodeCreatedEvent(createdEvent(over)), synchronizerId: SYNC, reassignmentCounter: 0 });

describe('core: the Active Contracts rows', () => {
  it('groups by package-name:Module:Entity across package versions, sorted, with honest counts', () => {
    const other = 'b'.repeat(64);
    const contracts = [
      sample({ contractId: `00${'1'.repeat(64)}` }),
      sample({ contractId: `00${'2'.repeat(64)}`, templateId: `${other}:Iou:Iou` }),
      sample({ contractId: `00${'3'.repeat(64)}`, templateId: `${PKG}:Asset.Car:Car`, packageName: 'demo-asset' }),
    ];
    assert.equal(templateGroup(contracts[2]), 'demo-asset:Asset.Car:Car');
    const partial = activeContractRows({ contracts, activeAtOffset: 9, complete: false });
    assert.deepEqual(partial.map((r) => [r.label, r.description]), [
      ['demo-asset:Asset.Car:Car', '1+ active'],
      ['demo-iou:Iou:Iou', '2+ active · 2 package versions'],
    ]);
    assert.match(partial[1].tooltip!, /loaded so far; Load more reads the rest/);
    const complete = activeContractRows({ contracts, activeAtOffset: 9, complete: true });
    assert.deepEqual(complete.map((r) => r.description), ['1 active', '2 active · 2 package versions']);
    assert.equal(complete[1].templateId, '#demo-iou:Iou:Iou');
    assert.deepEqual(complete[1].children!().map((r) => r.contractId), [contracts[0].event.contractId, contracts[1].event.contractId]);
    assert.deepEqual(activeContractRows({ contracts: [], complete: true }), []);
    assert.equal(countText(3, false), '3+');
  });

  it('a contract with a key shows it first in its description and in its tooltip; one without shows none', () => {
    const keyed = activeContractRow(sample({ templateId: `${PKG}:Asset:Asset`, contractKey: { _1: ALICE, _2: 'car-1' }, offset: 12 }));
    assert.match(keyed.description!, /^key \(Alice::12201111…, car-1\) · signatories Alice · offset 12$/);
    assert.match(keyed.tooltip!, /Key `\{"_1":"Alice::1220[1]+","_2":"car-1"\}`/);
    const plain = activeContractRow(sample({ offset: 12 }));
    assert.equal(plain.description, 'currency USD, amount 999.9900000000 · signatories Alice · offset 12');
    assert.doesNotMatch(plain.tooltip!, /Key/);
  });

  it('a contract without a key shows its first plain arguments (a party the row names already left out, long text cut)', () => {
    const long = 'x'.repeat(40);
    const row = activeContractRow(sample({ createArgument: { issuer: ALICE, owner: BOB, note: long, active: true, count: '3', more: 'not shown' }, offset: 12 }));
    assert.equal(row.description, `owner Bob, note ${'x'.repeat(23)}…, active true · signatories Alice · offset 12`);
    const nothingPlain = activeContractRow(sample({ createArgument: { issuer: ALICE, items: [1, 2], nested: { a: 1 } }, offset: 12 }));
    assert.equal(nothingPlain.description, 'signatories Alice · offset 12');
  });

  it('a contract: short id, stakeholders and offset; expands to its arguments and details; opens its create event', () => {
    const row = activeContractRow(sample({ signatories: [ALICE], observers: [BOB], offset: 12 }));
    assert.equal(row.kind, 'contract');
    assert.equal(row.contractId, CID);
    assert.equal(row.label, `${CID.slice(0, 10)}…${CID.slice(-4)}`);
    assert.equal(row.description, 'currency USD, amount 999.9900000000 · signatories Alice · observers Bob · offset 12');
    assert.equal(row.offset, 12);
    assert.equal(row.templateId, '#demo-iou:Iou:Iou');
    const children = row.children!();
    assert.deepEqual(children.map((r) => r.label), ['issuer', 'owner', 'currency', 'amount', 'observers', 'Details']);
    assert.equal(children[3].description, '999.9900000000');
    const details = children[5].children!().map((r) => r.label);
    assert.deepEqual(details, ['Template', 'Contract ID', 'Package', 'Created at', 'Offset', 'Signatories', 'Observers', 'Witnesses', 'Synchronizer', 'Reassignment counter']);
    const json = row.json!;
    assert.equal((json.value as { contractId: string }).contractId, CID);
    assert.equal((json.value as { raw?: unknown }).raw, undefined);
    assert.equal((json.raw as { contractId: string }).contractId, CID);
  });

  it('reads the shared view filter: parties, templates, page size; not an offset range', () => {
    const q = activeContractsQueryOf({ parties: [ALICE], templateIds: ['#demo-iou:Iou:Iou'], pageSize: 7, beginExclusive: 3, shape: 'ledger-effects' }, 5);
    assert.deepEqual(q, { filter: { parties: [ALICE], anyParty: undefined, templateIds: ['#demo-iou:Iou:Iou'], interfaceIds: undefined, verbose: true, includeInterfaceViews: undefined }, activeAtOffset: 5, pageSize: 7 });
    assert.equal(activeContractsQueryOf({ anyParty: true, parties: [ALICE] }).filter.parties, undefined);
    assert.throws(() => activeContractsQueryOf({ parties: [] }), RequestValidationError);
  });

  it('acting candidates: stakeholders the user may act as, primary party first, each once', () => {
    const c = sample({ signatories: [ALICE], observers: [BOB, ALICE] });
    const rights = decodeRights([{ kind: { CanActAs: { value: { party: ALICE } } } }, { kind: { CanActAs: { value: { party: BOB } } } }]);
    assert.deepEqual(actingCandidates(c, rights), [{ party: ALICE, role: 'signatory' }, { party: BOB, role: 'observer' }]);
    assert.deepEqual(actingCandidates(c, rights, BOB).map((x) => x.party), [BOB, ALICE]);
    assert.deepEqual(actingCandidates(c, decodeRights([])), []);
    assert.deepEqual(actingCandidates(c, undefined), []);
  });
});

describe('core: Active Contracts against the demo participant', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let client: LedgerClient;
  const packages = new PackageIndex(CATALOG.map((x) => x.signature));
  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 23, apiVersion: '3.5' });
    client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
  });
  after(() => p.close());

  /** The ledger's own count per group at `offset`, for one party (or anyone). */
  function expectedGroups(offset: number, party?: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const c of p.state.contracts.values()) {
      if (c.transient || c.createdOffset > offset || (c.archivedOffset !== undefined && c.archivedOffset <= offset)) continue;
      if (party && !c.stakeholders.includes(party)) continue;
      counts.set(c.template.nameKey, (counts.get(c.template.nameKey) ?? 0) + 1);
    }
    return counts;
  }
  const counted = (rows: ReturnType<typeof activeContractRows>) => new Map(rows.map((r) => [r.label, r.children!().length]));

  it('the first page only, then page by page to the ledger\'s set, counts "N+" until complete', async () => {
    const pager = new ActiveContractsPager(client, activeContractsQueryOf({ anyParty: true, pageSize: 3 }));
    await pager.loadMore();
    assert.equal(pager.state.contracts.length, 3);
    assert.equal(pager.state.activeAtOffset, p.state.ledgerEnd);
    assert.equal(pager.state.complete, false);
    assert.ok(activeContractRows(pager.state).every((r) => r.description!.includes('+ active')));
    while (!pager.state.complete) await pager.loadMore();
    const rows = activeContractRows(pager.state);
    assert.deepEqual(counted(rows), expectedGroups(p.state.ledgerEnd));
    assert.ok(rows.every((r) => !r.description!.includes('+')));
    assert.equal(await pager.loadMore(), 0, 'nothing after the last page');
  });

  it('as one party, at an earlier offset: the ledger\'s set then; new contracts do not join the snapshot', async () => {
    const archived = [...p.state.contracts.values()].find((c) => c.archivedOffset !== undefined && !c.transient && c.stakeholders.includes(p.parties.alice))!;
    const at = archived.archivedOffset! - 1;
    const pager = new ActiveContractsPager(client, activeContractsQueryOf({ parties: [p.parties.alice], pageSize: 2 }, at));
    await pager.loadMore();
    // Written after the first page: not part of the snapshot at `at`.
    await client.submitAndWaitForTransaction({ commands: { commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: p.parties.bank, owner: p.parties.alice, currency: 'USD', amount: '1.0', observers: [] } } }], commandId: randomUUID(), actAs: [p.parties.bank], userId: 'demo-admin' } });
    await pager.loadAtLeast(Number.MAX_SAFE_INTEGER);
    assert.equal(pager.state.activeAtOffset, at);
    assert.ok(pager.contract(archived.contractId), 'archived later, active then');
    assert.deepEqual(counted(activeContractRows(pager.state)), expectedGroups(at, p.parties.alice));
  });

  it('Exercise: the template\'s choices with signatures; the command file validates against the packages and submits', async () => {
    const pager = new ActiveContractsPager(client, activeContractsQueryOf({ anyParty: true, templateIds: ['#demo-iou:Iou:Iou'] }));
    await pager.loadAtLeast(Number.MAX_SAFE_INTEGER);
    const contract = pager.state.contracts.find((c) => c.event.observers.length > 0)!;
    const choices = exerciseChoices(contract, packages)!;
    assert.deepEqual(choices.map((c) => c.name).sort(), ['Archive', 'Holding_Transfer', 'Iou_Split', 'Iou_Transfer']);
    // Iou implements the catalog's Holding interface: its choice is exercised through the interface.
    const holdingTransfer = choices.find((c) => c.name === 'Holding_Transfer')!;
    assert.deepEqual([holdingTransfer.templateId, holdingTransfer.fromInterface, holdingTransfer.signature], ['#demo-holding:Holding:Holding', 'Holding', 'Holding_Transfer → ContractId Holding']);
    const transfer = choices.find((c) => c.name === 'Iou_Transfer')!;
    assert.equal(transfer.signature, 'Iou_Transfer → ContractId Iou');
    assert.equal(transfer.consuming, true);
    assert.equal(exerciseChoices(sample({ templateId: `${PKG}:No:Such`, packageName: 'nothing' }), packages), undefined);

    const owner = String((contract.event.createArgument as { owner: string }).owner);
    const command = exerciseCommand(contract, 'Iou_Transfer', packages, owner);
    assert.deepEqual(command, { ExerciseCommand: { templateId: '#demo-iou:Iou:Iou', contractId: contract.event.contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner: owner } } });
    const file = commandsFileTemplate({ command, actAs: owner, userId: 'demo-admin' });
    const text = templateText(file);
    const problems = validateText('commands', text, { packages: { packages, source: 'in the demo catalog' } }).problems;
    assert.deepEqual(problems.filter((x) => x.severity === 'error'), []);
    const result = await client.submitAndWaitForTransaction({ commands: JSON.parse(text) });
    assert.ok(result.transaction.events.some((e) => e.kind === 'archived' && e.contractId === contract.event.contractId));
    assert.equal(p.state.activeContract(contract.event.contractId), undefined);

    // A choice of the interface: the command names the interface, and the participant runs the instance's choice.
    const other = pager.state.contracts.find((c) => c.event.contractId !== contract.event.contractId && p.state.activeContract(c.event.contractId))!;
    const holder = String((other.event.createArgument as { owner: string }).owner);
    const viaInterface = exerciseCommand(other, 'Holding_Transfer', packages, holder);
    assert.deepEqual(viaInterface, { ExerciseCommand: { templateId: '#demo-holding:Holding:Holding', contractId: other.event.contractId, choice: 'Holding_Transfer', choiceArgument: { newOwner: holder } } });
    const viaInterfaceText = templateText(commandsFileTemplate({ command: viaInterface, actAs: holder, userId: 'demo-admin' }));
    assert.deepEqual(validateText('commands', viaInterfaceText, { packages: { packages, source: 'in the demo catalog' } }).problems.filter((x) => x.severity === 'error'), []);
    const transferred = await client.submitAndWaitForTransaction({ commands: JSON.parse(viaInterfaceText) });
    assert.ok(transferred.transaction.events.some((e) => e.kind === 'archived' && e.contractId === other.event.contractId));

    // Without packages: the choice as typed, its argument to fill in.
    assert.deepEqual(exerciseCommand(contract, 'Whatever', undefined, owner), { ExerciseCommand: { templateId: '#demo-iou:Iou:Iou', contractId: contract.event.contractId, choice: 'Whatever', choiceArgument: {} } });
    // No key, or a choice of an interface: not by key.
    assert.throws(() => exerciseCommand(contract, 'Iou_Transfer', packages, owner, owner, true), (e) => e instanceof RequestValidationError && e.field === 'contractKey');
  });

  it('Exercise by key: a contract with a key gets an ExerciseByKeyCommand with its key, which validates against the packages and submits', async () => {
    const pager = new ActiveContractsPager(client, activeContractsQueryOf({ anyParty: true, templateIds: ['#demo-asset:Asset:Asset'] }));
    await pager.loadAtLeast(Number.MAX_SAFE_INTEGER);
    const asset = pager.state.contracts.find((c) => c.event.contractKey !== undefined)!;
    assert.ok(asset, 'the demo has an asset with a key');
    const rename = exerciseChoices(asset, packages)!.find((c) => c.name === 'Asset_Rename')!;
    assert.ok(canExerciseByKey(asset, rename));
    const owner = String((asset.event.createArgument as { owner: string }).owner);
    const command = exerciseCommand(asset, 'Asset_Rename', packages, owner, owner, true);
    assert.deepEqual(command, { ExerciseByKeyCommand: { templateId: '#demo-asset:Asset:Asset', contractKey: asset.event.contractKey, choice: 'Asset_Rename', choiceArgument: { newDescription: '<Text>' } } });
    // The generated Text is a placeholder, flagged until the user writes one.
    const generated = templateText(commandsFileTemplate({ command, actAs: owner, userId: 'demo-admin' }));
    const flagged = validateText('commands', generated, { packages: { packages, source: 'in the demo catalog' } }).problems.filter((x) => x.severity === 'error');
    assert.deepEqual(flagged.map((x) => [x.path, x.code]), [['/commands/0/ExerciseByKeyCommand/choiceArgument/newDescription', 'placeholder']]);
    const text = generated.replace('"<Text>"', '"renamed by key"');
    assert.deepEqual(validateText('commands', text, { packages: { packages, source: 'in the demo catalog' } }).problems.filter((x) => x.severity === 'error'), []);
    const result = await client.submitAndWaitForTransaction({ commands: JSON.parse(text) });
    assert.ok(result.transaction.events.some((e) => e.kind === 'archived' && e.contractId === asset.event.contractId), 'the contract holding the key was renamed');
    // A key of the wrong shape is caught in the file, at the key.
    const wrong = templateText(commandsFileTemplate({ command: { ExerciseByKeyCommand: { ...(command.ExerciseByKeyCommand as object), contractKey: { _1: owner } } }, actAs: owner, userId: 'demo-admin' }));
    const problems = validateText('commands', wrong, { packages: { packages, source: 'in the demo catalog' } }).problems.filter((x) => x.severity === 'error');
    assert.ok(problems.some((x) => x.path.startsWith('/commands/0/ExerciseByKeyCommand/contractKey')), JSON.stringify(problems));
  });
});

describe('core: in-flight contracts (incomplete reassignments) in the Active Contracts rows', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let proxy: FaultProxy;
  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 7, apiVersion: '3.5' });
    proxy = await startFaultProxy(p.url);
  });
  after(async () => {
    await proxy.close();
    await p.close();
  });

  it('JsIncompleteUnassigned and JsIncompleteAssigned, shaped as the 3.5 spec has them, are decoded as contracts in flight and shown as such, not left out', async function () {
    requireSpec(this, '3.5');
    const page = specValidator('3.5', 'JsGetActiveContractsPageResponse');
    // The demo has no reassignment in progress: its answer's first two entries are made incomplete, as
    // a multi-synchronizer participant sends them (JsContractEntry's other cases in the spec).
    let sent: unknown;
    proxy.add({
      method: 'POST',
      path: '/v2/state/active-contracts-page',
      fault: {
        kind: 'rewrite-json',
        rewrite: (body) => {
          const answer = body as { activeContracts: { contractEntry: { JsActiveContract: { createdEvent: Record<string, unknown>; synchronizerId: string; reassignmentCounter: number } } }[] };
          const [first, second] = answer.activeContracts.map((e) => e.contractEntry.JsActiveContract);
          const event = (c: typeof first) => ({ reassignmentId: '0011', contractId: c.createdEvent.contractId, templateId: c.createdEvent.templateId, packageName: c.createdEvent.packageName, offset: 40, nodeId: 0, witnessParties: c.createdEvent.witnessParties, reassignmentCounter: c.reassignmentCounter + 1 });
          answer.activeContracts[0].contractEntry = { JsIncompleteUnassigned: { createdEvent: first.createdEvent, unassignedEvent: { ...event(first), source: first.synchronizerId, target: 'other-sync::1220ff', submitter: '' } } } as never;
          answer.activeContracts[1].contractEntry = {
            JsIncompleteAssigned: { assignedEvent: { source: 'other-sync::1220ff', target: second.synchronizerId, reassignmentId: '0012', submitter: '', reassignmentCounter: second.reassignmentCounter + 1, createdEvent: second.createdEvent } },
          } as never;
          sent = answer;
          return answer;
        },
      },
      times: 1,
    });
    const client = new LedgerClient({ baseUrl: proxy.url, timeoutMs: 20_000 });
    const { contracts } = await client.pageActiveContracts({ filter: { parties: [p.parties.alice] }, pageSize: 50 });
    assert.deepEqual(page(sent).errors, [], 'the answer is as the spec has it');
    assert.deepEqual(contracts.slice(0, 3).map((c) => c.inFlight), ['unassigned', 'assigned', undefined]);
    const rows = activeContractRows({ contracts, activeAtOffset: 9, complete: true });
    const all = rows.flatMap((r) => r.children!());
    const [unassigned, assigned] = contracts.map((c) => all.find((r) => r.contractId === c.event.contractId)!);
    assert.equal(all.length, contracts.length, 'every contract has its row, in flight or not');
    assert.match(unassigned.description!, /^in flight: unassigned from .+, not yet assigned · /);
    assert.match(assigned.description!, /^in flight: assigned to .+, its unassignment not seen here · /);
    assert.equal(unassigned.icon, 'arrow-swap');
    assert.match(unassigned.tooltip!, /\*\*In flight: unassigned from /);
    const inFlightGroups = rows.filter((r) => / · \d+ in flight/.test(r.description!));
    assert.equal(inFlightGroups.reduce((n, r) => n + Number(/(\d+) in flight/.exec(r.description!)![1]), 0), 2);
  });

  it('a page token refused after an upgrade: the paging restarts and one row says why, above the groups', async () => {
    const client = new LedgerClient({ baseUrl: proxy.url, timeoutMs: 20_000 });
    const pager = new ActiveContractsPager(client, { filter: { parties: [p.parties.alice] }, pageSize: 2 });
    await pager.loadMore();
    const body = JSON.stringify({ code: 'INVALID_ARGUMENT', cause: 'Invalid page token', correlationId: null, traceId: null, context: {}, resources: [], errorCategory: 8, grpcCodeValue: 3, retryInfo: null, definiteAnswer: null });
    proxy.add({ method: 'POST', path: '/v2/state/active-contracts-page', fault: { kind: 'answer', status: 400, contentType: 'application/json', body }, times: 1 });
    await pager.loadMore();
    const rows = activeContractRows(pager.state);
    assert.equal(rows.filter((r) => r.key === 'restarted').length, 1);
    assert.equal(rows[0].key, 'restarted');
    assert.match(rows[0].description!, /^The participant refused the page token .*: read again from the first page at offset \d+, the 2 contracts loaded before dropped\.$/);
  });
});
