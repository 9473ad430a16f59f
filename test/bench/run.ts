/**
 * `npm run bench`: how fast and how lean, as ratios against a baseline measured in the same run on
 * the same machine (so that the figures hold on a noisy machine). Not part of `npm test`.
 *
 *   node --import tsx test/bench/run.ts [--quick] [--only decode,list,submit,script,tail,validate,daml,paging,acs,completions,graph,pqs,network,agent,extension]
 *                                       [--update-docs]
 *
 * Every input is generated: the demo participant writes its synthetic ledger in a process of its own,
 * and each measurement runs in a fresh child process (its own heap and peak memory).
 * Results: a table on stdout, test-results/bench/results.{json,md} (or $BENCH_RESULTS_DIR);
 * --update-docs also rewrites the results section of docs/performance.md.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildGetUpdatesRequest } from '../../src/core/api/updatesRequest';
import { MB, median, ParticipantProcess, ROOT, runWorker } from './lib';
import { BENCH_SELECTION } from './selection';
import type { DecodeInput, DecodeOutput } from './workers/decode';
import type { ListInput, ListOutput } from './workers/list';
import type { PagingInput, PagingOutput } from './workers/paging';
import type { AcsInput, AcsOutput } from './workers/acs';
import type { CompletionsInput, CompletionsOutput } from './workers/completions';
import type { SubmitInput, SubmitOutput } from './workers/submit';
import type { ScriptInput, ScriptOutput } from './workers/script';
import type { TailInput, TailOutput, TailProgress } from './workers/tail';
import type { DamlInput, DamlOutput } from './workers/daml';
import type { ValidateInput, ValidateOutput } from './workers/validate';
import type { GraphInput, GraphOutput } from './workers/graph';
import type { PqsInput, PqsOutput } from './workers/pqs';
import type { NetworkInput, NetworkOutput } from './workers/network';
import type { AgentInput, AgentOutput } from './workers/agent';

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const onlyArg = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
const ONLY = onlyArg ? new Set(onlyArg.split(',')) : undefined;
const wanted = (part: string) => !ONLY || ONLY.has(part);

const SIZES = QUICK ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const SUBMISSIONS = QUICK ? 40 : 200;
const SCRIPT_STEPS = 100;
const TAIL_TOTAL = QUICK ? 100_000 : 1_000_000;
const TAIL_WINDOW = 500; // the view's default (cantonLedger.updates.liveTailWindow)
const VALIDATE_SIZES = [100 * 1024, 1024 * 1024];
const ACTIVATION_RUNS = QUICK ? 2 : 5;
/** The largest of the shared DARs (../shared/daml/dars, beside the repository). */
const BIG_DAR = path.resolve(ROOT, '../shared/daml/dars/splice-amulet-0.1.14.dar');

const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? path.join(ROOT, 'test-results', 'bench');
const DOCS = path.join(ROOT, 'docs', 'performance.md');

type Goal = { kind: 'ratio-at-least' | 'ratio-at-most'; value: number } | { kind: 'ours-at-most'; value: number; unit: string } | { kind: 'none' };

interface Row {
  section: string;
  what: string;
  ours: number;
  baseline: number;
  unit: string;
  /** ours / baseline */
  ratio: number;
  goal: Goal;
  met?: boolean;
  note?: string;
}

const rows: Row[] = [];
const failures: string[] = [];

function addRow(r: Omit<Row, 'ratio' | 'met'>): void {
  const ratio = r.ours / r.baseline;
  const g = r.goal;
  const met =
    g.kind === 'ratio-at-least' ? ratio >= g.value : g.kind === 'ratio-at-most' ? ratio <= g.value : g.kind === 'ours-at-most' ? r.ours <= g.value : undefined;
  const row = { ...r, ratio, met };
  rows.push(row);
  console.log(`  ${r.what}: ${fmt(r.ours)} vs ${fmt(r.baseline)} ${r.unit} (${fmtRatio(ratio)}) ${goalText(g)} ${met === undefined ? '' : met ? 'met' : 'MISSED'}`);
}

const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const fmtRatio = (x: number) => `${x.toFixed(2)}×`;
function goalText(g: Goal): string {
  switch (g.kind) {
    case 'ratio-at-least':
      return `≥ ${g.value}×`;
    case 'ratio-at-most':
      return `≤ ${g.value}×`;
    case 'ours-at-most':
      return `≤ ${g.value} ${g.unit}`;
    case 'none':
      return '—';
  }
}
const sizeName = (n: number) => (n >= 1_000_000 ? `${Math.round(n / 100_000) / 10}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));
const mb = (bytes: number) => bytes / MB;

async function step<T>(name: string, work: () => Promise<T>): Promise<T | undefined> {
  const t0 = Date.now();
  console.log(`\n== ${name}`);
  try {
    const r = await work();
    console.log(`   (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    return r;
  } catch (e) {
    const message = (e as Error)?.stack ?? String(e);
    failures.push(`${name}: ${message}`);
    console.log(`!!! ${name} could not be measured:\n${message}`);
    return undefined;
  }
}

// ---------------------------------------------------------------- 1. updates: decode, list, paging

async function updatesBenchmarks(): Promise<void> {
  if (!wanted('decode') && !wanted('list') && !wanted('paging')) return;
  const biggest = SIZES[SIZES.length - 1];
  const p = await ParticipantProcess.start({ synchronizers: 2, listCap: 10 * biggest, updates: biggest });
  const tmp = path.join(os.tmpdir(), `canton-bench-${process.pid}`);
  mkdirSync(tmp, { recursive: true });
  try {
    // The ledger's first offsets are the demo seed; ranges are counted from the synthetic part's end backwards.
    const end = p.info.ledgerEnd;
    const rangeOf = (n: number) => ({ beginExclusive: Math.max(0, end - n), endInclusive: end });

    if (wanted('decode')) {
      await step('Update decoding: our client vs JSON.parse of the same bytes', async () => {
        for (const n of SIZES) {
          const file = path.join(tmp, `updates-${n}.json`);
          const res = await fetch(new URL('/v2/updates/flats', p.info.url), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(buildGetUpdatesRequest(rangeOf(n), BENCH_SELECTION)),
          });
          if (!res.ok) throw new Error(`capturing ${n} updates: HTTP ${res.status} ${await res.text()}`);
          writeFileSync(file, Buffer.from(await res.arrayBuffer()));
          const reps = n >= 100_000 ? 3 : n >= 10_000 ? 10 : 30;
          const warmup = n >= 100_000 ? 0 : 3;
          const input = (decoder: DecodeInput['decoder']): DecodeInput => ({ file, decoder, reps, warmup, ...rangeOf(n) });
          // Alternate the two in separate processes, twice, so that drift hits both.
          const ours: DecodeOutput[] = [];
          const json: DecodeOutput[] = [];
          for (let round = 0; round < 2; round++) {
            ours.push(await runWorker<DecodeInput, DecodeOutput>('decode', input('ours'), { heapMb: 8192 }));
            json.push(await runWorker<DecodeInput, DecodeOutput>('decode', input('json'), { heapMb: 8192 }));
          }
          const bytes = ours[0].bytes;
          const mbps = (outs: DecodeOutput[]) => mb(bytes) / (median(outs.flatMap((o) => o.ms)) / 1000);
          addRow({
            section: 'Update decoding',
            what: `decode ${sizeName(n)} updates (${ours[0].elements} elements, ${fmt(mb(bytes))} MB): throughput`,
            ours: mbps(ours),
            baseline: mbps(json),
            unit: 'MB/s',
            goal: { kind: 'ratio-at-least', value: 0.8 },
            note: 'baseline: JSON.parse of the whole body',
          });
          addRow({
            section: 'Update decoding',
            what: `decode ${sizeName(n)} updates: peak memory (RSS growth)`,
            ours: mb(Math.max(...ours.map((o) => o.peakRssGrowth))),
            baseline: mb(Math.max(...json.map((o) => o.peakRssGrowth))),
            unit: 'MB',
            goal: { kind: 'none' },
            note: 'baseline: JSON.parse of the whole body',
          });
        }
      });
    }

    if (wanted('list')) {
      await step('Listing updates from the participant: our client vs @canton-network/core-ledger-client', async () => {
        for (const n of SIZES) {
          const reps = n >= 100_000 ? 3 : n >= 10_000 ? 5 : 20;
          const warmup = n >= 100_000 ? 0 : 2;
          const input = (client: ListInput['client']): ListInput => ({ url: p.info.url, client, endInclusive: rangeOf(n).endInclusive, beginExclusive: rangeOf(n).beginExclusive, reps, warmup });
          const ours: ListOutput[] = [];
          const official: ListOutput[] = [];
          for (let round = 0; round < 2; round++) {
            ours.push(await runWorker<ListInput, ListOutput>('list', input('ours'), { heapMb: 8192 }));
            official.push(await runWorker<ListInput, ListOutput>('list', input('official'), { heapMb: 8192 }));
          }
          const perSecond = (outs: ListOutput[]) => outs[0].elements / (median(outs.flatMap((o) => o.ms)) / 1000);
          addRow({
            section: 'Update decoding',
            what: `list ${sizeName(n)} updates from the participant: throughput`,
            ours: perSecond(ours),
            baseline: perSecond(official),
            unit: 'updates/s',
            goal: { kind: 'ratio-at-least', value: 1.0 },
            note: 'baseline: the official client, same request',
          });
          addRow({
            section: 'Update decoding',
            what: `list ${sizeName(n)} updates from the participant: peak memory (RSS growth)`,
            ours: mb(Math.max(...ours.map((o) => o.peakRssGrowth))),
            baseline: mb(Math.max(...official.map((o) => o.peakRssGrowth))),
            unit: 'MB',
            goal: { kind: 'none' },
            note: 'baseline: the official client, same request',
          });
        }
      });
    }

    if (wanted('paging')) {
      await step('Paging: time to the first page of the Updates view, small range vs the whole ledger', async () => {
        const small = 1_000;
        await p.call({ op: 'requests', reset: true });
        const reps = QUICK ? 10 : 30;
        const r = await runWorker<PagingInput, PagingOutput>('paging', { url: p.info.url, ends: [small, end], reps });
        const served = await p.call<Record<string, number>>({ op: 'requests' });
        const pageRequests = served['POST /v2/updates/get-updates-page'] ?? 0;
        const [smallRange, wholeRange] = r.ranges;
        const warm = (ms: number[]) => median(ms.slice(2));
        addRow({
          section: 'Paging',
          what: `first page (${wholeRange.loaded} updates) with ${sizeName(end)} updates in range vs ${sizeName(small)}`,
          ours: warm(wholeRange.ms),
          baseline: warm(smallRange.ms),
          unit: 'ms',
          goal: { kind: 'ratio-at-most', value: 1.5 },
          note: `${pageRequests} page requests for ${reps * 2} first pages; range complete after one page: ${wholeRange.complete}`,
        });
        if (pageRequests !== reps * 2) throw new Error(`expected one page request per first page (${reps * 2}), the participant served ${pageRequests}`);
      });
    }
  } finally {
    await p.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- 1b. the active contract set

async function acsBenchmark(): Promise<void> {
  if (!wanted('acs')) return;
  await step('Paging: time to the first page of the Active Contracts view, a small set vs a large one', async () => {
    const [small, large] = [SIZES[0], SIZES[SIZES.length - 1]];
    const participants = [await ParticipantProcess.start({ activeContracts: small }), await ParticipantProcess.start({ activeContracts: large })];
    try {
      for (const p of participants) await p.call({ op: 'requests', reset: true });
      const reps = QUICK ? 10 : 30;
      const r = await runWorker<AcsInput, AcsOutput>('acs', { urls: participants.map((p) => p.info.url), reps });
      const served = await Promise.all(participants.map((p) => p.call<Record<string, number>>({ op: 'requests' })));
      const pageRequests = served.map((s) => s['POST /v2/state/active-contracts-page'] ?? 0);
      const [smallSet, largeSet] = r.sets;
      const warm = (ms: number[]) => median(ms.slice(2));
      addRow({
        section: 'Paging',
        what: `first page of active contracts (${largeSet.loaded} contracts, grouped) with ${sizeName(large)} active vs ${sizeName(small)}`,
        ours: warm(largeSet.ms),
        baseline: warm(smallSet.ms),
        unit: 'ms',
        goal: { kind: 'ratio-at-most', value: 1.5 },
        note: `${pageRequests.join(' + ')} page requests for ${reps} first pages each; set complete after one page: ${largeSet.complete}`,
      });
      if (pageRequests.some((n) => n !== reps)) throw new Error(`expected one page request per first page (${reps} each), the participants served ${pageRequests.join(', ')}`);
    } finally {
      await Promise.all(participants.map((p) => p.stop()));
    }
  });
}

// ---------------------------------------------------------------- 1c. older command completions

async function completionsBenchmark(): Promise<void> {
  if (!wanted('completions')) return;
  const [commands, depth] = QUICK ? [1_200, 10] : [4_200, 40];
  const window = 100;
  await step(`Paging: Failed Commands' Load more ${depth} pages back vs the first older page`, async () => {
    const p = await ParticipantProcess.start({});
    try {
      const r = await runWorker<CompletionsInput, CompletionsOutput>('completions', { url: p.info.url, party: p.info.parties.bank, commands, window, depth, reps: QUICK ? 5 : 15 }, { timeoutMs: 600_000 });
      addRow({
        section: 'Paging',
        what: `Failed Commands: a page of older completions (${r.perPage} in ${window} offsets) ${depth} pages back vs the first older page`,
        ours: median(r.deepMs),
        baseline: median(r.firstOlderMs),
        unit: 'ms',
        goal: { kind: 'ratio-at-most', value: 1.5 },
        note: `${r.readsPerPage} completions read(s) per page; ${commands} commands on the participant`,
      });
      if (r.readsPerPage !== 1) throw new Error(`expected one completions read per page, saw up to ${r.readsPerPage}`);
    } finally {
      await p.stop();
    }
  });
}

// ---------------------------------------------------------------- 2. submit-and-wait

async function submitBenchmark(): Promise<void> {
  if (!wanted('submit')) return;
  await step('Submit-and-wait: our client vs a raw fetch of the same body', async () => {
    const p = await ParticipantProcess.start({});
    try {
      const r = await runWorker<SubmitInput, SubmitOutput>('submit', {
        url: p.info.url,
        issuer: p.info.parties.bank,
        owner: p.info.parties.alice,
        count: SUBMISSIONS,
        warmup: 20,
      });
      addRow({
        section: 'Submit-and-wait',
        what: `submit-and-wait-for-transaction, median of ${SUBMISSIONS}`,
        ours: median(r.oursMs),
        baseline: median(r.rawMs),
        unit: 'ms',
        goal: { kind: 'ratio-at-most', value: 1.1 },
        note: "baseline: Node's fetch with the same body, alternating with ours",
      });
    } finally {
      await p.stop();
    }
  });
}

// ---------------------------------------------------------------- 2b. ledger scripts

/**
 * Worker processes the script row pools. Its ratio moves by several per cent from one process to the
 * next (the JIT's choices and where the code lands in memory differ), more than the runs within one
 * process do: pooling processes measures the code rather than one process's luck, as JMH's forks do.
 */
const SCRIPT_FORKS = QUICK ? 1 : 5;

async function scriptBenchmark(): Promise<void> {
  if (!wanted('script')) return;
  await step(`Ledger script: ${SCRIPT_STEPS} submit steps vs the same submissions sent by the client`, async () => {
    const oursMs: number[] = [];
    const directMs: number[] = [];
    const forkRatios: number[] = [];
    for (let fork = 0; fork < SCRIPT_FORKS; fork++) {
      // A participant of its own per process: each starts from the same empty ledger.
      const p = await ParticipantProcess.start({});
      try {
        const r = await runWorker<ScriptInput, ScriptOutput>('script', { url: p.info.url, steps: SCRIPT_STEPS, reps: QUICK ? 3 : 31, warmup: QUICK ? 1 : 20 }, { timeoutMs: 600_000 });
        oursMs.push(...r.oursMs);
        directMs.push(...r.directMs);
        forkRatios.push(median(r.oursMs) / median(r.directMs));
      } finally {
        await p.stop();
      }
    }
    addRow({
      section: 'Ledger scripts',
      what: `a ${SCRIPT_STEPS}-step script, median of ${oursMs.length} runs in ${SCRIPT_FORKS === 1 ? 'one process' : `${SCRIPT_FORKS} processes`}`,
      ours: median(oursMs),
      baseline: median(directMs),
      unit: 'ms',
      goal: { kind: 'ratio-at-most', value: 1.1 },
      note: `ours: the whole run (checks, aliases, captures, results); baseline: the same request bodies sent one after another by LedgerClient, alternating with ours; each process's own ratio: ${forkRatios.map(fmtRatio).join(', ')}; the median of each run's ratio to the baseline run beside it: ${fmtRatio(median(oursMs.map((ms, i) => ms / directMs[i])))}`,
    });
  });
}

// ---------------------------------------------------------------- 3. live tail memory

async function tailBenchmark(): Promise<void> {
  if (!wanted('tail')) return;
  await step(`Live tail: heap while following ${sizeName(TAIL_TOTAL)} updates`, async () => {
    const p = await ParticipantProcess.start({ synchronizers: 2, listCap: 1000 });
    try {
      const fromOffset = p.info.ledgerEnd;
      const ahead = 30_000;
      let written = 0;
      let end = await p.call<number>({ op: 'append', count: ahead });
      written += end - fromOffset;
      let prunedUpTo = 0;
      // Keep the participant writing ahead of the reader, and prune behind it so that its own memory
      // stays flat. Progress that arrives while an append or prune runs is not dropped: the loop looks
      // at the latest offset again after each piece of work, so a reader that caught up with the end
      // (and so reports nothing more) still gets the next append.
      let latest = fromOffset;
      let working = false;
      const failed = new AbortController();
      const keepAhead = async () => {
        if (working) return;
        working = true;
        try {
          for (;;) {
            const offset = latest;
            if (written < TAIL_TOTAL * 1.2 && end - offset < ahead) {
              const before = end;
              end = await p.call<number>({ op: 'append', count: 20_000 });
              written += end - before;
            } else if (offset - prunedUpTo > 100_000) {
              prunedUpTo = await p.call<number>({ op: 'prune', offset: offset - 10_000 });
            } else break;
          }
        } catch (e) {
          failed.abort(new Error(`keeping the participant ahead of the reader failed: ${(e as Error)?.stack ?? e}`));
        } finally {
          working = false;
        }
      };
      const onProgress = (m: unknown) => {
        latest = Math.max(latest, (m as TailProgress).offset);
        void keepAhead();
      };
      const sampleEvery = TAIL_TOTAL / 10;
      // Progress comes every 2,000 updates: a minute without any is a stall, which fails the step.
      const r = await runWorker<TailInput, TailOutput>('tail', { url: p.info.url, fromOffset, total: TAIL_TOTAL, windowSize: TAIL_WINDOW, sampleEvery }, { onProgress, timeoutMs: 15 * 60_000, stallMs: 60_000, signal: failed.signal });
      if (!r.inOrder) throw new Error('the tail delivered an update twice or out of order');
      const growth = (heap: number) => mb(heap - r.heapStart);
      const first = r.samples[0];
      const worst = Math.max(...r.samples.map(([, h]) => h));
      addRow({
        section: 'Live tail',
        what: `heap growth following ${sizeName(r.received)} updates (window ${r.windowSize})`,
        ours: growth(worst),
        baseline: growth(first[1]),
        unit: 'MB',
        goal: { kind: 'ours-at-most', value: 50, unit: 'MB' },
        note: `baseline: the growth after the first ${sizeName(first[0])}; ${Math.round(r.received / (r.ms / 1000))} updates/s`,
      });
    } finally {
      await p.stop();
    }
  });
}

// ---------------------------------------------------------------- 4. validation

async function validateBenchmark(): Promise<void> {
  if (!wanted('validate')) return;
  await step('Validation: diagnostics of a commands file', async () => {
    const r = await runWorker<ValidateInput, ValidateOutput>('validate', { sizes: VALIDATE_SIZES, reps: QUICK ? 15 : 40 });
    for (const f of r.files) {
      if (f.problems > 0) throw new Error(`the generated ${f.bytes}-byte file has ${f.problems} problems: it should be valid`);
      const small = f.bytes < 512 * 1024;
      addRow({
        section: 'Validation',
        what: `diagnostics of a ${small ? '100 KB' : '1 MB'} commands file (${f.commands} commands)`,
        ours: f.oursMs,
        baseline: f.jsonParseMs,
        unit: 'ms',
        goal: small ? { kind: 'ours-at-most', value: 16, unit: 'ms' } : { kind: 'none' },
        note: 'baseline: JSON.parse of the same text',
      });
    }
  });
}

// ---------------------------------------------------------------- the network

async function networkBenchmark(): Promise<void> {
  if (!wanted('network')) return;
  await step('Network: the pre-flight of a commands file; the vetting matrix', async () => {
    const p = await ParticipantProcess.start({ network: ['app-provider', 'app-user', 'sv'] });
    let r: NetworkOutput;
    try {
      r = await runWorker<NetworkInput, NetworkOutput>('network', { urls: p.info.urls!, alice: p.info.parties.alice, bob: p.info.parties.bob, commands: 100, reps: QUICK ? 10 : 40, warmup: QUICK ? 3 : 10, packages: 200 });
    } finally {
      await p.stop();
    }
    addRow({
      section: 'Network',
      what: `pre-flight of a 100-command file (${r.packageNames} package names, 3 participants)`,
      ours: r.preflightMs,
      baseline: r.roundTripsMs,
      unit: 'ms',
      goal: { kind: 'ratio-at-most', value: 1.5 },
      note: 'baseline: one preferred-packages round trip per package name, one after the other (the pre-flight sends them together and reads nothing else when Canton says yes)',
    });
    addRow({
      section: 'Network',
      what: 'vetting matrix of 3 participants × 200 packages, drawn as the Network view’s rows after the reads',
      ours: r.matrixMs,
      baseline: r.parseMs,
      unit: 'ms',
      goal: { kind: 'ours-at-most', value: 50, unit: 'ms' },
      note: 'baseline: JSON.parse of the three vetting lists',
    });
  });
}

// ---------------------------------------------------------------- the agent tools

async function agentBenchmark(): Promise<void> {
  if (!wanted('agent')) return;
  await step('Agent tools: a page of updates and the ledger status through the tool layer, next to the CLI', async () => {
    const r = await runWorker<AgentInput, AgentOutput>('agent', { reps: QUICK ? 15 : 40, pageSize: 20 });
    addRow({
      section: 'Agent tools',
      what: `canton_list_updates, a page of ${r.updates} updates`,
      ours: r.toolMs,
      baseline: r.cliMs,
      unit: 'ms',
      goal: { kind: 'ratio-at-most', value: 1.2 },
      note: 'baseline: `canton-ledger updates --limit 20` run in process (the same read, printed)',
    });
    addRow({
      section: 'Agent tools',
      what: 'canton_ledger_status on a fresh connection (an MCP server\'s first call)',
      ours: r.statusToolMs,
      baseline: r.statusCliMs,
      unit: 'ms',
      goal: { kind: 'ratio-at-most', value: 1.2 },
      note: 'baseline: a fresh CLI context\'s connect and ledger-end read in process, the facts printed (what every command does first; the CLI has no status command)',
    });
  });
}

// ---------------------------------------------------------------- the transaction graph

async function graphBenchmark(): Promise<void> {
  if (!wanted('graph')) return;
  await step('Transaction graph: building and drawing a large transaction; a lineage walk of many hops', async () => {
    const hops = QUICK ? 20 : 100;
    const r = await runWorker<GraphInput, GraphOutput>('graph', { sizes: [1_000, 5_000], reps: QUICK ? 5 : 15, hops });
    for (const b of r.builds) {
      addRow({
        section: 'Transaction graph',
        what: `model and Mermaid of a ${sizeName(b.nodes)}-node transaction (${(b.bytes / 1024).toFixed(0)} KB)`,
        ours: b.oursMs,
        baseline: b.jsonParseMs,
        unit: 'ms',
        goal: { kind: 'ratio-at-most', value: 50 },
        note: 'ours includes the JSON.parse; baseline: JSON.parse of the same text',
      });
    }
    const l = r.lineage;
    addRow({
      section: 'Transaction graph',
      what: `requests of a lineage walk of ${l.hops} transfers (per hop)`,
      ours: l.requests,
      baseline: l.hops,
      unit: 'requests',
      // A hop needs the contract's events (where it was created) and then that transaction: two dependent reads.
      goal: { kind: 'ratio-at-most', value: 2.05 },
      note: `${l.contracts} contracts; the start's own events and the issue's transaction add one each`,
    });
    addRow({
      section: 'Transaction graph',
      what: `time of that walk per request`,
      ours: l.ms / l.requests,
      baseline: l.oneRequestMs,
      unit: 'ms',
      goal: { kind: 'none' },
      note: 'baseline: one events-by-contract-id round trip; ours also decodes each transaction and builds its graph',
    });
    if (l.filtered) {
      addRow({
        section: 'Transaction graph',
        what: 'lineage hop: reads per hop with the contract-id filter (3.8) vs without',
        ours: l.filtered.requests / l.hops,
        baseline: l.requests / l.hops,
        unit: 'requests',
        // One read per hop instead of two (the start's events, to tell active from archived out of sight, add one).
        goal: { kind: 'ratio-at-most', value: 0.55 },
        note: `the same ${l.hops}-transfer walk on one participant playing 3.8, with and without its description's contract-id filter`,
      });
      addRow({
        section: 'Transaction graph',
        what: 'lineage hop: time per hop with the contract-id filter vs without',
        ours: l.filtered.ms / l.hops,
        baseline: l.ms / l.hops,
        unit: 'ms',
        goal: { kind: 'none' },
        note: 'the demo participant scans every update up to the ledger end for each filtered read',
      });
    }
  });
}

// ---------------------------------------------------------------- 5. Daml packages

async function damlBenchmark(): Promise<void> {
  if (!wanted('daml')) return;
  await step('Daml packages: decoding a DAR and its schemas; argument diagnostics of a commands file', async () => {
    const r = await runWorker<DamlInput, DamlOutput>('daml', { dar: BIG_DAR, reps: QUICK ? 5 : 15, commandsBytes: 100 * 1024, validateReps: QUICK ? 15 : 40 });
    const c = r.commands;
    if (c.problemsWith > 0 || c.problemsWithout > 0) throw new Error(`the generated commands file has problems (${c.problemsWithout} without packages, ${c.problemsWith} with): it should be valid`);
    addRow({
      section: 'Daml packages',
      what: `decode ${path.basename(BIG_DAR)} (${fmt(r.darBytes / 1024)} KB, ${r.packages} packages) and generate its ${r.schemas} schemas (${r.templates} templates and their choices)`,
      ours: r.decodeAndSchemasMs,
      baseline: r.readMs,
      unit: 'ms',
      goal: { kind: 'none' },
      note: 'baseline: reading the DAR\'s bytes from disk',
    });
    // The added cost of the argument checks is at most the envelope's own when the ratio is at most 2.
    addRow({
      section: 'Daml packages',
      what: `diagnostics of a 100 KB commands file (${c.commands} commands) with argument checks: added ${fmt(c.withMs - c.withoutMs)} ms per change`,
      ours: c.withMs,
      baseline: c.withoutMs,
      unit: 'ms',
      goal: { kind: 'ratio-at-most', value: 2 },
      note: "validateText with the demo participant's packages (`{ packages: { packages: PackageIndex, source } }`); baseline: without, the envelope's checks alone (goal: the added cost at most the envelope's)",
    });
  });
}

// ---------------------------------------------------------------- PQS at scale

async function pqsBenchmark(): Promise<void> {
  if (!wanted('pqs')) return;
  const contracts = QUICK ? 200_000 : 1_000_000;
  await step(`PQS: keyset pages and payload filters over ${sizeName(contracts)} active contracts in PostgreSQL`, async () => {
    const pageSize = 100;
    const r = await runWorker<PqsInput, PqsOutput>('pqs', { contracts, pageSize, reps: QUICK ? 10 : 30 }, { timeoutMs: 15 * 60_000 });
    if (r.pageRows !== pageSize) throw new Error(`a page held ${r.pageRows} rows, not ${pageSize}`);
    addRow({
      section: 'PQS',
      what: `page 1,000 vs page 1 of a template's active contracts (${pageSize} a page, keyset) with ${sizeName(contracts)} active, PQS's own schema`,
      ours: r.page1000Ms,
      baseline: r.firstPageMs,
      unit: 'ms',
      goal: { kind: 'ratio-at-most', value: 1.5 },
      note: `the store loaded with generate_series in ${fmt(r.loadMs / 1000)} s`,
    });
    addRow({
      section: 'PQS',
      what: 'a payload-filtered first page (owner = one of 1,000 parties) with a PQS payload index vs without',
      ours: r.filteredIndexMs,
      baseline: r.filteredNoIndexMs,
      unit: 'ms',
      goal: { kind: 'none' },
      note: 'index made with create_index_for_contract (the PQS view suggests it and never creates it)',
    });
    addRow({
      section: 'PQS',
      what: 'a numeric payload filter (amount >= 9990) with the suggested index (the query\'s expression, cast included) vs without',
      ours: r.numericIndexMs,
      baseline: r.numericNoIndexMs,
      unit: 'ms',
      goal: { kind: 'ratio-at-most', value: 0.5 },
      note: 'the index is on ((payload #>> path)::numeric), the expression the filter writes',
    });
  });
}

// ---------------------------------------------------------------- 6. extension cost

async function extensionBenchmark(): Promise<void> {
  if (!wanted('extension')) return;
  await step('Extension cost: bundle size, activation in code-server next to a hello-world extension', async () => {
    const { measureExtensionCost } = (await import(path.join(__dirname, 'extensionCost.mjs'))) as {
      measureExtensionCost(o: { runs: number; log?: (m: string) => void }): Promise<ExtensionCost>;
    };
    const r = await measureExtensionCost({ runs: ACTIVATION_RUNS, log: (m) => console.log(`   ${m}`) });
    addRow({
      section: 'Extension cost',
      what: 'JavaScript in the packaged .vsix',
      ours: r.bundle.oursJsBytes / 1024,
      baseline: r.bundle.helloJsBytes / 1024,
      unit: 'KB',
      goal: { kind: 'ours-at-most', value: 300, unit: 'KB' },
      note: 'baseline: a hello-world extension',
    });
    addRow({
      section: 'Extension cost',
      what: `activation in an empty workspace (no Canton file, view or command) in VS Code ${r.vscodeVersion} (code-server), median of ${r.activation.oursMs.length}`,
      ours: r.activation.oursMedianMs,
      baseline: r.activation.helloMedianMs,
      unit: 'ms',
      goal: { kind: 'ratio-at-most', value: 1.5 },
      note: `baseline: a hello-world extension in the same VS Code; ${r.activation.method}`,
    });
    // What no entry can go below: VS Code's own cost of registering what must answer once the extension
    // is active (extensionCost.mjs's floor extension), against hello-world and against ours.
    addRow({
      section: 'Extension cost',
      what: `the activation floor: our ${r.floor.commands} commands, ${r.floor.views} views, ${r.floor.tools} language-model tools, document schemes, webview type and MCP server provider, each registered with an empty handler by an extension that does nothing else, median of ${r.activation.floorMs.length}`,
      ours: r.activation.floorMedianMs,
      baseline: r.activation.helloMedianMs,
      unit: 'ms',
      goal: { kind: 'none' },
      note: `baseline: hello-world's activation above (the goal of 1.5× it is ${(1.5 * r.activation.helloMedianMs).toFixed(2)} ms); our activation is ${(r.activation.oursMedianMs / r.activation.floorMedianMs).toFixed(2)}× this floor; once active, an extension gets no activation event, so all of these must be registered by activate()`,
    });
    // What a window pays at startup by itself: VS Code's own marks (1 ms resolution) of the activation
    // it made, against the same marks of hello-world's activations; nothing when it made none.
    const check = r.startupCheck;
    if (!check || 'error' in check) throw new Error(`the startup check failed: ${check?.error ?? 'not run'}`);
    const marksMs = (m: VsCodeMarks | null | undefined) => (m?.codeLoadingMs ?? NaN) + (m?.activateMs ?? NaN);
    const helloMarks = r.activation.medians.hello.vscodeCodeLoadingMs + r.activation.medians.hello.vscodeActivateMs;
    if (check.ours.activatedAtStartup && !Number.isFinite(marksMs(check.ours.vscodeMarks))) throw new Error('activated at startup, but VS Code recorded no marks of it');
    addRow({
      section: 'Extension cost',
      what: `startup in an empty workspace with the default settings: ${check.ours.activatedAtStartup ? `activated by itself (${check.ours.activationEvent ?? 'event not logged'})` : 'not activated'}`,
      ours: check.ours.activatedAtStartup ? marksMs(check.ours.vscodeMarks) : 0,
      baseline: helloMarks,
      unit: 'ms',
      goal: { kind: 'ratio-at-most', value: 1.5 },
      note: "code loading + activate() as VS Code's own marks record them (1 ms resolution); baseline: the same marks of hello-world's activations above (median)",
    });
    // The first use, feature by feature: the host with Connections, then each feature's added cost; in a
    // window after the first (the bundles compile with the code cache an earlier window left), and once
    // in the first window after the install.
    const [hostStep, viewsStep, ...others] = r.firstUse.nextWindowSteps;
    const [coldHostStep, coldViewsStep] = r.firstUse.steps;
    if (hostStep?.medianMs != null && viewsStep?.medianMs != null) {
      addRow({
        section: 'Extension cost',
        what: `first use of the Connections view with Updates in a window: loading the host and activating Connections, then the ledger views, median of ${hostStep.ms.length}`,
        ours: hostStep.medianMs + viewsStep.medianMs,
        baseline: r.activation.helloMedianMs,
        unit: 'ms',
        goal: { kind: 'ratio-at-most', value: 3 },
        note: `the first read of api.connections (${hostStep.medianMs} ms: ${hostStep.what}) and of api.views (${viewsStep.medianMs} ms: ${viewsStep.what}), after the activation above, in a window after the first (the bundles compile with the code cache it left); baseline: hello-world's activation`,
      });
    }
    if (coldHostStep?.medianMs != null && coldViewsStep?.medianMs != null) {
      addRow({
        section: 'Extension cost',
        what: `the same first use in the first window after the install (no code cache yet: every bundle compiled), median of ${coldHostStep.ms.length}`,
        ours: coldHostStep.medianMs + coldViewsStep.medianMs,
        baseline: r.activation.helloMedianMs,
        unit: 'ms',
        goal: { kind: 'none' },
        note: `api.connections ${coldHostStep.medianMs} ms, api.views ${coldViewsStep.medianMs} ms; baseline: hello-world's activation`,
      });
    }
    // The first use's floor: VS Code's own cost of registering what that first use registers (the commands
    // and views of the features it activates, in place of their stand-ins), with empty handlers.
    const floorFirstUse = r.activation.floorFirstUseMedianMs;
    if (r.floor.firstUse && floorFirstUse != null && hostStep?.medianMs != null && viewsStep?.medianMs != null) {
      addRow({
        section: 'Extension cost',
        what: `the first use's floor: the ${r.floor.firstUse.views} views of the features the first use of the Connections view with Updates activates, created again with empty providers by the floor extension (their commands keep the stand-ins), median of ${r.activation.floorMs.length}`,
        ours: floorFirstUse,
        baseline: r.activation.helloMedianMs,
        unit: 'ms',
        goal: { kind: 'none' },
        note: `baseline: hello-world's activation (the goal of 3× it is ${(3 * r.activation.helloMedianMs).toFixed(2)} ms); our first use is ${((hostStep.medianMs + viewsStep.medianMs) / floorFirstUse).toFixed(1)}× this floor: the rest is loading and running our code`,
      });
    }
    const parsed = firstUseBundles(r.bundle.oursFiles, r.firstUseFeatureBundles);
    addRow({
      section: 'Extension cost',
      what: 'JavaScript loaded at the first use of the Connections view with Updates',
      ours: parsed.bytes / 1024,
      baseline: r.bundle.helloJsBytes / 1024,
      unit: 'KB',
      goal: { kind: 'ours-at-most', value: 300, unit: 'KB' },
      note: `${parsed.files.join(', ')}; baseline: a hello-world extension's JavaScript`,
    });
    for (const step of others) {
      if (step.medianMs == null) continue;
      addRow({
        section: 'Extension cost',
        what: `first use of ${step.what} (added: its bundle and activation), median of ${step.ms.length}`,
        ours: step.medianMs,
        baseline: r.activation.helloMedianMs,
        unit: 'ms',
        goal: { kind: 'none' },
        note: `the first read of api.${step.property} after the steps before it; baseline: hello-world's activation`,
      });
    }
    // The .vsix's JavaScript per bundle (the chunks that features share as one row).
    const chunks = r.bundle.oursFiles.filter((f) => /^dist\/shared\./.test(f.path));
    for (const f of [...r.bundle.oursFiles.filter((x) => !/^dist\/shared\./.test(x.path)), { path: `dist/shared.*.js (${chunks.length} chunks that features share)`, bytes: chunks.reduce((t, c) => t + c.bytes, 0) }]) {
      addRow({ section: 'Extension cost', what: `.vsix JavaScript: ${f.path}`, ours: f.bytes / 1024, baseline: r.bundle.helloJsBytes / 1024, unit: 'KB', goal: { kind: 'none' }, note: 'production build; baseline: a hello-world extension' });
    }
  });
}

interface FirstUseStep {
  property: string;
  what: string;
  ms: number[];
  medianMs: number | null;
}

interface VsCodeMarks {
  codeLoadingMs: number | null;
  activateMs: number | null;
}

interface ExtensionCost {
  bundle: { oursJsBytes: number; helloJsBytes: number; oursFiles: { path: string; bytes: number }[] };
  /** The features the first use activates (scripts/build.mjs). */
  firstUseFeatureBundles: string[];
  /** What the floor extension registers. */
  floor: { commands: number; views: number; tools: number; firstUse: { views: number } | null };
  activation: {
    oursMs: number[];
    helloMs: number[];
    floorMs: number[];
    oursMedianMs: number;
    helloMedianMs: number;
    floorMedianMs: number;
    floorFirstUseMedianMs: number | null;
    method: string;
    medians: { hello: { vscodeCodeLoadingMs: number; vscodeActivateMs: number } };
  };
  /** `steps`: in the first window after the install; `nextWindowSteps`: in the window after it (code cache warm). */
  firstUse: { ms: number[]; medianMs: number | null; what: string; steps: FirstUseStep[]; nextWindowSteps: FirstUseStep[] };
  startupCheck?:
    | { error: string }
    | {
        ours: { activatedAtStartup: boolean; activationEvent: string | null; vscodeMarks: VsCodeMarks | null };
        hello: { activatedAtStartup: boolean; activationEvent: string | null; vscodeMarks: VsCodeMarks | null };
      };
  vscodeVersion: string;
}

// ---------------------------------------------------------------- report

function machine(): string {
  const cpus = os.cpus();
  return `${os.type()} ${os.release()}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, Node ${process.version}`;
}

function markdown(): string {
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}${QUICK ? ' (--quick)' : ''}.`,
    '',
    '| What | Ours | Baseline | Ratio | Goal | Met | Baseline is |',
    '| --- | ---: | ---: | ---: | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.what} | ${fmt(r.ours)} ${r.unit} | ${fmt(r.baseline)} ${r.unit} | ${fmtRatio(r.ratio)} | ${goalText(r.goal)} | ${r.met === undefined ? '—' : r.met ? 'yes' : '**no**'} | ${r.note ?? ''} |`,
    ),
  ];
  if (failures.length) lines.push('', 'Not measured:', ...failures.map((f) => `- ${f.split('\n')[0]}`));
  return lines.join('\n') + '\n';
}

function updateDocs(table: string): void {
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const doc = readFileSync(DOCS, 'utf8');
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a === -1 || b < a) throw new Error(`${DOCS} has no ${start} … ${end} section`);
  writeFileSync(DOCS, doc.slice(0, a + start.length) + '\n' + table + doc.slice(b));
  console.log(`updated ${path.relative(ROOT, DOCS)}`);
}

async function main(): Promise<void> {
  console.log(`Benchmark on ${machine()}${QUICK ? ' (quick)' : ''}`);
  await updatesBenchmarks().catch((e) => failures.push(`updates: ${(e as Error).stack ?? e}`));
  await acsBenchmark();
  await completionsBenchmark();
  await submitBenchmark();
  await scriptBenchmark();
  await tailBenchmark();
  await validateBenchmark();
  await graphBenchmark();
  await agentBenchmark();
  await networkBenchmark();
  await damlBenchmark();
  await pqsBenchmark();
  await extensionBenchmark();

  const table = markdown();
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(path.join(RESULTS_DIR, 'results.json'), JSON.stringify({ machine: machine(), quick: QUICK, rows, failures }, null, 2) + '\n');
  writeFileSync(path.join(RESULTS_DIR, 'results.md'), table);
  console.log('\n' + table);
  if (argv.includes('--update-docs')) updateDocs(table);
  const missed = rows.filter((r) => r.met === false).length;
  console.log(`${rows.length} figures, ${missed} goal${missed === 1 ? '' : 's'} missed, ${failures.length} not measured`);
  process.exitCode = failures.length ? 1 : 0;
}

void main();

/**
 * The bundles a first use loads: the entry, the kit (dist/features.js), the given features' bundles
 * and, transitively, the chunks they take shared modules from (named in their stubs).
 */
function firstUseBundles(files: { path: string; bytes: number }[], features: string[]): { files: string[]; bytes: number } {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const code = readFileSync(path.join(ROOT, 'dist', name), 'utf8');
    for (const [, chunk] of code.matchAll(/"(shared\.[^"]+\.js)"/g)) visit(chunk);
  };
  for (const name of ['extension.js', 'features.js', ...features]) visit(name);
  const names = [...seen];
  return { files: names, bytes: names.reduce((t, name) => t + (files.find((f) => f.path === `dist/${name}`)?.bytes ?? 0), 0) };
}
