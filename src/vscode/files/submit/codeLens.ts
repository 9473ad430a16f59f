import * as vscode from 'vscode';
import { fileKindOf } from '../../../core/files/validate';
import type { ConnectionManager } from '../../connections/manager';
import { SendCommands } from './ids';
import { fileName } from './sourceFile';

/** At the top of a commands file: "Submit to <connection>"; of a vetting file: dry run and apply. */
export class SendCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connections: ConnectionManager) {
    // The lens names the active connection, so it follows connection changes.
    this.subscription = connections.onDidChange(() => this.changed.fire());
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const kind = fileKindOf(fileName(document.uri));
    if (!kind) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const target = this.connections.profiles.active()?.name;
    const args = [document.uri];
    if (kind === 'commands') {
      return [
        new vscode.CodeLens(top, { title: target ? `$(play) Submit to ${target}` : '$(play) Submit (choose a connection)', command: SendCommands.submit, arguments: args }),
        new vscode.CodeLens(top, { title: '$(eye) Preview', tooltip: 'What the commands would do, without submitting them (interactive-submission prepare)', command: SendCommands.preview, arguments: args }),
      ];
    }
    const on = target ? ` on ${target}` : '';
    return [
      new vscode.CodeLens(top, { title: `$(eye) Dry Run${on}`, command: SendCommands.vettingDryRun, arguments: args }),
      new vscode.CodeLens(top, { title: `$(check) Apply${on}`, command: SendCommands.vettingApply, arguments: args }),
    ];
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
