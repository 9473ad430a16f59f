/**
 * The network: the pre-flight of a 100-command file against a three-participant demo network (all
 * vetted, so Canton answers yes), next to the requests it cannot do without (one preferred-packages
 * round trip per package name, one after the other; the pre-flight sends them together), alternating; and the
 * vetting matrix of 3 participants × 200 packages drawn as the Network view's rows (every row built),
 * once what it needs has been read, next to parsing
 * those reads' JSON. The network runs in a process of its own (ParticipantProcess), as a real one would.
 */
import { LedgerClient } from '../../../src/core/api/client';
import type * as wire from '../../../src/core/models/wire';
import type { NetworkSnapshot } from '../../../src/core/network/model';
import { networkRows } from '../../../src/core/network/rows';
import type { LedgerRow } from '../../../src/core/rows';
import { preflightCommands, preflightPasses } from '../../../src/core/network/preflight';
import { median, workerMain } from '../lib';

export interface NetworkInput {
  /** The participants' URLs: the first is the one the file is for. */
  urls: string[];
  alice: string;
  bob: string;
  commands: number;
  reps: number;
  warmup: number;
  packages: number;
}

export interface NetworkOutput {
  packageNames: number;
  preflightMs: number;
  roundTripsMs: number;
  matrixMs: number;
  parseMs: number;
}

workerMain<NetworkInput, NetworkOutput>(async (input) => {
  {
    const { alice, bob } = input;
    const members = input.urls.map((url, i) => ({ label: `participant ${i + 1}`, client: new LedgerClient({ baseUrl: url }) }));
    const commands = Array.from({ length: input.commands }, (_, i): wire.Command =>
      i % 2
        ? { CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: alice, owner: bob, currency: 'USD', amount: String(i), observers: [] } } }
        : { CreateCommand: { templateId: '#demo-asset:Asset:Asset', createArguments: { owner: alice, id: `car-${i}`, description: 'Blue' } } },
    );
    const text = JSON.stringify({ commandId: 'bench', actAs: [alice], commands }, null, 2);
    const names = [
      { packageName: 'demo-asset', parties: [alice] },
      { packageName: 'demo-iou', parties: [alice, bob].sort() },
    ];
    const first = members[0].client;
    const ours: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < input.warmup + input.reps; i++) {
      let t0 = performance.now();
      const result = await preflightCommands(text, members);
      const oursMs = performance.now() - t0;
      if (!preflightPasses(result)) throw new Error(`the pre-flight should pass: ${JSON.stringify(result.problems.filter((p) => p.severity !== 'info'))}`);
      t0 = performance.now();
      for (const n of names) await first.preferredPackages([n]);
      const rawMs = performance.now() - t0;
      if (i >= input.warmup) {
        ours.push(oursMs);
        baseline.push(rawMs);
      }
    }

    const snapshot = syntheticSnapshot(input.packages);
    const json = JSON.stringify([...snapshot.vetting.values()].flat());
    const matrix: number[] = [];
    const parse: number[] = [];
    for (let i = 0; i < input.warmup + input.reps; i++) {
      let t0 = performance.now();
      // Drawn as the Network view draws it: the matrix, and every row the tree shows (each group, each package name, each version).
      const drawn = drawAll(networkRows(snapshot));
      const matrixMs = performance.now() - t0;
      const names = networkRows(snapshot)[1].children!().length;
      if (names !== input.packages / 2 || drawn < input.packages) throw new Error(`the matrix has ${names} package names, ${drawn} rows`);
      t0 = performance.now();
      JSON.parse(json);
      const parseMs = performance.now() - t0;
      if (i >= input.warmup) {
        matrix.push(matrixMs);
        parse.push(parseMs);
      }
    }
    return { packageNames: names.length, preflightMs: median(ours), roundTripsMs: median(baseline), matrixMs: median(matrix), parseMs: median(parse) };
  }
});

/** Builds every row and its children, as a tree expanded all the way; the number of rows. */
function drawAll(rows: readonly LedgerRow[]): number {
  return rows.reduce((n, r) => n + 1 + drawAll(r.children?.() ?? []), 0);
}

/** Three participants with `packages` packages each (two versions of each name), one drifting, and four parties on them. */
function syntheticSnapshot(packages: number): NetworkSnapshot {
  const ids = ['app-provider::1220aa', 'app-user::1220bb', 'sv::1220cc'];
  const vetted = (participant: number) =>
    Array.from({ length: packages }, (_, i) => ({ packageId: `${i}`.padStart(64, '0'), packageName: `pkg-${Math.floor(i / 2)}`, packageVersion: `${1 + (i % 2)}.0.0` })).filter((p, i) => participant !== 2 || i % 10 !== 1);
  return {
    hosts: ids.map((participantId) => ({ participantId, label: participantId.split('::')[0] })),
    vetting: new Map(ids.map((participantId, i) => [participantId, [{ participantId, synchronizerId: 'global::1220', topologySerial: 1, packages: vetted(i) }]])),
    hosting: new Map(
      [['Alice', [0, 1]], ['Bob', [1]], ['Carol', [1, 2]], ['Dan', [0, 2]]].map(([party, at]) => [
        party as string,
        { hosts: (at as number[]).map((i) => ({ participantId: ids[i], permission: 'submission' as const, synchronizerId: 'global::1220' })), complete: true },
      ]),
    ),
    problems: [],
    readAt: new Date().toISOString(),
  };
}
