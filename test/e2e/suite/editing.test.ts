// Editing *.commands.json / *.vetting.json in the real editor: diagnostics (against the shared corpus and the
// CLI), completions, hovers. Runs inside the extension host.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isJsonSyntaxError, ourDiagnostics, waitForValue } from './editingHelpers';
import { activate, extension, waitFor, workspaceDir } from './helpers';

interface ExpectedProblem {
  line: number;
  column: number;
  code: string;
}

interface CliProblem extends ExpectedProblem {
  severity: 'error' | 'warning';
}

/** As the corpus and the CLI write them: 1-based, sorted by position. */
function asProblems(diagnostics: vscode.Diagnostic[]): CliProblem[] {
  return diagnostics
    .map((d) => ({ line: d.range.start.line + 1, column: d.range.start.character + 1, code: String(d.code), severity: d.severity === vscode.DiagnosticSeverity.Error ? ('error' as const) : ('warning' as const) }))
    .sort((a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
}

const byPosition = (a: ExpectedProblem, b: ExpectedProblem) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code);

/** Copies the corpus into the run's workspace, so that the editor opens it as user files. */
function corpusCopy(): { valid: string[]; invalid: string[] } {
  const from = path.join(extension().extensionPath, 'test/fixtures/files');
  const to = path.join(workspaceDir(), 'editing-corpus');
  const copy = (sub: string) => {
    fs.mkdirSync(path.join(to, sub), { recursive: true });
    return fs
      .readdirSync(path.join(from, sub))
      .filter((name) => name.endsWith('.json'))
      .map((name) => {
        fs.copyFileSync(path.join(from, sub, name), path.join(to, sub, name));
        return path.join(to, sub, name);
      })
      .filter((file) => !file.endsWith('.expected.json'));
  };
  const valid = copy('valid');
  // The Canton docs' request examples (beside the repo in ../shared, never copied into it) are valid full requests.
  const examples = path.resolve(extension().extensionPath, '../shared/canton-api/examples/submit-and-wait-for-transaction');
  const docExamples = fs.existsSync(examples)
    ? fs
        .readdirSync(examples)
        .filter((name) => name.endsWith('.json'))
        .map((name) => {
          const file = path.join(to, 'valid', name.replace(/\.json$/, '.commands.json'));
          fs.copyFileSync(path.join(examples, name), file);
          return file;
        })
    : [];
  return { valid: [...valid, ...docExamples], invalid: copy('invalid') };
}

/** What `canton-ledger --json validate` prints for the files, by file. */
function cliProblems(files: string[]): Promise<Map<string, CliProblem[]>> {
  // The CLI is not in the .vsix (it ships in the npm package): the runner names the repo's build.
  const cli = process.env.E2E_CLI;
  if (!cli) return Promise.reject(new Error('E2E_CLI is not set: run the suites through test/e2e/run.mjs or electron.mjs'));
  return new Promise((resolve, reject) => {
    // The extension host's executable is node (code-server) or Electron run as node (desktop).
    execFile(process.execPath, [cli, '--json', 'validate', ...files], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      // Exit 1 means "a file has errors", which is expected here; anything else is a failure.
      if (error && error.code !== 1) return reject(new Error(`CLI failed (${String(error.code)}): ${stderr}`));
      const result = new Map<string, CliProblem[]>();
      for (const line of stdout.split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as { file: string; problems: CliProblem[] };
        result.set(entry.file, entry.problems.map((p) => ({ line: p.line, column: p.column, code: p.code, severity: p.severity })).sort(byPosition));
      }
      resolve(result);
    });
  });
}

describe('editing: diagnostics', function () {
  this.timeout(60_000);
  let corpus: { valid: string[]; invalid: string[] };

  before(async () => {
    await activate();
    corpus = corpusCopy();
  });
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('marks the invalid corpus exactly as its .expected.json says, and as the CLI prints it (line, column, code, severity); syntax errors once, by VS Code', async () => {
    assert.ok(corpus.invalid.length >= 15, `only ${corpus.invalid.length} invalid corpus files`);
    const cli = await cliProblems(corpus.invalid);
    const notSyntax = (p: ExpectedProblem) => p.code !== 'json-syntax';
    for (const file of corpus.invalid) {
      const name = path.basename(file);
      const expected = (JSON.parse(fs.readFileSync(file.replace(/\.json$/, '.expected.json'), 'utf8')) as ExpectedProblem[]).sort(byPosition);
      assert.deepEqual(cli.get(file)?.map(({ line, column, code }) => ({ line, column, code })), expected, `${name}: CLI vs .expected.json`);
      // Syntax errors are VS Code's JSON support's to show (its server answers after ours); the rest are ours.
      const syntaxLines = (uri: vscode.Uri) => new Set(vscode.languages.getDiagnostics(uri).filter(isJsonSyntaxError).map((d) => d.range.start.line + 1));
      let seen = '';
      const shown = await waitForValue(async () => {
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
        const ours = asProblems(ourDiagnostics(doc.uri));
        const vscodeSyntax = syntaxLines(doc.uri);
        seen = JSON.stringify({ ours, vscodeSyntax: [...vscodeSyntax] });
        const syntaxShown = expected.filter((p) => !notSyntax(p)).every((p) => vscodeSyntax.has(p.line) || ours.some((o) => o.code === 'json-syntax' && o.line === p.line));
        // Once VS Code shows a syntax error, the extension takes its own back.
        const twice = ours.some((p) => p.code === 'json-syntax' && vscodeSyntax.has(p.line));
        return ours.length + vscodeSyntax.size > 0 && syntaxShown && !twice ? { ours, vscodeSyntax } : undefined;
      }, { timeoutMs: 30_000, what: `each syntax error of ${name} shown once, and the other diagnostics` }).catch((e: Error) => assert.fail(`${e.message}; last seen ${seen}`));
      assert.deepEqual(shown.ours.filter(notSyntax).map(({ line, column, code }) => ({ line, column, code })), expected.filter(notSyntax), `${name}: editor vs .expected.json`);
      assert.deepEqual(shown.ours.filter(notSyntax), cli.get(file)!.filter(notSyntax), `${name}: editor vs CLI`);
    }
  });

  it('marks nothing in the valid corpus, and the CLI agrees', async () => {
    const cli = await cliProblems(corpus.valid);
    const docs = await Promise.all(corpus.valid.map((f) => vscode.workspace.openTextDocument(vscode.Uri.file(f))));
    // The same documents, once the extension had every chance to publish something.
    await new Promise((r) => setTimeout(r, 500));
    for (const doc of docs) {
      assert.deepEqual(asProblems(ourDiagnostics(doc.uri)), [], path.basename(doc.uri.fsPath));
      assert.deepEqual(cli.get(doc.uri.fsPath), [], `CLI: ${path.basename(doc.uri.fsPath)}`);
    }
  });

  it('shows a syntax error once: VS Code\'s JSON support reports it, the extension does not repeat it', async () => {
    const file = path.join(workspaceDir(), 'editing-syntax-once.commands.json');
    fs.writeFileSync(file, '{\n  "commandId": "once"\n  "actAs": ["Alice::1220ab"],\n  "commands": []\n}\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    const syntax = await waitForValue(() => {
      const found = vscode.languages.getDiagnostics(doc.uri).filter(isJsonSyntaxError);
      return found.length > 0 ? found : undefined;
    }, { timeoutMs: 30_000, what: "VS Code's syntax error" });
    assert.equal(syntax.length, 1, syntax.map((d) => d.message).join('; '));
    const line = syntax[0].range.start.line;
    // Ours are published on open, before VS Code's JSON server answers: once it has, the error is listed once.
    const atLine = () => vscode.languages.getDiagnostics(doc.uri).filter((d) => d.range.start.line === line && d.severity === vscode.DiagnosticSeverity.Error);
    await waitFor(() => atLine().length === 1, { what: 'the syntax error listed once' }).catch((e: Error) => assert.fail(`${e.message}: ${atLine().map((d) => `${d.source}: ${d.message}`).join('; ')}`));
    assert.equal(atLine()[0].source, 'json');
    assert.ok(!ourDiagnostics(doc.uri).some((d) => d.code === 'json-syntax'));
  });

  it('gives exact ranges, the source "Canton Ledger", codes and severities', async () => {
    const file = corpus.invalid.find((f) => f.endsWith('renamed-and-misspelt-fields.commands.json'))!;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const diagnostics = ourDiagnostics(doc.uri);
    const applicationId = diagnostics.find((d) => doc.getText(d.range) === '"applicationId"');
    assert.ok(applicationId, 'the key "applicationId" is the range');
    assert.equal(applicationId.code, 'deprecated-field');
    assert.equal(applicationId.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(applicationId.message, /userId/);
    const missingId = diagnostics.find((d) => d.code === 'missing-command-id');
    assert.equal(missingId?.severity, vscode.DiagnosticSeverity.Error);
  });

  it('follows edits (debounced) and clears once the text is fine again', async () => {
    const file = path.join(workspaceDir(), 'editing-live.commands.json');
    fs.writeFileSync(file, '{"commands": [{"CreateCommand": {"templateId": "#p:M:T", "createArguments": {}}}], "commandId": "live-1", "actAs": ["Alice::1220ab"]}\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const editor = await vscode.window.showTextDocument(doc);
    assert.deepEqual(ourDiagnostics(doc.uri), []);
    // Quick edits, each leaving invalid JSON but the last: only the final text counts.
    for (const chunk of [', "work', 'flowID": ', '"x"']) {
      await editor.edit((b) => b.insert(doc.positionAt(doc.getText().lastIndexOf('}')), chunk));
    }
    const [diagnostic] = await waitForValue(() => {
      const d = ourDiagnostics(doc.uri);
      return d.length === 1 && d[0].code !== 'json-syntax' ? d : undefined;
    }, { what: 'the diagnostic of the final text' });
    assert.equal(diagnostic.code, 'unknown-field');
    assert.equal(doc.getText(diagnostic.range), '"workflowID"');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor(() => ourDiagnostics(doc.uri).length === 0, { what: 'diagnostics cleared after revert' });
  });
});

describe('editing: completions and hovers (VS Code JSON support with the schemas)', function () {
  this.timeout(60_000);
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  async function completionsAt(name: string, text: string, marker = '|'): Promise<{ doc: vscode.TextDocument; labels: string[]; items: vscode.CompletionItem[] }> {
    const file = path.join(workspaceDir(), name);
    fs.writeFileSync(file, text.replace(marker, ''));
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    const position = doc.positionAt(text.indexOf(marker));
    // The JSON language server starts on first use and loads the schema: ask until it answers.
    const items = await waitForValue(async () => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, position);
      return list.items.length > 0 ? list.items : undefined;
    }, { timeoutMs: 30_000, what: `completions in ${name}` });
    const labels = items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    return { doc, labels, items };
  }

  it('offers a snippet for each command kind inside "commands"', async () => {
    const { labels } = await completionsAt('editing-complete.commands.json', '{\n  "commandId": "c",\n  "actAs": [],\n  "commands": [\n    |\n  ]\n}\n');
    for (const kind of ['CreateCommand', 'ExerciseCommand', 'CreateAndExerciseCommand', 'ExerciseByKeyCommand']) {
      assert.ok(labels.includes(kind), `${kind} in ${JSON.stringify(labels)}`);
    }
  });

  it('offers the fields of JsCommands, without the ones already there', async () => {
    const { labels } = await completionsAt('editing-fields.commands.json', '{\n  "commandId": "c",\n  |\n}\n');
    for (const field of ['actAs', 'readAs', 'userId', 'workflowId', 'synchronizerId', 'deduplicationPeriod', 'disclosedContracts']) {
      assert.ok(labels.some((l) => l.replace(/"/g, '') === field), `${field} in ${JSON.stringify(labels)}`);
    }
    assert.ok(!labels.some((l) => l.replace(/"/g, '') === 'commandId'), 'commandId is already set');
  });

  it('offers the enum values of a field', async () => {
    const { items } = await completionsAt('editing-enum.vetting.json', '{\n  "changes": [],\n  "updateVettedPackagesForceFlags": [|]\n}\n');
    // Long labels are shortened with "..."; what gets inserted is the whole value.
    const inserted = items.map((i) => (i.insertText instanceof vscode.SnippetString ? i.insertText.value : String(i.insertText ?? i.label)));
    for (const value of ['UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES', 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES']) {
      assert.ok(inserted.some((t) => t.includes(`"${value}"`)), `${value} in ${JSON.stringify(inserted)}`);
    }
  });

  it('offers whole-file snippets in an empty commands file', async () => {
    const { labels } = await completionsAt('editing-empty.commands.json', '|');
    assert.ok(labels.includes('New command submission') && labels.includes('New submit-and-wait-for-transaction request'), JSON.stringify(labels));
  });

  it('offers the cases of a variant field and, in a full request, the transaction shapes', async () => {
    const dedup = await completionsAt('editing-dedup.commands.json', '{\n  "commandId": "c",\n  "deduplicationPeriod": {|}\n}\n');
    for (const kind of ['DeduplicationDuration', 'DeduplicationOffset']) assert.ok(dedup.labels.some((l) => l.replace(/"/g, '') === kind), `${kind} in ${JSON.stringify(dedup.labels)}`);
    // The full request form is told apart by the schema's if/then/else: VS Code must follow it too.
    const shape = await completionsAt('editing-shape.commands.json', '{\n  "commands": {"commandId": "c", "actAs": [], "commands": []},\n  "transactionFormat": {"transactionShape": |}\n}\n');
    const inserted = shape.items.map((i) => (i.insertText instanceof vscode.SnippetString ? i.insertText.value : String(i.insertText ?? i.label)));
    for (const value of ['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS']) assert.ok(inserted.some((t) => t.includes(value)), `${value} in ${JSON.stringify(inserted)}`);
  });

  it('offers Vet and Unvet snippets for a vetting change', async () => {
    const { labels } = await completionsAt('editing-vet.vetting.json', '{\n  "changes": [\n    |\n  ]\n}\n');
    assert.ok(labels.includes('Vet') && labels.includes('Unvet'), JSON.stringify(labels));
  });

  it('shows the field description on hover', async () => {
    const file = path.join(workspaceDir(), 'editing-hover.commands.json');
    const text = '{\n  "commandId": "c",\n  "actAs": [],\n  "commands": []\n}\n';
    fs.writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const position = doc.positionAt(text.indexOf('commandId') + 3);
    const hovers = await waitForValue(async () => {
      const h = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, position);
      return h.length > 0 ? h : undefined;
    }, { timeoutMs: 30_000, what: 'a hover' });
    const text2 = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text2, /deduplicat/i, text2);
  });
});


describe('editing: one report per problem', function () {
  this.timeout(30_000);

  it("VS Code's JSON support does not repeat the problems our diagnostics report (missing and unknown fields)", async () => {
    await activate();
    const file = path.join(workspaceDir(), 'no-duplicates.commands.json');
    fs.writeFileSync(file, JSON.stringify({ applicationId: 'app', actAs: [], commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: {} } }] }, null, 2));
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const ours = await waitForValue(() => {
      const d = ourDiagnostics(doc.uri);
      return d.length > 0 ? d : undefined;
    }, { what: 'our diagnostics' });
    assert.ok(ours.some((d) => /commandId/.test(d.message)), 'we report the missing commandId');
    assert.ok(ours.some((d) => /applicationId/.test(d.message)), 'we report applicationId');
    // The JSON language service validates a moment later; give it that moment, then compare.
    await new Promise((r) => setTimeout(r, 1500));
    const theirs = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source !== 'Canton Ledger');
    assert.deepEqual(theirs.map((d) => `${d.source}: ${d.message}`), []);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
