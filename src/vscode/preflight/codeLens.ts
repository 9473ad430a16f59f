import * as vscode from 'vscode';
import { Commands } from '../commands/ids';
import type { ConnectionManager } from '../connections/manager';
import { Disposable } from '../lifecycle';

/** At the top of a commands file, beside Submit and Preview: "Pre-flight", over every connected participant. */
export class PreflightCodeLensProvider extends Disposable implements vscode.CodeLensProvider {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly connections: ConnectionManager) {
    super();
    // The lens counts the connected participants, so it follows connection changes.
    this._register(connections.onDidChange(() => this.changed.fire()));
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const connected = this.connections.all().filter((c) => c.state.state === 'connected').length;
    const over = connected > 1 ? ` (${connected} participants)` : '';
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: `$(checklist) Pre-flight${over}`,
        tooltip: 'Which package version Canton will use for the file\'s parties, or which host of which party lacks which vetting (every connected connection is asked)',
        command: Commands.preflight,
        arguments: [document.uri],
      }),
    ];
  }
}
