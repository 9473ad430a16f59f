import * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import { readableParties } from '../../core/models/users';
import type { UpdatesViewFilter } from '../../core/updates/viewFilter';
import type { ConnectionManager } from '../connections/manager';
import { Commands } from '../kit/ids';
import type { CommandRegistry } from '../kit/registry';
import type { JsonDocuments } from '../kit/documents';
import type { Prompts } from '../kit/prompts';
import { askContractId, ContractEventsView, contractIdSuggestion, pickEventFormat } from './contractEventsView';
import { editUpdatesFilter } from '../kit/filterPicker';
import { registerRowCommands, type ViewNode } from '../kit/rowsTree';
import { type RevealTarget, UpdatesFilterStore, UpdatesView } from './updatesView';
import { VettedPackagesView } from '../packages/vettedPackagesView';
import { ActiveContractsView, registerActiveContractsCommands } from './activeContractsView';
import type { LedgerPackages } from '../kit/ledgerPackages';

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
  commands: CommandRegistry,
  deps: { connections: ConnectionManager; documents: JsonDocuments; logger: Logger; redactor: Redactor; packages: LedgerPackages; prompts: Prompts },
): LedgerViews {
  const { connections, logger, redactor, prompts } = deps;
  const filters = new UpdatesFilterStore(context.globalState);
  const liveWindow = () => vscode.workspace.getConfiguration('cantonLedger').get<number>('updates.liveTailWindow', 500);
  const updates = new UpdatesView(connections, filters, logger, redactor, liveWindow, prompts);
  const contractEvents = new ContractEventsView(connections, filters, context.workspaceState, logger, redactor);
  const vettedPackages = new VettedPackagesView(connections, logger, redactor, prompts);
  const activeContracts = new ActiveContractsView(connections, filters, logger, redactor, prompts);
  const info = (connection = connections.active()) => {
    const s = connection?.state;
    return s?.state === 'connected' ? s.info : undefined;
  };

  const setFilter = async (filter?: UpdatesViewFilter) => {
    const connection = await commands.targets.resolve(undefined, { purpose: 'filter the updates of' });
    if (!connection) return;
    const next = filter ?? (await editUpdatesFilter(prompts, filters.get(connection), info(connection)));
    if (next) await filters.set(connection, next);
  };
  const showContractEvents = async (target?: string | ViewNode) => {
    const fromNode = typeof target === 'object' ? (target.type === 'row' ? target.row.contractId : target.opts.values?.contractId) : target;
    const contractId = fromNode ?? (await askContractId(prompts));
    if (!contractId) return undefined;
    const connection = await commands.targets.resolve(undefined, { purpose: 'look the contract up on' });
    return connection ? contractEvents.show(contractId, connection) : undefined;
  };
  /** `target` passes on where to create the file (see NewFileTarget of the New Vetting File command). */
  const newVettingFile = async (node?: ViewNode, target: object = {}) => {
    const states = (await vettedPackages.states()) ?? [];
    const synchronizerId = node?.type === 'row' ? node.row.synchronizerId : states.length === 1 ? states[0].synchronizerId : undefined;
    const state = states.find((s) => s.synchronizerId === synchronizerId);
    return vscode.commands.executeCommand<vscode.Uri | undefined>(Commands.newVettingFile, { ...target, synchronizerId, expectedTopologySerial: state?.topologySerial });
  };
  context.subscriptions.push(filters, updates, contractEvents, vettedPackages, activeContracts);
  registerRowCommands(commands, deps.documents);
  commands.register(Commands.refreshUpdates, () => updates.refresh());
  commands.register(Commands.loadMoreUpdates, () => updates.loadMore());
  commands.register(Commands.filterUpdates, setFilter);
  commands.register(Commands.resetFilter, async () => {
    const connection = await commands.targets.resolve(undefined, { purpose: 'reset the updates filter of' });
    if (connection) await filters.set(connection, undefined);
  });
  commands.register(Commands.startLiveTail, () => void updates.startLiveTail());
  commands.register(Commands.stopLiveTail, () => updates.stopLiveTail());
  commands.register(Commands.restartLiveTail, () => void updates.retryLiveTail());
  commands.register(Commands.revealUpdate, (target: RevealTarget) => updates.reveal(target));
  commands.register(Commands.showContractEvents, showContractEvents);
  commands.register(Commands.showContractEventsAtCursor, async () => showContractEvents(await contractIdSuggestion()));
  commands.register(Commands.refreshContractEvents, () => contractEvents.refresh());
  commands.register(Commands.changeEventFormat, async (choice?: Parameters<ContractEventsView['setEventFormat']>[0] | 'follow') => {
    const i = info();
    const parties = [...new Set([...(i?.parties ?? []).map((p) => p.party), ...(i?.rights ? readableParties(i.rights) : [])])];
    const picked = choice ?? (await pickEventFormat(prompts, undefined, parties));
    if (picked) await contractEvents.setEventFormat(picked === 'follow' ? undefined : picked);
  });
  commands.register(Commands.clearContractHistory, () => contractEvents.clearHistory());
  commands.register(Commands.refreshVetting, () => vettedPackages.refresh());
  commands.register(Commands.newVettingFileFor, newVettingFile);
  registerActiveContractsCommands(commands, activeContracts, deps.packages, prompts);
  return { updates, contractEvents, vettedPackages, filters, activeContracts };
}
