// What every send command (submit, preview, vetting, DAR upload) starts from: a checked file and the
// connection to send it to, found one way with one message.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConnectionProfile } from '../../src/core/connections';
import { Redactor } from '../../src/core/redact';
import { silentLogger } from '../../src/core/log';
import { Commands } from '../../src/vscode/kit/ids';
import { ConnectionTargets, SELECT_CONNECTION } from '../../src/vscode/kit/registry';
import type { LedgerConnection } from '../../src/core/ledger/connection';
import type { PackagesState } from '../../src/core/ledger/packages';
import { checkedSourceAndTarget, type SendTargets } from '../../src/vscode/files/submit/sourceFile';
import { ErrorReporter, PromptsPort } from '../../src/vscode/kit/prompts';
import { windowPrompts } from '../../src/vscode/kit/ui';
import { commands, fake, Uri, workspace } from './fake/vscode';

const FILE = join(__dirname, '..', 'fixtures', 'files', 'valid', 'exercise.commands.json');
const demo: ConnectionProfile = { id: 'demo', name: 'Demo', url: 'http://127.0.0.1:7575', auth: 'none', source: 'user' };

describe('the entry of the send commands (checked file, then the target connection)', () => {
  let active: ConnectionProfile | undefined;
  let targets: ConnectionTargets;
  let deps: SendTargets;
  const uri = Uri.file('/work/orders.commands.json');
  const open = (text: string) => workspace.textDocuments.splice(0, workspace.textDocuments.length, { uri, getText: () => text });

  beforeEach(() => {
    fake.reset();
    active = undefined;
    const prompts = new PromptsPort(windowPrompts);
    const profiles = { active: () => active, all: () => [demo], lookup: () => demo };
    // Nothing listens at the profile's address: its packages cannot be read, and the file is sent as checked without them.
    const unread: PackagesState = { state: 'failed', source: 'on Demo', error: new Error('offline') };
    const connectionFor = () => ({ id: demo.id, profile: demo, packages: () => unread, readPackages: async () => unread }) as unknown as LedgerConnection;
    targets = new ConnectionTargets({ profiles, connectionFor }, prompts, commands, new ErrorReporter(silentLogger, new Redactor(), prompts, () => undefined));
    deps = { targets };
    open(readFileSync(FILE, 'utf8'));
  });
  after(() => workspace.textDocuments.splice(0));

  it('hands back the file\'s value and the active connection, asking nothing', async () => {
    active = demo;
    const entry = await checkedSourceAndTarget(deps, uri, 'commands', windowPrompts, 'was not submitted', 'submit to');
    assert.equal(entry?.connection.id, 'demo');
    assert.equal(entry?.source.uri, uri);
    assert.ok((entry?.source.value as { commands?: unknown }).commands, 'the parsed file');
    assert.deepEqual(fake.state.messages, []);
  });

  it('with no active connection, says so once with Select Connection, and goes on with the one selected', async () => {
    commands.registerCommand(Commands.selectConnection, () => void (active = demo));
    fake.answerMessage(SELECT_CONNECTION);
    const entry = await checkedSourceAndTarget(deps, uri, 'commands', windowPrompts, 'was not previewed', 'preview on');
    assert.deepEqual(fake.state.messages.map((m) => [m.severity, m.text, m.actions]), [['error', 'No active connection: choose the participant to preview on.', [SELECT_CONNECTION]]]);
    assert.equal(entry?.connection.id, 'demo');
  });

  it('dismissed, nothing is sent', async () => {
    assert.equal(await checkedSourceAndTarget(deps, uri, 'commands', windowPrompts, 'was not submitted', 'submit to'), undefined);
    assert.equal(fake.state.messages.length, 1);
  });

  it('a file with errors is refused before any connection is looked for', async () => {
    active = demo;
    open('{ "commands": ');
    assert.equal(await checkedSourceAndTarget(deps, uri, 'commands', windowPrompts, 'was not submitted', 'submit to'), undefined);
    assert.deepEqual(fake.state.messages.map((m) => m.actions), [['Show Problems']]);
    assert.match(fake.state.messages[0].text, /^orders\.commands\.json was not submitted: it has \d+ errors?: line 1/);
  });

  it('a file of the wrong kind is refused', async () => {
    active = demo;
    assert.equal(await checkedSourceAndTarget(deps, uri, 'vetting', windowPrompts, 'was not sent', 'send the vetting changes to'), undefined);
    assert.deepEqual(fake.state.messages.map((m) => m.text), ['Open or select a *.vetting.json file first.']);
  });
});
