import vscode = require('vscode');
import { tokenState } from '../../core/auth/jwt';
import type { ConnectionManager } from './manager';
import { Commands } from '../kit/ids';
import { Disposable, toDisposable } from '../kit/lifecycle';
import type { Prompts } from '../kit/prompts';

/** The active connection, its ledger end and its token's state; warning colours when the token is near expiry or rejected. */
export class ConnectionStatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('cantonLedger.status', vscode.StatusBarAlignment.Left, 50));
  /** `connection:exp` of the pasted tokens already warned about, so each warning comes once. */
  private readonly warned = new Set<string>();

  constructor(
    private readonly manager: ConnectionManager,
    private readonly prompts: Prompts,
  ) {
    super();
    this.item.name = 'Canton Ledger Connection';
    this.item.command = Commands.selectConnection;
    this._register(manager.onDidChange(() => this.update()));
    this._register(manager.onDidChangeLedger((e) => e.change.ledgerEnd && e.connection === manager.active() && this.update()));
    // Token expiry moves with the clock, not with events.
    const timer = setInterval(() => this.update(), 15_000);
    this._register(toDisposable(() => clearInterval(timer)));
    this.update();
  }

  /** What the item shows (for tests). */
  get shown(): { text: string; tooltip: string; visible: boolean } {
    return { text: this.item.text, tooltip: String(this.item.tooltip ?? ''), visible: this.visible };
  }

  private visible = false;

  update(): void {
    const connection = this.manager.active();
    if (!connection) {
      this.visible = false;
      this.item.hide();
      return;
    }
    const { profile: p, state: s } = connection;
    const warnSeconds = vscode.workspace.getConfiguration('cantonLedger').get<number>('tokenExpiryWarningSeconds', 60);
    const claims = p.auth === 'jwt' ? connection.tokens?.claims() : undefined;
    const token = claims ? tokenState(claims, new Date(), warnSeconds) : undefined;
    const rejected = connection.tokenRejected;
    if (claims?.expiresAt && (token === 'expiring' || token === 'expired')) this.warnExpiry(p.id, p.name, claims.expiresAt, token);
    const end = connection.ledger?.ledgerEnd;
    const parts = [`$(${s.state === 'connected' ? 'database' : s.state === 'error' ? 'error' : 'debug-disconnect'}) ${p.name}`];
    if (s.state === 'connected' && end !== undefined) parts.push(`@${end}`);
    if (rejected) parts.push('$(key) token rejected');
    else if (token === 'expired') parts.push('$(key) token expired');
    else if (token === 'expiring') parts.push('$(key) token expiring');
    this.item.text = parts.join(' ');
    this.item.tooltip = `Canton Ledger: ${p.name} (${p.url})${s.state === 'connected' ? `\nLedger end ${end ?? '?'}, version ${s.info.version}${s.info.versionNotice ? `\n${s.info.versionNotice}` : ''}` : s.state === 'error' ? `\n${s.error.message}` : ''}\nClick to choose the active connection.`;
    this.item.backgroundColor = rejected || token === 'expired' ? new vscode.ThemeColor('statusBarItem.errorBackground') : token === 'expiring' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.visible = true;
    this.item.show();
  }

  /** Pasted tokens are not renewed by us: say so before the participant starts refusing them. */
  private warnExpiry(id: string, name: string, expiresAt: Date, state: 'expiring' | 'expired'): void {
    const key = `${id}:${expiresAt.getTime()}`;
    if (this.warned.has(key)) return;
    this.warned.add(key);
    const when = state === 'expired' ? `expired at ${expiresAt.toLocaleTimeString()}` : `expires at ${expiresAt.toLocaleTimeString()}`;
    void this.prompts.message('warning', `The token of "${name}" ${when}.`, ['Update Token']).then((c) => c && vscode.commands.executeCommand(Commands.setToken, id));
  }
}
