import * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import { readableParties } from '../../core/models/users';
import type { UpdatesViewFilter } from '../../core/updates/viewFilter';
import type { ConnectionManager } from '../connections/manager';
import { Commands } from '../commands/ids';
import type { JsonDocuments } from '../documents';
import { askContractId, ContractEventsView, contractIdSuggestion, pickEventFormat } from './contractEventsView';
import { editUpdatesFilter } from './filterPicker';
import { registerRowCommands, type ViewNode } from './rowsTree';
import { type RevealTarget, UpdatesFilterStore, UpdatesView } from './updatesView';
import { VettedPackagesView } from './vettedPackagesView';
import { ActiveContractsView, registerActiveContractsCommands } from './activeContractsView';
import type { LedgerPackages } from '../packages/ledgerPackages';

export const ViewCommands = {
  refreshUpdates: 'cantonLedger.updates.refresh',
  loadMore: 'cantonLedger.updates.loadMore',
  filterUpdates: 'cantonLedger.updates.filter',
  resetFilter: 'cantonLedger.updates.resetFilter',
  startLiveTail: 'cantonLedger.updates.startLiveTail',
  stopLiveTail: 'cantonLedger.updates.stopLiveTail',
  restartLiveTail: 'cantonLedger.updates.restartLiveTail',
  showContractEventsAtCursor: 'cantonLedger.contractEvents.showAtCursor',
  refreshContractEvents: 'cantonLedger.contractEvents.refresh',
  changeEventFormat: 'cantonLedger.contractEvents.changeFormat',
  clearContractHistory: 'cantonLedger.contractEvents.clearHistory',
  refreshVetting: 'cantonLedger.vettedPackages.refresh',
  newVettingFileFor: 'cantonLedger.vettedPackages.newVettingFile',
} as const;

/** The command that writes a vetting file; it takes the synchronizer and serial to start from. */
const NEW_VETTING_FILE = 'cantonLedger.files.newVetting';

export interface LedgerViews {
  updates: UpdatesView;
  contractEvents: ContractEventsView;
  vettedPackages: VettedPackagesView;
  filters: UpdatesFilterStore;
  activeContracts: ActiveContractsView;
}

/** The ledger views (Updates, Contract Events, Vetted Packages, Active Contracts) and their commands. */
export function registerLedgerViews(
  context: vscode.ExtensionContext,
  deps: { connections: ConnectionManager; documents: JsonDocuments; logger: Logger; redactor: Redactor; packages: LedgerPackages },
): LedgerViews {
  const { connections, logger, redactor } = deps;
  const filters = new UpdatesFilterStore(context.globalState, connections);
  const liveWindow = () => vscode.workspace.getConfiguration('cantonLedger').get<number>('updates.liveTailWindow', 500);
  const updates = new UpdatesView(connections, filters, logger, redactor, liveWindow);
  const contractEvents = new ContractEventsView(connections, filters, context.workspaceState, logger, redactor);
  const vettedPackages = new VettedPackagesView(connections, logger, redactor);
  const activeContracts = new ActiveContractsView(connections, filters, logger, redactor);
  const info = () => {
    const id = connections.profiles.active()?.id;
    const s = id ? connections.state(id) : undefined;
    return s?.state === 'connected' ? s.info : undefined;
  };

  const setFilter = async (filter?: UpdatesViewFilter) => {
    const profile = connections.profiles.active();
    if (!profile) return;
    const next = filter ?? (await editUpdatesFilter(filters.get(profile.id), info()));
    if (next) await filters.set(profile.id, next);
  };
  const showContractEvents = async (target?: string | ViewNode) => {
    const fromNode = typeof target === 'object' ? (target.type === 'row' ? target.row.contractId : target.opts.values?.contractId) : target;
    const contractId = fromNode ?? (await askContractId());
    return contractId ? contractEvents.show(contractId) : undefined;
  };
  /** `target` passes on where to create the file (see NewFileTarget of the New Vetting File command). */
  const newVettingFile = async (node?: ViewNode, target: object = {}) => {
    const states = (await vettedPackages.states()) ?? [];
    const synchronizerId = node?.type === 'row' ? node.row.synchronizerId : states.length === 1 ? states[0].synchronizerId : undefined;
    const state = states.find((s) => s.synchronizerId === synchronizerId);
    return vscode.commands.executeCommand<vscode.Uri | undefined>(NEW_VETTING_FILE, { ...target, synchronizerId, expectedTopologySerial: state?.topologySerial });
  };
  const r = vscode.commands.registerCommand;
  context.subscriptions.push(
    filters,
    updates,
    contractEvents,
    vettedPackages,
    ...registerRowCommands(deps.documents),
    r(ViewCommands.refreshUpdates, () => updates.refresh()),
    r(ViewCommands.loadMore, () => updates.loadMore()),
    r(ViewCommands.filterUpdates, setFilter),
    r(ViewCommands.resetFilter, async () => {
      const id = connections.profiles.active()?.id;
      if (id) await filters.set(id, undefined);
    }),
    r(ViewCommands.startLiveTail, () => void updates.startLiveTail()),
    r(ViewCommands.stopLiveTail, () => updates.stopLiveTail()),
    r(ViewCommands.restartLiveTail, () => void updates.retryLiveTail()),
    r(Commands.revealUpdate, (target: RevealTarget) => updates.reveal(target)),
    r(Commands.showContractEvents, showContractEvents),
    r(ViewCommands.showContractEventsAtCursor, async () => showContractEvents(await contractIdSuggestion())),
    r(ViewCommands.refreshContractEvents, () => contractEvents.refresh()),
    r(ViewCommands.changeEventFormat, async (choice?: Parameters<ContractEventsView['setEventFormat']>[0] | 'follow') => {
      const i = info();
      const parties = [...new Set([...(i?.parties ?? []).map((p) => p.party), ...(i?.rights ? readableParties(i.rights) : [])])];
      const picked = choice ?? (await pickEventFormat(undefined, parties));
      if (picked) await contractEvents.setEventFormat(picked === 'follow' ? undefined : picked);
    }),
    r(ViewCommands.clearContractHistory, () => contractEvents.clearHistory()),
    r(ViewCommands.refreshVetting, () => vettedPackages.refresh()),
    r(ViewCommands.newVettingFileFor, newVettingFile),
    activeContracts,
    ...registerActiveContractsCommands(activeContracts, connections, deps.packages),
  );
  return { updates, contractEvents, vettedPackages, filters, activeContracts };
}
