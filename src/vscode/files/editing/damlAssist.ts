import vscode = require('vscode');
import type { ActiveContract } from '../../../core/api/client';
import { completionsAt, contractIdSlotAt, hoverAt, templatePackageNameAt, type AssistItem, type AssistKind, type ContractIdSlot } from '../../../core/files/damlAssist';
import { commandsFileQuestions } from '../../../core/network/preferredVersions';
import type { ArgumentContext } from '../../../core/files/argumentChecks';
import { shortId } from '../../../core/text';
import { entityName } from '../../../core/daml/identifiers';
import { defaultReadAs } from '../../../core/updates/viewFilter';
import type { ConnectionManager } from '../../connections/manager';
import type { LedgerPackages } from '../../kit/ledgerPackages';
import type { EditorVersions } from './preferredVersions';

/** How many active contracts a contract-id completion offers, and how long it waits for them. */
const CONTRACT_ITEMS = 50;
const CONTRACT_READ_MS = 5000;

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
 * connection's, or the workspace's .dar files): thin glue over the core's `damlAssist`. Where a
 * template id goes or is, the version Canton will use for the file's parties (`versions`), waited for
 * a short while at most.
 */
export class DamlAssist implements vscode.CompletionItemProvider, vscode.HoverProvider {
  constructor(
    private readonly packages: LedgerPackages,
    private readonly connections: ConnectionManager,
    private readonly versions?: EditorVersions,
  ) {}

  async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position, token?: vscode.CancellationToken): Promise<vscode.CompletionItem[]> {
    const current = this.packages.current();
    const context: ArgumentContext | undefined = current && current !== 'unavailable' ? current : undefined;
    const text = document.getText();
    const offset = document.offsetAt(position);
    let assisted = context ? completionsAt(text, offset, context) : [];
    if (context && this.versions && assisted.some((item) => item.kind === 'template')) {
      // Template ids: each with the version Canton will use for the file's parties.
      const names = context.packages.templatesByPackageName().map((t) => t.packageName);
      const lookup = await this.versions.lookup(names, commandsFileQuestions(text).parties, { token, packages: context.packages });
      if (lookup) assisted = completionsAt(text, offset, context, lookup);
    }
    const items = assisted.map((item) => toCompletion(document, position, item));
    const slot = contractIdSlotAt(text, offset, context);
    if (!slot) return items;
    // Where a contract id goes: the active contracts that fit (and never the words of the document).
    return [...(await this.contractItems(slot, token)).map((item) => toCompletion(document, position, item)), ...items];
  }

  private async contractItems(slot: ContractIdSlot, token?: vscode.CancellationToken): Promise<AssistItem[]> {
    const connection = this.connections.activeConnection();
    const info = connection?.state.state === 'connected' ? connection.state.info : undefined;
    const what = slot.templateId ? entityName(slot.templateId) : slot.interfaceId ? entityName(slot.interfaceId) : 'contract';
    // An item that says why there is no contract to pick (and keeps VS Code from offering the document's words).
    const note = (label: string, detail: string): AssistItem[] => [{ label, kind: 'value', detail, insertText: '"$1"', snippet: true, replace: slot.replace }];
    if (!connection || !info) return note(`<${what} contract id>`, 'Connect to a participant to pick one of its active contracts');
    const readAs = defaultReadAs(info.rights);
    const controller = new AbortController();
    const cancel = token?.onCancellationRequested(() => controller.abort());
    try {
      const page = await connection.client.pageActiveContracts(
        {
          filter: { parties: readAs.parties, anyParty: readAs.anyParty, ...(slot.templateId ? { templateIds: [slot.templateId] } : {}), ...(slot.interfaceId ? { interfaceIds: [slot.interfaceId] } : {}) },
          pageSize: CONTRACT_ITEMS,
        },
        { signal: controller.signal, timeoutMs: CONTRACT_READ_MS },
      );
      if (page.contracts.length === 0) return note(`no active ${what} contract`, `${connection.profile.name} has none visible to these parties`);
      return page.contracts.map((c) => contractItem(c, slot));
    } catch (e) {
      return note(`<${what} contract id>`, `The active contracts could not be read: ${(e as Error)?.message ?? e}`);
    } finally {
      cancel?.dispose();
    }
  }

  async provideHover(document: vscode.TextDocument, position: vscode.Position, token?: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    const context = this.packages.current();
    if (!context || context === 'unavailable') return undefined;
    const text = document.getText();
    const offset = document.offsetAt(position);
    const packageName = this.versions && templatePackageNameAt(text, offset);
    const lookup = packageName ? await this.versions!.lookup([packageName], commandsFileQuestions(text).parties, { token, packages: context.packages }) : undefined;
    const hover = hoverAt(text, offset, context, lookup);
    if (!hover) return undefined;
    const range = new vscode.Range(document.positionAt(hover.offset), document.positionAt(hover.offset + hover.length));
    return new vscode.Hover(new vscode.MarkdownString(`${hover.markdown}\n\n_Daml types ${context.source}_`), range);
  }
}

function contractItem(c: ActiveContract, slot: ContractIdSlot): AssistItem {
  const e = c.event;
  const argument = JSON.stringify(e.createArgument);
  return {
    label: shortId(e.contractId, 12, 6),
    kind: 'value',
    detail: `${entityName(e.templateId)} · created at offset ${e.offset}`,
    documentation: `\`${e.contractId}\`\n\n\`\`\`json\n${argument.length > 400 ? `${argument.slice(0, 400)}…` : argument}\n\`\`\``,
    insertText: JSON.stringify(e.contractId),
    filterText: JSON.stringify(e.contractId),
    replace: slot.replace,
  };
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
      completion.filterText = item.filterText ?? document.getText(range);
    }
  }
  completion.additionalTextEdits = item.additionalEdits?.map((e) => vscode.TextEdit.replace(new vscode.Range(document.positionAt(e.offset), document.positionAt(e.offset + e.length)), e.text));
  completion.sortText = `${item.preferred ? '0' : '1'}${item.label}`;
  if (item.preferred) completion.preselect = true;
  return completion;
}
