import * as vscode from 'vscode';
import { completionsAt, hoverAt, type AssistItem, type AssistKind } from '../../../core/files/damlAssist';
import type { LedgerPackages } from '../../packages/ledgerPackages';

const KINDS: Record<AssistKind, vscode.CompletionItemKind> = {
  template: vscode.CompletionItemKind.Class,
  interface: vscode.CompletionItemKind.Interface,
  choice: vscode.CompletionItemKind.Method,
  field: vscode.CompletionItemKind.Field,
  constructor: vscode.CompletionItemKind.EnumMember,
  value: vscode.CompletionItemKind.Value,
};

/**
 * Completions and hovers inside commands files from the ledger's own Daml packages (the active
 * connection's, or the workspace's .dar files): thin glue over the core's `damlAssist`.
 */
export class DamlAssist implements vscode.CompletionItemProvider, vscode.HoverProvider {
  constructor(private readonly packages: LedgerPackages) {}

  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] {
    const context = this.packages.current();
    if (!context || context === 'unavailable') return [];
    const text = document.getText();
    return completionsAt(text, document.offsetAt(position), context).map((item) => toCompletion(document, position, item));
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const context = this.packages.current();
    if (!context || context === 'unavailable') return undefined;
    const hover = hoverAt(document.getText(), document.offsetAt(position), context);
    if (!hover) return undefined;
    const range = new vscode.Range(document.positionAt(hover.offset), document.positionAt(hover.offset + hover.length));
    return new vscode.Hover(new vscode.MarkdownString(`${hover.markdown}\n\n_Daml types ${context.source}_`), range);
  }
}

function toCompletion(document: vscode.TextDocument, position: vscode.Position, item: AssistItem): vscode.CompletionItem {
  const completion = new vscode.CompletionItem(item.label, KINDS[item.kind]);
  completion.detail = item.detail;
  if (item.documentation) completion.documentation = new vscode.MarkdownString(item.documentation);
  completion.insertText = item.snippet ? new vscode.SnippetString(item.insertText) : item.insertText;
  if (item.replace) {
    const range = new vscode.Range(document.positionAt(item.replace.offset), document.positionAt(item.replace.offset + item.replace.length));
    // The range must contain the cursor for VS Code to use the item; the filter text is what it replaces.
    if (range.contains(position)) {
      completion.range = range;
      completion.filterText = document.getText(range);
    }
  }
  completion.additionalTextEdits = item.additionalEdits?.map((e) => vscode.TextEdit.replace(new vscode.Range(document.positionAt(e.offset), document.positionAt(e.offset + e.length)), e.text));
  completion.sortText = `${item.preferred ? '0' : '1'}${item.label}`;
  if (item.preferred) completion.preselect = true;
  return completion;
}
