/**
 * Shared pieces of the benchmark (`npm run bench`): measurements run in child processes of their own
 * (fresh heap, their own peak memory), talking to the parent over IPC.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';

export const BENCH_DIR = __dirname;
export const ROOT = path.resolve(BENCH_DIR, '../..');

/** Node flags of every bench process: `global.gc` for heap readings. */
const EXEC_ARGV = ['--expose-gc'];

/**
 * The bench processes (workers, participant) run our code bundled by esbuild, as the extension and
 * the CLI ship it, not through tsx. tsx turns every name a module imports into a getter call, which
 * the shipped bundles do not have, and that cost falls unevenly: code that calls across many modules
 * (the script runner and its checks) pays several per cent more than the client it is compared with.
 * Built with the shipped build's options, except that the packages of node_modules stay outside the
 * bundles (required as under tsx). Built once per process.
 */
let bundles: Promise<string> | undefined;

async function benchBundle(entry: string): Promise<string> {
  bundles ??= buildBundles();
  return path.join(await bundles, `${entry}.js`);
}

async function buildBundles(): Promise<string> {
  // Inside the repository, so that the packages left outside resolve from its node_modules.
  const cache = path.join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const outdir = mkdtempSync(path.join(cache, 'bench-'));
  process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
  // Imported here, not at the top: the workers' bundles hold this module too, and never build.
  const { build } = await import('esbuild');
  // The shipped build's options (target, format, shims), so that the code is linked as it ships.
  const { common } = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'build.mjs')).href)) as { common: esbuild.BuildOptions };
  const workers = readdirSync(path.join(BENCH_DIR, 'workers')).filter((f) => f.endsWith('.ts'));
  await build({
    ...common,
    entryPoints: {
      participant: path.join(BENCH_DIR, 'participant.ts'),
      ...Object.fromEntries(workers.map((f) => [`workers/${path.basename(f, '.ts')}`, path.join(BENCH_DIR, 'workers', f)])),
    },
    outdir,
    sourcemap: false,
    packages: 'external',
    plugins: [moduleDirname],
  });
  return outdir;
}

/** Each module's `__dirname` stays its own source directory (paths to fixtures are made from it), not the bundle's. */
const moduleDirname: esbuild.Plugin = {
  name: 'module-dirname',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(/\b__dirname\b/g, JSON.stringify(path.dirname(args.path))),
      loader: 'ts',
    }));
  },
};

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const MB = 1024 * 1024;

/** Heap in use after a full collection (needs --expose-gc). */
export function settledHeap(): number {
  for (let i = 0; i < 3; i++) global.gc?.();
  return process.memoryUsage().heapUsed;
}

/**
 * Peak resident memory of this process since its start or the last {@link resetPeakRss}, in bytes.
 * On Linux it is the process's own high-water mark (`VmHWM`): `maxRSS` also keeps, across the exec
 * that started a worker, the resident memory of the parent that forked it (the bench runner's, some
 * 500 MB once it has fetched the largest update list), which is no part of the worker's.
 */
export function peakRss(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) * 1024;
  } catch {
    // No procfs: the lifetime peak the system keeps.
  }
  return process.resourceUsage().maxRSS * 1024;
}

/**
 * Starts the peak over: on Linux the high-water mark is reset (5 written to `/proc/self/clear_refs`).
 * Without it the peak would be the process's whole life — its start and the warm-up runs, whose
 * garbage may have been returned since — and a growth measured from the settled heap before the
 * timed runs would count that. Elsewhere the lifetime peak stays.
 */
function resetPeakRss(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux (or no procfs): the peak stays the lifetime one.
  }
}

/**
 * Times `reps` runs of `once` after `warmup` untimed ones; the peak memory growth is that of the timed
 * runs, from a settled heap before them.
 */
export async function timeRuns<T>(once: () => Promise<T>, o: { reps: number; warmup: number }): Promise<{ ms: number[]; result: T; peakRssGrowth: number }> {
  for (let i = 0; i < o.warmup; i++) await once();
  settledHeap();
  resetPeakRss();
  const rssBefore = process.memoryUsage().rss;
  const ms: number[] = [];
  let result!: T;
  for (let i = 0; i < o.reps; i++) {
    const t0 = performance.now();
    result = await once();
    ms.push(performance.now() - t0);
  }
  return { ms, result, peakRssGrowth: Math.max(0, peakRss() - rssBefore) };
}

/** Runs `workers/<name>.ts` (bundled) with `input`, resolving with the one result it sends back. */
export async function runWorker<I, O>(
  name: string,
  input: I,
  opts: {
    heapMb?: number;
    timeoutMs?: number;
    /**
     * Once it has reported progress, the worker is stalled (killed, and the run rejected) when it
     * sends no message for this long; before that `timeoutMs` bounds its start.
     */
    stallMs?: number;
    onProgress?: (message: unknown) => void;
    /** Aborting kills the worker and rejects with the reason. */
    signal?: AbortSignal;
  } = {},
): Promise<O> {
  const execArgv = [...EXEC_ARGV, ...(opts.heapMb ? [`--max-old-space-size=${opts.heapMb}`] : [])];
  const child = fork(await benchBundle(`workers/${name}`), [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise<O>((resolve, reject) => {
    let result: { ok: true; value: O } | { ok: false; error: string } | undefined;
    let ended: Error | undefined;
    const end = (error: Error) => {
      ended ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => end(new Error(`bench worker ${name} took longer than ${opts.timeoutMs} ms`)), opts.timeoutMs ?? 10 * 60_000);
    let stall: ReturnType<typeof setTimeout> | undefined;
    const watchStall = () => {
      if (opts.stallMs === undefined) return;
      clearTimeout(stall);
      stall = setTimeout(() => end(new Error(`bench worker ${name} stalled: no progress for ${opts.stallMs} ms`)), opts.stallMs);
    };
    const onAbort = () => end(opts.signal!.reason instanceof Error ? opts.signal!.reason : new Error(String(opts.signal!.reason)));
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('message', (m) => {
      watchStall();
      if (m && typeof m === 'object' && 'ok' in m) result = m as typeof result;
      else opts.onProgress?.(m);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(stall);
      opts.signal?.removeEventListener('abort', onAbort);
      if (ended) reject(ended);
      else if (result?.ok) resolve(result.value);
      else reject(new Error(`bench worker ${name} failed (${signal ?? `exit ${code}`}): ${result && !result.ok ? result.error : 'no result'}`));
    });
    child.send(input as object);
  });
}

/** The worker side of {@link runWorker}: receives the input, sends the result (or the error), exits. */
export function workerMain<I, O>(work: (input: I) => Promise<O>): void {
  process.once('message', (input) => {
    work(input as I).then(
      (value) => process.send!({ ok: true, value }, () => process.exit(0)),
      (e: unknown) => process.send!({ ok: false, error: (e as Error)?.stack ?? String(e) }, () => process.exit(1)),
    );
  });
}

/** A child process that holds a demo participant, asked to do things over IPC (see participant.ts). */
export class ParticipantProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private constructor(private readonly child: ChildProcess, readonly info: ParticipantInfo) {
    child.on('message', (m) => {
      const msg = m as { id: number; ok: boolean; value?: unknown; error?: string };
      const w = this.waiting.get(msg.id);
      this.waiting.delete(msg.id);
      if (msg.ok) w?.resolve(msg.value);
      else w?.reject(new Error(msg.error));
    });
    child.on('exit', () => {
      for (const w of this.waiting.values()) w.reject(new Error('the bench participant exited'));
      this.waiting.clear();
    });
  }

  static async start(options: ParticipantSetup): Promise<ParticipantProcess> {
    const child = fork(await benchBundle('participant'), [], { execArgv: [...EXEC_ARGV, '--max-old-space-size=8192'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const info = await new Promise<ParticipantInfo>((resolve, reject) => {
      child.once('message', (m) => resolve(m as ParticipantInfo));
      child.once('exit', (code) => reject(new Error(`the bench participant exited (${code}) before it was ready`)));
      child.send(options);
    });
    return new ParticipantProcess(child, info);
  }

  call<T = unknown>(request: ParticipantRequest): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, ...request });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await exited;
  }
}

export interface ParticipantSetup {
  apiVersion?: '3.4' | '3.5' | '3.6';
  synchronizers?: 1 | 2;
  listCap?: number;
  /** Synthetic updates written before it answers ready. */
  updates?: number;
  /** Active Ious created directly on the ledger (no HTTP) before it answers ready. */
  activeContracts?: number;
  /** Instead of one participant, a demo network of these participants (no seed history). */
  network?: string[];
}

export interface ParticipantInfo {
  url: string;
  /** A network's participants' URLs, in the order named (the first is `url`). */
  urls?: string[];
  ledgerEnd: number;
  parties: Record<string, string>;
}

export type ParticipantRequest =
  | { op: 'append'; count: number }
  | { op: 'prune'; offset: number }
  | { op: 'ledgerEnd' }
  /** Counts of the requests served since the last reset, by "METHOD /path". */
  | { op: 'requests'; reset?: boolean };
