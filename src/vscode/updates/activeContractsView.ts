import vscode = require('vscode');
import type { ActiveContract } from '../../core/api/client';
import {
  actAsPrompt, actingCandidates, canExerciseByKey, choiceControllers, counterparty, exerciseChoices, exerciseCommand, needsInterfaceView, withInterfaceView, type ActingCandidate,
  type ChoiceControllers, type ExerciseChoice,
} from '../../core/acs/exercise';
import { ActiveContractsPager, activeContractsQueryOf } from '../../core/acs/pager';
import { activeContractRows } from '../../core/acs/rows';
import { CancelledError } from '../../core/errors';
import { shortId } from '../../core/text';
import type { LedgerConnection } from '../../core/ledger/connection';
import type { PackageIndex } from '../../core/daml/packageIndex';
import type { Logger } from '../../core/log';
import { shortParty } from '../../core/models/users';
import type { Redactor } from '../../core/redact';
import { actingParty, PLACEHOLDER } from '../../core/files/templates';
import { contractKeyText } from '../../core/updates/rows';
import { filterSummary } from '../../core/updates/viewFilter';
import { Commands, Views } from '../kit/ids';
import type { CommandRegistry } from '../kit/registry';
import type { ConnectionManager } from '../connections/manager';
import type { NewCommandsFileOptions } from '../files/editing/newFile';
import type { LedgerPackages } from '../kit/ledgerPackages';
import { summary, type Prompts } from '../kit/prompts';
import { PagedView } from '../kit/pagedView';
import { MessageNode, uniqueNodes, type ViewNode } from '../kit/rowsTree';
import type { UpdatesFilterStore } from './updatesView';

const ActiveContractsViewId = Views.activeContracts;
const ROOT = 'acs';
const AT_OFFSET_CONTEXT = 'cantonLedger.activeContracts.atOffset';

/**
 * Active Contracts view: the active connection's active contract set at the ledger end (or a chosen
 * offset), read as the Updates filter's parties and templates, grouped by template. The first page only,
 * then "Load more"; every page reads the same snapshot (the first page's offset).
 */
export class ActiveContractsView extends PagedView<ActiveContractsPager, ConnectionManager> {
  /** The offset chosen with "Show at Offset…"; undefined: the ledger end. Kept for the connection it was chosen on. */
  private chosenOffset: number | undefined;

  constructor(connections: ConnectionManager, private readonly filters: UpdatesFilterStore, logger: Logger, redactor: Redactor, prompts: Pick<Prompts, 'viewProgress'>) {
    super(
      { viewId: ActiveContractsViewId, idPrefix: ROOT, name: 'Active Contracts view', commands: { loadMore: Commands.loadMoreActiveContracts, refresh: Commands.refreshActiveContracts }, onDidChangeFilter: filters.onDidChange, prompts },
      connections,
      logger,
      redactor,
    );
    this.updateDescription();
    // The participant's own description arrives after the connect and decides whether in-flight
    // contracts are asked for: a snapshot read before it is read again, so none is under-reported.
    this._register(connections.onDidChangeCompatibility((c) => c === this.connection && (this.pager || this.error) && this.reset(true)));
  }

  /** Connected, reconnected or disconnected: read again when next shown, as many contracts as were loaded. */
  protected override connectionChanged(moved: LedgerConnection | undefined): void {
    if (moved === undefined || moved === this.connection) this.reset(true);
  }

  /**
   * The set at the ledger end follows writes (ours and those the live tail sees): read it again when
   * next shown. A snapshot at a chosen offset does not change.
   */
  protected override ledgerMoved(): void {
    if (this.chosenOffset !== undefined || (!this.pager && !this.error)) return;
    this.reset(true);
  }

  protected override leaveConnection(): void {
    this.chosenOffset = undefined;
    void vscode.commands.executeCommand('setContext', AT_OFFSET_CONTEXT, false);
  }

  // ---------------------------------------------------------------- paging

  protected async openPager(connection: LedgerConnection): Promise<ActiveContractsPager> {
    return new ActiveContractsPager(connection.client, activeContractsQueryOf(this.filters.get(connection), this.chosenOffset));
  }

  /** Groups are rebuilt from every loaded contract (a page adds to groups already shown); ids stay stable, so does expansion. */
  protected showLoaded(pager: ActiveContractsPager): void {
    this.itemNodes = uniqueNodes(activeContractRows(pager.state), ROOT);
  }

  protected emptyNode(connection: LedgerConnection, pager: ActiveContractsPager): MessageNode {
    return new MessageNode(`${ROOT}/empty`, `No active contracts at offset ${pager.state.activeAtOffset}`, {
      description: this.who(connection),
      icon: 'info',
      command: { command: Commands.filterActiveContracts, title: 'Change Filter' },
    });
  }

  protected moreDescription(pager: ActiveContractsPager): string {
    return `${pager.state.contracts.length} loaded · at offset ${pager.state.activeAtOffset}`;
  }

  /** The snapshot at `offset`, or at the ledger end when undefined. */
  async showAt(offset: number | undefined): Promise<void> {
    this.chosenOffset = offset;
    void vscode.commands.executeCommand('setContext', AT_OFFSET_CONTEXT, offset !== undefined);
    // Another snapshot: from its first page.
    this.reset();
    await this.refresh();
  }

  // ---------------------------------------------------------------- for commands and tests

  /** The connection the view shows (what its rows' contracts are read from). */
  get shownConnection(): LedgerConnection | undefined {
    return this.connection;
  }

  /** The loaded contract behind a contract row. */
  contractOf(node: ViewNode | undefined): ActiveContract | undefined {
    const id = node?.type === 'row' ? node.row.contractId : undefined;
    return id ? this.pager?.contract(id) : undefined;
  }

  /** What is loaded: the snapshot's offset, whether every page is, how many contracts, the offset chosen (if any). */
  get snapshot(): { activeAtOffset?: number; complete: boolean; loaded: number; chosenOffset?: number } | undefined {
    const s = this.pager?.state;
    return s && { activeAtOffset: s.activeAtOffset, complete: s.complete, loaded: s.contracts.length, chosenOffset: this.chosenOffset };
  }

  private who(connection: LedgerConnection): string {
    return filterSummary({ ...this.filters.get(connection), shape: undefined, includeTopologyEvents: false, includeReassignments: true, beginExclusive: undefined, endInclusive: undefined, descending: false, legacyForm: false });
  }

  protected updateDescription(): void {
    const offset = this.pager?.state.activeAtOffset ?? this.chosenOffset;
    const at = offset === undefined ? undefined : `at offset ${offset}${this.chosenOffset === undefined ? ' (ledger end)' : ''}`;
    this.treeView.description = [at, this.connection ? this.who(this.connection) : undefined].filter(Boolean).join(' · ') || undefined;
  }

}

// ---------------------------------------------------------------- commands

/** Arguments of Exercise… for callers that know the answers (tests); otherwise the user is asked. */
export interface ExerciseOptions extends Pick<NewCommandsFileOptions, 'uri' | 'untitled'> {
  choice?: string;
  actAs?: string;
  /** An ExerciseByKeyCommand with the contract's key instead of its id. */
  byKey?: boolean;
}

/** The view's commands: Refresh, Filter, Load more, Show at Offset…, Show at Ledger End, Exercise…. */
export function registerActiveContractsCommands(commands: CommandRegistry, view: ActiveContractsView, packages: LedgerPackages, prompts: Prompts): void {
  commands.register(Commands.refreshActiveContracts, () => view.refresh());
  commands.register(Commands.loadMoreActiveContracts, () => view.loadMore());
  commands.register(Commands.filterActiveContracts, () => vscode.commands.executeCommand(Commands.filterUpdates));
  commands.register(Commands.showActiveContractsAtOffset, async (offset?: number) => {
    const picked = offset ?? (await askOffset(view, prompts));
    if (picked !== null) await view.showAt(picked);
  });
  commands.register(Commands.showActiveContractsAtLedgerEnd, () => view.showAt(undefined));
  commands.register(Commands.exercise, (node?: ViewNode, options: ExerciseOptions = {}) => exercise(view, packages, prompts, node, options));
}

/** The offset to show the set at; undefined: the ledger end (empty input); null: cancelled. */
async function askOffset(view: ActiveContractsView, prompts: Prompts): Promise<number | undefined | null> {
  const end = view.shownConnection?.ledger?.ledgerEnd;
  const value = await prompts.input({
    title: 'Active Contracts at Offset',
    prompt: `The offset to show the active contracts at${end !== undefined ? ` (the ledger end is ${end})` : ''}; empty: the ledger end`,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' || /^\d+$/.test(v.trim()) ? undefined : 'An offset is a non-negative integer'),
  });
  if (value === undefined) return null;
  return value.trim() === '' ? undefined : Number(value.trim());
}

/**
 * Exercise… on a contract: a choice of its template (picked from the packages, with signatures; typed
 * without them), a stakeholder to act as (the choice's controller preselected when its package says who
 * it is), then a new commands file with the ExerciseCommand, whose other Party fields name another party.
 */
async function exercise(view: ActiveContractsView, packages: LedgerPackages, prompts: Prompts, node: ViewNode | undefined, options: ExerciseOptions): Promise<vscode.Uri | undefined> {
  const contract = view.contractOf(node);
  // The contract's connection: the one the view read it from.
  const connection = view.shownConnection;
  if (!contract || !connection) return undefined;
  const state = connection.state;
  const info = state.state === 'connected' ? state.info : undefined;
  const index = await packageIndex(packages, prompts, connection);
  const choices = index && exerciseChoices(contract, index);
  const picked = options.choice !== undefined ? { name: options.choice, byKey: options.byKey ?? false } : await pickChoice(prompts, contract, choices);
  if (!picked) return undefined;
  const choice = picked.name;
  const known = choices?.find((c) => c.name === choice);
  const viewed = known && needsInterfaceView(contract, known) ? await interfaceView(prompts, connection, contract, known) : { contract };
  const controllers = viewed.failed ?? (known ? choiceControllers(viewed.contract, known) : undefined);
  const candidates = actingCandidates(contract, info?.rights, info?.user?.primaryParty ?? undefined, controllers);
  const actAs = options.actAs ?? (candidates.length > 1 ? await pickParty(prompts, candidates, choice, controllers) : candidates[0]?.party);
  if (candidates.length > 1 && !actAs) return undefined;
  // No stakeholder the user may act as: the choice's controller may be another party; the user's own is the best guess.
  const party = actAs ?? actingParty(info?.rights, info?.user?.primaryParty ?? undefined) ?? PLACEHOLDER.party;
  const command = exerciseCommand(contract, choice, index, party, counterparty(contract, party, info?.parties.map((p) => p.party) ?? []), picked.byKey);
  const target: NewCommandsFileOptions = { command, actAs: party, ...(options.uri ? { uri: options.uri } : { untitled: options.untitled ?? true }) };
  return vscode.commands.executeCommand<vscode.Uri | undefined>(Commands.newCommandsFile, target);
}

/**
 * The contract with the view an interface choice's controllers name; when it cannot be read, why, as
 * controllers the picker says are unknown. Cancel cancels the command.
 */
async function interfaceView(prompts: Prompts, connection: LedgerConnection, contract: ActiveContract, choice: ExerciseChoice): Promise<{ contract: ActiveContract; failed?: ChoiceControllers }> {
  try {
    return { contract: await prompts.progress(`Reading the ${choice.fromInterface ?? 'interface'} view of the contract`, (signal) => withInterfaceView(connection.client, contract, choice, signal)) };
  } catch (e) {
    if (e instanceof CancelledError) throw e;
    return { contract, failed: { kind: 'unknown', because: `${choice.name} is controlled by a field of the ${choice.fromInterface ?? 'interface'} view, which could not be read (${summary(e)})` } };
  }
}

/** The connection's packages, waiting for them while they load; undefined where they cannot be read. */
async function packageIndex(packages: LedgerPackages, prompts: Prompts, connection: LedgerConnection): Promise<PackageIndex | undefined> {
  if (packages.stateOf(connection).state !== 'loading') return packages.indexFor(connection);
  return prompts.progress('Reading the packages', (signal) => new Promise<PackageIndex | undefined>((resolve) => {
    const done = () => {
      sub.dispose();
      resolve(packages.indexFor(connection));
    };
    const sub = packages.onDidChange(() => packages.stateOf(connection).state !== 'loading' && done());
    signal.addEventListener('abort', done);
  }));
}

/** The choice (typed where the packages do not know the template) and whether to exercise it by the contract's key. */
async function pickChoice(prompts: Prompts, contract: ActiveContract, choices: ExerciseChoice[] | undefined): Promise<{ name: string; byKey: boolean } | undefined> {
  const title = `Exercise on ${shortId(contract.event.contractId)}`;
  if (!choices) {
    const value = await prompts.input({
      title,
      prompt: "The choice to exercise (the contract's template is not among the packages read from this participant)",
      ignoreFocusOut: true,
      validateInput: (v) => (/^[A-Za-z_][A-Za-z0-9_']*$/.test(v.trim()) ? undefined : 'A Daml choice name, e.g. Archive'),
    });
    return value?.trim() ? { name: value.trim(), byKey: false } : undefined;
  }
  const item = (c: ExerciseChoice, byKey: boolean) => ({
    label: `$(${byKey ? 'key' : 'symbol-method'}) ${c.name}${byKey ? ' by key' : ''}`,
    description: c.signature,
    detail: [byKey ? `the contract with key ${contractKeyText(contract.event.contractKey)} when the command runs` : undefined, c.consuming ? 'consuming' : 'nonconsuming', c.fromInterface ? `from interface ${c.fromInterface}` : undefined]
      .filter(Boolean)
      .join(' · '),
    name: c.name,
    byKey,
  });
  const byKey = choices.filter((c) => canExerciseByKey(contract, c)).map((c) => item(c, true));
  const picked = await prompts.pick([...choices.map((c) => item(c, false)), ...byKey], { title, placeHolder: 'The choice to exercise', matchOnDescription: true, ignoreFocusOut: false });
  return picked && { name: picked.name, byKey: picked.byKey };
}

/** The party to act as; the first item (the one the picker highlights) is the controller when one is known. */
async function pickParty(prompts: Prompts, candidates: ActingCandidate[], choice: string, controllers: ChoiceControllers | undefined): Promise<string | undefined> {
  const picked = await prompts.pick(
    candidates.map((c) => ({ label: `$(person) ${shortParty(c.party)}`, description: c.controller ? `${c.role} · controller` : c.role, detail: c.party, party: c.party })),
    { title: `Exercise ${choice}: act as`, placeHolder: actAsPrompt(candidates, controllers), matchOnDetail: true, ignoreFocusOut: false },
  );
  return picked?.party;
}
