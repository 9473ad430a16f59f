// What the commands-file editor offers and flags against the demo participant (demo-iou 1.0.0 vetted,
// its upgrade 2.0.0 uploaded but not vetted): the version a package name stands for, generated values
// flagged as placeholders, and field completions that leave valid JSON. Runs inside the extension host.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import { isJsonSyntaxError, SOURCE, waitForValue } from './editingHelpers';
import { waitFor, workspaceDir } from './helpers';
import { closeEditors, demoParticipant, scripted } from './sendHelpers';

const IOU = '#demo-iou:Iou:Iou';

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
}

async function completions(doc: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
  return (await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, position)).items;
}

/** Accepts an item as VS Code does: its text (a snippet) over its range or at the cursor, then its other edits. */
async function accept(editor: vscode.TextEditor, item: vscode.CompletionItem, position: vscode.Position): Promise<void> {
  const range = item.range instanceof vscode.Range ? item.range : item.range?.replacing ?? new vscode.Range(position, position);
  const text = item.insertText instanceof vscode.SnippetString ? item.insertText : new vscode.SnippetString(String(item.insertText ?? item.label).replace(/[$}\\]/g, '\\$&'));
  assert.ok(await editor.insertSnippet(text, range));
  if (item.additionalTextEdits?.length) {
    const edit = new vscode.WorkspaceEdit();
    edit.set(editor.document.uri, item.additionalTextEdits);
    assert.ok(await vscode.workspace.applyEdit(edit));
  }
}

describe('commands files against the demo participant: versions, placeholders, completions', function () {
  this.timeout(60_000);
  let api: CantonLedgerApi;
  let startedDemo = false;
  let previouslyActive: string | undefined;
  const dir = () => path.join(workspaceDir(), 'completions-e2e');

  before(async () => {
    ({ api } = await scripted());
    startedDemo = !api.demo.participant;
    previouslyActive = api.connections.profiles.active()?.id;
    await demoParticipant(api);
    const demo = api.connections.profiles.active()!;
    await waitFor(() => {
      const c = api.packages.current();
      return typeof c === 'object' && c.packages.resolvePackageName('demo-iou') !== undefined;
    }, { timeoutMs: 20_000, what: "the demo participant's packages" });
    await waitFor(() => api.connections.connectionFor(demo).ledger?.vetting.state === 'ready', { timeoutMs: 20_000, what: 'its vetting state' });
    fs.mkdirSync(dir(), { recursive: true });
  });
  afterEach(closeEditors);
  // The suites after this one check files without a connection, as they found them.
  after(async () => {
    await api.connections.profiles.setActive(previouslyActive);
    if (startedDemo) await vscode.commands.executeCommand('cantonLedger.demo.stop');
  });

  it('names the version commands use (Canton\'s choice for the file\'s party: the highest vetted, 1.0.0) in the template picker, the completion and the hover alike', async () => {
    const { prompts } = await scripted();
    prompts.answerPick((items) => items.find((i) => i.label === IOU)).answerPick((items) => items[0]);
    const target = vscode.Uri.file(path.join(dir(), 'picked.commands.json'));
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cantonLedger.files.newCommands', { uri: target, pickTemplate: true });
    assert.ok(uri, 'a file was created');
    const offered = prompts.picks[0].items.find((i) => i.label === IOU);
    assert.match(String(offered?.description), /^\$\(check\) Canton will use demo-iou 1\.0\.0 for \w+$/);

    const doc = await vscode.workspace.openTextDocument(target);
    const at = doc.positionAt(doc.getText().indexOf(IOU) + 3);
    const item = (await completions(doc, at)).find((i) => i.label === IOU);
    assert.match(String(item?.detail), /Canton will use demo-iou 1\.0\.0 for \w+/);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
    const hover = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
    assert.match(hover, /Canton will use demo-iou 1\.0\.0 for \w+/);
    assert.match(hover, /template Iou {2}-- Iou, demo-iou 1\.0\.0/);
    assert.doesNotMatch(hover, /2\.0\.0/);
  });

  it('flags the generated values of a new Iou file until they are replaced, and not a value typed on purpose', async () => {
    const target = vscode.Uri.file(path.join(dir(), 'new-iou.commands.json'));
    await vscode.commands.executeCommand('cantonLedger.files.newCommands', { uri: target, templateId: IOU });
    const doc = await vscode.workspace.openTextDocument(target);
    const args = JSON.parse(doc.getText()).commands[0].CreateCommand.createArguments;
    assert.equal(args.currency, '<Text>');
    assert.equal(args.amount, '<Numeric 10>');
    const flagged = await waitForValue(() => {
      const d = ours(doc.uri).filter((x) => x.code === 'placeholder');
      return d.length === 2 ? d : undefined;
    }, { what: 'the two placeholders flagged' });
    assert.deepEqual(flagged.map((d) => doc.getText(d.range)).sort(), ['"<Numeric 10>"', '"<Text>"']);
    assert.ok(flagged.every((d) => d.severity === vscode.DiagnosticSeverity.Error));

    const editor = await vscode.window.showTextDocument(doc);
    const amount = doc.getText().indexOf('"<Numeric 10>"');
    await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(amount), doc.positionAt(amount + '"<Numeric 10>"'.length)), '"0.0"'));
    const left = await waitForValue(() => {
      const d = ours(doc.uri).filter((x) => x.code === 'placeholder');
      return d.length === 1 ? d : undefined;
    }, { what: 'the amount no longer flagged' });
    assert.equal(doc.getText(left[0].range), '"<Text>"');
  });

  const positions: Record<string, string> = {
    'after the last field, on a new line, no comma typed': '{\n        "issuer": "Alice",\n        "owner": "Alice"\n        |\n      }',
    'between two fields': '{\n        "issuer": "Alice",\n        |\n        "owner": "Alice"\n      }',
    'in an empty object': '{|}',
  };
  for (const [n, [where, args]] of Object.entries(positions).entries()) {
    it(`accepting a field completion ${where} leaves valid JSON`, async () => {
      // A file of its own: a document still open from the test before would keep its old text.
      const file = path.join(dir(), `complete-${n}.commands.json`);
      const text = `{\n  "commandId": "c-1",\n  "actAs": ["Alice"],\n  "commands": [\n    {"CreateCommand": {\n      "templateId": "${IOU}",\n      "createArguments": ${args}\n    }}\n  ]\n}\n`;
      fs.writeFileSync(file, text.replace('|', ''));
      const doc = await vscode.workspace.openTextDocument(file);
      const editor = await vscode.window.showTextDocument(doc);
      const position = doc.positionAt(text.indexOf('|'));
      const item = (await completions(doc, position)).find((i) => i.label === 'currency');
      assert.ok(item, 'currency is offered');
      await accept(editor, item, position);
      const value = JSON.parse(doc.getText()) as { commands: Array<{ CreateCommand: { createArguments: Record<string, unknown> } }> };
      assert.equal(value.commands[0].CreateCommand.createArguments.currency, '<Text>');
      // The editor agrees: its JSON support finds no syntax error in the new text.
      await waitFor(() => ours(doc.uri).some((d) => d.code === 'placeholder'), { what: 'the inserted text checked' });
      assert.deepEqual(vscode.languages.getDiagnostics(doc.uri).filter(isJsonSyntaxError).map((d) => d.message), []);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await closeEditors();
    });
  }
});
