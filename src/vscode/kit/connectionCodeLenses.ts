import vscode = require('vscode');
import type { ConnectionManager } from '../connections/manager';
import { Disposable } from './lifecycle';

/** A CodeLens provider whose lenses name or count connections: VS Code asks for them again when a connection changes. */
export abstract class ConnectionCodeLensProvider extends Disposable implements vscode.CodeLensProvider {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(protected readonly connections: ConnectionManager) {
    super();
    this._register(connections.onDidChange(() => this.changed.fire()));
  }

  abstract provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[];
}
