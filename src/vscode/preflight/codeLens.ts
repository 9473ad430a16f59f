import * as vscode from 'vscode';
import { Commands } from '../kit/ids';
import type { ConnectionManager } from '../connections/manager';
import { Disposable } from '../kit/lifecycle';
import { fileKindOf } from '../../core/files/validate';
import { fileName } from '../files/submit/sourceFile';

/**
 * Beside Submit and Preview at the top of a commands file: "Pre-flight"; beside Dry Run at the top of
 * a vetting file: "Dry Run Across the Network". Both read every connected participant.
 */
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
    if (fileKindOf(fileName(document.uri)) === 'vetting') {
      return [
        new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
          title: `$(globe) Dry Run Across the Network${over}`,
          tooltip: 'Which parties hosted on this participant would lose a usable version of a package (any of their hosts counts); nothing is changed',
          command: Commands.vettingNetworkDryRun,
          arguments: [document.uri],
        }),
      ];
    }
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
