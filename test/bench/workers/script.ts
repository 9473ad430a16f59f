/**
 * A ledger script of N submit steps against the same N submissions sent directly by the client (the
 * requests the runner builds, read back from the script's own run), alternating whole runs so that
 * drift on a busy machine hits both alike. Ours includes everything a run does: the checks, the aliases,
 * the expectations (none here) and the captures.
 */
import { LedgerClient } from '../../../src/core/api/client';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { LedgerConnection } from '../../../src/core/ledger/connection';
import { PackageStore } from '../../../src/core/ledger/packages';
import { runScript } from '../../../src/core/scripts/run';
import { submissionOf } from '../../../src/core/submit/submission';
import { workerMain } from '../lib';

export interface ScriptInput {
  url: string;
  steps: number;
  reps: number;
  /** Runs of each side before measuring (both get the same, so that both are measured warm). */
  warmup: number;
}

export interface ScriptOutput {
  oursMs: number[];
  directMs: number[];
}

workerMain<ScriptInput, ScriptOutput>(async (input) => {
  const client = new LedgerClient({ baseUrl: input.url, timeoutMs: 60_000 });
  const connection = new LedgerConnection({
    profile: { id: 'bench', name: 'Bench', url: input.url, auth: 'none', userId: 'demo-admin', source: 'user' },
    client: new LedgerClient({ baseUrl: input.url, timeoutMs: 60_000 }),
    packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })),
  });
  await connection.connect();
  await connection.readPackages();
  const step = (i: number) => ({
    name: `issue ${i}`,
    submit: { actAs: ['${Bank}'], commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: '${Bank}', owner: '${Alice}', currency: 'CHF', amount: `${i}.00`, observers: [] } } }] },
  });
  const text = JSON.stringify({ parties: { Bank: {}, Alice: {} }, steps: Array.from({ length: input.steps }, (_, i) => step(i + 1)) });
  let run = 0;
  const ours = async () => {
    const r = await runScript(connection, text, { runId: `b${run++}`, readFile: async () => new Uint8Array() });
    if (r.status !== 'passed') throw new Error(`the script did not pass: ${JSON.stringify(r.problems.concat(r.steps.flatMap((s) => s.failures) as never))}`);
    return r;
  };
  // The direct client sends the requests a run builds (the same body, with fresh command ids).
  const sample = await ours();
  const requests = sample.steps.map((_, i) => submissionOf(directCommands(i, sample.parties)).request);
  let direct = 0;
  const directRun = async () => {
    direct++;
    for (const [i, r] of requests.entries()) await client.submitAndWaitForTransaction({ ...r, commands: { ...r.commands, commandId: `direct-${direct}-${i}` } });
  };
  const time = async (f: () => Promise<unknown>) => {
    const t0 = performance.now();
    await f();
    return performance.now() - t0;
  };
  for (let i = 0; i < input.warmup; i++) {
    await ours();
    await directRun();
  }
  const oursMs: number[] = [];
  const directMs: number[] = [];
  for (let i = 0; i < input.reps; i++) {
    if (i % 2 === 0) {
      oursMs.push(await time(ours));
      directMs.push(await time(directRun));
    } else {
      directMs.push(await time(directRun));
      oursMs.push(await time(ours));
    }
  }
  connection.dispose();
  return { oursMs, directMs };
});

function directCommands(i: number, parties: Record<string, string>) {
  return {
    commandId: 'x',
    userId: 'demo-admin',
    actAs: [parties.Bank],
    commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: parties.Bank, owner: parties.Alice, currency: 'CHF', amount: `${i + 1}.00`, observers: [] } } }],
  };
}
