import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import { AUTH_KINDS, AuthKind, checkParticipantUrl, ConnectionProfile } from '../../core/connections';
import type { ConnectionManager } from '../connections/manager';
import { ConnectionNode, DetailNode } from '../views/connectionsTree';
import type { ErrorReporter } from '../ui';
import { Commands } from './ids';

/** A profile given to the command directly (walkthrough links, tests) instead of through prompts. */
export type ProfileInput = Partial<Omit<ConnectionProfile, 'source'>> & { name: string; url: string };

export class ConnectionCommands {
  /**
   * The connection the user asked to make active (added, picked, Make Active) that has not answered
   * yet: it becomes active when a connect of it succeeds; until then the previous one stays active.
   */
  private wantsActive: string | undefined;

  constructor(private readonly manager: ConnectionManager, private readonly errors: ErrorReporter) {}

  register(): vscode.Disposable[] {
    const r = vscode.commands.registerCommand;
    return [
      r(Commands.addConnection, (input?: ProfileInput) => this.add(input)),
      r(Commands.editConnection, (node?: ConnectionNode) => this.edit(node)),
      r(Commands.removeConnection, (node?: ConnectionNode) => this.remove(node)),
      r(Commands.selectConnection, () => this.select()),
      r(Commands.setActive, async (node?: ConnectionNode | string) => {
        const profile = node ? this.resolve(node) : undefined;
        if (profile) await this.activate(profile);
      }),
      r(Commands.connect, (node?: ConnectionNode | string) => this.connect(this.resolve(node))),
      r(Commands.cancelConnect, (node?: ConnectionNode | string) => {
        const p = this.resolve(node);
        if (p) this.manager.cancelConnect(p.id);
      }),
      r(Commands.disconnect, (node?: ConnectionNode) => node && this.manager.disconnect(node.profile.id)),
      r(Commands.refreshConnections, () => this.refresh()),
      r(Commands.copyUrl, (node?: ConnectionNode) => node && vscode.env.clipboard.writeText(node.profile.url)),
      r(Commands.copyValue, (node?: DetailNode) => node?.opts.copyValue !== undefined && vscode.env.clipboard.writeText(node.opts.copyValue)),
    ];
  }

  /** A tree node, a connection id, or else the active connection. */
  resolve(node?: ConnectionNode | string): ConnectionProfile | undefined {
    return node ? this.manager.profiles.lookup(node) : this.manager.profiles.active();
  }

  async add(input?: ProfileInput): Promise<ConnectionProfile | undefined> {
    const profile = input ? fromInput(input) : await promptProfile();
    if (!profile) return undefined;
    const problem = checkParticipantUrl(profile.url);
    if (problem) {
      void vscode.window.showErrorMessage(`Cannot add the connection: ${problem}`);
      return undefined;
    }
    await this.manager.profiles.save(profile);
    if (input) {
      // Given directly (walkthrough links, tests): the caller connects when it wants to.
      await this.manager.profiles.setActive(profile.id);
      return profile;
    }
    // Active once it answers: until then the views keep showing the previous active connection.
    this.wantsActive = profile.id;
    // Set Token connects by itself once a secret is stored (and only then: Escape leaves it unconnected).
    if (profile.auth !== 'none') await vscode.commands.executeCommand(Commands.setToken, profile.id);
    else await this.connect(profile);
    return profile;
  }

  private async edit(node?: ConnectionNode): Promise<void> {
    const current = this.resolve(node);
    if (!current || !this.manager.profiles.isEditable(current)) return;
    const edited = await promptProfile(current);
    if (!edited) return;
    await this.manager.profiles.save({ ...edited, id: current.id });
    this.manager.disconnect(current.id);
    void this.connect(this.manager.profiles.get(current.id));
  }

  private async remove(node?: ConnectionNode): Promise<void> {
    const p = this.resolve(node);
    if (!p || !this.manager.profiles.isEditable(p)) return;
    const ok = await vscode.window.showWarningMessage(`Remove the connection "${p.name}" and its stored secrets?`, { modal: true }, 'Remove');
    if (ok !== 'Remove') return;
    this.manager.disconnect(p.id);
    await vscode.commands.executeCommand(Commands.clearToken, p.id, { silent: true });
    await this.manager.profiles.remove(p.id);
  }

  private async select(): Promise<void> {
    const all = this.manager.profiles.all();
    if (all.length === 0) {
      const add = await vscode.window.showInformationMessage('There is no connection yet.', 'Add Connection', 'Start Demo Participant');
      if (add === 'Add Connection') await this.add();
      else if (add === 'Start Demo Participant') await vscode.commands.executeCommand(Commands.startDemo);
      return;
    }
    const activeId = this.manager.profiles.active()?.id;
    const pick = await vscode.window.showQuickPick(
      all.map((p) => ({ label: p.name, description: p.url, detail: p.id === activeId ? 'active' : p.source === 'workspace' ? 'from workspace settings' : undefined, profile: p })),
      { title: 'Select the active Canton connection', placeHolder: 'Connection' },
    );
    if (pick) await this.activate(pick.profile);
  }

  /** Makes `p` active: at once when it is connected, else once it answers (the previous one stays active meanwhile). */
  private async activate(p: ConnectionProfile): Promise<void> {
    if (this.manager.state(p.id).state === 'connected') {
      this.wantsActive = undefined;
      await this.manager.profiles.setActive(p.id);
      return;
    }
    this.wantsActive = p.id;
    await this.connect(p);
  }

  /** Connects `p` (the "connecting…" row offers Cancel); a failure is reported with Retry / Update Token. */
  async connect(p: ConnectionProfile | undefined): Promise<void> {
    if (!p) return;
    try {
      await vscode.window.withProgress({ location: { viewId: 'cantonLedger.connections' } }, () => this.manager.connect(p));
      if (this.wantsActive === p.id) {
        this.wantsActive = undefined;
        await this.manager.profiles.setActive(p.id);
      }
    } catch (e) {
      void this.errors.report(`Connecting to ${p.name}`, e, { updateToken: () => vscode.commands.executeCommand(Commands.setToken, p.id), retry: () => this.connect(p) });
    }
  }

  /** Asks every connection in use again; a failure shows on its item (its state), not as a message each. */
  private async refresh(): Promise<void> {
    const inUse = this.manager.profiles.all().filter((p) => this.manager.state(p.id).state !== 'disconnected');
    await vscode.window.withProgress({ location: { viewId: 'cantonLedger.connections' } }, () =>
      Promise.all(inUse.map((p) => this.manager.connect(p).catch((e: unknown) => this.errors.record(`Refreshing ${p.name}`, e)))),
    );
  }
}

function fromInput(i: ProfileInput): ConnectionProfile {
  return { ...i, id: i.id ?? randomUUID(), url: i.url.replace(/\/+$/, ''), auth: i.auth ?? 'none', source: 'user' };
}

/** Asks step by step for a profile; undefined when the user gives up. */
async function promptProfile(current?: ConnectionProfile): Promise<ConnectionProfile | undefined> {
  const title = current ? `Edit ${current.name}` : 'Add Canton Connection';
  const name = await vscode.window.showInputBox({ title: `${title} (1/4)`, prompt: 'A name for the connection', value: current?.name ?? 'Local sandbox', validateInput: (v) => (v.trim() ? undefined : 'A name is needed'), ignoreFocusOut: true });
  if (name === undefined) return undefined;
  const url = await vscode.window.showInputBox({
    title: `${title} (2/4)`,
    prompt: "The participant's JSON Ledger API base URL, with its path prefix if any",
    value: current?.url ?? 'http://localhost:7575',
    validateInput: (v) => checkParticipantUrl(v.trim()),
    ignoreFocusOut: true,
  });
  if (url === undefined) return undefined;
  const kind = await vscode.window.showQuickPick(
    AUTH_KINDS.map((k) => ({ label: k.label, detail: k.detail, authKind: k.kind, picked: k.kind === current?.auth })),
    { title: `${title} (3/4)`, placeHolder: 'How does this participant authenticate requests?', ignoreFocusOut: true },
  );
  if (!kind) return undefined;
  const auth: AuthKind = kind.authKind;
  const userId = await vscode.window.showInputBox({
    title: `${title} (4/4)`,
    prompt: auth === 'none' ? 'The participant user id to submit as (optional)' : "The participant user id (the token's sub)",
    value: current?.userId ?? '',
    ignoreFocusOut: true,
  });
  if (userId === undefined) return undefined;
  const profile: ConnectionProfile = { id: current?.id ?? randomUUID(), name: name.trim(), url: url.trim().replace(/\/+$/, ''), auth, userId: userId.trim() || undefined, parties: current?.parties, source: 'user' };
  if (auth === 'sandbox-secret') {
    const form = await vscode.window.showQuickPick(
      [
        { label: 'Audience', detail: 'aud = https://daml.com/jwt/aud/participant/<participant id> (recommended)', form: 'audience' as const },
        { label: 'Scope', detail: 'scope = daml_ledger_api (deprecated in 3.5)', form: 'scope' as const },
      ],
      { title: 'Token form', ignoreFocusOut: true },
    );
    if (!form) return undefined;
    profile.tokenForm = form.form;
    if (form.form === 'audience') {
      const participantId = await vscode.window.showInputBox({ title: 'Participant id for the audience', prompt: 'e.g. participant1::1220…', value: current?.participantId ?? '', validateInput: (v) => (v.trim() ? undefined : 'The audience form needs the participant id'), ignoreFocusOut: true });
      if (participantId === undefined) return undefined;
      profile.participantId = participantId.trim();
    }
  }
  if (auth === 'oauth2') {
    const tokenUrl = await vscode.window.showInputBox({ title: 'OAuth2 token URL', value: current?.tokenUrl ?? '', validateInput: (v) => checkParticipantUrl(v.trim()) && 'Expected the https URL of the token endpoint', ignoreFocusOut: true });
    if (tokenUrl === undefined) return undefined;
    const clientId = await vscode.window.showInputBox({ title: 'OAuth2 client id', value: current?.clientId ?? '', validateInput: (v) => (v.trim() ? undefined : 'A client id is needed'), ignoreFocusOut: true });
    if (clientId === undefined) return undefined;
    const scope = await vscode.window.showInputBox({ title: 'Scope (optional)', value: current?.scope ?? 'daml_ledger_api', ignoreFocusOut: true });
    if (scope === undefined) return undefined;
    const audience = await vscode.window.showInputBox({ title: 'Audience (optional)', value: current?.audience ?? '', ignoreFocusOut: true });
    if (audience === undefined) return undefined;
    Object.assign(profile, { tokenUrl: tokenUrl.trim(), clientId: clientId.trim(), scope: scope.trim() || undefined, audience: audience.trim() || undefined });
  }
  return profile;
}
