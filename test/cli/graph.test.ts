import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { type DemoParticipant } from '../../src/participant/index';
import { startCheckedParticipant } from '../support/specCheck';
import { cli } from './harness';

interface WireUpdate {
  update: { Transaction?: { value: { updateId: string; offset: number; events: Record<string, { choice?: string }>[] } } };
}

describe('cli: graph against the demo participant', () => {
  let participant: DemoParticipant;
  let env: Record<string, string>;
  /** The seeded Iou transfer, found in the update stream (ledger effects), not assumed. */
  let transfer: { updateId: string; offset: number };
  let topologyOffset: number;

  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 42 });
    env = { CANTON_LEDGER_URL: participant.url };
    const r = await cli(['updates', '--shape', 'ledger-effects', '--topology', '--json'], env);
    assert.equal(r.status, 0, r.stderr);
    const updates = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as WireUpdate & { update: { TopologyTransaction?: { value: { offset: number } } } });
    const tx = updates.map((u) => u.update.Transaction?.value).find((t) => t?.events.some((e) => e.ExercisedEvent?.choice === 'Iou_Transfer'));
    assert.ok(tx, 'the seed has an Iou transfer');
    transfer = { updateId: tx.updateId, offset: tx.offset };
    topologyOffset = updates.find((u) => u.update.TopologyTransaction)!.update.TopologyTransaction!.value.offset;
  });
  after(() => participant.close());

  it('prints the transfer as a tree: the exercise, what it created, and each contract’s state', async () => {
    const r = await cli(['graph', String(transfer.offset)], env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^Transaction ${transfer.updateId} at offset ${transfer.offset}`));
    assert.match(r.stdout, /^exercise Iou_Transfer on Iou:Iou by Alice::/m);
    assert.match(r.stdout, /^└─ create Iou:Iou signed by Bank::/m);
    assert.match(r.stdout, /^ {2}consumed +Iou:Iou 00[0-9a-f]+$/m);
    assert.match(r.stdout, /^ {2}created +Iou:Iou 00[0-9a-f]+$/m);
    assert.match(r.stdout, /Active contracts: \+1 created, -1 consumed, 0 transient, 0 used/);
    const byId = await cli(['graph', transfer.updateId], env);
    assert.equal(byId.stdout, r.stdout, 'by update id and by offset: the same transaction');
  });

  it('writes DOT that Graphviz renders, with every node and edge', async () => {
    const r = await cli(['graph', transfer.updateId, '--format', 'dot'], env);
    assert.equal(r.status, 0, r.stderr);
    const svg = execFileSync('dot', ['-Tsvg'], { input: r.stdout, encoding: 'utf8' });
    assert.equal((svg.match(/class="node"/g) ?? []).length, 4);
    assert.equal((svg.match(/class="edge"/g) ?? []).length, 3);
  });

  it('writes Mermaid and JSON, and a lens by party hint', async () => {
    const m = await cli(['graph', transfer.updateId, '--format', 'mermaid', '--lens', 'Bob'], env);
    assert.equal(m.status, 0, m.stderr);
    assert.match(m.stdout, /^flowchart TB$/m);
    assert.match(m.stdout, /-\.->\|consumes\| n0$/m);
    const j = await cli(['graph', transfer.updateId, '--json'], env);
    assert.equal(j.status, 0, j.stderr);
    const g = JSON.parse(j.stdout);
    assert.equal(g.updateId, transfer.updateId);
    assert.deepEqual(g.actions.map((a: { kind: string }) => a.kind), ['exercise', 'create']);
    assert.deepEqual(g.diff.byTemplate.map((t: { created: number; consumed: number }) => [t.created, t.consumed]), [[1, 1]]);
  });

  it('refuses what it cannot draw with the participant’s code, and a bad format as usage', async () => {
    const topology = await cli(['graph', String(topologyOffset)], env);
    assert.equal(topology.status, 1);
    assert.match(topology.stderr, /UPDATE_NOT_FOUND/);
    const unknown = await cli(['graph', '1220' + '0'.repeat(64)], env);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /UPDATE_NOT_FOUND/);
    const format = await cli(['graph', transfer.updateId, '--format', 'png'], env);
    assert.equal(format.status, 2);
    assert.match(format.stderr, /--format must be one of mermaid, dot, text, json/);
  });
});
