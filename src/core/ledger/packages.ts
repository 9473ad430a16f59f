import type { DarContents } from '../daml/lf/archive';
import type { DamlPackage } from '../daml/model';
import type { PackageCache, PackageIndex, PackageIndexOptions } from '../daml/packageIndex';
import type { ArgumentContext } from '../files/argumentChecks';
import { silentLogger, type Logger } from '../log';

/** At most this many package archives are fetched at once from a participant. */
export const PACKAGE_FETCH_CONCURRENCY = 4;

/** What is known of a set of Daml packages (a connection's, or the workspace DARs'). */
export type PackagesState =
  | { state: 'none' }
  | { state: 'loading'; source: string }
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
   * decoded once, then stored) the participant, at most PACKAGE_FETCH_CONCURRENCY at once.
   */
  async read(source: PackageSource, signal: AbortSignal): Promise<{ ids: string[]; packages: DamlPackage[] }> {
    const ids = await source.packages({ signal });
    const packages = await mapLimited(ids, PACKAGE_FETCH_CONCURRENCY, (id) => this.byId(id, (s) => source.packageArchive(id, { signal: s }), signal));
    return { ids, packages };
  }

  /** The packages of DARs (their bytes); those already decoded are not decoded again. @throws LfDecodeError */
  /** A DAR read with the decoder (loaded now if it was not yet). */
  readDar(bytes: Uint8Array): DarContents {
    return this.decoder.readDar(bytes);
  }

  fromDars(dars: Iterable<Uint8Array>): DamlPackage[] {
    return [...dars].flatMap((bytes) => this.decoded.fromDar(bytes).packages);
  }

  /** Packages as the argument checks take them (with the participant's vetting state, where there is one). */
  context(packages: Iterable<DamlPackage>, source: string, options?: PackageIndexOptions): ArgumentContext {
    return { packages: new this.decoder.PackageIndex(packages, options), source };
  }

  private async byId(id: string, fetch: (signal: AbortSignal) => Promise<Uint8Array>, signal: AbortSignal): Promise<DamlPackage> {
    const cache = this.decoded;
    const known = cache.get(id);
    if (known) return known;
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

/** Template count of packages, for the log line after a read. */
export function templateCount(packages: readonly DamlPackage[]): number {
  return packages.reduce((n, p) => n + p.modules.reduce((m, mod) => m + mod.templates.length, 0), 0);
}

/** `f` over `items`, at most `limit` at a time, results in order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
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
