import vscode = require('vscode');
import { CancelledError } from '../../core/errors';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import { readableParties, shortParty } from '../../core/models/users';
import { compareSides, parseOffsetRange, partyNames, type ComparePartiesQuery, type PartyComparison } from '../../core/updates/compare';
import { comparisonRows, comparisonTitle } from '../../core/updates/compareRows';
import type { ConnectionManager } from '../connections/manager';
import type { LedgerConnection } from '../../core/ledger/connection';
import { Commands, focusViewCommand, Views } from '../kit/ids';
import type { CommandRegistry } from '../kit/registry';
import type { ErrorReporter, Prompts } from '../kit/prompts';
import { childrenOf, errorNodes, LedgerTreeView, MessageNode, uniqueNodes, type ViewNode } from '../kit/rowsTree';

/** True from the first comparison of the window until Close Comparison: the view is shown meanwhile. */
const SHOWN_KEY = 'cantonLedger.compareParties.shown';

/**
 * Where the parties are read: one connection for all of them, or one per party (indexed like the
 * query's parties) when they are picked on several participants.
 */
export type CompareTarget = LedgerConnection | readonly LedgerConnection[];

/** What the view shows: nothing yet, a comparison being read, its result, or why it failed. */
type CompareState =
  | { state: 'none' }
  | ({ state: 'running' } & CompareRun)
  | ({ state: 'ready'; comparison: PartyComparison } & CompareRun)
  | ({ state: 'failed'; error: unknown } & CompareRun);

interface CompareRun {
  /** The first party's connection (the only one unless `perParty` says otherwise). */
  connection: LedgerConnection;
  /** Set when the parties are read on several connections: each party's, indexed like the query's parties. */
  perParty?: readonly LedgerConnection[];
  query: ComparePartiesQuery;
}

/** The connections' names of a run: "Demo", or "app-provider + app-user". */
function runWhere(r: CompareRun): string {
  return [...new Set((r.perParty ?? [r.connection]).map((c) => c.profile.name))].join(' + ');
}

/** The parties of a run as shown: "Alice", or "Alice on app-user" when they are on several connections. */
function runNames(r: CompareRun): string[] {
  return partyNames(r.query.parties).map((name, i) => (r.perParty ? `${name} on ${r.perParty[i].profile.name}` : name));
}

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
  async run(target: CompareTarget, query: ComparePartiesQuery, signal?: AbortSignal, onProgress?: (message: string) => void): Promise<PartyComparison | undefined> {
    const previous = this.current;
    const run = ++this.runs;
    const latest = () => run === this.runs;
    const perParty = isPerParty(target) && new Set(target).size > 1 ? target : undefined;
    const connection = isPerParty(target) ? target[0] : target;
    const where: CompareRun = { connection, perParty, query };
    this.show({ state: 'running', ...where });
    void vscode.commands.executeCommand('setContext', SHOWN_KEY, true);
    const names = runNames(where);
    const nameOf = (party: string) => names[query.parties.indexOf(party)] ?? party;
    try {
      const { parties, ...range } = query;
      const sides = parties.map((party, i) => {
        const on = perParty?.[i] ?? connection;
        return { party, client: on.client, label: on.profile.name };
      });
      const comparison = await compareSides(sides, range, {
        signal,
        onProgress: (p) => onProgress?.(`reading as ${nameOf(p.party)} (${p.index + 1} of ${names.length}): ${p.transactions} transactions`),
      });
      if (latest()) this.show({ state: 'ready', ...where, comparison });
      return comparison;
    } catch (e) {
      if (e instanceof CancelledError) {
        this.logger.info('Compare Parties: cancelled');
        if (latest()) this.show(previous);
        return undefined;
      }
      this.logger.warn(`Compare Parties: ${this.redactor.redactError(e)}`);
      if (latest()) this.show({ state: 'failed', ...where, error: e });
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
    // On its connections as they are now (a reconnect made one anew).
    const now = (c: LedgerConnection) => this.connections.current(c) ?? c;
    return this.run(s.perParty ? s.perParty.map(now) : now(s.connection), s.query, signal);
  }

  private show(next: CompareState): void {
    this.current = next;
    this.treeView.description =
      next.state === 'ready' ? `${comparisonTitle(next.comparison)} · ${runWhere(next)}` : next.state === 'none' ? undefined : `${runNames(next).join(' vs ')} · ${runWhere(next)}`;
    this.changed.fire(undefined);
  }

  async getChildren(node?: ViewNode): Promise<ViewNode[]> {
    if (node) return childrenOf(node);
    const s = this.current;
    switch (s.state) {
      case 'none':
        return [new MessageNode('compare/none', 'Compare Parties…', { description: 'pick two or more parties and a range', icon: 'git-compare', command: { command: Commands.compareParties, title: 'Compare Parties…' } })];
      case 'running':
        return [new MessageNode('compare/running', `Reading as ${runNames(s).join(', ')}…`, { description: runWhere(s), icon: 'loading~spin' })];
      case 'failed':
        return errorNodes('compare', s.error, { connection: s.connection, retry: { command: Commands.rerunComparison, title: 'Retry' }, redact: (x) => this.redactor.redact(x) });
      case 'ready':
        return uniqueNodes(comparisonRows(s.comparison), 'compare');
    }
  }
}

function isPerParty(target: CompareTarget): target is readonly LedgerConnection[] {
  return Array.isArray(target);
}

/** The parties one may pick: those of the participant and those the user's rights name. */
function partyChoices(connection: LedgerConnection): string[] {
  const s = connection.state;
  if (s.state !== 'connected') return [];
  return [...new Set([...s.info.parties.map((p) => p.party), ...(s.info.rights ? readableParties(s.info.rights) : [])])];
}

/** A party to pick, on the connection it is read from. */
interface PartyChoice {
  party: string;
  connection: LedgerConnection;
}

/**
 * The parties of every connection given, each labelled by its connection when there are several
 * ("Alice" with "on app-user · Alice::1220…"); a party hosted on two is offered on each.
 */
async function pickParties(prompts: Prompts, connections: readonly LedgerConnection[], isPrevious: (c: PartyChoice) => boolean): Promise<PartyChoice[] | undefined> {
  const choices: PartyChoice[] = connections.flatMap((connection) => partyChoices(connection).map((party) => ({ party, connection })));
  const names = partyNames([...new Set(choices.map((c) => c.party))]);
  const nameOf = new Map([...new Set(choices.map((c) => c.party))].map((party, i) => [party, names[i]]));
  const several = connections.length > 1;
  const items = choices.map((choice) => {
    const name = nameOf.get(choice.party)!;
    const id = name === choice.party ? undefined : shortParty(choice.party);
    const description = several ? [`on ${choice.connection.profile.name}`, id].filter(Boolean).join(' · ') : id;
    return { label: name, description, choice, picked: isPrevious(choice) };
  });
  for (;;) {
    const picked = await prompts.pickMany(items, {
      title: 'Compare Parties (1/2): the parties',
      placeHolder: 'Pick two or more parties; each one reads the ledger on its own',
      ignoreFocusOut: true,
    });
    if (!picked) return undefined;
    if (picked.length >= 2) return picked.map((p) => p.choice);
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
  /** Each party's connection (its profile id), indexed like `parties`; default: the active connection for all. */
  connectionIds?: string[];
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
    const connected = connections.all().filter((c) => c.state.state === 'connected');
    if (!connection && connected.length < 2) {
      void prompts.message('warning', 'Compare Parties reads from the active connection: connect to a participant first.', []);
      return undefined;
    }
    // Given parties mean no prompts: the range is what `args` says, by default the whole ledger.
    if (args.parties) {
      const query = { parties: args.parties, beginExclusive: args.beginExclusive, endInclusive: args.endInclusive, interfaceIds: args.interfaceIds };
      if (!args.connectionIds) {
        if (connection) return runWithProgress(connection, query);
      } else {
        const perParty = args.connectionIds.map((id) => connected.find((c) => c.profile.id === id));
        if (perParty.every((c): c is LedgerConnection => c !== undefined)) return runWithProgress(perParty, query);
      }
      void prompts.message('warning', 'Compare Parties: a connection to read from is not connected.', []);
      return undefined;
    }
    // Every connected connection offers its parties; with one, the flow is the single participant's.
    const offered = connected.length > 1 ? [connection, ...connected].filter((c, i, all): c is LedgerConnection => c !== undefined && all.indexOf(c) === i) : [connection ?? connected[0]];
    const picked = await pickParties(prompts, offered, (c) => (previousPicks.get(c.connection) ?? []).includes(c.party));
    if (!picked) return undefined;
    for (const on of offered) previousPicks.set(on, picked.filter((c) => c.connection === on).map((c) => c.party));
    const parties = picked.map((c) => c.party);
    const on = [...new Set(picked.map((c) => c.connection))];
    // Offsets are each participant's own: parties on several are compared over each one's whole ledger.
    if (on.length > 1) return runWithProgress(picked.map((c) => c.connection), { parties });
    const client = on[0].client;
    const ledgerEnd = await prompts.progress('Reading the ledger end', (signal) => client.ledgerEnd({ signal })).then(undefined, (e) => {
      void errors.report('Compare Parties', e);
      return undefined;
    });
    if (ledgerEnd === undefined) return undefined;
    const range = await pickRange(prompts, ledgerEnd);
    if (!range) return undefined;
    return runWithProgress(on[0], { parties, ...range });
  };
  const runWithProgress = async (target: CompareTarget, query: ComparePartiesQuery): Promise<PartyComparison | undefined> => {
    // The view is contributed hidden until the first comparison.
    await vscode.commands.executeCommand('setContext', SHOWN_KEY, true);
    await vscode.commands.executeCommand(focusViewCommand(Views.compareParties));
    try {
      const where = [...new Set((isPerParty(target) ? target : [target]).map((c) => c.profile.name))].join(' + ');
      return await prompts.progress(`Compare Parties on ${where}`, (signal, report) => view.run(target, query, signal, (message) => report?.(message)));
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
