import vscode = require('vscode');
import * as path from 'node:path';
import type { LedgerConnection } from '../../core/ledger/connection';
import type { DamlPackage } from '../../core/daml/model';
import type { DarContents } from '../../core/daml/lf/archive';
import type { PackageIndex } from '../../core/daml/packageIndex';
import { PackageStore, packagesInUse, unreadableWarning, type DamlDecoder, type PackagesState, type PackageStorage } from '../../core/ledger/packages';
import type { Logger } from '../../core/log';
import type { ArgumentContext } from '../../core/files/argumentChecks';
import type { ConnectionManager } from '../connections/manager';
import { Disposable } from './lifecycle';

export type { PackagesState } from '../../core/ledger/packages';

const DAR_GLOBS_SETTING = 'packages.dars';

/**
 * The package store of the extension: decoded packages kept on disk by id in global storage (shared by
 * every window and connection), and the decoder loaded from its own bundle (dist/daml.js) when
 * packages are first read.
 */
export function extensionPackageStore(storageUri: vscode.Uri, extensionPath: string, logger: Logger): { store: PackageStore; cacheDir: vscode.Uri } {
  // A new folder when the decoded form grows (choices' controllers): files of the old form lack it.
  const cacheDir = vscode.Uri.joinPath(storageUri, 'daml-packages-2');
  const file = (id: string) => vscode.Uri.joinPath(cacheDir, `${id}.json`);
  const storage: PackageStorage = {
    async read(id) {
      try {
        return JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file(id)))) as DamlPackage;
      } catch {
        // Not stored yet (or unreadable): the store fetches it.
        return undefined;
      }
    },
    async write(pkg) {
      await vscode.workspace.fs.createDirectory(cacheDir);
      await vscode.workspace.fs.writeFile(file(pkg.id), new TextEncoder().encode(JSON.stringify(pkg)));
    },
  };
  // A computed path keeps esbuild from inlining the decoder into the extension bundle.
  const decoder = () => require(path.join(extensionPath, 'dist', 'daml.js')) as DamlDecoder;
  return { store: new PackageStore(decoder, storage, logger), cacheDir };
}

/**
 * The Daml packages the editor checks and completes against: the active connection's (its
 * LedgerConnection reads them once connected), else those of the `.dar` files in the workspace.
 */
export class LedgerPackages extends Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private dars: PackagesState = { state: 'none' };
  private darUris: vscode.Uri[] = [];
  private darScan: Promise<void> | undefined;
  private darScans = 0;

  /** The packages of a DAR's bytes, decoded (a ledger script's `uploadDar` step reads its DAR with it). */
  readDar(bytes: Uint8Array): DarContents {
    return this.store.readDar(bytes);
  }

  constructor(
    private readonly connections: ConnectionManager,
    private readonly store: PackageStore,
    /** Decoded packages by id, as JSON files: shared by every window and connection. */
    readonly cacheDir: vscode.Uri,
    private readonly logger: Logger,
  ) {
    super();
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.dar');
    // A folder is reported as the folder, not as the .dar files in it: deleted, and also created when
    // its files were written before the watcher saw the new folder (a folder copied in, or a .dar written
    // right after its folder was made: then no event names the .dar).
    const folders = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    this._registerAll(
      this.changed,
      watcher,
      folders,
      watcher.onDidCreate(() => this.rescanDars()),
      watcher.onDidChange(() => this.rescanDars()),
      folders.onDidCreate((uri) => void this.rescanIfFolder(uri)),
      folders.onDidDelete((uri) => this.darUris.some((d) => d.path === uri.path || d.path.startsWith(`${uri.path}/`)) && this.rescanDars()),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`cantonLedger.${DAR_GLOBS_SETTING}`) && this.rescanDars()),
      connections.onDidChange(() => this.changed.fire()),
      connections.onDidChangePackages(() => this.changed.fire()),
      // The vetting state decides which version a package name stands for.
      connections.onDidChangeLedger((e) => e.change.vetting && this.changed.fire()),
    );
  }

  /** The packages for the active connection or the workspace DARs: `undefined` while they load. */
  current(): ArgumentContext | 'unavailable' | undefined {
    const connection = this.connections.active();
    return packagesInUse(connection ? this.stateOf(connection) : undefined, () => {
      if (!this.darScan) this.rescanDars();
      return this.dars;
    });
  }

  /**
   * The active connection's parties, for the aliases of a ledger script; undefined when not connected,
   * or when its user cannot list them all (an alias may then stand for a party it does not see).
   */
  parties(): { ids: string[]; source: string } | undefined {
    const connection = this.connections.activeConnection();
    const state = connection?.state;
    if (!connection || state?.state !== 'connected' || state.info.partiesFromRights) return undefined;
    return { ids: state.info.parties.map((p) => p.party), source: `on ${connection.profile.name}` };
  }

  /** What is known of a connection's packages; starts reading them once it is connected. */
  stateOf(connection: LedgerConnection): PackagesState {
    return connection.packages();
  }

  /**
   * Reads the connection's packages again (a Refresh): new ids are fetched, the rest come from the
   * store. The connection's vetting state is read again too.
   */
  refresh(connection: LedgerConnection): void {
    connection.ledger?.refreshVetting().catch(() => undefined);
    connection.reloadPackages();
    this.changed.fire();
  }

  private async rescanIfFolder(uri: vscode.Uri): Promise<void> {
    if (uri.path.endsWith('.dar') || uri.path.includes('/node_modules/')) return;
    try {
      if ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) this.rescanDars();
    } catch {
      // Gone again already: nothing to scan.
    }
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
      const dars: Array<{ name: string; bytes: Uint8Array }> = [];
      for (const uri of uris.values()) dars.push({ name: path.posix.basename(uri.path), bytes: await vscode.workspace.fs.readFile(uri) });
      // Each .dar on its own: one that cannot be read is named once, and the others are used.
      const { packages, unreadable } = this.store.fromDars(dars);
      if (unreadable.length > 0 && latest()) this.logger.warn(unreadableWarning(unreadable, source));
      result = { state: 'ready', context: this.store.context(packages, source, { unreadable }), packageIds: packages.map((p) => p.id) };
    } catch (e) {
      result = { state: 'failed', source, error: e as Error };
      if (latest()) this.logger.warn(`Daml packages ${source} could not be read: ${(e as Error).message}`);
    }
    if (latest()) this.dars = result;
  }

  /** Forgets what this window decoded, as a new window starts: the disk cache then serves (tests). */
  forgetDecoded(): void {
    this.store.forgetDecoded();
  }

  /**
   * A connection's packages once read: 'ready' or 'failed' (a read in progress is joined, else one
   * starts); rejects with CancelledError when `signal` aborts.
   */
  read(connection: LedgerConnection, signal?: AbortSignal): Promise<PackagesState> {
    return connection.readPackages(signal);
  }

  /** The index for a connection, when ready (for views and new files). */
  indexFor(connection: LedgerConnection): PackageIndex | undefined {
    const s = this.stateOf(connection);
    return s.state === 'ready' ? s.context.packages : undefined;
  }

}
