// Loads the extension's own bundles (dist/*.js) with V8's code cache. Most of a feature's first use in a
// window is compiling its bundles (docs/performance.md); VS Code compiles an extension's modules afresh in
// every window, so the entry loads ours through this instead: each bundle is compiled with the cache that an
// earlier window left in the extension's global storage, and a bundle compiled without one has its cache
// written a moment after its first use (once the functions it ran are compiled, so that they are cached too).
//
// Only our bundles go through it (a bundle's require of another file in its folder); everything else they
// require (vscode, Node's modules) is required by the bundle's own module, once for all. A cache holds the
// source it was made from, compared byte for byte before use: V8 itself checks only the source's length, so
// a rebuilt bundle of the same length must not find the old cache (a hash of the source would do as well,
// but the first one in a process costs more than the rest of the check). A cache V8 refuses (another V8,
// other flags) is replaced.
//
// No 'vscode' here: it runs in unit tests as it is.
import Module = require('node:module');
import fs = require('node:fs');
import path = require('node:path');
import vm = require('node:vm');

/** How a bundle was compiled: with the code cache of an earlier window, or without one (and why). */
export type CacheUse = 'used' | 'none' | 'rejected';

interface Compiled {
  script: vm.Script;
  cache: CacheUse;
  /** The source of a bundle whose cache is still to be written (compiled without a usable one, caches kept). */
  unsaved: Buffer | undefined;
}

/** The parts of `Module` that loading a file as `require` does uses and that @types/node leaves out. */
interface ModuleInternals {
  _cache: Record<string, NodeModule>;
  _nodeModulePaths(from: string): string[];
  wrap(source: string): string;
  new (id: string, parent?: NodeModule): NodeModule & { paths: string[]; loaded: boolean };
}

const internals = Module as unknown as ModuleInternals;

/**
 * A cache's file name: `<bundle>.v8`. Its content: the source's length (4 bytes, little-endian), the source
 * as it was compiled, then V8's data.
 */
const CACHE_NAME = /^(.+\.js)\.v8$/;
const LENGTH_BYTES = 4;

/** V8's data in a cache file, if the file was made from this source. */
function cachedDataFor(source: Buffer, file: Buffer | undefined): Buffer | undefined {
  if (!file || file.length < LENGTH_BYTES || file.readUInt32LE(0) !== source.length) return undefined;
  const end = LENGTH_BYTES + source.length;
  return file.subarray(LENGTH_BYTES, end).equals(source) ? file.subarray(end) : undefined;
}

function cacheFileContent(source: Buffer, data: Buffer): Buffer {
  const length = Buffer.alloc(LENGTH_BYTES);
  length.writeUInt32LE(source.length, 0);
  return Buffer.concat([length, source, data]);
}

/** The bundles that have a cache in `cacheDir` (none when it does not exist). */
export function cachedBundles(cacheDir: string): string[] {
  const files = fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : [];
  return files.flatMap((f) => CACHE_NAME.exec(f)?.[1] ?? []);
}

export class BundleLoader {
  private readonly compiled = new Map<string, Compiled>();
  /**
   * What the bundles required by name (`vscode`, Node's modules), once for all of them: they share one
   * folder, so a name resolves alike from each, and VS Code resolves the real path of the requiring file
   * (a stat per folder of it) on every require of its API, which each module of a bundle makes.
   */
  private readonly byName = new Map<string, unknown>();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  private readonly dir: string;

  constructor(
    /** The folder of the bundles: a bundle's require of a `.js` file in it is loaded by this loader too. */
    dir: string,
    /** Where the caches are kept; without it, the bundles are compiled as require would. */
    private readonly cacheDir: string | undefined,
    /** The module the bundles are loaded for (the entry's). */
    private readonly parent: NodeModule,
    /** How long after a bundle is first loaded its cache is written (the functions it runs then are cached too). */
    private readonly saveDelayMs = 3000,
  ) {
    this.dir = path.resolve(dir);
  }

  /** The exports of a bundle of the folder, loaded once (shared with `require`, which finds it in its cache). */
  require(file: string): unknown {
    const filename = path.resolve(file);
    const known = internals._cache[filename];
    if (known) return known.exports;
    const module = new internals(filename, this.parent);
    module.filename = filename;
    module.paths = internals._nodeModulePaths(path.dirname(filename));
    internals._cache[filename] = module;
    try {
      const run = this.compile(filename).runInThisContext({ displayErrors: true }) as (...args: unknown[]) => void;
      run.call(module.exports, module.exports, this.requireFor(module), module, filename, path.dirname(filename));
    } catch (e) {
      delete internals._cache[filename];
      this.compiled.delete(filename);
      throw e;
    }
    module.loaded = true;
    this.scheduleSave();
    return module.exports;
  }

  /** How each bundle loaded so far was compiled. */
  cacheUse(): Record<string, CacheUse> {
    return Object.fromEntries([...this.compiled].map(([file, c]) => [path.basename(file), c.cache]));
  }

  /**
   * Writes the cache of each bundle that was compiled without a usable one (over the cache of an earlier
   * build), and removes the caches of bundles this build does not have and those of an older naming. A
   * cache that cannot be written costs the next window its compile, nothing else: failures are not reported.
   */
  async save(): Promise<void> {
    if (!this.cacheDir) return;
    const dir = this.cacheDir;
    const todo = [...this.compiled].filter(([, c]) => c.unsaved);
    if (!todo.length) return;
    await fs.promises.mkdir(dir, { recursive: true }).catch(() => undefined);
    for (const [file, c] of todo) {
      const source = c.unsaved!;
      c.unsaved = undefined;
      try {
        // Written under another name and renamed, so that a window reading it meanwhile finds all of it or nothing.
        const cacheFile = this.cacheFileOf(file, dir);
        const partial = `${cacheFile}.${process.pid}.tmp`;
        await fs.promises.writeFile(partial, cacheFileContent(source, c.script.createCachedData()));
        await fs.promises.rename(partial, cacheFile);
      } catch {
        // Not cached: the next window compiles this bundle as VS Code would have.
      }
    }
    const shipped = new Set(await fs.promises.readdir(this.dir).catch(() => [] as string[]));
    const stale = (await fs.promises.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.v8') && !shipped.has(CACHE_NAME.exec(f)?.[1] ?? ''));
    await Promise.all(stale.map((f) => fs.promises.rm(path.join(dir, f), { force: true }).catch(() => undefined)));
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.saveTimer);
  }

  private compile(filename: string): vm.Script {
    // Read once as bytes: compared with the cache's source as they are, decoded once for V8.
    const bytes = fs.readFileSync(filename);
    const wrapped = internals.wrap(bytes.toString('utf8'));
    const cachedData = this.cacheDir ? cachedDataFor(bytes, readIfThere(this.cacheFileOf(filename, this.cacheDir))) : undefined;
    const script = new vm.Script(wrapped, { filename, cachedData });
    const cache = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
    this.compiled.set(filename, { script, cache, unsaved: this.cacheDir && cache !== 'used' ? bytes : undefined });
    return script;
  }

  private cacheFileOf(bundle: string, cacheDir: string): string {
    return path.join(cacheDir, `${path.basename(bundle)}.v8`);
  }

  /** A bundle's `require`: the folder's other bundles through this loader, anything else as usual. */
  private requireFor(module: NodeModule): NodeJS.Require {
    const from = path.dirname(module.filename);
    const ownRequire = ((id: string) => {
      const target = id.startsWith('.') || path.isAbsolute(id) ? path.resolve(from, id) : undefined;
      if (target) return path.dirname(target) === this.dir && target.endsWith('.js') ? this.require(target) : module.require(id);
      if (!this.byName.has(id)) this.byName.set(id, module.require(id));
      return this.byName.get(id);
    }) as NodeJS.Require;
    ownRequire.resolve = ((request: string, options?: { paths?: string[] }) => Module.createRequire(module.filename).resolve(request, options)) as NodeJS.RequireResolve;
    ownRequire.cache = internals._cache;
    ownRequire.main = require.main;
    return ownRequire;
  }

  private scheduleSave(): void {
    if (!this.cacheDir || this.disposed) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.save(), this.saveDelayMs);
    this.saveTimer.unref?.();
  }
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}
