/**
 * For the tests of the tools for coding agents: a connection and a tool context on a (demo)
 * participant, one call of every tool of the table, and the check that a secret is nowhere in a result.
 */
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentContext } from '../../src/core/agent/tool';
import { AGENT_TOOLS } from '../../src/core/agent/table';
import { LedgerClient } from '../../src/core/api/client';
import { readDar } from '../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../src/core/daml/packageIndex';
import { LedgerConnection } from '../../src/core/ledger/connection';
import { PackageStore } from '../../src/core/ledger/packages';
import { readPreparedAnswer } from '../../src/core/preview/decode';
import { DAR_DIR, DARS } from './dars';
import { REPO_ROOT } from './spec';

export const EXAMPLES = join(REPO_ROOT, 'examples', 'demo-workspace');

export function connectionTo(url: string, token?: string): LedgerConnection {
  return new LedgerConnection({
    profile: { id: 'agent', name: 'Demo', url, auth: token ? 'jwt' : 'none', userId: 'demo-admin', source: 'user' },
    client: new LedgerClient({ baseUrl: url, timeoutMs: 10_000, token: token === undefined ? undefined : async () => token }),
    packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })),
  });
}

export function contextOf(connection: LedgerConnection, baseDir: string, secrets: string[] = []): AgentContext {
  return { connection, baseDir, decoders: { readPreparedAnswer: () => readPreparedAnswer, readDar: () => readDar }, secrets };
}

/** What the calls of every tool need from the ledger: a transaction and a contract of it. */
export interface LedgerIds {
  updateId: string;
  offset: number;
  contractId: string;
}

/** The files the calls read, in `dir`: a commands file whose contract carries `text` in a text field, a vetting file, a DAR. */
export const CALL_FILES = { commands: 'planted.commands.json', vetting: 'vet-iou-v2.vetting.json', dar: 'ping.dar' } as const;

export function writeCallFiles(dir: string, o: { parties: readonly string[]; text: string; commandId: string }): void {
  const party = (hint: string) => o.parties.find((x) => x.startsWith(`${hint}::`))!;
  const f = JSON.parse(readFileSync(join(EXAMPLES, 'iou-create.commands.json'), 'utf8'));
  Object.assign(f.commands[0].CreateCommand.createArguments, { issuer: party('Bank'), owner: party('Alice'), currency: o.text });
  Object.assign(f, { commandId: o.commandId, actAs: [party('Bank')] });
  writeFileSync(join(dir, CALL_FILES.commands), JSON.stringify(f, null, 2));
  copyFileSync(join(EXAMPLES, CALL_FILES.vetting), join(dir, CALL_FILES.vetting));
  copyFileSync(join(DAR_DIR, DARS.ping), join(dir, CALL_FILES.dar));
}

/** One call or more of every tool of the table, reads first (a test checks that none is missing). */
export function everyToolCall(ids: LedgerIds): Array<[string, Record<string, unknown>]> {
  const calls: Array<[string, Record<string, unknown>]> = [
    ['canton_ledger_status', {}],
    ['canton_list_updates', { limit: 50 }],
    ['canton_list_updates', { limit: 50, shape: 'ledger-effects', includeReassignments: true, includeTopology: true }],
    ['canton_transaction', { updateId: ids.updateId }],
    ['canton_transaction', { offset: ids.offset, parties: ['Alice'] }],
    ['canton_contract_events', { contractId: ids.contractId }],
    ['canton_active_contracts', { templateId: '#demo-iou:Iou:Iou', limit: 50 }],
    ['canton_packages', { search: 'iou' }],
    ['canton_packages', { templateId: '#demo-iou:Iou:Iou' }],
    ['canton_failed_commands', { limit: 50 }],
    ['canton_failed_commands', { file: CALL_FILES.commands }],
    ['canton_compare_parties', { parties: ['Alice', 'Bob'] }],
    ['canton_pqs_query', { sql: 'select * from active()' }],
    ['canton_validate_file', { file: CALL_FILES.commands }],
    ['canton_validate_file', { file: CALL_FILES.vetting }],
    ['canton_preview_commands', { file: CALL_FILES.commands }],
    ['canton_submit_commands', { file: CALL_FILES.commands }],
    ['canton_apply_vetting', { file: CALL_FILES.vetting }],
    ['canton_upload_dar', { file: CALL_FILES.dar, vet: false }],
  ];
  const missing = AGENT_TOOLS.filter((t) => !calls.some(([name]) => name === t.name)).map((t) => t.name);
  assert.deepEqual(missing, [], 'every tool of the table has a call here');
  return calls;
}

/**
 * The secrets are nowhere in `all` (a result's text and data as one string): not whole, and not a
 * piece of one at either end, where a bound may have cut a value short.
 */
export function assertNoSecret(all: string, secrets: readonly string[], what: string): void {
  for (const s of secrets) {
    const pieces = [s, s.slice(0, 12), s.slice(-12), ...(s.includes('.') ? [s.split('.')[2].slice(0, 10), s.split('.')[1].slice(-12)] : [])];
    for (const piece of pieces) assert.ok(!all.includes(piece), `${what}: ${piece === s ? 'a secret' : `a piece of a secret (${piece.length} characters)`} leaked in ${all.slice(Math.max(0, all.indexOf(piece) - 200), all.indexOf(piece) + 100)}`);
  }
}
