import assert from 'node:assert/strict';
import { signedCount } from '../../../src/core/graph/counts';
import { transactionDocument } from '../../../src/core/graph/document';
import { mermaidMarkdown, toText } from '../../../src/core/graph/export';
import { buildTransactionGraph } from '../../../src/core/graph/model';
import { rangeDiffText } from '../../../src/core/graph/rangeDiff';
import { transactionSearchText } from '../../../src/core/graph/search';
import { decodeTransaction } from '../../../src/core/models/updates';
import type * as wire from '../../../src/core/models/wire';

const IOU = '#demo-iou:Iou:Iou';
const ALICE = 'Alice::1220aa';
const BOB = 'Bob::1220bb';
const BANK = 'Bank::1220cc';
const CAROL = 'Carol::1220dd';
const events: wire.Event[] = [
  { ExercisedEvent: { offset: 9, nodeId: 0, lastDescendantNodeId: 1, contractId: '00aa', templateId: IOU, packageName: 'demo-iou', choice: 'Iou_Transfer', choiceArgument: {}, actingParties: [ALICE], consuming: true, witnessParties: [ALICE, BANK] } },
  { CreatedEvent: { offset: 9, nodeId: 1, contractId: '00bb', templateId: IOU, packageName: 'demo-iou', createdAt: 't', createArgument: {}, signatories: [BANK], observers: [BOB], witnessParties: [ALICE, BANK, BOB, CAROL] } },
];
const graph = buildTransactionGraph(decodeTransaction({ updateId: 'u', offset: 9, effectiveAt: 't', recordTime: 't', synchronizerId: 's', commandId: 'c', events }));

describe('graph search', () => {
  const doc = transactionDocument(graph);
  const text = transactionSearchText(doc);
  const boxesNaming = (party: string) => [...text].filter(([, t]) => t.includes(party.split('::')[0].toLowerCase())).map(([id]) => id).sort();
  const contractBox = (contractId: string) => doc.contracts.find((c) => c.contractId === contractId)!.id;

  it('finds a party in every role: Bob, an observer (a stakeholder to the lens), by the create and the new contract', () => {
    assert.deepEqual(boxesNaming(BOB), ['n1', contractBox('00bb')].sort());
  });

  it('finds actors and controllers, signatories, and witnesses that are no stakeholder', () => {
    assert.ok(boxesNaming(ALICE).includes('n0'), 'the actor of the exercise');
    assert.ok(boxesNaming(ALICE).includes(contractBox('00aa')), 'the contract she acted on');
    assert.ok(boxesNaming(BANK).includes(contractBox('00bb')), 'a signatory');
    assert.deepEqual(boxesNaming(CAROL), ['n1', contractBox('00bb')].sort(), 'a witness only');
  });

  it('finds ids, templates and choices, case-insensitively', () => {
    assert.ok(text.get('n0')!.includes('iou_transfer'));
    assert.ok(text.get(contractBox('00bb'))!.includes('00bb'));
  });
});

describe('graph counts and exports', () => {
  it('never prints a signed zero', () => {
    assert.equal(signedCount('+', 3), '+3');
    assert.equal(signedCount('−', 1), '−1');
    assert.equal(signedCount('−', 0), '0');
    assert.equal(signedCount('+', 0), '0');
    const range = rangeDiffText({ beginExclusive: 0, endInclusive: 4, transactions: 2, templates: [{ templateId: IOU, added: ['00a'], removed: [], transient: 0 }, { templateId: '#p:M:T', added: [], removed: ['00b'], transient: 0 }] });
    assert.match(range, /^ {2}#demo-iou:Iou:Iou {2}\+1 0$/m);
    assert.match(range, /^ {2}#p:M:T {2}0 -1$/m);
    assert.doesNotMatch(range, /[-+−]0\b/);
    // A transaction that only creates: "0 consumed".
    const created = buildTransactionGraph(decodeTransaction({ updateId: 'v', offset: 3, effectiveAt: 't', recordTime: 't', synchronizerId: 's', events: [events[1]] }));
    assert.match(toText(created), /\+1 created, 0 consumed/);
  });

  it('Mermaid for Markdown: one mermaid fence around the diagram', () => {
    assert.equal(mermaidMarkdown('flowchart TB\n  a --> b\n'), '```mermaid\nflowchart TB\n  a --> b\n```\n');
    assert.equal(mermaidMarkdown('flowchart TB'), '```mermaid\nflowchart TB\n```\n');
  });
});
