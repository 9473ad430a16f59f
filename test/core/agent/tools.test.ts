import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_PAGE, MAX_RESULT_TEXT } from '../../../src/core/agent/bounds';
import { describeAgentWrite, invokeAgentTool, type WritePermission } from '../../../src/core/agent/invoke';
import { AGENT_TOOLS, agentTool } from '../../../src/core/agent/table';
import type { AgentContext, ToolResult } from '../../../src/core/agent/tool';
import { LedgerConnection } from '../../../src/core/ledger/connection';
import { type DemoParticipant } from '../../../src/participant/index';
import { connectionTo, contextOf, EXAMPLES } from '../../support/agentTools';
import { deadUrl } from '../../support/deadPort';
import { startCheckedParticipant } from '../../support/specCheck';

describe('agent tools: the table, called against the demo participant', function () {
  this.timeout(60_000);
  let p: DemoParticipant;
  let connection: LedgerConnection;
  let dir: string;
  let ctx: AgentContext;
  const call = (name: string, input: unknown, writes: WritePermission = 'refused'): Promise<ToolResult> => invokeAgentTool(name, input, ctx, { writes });
  const ok = async (name: string, input: unknown, writes: WritePermission = 'refused') => {
    const r = await call(name, input, writes);
    assert.ok(!r.isError, `${name} failed: ${r.text}`);
    assert.ok(r.text.length <= MAX_RESULT_TEXT + 200, `${name}: ${r.text.length} characters`);
    return r as ToolResult & { data: Record<string, any> };
  };

  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 42 });
    connection = connectionTo(p.url);
    dir = mkdtempSync(join(tmpdir(), 'agent-tools-'));
    for (const f of ['iou-create.commands.json', 'iou-create-and-transfer.commands.json', 'vet-iou-v2.vetting.json']) writeFileSync(join(dir, f), readFileSync(join(EXAMPLES, f)));
    ctx = contextOf(connection, dir);
  });
  after(async () => {
    connection.dispose();
    await p.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has unique names, a description and an object schema per tool; the writes are marked and describe what they send', () => {
    const names = AGENT_TOOLS.map((t) => t.name);
    assert.equal(new Set(names).size, names.length);
    for (const t of AGENT_TOOLS) {
      assert.match(t.name, /^canton_[a-z_]+$/);
      assert.ok(t.description.length > 40, t.name);
      assert.equal(t.inputSchema.type, 'object');
      assert.equal(t.inputSchema.additionalProperties, false);
      assert.equal(t.access === 'write', t.describeWrite !== undefined, `${t.name}: a write (and only a write) has its confirmation text`);
    }
    assert.deepEqual(AGENT_TOOLS.filter((t) => t.access === 'write').map((t) => t.name), ['canton_submit_commands', 'canton_apply_vetting', 'canton_upload_dar']);
  });

  it('status: version, ledger end, user rights and parties', async () => {
    const r = await ok('canton_ledger_status', {});
    assert.equal(r.data.ledgerEnd, p.state.ledgerEnd);
    assert.match(r.text, new RegExp(`Ledger end: offset ${p.state.ledgerEnd}\\.`));
    assert.ok(r.data.parties.some((party: string) => party.startsWith('Alice::')), r.text);
  });

  it('updates: a bounded page, and the next from where it says, with neither gap nor overlap', async () => {
    const all = await ok('canton_list_updates', { limit: MAX_PAGE });
    assert.ok(all.data.count >= 6 && all.data.count < MAX_PAGE, 'the demo ledger fits one page of the largest size');
    assert.equal(all.data.next, undefined);
    assert.match(all.text, /No more updates in this range\./);
    const first = await ok('canton_list_updates', { limit: 3 });
    assert.equal(first.data.count, 3);
    assert.match(first.text, /More updates follow: call again with beginExclusive \d+/);
    const second = await ok('canton_list_updates', { limit: 3, ...first.data.next });
    const offsets = (r: ToolResult & { data: Record<string, any> }) => r.data.updates.map((u: { offset: number }) => u.offset);
    assert.deepEqual([...offsets(first), ...offsets(second)], offsets(all).slice(0, 6));
    assert.match(first.text, /created #?[\w-]*:?Iou:Iou|created [0-9a-f]{64}:Iou:Iou/);
  });

  it('a transaction: its summary and graph in text, by offset and by update id alike', async () => {
    const page = await ok('canton_list_updates', { limit: 1 });
    const { offset, updateId } = page.data.updates[0];
    const byOffset = await ok('canton_transaction', { offset });
    const byId = await ok('canton_transaction', { updateId });
    assert.equal(byOffset.text, byId.text);
    assert.match(byOffset.text, new RegExp(`^Transaction ${updateId} at offset ${offset}`));
    assert.match(byOffset.text, /Contracts:\n/);
    assert.equal(byOffset.data.updateId, updateId);
  });

  it('contract events and the active contracts of a template, filtered on arguments and paged', async () => {
    const acs = await ok('canton_active_contracts', { templateId: '#demo-iou:Iou:Iou', limit: MAX_PAGE });
    const contracts: Array<{ contractId: string; createArgument: { amount: string } }> = acs.data.contracts;
    assert.ok(contracts.length >= 2, acs.text);
    const amounts = contracts.map((c) => Number(c.createArgument.amount)).sort((a, b) => a - b);
    const threshold = amounts[0];
    const above = await ok('canton_active_contracts', { templateId: '#demo-iou:Iou:Iou', where: [{ path: 'amount', op: 'gt', value: threshold }], limit: 1 });
    assert.equal(above.data.matched, amounts.filter((a) => a > threshold).length);
    assert.equal(above.data.contracts.length, 1);
    if (above.data.matched > 1) {
      assert.equal(above.data.nextSkip, 1);
      const next = await ok('canton_active_contracts', { templateId: '#demo-iou:Iou:Iou', where: [{ path: 'amount', op: 'gt', value: threshold }], limit: 1, skip: 1, activeAtOffset: above.data.activeAtOffset });
      assert.notEqual(next.data.contracts[0].contractId, above.data.contracts[0].contractId);
    }
    const events = await ok('canton_contract_events', { contractId: contracts[0].contractId });
    assert.equal(events.data.active, true);
    assert.match(events.text, /: active\.\nCreated at offset \d+/);
  });

  it('packages: the templates with their choices, and one template\'s fields, types and argument JSON', async () => {
    const list = await ok('canton_packages', { search: 'iou' });
    assert.ok(list.data.templates.some((t: { templateId: string }) => t.templateId === '#demo-iou:Iou:Iou'), list.text);
    const iou = await ok('canton_packages', { templateId: '#demo-iou:Iou:Iou' });
    assert.match(iou.text, /^ {2}owner : Party$/m);
    assert.match(iou.text, /^ {2}amount : Numeric/m);
    assert.ok(iou.data.choices.some((c: { name: string }) => c.name === 'Iou_Transfer'), iou.text);
    assert.match(JSON.stringify(iou.data.createArgumentsSchema), /"owner"/);
    const missing = await call('canton_packages', { templateId: '#demo-iou:Nope:Nope' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /No template #demo-iou:Nope:Nope/);
  });

  it('validate: a good file has no problems; a bad one each problem with its line and column', async () => {
    const good = await ok('canton_validate_file', { file: 'iou-create.commands.json' });
    assert.equal(good.data.valid, true, good.text);
    const bad = JSON.parse(readFileSync(join(dir, 'iou-create.commands.json'), 'utf8'));
    bad.commands[0].CreateCommand.createArguments.amount = 'lots';
    writeFileSync(join(dir, 'bad.commands.json'), JSON.stringify(bad, null, 2));
    const r = await ok('canton_validate_file', { file: 'bad.commands.json' });
    assert.equal(r.data.valid, false);
    assert.match(r.text, /^bad\.commands\.json:10:21: error: Not a Numeric 10: "lots"/m);
  });

  it('preview: the decoded transaction and the hash verdict; nothing submitted', async () => {
    const end = p.state.ledgerEnd;
    const r = await ok('canton_preview_commands', { file: 'iou-create.commands.json' });
    assert.match(r.text, /Preview of commandId demo-iou-create-0001/);
    assert.match(r.text, /Hash: hash verified\./);
    assert.equal(p.state.ledgerEnd, end, 'a preview submits nothing');
  });

  it('a write is refused without permission, names what it sends, and is done with it (through the connection)', async () => {
    await connection.connect();
    const end = p.state.ledgerEnd;
    const refused = await call('canton_submit_commands', { file: 'iou-create.commands.json' });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /writes are not allowed here.*Nothing was sent\./s);
    assert.equal(p.state.ledgerEnd, end);

    const confirmation = await describeAgentWrite(agentTool('canton_submit_commands')!, { file: 'iou-create.commands.json' }, ctx);
    assert.equal(confirmation.ok, true);
    assert.match(confirmation.text, /^Submit iou-create\.commands\.json to Demo/);
    assert.match(confirmation.text, /commandId demo-iou-create-0001; act as Bank::/);
    assert.match(confirmation.text, /CreateCommand #demo-iou:Iou:Iou \{"issuer"/);
    assert.match(confirmation.text, /Preview of commandId demo-iou-create-0001/);
    assert.equal(p.state.ledgerEnd, end, 'the confirmation submits nothing');

    const done = await ok('canton_submit_commands', { file: 'iou-create.commands.json' }, 'confirmed');
    assert.equal(done.data.outcome, 'succeeded');
    assert.equal(done.data.offset, p.state.ledgerEnd);
    assert.equal(connection.ledger?.ledgerEnd, p.state.ledgerEnd, "the connection's ledger state followed the write");
    const again = await ok('canton_submit_commands', { file: 'iou-create.commands.json' }, 'confirmed');
    assert.equal(again.data.outcome, 'already-executed');
  });

  it('an unknown outcome is called unknown, with the safe retry', async () => {
    const f = JSON.parse(readFileSync(join(dir, 'iou-create.commands.json'), 'utf8'));
    f.commandId = 'agent-unknown-1';
    writeFileSync(join(dir, 'unknown.commands.json'), JSON.stringify(f));
    p.faults.submit = { dropResponse: true, times: 1 };
    try {
      const r = await call('canton_submit_commands', { file: 'unknown.commands.json' }, 'confirmed');
      assert.equal(r.isError, true);
      assert.equal((r.data as { outcome: string }).outcome, 'unknown');
      assert.match(r.text, /^Outcome UNKNOWN: commandId agent-unknown-1 may or may not have executed/);
      assert.match(r.text, /call canton_submit_commands again with the same file/);
    } finally {
      p.faults.submit = undefined;
    }
  });

  it('failed commands: the explanation, and the place of the cause in the file', async () => {
    const events = await ok('canton_list_updates', { limit: MAX_PAGE });
    const archived = events.data.updates.flatMap((u: { events?: Array<{ kind: string; contractId: string }> }) => u.events ?? []).find((e: { kind: string }) => e.kind === 'archived');
    assert.ok(archived, 'the demo ledger has an archived contract');
    const f = {
      commands: [{ ExerciseCommand: { templateId: '#demo-iou:Iou:Iou', contractId: archived.contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner: (await ok('canton_ledger_status', {})).data.parties.find((x: string) => x.startsWith('Bob::')) } } }],
      commandId: 'agent-fails-1',
      actAs: [(await ok('canton_ledger_status', {})).data.parties.find((x: string) => x.startsWith('Bank::'))],
      userId: 'demo-admin',
    };
    writeFileSync(join(dir, 'fails.commands.json'), JSON.stringify(f, null, 2));
    const submitted = await call('canton_submit_commands', { file: 'fails.commands.json' }, 'confirmed');
    assert.equal(submitted.isError, true);
    assert.match(submitted.text, /CONTRACT_NOT_FOUND/);
    assert.match(submitted.text, /fails\.commands\.json:\d+:\d+/);
    // Refused while interpreted: Canton answers the submitter only, so there is no completion of it. The
    // deduplication of the write test above is a completion's failure (the sync protocol's rejection).
    assert.equal((await ok('canton_failed_commands', { commandId: 'agent-fails-1' })).data.count, 0);
    const failed = await ok('canton_failed_commands', { file: 'iou-create.commands.json', commandId: 'demo-iou-create-0001' });
    assert.equal(failed.data.count, 1, failed.text);
    assert.equal(failed.data.failures[0].code, 'DUPLICATE_COMMAND');
    assert.equal(failed.data.failures[0].causeAt.place, 'iou-create.commands.json:16:16');
    assert.match(failed.text, /## What to do/);
  });

  it('Compare Parties over a range', async () => {
    const r = await ok('canton_compare_parties', { parties: ['Alice', 'Bob'] });
    assert.match(r.text, /Alice/);
    assert.ok(Array.isArray(r.data.parties) && r.data.parties.length === 2);
  });

  it('the PQS tool without a PQS says how to attach one', async () => {
    const r = await call('canton_pqs_query', { sql: 'select 1' });
    assert.equal(r.isError, true);
    assert.match(r.text, /No PQS is attached/);
  });

  it('bad input: each field at fault named, nothing sent; an unknown tool; a missing file', async () => {
    const big = await call('canton_list_updates', { limit: 5000 });
    assert.equal(big.isError, true);
    assert.match(big.text, /\/limit must be <= 50/);
    assert.equal((big.data as { field: string }).field, '/limit');
    const extra = await call('canton_ledger_status', { url: 'http://elsewhere' });
    assert.match(extra.text, /\/url is not an input of this tool/);
    const missing = await call('canton_contract_events', {});
    assert.match(missing.text, /\/contractId must have required property/);
    const wrongType = await call('canton_transaction', { offset: 'ten' });
    assert.match(wrongType.text, /\/offset must be integer/);
    assert.match((await call('canton_nope', {})).text, /there is no tool canton_nope/);
    const noFile = await call('canton_validate_file', { file: 'absent.commands.json' });
    assert.equal(noFile.isError, true);
    assert.match(noFile.text, /Cannot read absent\.commands\.json: no such file/);
    const wrongKind = await call('canton_preview_commands', { file: 'vet-iou-v2.vetting.json' });
    assert.match(wrongKind.text, /takes a \.commands\.json file/);
  });

  it('a participant that is down: an error result with the hint, not a throw', async () => {
    const down = connectionTo(await deadUrl());
    try {
      const r = await invokeAgentTool('canton_ledger_status', {}, contextOf(down, dir), { writes: 'refused' });
      assert.equal(r.isError, true);
      assert.match(r.text, /Hint: /);
    } finally {
      down.dispose();
    }
  });
});

describe('agent tools: no token or secret reaches a result', function () {
  this.timeout(60_000);
  const SECRET = 'agent-test-shared-secret-0123456789';
  /** A secret that has no credential shape: only the registered secrets catch it. */
  const OPAQUE = 'opaque-planted-secret-7f3a9c21';
  let p: DemoParticipant;
  let connection: LedgerConnection;
  let dir: string;
  let token: string;

  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 42, auth: { secret: SECRET } });
    token = await p.mintToken('demo-admin');
    connection = connectionTo(p.url, token);
    dir = mkdtempSync(join(tmpdir(), 'agent-secrets-'));
    // The token and the opaque secret planted in the ledger's data: a contract's text field holds them.
    const f = JSON.parse(readFileSync(join(EXAMPLES, 'iou-create.commands.json'), 'utf8'));
    const ctx = contextOf(connection, dir, [token, OPAQUE]);
    // This participant's own parties (an auth-enabled demo has another namespace than the example's).
    const status = await invokeAgentTool('canton_ledger_status', {}, ctx, { writes: 'refused' });
    const party = (hint: string) => (status.data as { parties: string[] }).parties.find((x) => x.startsWith(`${hint}::`))!;
    Object.assign(f.commands[0].CreateCommand.createArguments, { issuer: party('Bank'), owner: party('Alice'), currency: `${token} ${OPAQUE}` });
    Object.assign(f, { commandId: 'agent-planted', actAs: [party('Bank')] });
    writeFileSync(join(dir, 'planted.commands.json'), JSON.stringify(f, null, 2));
    const r = await invokeAgentTool('canton_submit_commands', { file: 'planted.commands.json' }, ctx, { writes: 'confirmed' });
    assert.ok(!r.isError, r.text);
  });
  after(async () => {
    connection.dispose();
    await p.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the planted token and secret are masked in the text and the data of every reading tool', async () => {
    const ctx = contextOf(connection, dir, [token, OPAQUE]);
    const results = [
      await invokeAgentTool('canton_ledger_status', {}, ctx, { writes: 'refused' }),
      await invokeAgentTool('canton_list_updates', { limit: MAX_PAGE }, ctx, { writes: 'refused' }),
      await invokeAgentTool('canton_active_contracts', { templateId: '#demo-iou:Iou:Iou', limit: MAX_PAGE }, ctx, { writes: 'refused' }),
      await invokeAgentTool('canton_preview_commands', { file: 'planted.commands.json' }, ctx, { writes: 'refused' }),
      await invokeAgentTool('canton_validate_file', { file: 'planted.commands.json' }, ctx, { writes: 'refused' }),
    ];
    const acs = results[2];
    assert.ok(!acs.isError, acs.text);
    assert.match(acs.text, /\[REDACTED\]/, `the planted contract is in the answer, masked: ${acs.text}`);
    for (const r of results) {
      const all = r.text + JSON.stringify(r.data);
      assert.ok(!all.includes(token), `the token leaked: ${r.text.slice(0, 200)}`);
      assert.ok(!all.includes(OPAQUE), `the secret leaked: ${r.text.slice(0, 200)}`);
      // Not even a piece of either, where a bound cut a value short.
      assert.ok(!all.includes(token.split('.')[2].slice(0, 10)) && !all.includes(token.split('.')[1].slice(-12)), `a piece of the token leaked: ${r.text}`);
      assert.ok(!all.includes(OPAQUE.slice(0, 12)), `a piece of the secret leaked: ${r.text}`);
    }
    const confirmation = await describeAgentWrite(agentTool('canton_submit_commands')!, { file: 'planted.commands.json' }, ctx);
    assert.ok(!confirmation.text.includes(token) && !confirmation.text.includes(OPAQUE));
  });
});
