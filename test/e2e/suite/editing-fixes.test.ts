// Quick fixes and New … File commands for *.commands.json / *.vetting.json, in the real editor against the
// demo participant. Runs inside the extension host.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import { editorDiagnostics, ourDiagnostics, waitForValue } from './editingHelpers';
import { deadUrl } from '../../support/deadPort';
import { activate, waitFor, workspaceDir } from './helpers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ALICE = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';
// Complete arguments: the demo participant's packages check them too.
const CREATE = `{"CreateCommand": {"templateId": "#demo-iou:Iou:Iou", "createArguments": {"issuer": "${ALICE}", "owner": "${ALICE}", "currency": "USD", "amount": "1.0", "observers": []}}}`;

let api: CantonLedgerApi;
let startedDemo = false;

async function writeAndOpen(name: string, text: string): Promise<vscode.TextDocument> {
  const file = path.join(workspaceDir(), name);
  fs.writeFileSync(file, text);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  await vscode.window.showTextDocument(doc);
  return doc;
}

async function diagnosticWith(doc: vscode.TextDocument, code: string): Promise<vscode.Diagnostic> {
  return waitForValue(() => editorDiagnostics(doc.uri).find((d) => d.code === code), { timeoutMs: 30_000, what: `a ${code} diagnostic` });
}

/** The quick fixes VS Code offers at the diagnostic's range (what the light bulb shows there). */
async function fixesAt(doc: vscode.TextDocument, diagnostic: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  // The command returns the actions without their `diagnostics`: they are told apart by title.
  return vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
}

/** Applies the fix titled like `title` and waits until the problem's diagnostic is gone. */
async function applyFix(doc: vscode.TextDocument, code: string, title: RegExp, { preferred }: { preferred?: boolean } = {}): Promise<void> {
  const diagnostic = await diagnosticWith(doc, code);
  const fixes = await fixesAt(doc, diagnostic);
  const fix = fixes.find((f) => title.test(f.title));
  assert.ok(fix, `no fix ${String(title)} among ${JSON.stringify(fixes.map((f) => f.title))}`);
  if (preferred !== undefined) assert.equal(!!fix.isPreferred, preferred, `isPreferred of "${fix.title}"`);
  assert.ok(fix.edit, 'the fix is an edit');
  assert.ok(await vscode.workspace.applyEdit(fix.edit));
  await waitFor(() => !editorDiagnostics(doc.uri).some((d) => d.code === code && d.range.isEqual(diagnostic.range)), { what: `the ${code} diagnostic gone after "${fix.title}"` });
}

describe('editing: quick fixes', function () {
  this.timeout(60_000);

  before(async () => {
    api = await activate<CantonLedgerApi>();
    startedDemo = !api.demo.participant;
    await vscode.commands.executeCommand('cantonLedger.demo.start');
    const demo = api.connections.profiles.active();
    assert.equal(demo && api.connections.connection(demo.id)!.state.state, 'connected');
  });
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('inserts a fresh commandId UUID (preferred)', async () => {
    const doc = await writeAndOpen('fix-command-id.commands.json', `{\n  "actAs": ["${ALICE}"],\n  "commands": [${CREATE}]\n}\n`);
    await applyFix(doc, 'missing-command-id', /commandId/, { preferred: true });
    assert.match((JSON.parse(doc.getText()) as { commandId: string }).commandId, UUID);
    assert.deepEqual(ourDiagnostics(doc.uri), []);
  });

  it('fills an empty actAs with a party the demo user may act as', async () => {
    const doc = await writeAndOpen('fix-act-as.commands.json', `{\n  "commandId": "fix-act-as",\n  "actAs": [],\n  "commands": [${CREATE}]\n}\n`);
    const demo = api.connections.profiles.active()!;
    const state = api.connections.connection(demo.id)!.state;
    assert.ok(state.state === 'connected' && state.info.rights && state.info.rights.actAs.length > 1, 'demo-admin acts as several parties');
    const alice = state.info.rights.actAs.find((p) => p.startsWith('Alice::'))!;
    // Several parties to choose from: one fix each, none preferred.
    await applyFix(doc, 'empty-act-as', new RegExp(`Act as ${alice}`), { preferred: false });
    assert.deepEqual((JSON.parse(doc.getText()) as { actAs: string[] }).actAs, [alice]);
  });

  it('renames deprecated and misspelt fields (preferred) and removes a field with no suggestion', async () => {
    const doc = await writeAndOpen(
      'fix-names.commands.json',
      `{\n  "comandId": "fix-names",\n  "actAs": ["${ALICE}"],\n  "applicationId": "my-app",\n  "priority": "high",\n  "commands": [${CREATE}]\n}\n`,
    );
    await applyFix(doc, 'deprecated-field', /Rename "applicationId" to "userId"/, { preferred: true });
    await applyFix(doc, 'unknown-field', /Rename "comandId" to "commandId"/, { preferred: true });
    await applyFix(doc, 'unknown-field', /Remove "priority"/, { preferred: false });
    assert.deepEqual(JSON.parse(doc.getText()), { commandId: 'fix-names', actAs: [ALICE], userId: 'my-app', commands: [JSON.parse(CREATE)] });
    assert.deepEqual(ourDiagnostics(doc.uri), []);
  });

  it('renames a misspelt command kind', async () => {
    const doc = await writeAndOpen('fix-variant.commands.json', `{"commandId": "v", "actAs": ["${ALICE}"], "commands": [${CREATE.replace('CreateCommand', 'CreateComand')}]}\n`);
    await applyFix(doc, 'unknown-variant', /Rename "CreateComand" to "CreateCommand"/, { preferred: true });
    assert.deepEqual(ourDiagnostics(doc.uri), []);
  });

  it('drops a needless {"value": …} around a command and removes a key next to the command kind', async () => {
    const doc = await writeAndOpen('fix-wrapper.commands.json', `{"commandId": "w", "actAs": ["${ALICE}"], "commands": [{"value": ${CREATE}}, {"note": "x", ${CREATE.slice(1)}]}\n`);
    await applyFix(doc, 'unknown-variant', /Remove the "value" wrapper/, { preferred: true });
    await applyFix(doc, 'unknown-variant', /Remove "note"/, { preferred: false });
    assert.deepEqual(ourDiagnostics(doc.uri), []);
    assert.deepEqual((JSON.parse(doc.getText()) as { commands: unknown[] }).commands, [JSON.parse(CREATE), JSON.parse(CREATE)]);
  });

  it('replaces a package-id template id with the package-name form the demo participant knows', async () => {
    const demo = api.connections.profiles.active()!;
    const states = await api.connections.connectionFor(demo).client.listVettedPackages();
    const iou = states.flatMap((s) => s.packages).find((p) => p.packageName === 'demo-iou');
    assert.ok(iou, 'the demo participant vets demo-iou');
    const doc = await writeAndOpen('fix-package-id.commands.json', `{"commandId": "p", "actAs": ["${ALICE}"], "commands": [${CREATE.replace('#demo-iou', iou.packageId)}]}\n`);
    await applyFix(doc, 'package-id-template', /#demo-iou:Iou:Iou/, { preferred: true });
    assert.match(doc.getText(), /"templateId": "#demo-iou:Iou:Iou"/);
  });

  it('offers no package-name fix for a package the participant does not know', async () => {
    const unknown = 'ab'.repeat(32);
    const doc = await writeAndOpen('fix-package-unknown.commands.json', `{"commandId": "p", "actAs": ["${ALICE}"], "commands": [${CREATE.replace('#demo-iou', unknown)}]}\n`);
    const diagnostic = await diagnosticWith(doc, 'package-id-template');
    assert.deepEqual((await fixesAt(doc, diagnostic)).map((f) => f.title), []);
  });

  it('wraps a vetting case in {"value": …} and writes a quoted serial as a number', async () => {
    const doc = await writeAndOpen(
      'fix-vetting.vetting.json',
      '{\n  "changes": [{"operation": {"Vet": {"packages": [{"packageName": "demo-iou"}]}}}],\n  "expectedTopologySerial": {"serial": {"Prior": {"value": "3"}}}\n}\n',
    );
    await applyFix(doc, 'missing-field', /Wrap the fields in \{"value": …\}/, { preferred: true });
    await applyFix(doc, 'schema', /Write 3 as a number/, { preferred: true });
    assert.deepEqual(ourDiagnostics(doc.uri), []);
    assert.deepEqual(JSON.parse(doc.getText()), {
      changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou' }] } } } }],
      expectedTopologySerial: { serial: { Prior: { value: 3 } } },
    });
  });

  it('removes a duplicate key, one of two conflicting fields, and a trailing comma', async () => {
    const doc = await writeAndOpen(
      'fix-misc.commands.json',
      `{\n  "commandId": "a",\n  "actAs": ["${ALICE}",],\n  "commands": [${CREATE}]\n}\n`,
    );
    await applyFix(doc, 'json-syntax', /trailing comma/, { preferred: true });
    assert.deepEqual(ourDiagnostics(doc.uri), []);

    const dup = await writeAndOpen('fix-dup.commands.json', `{"commandId": "a", "actAs": ["${ALICE}"], "commandId": "b", "minLedgerTimeAbs": "2025-01-27T15:30:00Z", "minLedgerTimeRel": {"seconds": 30}, "commands": [${CREATE}]}\n`);
    await applyFix(dup, 'duplicate-key', /Remove this duplicate "commandId"/, { preferred: false });
    await applyFix(dup, 'conflicting-fields', /Remove "minLedgerTime/, { preferred: false });
    assert.deepEqual(ourDiagnostics(dup.uri), []);
  });
});

describe('editing: New Commands File / New Vetting File', function () {
  this.timeout(60_000);
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
  after(async () => {
    if (startedDemo) await vscode.commands.executeCommand('cantonLedger.demo.stop');
  });

  it('creates a commands file filled from the demo connection; its placeholder template id is a problem until replaced', async () => {
    const target = vscode.Uri.file(path.join(workspaceDir(), 'created.commands.json'));
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cantonLedger.files.newCommands', { uri: target });
    assert.equal(uri?.toString(), target.toString());
    const value = JSON.parse(fs.readFileSync(target.fsPath, 'utf8')) as Record<string, unknown>;
    const demo = api.connections.profiles.active()!;
    const state = api.connections.connection(demo.id)!.state;
    assert.ok(state.state === 'connected');
    assert.equal(value.userId, 'demo-admin');
    assert.deepEqual(value.actAs, [state.info.rights!.actAs[0]]);
    assert.match(String(value.commandId), UUID);
    assert.equal(value.synchronizerId, state.info.synchronizers[0].synchronizerId);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), target.toString(), 'opened');
    const problems = await waitForValue(() => {
      const d = ourDiagnostics(target);
      return d.length > 0 ? d : undefined;
    }, { what: 'the placeholder flagged' });
    assert.deepEqual(problems.map((d) => d.code), ['placeholder']);

    const again = await vscode.commands.executeCommand<vscode.Uri>('cantonLedger.files.newCommands', { uri: vscode.Uri.file(path.join(workspaceDir(), 'created-2.commands.json')) });
    assert.notEqual((JSON.parse(fs.readFileSync(again.fsPath, 'utf8')) as { commandId: string }).commandId, value.commandId, 'a fresh commandId');
  });

  it('creates a complete command for a template or choice of the participant (as the Packages view asks), valid but for the placeholders to fill in', async () => {
    await waitFor(() => api.packages.indexFor(api.connections.active()!), { what: 'the demo packages read' });
    const create = vscode.Uri.file(path.join(workspaceDir(), 'create-iou.commands.json'));
    await vscode.commands.executeCommand('cantonLedger.files.newCommands', { uri: create, templateId: '#demo-iou:Iou:Iou' });
    const value = JSON.parse(fs.readFileSync(create.fsPath, 'utf8')) as { commands: Array<{ CreateCommand: { createArguments: Record<string, unknown> } }>; actAs: string[] };
    assert.deepEqual(Object.keys(value.commands[0].CreateCommand.createArguments).sort(), ['amount', 'currency', 'issuer', 'observers', 'owner']);
    assert.equal(value.commands[0].CreateCommand.createArguments.issuer, value.actAs[0]);
    // The values nothing is known of are marked placeholders, flagged until replaced; nothing else is flagged.
    const flagged = await waitForValue(() => {
      const d = ourDiagnostics(create);
      return d.length >= 2 ? d : undefined;
    }, { what: 'the placeholders flagged' });
    assert.deepEqual(flagged.map((d) => d.code), ['placeholder', 'placeholder']);

    const exercise = vscode.Uri.file(path.join(workspaceDir(), 'transfer-iou.commands.json'));
    await vscode.commands.executeCommand('cantonLedger.files.newCommands', { uri: exercise, templateId: '#demo-iou:Iou:Iou', choice: 'Iou_Transfer' });
    const problems = await waitForValue(() => {
      const d = ourDiagnostics(exercise);
      return d.length > 0 ? d : undefined;
    }, { what: 'the contract id placeholder flagged' });
    assert.ok(problems.every((d) => /<contract-id>|<Party>/.test(vscode.window.activeTextEditor!.document.getText(d.range))), problems.map((d) => d.message).join('; '));
  });

  it('creates a vetting file with the synchronizer and current topology serial of the demo participant', async () => {
    const demo = api.connections.profiles.active()!;
    const state = api.connections.connection(demo.id)!.state;
    assert.ok(state.state === 'connected');
    const synchronizerId = state.info.synchronizers[0].synchronizerId;
    const current = (await api.connections.connectionFor(demo).client.listVettedPackages()).find((s) => s.synchronizerId === synchronizerId);
    assert.ok(current, 'the demo participant has vetted packages');

    const target = path.join(workspaceDir(), 'created.vetting.json');
    await vscode.commands.executeCommand('cantonLedger.files.newVetting', { uri: target });
    const value = JSON.parse(fs.readFileSync(target, 'utf8')) as Record<string, unknown>;
    assert.equal(value.synchronizerId, synchronizerId);
    assert.deepEqual(value.expectedTopologySerial, { serial: { Prior: { value: current.topologySerial } } });
    // Only the package to vet is left to fill in.
    const flagged = await waitForValue(() => {
      const d = ourDiagnostics(vscode.Uri.file(target));
      return d.length > 0 ? d : undefined;
    }, { what: 'the placeholder package flagged' });
    assert.deepEqual(flagged.map((d) => d.code), ['placeholder']);
  });

  it('takes the synchronizer and serial from its argument (as the vetted-packages view passes them)', async () => {
    const target = path.join(workspaceDir(), 'from-view.vetting.json');
    await vscode.commands.executeCommand('cantonLedger.files.newVetting', { synchronizerId: 'other-sync::1220ab', expectedTopologySerial: 7, uri: target });
    const value = JSON.parse(fs.readFileSync(target, 'utf8')) as Record<string, unknown>;
    assert.equal(value.synchronizerId, 'other-sync::1220ab');
    assert.deepEqual(value.expectedTopologySerial, { serial: { Prior: { value: 7 } } });
  });

  it('creates an untitled document named *.commands.json, which gets the diagnostics too', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cantonLedger.files.newCommands', { untitled: true });
    assert.equal(uri.scheme, 'untitled');
    assert.match(uri.path, /\.commands\.json$/);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    assert.ok(doc && doc.isDirty && doc.getText().includes('"CreateCommand"'));
    const editor = vscode.window.activeTextEditor!;
    await editor.edit((b) => b.replace(doc.getWordRangeAtPosition(doc.positionAt(doc.getText().indexOf('commandId') + 1))!, 'comandId'));
    await diagnosticWith(doc, 'unknown-field');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('uses marked placeholders when there is no connected participant', async () => {
    const demo = api.connections.profiles.active()!;
    // An active connection that cannot connect (nothing listens on port 9).
    const offline = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', { name: 'E2E Editing Offline', url: `${await deadUrl()}/`, auth: 'none' });
    try {
      await api.connections.profiles.setActive(offline.id);
      const target = path.join(workspaceDir(), 'offline.commands.json');
      await vscode.commands.executeCommand('cantonLedger.files.newCommands', { uri: target });
      const value = JSON.parse(fs.readFileSync(target, 'utf8')) as Record<string, unknown>;
      assert.equal(value.userId, '<user-id>');
      assert.deepEqual(value.actAs, ['<party-id::1220…>']);
      assert.match(String(value.commandId), UUID);
      const flagged = await waitForValue(() => {
        const d = ourDiagnostics(vscode.Uri.file(target));
        return d.length === 3 ? d : undefined;
      }, { what: 'the placeholders flagged' });
      assert.deepEqual(flagged.map((d) => d.code), ['placeholder', 'schema', 'schema']);

      // Without a participant a vetting file just has no synchronizer or serial guard.
      const vetting = path.join(workspaceDir(), 'offline.vetting.json');
      await vscode.commands.executeCommand('cantonLedger.files.newVetting', { uri: vetting });
      assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(vetting, 'utf8')) as object), ['changes']);
    } finally {
      await api.connections.profiles.remove(offline.id);
      await api.connections.profiles.setActive(demo.id);
    }
  });
});
