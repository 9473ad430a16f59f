// The graph of a prepared transaction: from the demo participant's prepare, decoded by the preview's
// decoder, and by hand for what the demo does not produce (fetches, rollbacks).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { LedgerClient } from '../../../src/core/api/client';
import { partyLens } from '../../../src/core/graph/lens';
import { previewGraph } from '../../../src/core/graph/preview';
import { toDot } from '../../../src/core/graph/export';
import { execFileSync } from 'node:child_process';
import type * as wire from '../../../src/core/models/wire';
import { decodePreparedTransaction } from '../../../src/core/preview';
import type { PreparedPreview, PreviewNode } from '../../../src/core/preview/model';
import { prepareRequestOf } from '../../../src/core/submit/submission';
import type { DemoParticipant } from '../../../src/participant';
import { startCheckedParticipant } from '../../support/specCheck';

const IOU = '#demo-iou:Iou:Iou';

function node(kind: PreviewNode['kind'], o: Partial<PreviewNode> = {}): PreviewNode {
  return { nodeId: '0', kind, signatories: [], stakeholders: [], actingParties: [], choiceObservers: [], informees: [], children: [], ...o };
}

describe('transaction graph: a preview (prepared transaction)', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let client: LedgerClient;
  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 21 });
    client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
  });
  after(() => p.close());

  it('draws a prepared transfer: the input Iou consumed, the new one created, its stakeholders known for the lens', async () => {
    const { bank, alice, bob } = p.parties;
    const created = await client.submitAndWaitForTransaction({ commands: { commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '5', observers: [] } } }], commandId: `g-${randomUUID()}`, actAs: [bank] } });
    const iou = created.transaction.events.find((e) => e.kind === 'created')!.contractId;
    const command: wire.Command = { ExerciseCommand: { templateId: IOU, contractId: iou, choice: 'Iou_Transfer', choiceArgument: { newOwner: bob } } };
    const { raw } = await client.prepare(prepareRequestOf({ commands: [command], commandId: `g-${randomUUID()}`, actAs: [alice] }));
    const g = previewGraph(decodePreparedTransaction(raw.preparedTransaction));
    const kinds = [...g.actions.values()].map((a) => a.kind);
    assert.deepEqual(kinds, ['exercise', 'create']);
    assert.equal(g.contracts.get(iou)?.state, 'consumed');
    assert.equal([...g.contracts.values()].filter((c) => c.state === 'created').length, 1);
    // The input's stakeholders came with the prepared transaction: Bank, its signatory, sees the exercise as a stakeholder.
    assert.deepEqual(g.contracts.get(iou)?.signatories, [bank]);
    assert.equal(partyLens(g, bank).actions.get(0), 'stakeholder');
    assert.equal(partyLens(g, alice).actions.get(0), 'actor');
  });

  it('draws fetches and rollbacks, and what a rollback holds changes no contract', () => {
    const preview: PreparedPreview = {
      transactionVersion: '2.1',
      actAs: ['A::1'],
      commandId: 'c',
      synchronizerId: 's',
      transactionUuid: 'u',
      inputContracts: [{ contractId: '00in', packageName: 'p', templateId: 'pkg:M:T', signatories: ['A::1'], stakeholders: ['A::1', 'B::1'] }],
      roots: [
        node('exercise', {
          contractId: '00in',
          templateId: 'pkg:M:T',
          choice: 'Go',
          consuming: false,
          actingParties: ['A::1'],
          informees: ['A::1'],
          children: [
            node('fetch', { contractId: '00in', templateId: 'pkg:M:T', actingParties: ['A::1'], informees: ['A::1'] }),
            node('rollback', { children: [node('exercise', { contractId: '00in', templateId: 'pkg:M:T', choice: 'Archive', consuming: true, actingParties: ['A::1'], informees: ['A::1'] }), node('create', { contractId: '00gone', templateId: 'pkg:M:T', signatories: ['A::1'], stakeholders: ['A::1'], informees: ['A::1'] })] }),
            node('create', { contractId: '00new', templateId: 'pkg:M:T', signatories: ['A::1'], stakeholders: ['A::1', 'B::1'], informees: ['A::1', 'B::1'] }),
          ],
        }),
      ],
    };
    const g = previewGraph(preview);
    assert.deepEqual([...g.actions.values()].map((a) => `${a.nodeId}:${a.kind}@${a.parent ?? '-'}`), ['0:exercise@-', '1:fetch@0', '2:rollback@0', '3:exercise@2', '4:create@2', '5:create@0']);
    assert.equal(g.contracts.get('00in')?.state, 'used', 'the archive inside the rollback was undone');
    assert.ok(!g.contracts.has('') && g.contracts.get('00gone') !== undefined);
    assert.equal(g.contracts.get('00gone')?.state, 'used', 'a create that was rolled back is no new contract');
    assert.equal(g.contracts.get('00new')?.state, 'created');
    assert.deepEqual(g.contracts.get('00in')?.observers, ['B::1']);
    const svg = execFileSync('dot', ['-Tsvg'], { input: toDot(g), encoding: 'utf8' });
    assert.match(svg, /rollback/);
    assert.match(svg, />fetch [^<]*T</);
  });

  it('draws a key lookup: one that found a contract uses it, one that found none touches no contract', () => {
    const key = { value: { _1: 'A::1', _2: 'k' }, maintainers: ['A::1'], hash: 'ab'.repeat(32) };
    const preview: PreparedPreview = {
      transactionVersion: '2.dev',
      actAs: ['A::1'],
      commandId: 'c',
      synchronizerId: 's',
      transactionUuid: 'u',
      inputContracts: [],
      roots: [node('lookup', { templateId: 'pkg:M:T', key, found: ['00found'], exhaustive: true }), node('lookup', { nodeId: '1', templateId: 'pkg:M:T', key, found: [] })],
    };
    const g = previewGraph(preview);
    assert.deepEqual([...g.actions.values()].map((a) => `${a.kind}:${a.contractId}`), ['lookup:00found', 'lookup:']);
    assert.deepEqual([...g.contracts.keys()], ['00found']);
    assert.equal(g.contracts.get('00found')?.state, 'used');
    assert.deepEqual(g.edges, [{ from: 'c0', to: 'n0', kind: 'uses' }]);
    const svg = execFileSync('dot', ['-Tsvg'], { input: toDot(g), encoding: 'utf8' });
    assert.match(svg, />lookup by key M:T</);
    assert.match(svg, />not found</);
  });
});
