// Ledger scripts in the real Test Explorer (in-host): the workspace's scripts and their steps as test
// items, Run Script (the CodeLens's command) against the demo participant, each step's result, the failing
// step of a broken copy, a step's transaction opened as a document, and the checks while typing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { extension, waitFor, workspaceDir } from './helpers';
import { closeEditors, demoParticipant, scripted } from './sendHelpers';


describe('ledger scripts in the Test Explorer', function () {
  this.timeout(60_000);
  const dir = path.join(workspaceDir(), 'scripts-e2e');
  const write = (name: string, text: string) => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
    return vscode.Uri.file(path.join(dir, name));
  };
  // The extension under development is the repository: its example scripts.
  const LIFECYCLE = path.join(extension().extensionPath, 'examples', 'demo-workspace', 'scripts', 'iou-lifecycle.ledger.json');
  let good: vscode.Uri;
  let broken: vscode.Uri;

  before(async () => {
    const { api } = await scripted();
    await demoParticipant(api);
    const text = fs.readFileSync(LIFECYCLE, 'utf8');
    good = write('lifecycle.ledger.json', text);
    broken = write('broken.ledger.json', text.replace('"fields": { "amount": "40" }', '"fields": { "amount": "45" }'));
  });
  after(async () => {
    await closeEditors();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists the scripts with their steps at their lines', async () => {
    const { api } = await scripted();
    await api.scripts.discover();
    const item = api.scripts.controller.items.get(good.toString());
    assert.ok(item, 'the script is a test');
    const steps: Array<[string, number | undefined]> = [];
    item.children.forEach((c) => steps.push([c.label, c.range?.start.line]));
    assert.deepEqual(steps.map(([label]) => label), ['1. Bank issues an Iou to Alice', '2. Alice transfers it to Bob', '3. Bob splits it', "4. Alice's Iou is archived", "5. Charlie does not see Bob's Iou"]);
    assert.deepEqual(steps.map(([, line]) => line), [4, 24, 40, 56, 61]);
  });

  it('Run Script runs every step against the demo; a broken copy fails at its step, and the rest is not run', async () => {
    const { api } = await scripted();
    await vscode.commands.executeCommand('cantonLedger.scripts.run', good);
    const results = (uri: vscode.Uri) => {
      const item = api.scripts.controller.items.get(uri.toString())!;
      const out: Array<string | undefined> = [];
      item.children.forEach((c) => out.push(api.scripts.lastStepResult(c)?.status));
      return { item, out };
    };
    assert.deepEqual(results(good).out, ['passed', 'passed', 'passed', 'passed', 'passed']);
    await vscode.commands.executeCommand('cantonLedger.scripts.run', broken);
    const { item, out } = results(broken);
    assert.deepEqual(out, ['passed', 'passed', 'failed', 'not-run', 'not-run']);
    const failed = api.scripts.lastStepResult(item.children.get(`${item.id}#2`)!)!;
    assert.equal(failed.failures[0].pointer, '/steps/2/expect/created/1');
    assert.match(failed.failures[0].message, /Expected 1 created #demo-iou:Iou:Iou with \{"amount":"45"\}/);
  });

  it("a step's transaction opens as a read-only document", async () => {
    const { api } = await scripted();
    const item = api.scripts.controller.items.get(good.toString())!;
    const step = item.children.get(`${item.id}#1`)!;
    await vscode.commands.executeCommand('cantonLedger.scripts.openStepResult', step);
    const editor = (await waitFor(() => vscode.window.visibleTextEditors.find((e) => e.document.uri.path.includes('/scripts/')), { what: 'the step result document' }))!;
    const shown = JSON.parse(editor.document.getText());
    assert.equal(shown.updateId, api.scripts.lastStepResult(step)!.transaction!.updateId);
    assert.match(shown.commandId, /^ledger-script-[0-9a-f]{8}-step-2$/);
  });

  it('while typing: a misspelt ${name} is a diagnostic at its place with the closest name', async () => {
    const uri = write('typo.ledger.json', fs.readFileSync(LIFECYCLE, 'utf8').replace('"contractId": "${bobIou}", "choice": "Iou_Split"', '"contractId": "${bobIuo}", "choice": "Iou_Split"'));
    await vscode.window.showTextDocument(uri);
    const diagnostic = (await waitFor(() => vscode.languages.getDiagnostics(uri).find((d) => d.code === 'unknown-name'), { what: 'the unknown-name diagnostic' }))!;
    assert.equal(diagnostic.message, '${bobIuo} is not a party alias or an earlier capture: did you mean ${bobIou}?');
    assert.equal(diagnostic.range.start.line, 45);
  });
});
