import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import type { VettedPackagesState } from '../../core/models/vetting';
import { synchronizerVettingRow } from '../../core/updates/rows';
import type { ConnectionManager } from '../connections/manager';
import { Commands, Views } from '../kit/ids';
import type { Prompts } from '../kit/prompts';
import { childrenOf, connectedActive, errorNodes, LedgerTreeView, MessageNode, uniqueNodes, type ViewNode } from '../kit/rowsTree';

/**
 * Vetted Packages view: per synchronizer, the participant's vetted packages and the topology serial,
 * as the active connection's ledger state holds them (a vetting apply there shows here at once).
 */
export class VettedPackagesView extends LedgerTreeView {
  constructor(private readonly connections: ConnectionManager, private readonly logger: Logger, private readonly redactor: Redactor, private readonly prompts: Pick<Prompts, 'viewProgress'>) {
    super(Views.vettedPackages);
    this._registerAll(
      connections.onDidChange((c) => (c === undefined || connections.current(c) === connections.active()) && this.changed.fire(undefined)),
      connections.onDidChangeLedger((e) => e.change.vetting && e.connection === connections.active() && this.changed.fire(undefined)),
    );
  }

  /** What the view shows now (reading it first if needed), for commands and tests. */
  async states(): Promise<VettedPackagesState[] | undefined> {
    return this.connections.active()?.ledger?.vettedPackages().catch(() => undefined);
  }

  /** Reads the vetting state again (Refresh, Retry). */
  refresh(): void {
    const ledger = this.connections.active()?.ledger;
    if (!ledger) {
      this.changed.fire(undefined);
      return;
    }
    void this.prompts.viewProgress(Views.vettedPackages, () => ledger.refreshVetting().catch(() => undefined));
  }

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (node) return childrenOf(node);
    const { connection, nodes } = connectedActive('vetting', this.connections, (x) => this.redactor.redact(x));
    if (nodes) return nodes;
    const { state: s, ledger } = connection;
    if (!ledger || s.state !== 'connected') return [];
    let states: VettedPackagesState[];
    try {
      const reading = ledger.vettedPackages();
      if (ledger.vetting.state === 'unknown') await this.prompts.viewProgress(Views.vettedPackages, () => reading.catch(() => undefined));
      states = await reading;
    } catch (e) {
      this.logger.warn(`Vetted packages: ${this.redactor.redactError(e)}`);
      return errorNodes('vetting', e, { connection, retry: { command: Commands.refreshVetting, title: 'Retry' }, redact: (x) => this.redactor.redact(x) });
    }
    if (states.length === 0) return [new MessageNode('vetting/empty', 'No vetted packages', { description: 'on any connected synchronizer', icon: 'info' })];
    const aliases = new Map(s.info.synchronizers.map((x) => [x.synchronizerId, x.synchronizerAlias]));
    return uniqueNodes(states.map((st) => synchronizerVettingRow(st, aliases.get(st.synchronizerId))), 'vetting');
  }
}
