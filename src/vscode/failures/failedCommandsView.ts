import vscode = require('vscode');
import { explainFailure, type FailedCommandFacts } from '../../core/failureExplanation';
import type { LedgerConnection } from '../../core/ledger/connection';
import { locateCause } from '../../core/errorCauses';
import type { Logger } from '../../core/log';
import type { Completion, CompletionsSelection } from '../../core/models/completions';
import type { Redactor } from '../../core/redact';
import {
  completionsSelectionFor,
  failedCommandOfCompletion,
  failedCommandOfRecord,
  failedCommandRow,
  findCommandSource,
  mergeFailedCommands,
  type CandidateFile,
  type FailedCommand,
} from '../../core/submit/failedCommands';
import type { SubmissionRecord } from '../../core/submit/history';
import { CompletionsPager } from '../../core/updates/completionsPager';
import { followCompletions, type FollowCompletionsOptions } from '../../core/updates/tail';
import { Commands, Views } from '../kit/ids';
import type { ConnectionManager } from '../connections/manager';
import type { SubmissionHistory } from '../files/submit/history';
import type { MarkdownReports } from '../files/submit/textDocuments';
import type { Prompts } from '../kit/prompts';
import { LiveFollow } from '../kit/liveFollow';
import { PagedView } from '../kit/pagedView';
import { errorNodes, MessageNode, RowNode, type ViewNode } from '../kit/rowsTree';
import type { CauseDiagnostics } from '../files/submit/causeDiagnostics';

/** How far back the first page reads: the completions of the last this-many offsets (further back: Load more). */
export const RECENT_OFFSETS = 1000;
/** What Read From… offers (and the ledger start). */
const READ_BACK_CHOICES = [100, RECENT_OFFSETS, 10_000] as const;
/** Where the first page starts: so many offsets back from the ledger end, the ledger start, or after a given offset. */
export type ReadFrom = number | 'start' | { offset: number };

const ROOT = 'failed';

/** The completions after the pinned end, followed while the view is shown (by the view's `LiveFollow`). */
interface Live {
  /** Who the pages and the live part read for (the pager's selection). */
  selection: CompletionsSelection;
  completions: FailedCommand[];
}

/**
 * Failed Commands: the rejected completions of the active connection's user (every user's where the
 * release and the user's rights allow), and this window's own failed submissions. A paged view like
 * Updates: the first page holds the completions of the last offsets before the ledger end it pins,
 * "Load more" reads older ones, and from the pinned end on new completions are followed live (with the
 * update tail's resume policy) while the view is shown. Each row explains itself on click; Go to Cause
 * opens the file the command came from, the cause marked.
 */
export class FailedCommandsView extends PagedView<CompletionsPager, ConnectionManager> {
  /** Fires with the connection when Read From… moved where the first page starts. */
  private readonly readFromChanged: vscode.EventEmitter<LedgerConnection>;
  private includeSucceeded = false;
  /** How many offsets back from the ledger end the first page reads, the ledger start, or an offset the user named. */
  private back: ReadFrom = RECENT_OFFSETS;
  private live: Live | undefined;
  /** Following the completions after the pinned end: only while the view is shown, resumed where it stood. */
  private readonly follow: LiveFollow<FollowCompletionsOptions>;
  /** The command each row shows, by node id (what the row's commands act on). */
  private commandByNode = new Map<string, FailedCommand>();
  /** Each completion's command, made once. */
  private readonly ofCompletion = new WeakMap<Completion, FailedCommand>();

  constructor(
    connections: ConnectionManager,
    private readonly history: SubmissionHistory,
    private readonly reports: MarkdownReports,
    private readonly causes: CauseDiagnostics,
    private readonly prompts: () => Prompts,
    logger: Logger,
    redactor: Redactor,
  ) {
    const readFromChanged = new vscode.EventEmitter<LedgerConnection>();
    super(
      {
        viewId: Views.failedCommands,
        idPrefix: ROOT,
        name: 'Failed Commands view',
        commands: { loadMore: Commands.loadMoreFailedCommands, refresh: Commands.refreshFailedCommands },
        onDidChangeFilter: readFromChanged.event,
        prompts: prompts(),
      },
      connections,
      logger,
      redactor,
    );
    this.readFromChanged = this._register(readFromChanged);
    this.follow = this._register(
      new LiveFollow<FollowCompletionsOptions>({
        name: 'Failed Commands, following',
        follower: followCompletions,
        // A hidden view reads nothing; nor does a connection that is not (or no longer) the one shown.
        mayRun: () => {
          const shown = this.connection;
          return this.treeView.visible && shown !== undefined && shown === this.connections.active() && shown.state.state === 'connected';
        },
        changed: () => {
          this.updateDescription();
          this.changed.fire(undefined);
        },
        logger,
        redactor,
      }),
    );
    this._registerAll(
      history.onDidChange(() => this.rebuild()),
      // A hidden view reads nothing: following stops, and resumes where it stood once shown again.
      this.treeView.onDidChangeVisibility((e) => (e.visible ? void this.follow.resume() : this.pauseLive())),
    );
    this.updateDescription();
  }

  // ---------------------------------------------------------------- the pages

  protected async openPager(connection: LedgerConnection, signal: AbortSignal): Promise<CompletionsPager> {
    const state = connection.state;
    if (state.state !== 'connected') throw new Error(`${connection.profile.name} is not connected.`);
    const client = connection.client;
    const caps = await client.capabilities({ signal });
    const selection = completionsSelectionFor(state.info, caps.has('listCommandCompletions'));
    const ledger = connection.ledger;
    const end = ledger ? await ledger.refreshLedgerEnd(signal) : await client.ledgerEnd({ signal });
    const prunedUpToInclusive = caps.has('prunedOffsets') ? await client.prunedOffsets({ signal }).then((p) => p.participantPrunedUpToInclusive, () => 0) : 0;
    const back = this.back;
    const firstBeginExclusive = back === 'start' ? 0 : typeof back === 'object' ? Math.min(back.offset, end) : Math.max(0, end - back);
    // What comes after the pinned end is followed from now on, while the first page is read (both wait
    // for the participant's idle end of a read: at the same time, not one after the other). A load a
    // reset overtook starts nothing.
    if (!signal.aborted) {
      const live: Live = { selection, completions: [] };
      this.live = live;
      void this.follow.start(end, () => ({
        // The connection's client of now (a resume after a new token reads with it).
        client: this.connections.current(connection)?.client ?? client,
        options: {
          selection,
          onBatch: (batch) => {
            for (const e of batch) if (e.kind === 'completion') live.completions.unshift(failedCommandOfCompletion(e.completion));
            this.rebuild();
          },
        },
      }));
    }
    return new CompletionsPager(client, { selection, endInclusive: end, firstBeginExclusive, window: RECENT_OFFSETS, prunedUpToInclusive });
  }

  protected showLoaded(): void {
    this.rebuild(false);
  }

  protected emptyNode(_connection: LedgerConnection, pager: CompletionsPager): MessageNode {
    const { beginExclusive, endInclusive, prunedUpToInclusive } = pager.range;
    return new MessageNode(`${ROOT}/empty`, this.includeSucceeded ? 'No commands' : 'No failed commands', {
      description: `offsets ${beginExclusive}–${endInclusive}${prunedUpToInclusive > 0 ? ` (pruned up to ${prunedUpToInclusive})` : ''}${this.includeSucceeded ? '' : ' · succeeded ones hidden'}`,
      icon: 'pass',
    });
  }

  protected moreDescription(pager: CompletionsPager): string {
    const { beginExclusive, endInclusive } = pager.range;
    return `${pager.completions.length} completion${pager.completions.length === 1 ? '' : 's'} read, offsets ${beginExclusive}–${endInclusive} · older ones before offset ${beginExclusive}`;
  }

  protected override rootNodes(connection: LedgerConnection): ViewNode[] {
    return [...this.liveNodes(connection), ...this.pageNodes(connection)];
  }

  protected override connectionChanged(moved: LedgerConnection | undefined): void {
    if (moved === undefined || moved !== this.connection) return;
    // Disconnected: what was read goes and following stops (the view shows Connect); connected again: pages from the first.
    if (moved.state.state !== 'connected' && (this.pager || this.live)) this.reset();
    else if (!this.pager) this.changed.fire(undefined);
  }

  protected override reset(keepLoaded = false): void {
    this.follow.stop();
    this.live = undefined;
    super.reset(keepLoaded);
    // The reset told the tree already; it reads the rows when it asks again.
    this.rebuild(false);
  }

  protected updateDescription(): void {
    this.treeView.description = [this.follow.running && '● live', this.includeSucceeded && 'succeeded shown'].filter(Boolean).join(' · ') || undefined;
  }

  /** The rows of the commands: the live ones, the pages' and this window's failed submissions, newest first. */
  private rebuild(fire = true): void {
    const command = (c: Completion) => {
      let made = this.ofCompletion.get(c);
      if (!made) this.ofCompletion.set(c, (made = failedCommandOfCompletion(c)));
      return made;
    };
    const local = this.history.all().map(failedCommandOfRecord).filter((c): c is FailedCommand => c !== undefined);
    const commands = mergeFailedCommands([this.live?.completions ?? [], (this.pager?.completions ?? []).map(command), local], { includeSucceeded: this.includeSucceeded });
    this.commandByNode = new Map();
    this.itemNodes = commands.map((c) => {
      const node = new RowNode(failedCommandRow(c), `${ROOT}/${c.key}`);
      this.commandByNode.set(node.id, c);
      return node;
    });
    if (fire) this.changed.fire(undefined);
  }

  // ---------------------------------------------------------------- live

  private pauseLive(): void {
    if (!this.follow.running) return;
    this.follow.pause();
    this.updateDescription();
  }

  /** The line about following: whose completions, from where, up to date or reconnecting; a stop with Retry. */
  private liveNodes(connection: LedgerConnection): MessageNode[] {
    const live = this.live;
    if (!live || !this.pager) return [];
    const s = this.follow.status;
    if (s.state === 'stopped') return errorNodes(`${ROOT}/live`, s.error, { connection, retry: { command: Commands.refreshFailedCommands, title: 'Retry' }, redact: (x) => this.redactor.redact(x) });
    const who = live.selection.allUsers ? "every user's" : `${live.selection.userId}'s`;
    const label = s.state === 'reconnecting' ? `Reconnecting in ${Math.round(s.delayMs / 1000)} s` : `Following ${who} completions on ${connection.profile.name}`;
    const description = s.state === 'reconnecting' ? this.redactor.redact(s.error.message) : `after offset ${this.pager.range.endInclusive}${this.follow.caughtUp ? ', up to date' : ''}`;
    return [
      new MessageNode(`${ROOT}/live`, label, {
        description,
        icon: s.state === 'reconnecting' ? 'debug-disconnect' : 'pulse',
        tooltip: 'New completions appear at the top while the view is shown; older ones: Load more at the end, or Read From….',
        contextValue: 'cantonLedger:failedCommandsStatus',
      }),
    ];
  }

  // ---------------------------------------------------------------- rows and their commands

  override getTreeItem(node: ViewNode): vscode.TreeItem {
    const item = super.getTreeItem(node);
    const command = this.commandByNode.get(node.id);
    if (command) item.command = { command: Commands.explainFailedCommand, title: 'Explain', arguments: [node] };
    // The links under a failure whose cause is a contract open on click.
    const link = node.type === 'row' ? node.row : undefined;
    if (link?.kind === 'failedCommand.lineage') item.command = { command: Commands.showContractLineage, title: 'Show Contract Lineage', arguments: [{ contractId: link.contractId }] };
    if (link?.kind === 'failedCommand.events') item.command = { command: Commands.showContractEvents, title: 'Show Contract Events', arguments: [link.contractId] };
    return item;
  }

  /** The command a row shows (a row's node from the tree, or the command itself). */
  commandOf(target: ViewNode | FailedCommand | undefined): FailedCommand | undefined {
    if (!target) return undefined;
    return 'commandId' in target ? target : this.commandByNode.get(target.id);
  }

  /** The command rows as shown (newest first), for the commands and tests. */
  commandRows(): { node: RowNode; command: FailedCommand }[] {
    return (this.itemNodes as RowNode[]).map((node) => ({ node, command: this.commandByNode.get(node.id)! }));
  }

  /** True while new completions are followed (the view is shown and its first page read). */
  get following(): boolean {
    return this.follow.running;
  }

  /** The line about following (`Following …`, `after offset 12, up to date`), while there is one. */
  get liveStatus(): { label: string; description?: string } | undefined {
    const connection = this.connections.active();
    const node = connection && this.liveNodes(connection)[0];
    return node && { label: node.label, description: node.opts.description };
  }

  /**
   * Reads again from where the user picks: the last 100, 1000 or 10000 offsets, the ledger start, or an
   * offset the user names; older ones stay a Load more away. Resolves with the choice (undefined: dismissed).
   */
  async readFrom(): Promise<ReadFrom | undefined> {
    const choices: { label: string; back: ReadFrom | 'ask' }[] = [
      ...READ_BACK_CHOICES.map((back) => ({ label: `The last ${back} offsets`, back })),
      { label: 'The ledger start', back: 'start' },
      { label: 'An offset…', back: 'ask' },
    ];
    const chosen = await this.prompts().pick(
      choices.map((c) => ({ ...c, description: c.back === this.back || (c.back === 'ask' && typeof this.back === 'object') ? 'now' : undefined })),
      { title: 'Failed Commands: read the completions of' },
    );
    if (!chosen) return undefined;
    let back: ReadFrom;
    if (chosen.back === 'ask') {
      const text = await this.prompts().input({
        title: 'Failed Commands: read from offset',
        prompt: 'The completions after this offset first; older ones with Load more',
        value: typeof this.back === 'object' ? String(this.back.offset) : '',
        validateInput: (v) => (/^\d{1,15}$/.test(v.trim()) ? undefined : 'An offset: a whole number, 0 for the ledger start'),
      });
      if (text === undefined || !/^\d{1,15}$/.test(text.trim())) return undefined;
      back = { offset: Number(text.trim()) };
    } else back = chosen.back;
    this.back = back;
    if (this.connection) this.readFromChanged.fire(this.connection);
    return back;
  }

  get showsSucceeded(): boolean {
    return this.includeSucceeded;
  }

  /** Shows or hides the commands that succeeded (from the participant's completions). */
  toggleSucceeded(): void {
    this.includeSucceeded = !this.includeSucceeded;
    this.updateDescription();
    this.rebuild();
  }

  /** Opens the document that explains a failed command (the same as after the editor's own submit). */
  async explain(target: ViewNode | FailedCommand | undefined): Promise<vscode.Uri | undefined> {
    const c = this.commandOf(target);
    if (!c) return undefined;
    if (!c.failure) {
      await this.prompts().message('info', `Command ${c.commandId} succeeded${c.offset !== undefined ? ` at offset ${c.offset}` : ''}.`, []);
      return undefined;
    }
    const text = explainFailure(c.failure, { commandId: c.commandId, submissionId: c.submissionId, userId: c.userId, actAs: c.actAs, offset: c.offset, recordTime: c.time, causeAt: await this.causeAt(c) });
    return this.reports.show(`Failed ${c.commandId}`, text);
  }

  /** Where the cause is in the file this window sent the command from (`iou.commands.json:12:23`), when it can be read. */
  private async causeAt(c: FailedCommand): Promise<FailedCommandFacts['causeAt']> {
    if (!c.fileUri || !c.failure) return undefined;
    try {
      const uri = vscode.Uri.parse(c.fileUri);
      const at = locateCause(c.failure, (await vscode.workspace.openTextDocument(uri)).getText());
      return at && { place: `${uri.path.slice(uri.path.lastIndexOf('/') + 1)}:${at.line}:${at.column}`, what: at.what, match: at.match };
    } catch {
      return undefined;
    }
  }

  /** The explanation of a failed submission of this window (the button on its failure message). */
  explainRecord(record: SubmissionRecord): Promise<vscode.Uri | undefined> {
    const command = failedCommandOfRecord(record);
    return command ? this.explain(command) : Promise.resolve(undefined);
  }

  /**
   * Opens the file the command was sent from with its cause marked: this window's submission knows its
   * file; else a `*.commands.json` of the workspace whose commandId it is. None: says so (no file opened).
   */
  async goToCause(target: ViewNode | FailedCommand | undefined): Promise<vscode.TextEditor | undefined> {
    const c = this.commandOf(target);
    if (!c) return undefined;
    const uri = await this.sourceOf(c);
    if (!uri) {
      await this.prompts().message('info', `No file in this workspace carries commandId "${c.commandId}": it was sent by another application, or its file changed its commandId since.`, []);
      return undefined;
    }
    const marked = c.failure ? await this.causes.mark(uri, c.failure) : undefined;
    if (!marked) return vscode.window.showTextDocument(uri, { preview: false });
    const { range } = marked;
    // The cursor at the start of the cause (a selection's active end is what the editor scrolls to),
    // and the cause from its line's start (where its key is) in the middle of the editor.
    const editor = await vscode.window.showTextDocument(uri, { selection: new vscode.Selection(range.end, range.start), preview: false });
    editor.revealRange(new vscode.Range(range.start.line, 0, range.end.line, range.end.character), vscode.TextEditorRevealType.InCenter);
    return editor;
  }

  private async sourceOf(c: FailedCommand): Promise<vscode.Uri | undefined> {
    const known = c.fileUri ?? this.history.all().find((r) => r.commandId === c.commandId)?.fileUri;
    if (known) return vscode.Uri.parse(known);
    const files = await vscode.workspace.findFiles('**/*.commands.json', '**/node_modules/**', 500);
    const read: CandidateFile[] = [];
    for (const uri of files) read.push({ uri: uri.toString(), text: (await vscode.workspace.openTextDocument(uri)).getText() });
    const found = findCommandSource(c.commandId, read);
    return found ? vscode.Uri.parse(found.uri) : undefined;
  }
}
