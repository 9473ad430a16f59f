import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { transactionDiff } from '../../../src/core/graph/diff';
import { exportGraph, toDot, toMermaid, toText } from '../../../src/core/graph/export';
import { lensDifference, partyLens } from '../../../src/core/graph/lens';
import { actionsInTreeOrder, buildTransactionGraph } from '../../../src/core/graph/model';
import { decodeTransaction } from '../../../src/core/models/updates';
import type * as wire from '../../../src/core/models/wire';
import { createdEvent, exercisedEvent, generatedTransaction, transactionOf } from '../../support/transactions';

const IOU = '#demo-iou:Iou:Iou';
const TRANSFER = '#demo-iou:Iou:IouTransfer';
const ALICE = 'Alice::1220aa';
const BOB = 'Bob::1220bb';
const BANK = 'Bank::1220cc';

function created(nodeId: number, contractId: string, templateId: string, signatories: string[], observers: string[], witnesses: string[]): wire.Event {
  return createdEvent(nodeId, contractId, { templateId, signatories, observers, witnesses });
}
function exercised(nodeId: number, last: number, contractId: string, choice: string, consuming: boolean, actors: string[], witnesses: string[], templateId = IOU): wire.Event {
  return exercisedEvent(nodeId, last, contractId, { choice, consuming, actors, witnesses, templateId });
}
const tx = transactionOf;

/**
 * Alice transfers an Iou to Bob through an IouTransfer proposal created and accepted in the same
 * transaction (so it is transient), and fetches a second Iou non-consumingly.
 *   0 Exercise Iou_Transfer on #iou (consuming, Alice)        last 3
 *   1   Create IouTransfer #proposal                          (child of 0)
 *   2   Exercise Accept on #proposal (consuming, Bob)         last 3
 *   3     Create Iou #new (Bank, Bob)
 *   4 Exercise Iou_Peek on #other (non-consuming, Alice)      last 4
 */
const TRANSFER_EVENTS: wire.Event[] = [
  exercised(0, 3, '#iou', 'Iou_Transfer', true, [ALICE], [ALICE, BOB]),
  created(1, '#proposal', TRANSFER, [ALICE], [BOB], [ALICE, BOB]),
  exercised(2, 3, '#proposal', 'Accept', true, [BOB], [ALICE, BOB], TRANSFER),
  created(3, '#new', IOU, [BANK], [BOB], [BOB]),
  exercised(4, 4, '#other', 'Iou_Peek', false, [ALICE], [ALICE]),
];

describe('transaction graph: the model', () => {
  it('rebuilds the tree from node ids, whatever order the events come in', () => {
    const shuffled = [TRANSFER_EVENTS[3], TRANSFER_EVENTS[0], TRANSFER_EVENTS[4], TRANSFER_EVENTS[2], TRANSFER_EVENTS[1]];
    const g = buildTransactionGraph(tx(shuffled));
    assert.deepEqual(g.roots, [0, 4]);
    assert.deepEqual(g.actions.get(0)!.children, [1, 2]);
    assert.deepEqual(g.actions.get(2)!.children, [3]);
    assert.equal(g.actions.get(3)!.parent, 2);
    assert.equal(g.actions.get(3)!.depth, 2);
    assert.deepEqual(actionsInTreeOrder(g).map((a) => a.nodeId), [0, 1, 2, 3, 4]);
    // The event index points into the transaction as it came, for "open the JSON at this node".
    assert.equal(g.actions.get(3)!.eventIndex, 0);
    assert.deepEqual(g.problems, []);
    assert.equal(g.ledgerEffects, true);
  });

  it('gives each contract its state in the transaction: consumed, transient, created, used', () => {
    const g = buildTransactionGraph(tx(TRANSFER_EVENTS));
    const state = Object.fromEntries([...g.contracts.values()].map((c) => [c.contractId, c.state]));
    assert.deepEqual(state, { '#iou': 'consumed', '#proposal': 'transient', '#new': 'created', '#other': 'used' });
    const proposal = g.contracts.get('#proposal')!;
    assert.equal(proposal.createdBy, 1);
    assert.equal(proposal.consumedBy, 2);
    assert.deepEqual(proposal.signatories, [ALICE]);
    assert.deepEqual(g.contracts.get('#other')!.usedBy, [4]);
  });

  it('links inputs to the exercises on them and creates to their contracts', () => {
    const g = buildTransactionGraph(tx(TRANSFER_EVENTS));
    const id = (contractId: string) => g.contracts.get(contractId)!.id;
    const edges = g.edges.map((e) => `${e.from} ${e.kind} ${e.to}`).sort();
    assert.deepEqual(
      edges,
      [
        `${id('#iou')} consumes n0`,
        'n0 child n1',
        'n0 child n2',
        `n1 creates ${id('#proposal')}`,
        `${id('#proposal')} consumes n2`,
        'n2 child n3',
        `n3 creates ${id('#new')}`,
        `${id('#other')} uses n4`,
      ].sort(),
    );
  });

  it('reads the ACS-delta shape too: an archive consumes its contract', () => {
    const archived: wire.Event = { ArchivedEvent: { offset: 9, nodeId: 0, contractId: '#iou', templateId: IOU, packageName: 'demo-iou', witnessParties: [ALICE] } };
    const g = buildTransactionGraph(tx([archived, created(3, '#new', IOU, [BANK], [BOB], [BOB])]));
    assert.equal(g.ledgerEffects, false);
    assert.deepEqual(g.roots, [0, 3]);
    assert.equal(g.contracts.get('#iou')!.state, 'consumed');
    assert.match(toText(g), /ACS-delta shape/);
  });

  it('names what does not fit a tree and still builds the rest', () => {
    const g = buildTransactionGraph(tx([...TRANSFER_EVENTS, created(3, '#again', IOU, [BANK], [], [BANK]), exercised(5, 9, '#x', 'C', true, [ALICE], [ALICE])]));
    assert.deepEqual(g.problems, [{ nodeId: 3, problem: 'duplicate-node-id' }]);
    assert.equal(g.actions.size, 6);
  });

  it('counts the ACS change by template', () => {
    const d = transactionDiff(buildTransactionGraph(tx(TRANSFER_EVENTS)));
    assert.deepEqual(d.created.map((c) => c.contractId), ['#new']);
    assert.deepEqual(d.consumed.map((c) => c.contractId), ['#iou']);
    assert.deepEqual(d.transient.map((c) => c.contractId), ['#proposal']);
    assert.deepEqual(d.used.map((c) => c.contractId), ['#other']);
    assert.deepEqual(d.byTemplate, [
      { templateId: IOU, created: 1, consumed: 1, transient: 0 },
      { templateId: TRANSFER, created: 0, consumed: 0, transient: 1 },
    ]);
  });
});

describe('transaction graph: the party lens', () => {
  const g = buildTransactionGraph(tx(TRANSFER_EVENTS));

  it('shows what each party sees and as what, by the rules of Compare Parties', () => {
    const alice = partyLens(g, ALICE);
    assert.deepEqual(Object.fromEntries(alice.actions), { 0: 'actor', 1: 'stakeholder', 2: 'stakeholder', 4: 'actor' });
    const bob = partyLens(g, BOB);
    // Bob is no actor of the transfer, and the Iou's stakeholders are not in this transaction: an informee.
    assert.deepEqual(Object.fromEntries(bob.actions), { 0: 'informee', 1: 'stakeholder', 2: 'actor', 3: 'stakeholder' });
    assert.ok(bob.contracts.has('#new'));
    assert.ok(!bob.contracts.has('#other'));
    const bank = partyLens(g, BANK);
    assert.equal(bank.actions.size, 0);
    assert.ok(bank.contracts.has('#new'), 'a signatory sees its contract even when no event lists it');
  });

  it('sets two parties side by side', () => {
    const d = lensDifference(partyLens(g, ALICE), partyLens(g, BOB));
    assert.deepEqual(d, { onlyFirst: [4], onlySecond: [3], differentRole: [0, 2] });
  });

  it('dims what the party does not see in every drawing', () => {
    const bob = partyLens(g, BOB);
    assert.match(toMermaid(g, { lens: bob }), /^ {2}class n4,c3 unseen$/m);
    assert.match(toDot(g, { lens: bob }), /n4 \[.*color=gray70/);
    assert.match(toText(g, { lens: bob }), /Iou_Peek .*\[Bob::1220bb: not seen\]/);
    const json = JSON.parse(exportGraph(g, 'json', { lens: bob }));
    assert.deepEqual(json.lens.actions, { 0: 'informee', 1: 'stakeholder', 2: 'actor', 3: 'stakeholder' });
  });
});

/** Graphviz's own parser and layout: the DOT text is valid exactly when `dot` renders it. */
function renderDot(dot: string): string {
  return execFileSync('dot', ['-Tsvg'], { input: dot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

describe('transaction graph: drawings checked by their tools', () => {
  it('DOT of a transfer is rendered by Graphviz with every node and edge', () => {
    const g = buildTransactionGraph(tx(TRANSFER_EVENTS));
    const svg = renderDot(toDot(g));
    assert.equal((svg.match(/class="node"/g) ?? []).length, g.actions.size + g.contracts.size);
    assert.equal((svg.match(/class="edge"/g) ?? []).length, g.edges.length);
    assert.match(svg, /exercise Iou_Transfer/);
    assert.match(svg, /transient/);
  });

  it('DOT keeps quotes and backslashes in names as text', () => {
    const g = buildTransactionGraph(tx([exercised(0, 0, '#x', 'Say"hi"\\now', false, ['Odd"Party::1220'], ['Odd"Party::1220'])]));
    const svg = renderDot(toDot(g));
    assert.match(svg, /Say&quot;hi&quot;\\now/);
  });

  it('Mermaid labels keep quotes, angle brackets and hashes out of the syntax', () => {
    const g = buildTransactionGraph(tx([exercised(0, 0, '#x', 'A<b>"#', false, [ALICE], [ALICE])]));
    const m = toMermaid(g);
    assert.match(m, /n0\["exercise \(non-consuming\) A#lt;b#gt;#quot;#35;<br\/>/);
    // One declaration per node and one line per edge.
    assert.equal(m.split('\n').filter((l) => /^ {2}[nc]\d+[[(]/.test(l)).length, g.actions.size + g.contracts.size);
  });

  for (const size of [1_000, 5_000]) {
    it(`builds a ${size.toLocaleString('en')}-node transaction into one consistent tree`, () => {
      const g = buildTransactionGraph(decodeTransaction(generatedTransaction(size)));
      assert.equal(g.actions.size, size);
      assert.equal(actionsInTreeOrder(g).length, size);
      const childCount = [...g.actions.values()].reduce((n, a) => n + a.children.length, 0);
      assert.equal(childCount + g.roots.length, size, 'every action is a root or exactly one parent’s child');
      for (const a of g.actions.values()) for (const c of a.children) assert.equal(g.actions.get(c)!.parent, a.nodeId);
      assert.deepEqual(g.problems, []);
    });
  }

  it('DOT of a generated 200-node transaction is laid out by Graphviz', function () {
    this.timeout(60_000);
    const g = buildTransactionGraph(decodeTransaction(generatedTransaction(200)));
    const svg = renderDot(toDot(g));
    assert.equal((svg.match(/class="node"/g) ?? []).length, g.actions.size + g.contracts.size);
    assert.equal((svg.match(/class="edge"/g) ?? []).length, g.edges.length);
  });
});
