import vscode = require('vscode');
import { outcomeLabel, recordSubmission, type SubmissionRecord } from '../../../core/submit/history';
import { Commands } from '../../kit/ids';
import { Disposable } from '../../kit/lifecycle';

const HISTORY_KEY = 'cantonLedger.submissions.v1';

/** The submissions of this workspace, newest first, in workspace state (bounded). */
export class SubmissionHistory extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {
    super();
  }

  all(): SubmissionRecord[] {
    return this.state.get<SubmissionRecord[]>(HISTORY_KEY) ?? [];
  }

  get(id: string): SubmissionRecord | undefined {
    return this.all().find((r) => r.id === id);
  }

  async put(record: SubmissionRecord): Promise<void> {
    await this.state.update(HISTORY_KEY, recordSubmission(this.all(), record));
    this.changed.fire();
  }

  async clear(): Promise<void> {
    await this.state.update(HISTORY_KEY, undefined);
    this.changed.fire();
  }
}

const OUTCOME_ICONS: Record<SubmissionRecord['outcome'], vscode.ThemeIcon> = {
  succeeded: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  unknown: new vscode.ThemeIcon('question', new vscode.ThemeColor('list.warningForeground')),
  duplicate: new vscode.ThemeIcon('copy'),
};

/** The Submissions view: one row per submission; its context value drives the item menus. */
export class SubmissionsTreeProvider extends Disposable implements vscode.TreeDataProvider<SubmissionRecord> {
  private readonly changed = this._register(new vscode.EventEmitter<SubmissionRecord | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly history: SubmissionHistory) {
    super();
    this._register(history.onDidChange(() => this.changed.fire(undefined)));
  }

  getChildren(element?: SubmissionRecord): SubmissionRecord[] {
    return element ? [] : this.history.all();
  }

  getTreeItem(r: SubmissionRecord): vscode.TreeItem {
    const item = new vscode.TreeItem(r.fileName, vscode.TreeItemCollapsibleState.None);
    item.id = r.id;
    const time = new Date(r.time);
    item.description = `${outcomeLabel(r)} · ${r.connectionName} · ${time.toLocaleTimeString()}`;
    item.iconPath = OUTCOME_ICONS[r.outcome];
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**${r.fileName}** → ${r.connectionName}\n\n`);
    md.appendMarkdown(`- outcome: ${outcomeLabel(r)}${r.attempts > 1 ? ` after ${r.attempts} attempts` : ''}\n`);
    md.appendMarkdown(`- commandId: \`${r.commandId}\`\n`);
    if (r.updateId) md.appendMarkdown(`- update: \`${r.updateId}\` at offset ${r.offset}\n`);
    md.appendMarkdown(`- time: ${time.toLocaleString()}\n`);
    item.tooltip = md;
    item.contextValue = `cantonLedger:submission:${r.outcome}${r.transaction ? '+result' : ''}`;
    if (r.transaction) item.command = { command: Commands.openSubmissionResult, title: 'Open Result', arguments: [r] };
    return item;
  }
}
