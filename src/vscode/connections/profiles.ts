import vscode = require('vscode');
import { Disposable } from '../kit/lifecycle';
import { activeProfile, ConnectionProfile, persistableProfile, PROFILE_STATE_KEYS, storedProfiles, trustKey } from '../../core/connections';

const USER_PROFILES_KEY = PROFILE_STATE_KEYS.own;
const ACTIVE_KEY = PROFILE_STATE_KEYS.active;
const TRUSTED_URLS_KEY = 'cantonLedger.trustedUrls';
const CLEAR_HTTP_URLS_KEY = 'cantonLedger.clearHttpUrls';

/**
 * All connection profiles: the user's own (global state, editable here), those from settings (user
 * settings, and workspace settings when the workspace is trusted), and the running demo participant.
 * None of them holds a secret.
 */
export class ProfileStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private demo: ConnectionProfile | undefined;
  private demoNetwork: readonly ConnectionProfile[] = [];

  constructor(private readonly state: vscode.Memento) {
    super();
    this._registerAll(
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('cantonLedger.connections') && this.changed.fire()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
    );
  }

  all(): ConnectionProfile[] {
    const settings = vscode.workspace.getConfiguration('cantonLedger').inspect<unknown[]>('connections');
    return [...(this.demo ? [this.demo] : []), ...this.demoNetwork, ...storedProfiles(this.state.get(USER_PROFILES_KEY), settings, vscode.workspace.isTrusted)];
  }

  get(id: string): ConnectionProfile | undefined {
    return this.all().find((p) => p.id === id);
  }

  /** The current version of a profile named by id or carried by a tree node (which may be stale). */
  lookup(target: string | { profile: ConnectionProfile }): ConnectionProfile | undefined {
    return typeof target === 'string' ? this.get(target) : (this.get(target.profile.id) ?? target.profile);
  }

  /** Profiles kept in global state can be edited and removed from the UI. */
  isEditable(p: ConnectionProfile): boolean {
    return p.source === 'user' && !p.id.startsWith('settings-');
  }

  async save(profile: ConnectionProfile): Promise<void> {
    const own = (this.state.get<Record<string, unknown>[]>(USER_PROFILES_KEY) ?? []).filter((r) => r.id !== profile.id);
    own.push(persistableProfile({ ...profile, source: 'user' }));
    await this.state.update(USER_PROFILES_KEY, own);
    this.changed.fire();
  }

  async remove(id: string): Promise<void> {
    const own = (this.state.get<Record<string, unknown>[]>(USER_PROFILES_KEY) ?? []).filter((r) => r.id !== id);
    await this.state.update(USER_PROFILES_KEY, own);
    if (this.activeId() === id) await this.setActive(undefined);
    this.changed.fire();
  }

  setDemo(profile: ConnectionProfile | undefined): void {
    this.demo = profile;
    this.changed.fire();
  }

  /** The demo network's participants while it runs (none: it stopped). */
  setDemoNetwork(profiles: readonly ConnectionProfile[]): void {
    this.demoNetwork = profiles;
    this.changed.fire();
  }

  activeId(): string | undefined {
    return this.state.get<string>(ACTIVE_KEY);
  }

  /** The active profile, or the only one there is. */
  active(): ConnectionProfile | undefined {
    return activeProfile(this.all(), this.activeId());
  }

  async setActive(id: string | undefined): Promise<void> {
    await this.state.update(ACTIVE_KEY, id);
    this.changed.fire();
  }

  isTrustedUrl(url: string): boolean {
    return (this.state.get<string[]>(TRUSTED_URLS_KEY) ?? []).includes(trustKey(url));
  }

  async trustUrl(url: string): Promise<void> {
    await this.state.update(TRUSTED_URLS_KEY, [...new Set([...(this.state.get<string[]>(TRUSTED_URLS_KEY) ?? []), trustKey(url)])]);
  }

  isClearHttpAllowed(url: string): boolean {
    return (this.state.get<string[]>(CLEAR_HTTP_URLS_KEY) ?? []).includes(trustKey(url));
  }

  async allowClearHttp(url: string): Promise<void> {
    await this.state.update(CLEAR_HTTP_URLS_KEY, [...new Set([...(this.state.get<string[]>(CLEAR_HTTP_URLS_KEY) ?? []), trustKey(url)])]);
  }
}
