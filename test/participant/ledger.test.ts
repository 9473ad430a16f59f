import assert from 'node:assert/strict';
import { IdSource } from '../../src/participant/ids';
import { DemoLedger, newDemoLedgerData } from '../../src/participant/ledger';
import { entryKey, type UpdateRecord } from '../../src/participant/model';
import { seedLedger, seededParties } from '../../src/participant/seed';
import { formatInstant, parseInstant } from '../../src/participant/time';
import { DamlTypes as T } from '../../src/core/daml/model';
import { PackageStore, parseIdentifierRef } from '../../src/participant/packages';
import { checkValue, formatNumeric, parseNumeric } from '../../src/participant/values';
import { post, start, transactionsFormat } from './helpers';

const NOW = new Date('2025-06-01T12:00:00Z');

function seededLedger(seed = 1, synchronizers: 1 | 2 = 1): DemoLedger {
  const ledger = new DemoLedger(newDemoLedgerData(seed, synchronizers), { clock: () => NOW });
  seedLedger(ledger, true);
  return ledger;
}

describe('demo participant: ledger internals', () => {
  it('reads the active contract set at an earlier offset page by page: contracts created after it are not in it', () => {
    const ledger = seededLedger(3);
    const p = seededParties(ledger);
    const at = ledger.ledgerEnd;
    for (let i = 0; i < 50; i++) {
      ledger.execute({ commandId: `later-${i}`, workflowId: '', actAs: [p.bank], readAs: [], commands: [{ kind: 'create', templateId: '#demo-iou:Iou:Iou', ref: parseIdentifierRef('#demo-iou:Iou:Iou')!, createArguments: { issuer: p.bank, owner: p.alice, currency: 'USD', amount: '1', observers: [] } }] });
    }
    const active = [...ledger.contracts.values()].filter((c) => !c.transient && c.createdOffset <= at && (c.archivedOffset === undefined || c.archivedOffset > at));
    const first = ledger.activeContractsAt(at, 0, 2, () => true);
    assert.equal(first.contracts.length, 2);
    const rest = ledger.activeContractsAt(at, first.next!, 1000, () => true);
    assert.deepEqual([...first.contracts, ...rest.contracts].map((c) => c.contractId), active.map((c) => c.contractId));
    assert.equal(rest.next, undefined, 'no further page to read');
    assert.equal(ledger.activeContractsAt(ledger.ledgerEnd, 0, 1000, () => true).contracts.length, active.length + 50);
  });

  it('formats instants like Java (0, 3 or 6 digits) and parses them back', () => {
    assert.equal(formatInstant(0), '1970-01-01T00:00:00Z');
    assert.equal(formatInstant(42), '1970-01-01T00:00:00.000042Z');
    assert.equal(formatInstant(1_737_991_836_430_940), '2025-01-27T15:30:36.430940Z');
    assert.equal(formatInstant(1_737_991_836_430_000), '2025-01-27T15:30:36.430Z');
    assert.equal(parseInstant('2025-01-27T15:30:36.430940Z'), 1_737_991_836_430_940);
    assert.equal(parseInstant('2025-01-27T15:30:36.430940123Z'), 1_737_991_836_430_940);
    assert.equal(parseInstant('2025-01-27T15:30:36+01:00'), undefined);
  });

  it('normalises Daml values: Numerics padded to their scale, Int64 as strings, nested Optionals', () => {
    const types = new PackageStore();
    assert.equal(checkValue(T.numeric(10), '999.99', types), '999.9900000000');
    assert.equal(checkValue(T.numeric(10), 5, types), '5.0000000000');
    assert.equal(checkValue(T.numeric(10), '-0.5', types), '-0.5000000000');
    assert.equal(checkValue(T.numeric(10), '+0.5', types), '0.5000000000');
    assert.equal(checkValue(T.builtin('Int64'), '007', types), '7');
    // Canton's codec: an array at every level of a nested Optional.
    assert.deepEqual(checkValue(T.builtin('Optional', T.builtin('Optional', T.numeric(2))), [['1']], types), [['1.00']]);
    assert.deepEqual(checkValue(T.builtin('Optional', T.builtin('Optional', T.numeric(2))), [[]], types), [[]]);
    assert.throws(() => checkValue(T.builtin('Optional', T.builtin('Optional', T.numeric(2))), null, types), /COMMAND_PREPROCESSING_FAILED/);
    // What Canton ignores passes and is echoed as Canton echoes it; what its validator refuses is refused.
    assert.deepEqual(checkValue(T.builtin('Unit'), { ignored: 1 }, types), {});
    assert.throws(() => checkValue(T.builtin('Party'), '', types), /COMMAND_PREPROCESSING_FAILED: mismatching type: Party/);
    assert.throws(() => checkValue(T.builtin('ContractId', T.builtin('Unit')), '00ab', types), /COMMAND_PREPROCESSING_FAILED/);
    assert.throws(() => checkValue(T.numeric(10), 12345678, types), /COMMAND_PREPROCESSING_FAILED/);
    assert.deepEqual(checkValue(T.builtin('GenMap', T.builtin('Int64'), T.numeric(1)), [['-0', 2]], types), [['0', '2.0']]);
    assert.equal(formatNumeric(parseNumeric('1.5', 10)! - parseNumeric('2', 10)!, 10), '-0.5000000000');
    assert.equal(parseNumeric('1e5', 10), undefined);
    assert.throws(() => checkValue(T.builtin('Int64'), '9223372036854775808', types), /COMMAND_PREPROCESSING_FAILED/);
    assert.throws(() => checkValue(T.builtin('Int64'), 7, types), /COMMAND_PREPROCESSING_FAILED: mismatching type: Int64 and value: 7/);
    assert.throws(() => checkValue(T.builtin('Party'), 'no/slashes', types), /COMMAND_PREPROCESSING_FAILED/);
  });

  it('makes ids in Canton shapes', () => {
    const ids = IdSource.fromSeed(5);
    assert.match(ids.contractId(), /^00[0-9a-f]{64}ca101220[0-9a-f]{64}$/);
    assert.match(ids.updateId(), /^1220[0-9a-f]{64}$/);
    assert.notEqual(IdSource.fromSeed(5).updateId(), IdSource.fromSeed(6).updateId());
    assert.equal(IdSource.fromSeed(5).updateId(), IdSource.fromSeed(5).updateId());
  });

  it('a numeric seed and a fixed clock give the same ledger, byte for byte', async () => {
    const a = await start({ seed: 9, clock: () => NOW });
    const b = await start({ seed: 9, clock: () => NOW });
    try {
      const body = { beginExclusive: 0, endInclusive: a.state.ledgerEnd, updateFormat: transactionsFormat('any', 'LEDGER_EFFECTS') };
      const [ra, rb] = await Promise.all([post(a, '/v2/updates', body), post(b, '/v2/updates', body)]);
      assert.equal(ra.text, rb.text);
      assert.equal(a.participantId, b.participantId);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('seeds parties, users and a few dozen updates with increasing offsets and record times', () => {
    const ledger = seededLedger();
    const parties = seededParties(ledger);
    assert.ok(ledger.parties.has(parties.alice));
    assert.ok(ledger.ledgerEnd >= 24);
    const updates = ledger.entries.filter((e): e is UpdateRecord => e.kind !== 'checkpoint');
    assert.deepEqual(
      updates.map((e) => e.offset),
      updates.map((_, i) => i + 1),
    );
    const times = updates.map((e) => e.recordTime);
    assert.deepEqual(times, [...times].sort((x, y) => x - y));
    assert.ok(times[0] < NOW.getTime() * 1000 - 60 * 60 * 1_000_000, 'backdated');
    assert.ok(ledger.entries.some((e) => e.kind === 'checkpoint'));
  });

  it('bulk-appends consistent synthetic updates', () => {
    const ledger = seededLedger(2, 2);
    const start = ledger.ledgerEnd;
    let notified = 0;
    ledger.on('appended', () => notified++);
    ledger.appendSynthetic(3000, { seed: 11 });
    assert.ok(ledger.ledgerEnd >= start + 3000);
    assert.equal(notified, 1, 'listeners hear about a batch once');
    const kinds = new Set(ledger.entries.slice(-3000).map((e) => (e.kind === 'transaction' ? e.nodes.map((n) => (n.kind === 'exercised' ? n.choice : 'create')).join('+') : e.kind)));
    for (const expected of ['create', 'Iou_Transfer+create', 'Iou_Split+create+create', 'Archive', 'Asset_Rename+create', 'checkpoint', 'reassignment']) {
      assert.ok(kinds.has(expected), `${expected} in ${[...kinds].join(', ')}`);
    }
    // Every contract is archived at most once, and only after it was created.
    for (const c of ledger.contracts.values()) {
      if (c.archivedOffset !== undefined) assert.ok(c.archivedOffset >= c.createdOffset);
    }
    const keys = ledger.entries.map(entryKey);
    assert.deepEqual(keys, [...keys].sort((x, y) => x - y), 'the log stays ordered');
  });

  it('prunes the log and archived contracts, keeps active contracts, and refuses offsets beyond the end', () => {
    const ledger = seededLedger(3);
    const archived = [...ledger.contracts.values()].filter((c) => c.archivedOffset !== undefined && c.archivedOffset <= 12);
    const active = [...ledger.contracts.values()].filter((c) => c.archivedOffset === undefined && c.createdOffset <= 12);
    ledger.prune(12);
    assert.equal(ledger.prunedUpTo, 12);
    assert.ok(ledger.entries.every((e) => e.offset > 12));
    for (const c of archived) assert.equal(ledger.contracts.get(c.contractId), undefined);
    for (const c of active) assert.ok(ledger.activeContract(c.contractId));
    assert.throws(() => ledger.prune(ledger.ledgerEnd + 1), /INVALID_ARGUMENT/);
    assert.equal(ledger.indexAfterKey(0), 0);
  });
});
