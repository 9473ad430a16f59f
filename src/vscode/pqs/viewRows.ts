/**
 * The rows of the PQS view and how each one looks: plain nodes (what the view read), turned into a
 * fresh tree item on every ask. A template's interface views are rows under the template, never
 * templates of their own; a contract's history names its template and lists its interface views.
 */
import vscode = require('vscode');
import type { ContractHistory } from '../../core/pqs/store';
import { shortId } from '../../core/text';
import { Commands } from '../kit/ids';
import { errorRows as failureRows, type ErrorRowOptions } from '../kit/errorRows';

/**
 * Where a list of contracts sits in the tree (`template`, `template/interface`, `interfaces/interface`):
 * part of every row id under it, since one interface's list shows under each template implementing it.
 */
export type ListKey = string;

export type PqsNode =
  | { kind: 'message'; id: string; label: string; icon?: string; iconColor?: string; description?: string; tooltip?: string; command?: vscode.Command; contextValue?: string }
  | { kind: 'template'; name: string; count: number; interfaces: readonly { name: string; count: number }[] }
  /** The store's views of an interface's implementers' contracts: under a template, or under the Interfaces group. */
  | { kind: 'interface'; name: string; count: number; key: ListKey }
  /** Interfaces with views in the store whose implementers the participant's packages do not name. */
  | { kind: 'interfaces'; interfaces: readonly { name: string; count: number }[] }
  | { kind: 'contract'; key: ListKey; contractId: string; payload: unknown; offset: number }
  | { kind: 'more'; key: ListKey; name: string; loaded: number; loading?: boolean }
  | { kind: 'history'; contractId: string; entry: ContractHistory['entries'][number]; index: number };

/** What a row shows beyond its node: the filter of a template. */
export interface RowContext {
  filterOf(template: string): readonly string[] | undefined;
}

export const INTERFACE_ICON = 'symbol-interface';

export function treeItemOf(n: PqsNode, context: RowContext): vscode.TreeItem {
  const item = rowItem(n, context);
  // What a screen reader says (and what VS Code would otherwise take from the tooltip): label, then description.
  item.accessibilityInformation = { label: [item.label, item.description].filter(Boolean).join(', ') as string };
  return item;
}

function rowItem(n: PqsNode, context: RowContext): vscode.TreeItem {
  switch (n.kind) {
    case 'message':
      return messageItem(n);
    case 'template': {
      const item = new vscode.TreeItem(n.name, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `pqs/template/${n.name}`;
      const filter = context.filterOf(n.name);
      item.description = `${n.count} active${filter ? ` · where ${filter.join(' and ')}` : ''}`;
      item.contextValue = 'pqsTemplate';
      item.iconPath = new vscode.ThemeIcon('symbol-class');
      return item;
    }
    case 'interface': {
      const item = new vscode.TreeItem(n.name, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `pqs/interface/${n.key}`;
      item.description = `${n.count} active · interface view`;
      item.tooltip = `${n.name} is an interface: the store holds its view of each active contract of the templates that implement it (${n.count}, over all of them).`;
      item.contextValue = 'pqsInterface';
      item.iconPath = new vscode.ThemeIcon(INTERFACE_ICON);
      return item;
    }
    case 'interfaces': {
      const item = new vscode.TreeItem('Interfaces', vscode.TreeItemCollapsibleState.Collapsed);
      item.id = 'pqs/interfaces';
      item.description = `${n.interfaces.length} whose implementers the participant’s packages do not name`;
      item.iconPath = new vscode.ThemeIcon(INTERFACE_ICON);
      return item;
    }
    case 'contract': {
      const item = new vscode.TreeItem(shortId(n.contractId), vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `pqs/contract/${n.key}/${n.contractId}`;
      item.description = `@${n.offset} ${payloadSummary(n.payload)}`;
      item.tooltip = `${n.contractId}\n${JSON.stringify(n.payload, null, 2)}`;
      item.contextValue = 'pqsContract';
      item.iconPath = new vscode.ThemeIcon('file-code');
      return item;
    }
    case 'more': {
      const item = new vscode.TreeItem(n.loading ? 'Loading…' : 'Load more…', vscode.TreeItemCollapsibleState.None);
      item.id = `pqs/more/${n.key}/${n.loaded}`;
      item.command = { command: Commands.pqsLoadMore, title: 'Load more', arguments: [n] };
      item.iconPath = new vscode.ThemeIcon(n.loading ? 'loading~spin' : 'fold-down');
      return item;
    }
    case 'history':
      return historyItem(n);
  }
}

function messageItem(n: Extract<PqsNode, { kind: 'message' }>): vscode.TreeItem {
  const item = new vscode.TreeItem(n.label, vscode.TreeItemCollapsibleState.None);
  item.id = `pqs/${n.id}`;
  item.description = n.description;
  item.tooltip = n.tooltip ?? n.label;
  item.iconPath = n.icon ? new vscode.ThemeIcon(n.icon, n.iconColor ? new vscode.ThemeColor(n.iconColor) : undefined) : undefined;
  item.command = n.command;
  item.contextValue = n.contextValue;
  return item;
}

function historyItem(n: Extract<PqsNode, { kind: 'history' }>): vscode.TreeItem {
  const e = n.entry;
  const label = e.kind === 'exercise' ? `${e.choice}${e.consuming ? ' (consuming)' : ''}` : e.kind;
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = `pqs/history/${n.contractId}/${n.index}`;
  item.description = `offset ${e.offset}${e.at ? ` · ${e.at}` : ''}${e.controllers?.length ? ` · by ${e.controllers.map(partyName).join(', ')}` : ''}`;
  item.iconPath = new vscode.ThemeIcon(e.kind === 'create' ? 'add' : e.kind === 'archive' ? 'archive' : 'play');
  const declared = e.choiceOf ? `${e.choice} of ${e.choiceOf}` : undefined;
  const controllers = e.controllers?.length ? `controllers: ${e.controllers.join(', ')}` : undefined;
  if (e.transactionId) {
    item.command = { command: Commands.showTransactionGraph, title: 'Show Transaction Graph', arguments: [{ updateId: e.transactionId }] };
    item.tooltip = [declared, controllers, `Show the transaction graph of ${e.transactionId}`].filter(Boolean).join('\n');
  } else if (declared || controllers) item.tooltip = [declared, controllers].filter(Boolean).join('\n');
  item.contextValue = 'pqsHistory';
  return item;
}

/** The rows a contract's history starts with: its template, then the interface views the store holds of it. */
export function contractRows(h: ContractHistory): PqsNode[] {
  return [
    { kind: 'message', id: `of/${h.contractId}`, label: h.templateFqn, icon: 'symbol-class', description: 'template', tooltip: `${h.templateFqn}\n${JSON.stringify(h.payload, null, 2)}` },
    ...h.interfaceViews.map(
      (v): PqsNode => ({ kind: 'message', id: `view/${h.contractId}/${v.interfaceFqn}`, label: v.interfaceFqn, icon: INTERFACE_ICON, description: `interface view · ${payloadSummary(v.payload)}`, tooltip: `The ${v.interfaceFqn} view of this contract\n${JSON.stringify(v.payload, null, 2)}` }),
    ),
  ];
}

/**
 * A failure shown in place of the rows it stopped, as every tree shows one (the error builder's rows:
 * a PQS or ledger failure with its hint, a cancel as no failure); the row itself is Retry.
 */
export function errorRows(id: string, err: unknown, o: Pick<ErrorRowOptions, 'retry' | 'redact'>): PqsNode[] {
  return failureRows(`error/${id}`, err, { ...o, retryOnRow: true }).map((row): PqsNode => ({ kind: 'message', ...row }));
}

const partyName = (party: string) => party.split('::')[0];

/** The payload's top-level text and number fields, parties by their name: `owner=Bob · amount=700.0 · currency=USD`. */
export function payloadSummary(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return JSON.stringify(payload);
  return Object.entries(payload)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
    .map(([k, v]) => `${k}=${partyName(String(v)).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '')}`)
    .join(' · ');
}
