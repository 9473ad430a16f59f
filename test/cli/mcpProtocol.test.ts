// The MCP server's protocol, checked on the wire (JSON-RPC lines on its stdin and stdout, no SDK in
// between) against the MCP specification 2025-11-25: the lifecycle (basic/lifecycle: version
// negotiation, capabilities), tools/list (server/tools: names, JSON Schema input schemas of type
// object), the two kinds of error (server/tools, Error Handling: an unknown tool or a malformed
// request is a JSON-RPC error; an input that does not fit the schema and a failure of the call are a
// result with isError, which a model can act on), a method it does not serve (-32601), ping, and
// cancellation (basic/utilities/cancellation: the work stops, no answer is sent).
//
// Why not @modelcontextprotocol/conformance: its server mode (`conformance server --url`) connects
// over Streamable HTTP only (its client helper builds a StreamableHTTPClientTransport on the URL), and
// its scenarios call the tools of its own reference server (`test_simple_text`, …), so it cannot run
// this stdio server's tools; these checks cover the same ground here, offline.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Ajv2020 from 'ajv/dist/2020';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_TOOLS } from '../../src/core/agent/table';
import { type DemoParticipant } from '../../src/participant/index';
import { deadUrl } from '../support/deadPort';
import { startFaultProxy, type FaultProxy } from '../support/faultProxy';
import { startCheckedParticipant } from '../support/specCheck';

const ROOT = join(__dirname, '..', '..');
const MCP = join(ROOT, 'dist', 'mcp.js');

interface JsonRpcAnswer {
  jsonrpc: '2.0';
  id: number;
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: unknown };
}

/** The server as a process, spoken to line by line. */
class WireSession {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly answers = new Map<number, JsonRpcAnswer>();
  private readonly waiting = new Map<number, (a: JsonRpcAnswer) => void>();
  /** Every line the server wrote to stdout: each must be a JSON-RPC message (basic/transports, stdio). */
  readonly lines: string[] = [];
  stderr = '';
  private nextId = 1;

  constructor(url: string, cwd: string) {
    this.child = spawn(process.execPath, [MCP], { cwd, env: { CANTON_LEDGER_URL: url, PATH: process.env.PATH ?? '' } });
    this.child.stderr.on('data', (c: Buffer) => (this.stderr += c.toString()));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      const message = JSON.parse(line) as JsonRpcAnswer;
      if (typeof message.id !== 'number') return;
      this.answers.set(message.id, message);
      this.waiting.get(message.id)?.(message);
    });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) })}\n`);
  }

  /** Sends a request; its id, and the answer when it comes. */
  send(method: string, params?: Record<string, unknown>): { id: number; answer: Promise<JsonRpcAnswer> } {
    const id = this.nextId++;
    const answer = new Promise<JsonRpcAnswer>((resolve) => this.waiting.set(id, resolve));
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) })}\n`);
    return { id, answer };
  }

  request(method: string, params?: Record<string, unknown>): Promise<JsonRpcAnswer> {
    return this.send(method, params).answer;
  }

  answered(id: number): boolean {
    return this.answers.has(id);
  }

  async initialize(protocolVersion: string = LATEST_PROTOCOL_VERSION): Promise<JsonRpcAnswer> {
    const answer = await this.request('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'wire-check', version: '1.0.0' } });
    this.notify('notifications/initialized');
    return answer;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async close(): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }
}

describe('cli: mcp, the protocol on the wire (MCP 2025-11-25)', function () {
  this.timeout(60_000);
  let p: DemoParticipant;
  let proxy: FaultProxy;
  let dir: string;
  const sessions: WireSession[] = [];
  const session = (url = proxy.url) => {
    const s = new WireSession(url, dir);
    sessions.push(s);
    return s;
  };

  before(async function () {
    if (!existsSync(MCP)) this.skip();
    p = await startCheckedParticipant({ port: 0, seed: 42 });
    proxy = await startFaultProxy(p.url);
    dir = mkdtempSync(join(tmpdir(), 'mcp-wire-'));
  });
  after(async () => {
    for (const s of sessions) await s.close();
    await proxy?.close();
    await p?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    for (const s of sessions) for (const line of s.lines) assert.doesNotThrow(() => JSON.parse(line), `stdout carries JSON-RPC messages only: ${line}`);
  });

  it('initialize: the version asked for when it knows it, else its latest; the tools capability; its name and version', async () => {
    const s = session();
    const init = await s.initialize();
    assert.equal(init.result?.protocolVersion, LATEST_PROTOCOL_VERSION);
    assert.deepEqual(Object.keys(init.result?.capabilities ?? {}), ['tools']);
    assert.equal(init.result?.serverInfo.name, 'canton-ledger');
    assert.match(init.result?.serverInfo.version, /^\d+\.\d+\.\d+/);
    const older = SUPPORTED_PROTOCOL_VERSIONS.find((v) => v !== LATEST_PROTOCOL_VERSION)!;
    assert.equal((await session().initialize(older)).result?.protocolVersion, older, 'a version it supports is answered as asked');
    assert.equal((await session().initialize('1999-01-01')).result?.protocolVersion, LATEST_PROTOCOL_VERSION, 'an unknown version: its latest');
    assert.deepEqual((await s.request('ping')).result, {});
  });

  it('tools/list: one page of every tool, each name of the allowed characters, each input schema a valid JSON Schema (2020-12) of an object', async () => {
    const s = session();
    await s.initialize();
    const list = (await s.request('tools/list')).result!;
    assert.equal(list.nextCursor, undefined, 'one page');
    assert.deepEqual(list.tools.map((t: { name: string }) => t.name), AGENT_TOOLS.map((t) => t.name));
    // JSON Schema 2020-12 is the dialect of a schema without $schema (server/tools, Tool).
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    for (const t of list.tools as Array<{ name: string; description: string; inputSchema: Record<string, unknown>; annotations: Record<string, unknown> }>) {
      assert.match(t.name, /^[A-Za-z0-9_.-]{1,128}$/, 'a tool name: 1–128 of A–Z, a–z, 0–9, _ - .');
      assert.ok(t.description.length > 40, t.name);
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.ok(ajv.validateSchema(t.inputSchema), `${t.name}: ${ajv.errorsText(ajv.errors)}`);
      assert.doesNotThrow(() => ajv.compile(t.inputSchema), t.name);
      assert.equal(typeof t.annotations.readOnlyHint, 'boolean');
    }
  });

  it('errors: an unknown tool and a malformed call are JSON-RPC errors; a bad input and a failed call are results with isError; an unserved method is -32601', async () => {
    const s = session();
    await s.initialize();
    const unknown = await s.request('tools/call', { name: 'canton_nope', arguments: {} });
    assert.equal(unknown.error?.code, -32602, JSON.stringify(unknown));
    assert.match(unknown.error!.message, /canton_nope/);
    const malformed = await s.request('tools/call', { arguments: {} });
    assert.ok(malformed.error && malformed.result === undefined, `a call without a name: ${JSON.stringify(malformed)}`);

    const bad = (await s.request('tools/call', { name: 'canton_list_updates', arguments: { limit: 'many', colour: 'red' } })).result!;
    assert.equal(bad.isError, true);
    // Every field at fault named, not only the first.
    assert.match(bad.content[0].text, /\/colour is not an input of this tool/);
    assert.match(bad.content[0].text, /\/limit must be integer/);
    assert.equal(bad.structuredContent.error, 'invalid-input');
    assert.equal(bad.structuredContent.problems.length, 2);
    const missing = (await s.request('tools/call', { name: 'canton_contract_events' })).result!;
    assert.equal(missing.isError, true, 'no arguments at all: the required one is missing');
    assert.match(missing.content[0].text, /\/contractId must have required property/);
    const noFile = (await s.request('tools/call', { name: 'canton_validate_file', arguments: { file: 'absent.commands.json' } })).result!;
    assert.equal(noFile.isError, true);
    assert.match(noFile.content[0].text, /Cannot read absent\.commands\.json: no such file/);

    assert.equal((await s.request('resources/list')).error?.code, -32601);
    assert.equal((await s.request('prompts/list')).error?.code, -32601);
    // Still serving.
    const status = (await s.request('tools/call', { name: 'canton_ledger_status', arguments: {} })).result!;
    assert.equal(status.isError, undefined, status.content[0].text);
    assert.equal(status.content[0].type, 'text');
    // The text in the structured content too: a client may give the model that alone (VS Code does).
    assert.equal(status.structuredContent.text, status.content[0].text);
    assert.equal(typeof status.structuredContent.ledgerEnd, 'number');
  });

  it('a participant that is down: a result with isError and the hint, and the server lives on', async () => {
    const s = session(await deadUrl());
    await s.initialize();
    const down = (await s.request('tools/call', { name: 'canton_ledger_status', arguments: {} })).result!;
    assert.equal(down.isError, true);
    assert.match(down.content[0].text, /Hint: /);
    assert.ok(s.alive);
    assert.deepEqual((await s.request('ping')).result, {});
  });

  it('cancellation: the call\'s request to the participant is abandoned, no answer is sent for it, and the server serves the next', async () => {
    const s = session();
    await s.initialize();
    assert.equal((await s.request('tools/call', { name: 'canton_ledger_status', arguments: {} })).result?.isError, undefined);
    proxy.add({ method: 'POST', path: /^\/v2\/updates/, fault: { kind: 'hang' } });
    const before = proxy.abandoned;
    const hung = s.send('tools/call', { name: 'canton_list_updates', arguments: { limit: 5 } });
    await waitUntil(() => proxy.fired.hang === 1, 'the participant to hold the page');
    s.notify('notifications/cancelled', { requestId: hung.id, reason: 'the user pressed Stop' });
    await waitUntil(() => proxy.abandoned > before, 'the server to abandon its request to the participant');
    assert.deepEqual((await s.request('ping')).result, {});
    const next = (await s.request('tools/call', { name: 'canton_list_updates', arguments: { limit: 2 } })).result!;
    assert.equal(next.isError, undefined, next.content[0].text);
    assert.equal(s.answered(hung.id), false, 'no answer for a cancelled request');
  });
});

async function waitUntil(ok: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
