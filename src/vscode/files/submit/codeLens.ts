import vscode = require('vscode');
import { fileKindOf } from '../../../core/files/validate';
import { Commands } from '../../kit/ids';
import { ConnectionCodeLensProvider } from '../../kit/connectionCodeLenses';
import { fileName } from './sourceFile';

/** At the top of a commands file: "Submit to <connection>"; of a vetting file: dry run and apply. */
export class SendCodeLensProvider extends ConnectionCodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const kind = fileKindOf(fileName(document.uri));
    if (!kind) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const target = this.connections.profiles.active()?.name;
    const args = [document.uri];
    if (kind === 'commands') {
      return [
        new vscode.CodeLens(top, { title: target ? `$(play) Submit to ${target}` : '$(play) Submit (choose a connection)', command: Commands.submit, arguments: args }),
        new vscode.CodeLens(top, { title: '$(eye) Preview', tooltip: 'What the commands would do, without submitting them (interactive-submission prepare)', command: Commands.preview, arguments: args }),
      ];
    }
    const on = target ? ` on ${target}` : '';
    return [
      new vscode.CodeLens(top, { title: `$(eye) Dry Run${on}`, command: Commands.vettingDryRun, arguments: args }),
      new vscode.CodeLens(top, { title: `$(check) Apply${on}`, command: Commands.vettingApply, arguments: args }),
    ];
  }
}
