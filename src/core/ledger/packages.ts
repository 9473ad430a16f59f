import type { DarContents } from '../daml/lf/archive';
import type { DamlPackage } from '../daml/model';
import type { PackageCache, PackageIndex, PackageIndexOptions } from '../daml/packageIndex';
import type { ArgumentContext, UnreadablePackages } from '../files/argumentChecks';
import { CancelledError } from '../errors';
import { silentLogger, type Logger } from '../log';
import { untilAborted } from './state';

/** At most this many package archives are fetched at once from a participant. */
export const PACKAGE_FETCH_CONCURRENCY = 4;

/** What is known of a set of Daml packages (a connection's, or the workspace DARs'). */
export type PackagesState =
  | { state: 'none' }
  | { state: 'loading'; source: string }
  /** Ready: what could be read (`context.unreadable`: what could not, each with its error). */
  | { state: 'ready'; context: ArgumentContext; packageIds: string[] }
  | { state: 'failed'; source: string; error: Error };

/**
 * The decoder's classes. The decoder (protobufjs, fflate) is heavy: the extension keeps it in a bundle
 * of its own and hands it in when packages are first read, so nothing here imports it.
 */
export interface DamlDecoder {
  PackageCache: new () => PackageCache;
  PackageIndex: new (packages?: Iterable<DamlPackage>, options?: PackageIndexOptions) => PackageIndex;
  /** A DAR's packages and which is its main one (for the report of an upload). */
  readDar(bytes: Uint8Array): DarContents;
}

/**
 * Where decoded packages are kept between runs, by package id (a package id is the hash of its
 * contents, so a stored package never goes stale). The extension backs it with its global storage.
 */
export interface PackageStorage {
  /** The stored package, or undefined when there is none (or it cannot be read). */
  read(id: string): Promise<DamlPackage | undefined>;
  write(pkg: DamlPackage): Promise<void>;
}

/** What a participant serves its packages through (a LedgerClient). */
export interface PackageSource {
  packages(o: { signal?: AbortSignal }): Promise<string[]>;
  packageArchive(id: string, o: { signal?: AbortSignal }): Promise<Uint8Array>;
}

/**
 * Decoded Daml packages by id, shared by every connection of a process: each package is fetched and
 * decoded once, then served from memory, else from the storage.
 */
export class PackageStore {
  private decoderLib: DamlDecoder | undefined;
  private cache: PackageCache | undefined;
  /** The packages being read now, by id. */
  private readonly loading = new Map<string, Promise<DamlPackage>>();

  constructor(
    private readonly loadDecoder: () => DamlDecoder,
    private readonly storage?: PackageStorage,
    private readonly logger: Logger = silentLogger,
  ) {}

  /** The decoder, loaded on first use. */
  get decoder(): DamlDecoder {
    this.decoderLib ??= this.loadDecoder();
    return this.decoderLib;
  }

  private get decoded(): PackageCache {
    this.cache ??= new this.decoder.PackageCache();
    return this.cache;
  }

  /** Forgets what this process decoded (as a new window starts): the storage then serves. */
  forgetDecoded(): void {
    this.cache = undefined;
  }

  /**
   * The participant's packages: its list, then each package from memory, the storage, or (fetched,
   * decoded once, then stored) the participant, at most PACKAGE_FETCH_CONCURRENCY at once. Each package
   * on its own: one that cannot be fetched or decoded (a 500, an HTML page, damaged bytes, a timeout,
   * over the size cap) is named in `unreadable` with its error, and the others are read all the same.
   * The list itself failing, or a cancel, fails the read.
   */
  async read(source: PackageSource, signal: AbortSignal): Promise<{ ids: string[]; packages: DamlPackage[]; unreadable: UnreadablePackages[] }> {
    const ids = await source.packages({ signal });
    const read = await mapLimited(ids, PACKAGE_FETCH_CONCURRENCY, async (id): Promise<DamlPackage | UnreadablePackages> => {
      try {
        return await this.byId(id, (s) => source.packageArchive(id, { signal: s }), signal);
      } catch (e) {
        if (signal.aborted) throw e instanceof CancelledError ? e : new CancelledError();
        return { name: `package ${id}`, packageId: id, error: e instanceof Error ? e : new Error(String(e)) };
      }
    });
    const packages = read.filter((r): r is DamlPackage => !('error' in r));
    const unreadable = read.filter((r): r is UnreadablePackages => 'error' in r);
    return { ids, packages, unreadable };
  }

  /** A DAR read with the decoder (loaded now if it was not yet). */
  readDar(bytes: Uint8Array): DarContents {
    return this.decoder.readDar(bytes);
  }

  /**
   * The packages of DARs (their bytes, by file name); those already decoded are not decoded again. A DAR
   * that cannot be read is named in `unreadable` with its error; the others are read all the same.
   */
  fromDars(dars: Iterable<{ name: string; bytes: Uint8Array }>): { packages: DamlPackage[]; unreadable: UnreadablePackages[] } {
    const packages: DamlPackage[] = [];
    const unreadable: UnreadablePackages[] = [];
    for (const dar of dars) {
      try {
        packages.push(...this.decoded.fromDar(dar.bytes).packages);
      } catch (e) {
        unreadable.push({ name: dar.name, error: e instanceof Error ? e : new Error(String(e)) });
      }
    }
    return { packages, unreadable };
  }

  /** Packages as the argument checks take them, with what could not be read and the participant's vetting state (where there is one). */
  context(packages: Iterable<DamlPackage>, source: string, extra: { unreadable?: readonly UnreadablePackages[]; index?: PackageIndexOptions } = {}): ArgumentContext {
    const unreadable = extra.unreadable ?? [];
    return { packages: new this.decoder.PackageIndex(packages, extra.index), source, ...(unreadable.length > 0 ? { unreadable } : {}) };
  }

  /**
   * A package from memory, else the one being read already (a read started while another ran, as a
   * reload does, joins its fetches instead of fetching the same package again), else read now. A joined
   * read that was cancelled (its connection went) is read again with this read's own signal.
   */
  private async byId(id: string, fetch: (signal: AbortSignal) => Promise<Uint8Array>, signal: AbortSignal): Promise<DamlPackage> {
    const known = this.decoded.get(id);
    if (known) return known;
    const inFlight = this.loading.get(id);
    if (inFlight) {
      try {
        return await untilAborted(inFlight, signal);
      } catch (e) {
        if (signal.aborted || !(e instanceof CancelledError)) throw e;
      }
    }
    const load = this.load(id, fetch, signal);
    this.loading.set(id, load);
    try {
      return await load;
    } finally {
      if (this.loading.get(id) === load) this.loading.delete(id);
    }
  }

  private async load(id: string, fetch: (signal: AbortSignal) => Promise<Uint8Array>, signal: AbortSignal): Promise<DamlPackage> {
    const cache = this.decoded;
    const stored = await this.storage?.read(id).catch(() => undefined);
    if (stored?.id === id) {
      cache.put(stored);
      return stored;
    }
    const pkg = cache.fromPayload(await fetch(signal), id);
    try {
      await this.storage?.write(pkg);
    } catch (e) {
      this.logger.debug(`Could not store package ${id}: ${(e as Error).message}`);
    }
    return pkg;
  }
}

/**
 * The packages the editor and `validate` check Daml arguments against: a connection's while it has
 * them (or is reading them), else the workspace's DARs. `fromDars` is asked only when needed (the
 * editor scans the workspace for DARs only then). Undefined while the chosen packages load.
 */
export function packagesInUse(fromConnection: PackagesState | undefined, fromDars: () => PackagesState): ArgumentContext | 'unavailable' | undefined {
  if (fromConnection?.state === 'ready') return fromConnection.context;
  if (fromConnection?.state === 'loading') return undefined;
  const dars = fromDars();
  if (dars.state === 'ready') return dars.context;
  if (dars.state === 'loading') return undefined;
  return 'unavailable';
}

/**
 * The one warning of a read that left packages out: each unreadable package (or .dar) with its error,
 * and what that means for the checks.
 */
export function unreadableWarning(unreadable: readonly UnreadablePackages[], source: string): string {
  const list = unreadable.map((u) => `${u.name} (${u.error.message})`).join('; ');
  return `${unreadable.length} of the Daml packages ${source} could not be read, and the commands on the templates they hold are not checked: ${list}`;
}

/** Template count of packages, for the log line after a read. */
export function templateCount(packages: readonly DamlPackage[]): number {
  return packages.reduce((n, p) => n + p.modules.reduce((m, mod) => m + mod.templates.length, 0), 0);
}

/** `f` over `items`, at most `limit` at a time, results in order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await f(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
