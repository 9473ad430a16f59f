// The Connections view's row commands through the registry: the row's connection, else the question
// "which connection?", and Remove's confirmation — all through the prompts a test answers.
import assert from 'node:assert/strict';
import type { ConnectionProfile } from '../../../src/core/connections';
import type { LedgerConnection } from '../../../src/core/ledger/connection';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import { ConnectionCommands } from '../../../src/vscode/connections/connectionCommands';
import { Commands } from '../../../src/vscode/kit/ids';
import { CommandRegistry, ConnectionTargets } from '../../../src/vscode/kit/registry';
import { ErrorReporter, PromptsPort } from '../../../src/vscode/kit/prompts';
import { windowPrompts } from '../../../src/vscode/kit/ui';
import { commands, fake } from '../fake/vscode';

const profile = (id: string, name: string): ConnectionProfile => ({ id, name, url: `http://${id}.example:7575`, auth: 'none', source: 'user' });

describe('connection commands', () => {
  let list: ConnectionProfile[];
  let registry: CommandRegistry;
  const disconnected: string[] = [];
  const clearedTokens: unknown[] = [];

  beforeEach(() => {
    fake.reset();
    list = [profile('demo', 'Demo'), profile('mine', 'Mine')];
    disconnected.length = 0;
    clearedTokens.length = 0;
    const profiles = {
      all: () => list,
      active: () => list[0],
      get: (id: string) => list.find((p) => p.id === id),
      lookup: (t: string | { profile: ConnectionProfile }) => list.find((p) => p.id === (typeof t === 'string' ? t : t.profile.id)),
      isEditable: (p: ConnectionProfile) => p.id !== 'demo',
      remove: async (id: string) => void (list = list.filter((p) => p.id !== id)),
    };
    const connectionFor = (p: ConnectionProfile) => ({ id: p.id, profile: p, state: { state: 'connected' } }) as unknown as LedgerConnection;
    const manager = { profiles, connectionFor, disconnect: (c: LedgerConnection) => void disconnected.push(c.id) };
    const prompts = new PromptsPort(windowPrompts);
    const errors = new ErrorReporter(silentLogger, new Redactor(), prompts, () => undefined);
    registry = new CommandRegistry(commands, errors, new ConnectionTargets(manager as never, prompts, commands, errors));
    new ConnectionCommands(manager as never, errors, prompts).register(registry);
    // Remove clears the connection's secrets through the token command (registered elsewhere).
    commands.registerCommand(Commands.clearToken, (...args: unknown[]) => void clearedTokens.push(args));
  });
  afterEach(() => registry.dispose());

  it('Remove asks first; dismissed, the connection stays', async () => {
    await commands.executeCommand(Commands.removeConnection, 'mine');
    assert.deepEqual(fake.state.messages.map((m) => [m.severity, m.text, m.actions, m.modal]), [['warning', 'Remove the connection "Mine" and its stored secrets?', ['Remove'], true]]);
    assert.deepEqual(list.map((p) => p.id), ['demo', 'mine']);
    assert.deepEqual(disconnected, []);
  });

  it('Remove confirmed: disconnects, clears the secrets quietly, removes the profile', async () => {
    fake.answerMessage('Remove');
    await commands.executeCommand(Commands.removeConnection, 'mine');
    assert.deepEqual(list.map((p) => p.id), ['demo']);
    assert.deepEqual(disconnected, ['mine']);
    assert.deepEqual(clearedTokens, [['mine', { silent: true }]]);
  });

  it('Remove given no row asks which of the removable connections (not the active demo), then confirms', async () => {
    const offered: string[] = [];
    fake.answerQuickPick((item: { label: string }) => (offered.push(item.label), item.label === 'Mine'));
    fake.answerMessage('Remove');
    await commands.executeCommand(Commands.removeConnection);
    assert.deepEqual(offered, ['Mine']);
    assert.deepEqual(list.map((p) => p.id), ['demo']);
  });

  it('Copy URL takes the row\'s connection; Disconnect given no row asks among the connected ones', async () => {
    await commands.executeCommand(Commands.copyUrl, { profile: list[1] });
    assert.equal(fake.state.clipboard.text, 'http://mine.example:7575');
    const offered: string[] = [];
    fake.answerQuickPick((item: { label: string }) => (offered.push(item.label), false));
    await commands.executeCommand(Commands.disconnect);
    assert.deepEqual(offered, ['Demo', 'Mine'], 'both are connected');
    assert.deepEqual(disconnected, [], 'dismissed: nothing disconnected');
  });
});
