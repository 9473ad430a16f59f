import vscode = require('vscode');
import type { UpdateFilter } from '../../core/api/updatesRequest';
import { CantonApiError } from '../../core/errors';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import { contractIdAt, looksLikeContractId, type ContractEvents } from '../../core/models/contracts';
import { shortParty } from '../../core/models/users';
import { shortId } from '../../core/text';
import { entityName } from '../../core/daml/identifiers';
import { contractEventRows, contractExercisesRow } from '../../core/updates/rows';
import { exercisesOn, transactionsTouchingContract } from '../../core/updates/contractActivity';

type ContractExercises = ReturnType<typeof exercisesOn>;
import type { ConnectionManager } from '../connections/manager';
import type { LedgerConnection } from '../../core/ledger/connection';
import { Commands, focusViewCommand, Views } from '../kit/ids';
import type { Prompts } from '../kit/prompts';
import { childrenOf, connectionStateNodes, errorNodes, LedgerTreeView, MessageNode, uniqueNodes, type ViewNode } from '../kit/rowsTree';
import type { UpdatesFilterStore } from './updatesView';

const HISTORY_KEY = 'cantonLedger.contractHistory';
const HISTORY_SIZE = 20;

interface HistoryEntry {
  contractId: string;
  connectionId: string;
  at: string;
}

/** Who to ask as: the Updates filter's parties (or any party) unless changed here. */
export interface EventFormatChoice {
  anyParty?: boolean;
  parties?: string[];
  verbose?: boolean;
}

/** `exercises`: where the participant filters updates by contract id (3.8), every choice exercised on it. */
type Lookup = { state: 'loading'; done: Promise<void> } | { state: 'found'; events: ContractEvents; exercises?: ContractExercises } | { state: 'not-found'; error: CantonApiError; format: UpdateFilter } | { state: 'error'; error: unknown };

/**
 * Contract Events view: the create and archive events of looked-up contracts, newest lookup first, with
 * a short history kept per workspace.
 */
export class ContractEventsView extends LedgerTreeView {
  private readonly lookups = new Map<string, Lookup>();
  private formatOverride: EventFormatChoice | undefined;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly filters: UpdatesFilterStore,
    private readonly workspaceState: vscode.Memento,
    private readonly logger: Logger,
    private readonly redactor: Redactor,
  ) {
    super(Views.contractEvents);
    this.updateDescription();
    this._registerAll(
      // A lookup waits for its connection to be connected (the repaint asks then), and follows the
      // Updates filter's parties.
      connections.onDidChange(() => this.changed.fire(undefined)),
      filters.onDidChange((c) => !this.formatOverride && this.forget(c.id)),
    );
  }

  /** Drops the finished lookups on this connection, so that they are asked again. */
  private forget(connectionId: string): void {
    for (const [key, lookup] of this.lookups) {
      if (key.startsWith(`${connectionId}/`) && lookup.state !== 'loading') this.lookups.delete(key);
    }
    this.changed.fire(undefined);
  }

  /** The connection of a history entry (its id comes from the workspace's storage: looked up here). */
  private connectionOf(h: HistoryEntry): LedgerConnection | undefined {
    return this.connections.connection(h.connectionId);
  }

  /** Views read only from connections the user connected (asking another could prompt out of the blue). */
  private waitsForConnection(h: HistoryEntry): boolean {
    const connection = this.connectionOf(h);
    return connection !== undefined && connection.state.state !== 'connected';
  }

  get history(): readonly HistoryEntry[] {
    return this.workspaceState.get<HistoryEntry[]>(HISTORY_KEY, []);
  }

  /** The event format sent: parties/any party and verbose, from the Updates filter unless overridden. */
  eventFormat(connection: LedgerConnection): { filter: UpdateFilter } {
    const f = this.formatOverride ?? this.filters.get(connection);
    return { filter: { anyParty: f.anyParty, parties: f.anyParty ? undefined : f.parties, verbose: f.verbose ?? true } };
  }

  async setEventFormat(choice: EventFormatChoice | undefined): Promise<void> {
    this.formatOverride = choice;
    this.lookups.clear();
    this.updateDescription();
    this.changed.fire(undefined);
  }

  /** Looks the contract up on `connection` (the active one), puts it first in the history and shows it. */
  async show(contractId: string, connection: LedgerConnection): Promise<ContractEvents | undefined> {
    const entry: HistoryEntry = { contractId, connectionId: connection.id, at: new Date().toISOString() };
    const rest = this.history.filter((h) => !(h.contractId === contractId && h.connectionId === connection.id));
    await this.workspaceState.update(HISTORY_KEY, [entry, ...rest].slice(0, HISTORY_SIZE));
    this.lookups.delete(keyOf(entry));
    this.changed.fire(undefined);
    await vscode.commands.executeCommand(focusViewCommand(Views.contractEvents));
    // Revealed while it is looked up (the row says so); what the command returns is the answer.
    const lookedUp = this.lookup(entry);
    const node = this.contractNode(entry);
    await this.treeView.reveal(node, { select: true, focus: false, expand: true });
    await lookedUp;
    const result = this.lookups.get(keyOf(entry));
    return result?.state === 'found' ? result.events : undefined;
  }

  /** Resolves once the lookups in progress have answered (the view has repainted with them). */
  async settled(): Promise<void> {
    for (;;) {
      const loading = [...this.lookups.values()].flatMap((l) => (l.state === 'loading' ? [l.done] : []));
      if (loading.length === 0) return;
      await Promise.all(loading);
    }
  }

  async clearHistory(): Promise<void> {
    await this.workspaceState.update(HISTORY_KEY, []);
    this.lookups.clear();
    this.changed.fire(undefined);
  }

  refresh(): void {
    this.lookups.clear();
    this.changed.fire(undefined);
  }

  // ---------------------------------------------------------------- tree data

  override getTreeItem(node: ViewNode): vscode.TreeItem {
    const item = super.getTreeItem(node);
    if (node.type === 'message' && node.opts.contextValue?.startsWith('cantonLedger:contract')) {
      item.collapsibleState = this.history[0] && node.id === `contracts/${keyOf(this.history[0])}` ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    }
    return item;
  }

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (!node) {
      if (this.history.length === 0) {
        return [new MessageNode('contracts/empty', 'Look up a contract…', { icon: 'search', description: 'by contract ID', command: { command: Commands.showContractEvents, title: 'Show Contract Events' } })];
      }
      return this.history.map((h) => this.contractNode(h));
    }
    const entry = this.entryOf(node);
    if (!entry) return childrenOf(node);
    // Not awaited: the lookup's end repaints the view. A repaint that comes while the tree still waits
    // for these children is folded into that wait, and the row kept what it showed before the answer
    // ("loading") for good; so the children answer at once, "Loading…" until then.
    void this.lookup(entry);
    return this.resultNodes(entry, node);
  }

  /** The node of a history entry (its id is what the tree and reveal go by). */
  private contractNode(h: HistoryEntry): MessageNode {
    const key = keyOf(h);
    const result = this.lookups.get(key);
    const label = result?.state === 'found' && result.events.created ? entityName(result.events.created.event.templateId) : shortId(h.contractId, 14, 6);
    const status =
      result?.state === 'found'
        ? result.events.archived ? 'archived' : result.events.created ? 'active' : 'no events'
        : result?.state === 'not-found' ? 'not found' : result?.state === 'error' ? 'error' : !result && this.waitsForConnection(h) ? 'not connected' : undefined;
    const connection = this.connections.profiles.lookup(h.connectionId)?.name ?? h.connectionId;
    const node = new MessageNode(`contracts/${key}`, label, {
      description: [status, shortId(h.contractId, 10, 4), connection].filter(Boolean).join(' · '),
      tooltip: new vscode.MarkdownString(`Contract \`${h.contractId}\`  \nConnection ${connection} · looked up ${h.at}`),
      icon: status === 'archived' ? 'archive' : status === 'active' ? 'symbol-object' : status === 'not connected' ? 'plug' : status === 'not found' || status === 'error' ? 'warning' : 'loading~spin',
      contextValue: `cantonLedger:contract+contractId`,
      values: { contractId: h.contractId },
    });
    return node;
  }

  private entryOf(node: ViewNode): HistoryEntry | undefined {
    return node.type === 'message' && node.id.startsWith('contracts/') ? this.history.find((h) => `contracts/${keyOf(h)}` === node.id) : undefined;
  }

  private lookup(entry: HistoryEntry): Promise<void> {
    const key = keyOf(entry);
    const known = this.lookups.get(key);
    if (known) return known.state === 'loading' ? known.done : Promise.resolve();
    if (this.waitsForConnection(entry)) return Promise.resolve();
    const connection = this.connectionOf(entry);
    const done = (async () => {
      /** Who was asked: a row that says the contract was not found names them. */
      let asked: UpdateFilter | undefined;
      try {
        if (!connection) throw new Error(`The connection ${entry.connectionId} no longer exists`);
        const format = this.eventFormat(connection);
        asked = format.filter;
        const events = await connection.client.eventsByContractId(entry.contractId, format);
        const exercises = connection.client.filtersUpdatesByContractId ? await this.exercisesOf(connection, entry.contractId, format.filter) : undefined;
        this.lookups.set(key, { state: 'found', events, ...(exercises ? { exercises } : {}) });
      } catch (e) {
        this.logger.warn(`Contract events of ${entry.contractId}: ${this.redactor.redactError(e)}`);
        this.lookups.set(key, e instanceof CantonApiError && e.code === 'CONTRACT_EVENTS_NOT_FOUND' && asked ? { state: 'not-found', error: e, format: asked } : { state: 'error', error: e });
      }
      this.changed.fire(undefined);
    })();
    this.lookups.set(key, { state: 'loading', done });
    return done;
  }

  /** The choices exercised on the contract, in one filtered read; a refused read leaves them out (the events stand). */
  private async exercisesOf(connection: LedgerConnection, contractId: string, filter: UpdateFilter): Promise<ContractExercises | undefined> {
    try {
      return exercisesOn(await transactionsTouchingContract(connection.client, contractId, filter), contractId);
    } catch (e) {
      this.logger.warn(`Exercises on ${contractId}: ${this.redactor.redactError(e)}`);
      return undefined;
    }
  }

  private resultNodes(entry: HistoryEntry, parent: ViewNode): ViewNode[] {
    const result = this.lookups.get(keyOf(entry));
    const connection = this.connectionOf(entry);
    if (!result && connection && this.waitsForConnection(entry)) {
      return connectionStateNodes(parent.id, connection, (s) => this.redactor.redact(s), parent) ?? [];
    }
    if (!result || result.state === 'loading') return [new MessageNode(`${parent.id}/loading`, 'Loading…', { icon: 'loading~spin' }, parent)];
    const retry = { command: Commands.refreshContractEvents, title: 'Retry' };
    if (result.state === 'error') return errorNodes(parent.id, result.error, { connection, retry, parent, redact: (s) => this.redactor.redact(s) });
    if (result.state === 'not-found') {
      const format = result.format;
      return [
        new MessageNode(`${parent.id}/not-found`, 'Contract not found', {
          description: `unknown to ${format.anyParty ? 'any party' : (format.parties ?? []).map((p) => shortParty(p)).join(', ') || 'these parties'}, or pruned`,
          tooltip: this.redactor.redact(`${result.error.code}: ${result.error.message}\n\n${result.error.hint}`),
          icon: 'circle-slash',
          command: { command: Commands.changeEventFormat, title: 'Change Event Format' },
        }, parent),
      ];
    }
    return uniqueNodes([...contractEventRows(result.events), ...(result.exercises ? [contractExercisesRow(result.exercises)] : [])], parent.id, parent);
  }

  private updateDescription(): void {
    const f = this.formatOverride;
    this.treeView.description = f ? `as ${f.anyParty ? 'any party' : (f.parties ?? []).map((p) => shortParty(p).split('::')[0]).join(', ')}${f.verbose === false ? ' · not verbose' : ''}` : 'as the Updates filter';
  }
}

function keyOf(h: HistoryEntry): string {
  return `${h.connectionId}/${h.contractId}`;
}

/** A contract id to start the input box with: the editor's selection or word, else the clipboard. */
export async function contractIdSuggestion(): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor) {
    const selected = editor.document.getText(editor.selection).trim().replace(/^"|"$/g, '');
    if (looksLikeContractId(selected)) return selected;
    const line = editor.document.lineAt(editor.selection.active.line).text;
    const under = contractIdAt(line, editor.selection.active.character);
    if (under) return under;
  }
  const clip = (await vscode.env.clipboard.readText()).trim();
  return looksLikeContractId(clip) ? clip : undefined;
}

/** Asks for a contract id, pre-filled from the editor or the clipboard. */
export async function askContractId(prompts: Prompts): Promise<string | undefined> {
  const value = await prompts.input({
    title: 'Show Contract Events',
    prompt: 'Contract ID (hex, starts with 00 or 01)',
    value: await contractIdSuggestion(),
    ignoreFocusOut: true,
    validateInput: (v) => (looksLikeContractId(v) ? undefined : 'A contract ID is hex: 00 or 01 followed by at least 64 hex digits'),
  });
  return value?.trim();
}

/** Picks who to ask as for contract events. */
export async function pickEventFormat(prompts: Prompts, current: EventFormatChoice | undefined, parties: string[]): Promise<EventFormatChoice | undefined | 'follow'> {
  type Item = vscode.QuickPickItem & { value: EventFormatChoice | 'follow' };
  const items: Item[] = [
    { label: '$(filter) As the Updates filter', description: current ? '' : 'current', value: 'follow' },
    { label: '$(globe) Any party', description: current?.anyParty ? 'current' : '', value: { anyParty: true, verbose: current?.verbose ?? true } },
    ...parties.map((p): Item => ({ label: `$(person) ${shortParty(p)}`, detail: p, value: { parties: [p], verbose: current?.verbose ?? true } })),
    { label: `$(list-flat) Verbose: ${current?.verbose === false ? 'off' : 'on'}`, description: 'toggle', value: { ...(current ?? { anyParty: true }), verbose: current?.verbose === false } },
  ];
  const picked = await prompts.pick(items, { title: 'Contract Events: Event Format', matchOnDetail: true, ignoreFocusOut: false });
  return picked?.value;
}
