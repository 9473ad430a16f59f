import vscode = require('vscode');
import type { LedgerRow } from '../../core/rows';
import { Commands, type ViewId } from './ids';
import type { CommandRegistry } from './registry';
import { Disposable } from './lifecycle';
import type { LedgerConnection } from '../../core/ledger/connection';
import type { JsonDocuments } from './documents';
import { errorRows, type StatusRow } from './errorRows';

/** A row of the core's presentation model, placed in a tree (stable id, parent for reveal). */
export class RowNode {
  readonly type = 'row' as const;
  private cached: RowNode[] | undefined;
  constructor(readonly row: LedgerRow, readonly id: string, readonly parent?: ViewNode) {}

  children(): RowNode[] {
    this.cached ??= uniqueNodes(this.row.children?.() ?? [], this.id, this);
    return this.cached;
  }
}

/** A state of the view rather than ledger data: "Load more", "No updates in this range", an error, "Retry". */
export class MessageNode {
  readonly type = 'message' as const;
  constructor(
    readonly id: string,
    readonly label: string,
    readonly opts: { values?: Pick<LedgerRow, 'contractId' | 'updateId' | 'offset' | 'packageId' | 'copyValue'>; description?: string; tooltip?: string | vscode.MarkdownString; icon?: string; iconColor?: string; command?: vscode.Command; contextValue?: string; children?: ViewNode[] } = {},
    readonly parent?: ViewNode,
  ) {}
}

export type ViewNode = RowNode | MessageNode;

/**
 * Nodes for rows, with ids unique among siblings (two checkpoints can share an offset). Pass the same
 * `used` map again to append more siblings to a list.
 */
export function uniqueNodes(rows: readonly LedgerRow[], parentId: string, parent?: ViewNode, used = new Map<string, number>()): RowNode[] {
  return rows.map((row) => {
    const n = used.get(row.key) ?? 0;
    used.set(row.key, n + 1);
    return new RowNode(row, `${parentId}/${row.key}${n ? `#${n}` : ''}`, parent);
  });
}

/** `cantonLedger:<kind>` plus a flag per value the context actions can use (`+contractId`, …). */
export function rowContextValue(row: LedgerRow): string {
  const flags = [
    row.contractId && '+contractId',
    row.updateId && '+updateId',
    row.offset !== undefined && '+offset',
    row.packageId && '+packageId',
    row.json && '+json',
    row.copyValue !== undefined && '+copy',
    row.synchronizerId && '+synchronizer',
    row.templateId && '+template',
    row.choice && '+choice',
  ].filter(Boolean);
  return `cantonLedger:${row.kind}${flags.join('')}`;
}

export function treeItemFor(node: ViewNode): vscode.TreeItem {
  if (node.type === 'message') {
    const o = node.opts;
    const item = new vscode.TreeItem(node.label, o.children?.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = o.description;
    item.tooltip = o.tooltip;
    item.iconPath = o.icon ? new vscode.ThemeIcon(o.icon, o.iconColor ? new vscode.ThemeColor(o.iconColor) : undefined) : undefined;
    item.command = o.command;
    item.contextValue = o.contextValue ?? 'cantonLedger:message';
    item.accessibilityInformation = { label: [node.label, o.description].filter(Boolean).join(', ') };
    return item;
  }
  const row = node.row;
  const state = !row.children ? vscode.TreeItemCollapsibleState.None : row.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
  const item = new vscode.TreeItem(row.label, state);
  item.id = node.id;
  item.description = row.description;
  if (row.tooltip) item.tooltip = new vscode.MarkdownString(row.tooltip);
  item.iconPath = row.icon ? new vscode.ThemeIcon(row.icon, row.iconColor ? new vscode.ThemeColor(row.iconColor) : undefined) : undefined;
  item.contextValue = rowContextValue(row);
  // Selecting an update or event opens its JSON; detail rows only select (their value is one copy away).
  if (row.json) item.command = { command: Commands.openJson, title: 'Open JSON', arguments: [node] };
  item.accessibilityInformation = { label: [row.label, row.description].filter(Boolean).join(', ') };
  return item;
}

/** The copy and open actions of every ledger view; they take the node the context menu was opened on. */
export function registerRowCommands(commands: CommandRegistry, documents: JsonDocuments): void {
  const copy = (what: string, pick: (row: LedgerRow) => string | number | undefined) => async (node?: ViewNode) => {
    const value = node?.type === 'row' ? pick(node.row) : node?.opts.values ? pick(node.opts.values as LedgerRow) : undefined;
    if (value === undefined) return;
    await vscode.env.clipboard.writeText(String(value));
    vscode.window.setStatusBarMessage(`Copied ${what}: ${value}`, 3000);
  };
  const open = (raw: boolean) => async (node?: ViewNode) => {
    const json = node?.type === 'row' ? node.row.json : undefined;
    if (!json) return;
    await documents.show(raw ? 'raw' : 'ledger', json.name, raw ? json.raw : json.value);
  };
  commands.register(Commands.openJson, open(false));
  commands.register(Commands.openRawJson, open(true));
  commands.register(Commands.copyContractId, copy('contract ID', (r) => r.contractId));
  commands.register(Commands.copyUpdateId, copy('update ID', (r) => r.updateId));
  commands.register(Commands.copyOffset, copy('offset', (r) => r.offset));
  commands.register(Commands.copyPackageId, copy('package ID', (r) => r.packageId));
  commands.register(Commands.copyRowValue, copy('value', (r) => r.copyValue));
  commands.register(Commands.copyTemplateId, copy('template ID', (r) => r.templateId));
}

/** Children of any node: rows build theirs lazily, messages carry theirs. */
export function childrenOf(node: ViewNode): ViewNode[] {
  return node.type === 'row' ? node.children() : (node.opts.children ?? []);
}

/** Nodes for status rows (a failure, Retry, "Load more"), under `parent`. */
export function statusNodes(rows: readonly StatusRow[], parent?: ViewNode): MessageNode[] {
  return rows.map(({ id, label, ...opts }) => new MessageNode(id, label, opts, parent));
}

/**
 * A failure shown inside a view (never a toast from a tree): the rows of the one error builder
 * (`errorRows`: the Canton code and hint, "Token rejected — Update Token", a cancel as no failure) and Retry.
 */
export function errorNodes(idPrefix: string, err: unknown, o: { connection?: LedgerConnection; retry: vscode.Command; parent?: ViewNode; redact: (s: string) => string }): MessageNode[] {
  // The rows' commands name the connection by its profile's id: what a tree item's command carries.
  return statusNodes(errorRows(idPrefix, err, { ...o, profileId: o.connection?.id }), o.parent);
}

/**
 * What a ledger view shows for a connection that is not connected: the views read only from
 * connections the user connected (a request could otherwise ask to trust a URL out of the blue).
 * Undefined when connected.
 */
export function connectionStateNodes(idPrefix: string, connection: LedgerConnection, redact: (s: string) => string, parent?: ViewNode): MessageNode[] | undefined {
  const { profile, state } = connection;
  const connect = { command: Commands.connect, title: 'Connect', arguments: [profile.id] };
  switch (state.state) {
    case 'connected':
      return undefined;
    case 'connecting':
      return [new MessageNode(`${idPrefix}/connecting`, 'Connecting…', { description: profile.name, icon: 'loading~spin' }, parent)];
    case 'error':
      return errorNodes(`${idPrefix}/connection`, state.error, { connection, retry: connect, redact, parent });
    default:
      return [new MessageNode(`${idPrefix}/disconnected`, `Connect to ${profile.name}`, { description: 'not connected', icon: 'plug', command: connect }, parent)];
  }
}

/**
 * The active connection a view reads from, when it is connected; otherwise what the view shows instead
 * (no active connection; connecting; its error with Retry; Connect).
 */
export function connectedActive(
  idPrefix: string,
  connections: { active(): LedgerConnection | undefined },
  redact: (s: string) => string,
): { connection: LedgerConnection; nodes?: undefined } | { connection?: undefined; nodes: MessageNode[] } {
  const connection = connections.active();
  if (!connection) return { nodes: noActiveConnectionNodes(idPrefix) };
  const nodes = connectionStateNodes(idPrefix, connection, redact);
  return nodes ? { nodes } : { connection };
}

/** What the three ledger views share: their tree view, change event, parents for reveal, disposal. */
export abstract class LedgerTreeView extends Disposable implements vscode.TreeDataProvider<ViewNode> {
  protected readonly changed = this._register(new vscode.EventEmitter<ViewNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  readonly treeView: vscode.TreeView<ViewNode>;

  constructor(viewId: ViewId) {
    super();
    this.treeView = this._register(vscode.window.createTreeView(viewId, { treeDataProvider: this, showCollapseAll: true }));
  }

  abstract getChildren(node?: ViewNode): Promise<ViewNode[]>;

  getTreeItem(node: ViewNode): vscode.TreeItem {
    return treeItemFor(node);
  }

  getParent(node: ViewNode): ViewNode | undefined {
    return node.parent;
  }
}

/** The view's content while no connection is active. */
export function noActiveConnectionNodes(idPrefix: string): MessageNode[] {
  return [
    new MessageNode(`${idPrefix}/none`, 'No active connection', { description: 'select or add one', icon: 'plug', command: { command: Commands.selectConnection, title: 'Select Connection' } }),
    new MessageNode(`${idPrefix}/demo`, 'Start the demo participant', { icon: 'play', command: { command: Commands.startDemo, title: 'Start Demo Participant' } }),
  ];
}
