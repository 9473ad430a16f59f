import vscode = require('vscode');
import type { ConnectionProfile } from '../../core/connections';
import { tokenState, type TokenClaims } from '../../core/auth/jwt';
import { tokenReach, tokenReachLine, type ScopeRequirements } from '../../core/auth/scopes';
import { AuthError } from '../../core/errors';
import { readableParties, shortParty } from '../../core/models/users';
import { Commands } from '../kit/ids';
import { Disposable } from '../kit/lifecycle';
import { errorRows } from '../kit/errorRows';
import type { ConnectionManager, ParticipantInfo } from './manager';
import { COMPATIBILITY_TOOLTIP_COMMANDS, compatibilityTooltip } from '../compat/tooltip';

export type ConnectionsNode = ConnectionNode | DetailNode;

/** A connection profile; its children are what the participant said about itself. */
export class ConnectionNode {
  readonly kind = 'connection' as const;
  /** Kept current by the tree (an edit replaces the profile, the row stays the same node). */
  constructor(public profile: ConnectionProfile) {}
}

/** A line of detail under a connection (possibly with children, e.g. the parties). */
export class DetailNode {
  readonly kind = 'detail' as const;
  constructor(
    readonly id: string,
    readonly label: string,
    readonly opts: { description?: string; tooltip?: string | vscode.MarkdownString; icon?: string; children?: DetailNode[]; copyValue?: string; command?: vscode.Command; contextValue?: string } = {},
  ) {}
}

/**
 * Rows change one by one: a root refresh makes VS Code forget every row's element until it has asked
 * for the rows again, and a context-menu command chosen in that moment gets no element. So only a
 * change of the list of connections refreshes the root; any other change refreshes the rows it touches,
 * which keep their node objects (and so their handles) throughout.
 */
export class ConnectionsTreeProvider extends Disposable implements vscode.TreeDataProvider<ConnectionsNode> {
  private readonly changed = this._register(new vscode.EventEmitter<ConnectionsNode | ConnectionsNode[] | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  /** The rows as last listed, by connection id, in order. */
  private rows = new Map<string, ConnectionNode>();

  constructor(private readonly manager: ConnectionManager) {
    super();
    this._register(manager.onDidChange((c) => this.profilesChanged(c?.id)));
    this._register(manager.onDidChangeLedger((e) => e.change.ledgerEnd && this.refreshRows([e.connection.id])));
    this._register(manager.onDidChangeCompatibility((c) => this.refreshRows([c.id])));
  }

  getChildren(node?: ConnectionsNode): ConnectionsNode[] {
    if (!node) {
      const rows = new Map<string, ConnectionNode>();
      for (const p of this.manager.profiles.all()) rows.set(p.id, this.row(p));
      this.rows = rows;
      return [...rows.values()];
    }
    if (node.kind === 'detail') return node.opts.children ?? [];
    return this.details(node.profile);
  }

  /** `id` changed (its state), or with undefined anything about the profiles (list, active one, edits). */
  private profilesChanged(id: string | undefined): void {
    const ids = this.manager.profiles.all().map((p) => p.id);
    const listed = [...this.rows.keys()];
    if (ids.length !== listed.length || ids.some((x, i) => x !== listed[i])) this.changed.fire(undefined);
    else this.refreshRows(id === undefined ? ids : [id]);
  }

  private refreshRows(ids: string[]): void {
    const nodes: ConnectionNode[] = [];
    for (const id of ids) {
      const node = this.rows.get(id);
      const profile = this.manager.profiles.get(id);
      if (!node || !profile) continue;
      node.profile = profile;
      nodes.push(node);
    }
    if (nodes.length) this.changed.fire(nodes);
  }

  private row(p: ConnectionProfile): ConnectionNode {
    const node = this.rows.get(p.id) ?? new ConnectionNode(p);
    node.profile = p;
    return node;
  }

  getTreeItem(node: ConnectionsNode): vscode.TreeItem {
    return node.kind === 'connection' ? this.connectionItem(node.profile) : detailItem(node);
  }

  getParent(): undefined {
    return undefined;
  }

  private connectionItem(p: ConnectionProfile): vscode.TreeItem {
    // A row is a profile; what it shows is its connection's.
    const connection = this.manager.connectionFor(p);
    const s = connection.state;
    const active = this.manager.profiles.active()?.id === p.id;
    // VS Code keeps the collapsible state an id was first shown with; a connection that is being used
    // opens at once, so its id changes between disconnected and in use.
    const inUse = s.state !== 'disconnected';
    const item = new vscode.TreeItem(p.name, inUse ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `connection:${p.id}:${inUse ? 'in-use' : 'idle'}`;
    const end = connection.ledger?.ledgerEnd;
    item.description = [active ? 'active' : undefined, s.state === 'connected' ? `offset ${end ?? '?'}` : s.state === 'connecting' ? 'connecting…' : s.state === 'error' ? 'error' : undefined, p.url]
      .filter(Boolean)
      .join(' · ');
    item.iconPath = new vscode.ThemeIcon(
      s.state === 'connected' ? 'vm-active' : s.state === 'error' ? 'error' : s.state === 'connecting' ? 'loading~spin' : 'vm-outline',
      s.state === 'error' ? new vscode.ThemeColor('list.errorForeground') : undefined,
    );
    const flags = [s.state === 'connected' && '+connected', s.state === 'connecting' && '+connecting', active && '+active', p.auth !== 'none' && '+auth', this.manager.profiles.isEditable(p) && '+editable', `+${p.source}`].filter(Boolean).join('');
    item.contextValue = `cantonLedger:connection${flags}`;
    item.tooltip = this.tooltip(p, connection.tokens?.claims(), connection.compatibilityScopes);
    const compatibility = compatibilityTooltip(connection);
    if (compatibility) {
      item.tooltip.appendMarkdown(`\n\n---\n${compatibility}`);
      item.tooltip.isTrusted = { enabledCommands: [...COMPATIBILITY_TOOLTIP_COMMANDS] };
    }
    item.accessibilityInformation = { label: `${p.name} ${item.description}` };
    return item;
  }

  /** `scopes`: the token scopes the participant's own description lists (3.8's API areas), when it lists any. */
  private tooltip(p: ConnectionProfile, claims: TokenClaims | undefined, scopes: ScopeRequirements | undefined): vscode.MarkdownString {
    const md = new vscode.MarkdownString(undefined, true);
    md.appendMarkdown(`**${escape(p.name)}**  \n${escape(p.url)}  \n`);
    md.appendMarkdown(`Auth: ${p.auth}${p.userId ? ` · user ${code(p.userId)}` : ''}${p.source === 'workspace' ? ' · from workspace settings' : p.source === 'demo' ? ' · demo participant (simulator)' : p.source === 'demoNetwork' ? ' · demo network participant (simulator)' : ''}  \n`);
    if (claims) {
      const aud = Array.isArray(claims.aud) ? claims.aud.join(', ') : claims.aud;
      md.appendMarkdown(`\n---\nToken: sub ${code(claims.sub ?? '?')}${aud ? ` · aud ${code(aud)}` : ''}  \n`);
      // Its scope, and from 3.8 the API areas it opens (as the participant's own description names them).
      const reach = tokenReach(scopes, claims);
      if (reach.scopes.length > 0 || reach.areas) md.appendMarkdown(`${escape(tokenReachLine(reach))}  \n`);
      const state = tokenState(claims);
      md.appendMarkdown(claims.expiresAt ? `Expires ${claims.expiresAt.toISOString()}${state === 'expired' ? ' — **expired**' : state === 'expiring' ? ' — **expiring soon**' : ''}` : 'No expiry (participants with a max token lifetime reject it)');
    }
    return md;
  }

  private details(p: ConnectionProfile): ConnectionsNode[] {
    const connection = this.manager.connectionFor(p);
    const s = connection.state;
    if (s.state === 'disconnected') {
      return [new DetailNode(`${p.id}:connect`, 'Not connected', { description: 'click to connect', icon: 'plug', command: { command: Commands.connect, title: 'Connect', arguments: [new ConnectionNode(p)] } })];
    }
    if (s.state === 'connecting') {
      return [
        new DetailNode(`${p.id}:connecting`, 'Connecting…', { icon: 'loading~spin' }),
        new DetailNode(`${p.id}:cancel`, 'Cancel', { description: 'stop connecting', icon: 'close', command: { command: Commands.cancelConnect, title: 'Cancel', arguments: [new ConnectionNode(p)] } }),
      ];
    }
    if (s.state === 'error') return errorNodes(p, s.error);
    return infoNodes(p, s.info, connection.ledger?.ledgerEnd);
  }
}

/** A connection that could not connect: the one error builder's rows, headed by what failed, then Update Token and Retry. */
function errorNodes(p: ConnectionProfile, error: Error): DetailNode[] {
  const target = new ConnectionNode(p);
  const rows = errorRows(p.id, error, {
    title: error instanceof AuthError ? 'Token rejected' : 'Could not connect',
    profileId: p.id,
    target,
    retry: { command: Commands.connect, title: 'Retry', arguments: [target] },
    redact: (s) => s,
  });
  return rows.map(({ id, label, description, tooltip, icon, command, contextValue }) => new DetailNode(id, label, { description, tooltip, icon, command, contextValue }));
}

function infoNodes(p: ConnectionProfile, info: ParticipantInfo, ledgerEnd: number | undefined): DetailNode[] {
  const id = (s: string) => `${p.id}:${s}`;
  const party = (party: string, role: string) => new DetailNode(id(`${role}:${party}`), shortParty(party), { tooltip: party, icon: 'person', copyValue: party, contextValue: 'cantonLedger:value:party' });
  const nodes = [
    new DetailNode(id('version'), 'Version', { description: info.version, icon: 'versions', copyValue: info.version }),
    ...(info.versionNotice ? [new DetailNode(id('version-notice'), info.versionNotice, { tooltip: info.versionNotice, icon: 'warning' })] : []),
    new DetailNode(id('ledger-end'), 'Ledger end', { description: String(ledgerEnd ?? '?'), icon: 'arrow-down', copyValue: String(ledgerEnd ?? '') }),
  ];
  if (info.participantId) nodes.push(new DetailNode(id('participant'), 'Participant', { description: info.participantId, tooltip: info.participantId, icon: 'server', copyValue: info.participantId }));
  nodes.push(
    new DetailNode(id('synchronizers'), 'Synchronizers', {
      description: String(info.synchronizers.length),
      icon: 'globe',
      children: info.synchronizers.map((s) => new DetailNode(id(`sync:${s.synchronizerId}`), s.synchronizerAlias || s.synchronizerId, { description: s.synchronizerId, tooltip: s.synchronizerId, icon: 'circle-small', copyValue: s.synchronizerId })),
    }),
  );
  if (info.user) {
    const r = info.rights;
    const rights = r
      ? [
          ...(r.participantAdmin ? [new DetailNode(id('right:admin'), 'Participant admin', { icon: 'shield' })] : []),
          ...(r.identityProviderAdmin ? [new DetailNode(id('right:idp'), 'Identity provider admin', { icon: 'shield' })] : []),
          ...(r.readAsAnyParty ? [new DetailNode(id('right:readany'), 'Read as any party', { icon: 'eye' })] : []),
          ...(r.executeAsAnyParty ? [new DetailNode(id('right:execany'), 'Execute as any party', { icon: 'run-all' })] : []),
          ...r.actAs.map((x) => new DetailNode(id(`actAs:${x}`), `Act as ${shortParty(x)}`, { tooltip: x, icon: 'person', copyValue: x, contextValue: 'cantonLedger:value:party' })),
          ...r.readAs.map((x) => new DetailNode(id(`readAs:${x}`), `Read as ${shortParty(x)}`, { tooltip: x, icon: 'eye', copyValue: x, contextValue: 'cantonLedger:value:party' })),
        ]
      : [];
    nodes.push(new DetailNode(id('user'), 'User', { description: info.user.id, icon: 'account', copyValue: info.user.id, children: rights }));
  }
  const readable = info.rights ? new Set(readableParties(info.rights)) : undefined;
  nodes.push(
    new DetailNode(id('parties'), 'Parties', {
      description: info.partiesFromRights ? `${info.parties.length} (of your rights)` : readable ? `${info.parties.length} (${readable.size} readable)` : String(info.parties.length),
      icon: 'organization',
      children: info.parties.map((pd) => party(pd.party, 'party')),
    }),
  );
  return nodes;
}

function detailItem(n: DetailNode): vscode.TreeItem {
  const item = new vscode.TreeItem(n.label, n.opts.children?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `detail:${n.id}`;
  item.description = n.opts.description;
  item.tooltip = n.opts.tooltip ?? n.opts.copyValue;
  if (n.opts.icon) item.iconPath = new vscode.ThemeIcon(n.opts.icon);
  item.command = n.opts.command;
  item.contextValue = n.opts.contextValue ?? (n.opts.copyValue !== undefined ? 'cantonLedger:value' : 'cantonLedger:detail');
  item.accessibilityInformation = { label: [n.label, n.opts.description].filter(Boolean).join(' ') };
  return item;
}

/** Text for inside a code span, where markdown escapes are not undone: only backticks need care. */
function code(s: string): string {
  return '`' + s.replace(/`/g, "'") + '`';
}

function escape(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

