import vscode = require('vscode');
import { randomUUID } from 'node:crypto';
import { AUTH_KINDS, AuthKind, checkParticipantUrl, ConnectionProfile, connectionWizardSteps, type ConnectionWizardStep, wizardStepCounter } from '../../core/connections';
import type { LedgerConnection } from '../../core/ledger/connection';
import type { ConnectionManager } from './manager';
import type { DetailNode } from './connectionsTree';
import { BACK, type ErrorReporter, type Prompts, type StepAnswer } from '../kit/prompts';
import { Commands, Views } from '../kit/ids';
import type { CommandRegistry } from '../kit/registry';

/** A profile given to the command directly (walkthrough links, tests) instead of through prompts. */
export type ProfileInput = Partial<Omit<ConnectionProfile, 'source'>> & { name: string; url: string };

export class ConnectionCommands {
  /**
   * The connection the user asked to make active (added, picked, Make Active) that has not answered
   * yet: it becomes active when a connect of it succeeds; until then the previous one stays active.
   */
  private wantsActive: string | undefined;

  constructor(
    private readonly manager: ConnectionManager,
    private readonly errors: ErrorReporter,
    /** Where its questions go (a test answers them). */
    private readonly prompts: Prompts,
  ) {}

  register(commands: CommandRegistry): void {
    const fitsAny = () => true;
    commands.register(Commands.addConnection, (input?: ProfileInput) => this.add(input));
    const editable = (c: LedgerConnection) => this.manager.profiles.isEditable(c.profile);
    commands.registerForConnection(Commands.editConnection, { action: 'Edit Connection', question: 'Edit which connection?', fits: editable }, (c) => this.edit(c));
    commands.registerForConnection(Commands.removeConnection, { action: 'Remove Connection', question: 'Remove which connection?', fits: editable }, (c) => this.remove(c));
    commands.register(Commands.selectConnection, () => this.select());
    commands.registerForConnection(Commands.setActive, { action: 'Make Active', question: 'Make which connection active?', fits: (c) => c.id !== this.manager.profiles.active()?.id }, (c) => this.activate(c));
    commands.registerForConnection(Commands.connect, { purpose: 'connect to' }, (c) => this.connect(c));
    commands.registerForConnection(Commands.cancelConnect, { purpose: 'stop connecting to' }, (c) => c.cancelConnect());
    commands.registerForConnection(Commands.disconnect, { action: 'Disconnect', question: 'Disconnect which connection?', fits: (c) => c.state.state === 'connected' }, (c) => this.manager.disconnect(c));
    commands.register(Commands.refreshConnections, () => this.refresh());
    commands.registerForConnection(Commands.copyUrl, { action: 'Copy URL', question: 'Copy the URL of which connection?', fits: fitsAny }, (c) => vscode.env.clipboard.writeText(c.profile.url));
    commands.register(Commands.copyValue, (node?: DetailNode) => node?.opts.copyValue !== undefined && vscode.env.clipboard.writeText(node.opts.copyValue));
  }

  async add(input?: ProfileInput): Promise<ConnectionProfile | undefined> {
    const profile = input ? fromInput(input) : await promptProfile(this.prompts);
    if (!profile) return undefined;
    const problem = checkParticipantUrl(profile.url);
    if (problem) {
      void this.prompts.message('error', `Cannot add the connection: ${problem}`, []);
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
    else await this.connect(this.manager.connectionFor(profile));
    return profile;
  }

  private async edit(c: LedgerConnection): Promise<void> {
    const current = c.profile;
    if (!this.manager.profiles.isEditable(current)) return;
    const edited = await promptProfile(this.prompts, current);
    if (!edited) return;
    await this.manager.profiles.save({ ...edited, id: current.id });
    // Connected anew, as edited: a changed URL, auth or user closed the connection already; anything else closes it here.
    this.manager.disconnect(c);
    void this.connect(this.manager.current(c));
  }

  private async remove(c: LedgerConnection): Promise<void> {
    const p = c.profile;
    if (!this.manager.profiles.isEditable(p)) return;
    const ok = await this.prompts.message('warning', `Remove the connection "${p.name}" and its stored secrets?`, ['Remove'], { modal: true });
    if (ok !== 'Remove') return;
    this.manager.disconnect(c);
    await vscode.commands.executeCommand(Commands.clearToken, p.id, { silent: true });
    await this.manager.profiles.remove(p.id);
  }

  private async select(): Promise<void> {
    const all = this.manager.profiles.all();
    if (all.length === 0) {
      const add = await this.prompts.message('info', 'There is no connection yet.', ['Add Connection', 'Start Demo']);
      if (add === 'Add Connection') await this.add();
      else if (add === 'Start Demo') await vscode.commands.executeCommand(Commands.startDemo);
      return;
    }
    const activeId = this.manager.profiles.active()?.id;
    const pick = await this.prompts.pick(
      all.map((p) => ({ label: p.name, description: p.url, detail: p.id === activeId ? 'active' : p.source === 'workspace' ? 'from workspace settings' : undefined, profile: p })),
      { title: 'Select the active Canton connection', placeHolder: 'Connection' },
    );
    if (pick) await this.activate(this.manager.connectionFor(pick.profile));
  }

  /** Makes `c` active: at once when it is connected, else once it answers (the previous one stays active meanwhile). */
  private async activate(c: LedgerConnection): Promise<void> {
    if (c.state.state === 'connected') {
      this.wantsActive = undefined;
      await this.manager.profiles.setActive(c.id);
      return;
    }
    this.wantsActive = c.id;
    await this.connect(c);
  }

  /** Connects `c` (the "connecting…" row offers Cancel); a failure is reported with Retry / Update Token. */
  async connect(c: LedgerConnection | undefined): Promise<void> {
    if (!c) return;
    const p = c.profile;
    try {
      await this.prompts.viewProgress(Views.connections, () => c.connect());
      if (this.wantsActive === p.id) {
        this.wantsActive = undefined;
        await this.manager.profiles.setActive(p.id);
      }
    } catch (e) {
      // A failed connect ends the wish to make it active (a later plain Connect must not switch the
      // views); Retry or Update Token from the message carries it on.
      const wanted = this.wantsActive === p.id;
      if (wanted) this.wantsActive = undefined;
      const carryOn = () => {
        if (wanted) this.wantsActive = p.id;
      };
      void this.errors.report(`Connecting to ${p.name}`, e, {
        updateToken: () => (carryOn(), vscode.commands.executeCommand(Commands.setToken, p.id)),
        // The connection a Retry connects: this one, or the one made since for its profile (a new token).
        retry: () => (carryOn(), this.connect(this.manager.current(c))),
      });
    }
  }

  /** Asks every connection in use again; a failure shows on its item (its state), not as a message each. */
  private async refresh(): Promise<void> {
    const inUse = this.manager.all().filter((c) => c.state.state !== 'disconnected');
    await this.prompts.viewProgress(Views.connections, () =>
      Promise.all(inUse.map((c) => c.connect().catch((e: unknown) => this.errors.record(`Refreshing ${c.profile.name}`, e)))),
    );
  }
}

function fromInput(i: ProfileInput): ConnectionProfile {
  return { ...i, id: i.id ?? randomUUID(), url: i.url.replace(/\/+$/, ''), auth: i.auth ?? 'none', source: 'user' };
}

interface WizardAnswers {
  name: string;
  url: string;
  auth?: AuthKind;
  userId: string;
  tokenForm?: 'audience' | 'scope';
  participantId: string;
  tokenUrl: string;
  clientId: string;
  scope: string;
  audience: string;
}

/**
 * Asks step by step for a profile, with Back; undefined when the user gives up. The counter counts the
 * steps of the path the answers lead to (the auth kind adds its own questions).
 */
async function promptProfile(prompts: Prompts, current?: ConnectionProfile): Promise<ConnectionProfile | undefined> {
  const title = current ? `Edit ${current.name}` : 'Add Canton Connection';
  const a: WizardAnswers = {
    name: current?.name ?? 'Local sandbox',
    url: current?.url ?? 'http://localhost:7575',
    auth: current?.auth,
    userId: current?.userId ?? '',
    tokenForm: current?.tokenForm,
    participantId: current?.participantId ?? '',
    tokenUrl: current?.tokenUrl ?? '',
    clientId: current?.clientId ?? '',
    scope: current?.scope ?? 'daml_ledger_api',
    audience: current?.audience ?? '',
  };
  let index = 0;
  for (;;) {
    const path = connectionWizardSteps(a.auth);
    if (index >= path.steps.length) break;
    const step = path.steps[index];
    const answer = await askStep(prompts, step, a, { title, ...wizardStepCounter(step, path) });
    if (answer === undefined) return undefined;
    index += answer === BACK ? -1 : 1;
  }
  const auth = a.auth ?? 'none';
  const profile: ConnectionProfile = { id: current?.id ?? randomUUID(), name: a.name.trim(), url: a.url.trim().replace(/\/+$/, ''), auth, userId: a.userId.trim() || undefined, parties: current?.parties, source: 'user' };
  if (auth === 'sandbox-secret') {
    profile.tokenForm = a.tokenForm ?? 'audience';
    profile.participantId = a.participantId.trim() || undefined;
  }
  if (auth === 'oauth2') Object.assign(profile, { tokenUrl: a.tokenUrl.trim(), clientId: a.clientId.trim(), scope: a.scope.trim() || undefined, audience: a.audience.trim() || undefined });
  return profile;
}

/** Asks one question of the wizard and writes the answer into `a`; 'ok', BACK, or undefined (given up). */
async function askStep(prompts: Prompts, step: ConnectionWizardStep, a: WizardAnswers, counter: { title: string; step: number; totalSteps?: number }): Promise<StepAnswer<'ok'>> {
  const text = async (key: keyof WizardAnswers & ('name' | 'url' | 'userId' | 'participantId' | 'tokenUrl' | 'clientId' | 'scope' | 'audience'), prompt: string, validate?: (v: string) => string | undefined) => {
    const v = await prompts.inputStep({ ...counter, prompt, value: a[key], validate });
    if (typeof v === 'string') a[key] = v;
    return v === undefined || v === BACK ? v : 'ok';
  };
  switch (step) {
    case 'name':
      return text('name', 'A name for the connection', (v) => (v.trim() ? undefined : 'A name is needed'));
    case 'url':
      return text('url', "The participant's JSON Ledger API base URL, with its path prefix if any", (v) => checkParticipantUrl(v.trim()));
    case 'auth': {
      const items = AUTH_KINDS.map((k) => ({ label: k.label, detail: k.detail, authKind: k.kind }));
      const v = await prompts.pickStep({ ...counter, placeholder: 'How does this participant authenticate requests?', items, active: items.find((i) => i.authKind === a.auth) });
      if (v === undefined || v === BACK) return v;
      a.auth = v.authKind;
      return 'ok';
    }
    case 'userId':
      return text('userId', a.auth === 'none' ? 'The participant user id to submit as (optional)' : "The participant user id (the token's sub)");
    case 'tokenForm': {
      const items = [
        { label: 'Audience', detail: 'aud = https://daml.com/jwt/aud/participant/<participant id> (recommended)', form: 'audience' as const },
        { label: 'Scope', detail: 'scope = daml_ledger_api, aud = the participant id (deprecated in 3.5)', form: 'scope' as const },
      ];
      const v = await prompts.pickStep({ ...counter, placeholder: 'Token form', items, active: items.find((i) => i.form === a.tokenForm) });
      if (v === undefined || v === BACK) return v;
      a.tokenForm = v.form;
      return 'ok';
    }
    case 'participantId':
      return text('participantId', "The participant id, for the token's audience, e.g. participant1::1220…", (v) =>
        v.trim() ? undefined : 'Every token names its participant in its audience (Canton 3.7 refuses tokens without one): the participant id is needed.',
      );
    case 'tokenUrl':
      return text('tokenUrl', 'OAuth2 token URL', (v) => checkParticipantUrl(v.trim()) && 'Expected the https URL of the token endpoint');
    case 'clientId':
      return text('clientId', 'OAuth2 client id', (v) => (v.trim() ? undefined : 'A client id is needed'));
    case 'scope':
      return text('scope', 'OAuth2 scope (optional)');
    case 'audience':
      return text('audience', 'OAuth2 audience (optional)');
  }
}
