import * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import type { VettedPackagesState } from '../../core/models/vetting';
import { synchronizerVettingRow } from '../../core/updates/rows';
import type { ConnectionManager } from '../connections/manager';
import { childrenOf, connectionStateNodes, errorNodes, LedgerTreeView, MessageNode, noActiveConnectionNodes, uniqueNodes, type ViewNode } from './rowsTree';

/** Vetted Packages view: per synchronizer, the participant's vetted packages and the topology serial. */
export class VettedPackagesView extends LedgerTreeView {
  private result: { profileId: string; states?: VettedPackagesState[]; error?: unknown; loading?: Thenable<void> } | undefined;

  constructor(private readonly connections: ConnectionManager, private readonly logger: Logger, private readonly redactor: Redactor) {
    super('cantonLedger.vettedPackages');
    this.subscriptions.push(
      connections.onDidChange((id) => {
        const active = connections.profiles.active()?.id;
        if (this.result ? this.result.profileId !== active : id === active) this.refresh();
      }),
    );
  }

  /** What the view shows now (after the current load), for commands and tests. */
  async states(): Promise<VettedPackagesState[] | undefined> {
    await this.getChildren();
    return this.result?.states;
  }

  refresh(): void {
    this.result = undefined;
    this.changed.fire(undefined);
  }

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (node) return childrenOf(node);
    const profile = this.connections.profiles.active();
    if (!profile) return noActiveConnectionNodes('vetting');
    const notConnected = this.result?.profileId !== profile.id && connectionStateNodes('vetting', profile, this.connections.state(profile.id), (x) => this.redactor.redact(x));
    if (notConnected) return notConnected;
    if (this.result?.profileId !== profile.id) {
      const result: NonNullable<typeof this.result> = { profileId: profile.id };
      this.result = result;
      result.loading = vscode.window.withProgress({ location: { viewId: 'cantonLedger.vettedPackages' } }, async () => {
        try {
          const client = this.connections.client(profile);
          const participantId = await client.participantId();
          result.states = await client.listVettedPackages({ topologyStateFilter: { participantIds: [participantId] } });
        } catch (e) {
          result.error = e;
          this.logger.warn(`Vetted packages: ${this.redactor.redactError(e)}`);
        }
      });
    }
    const result = this.result;
    await result.loading;
    if (result !== this.result) return this.getChildren();
    if (result.error) return errorNodes('vetting', result.error, { profileId: profile.id, retry: { command: 'cantonLedger.vettedPackages.refresh', title: 'Retry' }, redact: (s) => this.redactor.redact(s) });
    const states = result.states ?? [];
    if (states.length === 0) return [new MessageNode('vetting/empty', 'No vetted packages', { description: 'on any connected synchronizer', icon: 'info' })];
    const s = this.connections.state(profile.id);
    const aliases = new Map((s.state === 'connected' ? s.info.synchronizers : []).map((x) => [x.synchronizerId, x.synchronizerAlias]));
    return uniqueNodes(states.map((st) => synchronizerVettingRow(st, aliases.get(st.synchronizerId))), 'vetting');
  }
}
