// A preview beside its committed transaction: prepared on the demo participant, decoded by the preview's
// decoder, then the same (or different) commands submitted and the transaction read back for the graph.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { LedgerClient } from '../../../src/core/api/client';
import { compareWithCommitted, valueDifferences } from '../../../src/core/graph/compare';
import { comparisonCountsText } from '../../../src/core/graph/counts';
import { comparisonDocument } from '../../../src/core/graph/document';
import { buildTransactionGraph, type TransactionGraph } from '../../../src/core/graph/model';
import { previewGraph } from '../../../src/core/graph/preview';
import { readTransactionGraph } from '../../../src/core/graph/read';
import type * as wire from '../../../src/core/models/wire';
import type { Transaction, TransactionEvent } from '../../../src/core/models/updates';
import { decodePreparedTransaction } from '../../../src/core/preview';
import type { PreparedPreview, PreviewNode } from '../../../src/core/preview/model';
import { prepareRequestOf } from '../../../src/core/submit/submission';
import type { DemoParticipant } from '../../../src/participant';
import { startCheckedParticipant } from '../../support/specCheck';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireSpec, SPEC_DIR } from '../../support/spec';

const IOU = '#demo-iou:Iou:Iou';

describe('transaction graph: a preview beside its committed transaction', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let client: LedgerClient;
  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 23 });
    client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
  });
  after(() => p.close());

  async function issue(amount = '5'): Promise<string> {
    const { bank, alice } = p.parties;
    const created = await client.submitAndWaitForTransaction({ commands: { commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount, observers: [] } } }], commandId: `c-${randomUUID()}`, actAs: [bank] } });
    return created.transaction.events.find((e) => e.kind === 'created')!.contractId;
  }

  /** Prepares `previewed`, then submits `committed` (the same commands unless given), and reads both graphs. */
  async function previewThenCommit(previewed: wire.Command[], committed = previewed, alice = p.parties.alice): Promise<{ prepared: TransactionGraph; committed: TransactionGraph }> {
    const { raw } = await client.prepare(prepareRequestOf({ commands: previewed, commandId: `c-${randomUUID()}`, actAs: [alice] }));
    const prepared = previewGraph(decodePreparedTransaction(raw.preparedTransaction));
    const result = await client.submitAndWaitForTransaction({ commands: { commands: committed, commandId: `c-${randomUUID()}`, actAs: [alice] } });
    const read = await readTransactionGraph(client, { updateId: result.transaction.updateId }, { parties: [alice], anyParty: false });
    return { prepared, committed: read };
  }

  it('matches a transfer action by action, its new contract id included, and finds nothing to flag', async () => {
    const iou = await issue();
    const transfer: wire.Command = { ExerciseCommand: { templateId: IOU, contractId: iou, choice: 'Iou_Transfer', choiceArgument: { newOwner: p.parties.bob } } };
    const { prepared, committed } = await previewThenCommit([transfer]);
    const cmp = compareWithCommitted(prepared, committed);
    assert.deepEqual(cmp.differences, []);
    assert.equal(cmp.pairs.length, 2, 'the exercise and the create it made');
    // The created contract's id differs between prepare and commit, and is matched rather than flagged.
    const [[preparedId, committedId]] = [...cmp.createdIds];
    assert.equal(committed.contracts.get(committedId)?.state, 'created');
    assert.equal(prepared.contracts.get(preparedId)?.state, 'created');
    const doc = comparisonDocument(prepared, committed);
    assert.match(doc.text, /did what the preview showed/);
    assert.deepEqual(doc.pairs, cmp.pairs.map(([a, b]) => [`n${a}`, `n${b}`]));
  });

  it('matches a CreateAndExercise: two roots, the exercise on the contract created beside it, both new ids matched', async () => {
    const { bank } = p.parties;
    const command: wire.Command = { CreateAndExerciseCommand: { templateId: IOU, createArguments: { issuer: bank, owner: bank, currency: 'JPY', amount: '7.25', observers: [] }, choice: 'Iou_Transfer', choiceArgument: { newOwner: p.parties.alice } } };
    const { prepared, committed } = await previewThenCommit([command], [command], bank);
    const cmp = compareWithCommitted(prepared, committed);
    assert.deepEqual(cmp.differences, []);
    assert.equal(cmp.pairs.length, 3);
    assert.equal(cmp.createdIds.size, 2);
  });

  it('flags what the committed commands did otherwise: another new owner, in the choice argument and the created contract', async () => {
    const iou = await issue();
    const to = (newOwner: string): wire.Command => ({ ExerciseCommand: { templateId: IOU, contractId: iou, choice: 'Iou_Transfer', choiceArgument: { newOwner } } });
    const { prepared, committed } = await previewThenCommit([to(p.parties.bob)], [to(p.parties.charlie)]);
    const cmp = compareWithCommitted(prepared, committed);
    const flagged = cmp.differences.map((d) => `${d.kind}${d.path ?? ''}`).sort();
    // The Iou's owner is its observer: the new contract's argument and observers differ too.
    assert.deepEqual(flagged, ['argument.newOwner', 'argument.owner', 'observers']);
    const argument = cmp.differences.find((d) => d.path === '.newOwner')!;
    assert.equal(argument.preparedValue, JSON.stringify(p.parties.bob));
    assert.equal(argument.committedValue, JSON.stringify(p.parties.charlie));
    assert.match(comparisonDocument(prepared, committed).text, /argument differs \(preview: exercise Iou_Transfer/);
  });

  it('flags an input contract that is not the one the preview read', async () => {
    const [first, second] = [await issue(), await issue()];
    const transfer = (iou: string): wire.Command => ({ ExerciseCommand: { templateId: IOU, contractId: iou, choice: 'Iou_Transfer', choiceArgument: { newOwner: p.parties.bob } } });
    const { prepared, committed } = await previewThenCommit([transfer(first)], [transfer(second)]);
    const d = compareWithCommitted(prepared, committed).differences.filter((x) => x.kind === 'contract');
    assert.deepEqual(d.map((x) => [x.preparedValue, x.committedValue]), [[first, second]]);
  });
});

// The real request bodies in ../shared/canton-api/examples (Canton's docs: Create, Exercise and
// CreateAndExercise of an Iou of `model-tests`), sent to the demo: its `demo-iou` Iou has the same fields.
// Their parties become the demo's Alice, the Exercise's contract id a live Iou of hers.
describe('transaction graph: the shared example bodies, previewed, committed and compared', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let client: LedgerClient;
  before(async function () {
    requireSpec(this);
    p = await startCheckedParticipant({ port: 0, seed: 29 });
    client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
  });
  after(() => p?.close());

  function body(name: string, contractId?: string): wire.JsCommands {
    const text = readFileSync(join(SPEC_DIR, 'examples', 'submit-and-wait-for-transaction', name), 'utf8')
      .replace(/Alice::1220[0-9a-f]{64}/g, p.parties.alice)
      .replace(/#model-tests:/g, '#demo-iou:')
      .replace(/"00[0-9a-f]{130,}"/g, JSON.stringify(contractId ?? ''));
    const { commands } = JSON.parse(text) as { commands: wire.JsCommands };
    return { ...commands, commandId: `${commands.commandId}-${randomUUID()}`, userId: undefined };
  }

  /** Prepares the body, submits it, reads it back as its submitter: the graphs on both sides. */
  async function both(commands: wire.JsCommands): Promise<{ prepared: TransactionGraph; committed: TransactionGraph }> {
    const { raw } = await client.prepare(prepareRequestOf(commands as never));
    const prepared = previewGraph(decodePreparedTransaction(raw.preparedTransaction));
    const result = await client.submitAndWaitForTransaction({ commands });
    const committed = await readTransactionGraph(client, { updateId: result.transaction.updateId }, { parties: [p.parties.alice], anyParty: false });
    return { prepared, committed };
  }
  const states = (g: TransactionGraph) => [...g.contracts.values()].map((c) => c.state).sort();
  const kinds = (g: TransactionGraph) => [...g.actions.values()].sort((a, b) => a.nodeId - b.nodeId).map((a) => `${a.kind}${a.choice ? ` ${a.choice}` : ''}@${a.depth}`);

  it('req-01 Create: one create, its contract created; the preview agrees', async () => {
    const { prepared, committed } = await both(body('req-01-create.json'));
    assert.deepEqual(kinds(committed), ['create@0']);
    assert.deepEqual(states(committed), ['created']);
    assert.deepEqual(compareWithCommitted(prepared, committed).differences, []);
  });

  it('req-02 Exercise: Iou_Transfer consumes the Iou and creates the transferred one; the preview agrees', async () => {
    const issued = await client.submitAndWaitForTransaction({ commands: body('req-01-create.json') });
    const iou = issued.transaction.events.find((e) => e.kind === 'created')!.contractId;
    const { prepared, committed } = await both(body('req-02-exercise.json', iou));
    assert.deepEqual(kinds(committed), ['exercise Iou_Transfer@0', 'create@1']);
    assert.deepEqual(states(committed), ['consumed', 'created']);
    assert.equal(committed.contracts.get(iou)?.state, 'consumed');
    assert.deepEqual(compareWithCommitted(prepared, committed).differences, []);
  });

  it('req-03 CreateAndExercise: the Iou is transient, the transferred one created; the preview agrees, both new ids matched', async () => {
    const { prepared, committed } = await both(body('req-03-create-and-exercise.json'));
    assert.deepEqual(kinds(committed), ['create@0', 'exercise Iou_Transfer@0', 'create@1']);
    assert.deepEqual(states(committed), ['created', 'transient']);
    const cmp = compareWithCommitted(prepared, committed);
    assert.deepEqual(cmp.differences, []);
    assert.equal(cmp.createdIds.size, 2);
  });
});

// Hand-built graphs for what the demo cannot produce: fetches, rollbacks, actions on one side only.
function tx(events: TransactionEvent[]): Transaction {
  return { kind: 'transaction', updateId: 'u', offset: 7, commandId: 'c', workflowId: '', effectiveAt: '2026-01-01T00:00:00Z', recordTime: '2026-01-01T00:00:00Z', synchronizerId: 's', events } as unknown as Transaction;
}
function exercised(nodeId: number, last: number, choice: string, contractId: string, o: Partial<Extract<TransactionEvent, { kind: 'exercised' }>> = {}): TransactionEvent {
  return { kind: 'exercised', nodeId, lastDescendantNodeId: last, contractId, templateId: 'pkg:M:T', packageName: 'p', choice, consuming: true, actingParties: ['A::1'], witnessParties: ['A::1'], choiceArgument: {}, exerciseResult: null, ...o } as TransactionEvent;
}
function created(nodeId: number, contractId: string, argument: unknown): TransactionEvent {
  return { kind: 'created', nodeId, contractId, templateId: 'pkg:M:T', packageName: 'p', signatories: ['A::1'], observers: [], witnessParties: ['A::1'], createArgument: argument } as unknown as TransactionEvent;
}
function node(kind: PreviewNode['kind'], o: Partial<PreviewNode> = {}): PreviewNode {
  return { nodeId: '0', kind, signatories: ['A::1'], stakeholders: ['A::1'], actingParties: [], choiceObservers: [], informees: ['A::1'], templateId: 'pkg:M:T', packageName: 'p', children: [], ...o };
}
function preview(roots: PreviewNode[]): PreparedPreview {
  return { transactionVersion: '2.1', actAs: ['A::1'], commandId: 'c', synchronizerId: 's', transactionUuid: 'x', inputContracts: [], roots };
}

describe('transaction graph: comparing a preview, by hand', () => {
  it('leaves out fetches and rolled-back actions, which a committed transaction never shows, and counts them', () => {
    const prepared = previewGraph(
      preview([
        node('exercise', {
          contractId: '00in',
          choice: 'Go',
          consuming: true,
          actingParties: ['A::1'],
          choiceArgument: {},
          exerciseResult: '00p-new',
          children: [node('fetch', { contractId: '00in', actingParties: ['A::1'] }), node('rollback', { children: [node('create', { contractId: '00gone', argument: { n: '1' } })] }), node('create', { contractId: '00p-new', argument: { n: '2.0' } })],
        }),
      ]),
    );
    const committed = buildTransactionGraph(tx([exercised(0, 1, 'Go', '00in', { exerciseResult: '00c-new' }), created(1, '00c-new', { n: '2.0000000000' })]));
    const cmp = compareWithCommitted(prepared, committed);
    assert.deepEqual(cmp.differences, [], 'the new id in the result is matched, 2.0 is 2.0000000000');
    assert.deepEqual(cmp.notCompared, { fetches: 1, rolledBack: 2 });
    assert.deepEqual([...cmp.createdIds], [['00p-new', '00c-new']]);
    assert.equal(comparisonDocument(prepared, committed).text.split('\n')[1], '2 actions matched; 1 new contract id matched; not compared (never committed): 1 fetch, 2 rolled-back actions.');
  });

  it('counts in one wording for the report and the legend, singular for one: "1 action matched", "1 fetch", "1 difference"', () => {
    const prepared = previewGraph(preview([node('create', { contractId: '00p-new', argument: { n: '1' } })]));
    const committed = buildTransactionGraph(tx([created(0, '00c-new', { n: '2' })]));
    const doc = comparisonDocument(prepared, committed);
    const lines = doc.text.split('\n');
    assert.equal(lines[1], '1 action matched; 1 new contract id matched.');
    assert.match(lines[2], /^1 difference between the preview and the committed transaction:$/);
    // The legend's words (the webview draws these) are the report's.
    assert.deepEqual(comparisonCountsText({ matchedActions: doc.pairs.length, matchedContractIds: doc.createdIds.length, notCompared: doc.notCompared }), ['1 action matched', '1 new contract id matched']);
    assert.deepEqual(comparisonCountsText({ matchedActions: 2, matchedContractIds: 0, notCompared: { fetches: 1, rolledBack: 1 } }), ['2 actions matched', '0 new contract ids matched', 'not compared (never committed): 1 fetch, 1 rolled-back action']);
    assert.deepEqual(comparisonCountsText({ matchedActions: 3, matchedContractIds: 2, notCompared: { fetches: 2, rolledBack: 0 } }), ['3 actions matched', '2 new contract ids matched', 'not compared (never committed): 2 fetches']);
  });

  it('names an action on one side only and keeps pairing the rest', () => {
    const prepared = previewGraph(preview([node('create', { contractId: '00a', argument: { n: '1' } }), node('create', { contractId: '00b', argument: { n: '2' } })]));
    const committed = buildTransactionGraph(tx([created(0, '00x', { n: '2' }), exercised(1, 1, 'Other', '00in')]));
    const cmp = compareWithCommitted(prepared, committed);
    assert.deepEqual(
      cmp.differences.map((d) => [d.kind, d.prepared, d.committed]),
      [
        ['argument', 0, 0],
        ['only-prepared', 1, undefined],
        ['only-committed', undefined, 1],
      ],
    );
  });
});

describe('transaction graph: value differences', () => {
  it('compares unlabelled records by position, decimals by value, timestamps by instant, contract ids through the matched ids', () => {
    assert.deepEqual(valueDifferences({ '#0': 'x', '#1': '1.50' }, { a: 'x', b: '1.5' }), []);
    assert.deepEqual(valueDifferences({ t: '2026-01-01T00:00:00.000000Z' }, { t: '2026-01-01T00:00:00Z' }), []);
    assert.deepEqual(valueDifferences({ c: '00p' }, { c: '00c' }, new Map([['00p', '00c']])), []);
    assert.deepEqual(valueDifferences({ o: null }, {}), [], 'a None written or left out');
    assert.deepEqual(valueDifferences({ l: ['a', 'b'] }, { l: ['a', 'c'] }), [{ path: '.l[1]', preparedValue: '"b"', committedValue: '"c"' }]);
    assert.deepEqual(valueDifferences({ n: '1.5' }, { n: '1.05' }), [{ path: '.n', preparedValue: '"1.5"', committedValue: '"1.05"' }]);
    assert.equal(valueDifferences({ l: Array.from({ length: 20 }, (_, i) => `${i}`) }, { l: Array.from({ length: 20 }, (_, i) => `${i + 1}`) }).length, 5, 'the first few');
  });
});
