import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DemoParticipant } from '../../src/participant/index';
import { startFaultProxy } from '../support/faultProxy';
import { startCheckedParticipant } from '../support/specCheck';
import { cli, writeJson } from './harness';

const IOU = '#demo-iou:Iou:Iou';

describe('cli: submit --preview', () => {
  let participant: DemoParticipant;
  let env: Record<string, string>;
  let dir: string;

  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 11 });
    env = { CANTON_LEDGER_URL: participant.url };
    dir = mkdtempSync(join(tmpdir(), 'cli-preview-'));
  });
  after(() => participant.close());

  const iou = (owner: string, amount = '10') => ({ CreateCommand: { templateId: IOU, createArguments: { issuer: participant.parties.bank, owner, currency: 'USD', amount, observers: [] } } });

  it('prints the tree, who sees each node and the hash, and submits nothing', async () => {
    const { bank, alice } = participant.parties;
    const file = writeJson(dir, 'one.commands.json', { commandId: 'cli-preview-1', actAs: [bank], commands: [iou(alice)] });
    const end = participant.state.ledgerEnd;
    const r = await cli(['submit', file, '--preview'], env);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(participant.state.ledgerEnd, end);
    assert.match(r.stdout, /^Preview of commandId cli-preview-1 /m);
    assert.match(r.stdout, /^Would create 1 contract, archive 0, exercise 0 choices; depends on 0 input contracts$/m);
    assert.ok(r.stdout.includes(`seen by ${[alice, bank].sort().join(', ')}`), r.stdout);
    assert.match(r.stdout, /^Hash: [0-9a-f]{64} \(HASHING_SCHEME_VERSION_V2\)$/m);
    assert.match(r.stdout, /^ {2}hash verified \(V2\): recomputed here from the transaction and its metadata/m);
    assert.match(r.stdout, /Nothing was submitted/);

    const json = await cli(['submit', file, '--preview', '--json'], env);
    assert.equal(json.status, 0, json.stderr);
    const doc = JSON.parse(json.stdout);
    assert.equal(doc.commandId, 'cli-preview-1');
    assert.equal(doc.transaction[0].create.endsWith(':Iou:Iou'), true);
    assert.equal(typeof doc.prepareResponse.preparedTransaction, 'string');
    assert.deepEqual(doc.hashVerification, { kind: 'verified', scheme: 'V2', hash: doc.hash });
    assert.match(doc.hashCheck, /^hash verified \(V2\)/);
  });

  it('a hash that is not the hash of the transaction: said first and last, "do not sign", exit 1', async () => {
    const { bank, alice } = participant.parties;
    const proxy = await startFaultProxy(participant.url);
    try {
      const forged = Buffer.alloc(32, 7).toString('base64');
      proxy.add({ method: 'POST', path: '/v2/interactive-submission/prepare', fault: { kind: 'rewrite-json', rewrite: (body) => ({ ...(body as object), preparedTransactionHash: forged }) } });
      const file = writeJson(dir, 'forged.commands.json', { commandId: 'cli-preview-forged', actAs: [bank], commands: [iou(alice)] });
      const r = await cli(['submit', file, '--preview'], { CANTON_LEDGER_URL: proxy.url });
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stdout, /^DO NOT SIGN: the participant's hash is not the hash of this transaction/);
      assert.match(r.stdout, new RegExp(`^ {2}HASH DOES NOT MATCH \\(V2\\): the participant sent ${'07'.repeat(32)}, the transaction and its metadata hash to [0-9a-f]{64}; do not sign it$`, 'm'));
      assert.match(r.stderr, /^error: DO NOT SIGN/m);
    } finally {
      await proxy.close();
    }
  });

  it('a refused preview points at its cause in the file: the unknown contract id, as file:line:col', async () => {
    const { bank } = participant.parties;
    const cid = `00${'5a'.repeat(33)}`;
    const exercise = { ExerciseCommand: { templateId: IOU, contractId: cid, choice: 'Iou_Split', choiceArgument: { splitAmount: '1' } } };
    const file = writeJson(dir, 'unknown-contract.commands.json', { commandId: 'cli-preview-3', actAs: [bank], commands: [exercise] });
    const r = await cli(['submit', file, '--preview'], env);
    assert.equal(r.status, 1);
    const text = readFileSync(file, 'utf8');
    const before = text.slice(0, text.indexOf(`"${cid}"`)).split('\n');
    assert.ok(r.stderr.startsWith(`${file}:${before.length}:${before[before.length - 1].length + 1}: error: CONTRACT_NOT_FOUND: `), r.stderr);
  });

  it('several commands on 3.5: the Canton error, then why and what to do', async () => {
    const { bank, alice, bob } = participant.parties;
    const file = writeJson(dir, 'two.commands.json', { commandId: 'cli-preview-2', actAs: [bank], commands: [iou(alice), iou(bob)] });
    const r = await cli(['submit', file, '--preview'], env);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error: FAILED_TO_PREPARE_TRANSACTION: Preparing multiple commands is currently not supported$/m);
    assert.match(r.stderr, /^why: .*this file has 2$/m);
    assert.match(r.stderr, /^to do: preview each command alone/m);
  });
});

describe('cli: acs', () => {
  let participant: DemoParticipant;
  let env: Record<string, string>;
  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 13 });
    env = { CANTON_LEDGER_URL: participant.url };
  });
  after(() => participant.close());

  const activeFor = (party?: string) =>
    [...participant.state.contracts.values()].filter((c) => c.archivedOffset === undefined && !c.transient && (!party || c.stakeholders.includes(party)));

  it('groups the active contracts by package name:Module:Entity with counts, paging as it goes', async () => {
    const r = await cli(['acs', '--any-party', '--page-size', '2'], env);
    assert.equal(r.status, 0, r.stderr);
    const active = activeFor();
    assert.match(r.stdout, new RegExp(`^${active.length} active contracts at offset ${participant.state.ledgerEnd}$`, 'm'));
    const ious = active.filter((c) => c.template.entityName === 'Iou').length;
    assert.match(r.stdout, new RegExp(`^demo-iou:Iou:Iou \\(${ious}\\)$`, 'm'));
    for (const c of active) assert.ok(r.stdout.includes(`  ${c.contractId}  `), c.contractId);
  });

  it("one party's view, at an earlier offset, as NDJSON", async () => {
    const { charlie } = participant.parties;
    const r = await cli(['acs', '--party', charlie, '--json'], env);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((e) => e.contractId).sort(), activeFor(charlie).map((c) => c.contractId).sort());
    const early = await cli(['acs', '--any-party', '--at', '0'], env);
    assert.match(early.stdout, /^0 active contracts at offset 0$/m);
  });
});
