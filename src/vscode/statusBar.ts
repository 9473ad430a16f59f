import * as vscode from 'vscode';
import { tokenState } from '../core/auth/jwt';
import type { ConnectionManager } from './connections/manager';

/** The active connection, its ledger end and its token's state; warning colours when the token is near expiry or rejected. */
export class ConnectionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('cantonLedger.status', vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: vscode.Disposable[];
  private readonly timer: ReturnType<typeof setInterval>;
  /** `connection:exp` of the pasted tokens already warned about, so each warning comes once. */
  private readonly warned = new Set<string>();

  constructor(private readonly manager: ConnectionManager) {
    this.item.name = 'Canton Ledger Connection';
    this.item.command = 'cantonLedger.connections.select';
    this.subscriptions = [manager.onDidChange(() => this.update()), manager.onDidChangeLedger((e) => e.change.ledgerEnd && e.connectionId === manager.profiles.active()?.id && this.update())];
    // Token expiry moves with the clock, not with events.
    this.timer = setInterval(() => this.update(), 15_000);
    this.update();
  }

  /** What the item shows (for tests). */
  get shown(): { text: string; tooltip: string; visible: boolean } {
    return { text: this.item.text, tooltip: String(this.item.tooltip ?? ''), visible: this.visible };
  }

  private visible = false;

  update(): void {
    const p = this.manager.profiles.active();
    if (!p) {
      this.visible = false;
      this.item.hide();
      return;
    }
    const s = this.manager.state(p.id);
    const warnSeconds = vscode.workspace.getConfiguration('cantonLedger').get<number>('tokenExpiryWarningSeconds', 60);
    const claims = p.auth === 'jwt' ? this.manager.tokens.claims(p.id) : undefined;
    const token = claims ? tokenState(claims, new Date(), warnSeconds) : undefined;
    const rejected = this.manager.tokenRejected(p.id);
    if (claims?.expiresAt && (token === 'expiring' || token === 'expired')) this.warnExpiry(p.id, p.name, claims.expiresAt, token);
    const end = this.manager.ledger(p.id)?.ledgerEnd;
    const parts = [`$(${s.state === 'connected' ? 'database' : s.state === 'error' ? 'error' : 'debug-disconnect'}) ${p.name}`];
    if (s.state === 'connected' && end !== undefined) parts.push(`@${end}`);
    if (rejected) parts.push('$(key) token rejected');
    else if (token === 'expired') parts.push('$(key) token expired');
    else if (token === 'expiring') parts.push('$(key) token expiring');
    this.item.text = parts.join(' ');
    this.item.tooltip = `Canton Ledger: ${p.name} (${p.url})${s.state === 'connected' ? `\nLedger end ${end ?? '?'}, version ${s.info.version}` : s.state === 'error' ? `\n${s.error.message}` : ''}\nClick to choose the active connection.`;
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
    void vscode.window.showWarningMessage(`The token of "${name}" ${when}.`, 'Update Token').then((c) => c && vscode.commands.executeCommand('cantonLedger.token.set', id));
  }

  dispose(): void {
    clearInterval(this.timer);
    this.subscriptions.forEach((s) => s.dispose());
    this.item.dispose();
  }
}
