/**
 * `*.pqs.sql` files: Run and Explain (CodeLens and palette) on the store attached to the active
 * connection, into the result grid, and completions (PQS's functions with their signatures, the
 * store's template names, the templates' payload fields). The statement guard and the read-only
 * session are the core's; a cancelled run is the error reporter's (silent).
 */
import vscode = require('vscode');
import * as path from 'node:path';
import { pqsCompletions } from '../../core/pqs/completions';
import type { FilterPackages } from '../../core/pqs/filter';
import type { PqsStore, SqlResult } from '../../core/pqs/store';
import { Commands } from '../kit/ids';
import type { CommandRegistry } from '../kit/registry';
import { Disposable } from '../kit/lifecycle';
import type { Prompts } from '../kit/prompts';
import type { PqsResultsPanel } from './resultsPanel';

const SQL_SELECTOR: vscode.DocumentSelector = { pattern: '**/*.pqs.sql' };

export interface PqsSqlFilesDeps {
  prompts: Prompts;
  results: PqsResultsPanel;
  /** The store of the active connection. */
  store(): PqsStore | undefined;
  /** The template and interface names the store holds (as the view last read them). */
  names(): string[];
  packageIndex(): FilterPackages | undefined;
}

export class PqsSqlFiles extends Disposable {
  constructor(private readonly deps: PqsSqlFilesDeps) {
    super();
    this._register(vscode.languages.registerCodeLensProvider(SQL_SELECTOR, { provideCodeLenses: (doc) => codeLenses(doc) }));
    this._register(vscode.languages.registerCompletionItemProvider(SQL_SELECTOR, { provideCompletionItems: () => this.completions() }));
  }

  register(commands: CommandRegistry): void {
    commands.register(Commands.pqsRunFile, (uri?: vscode.Uri) => this.runFile(uri, false));
    commands.register(Commands.pqsExplainFile, (uri?: vscode.Uri) => this.runFile(uri, true));
  }

  private completions(): vscode.CompletionItem[] {
    return pqsCompletions(this.deps.names(), this.deps.packageIndex()).map((c) => {
      const item = new vscode.CompletionItem(c.label, c.kind === 'function' ? vscode.CompletionItemKind.Function : c.kind === 'template' ? vscode.CompletionItemKind.Class : vscode.CompletionItemKind.Field);
      item.detail = c.detail;
      item.insertText = c.insertText;
      if (c.documentation) item.documentation = c.documentation;
      return item;
    });
  }

  /** Runs (or explains) the file's statement; resolves with the result shown (undefined when nothing ran). */
  async runFile(uri: vscode.Uri | undefined, explain: boolean): Promise<SqlResult | undefined> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target) return undefined;
    const store = this.deps.store();
    if (!store) {
      const choice = await this.deps.prompts.message('warning', 'No PQS database is attached to the active connection.', ['Connect to PQS…']);
      if (choice) await vscode.commands.executeCommand(Commands.pqsConnect);
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(target);
    const file = path.basename(target.fsPath);
    const result = await this.deps.prompts.progress(`${explain ? 'Explaining' : 'Running'} ${file} on PQS`, (signal) => store.runSql(doc.getText(), { signal }, { explain }));
    this.deps.results.show(`PQS: ${file}${explain ? ' (plan)' : ''}`, result, explain);
    return result;
  }
}

function codeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
  const top = new vscode.Range(0, 0, 0, 0);
  return [
    new vscode.CodeLens(top, { title: '▶ Run on PQS', command: Commands.pqsRunFile, arguments: [doc.uri] }),
    new vscode.CodeLens(top, { title: 'Explain', command: Commands.pqsExplainFile, arguments: [doc.uri] }),
  ];
}
