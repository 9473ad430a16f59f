import vscode = require('vscode');
import { Commands } from '../kit/ids';
import { ConnectionCodeLensProvider } from '../kit/connectionCodeLenses';
import { fileKindOf } from '../../core/files/validate';
import { fileName } from '../files/submit/sourceFile';

/**
 * Beside Submit and Preview at the top of a commands file: "Pre-flight"; beside Dry Run at the top of
 * a vetting file: "Dry Run Across the Network". Both read every connected participant.
 */
export class PreflightCodeLensProvider extends ConnectionCodeLensProvider {
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
