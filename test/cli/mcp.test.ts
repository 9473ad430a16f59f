// The MCP server driven by the MCP SDK's own client over stdio, spawned as an MCP client would: its own
// bundle dist/mcp.js (what the extension offers VS Code's agents), and `canton-ledger mcp` from the CLI.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textOf } from '../support/mcpResults';
import { AGENT_TOOLS } from '../../src/core/agent/table';
import { type DemoParticipant } from '../../src/participant/index';
import { assertNoSecret, CALL_FILES, everyToolCall, writeCallFiles } from '../support/agentTools';
import { startFaultProxy, type FaultRule } from '../support/faultProxy';
import { startCheckedParticipant } from '../support/specCheck';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const MCP = join(ROOT, 'dist', 'mcp.js');
const EXAMPLES = join(ROOT, 'examples', 'demo-workspace');
const SECRET = 'mcp-test-shared-secret-0123456789';

function newest(path: string): number {
  const s = statSync(path);
  return s.isDirectory() ? Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name)))) : s.mtimeMs;
}

/** Every text and structured answer of a result, as one string to search. */
function everything(r: CallToolResult): string {
  return JSON.stringify(r.content) + JSON.stringify(r.structuredContent ?? null);
}

describe('cli: mcp, the MCP server (dist/mcp.js and canton-ledger mcp), driven by the SDK client over stdio', function () {
  this.timeout(120_000);
  let p: DemoParticipant;
  let dir: string;
  let token: string;
  const clients: Client[] = [];

  /** The server's own bundle by default (or a copy of it, `bin`); `cli` runs `canton-ledger mcp` instead. */
  async function connect(args: string[] = [], o: { cli?: boolean; bin?: string; envUrl?: string; token?: string } = {}): Promise<{ client: Client; stderr: () => string }> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: o.cli ? [CLI, 'mcp', ...args] : [o.bin ?? MCP, ...args],
      // Only what the server needs: the URL and the token from the environment, as a client configures it.
      env: { CANTON_LEDGER_URL: o.envUrl ?? p.url, CANTON_LEDGER_TOKEN: o.token ?? token, PATH: process.env.PATH ?? '' },
      cwd: dir,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'canton-ledger-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return { client, stderr: () => stderr };
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

  before(async () => {
    const inputs = Math.max(...['src/cli', 'src/core', 'src/participant', 'scripts/build.mjs'].map((x) => newest(join(ROOT, x))));
    if ([CLI, MCP].some((bin) => !existsSync(bin) || statSync(bin).mtimeMs < inputs)) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
    p = await startCheckedParticipant({ port: 0, seed: 42, auth: { secret: SECRET } });
    token = await p.mintToken('demo-admin');
    dir = mkdtempSync(join(tmpdir(), 'mcp-'));
  });
  after(async () => {
    for (const c of clients) await c.close();
    await p.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the table\'s tools with their schemas; the writes are marked destructive', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), AGENT_TOOLS.map((t) => t.name));
    for (const t of tools) {
      const entry = AGENT_TOOLS.find((x) => x.name === t.name)!;
      assert.deepEqual(t.inputSchema, entry.inputSchema);
      assert.equal(t.annotations?.readOnlyHint, entry.access === 'read');
    }
  });

  it('canton-ledger mcp serves the same tools from the CLI, and its writes are refused without --allow-writes', async () => {
    const { client, stderr } = await connect([], { cli: true });
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), AGENT_TOOLS.map((t) => t.name));
    const status = await call(client, 'canton_ledger_status', {});
    assert.ok(!status.isError, textOf(status));
    const end = p.state.ledgerEnd;
    const refused = await call(client, 'canton_submit_commands', { file: 'absent.commands.json' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /writes are not allowed here.*--allow-writes/s);
    assert.equal(p.state.ledgerEnd, end);
    assert.match(stderr(), /canton-ledger mcp: serving \d+ tools for http:\/\/127\.0\.0\.1:\d+ on stdio \(read-only\)/);
  });

  it('dist/mcp.js takes the global options after its own: --url overrides the environment', async () => {
    // Port 9 (discard) on this machine: nothing answers the environment's URL.
    const { client, stderr } = await connect(['--allow-writes', '--url', p.url], { envUrl: 'http://127.0.0.1:9' });
    const status = await call(client, 'canton_ledger_status', {});
    assert.ok(!status.isError, textOf(status));
    assert.match(stderr(), new RegExp(`serving \\d+ tools for ${p.url.replace(/\./g, '\\.')} on stdio \\(writes allowed\\)`));
  });

  it('dist/mcp.js runs from the files the .vsix ships beside it, with no node_modules to fall back on', async () => {
    const shipped = join(dir, 'extension', 'dist');
    mkdirSync(shipped, { recursive: true });
    // What it loads on demand: the schema validators (a file check) and the YAML parser (an API description).
    for (const file of ['mcp.js', 'validators.js', 'yaml.js']) copyFileSync(join(ROOT, 'dist', file), join(shipped, file));
    const { client } = await connect([], { bin: join(shipped, 'mcp.js') });
    assert.ok(!(await call(client, 'canton_ledger_status', {})).isError);
    const checked = await call(client, 'canton_validate_file', { file: join(EXAMPLES, 'iou-create.commands.json') });
    assert.ok(!checked.isError, textOf(checked));
  });

  it('answers each read tool; a bad argument and a missing file are error results, and the server lives on', async () => {
    const { client } = await connect();
    const status = await call(client, 'canton_ledger_status', {});
    assert.ok(!status.isError, textOf(status));
    const parties = (status.structuredContent as { parties: string[] }).parties;
    const party = (hint: string) => parties.find((x) => x.startsWith(`${hint}::`))!;
    const updates = await call(client, 'canton_list_updates', { limit: 2 });
    assert.ok(!updates.isError, textOf(updates));
    const page = updates.structuredContent as { count: number; updates: Array<{ offset: number; updateId: string; events: Array<{ contractId: string }> }>; next?: { beginExclusive: number } };
    assert.equal(page.count, 2);
    assert.equal(page.next?.beginExclusive, page.updates[1].offset);
    const first = page.updates[0];
    const f = JSON.parse(readFileSync(join(EXAMPLES, 'iou-create.commands.json'), 'utf8'));
    Object.assign(f.commands[0].CreateCommand.createArguments, { issuer: party('Bank'), owner: party('Alice') });
    Object.assign(f, { actAs: [party('Bank')] });
    writeFileSync(join(dir, 'iou.commands.json'), JSON.stringify(f, null, 2));
    const calls: Array<[string, Record<string, unknown>]> = [
      ['canton_transaction', { updateId: first.updateId }],
      ['canton_contract_events', { contractId: first.events[0].contractId }],
      ['canton_active_contracts', { templateId: '#demo-iou:Iou:Iou', where: [{ path: 'amount', op: 'gte', value: 100 }] }],
      ['canton_packages', { templateId: '#demo-iou:Iou:Iou' }],
      ['canton_failed_commands', {}],
      ['canton_compare_parties', { parties: ['Alice', 'Bob'] }],
      ['canton_validate_file', { file: 'iou.commands.json' }],
      ['canton_preview_commands', { file: 'iou.commands.json' }],
    ];
    for (const [name, args] of calls) {
      const r = await call(client, name, args);
      assert.ok(!r.isError, `${name}: ${textOf(r)}`);
      assert.ok(textOf(r).length > 20 && textOf(r).length < 30_000, name);
    }
    assert.ok(AGENT_TOOLS.filter((t) => t.access === 'read').every((t) => t.name === 'canton_pqs_query' || t.name === 'canton_ledger_status' || t.name === 'canton_list_updates' || calls.some(([n]) => n === t.name)), 'every read tool is called');

    const bad = await call(client, 'canton_list_updates', { limit: 'many' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /\/limit must be integer/);
    const noFile = await call(client, 'canton_preview_commands', { file: 'absent.commands.json' });
    assert.equal(noFile.isError, true);
    assert.match(textOf(noFile), /Cannot read absent\.commands\.json: no such file/);
    const pqs = await call(client, 'canton_pqs_query', { sql: 'select 1' });
    assert.match(textOf(pqs), /No PQS is attached/);
    // Still serving after the errors.
    assert.ok(!(await call(client, 'canton_ledger_status', {})).isError);
  });

  it('refuses a write without --allow-writes (nothing sent); with it, names what it sends and does it', async () => {
    const end = p.state.ledgerEnd;
    const { client: readOnly } = await connect();
    const refused = await call(readOnly, 'canton_submit_commands', { file: 'iou.commands.json' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /writes are not allowed here.*--allow-writes/s);
    assert.equal(p.state.ledgerEnd, end);

    const { client, stderr } = await connect(['--allow-writes']);
    const done = await call(client, 'canton_submit_commands', { file: 'iou.commands.json' });
    assert.ok(!done.isError, textOf(done));
    assert.match(textOf(done), /^Sent — Submit iou\.commands\.json to http:\/\/127\.0\.0\.1:\d+ .*\ncommandId demo-iou-create-0001; act as Bank::/);
    assert.match(textOf(done), /Submitted iou\.commands\.json: commandId demo-iou-create-0001 executed at offset \d+/);
    assert.equal((done.structuredContent as { outcome: string }).outcome, 'succeeded');
    assert.ok(p.state.ledgerEnd > end);
    assert.match(stderr(), /canton_submit_commands: Submit iou\.commands\.json/);
  });

  it('a token planted in every answer of the participant never reaches a result of any tool, nor the server\'s log', async () => {
    const proxy = await startFaultProxy(p.url, { maxFaults: 100_000 });
    try {
      const { client, stderr } = await connect(['--allow-writes', '--verbose'], { envUrl: proxy.url });
      const parties = ((await call(client, 'canton_ledger_status', {})).structuredContent as { parties: string[] }).parties;
      writeCallFiles(dir, { parties, text: `planted ${token}`, commandId: 'mcp-planted' });
      const submitted = await call(client, 'canton_submit_commands', { file: CALL_FILES.commands });
      assert.ok(!submitted.isError, textOf(submitted));
      const sent = submitted.structuredContent as { offset: number; updateId: string; events: Array<{ contractId: string }> };
      const ids = { offset: sent.offset, updateId: sent.updateId, contractId: sent.events[0].contractId };
      const cantonError = JSON.stringify({ code: 'INVALID_ARGUMENT', cause: `invalid: ${token}`, context: { token }, resources: [['TOKEN', token]], errorCategory: 8, grpcCodeValue: 3, definiteAnswer: false });
      const rules: Array<[string, FaultRule | undefined]> = [
        ['nothing planted', undefined],
        ['beside the data', { path: /./, fault: { kind: 'plant', secret: token, mode: 'beside' }, times: 100_000 }],
        ['in every string', { path: /./, fault: { kind: 'plant', secret: token, mode: 'everywhere' }, times: 100_000 }],
        ['in every error', { path: /./, fault: { kind: 'answer', status: 400, body: cantonError, contentType: 'application/json' }, times: 100_000 }],
      ];
      let masked = 0;
      for (const [how, rule] of rules) {
        proxy.clear();
        if (rule) proxy.add(rule);
        for (const [name, args] of everyToolCall(ids)) {
          const r = await call(client, name, args);
          assertNoSecret(everything(r), [token], `${how}: ${name}`);
          if (textOf(r).includes('[REDACTED]')) masked++;
        }
      }
      assert.ok(masked >= 20, `${masked} results show the planted token, masked`);
      assert.ok(proxy.fired.plant > 20 && proxy.fired.answer > 10, 'the answers were planted');
      assertNoSecret(stderr(), [token], "the server's log");
    } finally {
      await proxy.close();
    }
  });

  it('a token of no credential shape (an opaque access token) is masked as well', async () => {
    const opaque = 'opaque-access-token-5c1e9a77d0b3';
    // A participant without authentication takes any token (it answers a request that needs the user
    // with an error, as it does without one): its answers and errors, planted, are read and shown.
    const open = await startCheckedParticipant({ port: 0, seed: 43 });
    const proxy = await startFaultProxy(open.url, { maxFaults: 100_000 });
    try {
      const { client, stderr } = await connect(['--allow-writes', '--verbose'], { envUrl: proxy.url, token: opaque });
      // Ids of the right shapes: what the participant answers about them is what counts.
      const ids = { offset: 1, updateId: `1220${'ab'.repeat(32)}`, contractId: `00${'cd'.repeat(32)}` };
      let masked = 0;
      for (const mode of ['beside', 'everywhere'] as const) {
        proxy.clear();
        proxy.add({ path: /./, fault: { kind: 'plant', secret: opaque, mode }, times: 100_000 });
        for (const [name, args] of everyToolCall(ids)) {
          const r = await call(client, name, args);
          assertNoSecret(everything(r), [opaque], `${mode}: ${name}`);
          if (textOf(r).includes('[REDACTED]')) masked++;
        }
      }
      assert.ok(masked >= 10, `${masked} results show the planted token, masked`);
      assertNoSecret(stderr(), [opaque], "the server's log");
    } finally {
      await proxy.close();
      await open.close();
    }
  });
});
