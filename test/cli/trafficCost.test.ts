import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DemoParticipant } from '../../src/participant/index';
import { startCheckedParticipant } from '../support/specCheck';
import { cli, writeJson } from './harness';

const IOU = '#demo-iou:Iou:Iou';
const PAID = /^Traffic cost: paid ([\d,]+) bytes$/m;

describe('cli: traffic cost', () => {
  let participant: DemoParticipant;
  let env: Record<string, string>;
  let dir: string;
  let bank: string;
  let alice: string;
  let submitted: { updateId: string; offset: number; paidTrafficCost: number };

  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 11 });
    env = { CANTON_LEDGER_URL: participant.url };
    dir = mkdtempSync(join(tmpdir(), 'cli-traffic-'));
    ({ bank, alice } = participant.parties);
    const file = writeJson(dir, 'pay.commands.json', { commandId: 'cli-traffic-1', actAs: [bank], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '5', observers: [] } } }] });
    const r = await cli(['--json', 'submit', file], env);
    assert.equal(r.status, 0, r.stderr);
    submitted = JSON.parse(r.stdout).transaction;
    assert.equal(typeof submitted.paidTrafficCost, 'number', 'submit --json carries the paid cost');
  });
  after(() => participant.close());

  const grouped = (n: number) => n.toLocaleString('en-US');

  it('submit prints what the transaction paid', async () => {
    const file = writeJson(dir, 'again.commands.json', { commandId: 'cli-traffic-2', actAs: [bank], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'EUR', amount: '5', observers: [] } } }] });
    const r = await cli(['submit', file], env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, PAID);
  });

  it('submit --preview prints the estimate, and --json carries it', async () => {
    const file = writeJson(dir, 'preview.commands.json', { commandId: 'cli-traffic-3', actAs: [bank], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '5', observers: [] } } }] });
    const text = await cli(['submit', file, '--preview'], env);
    assert.equal(text.status, 0, text.stderr);
    // The same payload as the submitted one: the estimate's request is what that transaction paid.
    assert.match(text.stdout, new RegExp(`^Traffic cost: estimated [\\d,]+ bytes \\(confirmation request ${grouped(submitted.paidTrafficCost)} bytes \\+ response [\\d,]+ bytes\\)$`, 'm'));
    const json = await cli(['--json', 'submit', file, '--preview'], env);
    assert.equal(json.status, 0, json.stderr);
    const doc = JSON.parse(json.stdout);
    assert.equal(doc.costEstimation.confirmationRequestTrafficCostEstimation, submitted.paidTrafficCost);
    assert.match(doc.trafficCost, /^estimated /);
  });

  it('updates sums the cost of what its submitter reads under the list, --json carries it per update', async () => {
    const r = await cli(['updates', '--party', bank, '--begin', String(submitted.offset - 1), '--end', String(submitted.offset)], env);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[0], new RegExp(`^${submitted.offset}  transaction `));
    assert.equal(lines.at(-1), `Traffic cost: paid ${grouped(submitted.paidTrafficCost)} bytes over 1 update`);
    const alices = await cli(['updates', '--party', alice, '--begin', String(submitted.offset - 1), '--end', String(submitted.offset)], env);
    assert.doesNotMatch(alices.stdout, /Traffic cost/, 'not reported to a non-submitting party');
    const json = await cli(['--json', 'updates', '--party', bank, '--begin', String(submitted.offset - 1), '--end', String(submitted.offset)], env);
    assert.equal(JSON.parse(json.stdout.split('\n')[0]).update.Transaction.value.paidTrafficCost, submitted.paidTrafficCost);
  });

  it("graph prints it in the transaction's header and sums it over a range", async () => {
    const g = await cli(['graph', submitted.updateId, '--party', bank], env);
    assert.equal(g.status, 0, g.stderr);
    assert.equal(g.stdout.split('\n')[1], `Traffic cost: paid ${grouped(submitted.paidTrafficCost)} bytes`);
    const d = await cli(['graph', '--diff', `${submitted.offset}..${submitted.offset}`, '--party', bank], env);
    assert.equal(d.status, 0, d.stderr);
    assert.match(d.stdout, new RegExp(`^Traffic cost: paid ${grouped(submitted.paidTrafficCost)} bytes over 1 update$`, 'm'));
  });

  it('updates --compare-parties sums it', async () => {
    const r = await cli(['updates', '--compare-parties', `${bank},${alice}`, '--begin', String(submitted.offset - 1), '--end', String(submitted.offset)], env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^Traffic cost: paid ${grouped(submitted.paidTrafficCost)} bytes over 1 update$`, 'm'));
    const json = await cli(['--json', 'updates', '--compare-parties', `${bank},${alice}`, '--begin', String(submitted.offset - 1), '--end', String(submitted.offset)], env);
    assert.equal(JSON.parse(json.stdout).trafficCost.total, submitted.paidTrafficCost);
  });
});
