import vscode = require('vscode');
import { packageRows } from '../../core/daml/packageRows';
import type { LedgerConnection } from '../../core/ledger/connection';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import { Commands, Views } from '../kit/ids';
import type { CommandRegistry } from '../kit/registry';
import type { ConnectionManager } from '../connections/manager';
import type { LedgerPackages } from '../kit/ledgerPackages';
import { childrenOf, connectedActive, errorNodes, LedgerTreeView, MessageNode, uniqueNodes, type ViewNode } from '../kit/rowsTree';

/**
 * Packages view: the active participant's Daml packages (name, version, id, vetted or not) → modules →
 * templates (fields, choices with their signatures) and interfaces. The packages come from the shared
 * package store, so the editor and this view read each package once.
 */
export class PackagesView extends LedgerTreeView {
  /** Vetting read failures already logged (one line per failed read, not per render). */
  private readonly loggedFailures = new WeakSet<object>();

  constructor(private readonly connections: ConnectionManager, private readonly packages: LedgerPackages, private readonly logger: Logger, private readonly redactor: Redactor) {
    super(Views.packages);
    this._registerAll(
      packages.onDidChange(() => this.changed.fire(undefined)),
      // The vetted marks come from the connection's ledger state: an apply or an upload that vets shows here.
      connections.onDidChangeLedger((e) => e.change.vetting && e.connection === connections.active() && this.changed.fire(undefined)),
    );
  }

  refresh(): void {
    const connection = this.connections.active();
    // Reads the packages and, through the ledger state, the vetting again.
    if (connection) this.packages.refresh(connection);
    this.changed.fire(undefined);
  }

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (node) return childrenOf(node);
    const { connection, nodes } = connectedActive('packages', this.connections, (x) => this.redactor.redact(x));
    if (nodes) return nodes;
    const state = this.packages.stateOf(connection);
    switch (state.state) {
      case 'loading':
      case 'none':
        return [new MessageNode('packages/loading', 'Reading the packages…', { description: connection.profile.name, icon: 'loading~spin' })];
      case 'failed':
        return errorNodes('packages', state.error, { connection, retry: { command: Commands.refreshPackages, title: 'Retry' }, redact: (s) => this.redactor.redact(s) });
      case 'ready': {
        if (state.packageIds.length === 0) return [new MessageNode('packages/empty', 'No packages', { description: 'upload a .dar', icon: 'info' })];
        const vetted = await this.vettedIds(connection);
        // A package that could not be read is shown first, with its error; the others as usual.
        const unreadable = (state.context.unreadable ?? []).map(
          (u) =>
            new MessageNode(`packages/unreadable/${u.packageId ?? u.name}`, `${u.name} could not be read`, {
              description: this.redactor.redact(u.error.message),
              tooltip: 'The commands on the templates it holds are not checked. Refresh to read it again.',
              icon: 'warning',
              values: u.packageId ? { packageId: u.packageId } : undefined,
            }),
        );
        return [...unreadable, ...uniqueNodes(packageRows(state.context.packages, { vetted }), 'packages')];
      }
    }
  }

  /** The package ids this participant vetted, as its ledger state holds them; undefined where vetting cannot be listed. */
  private async vettedIds(connection: LedgerConnection): Promise<ReadonlySet<string> | undefined> {
    try {
      const states = await connection.ledger?.vettedPackages();
      return states && new Set(states.flatMap((s) => s.packages.map((p) => p.packageId)));
    } catch (e) {
      // Where vetting cannot be listed (a version without it, no rights) the rows just do not say.
      if (typeof e === 'object' && e && !this.loggedFailures.has(e)) {
        this.loggedFailures.add(e);
        this.logger.info(`Packages view: vetted packages unknown (${this.redactor.redactError(e)})`);
      }
      return undefined;
    }
  }
}

/** The Packages view and its commands. */
export function registerPackagesView(commands: CommandRegistry, connections: ConnectionManager, packages: LedgerPackages, logger: Logger, redactor: Redactor): PackagesView {
  const view = new PackagesView(connections, packages, logger, redactor);
  commands.register(Commands.refreshPackages, () => view.refresh());
  commands.register(Commands.newCommandsFileFor, (node?: ViewNode) => {
    const row = node?.type === 'row' ? node.row : undefined;
    if (!row?.templateId) return undefined;
    return vscode.commands.executeCommand(Commands.newCommandsFile, { templateId: row.templateId, choice: row.choice });
  });
  return view;
}
