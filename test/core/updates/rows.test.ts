// What the ledger views show, as rows: labels, descriptions and the values behind the context actions.
import assert from 'node:assert/strict';
import { decodeContractEvents, contractIdAt, looksLikeContractId } from '../../../src/core/models/contracts';
import { decodeUpdate } from '../../../src/core/models/updates';
import { RequestValidationError } from '../../../src/core/errors';
import { shortParty } from '../../../src/core/models/users';
import { shortId } from '../../../src/core/text';
import { contractEventRows, contractKeyText, synchronizerVettingRow, updateRow, validityWindow, valueRows, withoutRaw } from '../../../src/core/updates/rows';
import { checkViewFilter, defaultViewFilter, filterSummary, pageQueryOf, rangeStartingAt } from '../../../src/core/updates/viewFilter';
import { ALICE, BOB, CID, PKG, SYNC, createdEvent, transaction } from '../../support/wireSamples';

describe('ledger view rows', () => {
  it('a transaction: offset and kind, event counts, its details and events; JSON without raw copies', () => {
    const tx = decodeUpdate({ update: { Transaction: { value: transaction({ commandId: 'cmd-123456789', events: [{ CreatedEvent: createdEvent() }, { ArchivedEvent: { offset: 7, nodeId: 1, contractId: CID, templateId: `${PKG}:Iou:Iou`, witnessParties: [ALICE], packageName: 'demo-iou', implementedInterfaces: [] } }] }) } } });
    const row = updateRow(tx);
    assert.equal(row.label, '7  Transaction');
    assert.match(row.description!, /^1 created, 1 archived · cmd cmd-123456789 · 2025-01-27 15:30:36$/);
    assert.equal(row.kind, 'update.transaction');
    assert.equal(row.offset, 7);
    assert.ok(row.updateId);
    const [details, created, archived] = row.children!();
    assert.deepEqual(details.children!().map((r) => [r.label, r.description]).slice(0, 3), [['Offset', '7'], ['Update ID', row.updateId], ['Command ID', 'cmd-123456789']]);
    assert.equal(created.label, 'Created Iou:Iou');
    assert.equal(created.contractId, CID);
    assert.equal(created.description, shortId(CID));
    assert.equal(archived.label, 'Archived Iou:Iou');
    const json = row.json!.value as Record<string, unknown>;
    assert.equal(json.raw, undefined);
    assert.equal((json.events as Record<string, unknown>[])[0].raw, undefined);
    assert.deepEqual(row.json!.raw, (tx as { raw: unknown }).raw);
  });

  it('two different command ids never look the same in a row: a script\'s runs differ in the middle, UUIDs of one tool at the end', () => {
    const description = (commandId: string) => updateRow(decodeUpdate({ update: { Transaction: { value: transaction({ commandId, events: [{ CreatedEvent: createdEvent() }] }) } } })).description!;
    const cmd = (commandId: string) => /· cmd (\S+) ·/.exec(description(commandId))![1];
    const pairs = [
      ['ledger-script-1a2b3c4d-step-1', 'ledger-script-9f8e7d6c-step-1'],
      ['ledger-script-1a2b3c4d-step-1', 'ledger-script-1a2b3c4d-step-2'],
      ['3f9c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e5f', '3f9c1d2e-4b5a-4c6d-8e7f-9a8b7c6d5e4f'],
      ['submit-from-ci-pipeline-run-000001', 'submit-from-ci-pipeline-run-000002'],
    ];
    for (const [a, b] of pairs) assert.notEqual(cmd(a), cmd(b), `${a} / ${b}`);
    assert.ok(cmd('3f9c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e5f').length < 36, 'a long id is shortened');
  });

  it('a created event: template, contract, parties (expandable when several) and arguments as a tree', () => {
    const tx = decodeUpdate({ update: { Transaction: { value: transaction({ events: [{ CreatedEvent: createdEvent({ signatories: [ALICE, BOB] }) }] }) } } });
    const created = updateRow(tx).children!()[1];
    const rows = created.children!();
    const byLabel = (l: string) => rows.find((r) => r.label === l)!;
    assert.equal(byLabel('Template').copyValue, `${PKG}:Iou:Iou`);
    assert.equal(byLabel('Signatories').kind, 'group');
    assert.deepEqual(byLabel('Signatories').children!().map((r) => r.copyValue), [ALICE, BOB]);
    assert.equal(byLabel('Observers').description, '—');
    const args = byLabel('Arguments').children!();
    assert.deepEqual(args.map((a) => a.label), ['issuer', 'owner', 'currency', 'amount', 'observers']);
    assert.equal(args.find((a) => a.label === 'observers')!.description, '[0]');
    assert.equal(args.find((a) => a.label === 'issuer')!.copyValue, ALICE);
  });

  it('a created event with a contract key (Daml-LF 2.3): the key on the row, in its tooltip, and as a group with its hash', () => {
    const key = { _1: ALICE, _2: 'car-1' };
    const tx = decodeUpdate({
      update: { Transaction: { value: transaction({ events: [{ CreatedEvent: createdEvent({ templateId: `${PKG}:Asset:Asset`, contractKey: key, contractKeyHash: 'a2V5LWhhc2g=' }) }] }) } },
    });
    const created = updateRow(tx).children!()[1];
    assert.equal(created.description, `${shortId(CID)} · key (${shortParty(ALICE)}, car-1)`);
    assert.match(created.tooltip!, new RegExp(`Key \`${JSON.stringify(key).replace(/[{}]/g, '\\$&')}\``));
    const group = created.children!().find((r) => r.label === 'Contract key')!;
    assert.equal(group.description, `(${shortParty(ALICE)}, car-1)`);
    assert.equal(group.copyValue, JSON.stringify(key));
    assert.deepEqual(group.children!().map((r) => [r.label, r.copyValue]), [['_1', ALICE], ['_2', 'car-1'], ['Key hash', 'a2V5LWhhc2g=']]);
    // Without a key: nothing about keys.
    const plain = updateRow(decodeUpdate({ update: { Transaction: { value: transaction({ events: [{ CreatedEvent: createdEvent() }] }) } } })).children!()[1];
    assert.equal(plain.description, shortId(CID));
    assert.doesNotMatch(plain.tooltip!, /Key/);
    assert.equal(plain.children!().find((r) => r.label === 'Contract key'), undefined);
  });

  it('contract keys on one line: tuples, records, parties short, long keys cut', () => {
    assert.equal(contractKeyText({ _1: ALICE, _2: 'car-1' }), `(${shortParty(ALICE)}, car-1)`);
    assert.equal(contractKeyText({ owner: BOB, ids: ['a', 'b'], n: '3' }), `{owner: ${shortParty(BOB)}, ids: [a, b], n: 3}`);
    assert.equal(contractKeyText('plain'), 'plain');
    const long = contractKeyText({ text: 'x'.repeat(100) }, 20);
    assert.equal(long.length, 20);
    assert.ok(long.endsWith('…'));
  });

  it('a created event with interface views: each view by interface, its value, or the error computing it', () => {
    const views = [
      { interfaceId: `${PKG}:Holding:Holding`, viewStatus: { code: 0, message: '' }, viewValue: { owner: ALICE, amount: '5.0' } },
      { interfaceId: `${PKG}:Lockable:Lockable`, viewStatus: { code: 9, message: 'view failed' }, viewValue: null },
    ];
    const tx = decodeUpdate({ update: { Transaction: { value: transaction({ events: [{ CreatedEvent: createdEvent({ interfaceViews: views }) }] }) } } });
    const group = updateRow(tx).children!()[1].children!().find((r) => r.label === 'Interface views')!;
    assert.equal(group.description, '2');
    const [holding, lockable] = group.children!();
    assert.equal(holding.label, 'Holding:Holding');
    assert.equal(holding.description, undefined);
    assert.deepEqual(holding.children!().map((r) => [r.label, r.description]), [['owner', shortParty(ALICE)], ['amount', '5.0']]);
    assert.equal(lockable.description, 'error 9: view failed');
    const none = updateRow(decodeUpdate({ update: { Transaction: { value: transaction() } } })).children!()[1]?.children?.() ?? [];
    assert.ok(!none.some((r) => r.label === 'Interface views'), 'no group without views');
  });

  it('values: nested records and lists expand; scalars show themselves', () => {
    const rows = valueRows({ a: { b: [1, 'x'] }, n: null });
    assert.equal(rows[0].description, '{1}');
    assert.deepEqual(rows[0].children!()[0].children!().map((r) => [r.label, r.description]), [['[0]', '1'], ['[1]', 'x']]);
    assert.equal(rows[1].description, 'null');
  });

  it('checkpoints, topology transactions, reassignments and unknown variants', () => {
    const cp = updateRow(decodeUpdate({ update: { OffsetCheckpoint: { value: { offset: 9, synchronizerTimes: [{ synchronizerId: SYNC, recordTime: '2025-01-27T15:30:36.430940Z' }] } } } }));
    assert.equal(cp.label, '9  Offset checkpoint');
    assert.equal(cp.children!()[0].description, '2025-01-27T15:30:36.430940Z');
    const topo = updateRow(decodeUpdate({ update: { TopologyTransaction: { value: { updateId: 'u1', offset: 10, synchronizerId: SYNC, recordTime: '2025-01-27T15:30:36Z', events: [{ event: { ParticipantAuthorizationAdded: { value: { partyId: ALICE, participantId: 'PAR::1220ab', participantPermission: 'PARTICIPANT_PERMISSION_SUBMISSION' } } } }] } } } }));
    assert.equal(topo.label, '10  Topology transaction');
    assert.equal(topo.children!()[0].label, 'Participant authorization added');
    const unknown = updateRow(decodeUpdate({ update: { FutureThing: { value: { offset: 11 } } } } as never));
    assert.equal(unknown.kind, 'update.unknown');
    assert.match(unknown.label, /FutureThing/);
  });

  it('a looked-up contract: its create and archive events', () => {
    const c = decodeContractEvents(CID, { created: { createdEvent: createdEvent(), synchronizerId: SYNC }, archived: { archivedEvent: { offset: 9, nodeId: 0, contractId: CID, templateId: `${PKG}:Iou:Iou`, witnessParties: [ALICE], packageName: 'demo-iou', implementedInterfaces: [] }, synchronizerId: SYNC } });
    const rows = contractEventRows(c);
    assert.deepEqual(rows.map((r) => r.label), ['Created Iou:Iou', 'Archived Iou:Iou']);
    assert.ok(rows[0].children!().some((r) => r.label === 'Synchronizer' && r.copyValue === SYNC));
  });

  it('vetted packages per synchronizer: serial, sorted packages, validity windows', () => {
    const row = synchronizerVettingRow({ participantId: 'PAR::1', synchronizerId: SYNC, topologySerial: 4, packages: [
      { packageId: 'b'.repeat(64), packageName: 'demo-iou', packageVersion: '2.0.0', validFromInclusive: '2026-01-01T00:00:00Z' },
      { packageId: 'c'.repeat(64), packageName: 'demo-iou', packageVersion: '1.0.0' },
    ] }, 'global');
    assert.equal(row.label, 'global');
    assert.equal(row.description, 'serial 4 · 2 packages');
    assert.deepEqual(row.children!().map((r) => r.label), ['demo-iou 1.0.0', 'demo-iou 2.0.0']);
    assert.equal(row.children!()[1].packageId, 'b'.repeat(64));
    assert.equal(validityWindow({ packageId: 'x', validUntilExclusive: '2026-02-01T00:00:00Z' }), 'valid until 2026-02-01 00:00:00');
    assert.equal(validityWindow({ packageId: 'x' }), 'valid without limit');
  });

  it('short forms', () => {
    assert.equal(shortId('short'), 'short');
    assert.deepEqual(withoutRaw({ a: 1, raw: { x: 1 }, b: [{ raw: 2, c: 3 }] }), { a: 1, b: [{ c: 3 }] });
  });

  it('contract ids: recognised alone and under a cursor', () => {
    assert.ok(looksLikeContractId(CID));
    assert.ok(!looksLikeContractId('00abc'));
    const line = `  "contractId": "${CID}",`;
    assert.equal(contractIdAt(line, line.indexOf(CID) + 5), CID);
    assert.equal(contractIdAt(line, 2), undefined);
  });
});

describe('Updates view filter', () => {
  it('defaults to any party for admins, else to the parties of the rights', () => {
    const rights = { actAs: [ALICE], readAs: [BOB], executeAs: [], participantAdmin: false, identityProviderAdmin: false, readAsAnyParty: false, executeAsAnyParty: false };
    assert.deepEqual(defaultViewFilter(rights).parties, [ALICE, BOB]);
    assert.equal(defaultViewFilter({ ...rights, participantAdmin: true }).anyParty, true);
  });

  it('refuses what the participant would refuse, naming the field', () => {
    const field = (f: Parameters<typeof checkViewFilter>[0]) => {
      try {
        checkViewFilter(f);
        return undefined;
      } catch (e) {
        assert.ok(e instanceof RequestValidationError);
        return e.field;
      }
    };
    assert.equal(field({}), 'parties');
    assert.equal(field({ anyParty: true, pageSize: 0 }), 'pageSize');
    assert.equal(field({ anyParty: true, beginExclusive: 10, endInclusive: 5 }), 'endInclusive');
    assert.equal(field({ anyParty: true, legacyForm: true, descending: true }), 'descending');
    assert.equal(field({ anyParty: true, pageSize: 1000 }), undefined);
  });

  it('builds the page query (legacy form when asked) and a one-line summary', () => {
    const q = pageQueryOf({ parties: [ALICE], templateIds: ['#demo-iou:Iou:Iou'], descending: true, pageSize: 10 });
    assert.equal(q.pageSize, 10);
    assert.equal(q.descending, true);
    assert.deepEqual(q.selection.filter?.parties, [ALICE]);
    assert.ok(pageQueryOf({ anyParty: true, legacyForm: true }).selection.legacy);
    assert.equal(pageQueryOf({ anyParty: true }).selection.filter?.includeReassignments, true, 'reassignments unless turned off');
    assert.equal(pageQueryOf({ anyParty: true, includeReassignments: false }).selection.filter?.includeReassignments, false);
    assert.equal(filterSummary({ parties: [ALICE], templateIds: ['#demo-iou:Iou:Iou'], descending: true, legacyForm: true }), 'Alice · Iou:Iou · newest first · legacy form (deprecated)');
  });

  it('moves the range to begin at an update: just before it ascending, ending at it newest first, keeping who and what', () => {
    const f = { parties: [ALICE], templateIds: ['#demo-iou:Iou:Iou'], beginExclusive: 3, endInclusive: 40, pageSize: 7 };
    assert.deepEqual(rangeStartingAt(f, 120), { ...f, beginExclusive: 119, endInclusive: undefined });
    assert.deepEqual(rangeStartingAt({ ...f, descending: true }, 120), { ...f, descending: true, beginExclusive: 3, endInclusive: 120 });
    assert.deepEqual(rangeStartingAt({ ...f, descending: true, beginExclusive: 200 }, 120), { ...f, descending: true, beginExclusive: undefined, endInclusive: 120 });
    assert.throws(() => rangeStartingAt(f, 0), RequestValidationError);
    assert.doesNotThrow(() => checkViewFilter(rangeStartingAt(f, 1)));
  });
});
