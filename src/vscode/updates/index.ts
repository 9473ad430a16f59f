/**
 * The ledger views: Updates (paged, filtered, live tail), Contract Events and Active Contracts, which
 * the Updates filter drives, and the commands on their rows (the rows: src/core/updates, src/core/acs).
 */
import vscode = require('vscode');
import { readableParties } from '../../core/models/users';
import type { UpdatesViewFilter } from '../../core/updates/viewFilter';
import { Commands } from '../kit/ids';
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { askContractId, ContractEventsView, contractIdSuggestion, pickEventFormat } from './contractEventsView';
import { editUpdatesFilter } from '../kit/filterPicker';
import { registerRowCommands, type ViewNode } from '../kit/rowsTree';
import { type RevealTarget, UpdatesFilterStore, UpdatesView } from './updatesView';
import { ActiveContractsView, registerActiveContractsCommands } from './activeContractsView';

export interface LedgerViews {
  updates: UpdatesView;
  contractEvents: ContractEventsView;
  filters: UpdatesFilterStore;
  activeContracts: ActiveContractsView;
}

export function activateUpdates(host: FeatureHost): ActivatedFeature<LedgerViews> {
  const { context, commands, connections, logger, redactor, prompts } = host;
  const filters = new UpdatesFilterStore(context.globalState);
  const liveWindow = () => vscode.workspace.getConfiguration('cantonLedger').get<number>('updates.liveTailWindow', 500);
  const updates = new UpdatesView(connections, filters, logger, redactor, liveWindow, prompts);
  const contractEvents = new ContractEventsView(connections, filters, context.workspaceState, logger, redactor);
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
  registerRowCommands(commands, host.documents);
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
  registerActiveContractsCommands(commands, activeContracts, host.packages, prompts);
  return { disposables: [filters, updates, contractEvents, activeContracts], api: { updates, contractEvents, filters, activeContracts } };
}
