// The ledger's own Daml types in the editor, from a .dar in the workspace (no participant): argument
// diagnostics with their Daml types, completions of templates, fields and choices, hovers, quick
// fixes; and the note when there are no packages. Runs inside the extension host.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import { ARGUMENTS_UNCHECKED, SOURCE, waitForValue } from './editingHelpers';
import { activate, extension, waitFor, workspaceDir } from './helpers';

const ALICE = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';
const PING = '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping';
const PING_DAR = 'canton-builtin-admin-workflow-ping.dar';

function diagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
}

describe('Daml types from a workspace .dar', function () {
  this.timeout(60_000);
  let api: CantonLedgerApi;
  const darDir = () => path.join(workspaceDir(), 'daml-dars');
  const file = () => path.join(workspaceDir(), 'ping.commands.json');

  before(async function () {
    api = await activate<CantonLedgerApi>();
    const shared = path.resolve(extension().extensionPath, '../shared/daml/dars', PING_DAR);
    if (!fs.existsSync(shared)) {
      console.warn(`!!! SKIPPING the Daml types suite: ${shared} is missing (the shared DARs live beside the repository)`);
      this.skip();
    }
    // No connection: the workspace's .dar is the source of the packages.
    if (api.demo.participant) await vscode.commands.executeCommand('cantonLedger.demo.stop');
    await api.connections.profiles.setActive(undefined);
    fs.mkdirSync(darDir(), { recursive: true });
    fs.copyFileSync(shared, path.join(darDir(), PING_DAR));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(darDir(), { recursive: true, force: true });
    fs.rmSync(file(), { force: true });
    // The next suites check files without packages again.
    await waitFor(() => api.packages.current() === 'unavailable' || !api.packages.current(), { what: 'the DAR packages gone' });
  });

  it('reads the packages of the .dar and checks the arguments against them, each problem with its Daml type', async () => {
    await waitFor(() => {
      const c = api.packages.current();
      return typeof c === 'object' && c.source.includes(PING_DAR);
    }, { timeoutMs: 20_000, what: `the packages of ${PING_DAR}` });
    fs.writeFileSync(file(), JSON.stringify({ commandId: 'ping-1', actAs: [ALICE], commands: [{ CreateCommand: { templateId: PING, createArguments: { id: 7, initator: ALICE, responder: ALICE } } }] }, null, 2));
    const doc = await vscode.workspace.openTextDocument(file());
    await vscode.window.showTextDocument(doc);
    const found = await waitForValue(() => {
      const d = diagnostics(doc.uri);
      return d.some((x) => x.code === 'unknown-field') ? d : undefined;
    }, { what: 'argument diagnostics' });
    const byCode = (code: string) => found.find((d) => d.code === code)!;
    assert.equal(doc.getText(byCode('unknown-field').range), '"initator"');
    assert.match(byCode('unknown-field').message, /initiator/);
    assert.equal(doc.getText(byCode('wrong-kind').range), '7');
    assert.match(byCode('wrong-kind').message, /Text/);
    assert.match(byCode('missing-field').message, /initiator.*Party/);
    assert.ok(found.every((d) => d.code !== ARGUMENTS_UNCHECKED));
  });

  it('quick fixes rename the field and quote the number; then the file is clean', async () => {
    const doc = await vscode.workspace.openTextDocument(file());
    for (const [code, title] of [['unknown-field', /^Rename "initator" to "initiator"$/], ['wrong-kind', /^Write 7 as a string$/]] as const) {
      const d = diagnostics(doc.uri).find((x) => x.code === code)!;
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, d.range, vscode.CodeActionKind.QuickFix.value);
      const fix = actions.find((a) => title.test(a.title) && a.edit);
      assert.ok(fix, `a quick fix for ${code}: ${actions.map((a) => a.title).join(', ')}`);
      await vscode.workspace.applyEdit(fix.edit!);
      await waitFor(() => !diagnostics(doc.uri).some((x) => x.code === code), { what: `${code} fixed` });
    }
    await waitFor(() => diagnostics(doc.uri).length === 0, { what: 'no problem left' });
    assert.deepEqual(JSON.parse(doc.getText()).commands[0].CreateCommand.createArguments, { id: '7', initiator: ALICE, responder: ALICE });
  });

  it('completes template ids, the fields still missing (with their Daml types) and choices', async () => {
    const doc = await vscode.workspace.openTextDocument(file());
    const editor = await vscode.window.showTextDocument(doc);
    const text = JSON.stringify({ commandId: 'ping-2', actAs: [ALICE], commands: [{ ExerciseCommand: { templateId: PING, contractId: '00ab', choice: '', choiceArgument: {} } }] }, null, 2);
    await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text));
    const at = (needle: string, shift: number) => doc.positionAt(doc.getText().indexOf(needle) + shift);
    const complete = async (pos: vscode.Position) => (await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, pos)).items;

    const choices = await complete(at('"choice": ""', '"choice": "'.length));
    for (const name of ['Respond', 'AbortPing', 'Archive']) assert.ok(choices.some((c) => c.label === name && /choice/.test(String(c.detail))), `choice ${name}`);

    const templates = await complete(at(PING, 3));
    assert.ok(templates.some((c) => c.label === PING && c.kind === vscode.CompletionItemKind.Class), 'the template id');

    // Inside an empty choiceArgument of AbortPing: its field "anyone", a Party.
    await editor.edit((b) => b.replace(new vscode.Range(at('"choice": ""', 0), at('"choice": ""', '"choice": ""'.length)), '"choice": "AbortPing"'));
    const fields = await complete(at('"choiceArgument": {}', '"choiceArgument": {'.length));
    const anyone = fields.find((c) => c.label === 'anyone');
    assert.ok(anyone, fields.map((c) => c.label).join(', '));
    assert.equal(anyone.detail, 'Party');
  });

  it('hovers show the Daml type of a field and the signature of the template and choice', async () => {
    const doc = await vscode.workspace.openTextDocument(file());
    const hoverText = async (needle: string) => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, doc.positionAt(doc.getText().indexOf(needle) + 2));
      return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
    };
    assert.match(await hoverText(PING), /template Ping[\s\S]*initiator : Party/);
    assert.match(await hoverText('"AbortPing"'), /choice AbortPing : AbortPing -> \(\)/);
  });

  it('without packages (the .dar gone, no participant) a note says the arguments were not checked', async () => {
    // The folder goes (not only the file): the packages must go with it.
    fs.rmSync(darDir(), { recursive: true, force: true });
    const doc = await vscode.workspace.openTextDocument(file());
    const note = await waitForValue(() => diagnostics(doc.uri).find((d) => d.code === ARGUMENTS_UNCHECKED), { timeoutMs: 20_000, what: 'the arguments-unchecked note' });
    assert.equal(note.severity, vscode.DiagnosticSeverity.Information);
    assert.match(note.message, /connect to one|\.dar/);
  });
});

describe('Daml packages from a participant: each read once', function () {
  this.timeout(60_000);
  type ParticipantModule = typeof import('../../../src/participant');
  let api: CantonLedgerApi;
  let previouslyActive: string | undefined;
  let profileId = '';
  let p: import('../../../src/participant').DemoParticipant;
  const archiveReads: string[] = [];

  before(async () => {
    api = await activate<CantonLedgerApi>();
    previouslyActive = api.connections.profiles.active()?.id;
    // Earlier suites read the same (deterministic) demo packages: start from nothing known.
    api.packages.forgetDecoded();
    fs.rmSync(api.packages.cacheDir.fsPath, { recursive: true, force: true });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(extension().extensionPath, 'dist', 'participant.js')) as ParticipantModule;
    p = await mod.startDemoParticipant({
      port: 0,
      seed: 19,
      onExchange: (x) => {
        if (x.method === 'GET' && /^\/v2\/packages\/[0-9a-f]{64}$/.test(x.path)) archiveReads.push(x.path);
      },
    });
    const profile = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', { name: 'E2E packages', url: p.url, auth: 'none', userId: 'demo-admin' });
    profileId = profile.id;
    await vscode.commands.executeCommand('cantonLedger.connections.setActive', profileId);
    await api.connections.connectionFor(api.connections.profiles.get(profileId)!).connect();
  });
  after(async () => {
    await api.connections.profiles.remove(profileId);
    // Without a connection to go back to (the suite run alone), the command would ask which one.
    if (previouslyActive) await vscode.commands.executeCommand('cantonLedger.connections.setActive', previouslyActive);
    await p.close();
  });

  const ready = async () => (await waitFor(() => api.packages.indexFor(api.connections.connection(profileId)!), { timeoutMs: 20_000, what: 'the packages read' }))!;

  it('fetches and decodes each package once, keeps it on disk by id, and a new window reads it from there', async () => {
    const index = await ready();
    const ids = index.packages().map((x) => x.id);
    assert.ok(ids.length >= 4, `the demo's packages (${ids.length})`);
    assert.ok(index.templates().some((t) => t.packageNameForm === '#demo-iou:Iou:Iou'));
    const firstReads = archiveReads.length;
    assert.equal(firstReads, ids.length, 'each package fetched once');
    for (const id of ids) assert.ok(fs.existsSync(path.join(api.packages.cacheDir.fsPath, `${id}.json`)), `${id} on disk`);

    // Read again in this window: nothing fetched (decoded packages are kept by id).
    api.packages.refresh(api.connections.connection(profileId)!);
    await ready();
    assert.equal(archiveReads.length, firstReads);

    // A new window: nothing in memory, the disk cache serves; still nothing fetched.
    api.packages.forgetDecoded();
    api.packages.refresh(api.connections.connection(profileId)!);
    const again = await ready();
    assert.equal(archiveReads.length, firstReads);
    assert.deepEqual(again.templates().map((t) => t.packageIdForm).sort(), index.templates().map((t) => t.packageIdForm).sort());
  });
});
