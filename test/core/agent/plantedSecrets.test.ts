// A participant that puts the token into everything it answers (a proxy in front of the demo
// participant plants it: beside every answer's data and in its free text, in every string of it, in
// every error it answers): no tool of the table lets it through to its result, text or data, reads
// and writes alike, and no write's confirmation does. The ledger itself holds it too: a contract
// whose text field is the token and a secret of no credential shape.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeAgentWrite, invokeAgentTool } from '../../../src/core/agent/invoke';
import { agentTool } from '../../../src/core/agent/table';
import type { AgentContext, ToolResult } from '../../../src/core/agent/tool';
import type { PqsStore } from '../../../src/core/pqs/store';
import { type DemoParticipant } from '../../../src/participant/index';
import { assertNoSecret, CALL_FILES, connectionTo, contextOf, everyToolCall, writeCallFiles, type LedgerIds } from '../../support/agentTools';
import { startFaultProxy, type FaultProxy, type FaultRule } from '../../support/faultProxy';
import { startCheckedParticipant } from '../../support/specCheck';

/** A secret with no credential shape: only the secrets the front-end registered catch it. */
const OPAQUE = 'opaque-planted-secret-7f3a9c21';

/** A PQS whose rows hold the secrets (the PQS tool reads a database, not the participant). */
function plantedPqs(planted: string): PqsStore {
  const store = {
    async runSql() {
      return { columns: [{ name: 'contract_id' }, { name: 'payload' }], rows: [['00ab', { currency: planted, note: `${'x'.repeat(190)}${planted}` }]], rowCount: 1, elapsedMs: 1, truncated: false };
    },
  };
  return store as unknown as PqsStore;
}

describe('agent tools: a token planted in every answer of the participant never reaches a result', function () {
  this.timeout(120_000);
  const SECRET = 'agent-planted-shared-secret-0123456789';
  let p: DemoParticipant;
  let proxy: FaultProxy;
  let dir: string;
  let token: string;
  let planted: string;
  let ids: LedgerIds;

  const contextOn = (token: string): AgentContext => ({ ...contextOf(connectionTo(proxy.url, token), dir, [token, OPAQUE]), pqs: () => plantedPqs(planted) });

  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 42, auth: { secret: SECRET } });
    proxy = await startFaultProxy(p.url, { maxFaults: 100_000 });
    token = await p.mintToken('demo-admin', { expiresInSeconds: 290 });
    planted = `${token} ${OPAQUE}`;
    dir = mkdtempSync(join(tmpdir(), 'agent-planted-'));
    // The ledger holds the secrets too: a contract with both in a text field, submitted before anything is planted.
    const ctx = contextOn(token);
    const status = await invokeAgentTool('canton_ledger_status', {}, ctx, { writes: 'refused' });
    writeCallFiles(dir, { parties: (status.data as { parties: string[] }).parties, text: planted, commandId: 'agent-planted-1' });
    const submitted = await invokeAgentTool('canton_submit_commands', { file: CALL_FILES.commands }, ctx, { writes: 'confirmed' });
    assert.ok(!submitted.isError, submitted.text);
    const data = submitted.data as { offset: number; updateId: string; events: Array<{ contractId: string }> };
    ids = { offset: data.offset, updateId: data.updateId, contractId: data.events[0].contractId };
    ctx.connection.dispose();
  });
  after(async () => {
    await proxy?.close();
    await p?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every tool's calls (and each write's confirmation) on a fresh connection through the proxy with `rule`; each result checked. */
  async function callEveryTool(rule: FaultRule | undefined, o: { connectFirst?: boolean } = {}): Promise<Map<string, ToolResult[]>> {
    const ctx = contextOn(token);
    const results = new Map<string, ToolResult[]>();
    try {
      if (o.connectFirst) await ctx.connection.connect();
      proxy.clear();
      if (rule) proxy.add(rule);
      for (const [name, input] of everyToolCall(ids)) {
        const tool = agentTool(name)!;
        if (tool.access === 'write') {
          const confirmation = await describeAgentWrite(tool, input, ctx);
          assertNoSecret(confirmation.text, [token, OPAQUE], `${name}'s confirmation`);
        }
        const r = await invokeAgentTool(name, input, ctx, { writes: 'confirmed' });
        assertNoSecret(r.text + JSON.stringify(r.data), [token, OPAQUE], name);
        results.set(name, [...(results.get(name) ?? []), r]);
      }
    } finally {
      proxy.clear();
      ctx.connection.dispose();
    }
    return results;
  }

  it('nothing planted: the ledger\'s own copy of the secrets is masked where a tool shows the contract', async () => {
    const results = await callEveryTool(undefined);
    const acs = results.get('canton_active_contracts')![0];
    assert.ok(!acs.isError, acs.text);
    assert.match(acs.text, /\[REDACTED\] \[REDACTED\]/, 'the planted contract is answered, its secrets masked');
    assert.match(results.get('canton_pqs_query')![0].text, /\[REDACTED\]/);
  });

  it('beside every answer\'s data and in its free text: the tools still answer, and nothing of the secrets', async () => {
    const before = proxy.fired.plant ?? 0;
    const results = await callEveryTool({ path: /./, fault: { kind: 'plant', secret: planted, mode: 'beside' }, times: 100_000 });
    assert.ok((proxy.fired.plant ?? 0) - before > 20, 'answers were planted');
    // A participant that adds a field and quotes a token in its texts is still read: the answers are there, masked.
    for (const name of ['canton_ledger_status', 'canton_list_updates', 'canton_transaction', 'canton_contract_events', 'canton_active_contracts', 'canton_packages', 'canton_compare_parties', 'canton_preview_commands']) {
      const failed = results.get(name)!.filter((r) => r.isError);
      assert.deepEqual(failed.map((r) => r.text), [], `${name} answers`);
    }
  });

  it('in every string of every answer: whatever fails says so, and nothing of the secrets', async () => {
    const before = proxy.fired.plant ?? 0;
    // Connected first, so that each tool's own reads meet the planted answers (a connect would stop at the first).
    const results = await callEveryTool({ path: /./, fault: { kind: 'plant', secret: planted, mode: 'everywhere' }, times: 100_000 }, { connectFirst: true });
    assert.ok((proxy.fired.plant ?? 0) - before > 10, 'answers were planted');
    // The planted values were shown (masked) by answers and failures alike: the check looked at them.
    const masked = [...results.values()].flat().filter((r) => r.text.includes('[REDACTED] [REDACTED]'));
    assert.ok(masked.length >= 8, `${masked.length} results show the planted values, masked`);
  });

  it('in every error: each request of each tool answered by an error that quotes the secrets', async () => {
    const cantonError = JSON.stringify({
      code: 'INVALID_ARGUMENT',
      cause: `The submitted request has invalid arguments: the token ${planted} is not accepted here`,
      correlationId: planted,
      traceId: null,
      context: { token: planted, participant: 'participant1' },
      resources: [['TOKEN', planted]],
      errorCategory: 8,
      grpcCodeValue: 3,
      retryInfo: null,
      definiteAnswer: false,
    });
    const results = await callEveryTool(
      {
        path: /./,
        // By turns: a Canton error naming the secrets, and a gateway's page quoting them.
        fault: (fired) => (fired % 2 === 0 ? { kind: 'answer', status: 400, body: cantonError, contentType: 'application/json' } : { kind: 'answer', status: 502, body: `<html><body>Bad gateway for Authorization: Bearer ${planted}</body></html>`, contentType: 'text/html' }),
        times: 100_000,
      },
      // Connected first: the error then reaches every tool's own request, not only the connect.
      { connectFirst: true },
    );
    const failed = [...results.entries()].filter(([name, rs]) => name !== 'canton_pqs_query' && rs.every((r) => r.isError)).map(([name]) => name);
    assert.ok(failed.length >= 10, `the tools met the errors: ${failed.join(', ')}`);
  });
});
