import * as vscode from 'vscode';
import { CancelledError } from '../../core/errors';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import { readableParties, shortParty } from '../../core/models/users';
import { compareParties, parseOffsetRange, partyNames, type ComparePartiesQuery, type PartyComparison } from '../../core/updates/compare';
import { comparisonRows, comparisonTitle } from '../../core/updates/compareRows';
import type { ConnectionManager } from '../connections/manager';
import type { LedgerConnection } from '../../core/ledger/connection';
import { Commands, focusViewCommand, Views } from '../kit/ids';
import type { CommandRegistry } from '../kit/registry';
import type { ErrorReporter, Prompts } from '../kit/prompts';
import { childrenOf, errorNodes, LedgerTreeView, MessageNode, uniqueNodes, type ViewNode } from '../kit/rowsTree';

/** True from the first comparison of the window until Close Comparison: the view is shown meanwhile. */
const SHOWN_KEY = 'cantonLedger.compareParties.shown';

/** What the view shows: nothing yet, a comparison being read, its result, or why it failed. */
type CompareState =
  | { state: 'none' }
  | { state: 'running'; connection: LedgerConnection; query: ComparePartiesQuery }
  | { state: 'ready'; connection: LedgerConnection; query: ComparePartiesQuery; comparison: PartyComparison }
  | { state: 'failed'; connection: LedgerConnection; query: ComparePartiesQuery; error: unknown };

/**
 * Compare Parties: one offset range read once per party, shown side by side — the summary, then per
 * transaction which party sees it, its events with each party's role, and what differs.
 */
export class CompareView extends LedgerTreeView {
  private current: CompareState = { state: 'none' };
  /** Counts the runs: a run that a later one overtook shows nothing when it ends. */
  private runs = 0;

  constructor(private readonly connections: ConnectionManager, private readonly logger: Logger, private readonly redactor: Redactor) {
    super(Views.compareParties);
  }

  get state(): CompareState {
    return this.current;
  }

  /**
   * Reads and compares; the view shows the progress and then the result or the failure. A cancelled
   * comparison leaves the previous result in place. Resolves with the comparison, undefined when cancelled.
   */
  async run(connection: LedgerConnection, query: ComparePartiesQuery, signal?: AbortSignal, onProgress?: (message: string) => void): Promise<PartyComparison | undefined> {
    const previous = this.current;
    const run = ++this.runs;
    const latest = () => run === this.runs;
    this.show({ state: 'running', connection, query });
    void vscode.commands.executeCommand('setContext', SHOWN_KEY, true);
    const names = partyNames(query.parties);
    const nameOf = (party: string) => names[query.parties.indexOf(party)] ?? party;
    try {
      const comparison = await compareParties(connection.client, query, {
        signal,
        onProgress: (p) => onProgress?.(`reading as ${nameOf(p.party)} (${p.index + 1} of ${names.length}): ${p.transactions} transactions`),
      });
      if (latest()) this.show({ state: 'ready', connection, query, comparison });
      return comparison;
    } catch (e) {
      if (e instanceof CancelledError) {
        this.logger.info('Compare Parties: cancelled');
        if (latest()) this.show(previous);
        return undefined;
      }
      this.logger.warn(`Compare Parties: ${this.redactor.redactError(e)}`);
      if (latest()) this.show({ state: 'failed', connection, query, error: e });
      throw e;
    }
  }

  /** Forgets the comparison and hides the view until the next one. */
  close(): void {
    this.show({ state: 'none' });
    void vscode.commands.executeCommand('setContext', SHOWN_KEY, false);
  }

  /** Runs the shown comparison again (same parties and range). */
  async rerun(signal?: AbortSignal): Promise<PartyComparison | undefined> {
    const s = this.current;
    if (s.state === 'none') return undefined;
    // On its connection as it is now (a reconnect made it anew).
    return this.run(this.connections.current(s.connection) ?? s.connection, s.query, signal);
  }

  private show(next: CompareState): void {
    this.current = next;
    this.treeView.description =
      next.state === 'ready' ? `${comparisonTitle(next.comparison)} · ${next.connection.profile.name}` : next.state === 'none' ? undefined : `${partyNames(next.query.parties).join(' vs ')} · ${next.connection.profile.name}`;
    this.changed.fire(undefined);
  }

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (node) return childrenOf(node);
    const s = this.current;
    switch (s.state) {
      case 'none':
        return [new MessageNode('compare/none', 'Compare Parties…', { description: 'pick two or more parties and a range', icon: 'git-compare', command: { command: Commands.compareParties, title: 'Compare Parties…' } })];
      case 'running':
        return [new MessageNode('compare/running', `Reading as ${partyNames(s.query.parties).join(', ')}…`, { description: s.connection.profile.name, icon: 'loading~spin' })];
      case 'failed':
        return errorNodes('compare', s.error, { connection: s.connection, retry: { command: Commands.rerunComparison, title: 'Retry' }, redact: (x) => this.redactor.redact(x) });
      case 'ready':
        return uniqueNodes(comparisonRows(s.comparison), 'compare');
    }
  }
}

/** The parties one may pick: those of the participant and those the user's rights name. */
function partyChoices(connection: LedgerConnection): string[] {
  const s = connection.state;
  if (s.state !== 'connected') return [];
  return [...new Set([...s.info.parties.map((p) => p.party), ...(s.info.rights ? readableParties(s.info.rights) : [])])];
}

async function pickParties(prompts: Prompts, choices: string[], previous: readonly string[]): Promise<string[] | undefined> {
  const names = partyNames(choices);
  const items = choices.map((party, i) => ({ label: names[i], description: names[i] === party ? undefined : shortParty(party), party, picked: previous.includes(party) }));
  for (;;) {
    const picked = await prompts.pickMany(items, {
      title: 'Compare Parties (1/2): the parties',
      placeHolder: 'Pick two or more parties; each one reads the ledger on its own',
      ignoreFocusOut: true,
    });
    if (!picked) return undefined;
    if (picked.length >= 2) return picked.map((p) => p.party);
    items.forEach((item) => (item.picked = picked.includes(item)));
    void prompts.message('warning', 'Pick at least two parties to compare.', []);
  }
}

/** The last N offsets offered besides the whole ledger. */
const RECENT_OFFSETS = 100;

async function pickRange(prompts: Prompts, ledgerEnd: number): Promise<{ beginExclusive: number; endInclusive: number } | undefined> {
  type Item = vscode.QuickPickItem & { range?: { beginExclusive: number; endInclusive: number } };
  const items: Item[] = [{ label: 'Whole ledger', description: ledgerEnd > 0 ? `offsets 1–${ledgerEnd}` : 'empty', range: { beginExclusive: 0, endInclusive: ledgerEnd } }];
  if (ledgerEnd > RECENT_OFFSETS) items.push({ label: `Last ${RECENT_OFFSETS} offsets`, description: `offsets ${ledgerEnd - RECENT_OFFSETS + 1}–${ledgerEnd}`, range: { beginExclusive: ledgerEnd - RECENT_OFFSETS, endInclusive: ledgerEnd } });
  items.push({ label: 'Offset range…', description: 'first and last offset, e.g. 10-42' });
  const picked = await prompts.pick(items, { title: 'Compare Parties (2/2): the offsets', placeHolder: `The ledger ends at offset ${ledgerEnd}`, ignoreFocusOut: true });
  if (!picked) return undefined;
  if (picked.range) return picked.range;
  const text = await prompts.input({
    title: 'Compare Parties: offset range',
    prompt: `First and last offset, both included (the ledger ends at ${ledgerEnd})`,
    placeHolder: `1-${ledgerEnd}`,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const r = parseOffsetRange(value, ledgerEnd);
      return 'problem' in r ? r.problem : undefined;
    },
  });
  if (text === undefined) return undefined;
  const r = parseOffsetRange(text, ledgerEnd);
  return 'problem' in r ? undefined : r;
}

/** What the command takes to skip the prompts (tests, other commands). */
export interface CompareArgs {
  parties?: string[];
  beginExclusive?: number;
  endInclusive?: number;
  /** See {@link ComparePartiesQuery.interfaceIds}. */
  interfaceIds?: string[];
}

export interface CompareFeature {
  view: CompareView;
  /** The command: prompts for what `args` leaves out, then compares with cancellable progress. */
  compare(args?: CompareArgs): Promise<PartyComparison | undefined>;
}

/** The Compare Parties view and its commands (offered while the active connection is connected: `cantonLedger.connected`). */
export function registerComparePartiesView(commands: CommandRegistry, connections: ConnectionManager, logger: Logger, redactor: Redactor, errors: ErrorReporter, prompts: Prompts): { feature: CompareFeature; view: CompareView } {
  const view = new CompareView(connections, logger, redactor);
  /** The parties picked last, per connection (a new connection, a new choice). */
  const previousPicks = new WeakMap<LedgerConnection, string[]>();

  const compare = async (args: CompareArgs = {}): Promise<PartyComparison | undefined> => {
    const connection = connections.activeConnection();
    if (!connection) {
      void prompts.message('warning', 'Compare Parties reads from the active connection: connect to a participant first.', []);
      return undefined;
    }
    // Given parties mean no prompts: the range is what `args` says, by default the whole ledger.
    if (args.parties) return runWithProgress(connection, { parties: args.parties, beginExclusive: args.beginExclusive, endInclusive: args.endInclusive, interfaceIds: args.interfaceIds });
    const parties = await pickParties(prompts, partyChoices(connection), previousPicks.get(connection) ?? []);
    if (!parties) return undefined;
    previousPicks.set(connection, parties);
    const client = connection.client;
    const ledgerEnd = await prompts.progress('Reading the ledger end', (signal) => client.ledgerEnd({ signal })).then(undefined, (e) => {
      void errors.report('Compare Parties', e);
      return undefined;
    });
    if (ledgerEnd === undefined) return undefined;
    const range = await pickRange(prompts, ledgerEnd);
    if (!range) return undefined;
    return runWithProgress(connection, { parties, ...range });
  };
  const runWithProgress = async (connection: LedgerConnection, query: ComparePartiesQuery): Promise<PartyComparison | undefined> => {
    // The view is contributed hidden until the first comparison.
    await vscode.commands.executeCommand('setContext', SHOWN_KEY, true);
    await vscode.commands.executeCommand(focusViewCommand(Views.compareParties));
    try {
      return await prompts.progress(`Compare Parties on ${connection.profile.name}`, (signal, report) => view.run(connection, query, signal, (message) => report?.(message)));
    } catch {
      // Shown in the view, with Retry; the log has the details.
      return undefined;
    }
  };
  const rerun = () => prompts.progress('Compare Parties', (signal) => view.rerun(signal)).then(undefined, () => undefined);
  commands.register(Commands.compareParties, compare);
  commands.register(Commands.rerunComparison, rerun);
  commands.register(Commands.closeComparison, () => view.close());
  return { feature: { view, compare }, view };
}
