// Compare Parties: each party's read against the demo participant, checked with Daml's visibility
// rules applied to the ledger's stored transactions (not with the witnesses the simulator computed),
// and the comparison model on hand-made transactions.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import {
  buildComparison, checkCompareParties, compareParties, comparisonSummaryText, isUniform, parseOffsetRange, partyNames, readAsEachParty, resolvePartyNames, type PartyRead,
} from '../../../src/core/updates/compare';
import { comparisonRows } from '../../../src/core/updates/compareRows';
import { CancelledError, RequestValidationError } from '../../../src/core/errors';
import type { CreatedEvent, ExercisedEvent, Transaction } from '../../../src/core/models/updates';
import type { DemoParticipant } from '../../../src/participant';
import type { TransactionNode, TransactionRecord } from '../../../src/participant/model';
import type { ApiVersion } from '../../../src/participant/versions';
import { parseIdentifierRef } from '../../../src/participant/packages';

const IOU = '#demo-iou:Iou:Iou';
import { assertComparedThroughHolding, HOLDING_INTERFACE } from '../../support/holdingViews';
import { startCheckedParticipant } from '../../support/specCheck';

/** Informees of a node by Daml's rules: stakeholders of a create; of an exercise, its actors plus the stakeholders (consuming) or signatories (non-consuming). */
function informees(n: TransactionNode): string[] {
  if (n.kind === 'created') return [...n.contract.signatories, ...n.contract.observers];
  return [...n.actingParties, ...(n.consuming ? [...n.contract.signatories, ...n.contract.observers] : n.contract.signatories)];
}

/** Whether `party` sees node `n` in ledger-effects shape: an informee of it or of an enclosing exercise. */
function sees(party: string, tx: TransactionRecord, n: TransactionNode): boolean {
  const enclosing = tx.nodes.filter((m) => m.kind === 'exercised' && m.nodeId < n.nodeId && n.nodeId <= m.lastDescendantNodeId);
  return [n, ...enclosing].some((m) => informees(m).includes(party));
}

function transactionsSeenBy(p: DemoParticipant, party: string): TransactionRecord[] {
  return p.state.entries.filter((e): e is TransactionRecord => e.kind === 'transaction' && e.nodes.some((n) => sees(party, e, n)));
}

for (const apiVersion of ['3.5', '3.3'] as ApiVersion[]) {
  describe(`compare parties against the demo participant (${apiVersion})`, function () {
    this.timeout(30_000);
    let p: DemoParticipant;
    let client: LedgerClient;
    before(async () => {
      p = await startCheckedParticipant({ port: 0, seed: 42, apiVersion });
      client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000, pageSize: 4 });
    });
    after(() => p.close());

    it("counts for each party the transactions Daml's rules let it see, and those seen by both", async () => {
      const { alice, bob } = p.parties;
      const c = await compareParties(client, { parties: [alice, bob] });
      assert.equal(c.endInclusive, p.state.ledgerEnd);
      const expectedAlice = transactionsSeenBy(p, alice).map((t) => t.offset);
      const expectedBob = transactionsSeenBy(p, bob).map((t) => t.offset);
      assert.deepEqual(c.updates.filter((u) => u.views[0]).map((u) => u.offset), expectedAlice);
      assert.deepEqual(c.updates.filter((u) => u.views[1]).map((u) => u.offset), expectedBob);
      const both = expectedAlice.filter((o) => expectedBob.includes(o));
      assert.deepEqual(c.summary, { total: new Set([...expectedAlice, ...expectedBob]).size, seenBy: [expectedAlice.length, expectedBob.length], seenByAll: both.length });
      assert.ok(both.length > 0 && both.length < expectedAlice.length && both.length < expectedBob.length, 'the seed has transactions seen by one of them only');
      assert.equal(
        comparisonSummaryText(c),
        `Alice sees ${expectedAlice.length} of ${c.summary.total} transactions; Bob sees ${expectedBob.length}; ${both.length} seen by both`,
      );
    });

    it("flags the create a party only witnesses: the old owner of a transferred Iou sees the new owner's Iou created", async () => {
      const { alice, bob } = p.parties;
      const c = await compareParties(client, { parties: [alice, bob] });
      // Alice transfers her Iou to Bob: the exercise is hers, the new contract is Bob's (and the issuer's).
      const transfer = c.updates.find((u) => u.events.some((e) => e.choice === 'Iou_Transfer' && e.views[0]?.seenAs === 'actor'))!;
      assert.ok(transfer, 'the seed has Alice transferring an Iou');
      const exercise = transfer.events.find((e) => e.kind === 'exercised')!;
      assert.equal(exercise.views[1], undefined, 'Bob is no informee of the exercise on Alice’s Iou');
      const created = transfer.events.find((e) => e.kind === 'created')!;
      assert.equal(created.views[0]?.seenAs, 'witness');
      assert.equal(created.views[1]?.seenAs, 'stakeholder');
      const newOwner = (created.views[1]!.event as CreatedEvent).createArgument as { owner: string };
      assert.equal(newOwner.owner, bob);
      assert.ok(!isUniform(transfer));
      // The command id is shown to the submitter only; Bob's view has none.
      const commandId = transfer.differences.find((d) => d.field === 'commandId');
      assert.ok(commandId && commandId.values[0]?.includes('seed-') && commandId.values[1] === undefined, JSON.stringify(transfer.differences));
      if (apiVersion === '3.5') {
        // From 3.4 the event says whether it belongs to the party's ACS delta: a witness's does not.
        assert.deepEqual(created.differences.find((d) => d.field === 'acsDelta')?.values, ['false', 'true']);
      }
      // Each party's view is what that party's own read returns.
      const own = await client.listUpdates({ beginExclusive: transfer.offset - 1, endInclusive: transfer.offset }, { filter: { parties: [alice], shape: 'ledger-effects' } });
      assert.deepEqual((own.find((u) => u.kind === 'transaction') as Transaction).raw, transfer.views[0]!.raw);
    });

    it('compares through an interface: only contracts implementing it, each party seeing the same views', async () => {
      const { alice, bob } = p.parties;
      const c = await compareParties(client, { parties: [alice, bob], interfaceIds: [HOLDING_INTERFACE] });
      assertComparedThroughHolding(c);
      // The witnessed create of the transfer: both see it, with the view.
      const transfer = c.updates.find((u) => u.events.some((e) => e.choice === 'Iou_Transfer' && e.views[0]?.seenAs === 'actor'))!;
      const created = transfer.events.find((e) => e.kind === 'created')!;
      assert.deepEqual(created.views.map((v) => (v?.event as CreatedEvent).interfaceViews.length), [1, 1]);
    });

    it('reads the same pinned range for every party, even when the ledger grows in between', async () => {
      const { alice, bob, bank } = p.parties;
      const end = p.state.ledgerEnd;
      const r = await readAsEachParty(client, { parties: [alice, bob] }, {
        onProgress: (progress) => {
          // After Alice's read, a new Iou for Bob: not in the range both read.
          if (progress.index === 1 && progress.transactions === 0 && p.state.ledgerEnd === end) {
            p.state.execute({ commandId: `later-${apiVersion}`, workflowId: '', actAs: [bank], readAs: [], commands: [{ kind: 'create', templateId: IOU, ref: parseIdentifierRef(IOU)!, createArguments: { issuer: bank, owner: bob, currency: 'USD', amount: '1', observers: [] } }] });
          }
        },
      });
      assert.equal(r.endInclusive, end);
      assert.ok(p.state.ledgerEnd > end, 'the ledger grew during the read');
      assert.ok(r.reads[1].transactions.every((t) => t.offset <= end));
    });

    it('refuses a range holding more transactions for a party than it keeps, naming the party', async () => {
      await assert.rejects(
        compareParties(client, { parties: [p.parties.alice, p.parties.bob], maxTransactionsPerParty: 3 }),
        (e: RequestValidationError) => e instanceof RequestValidationError && /hold more than 3 transactions for Alice::.*: compare a narrower range$/.test(e.message),
      );
    });

    it('stops reading when aborted, before the first request or in the middle of a read', async () => {
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(compareParties(client, { parties: [p.parties.alice, p.parties.bob] }, { signal: controller.signal }), CancelledError);

      const midway = new AbortController();
      const seen: number[] = [];
      const reading = compareParties(client, { parties: [p.parties.alice, p.parties.bob], pageSize: 2 }, {
        signal: midway.signal,
        onProgress: (progress) => {
          seen.push(progress.index);
          // After Alice's first page: the next page request is not answered, Bob is never read.
          if (progress.transactions > 0) midway.abort();
        },
      });
      await assert.rejects(reading, CancelledError);
      assert.ok(!seen.includes(1), `read as Bob after the abort: ${seen}`);
    });
  });
}

// ---------------------------------------------------------------- the model on its own

const ALICE = 'Alice::1220aa';
const BOB = 'Bob::1220bb';
const CHARLIE = 'Charlie::1220cc';

function created(nodeId: number, contractId: string, signatories: string[], observers: string[], extra: Partial<CreatedEvent> = {}): CreatedEvent {
  return {
    kind: 'created', offset: 5, nodeId, contractId, templateId: 'pkg:M:T', packageName: 'p', createArgument: { n: 1 }, createdAt: 't',
    signatories, observers, witnessParties: [], interfaceViews: [], raw: {} as never, ...extra,
  };
}

function exercised(nodeId: number, contractId: string, actingParties: string[], consuming: boolean, extra: Partial<ExercisedEvent> = {}): ExercisedEvent {
  return {
    kind: 'exercised', offset: 5, nodeId, contractId, templateId: 'pkg:M:T', packageName: 'p', choice: 'C', choiceArgument: {}, actingParties, consuming,
    witnessParties: [], lastDescendantNodeId: nodeId + 1, implementedInterfaces: [], raw: {} as never, ...extra,
  };
}

function tx(offset: number, events: Transaction['events'], extra: Partial<Transaction> = {}): Transaction {
  return { kind: 'transaction', offset, updateId: `u${offset}`, effectiveAt: 't', recordTime: 't', synchronizerId: 's', events, raw: { offset } as never, ...extra };
}

describe('compare parties: the comparison model', () => {
  it('needs two different parties', () => {
    assert.throws(() => checkCompareParties([ALICE]), RequestValidationError);
    assert.throws(() => checkCompareParties([ALICE, ` ${ALICE}`]), RequestValidationError);
    assert.deepEqual(checkCompareParties([ALICE, BOB, ALICE]), [ALICE, BOB]);
  });

  it('counts each party, and those seen by all of three', () => {
    const reads: PartyRead[] = [
      { party: ALICE, transactions: [tx(1, [created(0, 'c1', [ALICE], [])]), tx(2, [created(0, 'c2', [ALICE], [BOB, CHARLIE])])] },
      { party: BOB, transactions: [tx(2, [created(0, 'c2', [ALICE], [BOB, CHARLIE])]), tx(3, [created(0, 'c3', [BOB], [])])] },
      { party: CHARLIE, transactions: [tx(2, [created(0, 'c2', [ALICE], [BOB, CHARLIE])])] },
    ];
    const c = buildComparison([ALICE, BOB, CHARLIE], reads, { beginExclusive: 0, endInclusive: 3 });
    assert.deepEqual(c.summary, { total: 3, seenBy: [2, 2, 1], seenByAll: 1 });
    assert.equal(comparisonSummaryText(c), 'Alice sees 2 of 3 transactions; Bob sees 2; Charlie sees 1; 1 seen by all 3');
    assert.ok(isUniform(c.updates[1]));
    assert.ok(!isUniform(c.updates[0]));
    const rows = comparisonRows(c);
    assert.equal(rows[0].label, comparisonSummaryText(c));
    assert.deepEqual(rows.slice(1).map((r) => r.description), ['Alice ✓ · Bob — · Charlie —', 'Alice ✓ · Bob ✓ · Charlie ✓', 'Alice — · Bob ✓ · Charlie —']);
    assert.equal(rows[2].iconColor, undefined, 'nothing differs in a transaction all see alike');
    assert.deepEqual([rows[1].icon, rows[1].iconColor], ['git-commit', undefined], 'who sees a transaction is in the columns: one seen by Alice alone is not marked');
    assert.equal(rows[0].children!().map((r) => r.description).join(' | '), 'sees 2 of 3 · 1 only Alice sees | sees 2 of 3 · 1 only Bob sees | sees 1 of 3 · 0 only Charlie sees');
  });

  it('names the fields that differ: an interface view for one party only, event counts, the command id', () => {
    const view = { interfaceId: 'pkg:M:I', viewStatus: { code: 0, message: '' }, viewValue: { x: 1 } };
    const reads: PartyRead[] = [
      { party: ALICE, transactions: [tx(4, [exercised(0, 'c1', [ALICE], true), created(1, 'c2', [BOB], [], { interfaceViews: [view] })], { commandId: 'cmd-1' })] },
      { party: BOB, transactions: [tx(4, [created(1, 'c2', [BOB], [])])] },
    ];
    const c = buildComparison([ALICE, BOB], reads, { beginExclusive: 3, endInclusive: 4 });
    const u = c.updates[0];
    assert.deepEqual(u.differences.map((d) => d.field), ['commandId', 'events']);
    assert.deepEqual(u.differences[1].values, ['2', '1']);
    const [exercise, create] = u.events;
    assert.deepEqual(exercise.views.map((v) => v?.seenAs), ['actor', undefined]);
    assert.deepEqual(create.views.map((v) => v?.seenAs), ['witness', 'stakeholder']);
    assert.deepEqual(create.differences.map((d) => d.field), ['interfaceViews']);
    assert.deepEqual(create.differences[0].values, [JSON.stringify([view]), '[]']);

    const row = comparisonRows(c)[1];
    assert.equal(row.description, 'Alice ✓ · Bob ✓ · commandId, events, event views differ');
    assert.equal(row.icon, 'git-compare');
    const children = row.children!();
    assert.deepEqual(children.map((r) => r.label), ['commandId differs', 'events differs', 'Exercised C on M:T', 'Created M:T']);
    const createRow = children[3];
    assert.equal(createRow.description, 'Alice witness · Bob stakeholder · interfaceViews differs');
    assert.ok(createRow.iconColor, 'a differing event is marked');
    assert.deepEqual(createRow.children!().map((r) => `${r.label}: ${r.description}`).slice(1), ['Alice: witness', 'Bob: stakeholder']);
    assert.deepEqual(Object.keys(createRow.json!.value as object), ['Alice', 'Bob']);
  });

  it("tells a stakeholder from a witness of an exercise by the contract's create; without it, by acsDelta, else says informee", () => {
    const reads: PartyRead[] = [
      { party: ALICE, transactions: [tx(1, [created(0, 'known', [ALICE], [BOB])]), tx(2, [exercised(0, 'known', [CHARLIE], true), exercised(2, 'unknown', [CHARLIE], true, { acsDelta: false }), exercised(4, 'unknown2', [CHARLIE], false)])] },
      { party: BOB, transactions: [tx(2, [exercised(0, 'known', [CHARLIE], true), exercised(2, 'unknown', [CHARLIE], true, { acsDelta: true })])] },
    ];
    const c = buildComparison([ALICE, BOB], reads, { beginExclusive: 0, endInclusive: 2 });
    const [known, unknown, unknown2] = c.updates[1].events;
    assert.deepEqual(known.views.map((v) => v?.seenAs), ['stakeholder', 'stakeholder']);
    assert.deepEqual(unknown.views.map((v) => v?.seenAs), ['witness', 'stakeholder']);
    assert.deepEqual(unknown2.views.map((v) => v?.seenAs), ['informee', undefined]);
  });

  it('shows parties by their hint unless two share it', () => {
    assert.deepEqual(partyNames([ALICE, BOB]), ['Alice', 'Bob']);
    const other = 'Alice::1220ffffffffffffffff';
    assert.deepEqual(partyNames([ALICE, other]), [ALICE, 'Alice::1220ffff…']);
  });

  it('says so when no party sees anything in the range', () => {
    const c = buildComparison([ALICE, BOB], [{ party: ALICE, transactions: [] }, { party: BOB, transactions: [] }], { beginExclusive: 10, endInclusive: 20 });
    assert.equal(comparisonSummaryText(c), 'No transactions for Alice, Bob in offsets 11–20');
    assert.equal(comparisonRows(c).length, 1);
  });
});

describe('compare parties: offset ranges as typed', () => {
  it('reads both ends included, and says what is wrong', () => {
    assert.deepEqual(parseOffsetRange('10-42', 50), { beginExclusive: 9, endInclusive: 42 });
    assert.deepEqual(parseOffsetRange(' 3 .. 4 ', 50), { beginExclusive: 2, endInclusive: 4 });
    assert.deepEqual(parseOffsetRange('10\u201342', 50), { beginExclusive: 9, endInclusive: 42 }, 'an en dash, as text editors and docs write ranges');
    assert.deepEqual(parseOffsetRange('7', 50), { beginExclusive: 6, endInclusive: 7 });
    assert.deepEqual(parseOffsetRange('0-5', 50), { problem: 'Offsets start at 1' });
    assert.deepEqual(parseOffsetRange('9-3', 50), { problem: 'The last offset (3) is before the first (9)' });
    assert.deepEqual(parseOffsetRange('1-51', 50), { problem: 'The ledger ends at offset 50' });
    assert.ok('problem' in parseOffsetRange('ten', 50));
  });
});

describe('compare parties: party names as typed', () => {
  const known = ['Alice::1220aa', 'Bob::1220bb', 'Bob::1220cc'];
  it('takes full ids as they are and unique hints as their party; refuses unknown and ambiguous hints', () => {
    assert.deepEqual(resolvePartyNames(['Alice', 'Zed::1220dd'], known), ['Alice::1220aa', 'Zed::1220dd']);
    assert.throws(() => resolvePartyNames(['Carol'], known), (e: RequestValidationError) => e instanceof RequestValidationError && /No known party is called Carol/.test(e.message));
    assert.throws(() => resolvePartyNames(['Bob'], known), (e: RequestValidationError) => /2 known parties are called Bob/.test(e.message));
  });
});
