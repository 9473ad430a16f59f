// The fake VS Code API behaves as VS Code does where the glue's tests rely on it.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { fake } from './fake/vscode';

describe('the fake VS Code API', () => {
  beforeEach(() => fake.reset());

  it('is what `vscode` resolves to in these tests', () => {
    assert.equal((vscode as unknown as { version: string }).version, '1.96.0-fake');
  });

  it('refuses a second registration of a command id, and forgets a disposed one', async () => {
    const first = vscode.commands.registerCommand('x.run', () => 1);
    assert.throws(() => vscode.commands.registerCommand('x.run', () => 2), /already exists/);
    assert.equal(await vscode.commands.executeCommand('x.run'), 1);
    first.dispose();
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('x.run')), /not found/);
  });

  it('answers messages with the scripted buttons in order, and refuses an answer that is not a button', async () => {
    fake.answerMessage('Retry');
    fake.answerMessage('Nope');
    assert.equal(await vscode.window.showWarningMessage('Failed', { modal: true }, 'Retry'), 'Retry');
    await assert.rejects(Promise.resolve(vscode.window.showErrorMessage('Again', 'Retry')), /not a button/);
    assert.equal(await vscode.window.showInformationMessage('Dismissed', 'OK'), undefined);
    assert.deepEqual(
      fake.state.messages.map((m) => [m.severity, m.text, m.actions, m.modal]),
      [
        ['warning', 'Failed', ['Retry'], true],
        ['error', 'Again', ['Retry'], false],
        ['info', 'Dismissed', ['OK'], false],
      ],
    );
  });

  it('event emitters deliver in order, stop after a subscription is disposed, and drop all listeners when disposed', () => {
    const emitter = new vscode.EventEmitter<number>();
    const seen: string[] = [];
    const a = emitter.event((n) => seen.push(`a${n}`));
    emitter.event((n) => seen.push(`b${n}`));
    emitter.fire(1);
    a.dispose();
    emitter.fire(2);
    emitter.dispose();
    emitter.fire(3);
    assert.deepEqual(seen, ['a1', 'b1', 'b2']);
  });

  it('workspace settings count only in a trusted workspace', () => {
    fake.state.isTrusted = false;
    fake.setSetting('cantonLedger.x', 'user');
    fake.setSetting('cantonLedger.x', 'workspace', 'workspace');
    assert.equal(vscode.workspace.getConfiguration('cantonLedger').get('x'), 'user');
    fake.grantTrust();
    assert.equal(vscode.workspace.getConfiguration('cantonLedger').get('x'), 'workspace');
  });
});
