import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { type DemoParticipant } from '../../src/participant/index';
import { startCheckedParticipant } from '../support/specCheck';
import { cli } from './harness';
import { requireSpec } from '../support/spec';
import { derive38Spec } from '../support/spec38';

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

  it('--lineage draws where the transferred Iou came from, in every format', async () => {
    const tx = JSON.parse((await cli(['graph', transfer.updateId, '--json'], env)).stdout);
    const created = tx.contracts.find((c: { state: string }) => c.state === 'created').contractId;
    const consumed = tx.contracts.find((c: { state: string }) => c.state === 'consumed').contractId;
    const text = await cli(['graph', '--lineage', created], env);
    assert.equal(text.status, 0, text.stderr);
    const head = /^Lineage of (00[0-9a-f]+): (\d+) contracts, (\d+) transactions, (\d+) requests$/m.exec(text.stdout);
    assert.ok(head, text.stdout);
    assert.equal(head[1], created);
    assert.match(text.stdout, new RegExp(`^ {2}\\* Iou:Iou ${created.slice(0, 8)}… · [^\\n]*\\n {6}from Iou_Transfer on ${consumed.slice(0, 8)}… @${transfer.offset}$`, 'm'));
    const json = JSON.parse((await cli(['graph', '--lineage', created, '--json'], env)).stdout);
    assert.ok(json.links.some((k: { parent: string; child: string }) => k.parent === consumed && k.child === created));
    // A lineage is a tree: one parent per contract but the oldest.
    assert.equal(json.links.length, json.contracts.length - 1);
    assert.ok(json.requests <= 2 * Number(head[3]) + 1, `${json.requests} requests for ${head[3]} transactions`);
    const dot = await cli(['graph', '--lineage', created, '--format', 'dot'], env);
    const svg = execFileSync('dot', ['-Tsvg'], { input: dot.stdout, encoding: 'utf8' });
    assert.equal((svg.match(/class="node"/g) ?? []).length, json.contracts.length);
    assert.equal((svg.match(/class="edge"/g) ?? []).length, json.links.length);
  });

  it('--diff over the whole ledger agrees with the active contract set', async () => {
    const end = participant.state.ledgerEnd;
    const d = await cli(['graph', '--diff', `1..${end}`, '--json'], env);
    assert.equal(d.status, 0, d.stderr);
    const diff = JSON.parse(d.stdout);
    const acs = (await cli(['acs', '--json'], env)).stdout.trim().split('\n').map((l) => JSON.parse(l));
    const active = new Set(acs.map((c: { contractId: string }) => c.contractId));
    const added = diff.templates.flatMap((t: { added: string[] }) => t.added);
    assert.deepEqual(new Set(added), active, 'from the ledger start, what was added is exactly what is active');
    assert.ok(diff.templates.every((t: { removed: string[] }) => t.removed.length === 0), 'nothing existed before the start');
    const text = await cli(['graph', '--diff', `1..${end}`], env);
    assert.match(text.stdout, new RegExp(`^Active contracts over offsets 1..${end}: \\d+ transactions$`, 'm'));
    // Nothing removed reads as 0, never a signed zero.
    assert.match(text.stdout, /^ {2}#demo-iou:Iou:Iou {2}\+\d+ 0(\s|$)/m);
    const bad = await cli(['graph', '--diff', `1..${end}`, '--format', 'dot'], env);
    assert.equal(bad.status, 2);
  });
});

describe('cli: graph --lineage where the participant filters updates by contract id (3.8)', function () {
  this.timeout(60_000);
  let participant: DemoParticipant | undefined;
  after(() => participant?.close());

  it('reads one request per hop (the participant\'s own description declares the filter)', async function () {
    requireSpec(this, 'main-3.6');
    participant = await startCheckedParticipant({ port: 0, seed: 42, apiVersion: '3.8', openapi: { text: derive38Spec({ scopes: false }).text } });
    const env = { CANTON_LEDGER_URL: participant.url };
    const updates = (await cli(['updates', '--shape', 'ledger-effects', '--json'], env)).stdout.trim().split('\n').map((l) => JSON.parse(l) as WireUpdate);
    const tx = updates.map((u) => u.update.Transaction?.value).find((t) => t?.events.some((e) => e.ExercisedEvent?.choice === 'Iou_Transfer'))!;
    const created = JSON.parse((await cli(['graph', tx.updateId, '--json'], env)).stdout).contracts.find((c: { state: string }) => c.state === 'created').contractId;
    const r = await cli(['graph', '--lineage', created, '--json'], env);
    assert.equal(r.status, 0, r.stderr);
    const json = JSON.parse(r.stdout) as { contracts: { state: string }[]; requests: number };
    // One read per contract, and the events of each active one (still active, or archived out of sight?);
    // without the filter: its events and a transaction per contract.
    const active = json.contracts.filter((c) => c.state === 'active').length;
    assert.ok(json.contracts.length >= 2 && active >= 1);
    assert.equal(json.requests, json.contracts.length + active, r.stdout);
    assert.ok(json.requests < 2 * json.contracts.length);
  });
});
