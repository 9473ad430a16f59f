import * as vscode from 'vscode';
import * as path from 'node:path';
import type { ConnectionProfile } from '../../core/connections';
import type { DamlPackage } from '../../core/daml/model';
import type { PackageCache, PackageIndex } from '../../core/daml/packageIndex';
import type { Logger } from '../../core/log';
import type { ArgumentContext } from '../../core/files/argumentChecks';
import type { ConnectionManager } from '../connections/manager';

type DamlModule = typeof import('../../core/daml');

/** At most this many package archives are fetched at once from a participant. */
const FETCH_CONCURRENCY = 4;
const DAR_GLOBS_SETTING = 'packages.dars';

export type PackagesState =
  | { state: 'none' }
  | { state: 'loading'; source: string }
  | { state: 'ready'; context: ArgumentContext; packageIds: string[] }
  | { state: 'failed'; source: string; error: Error };

/**
 * The Daml packages the editor checks and completes against: the active connection's (read from the
 * participant once connected: the list, then each package not seen before), else those of the `.dar`
 * files in the workspace. A package id is the hash of its contents, so a decoded package is kept on disk
 * by id (global storage) and never fetched or decoded again, in any window or for any connection.
 */
export class LedgerPackages implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private lib: DamlModule | undefined;
  private cache: PackageCache | undefined;
  /** Per connection id: its packages (or the load in progress), for the connection's current client. */
  private readonly byConnection = new Map<string, { key: string; state: PackagesState; abort: AbortController }>();
  private dars: PackagesState = { state: 'none' };
  private darUris: vscode.Uri[] = [];
  private darScan: Promise<void> | undefined;
  private darScans = 0;
  /** Decoded packages by id, as JSON files: shared by every window and connection. */
  readonly cacheDir: vscode.Uri;

  constructor(
    private readonly connections: ConnectionManager,
    storageUri: vscode.Uri,
    private readonly extensionPath: string,
    private readonly logger: Logger,
  ) {
    this.cacheDir = vscode.Uri.joinPath(storageUri, 'daml-packages');
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.dar');
    // A deleted folder is reported as the folder, not as the .dar files in it.
    const deletions = vscode.workspace.createFileSystemWatcher('**/*', true, true, false);
    this.subscriptions.push(
      this.changed,
      watcher,
      deletions,
      watcher.onDidCreate(() => this.rescanDars()),
      watcher.onDidChange(() => this.rescanDars()),
      deletions.onDidDelete((uri) => this.darUris.some((d) => d.path === uri.path || d.path.startsWith(`${uri.path}/`)) && this.rescanDars()),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`cantonLedger.${DAR_GLOBS_SETTING}`) && this.rescanDars()),
      connections.onDidChange((id) => this.connectionChanged(id)),
      // A write that added packages (a DAR upload, through the connection's afterWrite): read them.
      connections.onDidChangeLedger((e) => {
        const profile = e.change.packages && this.byConnection.has(e.connectionId) ? connections.profiles.get(e.connectionId) : undefined;
        if (profile) this.reload(profile);
      }),
    );
  }

  /** The packages for the active connection or the workspace DARs: `undefined` while they load. */
  current(): ArgumentContext | 'unavailable' | undefined {
    const profile = this.connections.profiles.active();
    const fromConnection = profile ? this.stateOf(profile) : undefined;
    if (fromConnection?.state === 'ready') return fromConnection.context;
    if (fromConnection?.state === 'loading') return undefined;
    if (!this.darScan) this.rescanDars();
    if (this.dars.state === 'ready') return this.dars.context;
    if (this.dars.state === 'loading') return undefined;
    return 'unavailable';
  }

  /** What is known of a connection's packages; starts reading them once it is connected. */
  stateOf(profile: ConnectionProfile): PackagesState {
    const s = this.connections.state(profile.id);
    if (s.state !== 'connected') return { state: 'none' };
    // Packages only come (uploads: `refresh`), so a connection keeps what it read until it disconnects.
    const key = profile.url;
    const known = this.byConnection.get(profile.id);
    if (known?.key === key) return known.state;
    known?.abort.abort();
    const entry = { key, state: { state: 'loading', source: `on ${profile.name}` } as PackagesState, abort: new AbortController() };
    this.byConnection.set(profile.id, entry);
    void this.loadFromParticipant(profile, entry);
    return entry.state;
  }

  /**
   * Reads the connection's packages again (after an upload, say): new ids are fetched, the rest come
   * from the cache. The connection's vetting state is read again too (an upload may vet).
   */
  refresh(profile: ConnectionProfile): void {
    this.connections.ledger(profile.id)?.refreshVetting().catch(() => undefined);
    this.reload(profile);
  }

  private reload(profile: ConnectionProfile): void {
    this.byConnection.get(profile.id)?.abort.abort();
    this.byConnection.delete(profile.id);
    this.stateOf(profile);
    this.changed.fire();
  }

  private connectionChanged(id: string | undefined): void {
    for (const [connectionId, entry] of this.byConnection) {
      if (id !== undefined && id !== connectionId) continue;
      const profile = this.connections.profiles.get(connectionId);
      if (profile && this.connections.state(connectionId).state === 'connected') continue;
      entry.abort.abort();
      this.byConnection.delete(connectionId);
    }
    this.changed.fire();
  }

  private async loadFromParticipant(profile: ConnectionProfile, entry: { state: PackagesState; abort: AbortController }): Promise<void> {
    const signal = entry.abort.signal;
    const source = `on ${profile.name}`;
    try {
      const client = this.connections.client(profile);
      const ids = await client.packages({ signal });
      const lib = this.library();
      const packages = await mapLimited(ids, FETCH_CONCURRENCY, (id) => this.packageById(id, lib, (s) => client.packageArchive(id, { signal: s }), signal));
      entry.state = { state: 'ready', context: { packages: new lib.PackageIndex(packages), source }, packageIds: ids };
      this.logger.info(`Daml packages ${source}: ${ids.length} (${packages.reduce((n, p) => n + p.modules.reduce((m, mod) => m + mod.templates.length, 0), 0)} templates)`);
    } catch (e) {
      if (signal.aborted) return;
      entry.state = { state: 'failed', source, error: e as Error };
      this.logger.warn(`Daml packages ${source} could not be read: ${(e as Error).message}`);
    }
    this.changed.fire();
  }

  /** A package from memory, the disk cache, or (decoded once, then cached) `fetch`. */
  private async packageById(id: string, lib: DamlModule, fetch: (signal: AbortSignal) => Promise<Uint8Array>, signal: AbortSignal): Promise<DamlPackage> {
    const cache = this.packageCache(lib);
    const known = cache.get(id);
    if (known) return known;
    const file = vscode.Uri.joinPath(this.cacheDir, `${id}.json`);
    try {
      const stored = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))) as DamlPackage;
      if (stored.id === id) {
        cache.put(stored);
        return stored;
      }
    } catch {
      // Not cached yet (or unreadable): fetch it.
    }
    const pkg = cache.fromPayload(await fetch(signal), id);
    try {
      await vscode.workspace.fs.createDirectory(this.cacheDir);
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify(pkg)));
    } catch (e) {
      this.logger.debug(`Could not cache package ${id}: ${(e as Error).message}`);
    }
    return pkg;
  }

  private rescanDars(): void {
    const scan = ++this.darScans;
    this.darScan = this.scanDars(scan).then(() => {
      if (scan === this.darScans) this.changed.fire();
    });
  }

  /**
   * Scans run concurrently (a watcher event during a scan starts another); only the latest may set
   * the result, or a scan that listed the folder before a .dar arrived could answer last and hide it.
   */
  private async scanDars(scan: number): Promise<void> {
    const latest = () => scan === this.darScans;
    const globs = vscode.workspace.getConfiguration('cantonLedger').get<string[]>(DAR_GLOBS_SETTING, ['**/*.dar', '.daml/dist/*.dar']);
    const uris = new Map<string, vscode.Uri>();
    for (const glob of globs) for (const uri of await vscode.workspace.findFiles(glob, '**/node_modules/**')) uris.set(uri.toString(), uri);
    if (!latest()) return;
    this.darUris = [...uris.values()];
    if (uris.size === 0) {
      this.dars = { state: 'none' };
      return;
    }
    const names = [...uris.values()].map((u) => path.posix.basename(u.path));
    const source = `in ${names.length === 1 ? names[0] : `${names.length} .dar files`}`;
    this.dars = { state: 'loading', source };
    let result: PackagesState;
    try {
      const lib = this.library();
      const cache = this.packageCache(lib);
      const packages: DamlPackage[] = [];
      for (const uri of uris.values()) packages.push(...cache.fromDar(await vscode.workspace.fs.readFile(uri)).packages);
      result = { state: 'ready', context: { packages: new lib.PackageIndex(packages), source }, packageIds: packages.map((p) => p.id) };
    } catch (e) {
      result = { state: 'failed', source, error: e as Error };
      if (latest()) this.logger.warn(`Daml packages ${source} could not be read: ${(e as Error).message}`);
    }
    if (latest()) this.dars = result;
  }

  /** The decoder is a bundle of its own (dist/daml.js), loaded when packages are first read. */
  private library(): DamlModule {
    // A computed path keeps esbuild from inlining it into the extension bundle.
    this.lib ??= require(path.join(this.extensionPath, 'dist', 'daml.js')) as DamlModule;
    return this.lib;
  }

  private packageCache(lib: DamlModule): PackageCache {
    this.cache ??= new lib.PackageCache();
    return this.cache;
  }

  /** Forgets what this window decoded, as a new window starts: the disk cache then serves (tests). */
  forgetDecoded(): void {
    this.cache = undefined;
  }

  /** The index for a connection, when ready (for views and new files). */
  indexFor(profile: ConnectionProfile): PackageIndex | undefined {
    const s = this.stateOf(profile);
    return s.state === 'ready' ? s.context.packages : undefined;
  }

  dispose(): void {
    for (const entry of this.byConnection.values()) entry.abort.abort();
    this.subscriptions.forEach((s) => s.dispose());
  }
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
