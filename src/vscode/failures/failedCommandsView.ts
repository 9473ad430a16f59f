import * as vscode from 'vscode';
import { explainFailure, type FailedCommandFacts } from '../../core/cantonFailure';
import { locateCause } from '../../core/errorCauses';
import { LedgerError } from '../../core/errors';
import type { LedgerConnection } from '../../core/ledger/connection';
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
import { followCompletions } from '../../core/updates/tail';
import { Commands } from '../commands/ids';
import type { ConnectionManager } from '../connections/manager';
import type { SubmissionRecord } from '../../core/submit/history';
import type { SubmissionHistory } from '../files/submit/history';
import type { MarkdownReports } from '../files/submit/textDocuments';
import { Disposable, toDisposable } from '../lifecycle';
import type { Prompts } from '../prompts';
import type { CauseDiagnostics } from './causeDiagnostics';

/** How far back the view reads when it starts: the completions of the last this-many offsets, then the new ones live. */
export const RECENT_OFFSETS = 1000;
/** What Read From… offers (and the ledger start). */
const READ_BACK_CHOICES = [100, RECENT_OFFSETS, 10_000] as const;
/** Where reading starts: so many offsets back from the ledger end, the ledger start, or after a given offset. */
export type ReadFrom = number | 'start' | { offset: number };

/** Rows kept from the participant (the newest). */
const KEPT = 500;

/** A row: a command, or one line about the feed (not connected, the release lacks the endpoint, reconnecting…). */
export type FailedCommandsNode = { kind: 'command'; command: FailedCommand } | { kind: 'status'; text: string; tooltip?: string };

/**
 * Failed Commands: the rejected completions of the active connection's user (every user's where the
 * release and the user's rights allow), followed live, and this window's own failed submissions.
 * Each row explains itself on click; Go to Cause opens the file the command came from, the cause marked.
 */
export class FailedCommandsView extends Disposable implements vscode.TreeDataProvider<FailedCommandsNode> {
  private readonly changed = this._register(new vscode.EventEmitter<FailedCommandsNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private fromParticipant: FailedCommand[] = [];
  private status: FailedCommandsNode | undefined;
  private following: { connection: LedgerConnection; stop: AbortController } | undefined;
  private includeSucceeded = false;
  private visible = false;
  /** How many offsets back from the ledger end reading starts, the ledger start, or an offset the user named. */
  private back: ReadFrom = RECENT_OFFSETS;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly history: SubmissionHistory,
    private readonly reports: MarkdownReports,
    private readonly causes: CauseDiagnostics,
    private readonly prompts: () => Prompts,
  ) {
    super();
    this._register(history.onDidChange(() => this.changed.fire(undefined)));
    this._register(connections.onDidChange(() => this.follow()));
    this._register(toDisposable(() => this.following?.stop.abort()));
  }

  /**
   * The participant's completions are read while the view is shown only: a hidden view polls
   * nothing. Shown again, it reads anew from where Read From… says.
   */
  setVisible(visible: boolean): void {
    if (this.visible === visible) return;
    this.visible = visible;
    this.restart();
  }

  /**
   * Reads again from where the user picks: the last 100, 1000 or 10000 offsets, the ledger start, or an
   * offset the user names; then follows on. Resolves with the choice (undefined: dismissed).
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
      const text = await vscode.window.showInputBox({
        title: 'Failed Commands: read from offset',
        prompt: 'The completions after this offset, then the new ones',
        value: typeof this.back === 'object' ? String(this.back.offset) : '',
        validateInput: (v) => (/^\d{1,15}$/.test(v.trim()) ? undefined : 'An offset: a whole number, 0 for the ledger start'),
      });
      if (text === undefined || !/^\d{1,15}$/.test(text.trim())) return undefined;
      back = { offset: Number(text.trim()) };
    } else back = chosen.back;
    this.back = back;
    this.restart();
    return back;
  }

  get showsSucceeded(): boolean {
    return this.includeSucceeded;
  }

  /** Shows or hides the commands that succeeded (from the participant's completions). */
  toggleSucceeded(): void {
    this.includeSucceeded = !this.includeSucceeded;
    this.changed.fire(undefined);
  }

  /** The rows as the view shows them (newest first), the status line first. */
  rows(): FailedCommandsNode[] {
    const local = this.history.all().map(failedCommandOfRecord).filter((c): c is FailedCommand => c !== undefined);
    const commands = mergeFailedCommands([this.fromParticipant, local], { includeSucceeded: this.includeSucceeded, limit: KEPT });
    return [...(this.status ? [this.status] : []), ...commands.map((command) => ({ kind: 'command' as const, command }))];
  }

  getChildren(element?: FailedCommandsNode): FailedCommandsNode[] {
    return element ? [] : this.rows();
  }

  getTreeItem(node: FailedCommandsNode): vscode.TreeItem {
    if (node.kind === 'status') {
      const item = new vscode.TreeItem(node.text);
      item.tooltip = node.tooltip;
      item.contextValue = 'cantonLedger:failedCommandsStatus';
      return item;
    }
    const row = failedCommandRow(node.command);
    const item = new vscode.TreeItem(row.label);
    item.description = row.description;
    item.tooltip = new vscode.MarkdownString(row.tooltip);
    item.iconPath = new vscode.ThemeIcon(node.command.failure ? 'error' : 'pass');
    item.contextValue = `cantonLedger:failedCommand${node.command.failure ? ':failed' : ':succeeded'}`;
    item.command = { command: Commands.explainFailedCommand, title: 'Explain', arguments: [node] };
    return item;
  }

  /** Opens the document that explains a failed command (the same as after the editor's own submit). */
  async explain(node: FailedCommandsNode | undefined): Promise<vscode.Uri | undefined> {
    if (node?.kind !== 'command') return undefined;
    const c = node.command;
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
    return command ? this.explain({ kind: 'command', command }) : Promise.resolve(undefined);
  }

  /**
   * Opens the file the command was sent from with its cause marked: this window's submission knows its
   * file; else a `*.commands.json` of the workspace whose commandId it is. None: says so (no file opened).
   */
  async goToCause(node: FailedCommandsNode | undefined): Promise<vscode.TextEditor | undefined> {
    if (node?.kind !== 'command') return undefined;
    const c = node.command;
    const uri = await this.sourceOf(c);
    if (!uri) {
      await this.prompts().message('info', `No file in this workspace carries commandId "${c.commandId}": it was sent by another application, or its file changed its commandId since.`, []);
      return undefined;
    }
    const marked = c.failure ? await this.causes.mark(uri, c.failure) : undefined;
    const editor = await vscode.window.showTextDocument(uri, { selection: marked?.range, preview: false });
    return editor;
  }

  private async sourceOf(c: FailedCommand): Promise<vscode.Uri | undefined> {
    const known = c.fileUri ?? this.history.all().find((r) => r.commandId === c.commandId)?.fileUri;
    if (known) return vscode.Uri.parse(known);
    const files = await vscode.workspace.findFiles('**/*.commands.json', '**/node_modules/**', 500);
    const candidates = async function* (): AsyncGenerator<CandidateFile> {
      for (const uri of files) yield { uri: uri.toString(), text: (await vscode.workspace.openTextDocument(uri)).getText() };
    };
    const read: CandidateFile[] = [];
    for await (const f of candidates()) read.push(f);
    const found = findCommandSource(c.commandId, read);
    return found ? vscode.Uri.parse(found.uri) : undefined;
  }

  private restart(): void {
    this.following?.stop.abort();
    this.following = undefined;
    this.follow();
  }

  /** (Re)starts following the active connection's completions when the active connection changed. */
  private follow(): void {
    if (!this.visible) {
      this.following?.stop.abort();
      this.following = undefined;
      this.fromParticipant = [];
      this.setStatus(undefined);
      return;
    }
    const connection = this.connections.activeConnection();
    if (connection && this.following?.connection === connection) return;
    this.following?.stop.abort();
    this.following = undefined;
    this.fromParticipant = [];
    if (!connection || connection.state.state !== 'connected') {
      this.setStatus({ kind: 'status', text: 'Not connected: connect to see the participant\'s failed commands' });
      return;
    }
    const stop = new AbortController();
    this.following = { connection, stop };
    void this.run(connection, stop.signal);
  }

  private async run(connection: LedgerConnection, signal: AbortSignal): Promise<void> {
    const state = connection.state;
    if (state.state !== 'connected') return;
    const client = connection.client;
    try {
      const caps = await client.capabilities({ signal });
      const chosen = completionsSelectionFor(state.info, caps.has('listCommandCompletions'));
      if ('unavailable' in chosen) return this.setStatus({ kind: 'status', text: chosen.unavailable });
      const end = await client.ledgerEnd({ signal });
      const from = this.back === 'start' ? 0 : typeof this.back === 'object' ? Math.min(this.back.offset, end) : Math.max(0, end - this.back);
      const following = `Following ${chosen.selection.allUsers ? "every user's" : `${chosen.selection.userId}'s`} completions on ${connection.profile.name} from offset ${from}`;
      this.setStatus({ kind: 'status', text: following });
      let caughtUp = false;
      await followCompletions(client, {
        selection: chosen.selection,
        from,
        signal,
        onBatch: (batch) => {
          for (const e of batch) if (e.kind === 'completion') this.fromParticipant.unshift(failedCommandOfCompletion(e.completion));
          this.fromParticipant.length = Math.min(this.fromParticipant.length, KEPT);
          this.changed.fire(undefined);
        },
        onStatus: (s) => {
          if (s.state === 'reconnecting') this.setStatus({ kind: 'status', text: `Reconnecting in ${Math.round(s.delayMs / 1000)} s: ${s.error.message}` });
          if (s.state === 'following') this.setStatus({ kind: 'status', text: caughtUp ? `${following}, up to date` : following });
        },
        // Once the backlog is read, the rows stand in order and new ones only come on top.
        onCaughtUp: () => {
          if (caughtUp) return;
          caughtUp = true;
          this.setStatus({ kind: 'status', text: `${following}, up to date` });
        },
      });
    } catch (e) {
      if (signal.aborted) return;
      const text = e instanceof LedgerError ? e.message : String(e);
      this.setStatus({ kind: 'status', text, tooltip: e instanceof LedgerError ? e.hint : undefined });
    }
  }

  private setStatus(status: FailedCommandsNode | undefined): void {
    this.status = status;
    this.changed.fire(undefined);
  }
}
