import assert from 'node:assert/strict';
import type { ConnectionProfile } from '../../../src/core/connections';
import type { LedgerConnection } from '../../../src/core/ledger/connection';
import { CancelledError } from '../../../src/core/errors';
import type { Logger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import { Commands } from '../../../src/vscode/kit/ids';
import { CommandRegistry, ConnectionTargets, SELECT_CONNECTION, type CommandHost, type TargetProfiles } from '../../../src/vscode/kit/registry';
import { ErrorReporter, SHOW_LOG, type MessageSeverity, type Prompts } from '../../../src/vscode/kit/prompts';

/** `vscode.commands` as far as the registry uses it: a table of handlers. */
class Host implements CommandHost {
  readonly handlers = new Map<string, (...args: any[]) => unknown>();
  readonly executed: string[] = [];
  /** What running a command that is not in the table does (Select Connection, here). */
  external = new Map<string, () => void>();

  registerCommand(id: string, handler: (...args: any[]) => unknown) {
    if (this.handlers.has(id)) throw new Error(`command '${id}' already exists`);
    this.handlers.set(id, handler);
    return { dispose: () => this.handlers.delete(id) };
  }

  async executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    this.executed.push(id);
    const h = this.handlers.get(id);
    if (h) return h(...args);
    const ext = this.external.get(id);
    if (!ext) throw new Error(`command '${id}' not found`);
    ext();
    return undefined;
  }
}

/** Answers questions from queues and records them; an unanswered one is dismissed. */
class AnsweringPrompts implements Pick<Prompts, 'message' | 'pick' | 'progress'> {
  readonly messages: Array<{ severity: MessageSeverity; text: string; actions: readonly string[] }> = [];
  readonly picks: Array<{ title: string; labels: string[] }> = [];
  answers: Array<string | undefined> = [];
  pickLabels: string[] = [];

  async message(severity: MessageSeverity, text: string, actions: readonly string[]) {
    this.messages.push({ severity, text, actions });
    return this.answers.shift();
  }
  async pick<T extends { label: string }>(items: readonly T[], options: { title: string }) {
    this.picks.push({ title: options.title, labels: items.map((i) => i.label) });
    const label = this.pickLabels.shift();
    return items.find((i) => i.label === label);
  }
  async progress<T>(_title: string, task: (signal: AbortSignal) => Promise<T>) {
    return task(new AbortController().signal);
  }
}

const profile = (id: string, name = id): ConnectionProfile => ({ id, name, url: `http://${id}.example:7575`, auth: 'none', source: 'user' });

class Profiles implements TargetProfiles {
  constructor(public list: ConnectionProfile[], public activeId?: string) {}
  active() {
    return this.list.find((p) => p.id === this.activeId);
  }
  all() {
    return this.list;
  }
  lookup(target: string | { profile: ConnectionProfile }) {
    return this.list.find((p) => p.id === (typeof target === 'string' ? target : target.profile.id));
  }
}

function setUp(profiles = new Profiles([profile('demo', 'Demo'), profile('other', 'Other')], 'demo')) {
  const host = new Host();
  const prompts = new AnsweringPrompts();
  const logged: string[] = [];
  const logger: Logger = { trace() {}, debug() {}, info: (m) => logged.push(`info ${m}`), warn: (m) => logged.push(`warn ${m}`), error: (m) => logged.push(`error ${m}`) };
  let logShown = 0;
  const errors = new ErrorReporter(logger, new Redactor(), prompts, () => logShown++);
  const titles = new Map<string, string>([[Commands.refreshUpdates, 'Refresh Updates'], [Commands.uploadDar, 'Upload DAR…']]);
  // A connection per profile, as far as the handlers look (its id).
  const connections = { profiles, connectionFor: (p: ConnectionProfile) => ({ id: p.id, profile: p }) as unknown as LedgerConnection };
  const registry = new CommandRegistry(host, errors, new ConnectionTargets(connections, prompts, host, errors), (id) => titles.get(id));
  return { host, prompts, logged, registry, profiles, logShown: () => logShown };
}

describe('CommandRegistry (every command of the features is registered through it)', () => {
  it('passes the arguments on and hands back what the handler returns', async () => {
    const { host, registry } = setUp();
    registry.register(Commands.copyOffset, (a: number, b: string) => `${a}/${b}`);
    assert.equal(await host.executeCommand(Commands.copyOffset, 7, 'x'), '7/x');
    assert.deepEqual(registry.registeredIds(), [Commands.copyOffset]);
  });

  it('reports a handler\'s failure once, through the prompts, titled by the command; the command resolves to undefined', async () => {
    const { host, prompts, logged, registry, logShown } = setUp();
    registry.register(Commands.refreshUpdates, () => {
      throw new Error('the view broke');
    });
    prompts.answers.push(SHOW_LOG);
    assert.equal(await host.executeCommand(Commands.refreshUpdates), undefined);
    assert.deepEqual(prompts.messages, [{ severity: 'error', text: 'Refresh Updates failed: the view broke', actions: [SHOW_LOG] }]);
    assert.equal(logged.filter((l) => l.startsWith('error Refresh Updates failed: ')).length, 1, logged.join('\n'));
    assert.equal(logShown(), 1, 'Show Log shows the log');
  });

  it('reports an asynchronous failure the same way, without the title\'s ellipsis; a cancellation says nothing', async () => {
    const { host, prompts, registry } = setUp();
    let fail: unknown = new Error('no DAR');
    registry.register(Commands.uploadDar, async () => {
      throw fail;
    });
    await host.executeCommand(Commands.uploadDar);
    assert.deepEqual(prompts.messages.map((m) => m.text), ['Upload DAR failed: no DAR']);
    fail = new CancelledError();
    await host.executeCommand(Commands.uploadDar);
    assert.equal(prompts.messages.length, 1, 'no message for a cancellation');
  });

  it('unregisters every command when disposed, and one command when its registration is disposed', async () => {
    const { host, registry } = setUp();
    const one = registry.register(Commands.copyOffset, () => 1);
    registry.register(Commands.copyUpdateId, () => 2);
    one.dispose();
    assert.deepEqual([...host.handlers.keys()], [Commands.copyUpdateId]);
    registry.dispose();
    assert.deepEqual([...host.handlers.keys()], []);
    assert.deepEqual(registry.registeredIds(), []);
    await assert.rejects(host.executeCommand(Commands.copyUpdateId), /not found/);
  });

  it('refuses to register an id twice', () => {
    const { registry } = setUp();
    registry.register(Commands.copyOffset, () => 1);
    assert.throws(() => registry.register(Commands.copyOffset, () => 2), /registered twice/);
  });
});

describe('ConnectionTargets (the connection a command acts on)', () => {
  const acting = (setup: ReturnType<typeof setUp>, policy: Parameters<CommandRegistry['registerForConnection']>[1]) => {
    const ran: Array<{ target: string; rest: unknown[] }> = [];
    setup.registry.registerForConnection(Commands.connect, policy, (target, ...rest: unknown[]) => {
      ran.push({ target: target.id, rest });
      return target.id;
    });
    return ran;
  };

  it('takes the row\'s connection (a tree item or an id) over the active one, and passes the other arguments on', async () => {
    const s = setUp();
    const ran = acting(s, { purpose: 'connect to' });
    await s.host.executeCommand(Commands.connect, { profile: profile('other') }, 'extra');
    await s.host.executeCommand(Commands.connect, 'other');
    assert.deepEqual(ran, [{ target: 'other', rest: ['extra'] }, { target: 'other', rest: [] }]);
    assert.deepEqual(s.prompts.messages, [], 'nothing asked');
  });

  it('without a row, takes the active connection', async () => {
    const s = setUp();
    const ran = acting(s, { purpose: 'connect to' });
    assert.equal(await s.host.executeCommand(Commands.connect), 'demo');
    assert.deepEqual(ran.map((r) => r.target), ['demo']);
  });

  it('without a row or an active connection, asks once offering Select Connection, then acts on the one selected', async () => {
    const s = setUp(new Profiles([profile('demo'), profile('other')]));
    const ran = acting(s, { purpose: 'connect to' });
    s.host.external.set(Commands.selectConnection, () => (s.profiles.activeId = 'other'));
    s.prompts.answers.push(SELECT_CONNECTION);
    assert.equal(await s.host.executeCommand(Commands.connect), 'other');
    assert.deepEqual(s.prompts.messages, [{ severity: 'error', text: 'No active connection: choose the participant to connect to.', actions: [SELECT_CONNECTION] }]);
    assert.ok(s.host.executed.includes(Commands.selectConnection));
    assert.deepEqual(ran.map((r) => r.target), ['other']);
  });

  it('does nothing when that question is dismissed, or Select Connection selects none', async () => {
    const s = setUp(new Profiles([profile('demo'), profile('other')]));
    const ran = acting(s, { purpose: 'connect to' });
    s.host.external.set(Commands.selectConnection, () => undefined);
    assert.equal(await s.host.executeCommand(Commands.connect), undefined);
    s.prompts.answers.push(SELECT_CONNECTION);
    assert.equal(await s.host.executeCommand(Commands.connect), undefined);
    assert.equal(s.prompts.messages.length, 2, 'asked once per run');
    assert.deepEqual(ran, []);
  });

  it('for a row action given no row, asks which of the connections that fit (not the active one unasked)', async () => {
    const s = setUp();
    const ran = acting(s, { action: 'Disconnect', question: 'Disconnect which connection?', fits: (p) => p.id !== 'other' });
    s.prompts.pickLabels.push('Demo');
    assert.equal(await s.host.executeCommand(Commands.connect), 'demo');
    assert.deepEqual(s.prompts.picks, [{ title: 'Disconnect which connection?', labels: ['Demo'] }]);
    // Dismissed: nothing runs.
    assert.equal(await s.host.executeCommand(Commands.connect), undefined);
    assert.deepEqual(ran.map((r) => r.target), ['demo']);
    assert.ok(s.logged.some((l) => l.startsWith('warn Disconnect: the command was given no connection')), 'the log says why it asked');
  });

  it('says so when no connection fits, and with preferActive takes the active or the only fitting one unasked', async () => {
    const s = setUp();
    const none = acting(s, { action: 'Copy URL', question: 'Copy which?', fits: () => false });
    assert.equal(await s.host.executeCommand(Commands.connect), undefined);
    assert.deepEqual(s.prompts.messages.map((m) => `${m.severity} ${m.text}`), ['info Copy URL: no connection fits.']);
    assert.deepEqual(none, []);

    const t = setUp();
    acting(t, { action: 'Set Token', question: 'Set the token of which connection?', fits: (p) => p.id === 'other', preferActive: true });
    assert.equal(await t.host.executeCommand(Commands.connect), 'other', 'the only one that fits');
    t.profiles.list.push(profile('third'));
    t.profiles.activeId = 'other';
    assert.equal(await t.host.executeCommand(Commands.connect), 'other', 'the active one, as it fits');
    assert.deepEqual(t.prompts.picks, []);
  });
});
