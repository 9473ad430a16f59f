/**
 * Ledger scripts in VS Code's Test Explorer: each `*.ledger.json` of the workspace is a test, each of
 * its steps a child placed at the step; Run and Re-run Failed run the core runner against the active
 * connection (a step runs with the steps before it, so a request for a step runs its whole script);
 * failures are test messages at the expectation that failed, with expected vs actual. A "Run Script"
 * CodeLens sits at the top of each script. Cancel stops the run; a step whose outcome is unknown stops
 * it too, and is never re-sent.
 */
import vscode = require('vscode');
import { JsonDocument } from '../../core/files/jsonDocument';
import type { LedgerConnection } from '../../core/ledger/connection';
import { FileRefusedError } from '../../core/localFile';
import { terminalText } from '../../core/text';
import { runScript, type ScriptRun, type StepFailure, type StepResult } from '../../core/scripts/run';
import { positionOf, SCRIPT_SUFFIX, scriptOf } from '../../core/scripts/script';
import type { CommandRegistry } from '../kit/registry';
import { Commands } from '../kit/ids';
import type { ConnectionManager } from '../connections/manager';
import type { JsonDocuments } from '../kit/documents';
import type { GraphCarrier } from '../graph/graphCommands';
import { Disposable } from '../kit/lifecycle';
import { isCancellation, summary, type Prompts } from '../kit/prompts';
import type { DarContents } from '../../core/daml/lf/archive';

export const SCRIPT_TEST_CONTROLLER_ID = 'cantonLedger.scripts';
const SCRIPT_GLOB = `**/*${SCRIPT_SUFFIX}`;

export interface ScriptTestsDeps {
  connections: ConnectionManager;
  documents: JsonDocuments;
  prompts: Prompts;
  readDar(bytes: Uint8Array): DarContents;
}

/** What the last run of a step gave, for Open Step Result and Show Graph: its result, and the connection it ran on. */
interface StepRecord {
  result: StepResult;
  connection: LedgerConnection;
}

export class ScriptTests extends Disposable {
  readonly controller: vscode.TestController;
  private readonly profile: vscode.TestRunProfile;
  private readonly lastRuns = new Map<string, StepRecord>();

  constructor(
    private readonly commands: CommandRegistry,
    private readonly deps: ScriptTestsDeps,
  ) {
    super();
    this.controller = this._register(vscode.tests.createTestController(SCRIPT_TEST_CONTROLLER_ID, 'Ledger Scripts'));
    this.controller.resolveHandler = (item) => (item ? this.readSteps(item) : this.discover());
    this.profile = this._register(this.controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => this.run(request, token), true));
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(SCRIPT_GLOB));
    this._registerAll(
      watcher.onDidCreate((uri) => void this.readSteps(this.fileItem(uri))),
      watcher.onDidChange((uri) => void this.readSteps(this.fileItem(uri))),
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
      // Typing moves the steps: their items follow the open document.
      vscode.workspace.onDidChangeTextDocument((e) => isScript(e.document.uri) && this.showSteps(this.fileItem(e.document.uri), e.document.getText())),
      vscode.workspace.onDidOpenTextDocument((d) => isScript(d.uri) && this.showSteps(this.fileItem(d.uri), d.getText())),
      vscode.languages.registerCodeLensProvider([{ scheme: 'file', pattern: SCRIPT_GLOB }, { scheme: 'vscode-remote', pattern: SCRIPT_GLOB }], {
        provideCodeLenses: (document) => [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: '$(run) Run Script', command: Commands.runLedgerScript, arguments: [document.uri] })],
      }),
    );
    commands.register(Commands.runLedgerScript, (arg?: vscode.Uri | vscode.TestItem) => this.runFile(arg));
    commands.register(Commands.openScriptStepResult, (item?: vscode.TestItem) => this.openStepResult(item));
    commands.register(Commands.showScriptStepGraph, (item?: vscode.TestItem) => this.showStepGraph(item));
    for (const d of vscode.workspace.textDocuments) if (isScript(d.uri)) this.showSteps(this.fileItem(d.uri), d.getText());
  }

  /** Every script of the workspace, as a test whose steps are read when it is expanded or run. */
  async discover(): Promise<void> {
    const found = await vscode.workspace.findFiles(SCRIPT_GLOB, '**/node_modules/**');
    await Promise.all(found.map((uri) => this.readSteps(this.fileItem(uri))));
  }

  /** The test of a script file (made when new). */
  fileItem(uri: vscode.Uri): vscode.TestItem {
    const id = uri.toString();
    const known = this.controller.items.get(id);
    if (known) return known;
    const item = this.controller.createTestItem(id, uri.path.split('/').pop() ?? id, uri);
    item.canResolveChildren = true;
    item.range = new vscode.Range(0, 0, 0, 0);
    this.controller.items.add(item);
    return item;
  }

  private async readSteps(item: vscode.TestItem): Promise<void> {
    if (!item.uri) return;
    this.showSteps(item, await textOf(item.uri));
  }

  /** The step items of a script's text, each at its step; a text that is not a script yet has none. */
  private showSteps(item: vscode.TestItem, text: string): void {
    const doc = new JsonDocument(text);
    let value: unknown;
    try {
      value = doc.syntaxProblems.length === 0 ? JSON.parse(text) : undefined;
    } catch {
      value = undefined;
    }
    item.error = value === undefined ? 'Not valid JSON: fix the file to see its steps.' : undefined;
    if (value === undefined) return;
    const steps = scriptOf(value).steps.map((s) => {
      const child = this.controller.createTestItem(`${item.id}#${s.index}`, `${s.index + 1}. ${s.name}`, item.uri);
      child.range = rangeOf(positionOf(doc, s.pointer));
      child.description = s.kind;
      return child;
    });
    item.children.replace(steps);
    item.canResolveChildren = false;
  }

  /** Run Script (the CodeLens, the editor's title): the script as the Test Explorer would run it. */
  async runFile(arg?: vscode.Uri | vscode.TestItem): Promise<void> {
    const uri = arg instanceof vscode.Uri ? arg : (arg?.uri ?? vscode.window.activeTextEditor?.document.uri);
    if (!uri || !isScript(uri)) throw new Error('Run Script runs a *.ledger.json file: open one first.');
    const item = this.fileItem(uri);
    const cancel = new vscode.CancellationTokenSource();
    try {
      await this.run(new vscode.TestRunRequest([item], undefined, this.profile), cancel.token);
    } finally {
      cancel.dispose();
    }
  }

  /** The scripts a request names (a step stands for its script: it needs the steps before it). */
  private scriptsOf(request: vscode.TestRunRequest): vscode.TestItem[] {
    const all: vscode.TestItem[] = [];
    this.controller.items.forEach((i) => all.push(i));
    const picked = request.include ? request.include.map((i) => i.parent ?? i) : all;
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    return [...new Map(picked.filter((i) => !excluded.has(i.id)).map((i) => [i.id, i])).values()];
  }

  async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const scripts = this.scriptsOf(request);
    const run = this.controller.createTestRun(request);
    const abort = new AbortController();
    const onCancel = token.onCancellationRequested(() => abort.abort());
    try {
      const connection = await this.connection();
      for (const script of scripts) {
        if (!connection) {
          run.errored(script, new vscode.TestMessage('No connected participant to run against: connect one and make it active (Canton Ledger: Select Connection).'));
          continue;
        }
        if (abort.signal.aborted) {
          run.skipped(script);
          continue;
        }
        await this.runScript(script, connection, run, abort.signal);
      }
    } finally {
      onCancel.dispose();
      run.end();
    }
  }

  private async connection(): Promise<LedgerConnection | undefined> {
    const active = this.deps.connections.activeConnection();
    if (active) return active;
    await this.commands.targets.resolve(undefined, { purpose: 'run ledger scripts' });
    return this.deps.connections.activeConnection();
  }

  private async runScript(script: vscode.TestItem, connection: LedgerConnection, run: vscode.TestRun, signal: AbortSignal): Promise<void> {
    const uri = script.uri!;
    const text = await textOf(uri);
    this.showSteps(script, text);
    const doc = new JsonDocument(text);
    const stepItem = (index: number) => script.children.get(`${script.id}#${index}`);
    run.enqueued(script);
    script.children.forEach((c) => run.enqueued(c));
    run.started(script);
    const started = Date.now();
    const folder = vscode.Uri.joinPath(uri, '..');
    let result: ScriptRun;
    try {
      result = await runScript(connection, text, {
        signal,
        readDar: (bytes) => this.deps.readDar(bytes),
        readFile: (path, maxBytes) => readRegularFile(vscode.Uri.joinPath(folder, path), maxBytes),
        onStepStarted: (s) => {
          const item = stepItem(s.index);
          if (item) run.started(item);
        },
        onStepFinished: (r) => this.report(run, stepItem(r.index), r, uri, doc, connection),
      });
    } catch (e) {
      // Before any step (connect, packages, parties): the script's own verdict, said as every failure is (a cancel is none).
      if (isCancellation(e)) run.skipped(script);
      else run.errored(script, new vscode.TestMessage(`The script could not run: ${connection.client.http.redactor.redact(summary(e))}`), Date.now() - started);
      return;
    }
    for (const s of result.steps) if (s.status === 'not-run') this.report(run, stepItem(s.index), s, uri, doc, connection);
    run.appendOutput(terminalText(`${script.label} (run ${result.runId}): ${result.status}`) + '\r\n');
    const duration = Date.now() - started;
    if (result.status === 'refused') {
      run.errored(script, result.problems.map((p) => located(`${p.message} [${p.code}]`, uri, rangeOf(p))), duration);
    } else if (result.status === 'passed') {
      run.passed(script, duration);
    } else {
      // The script's message at the step that stopped the run (not at line 1), and the editor at that
      // step's failure, where the step's own message (expected and actual) is: each on a line of its own,
      // since an editor shows one test message a line.
      const stopped = result.steps.find((s) => s.status === 'failed' || s.status === 'unknown');
      const stepAt = stopped ? rangeOf(positionOf(doc, `/steps/${stopped.index}`)) : new vscode.Range(0, 0, 0, 0);
      run.failed(script, located(statusText(result), uri, new vscode.Range(stepAt.start, stepAt.start)), duration);
      if (stopped) revealInEditors(uri, stopped.failures[0]?.pointer ? rangeOf(positionOf(doc, stopped.failures[0].pointer)) : stepAt);
    }
  }

  private report(run: vscode.TestRun, item: vscode.TestItem | undefined, r: StepResult, uri: vscode.Uri, doc: JsonDocument, connection: LedgerConnection): void {
    if (!item) return;
    this.lastRuns.set(item.id, { result: r, connection });
    run.appendOutput(terminalText(`  ${r.status.padEnd(7)} ${item.label}${r.summary ? ` — ${r.summary}` : ''}`) + '\r\n');
    const messages = () => r.failures.map((f) => failureMessage(f, uri, doc));
    switch (r.status) {
      case 'passed':
        return run.passed(item, r.durationMs);
      case 'failed':
        return run.failed(item, messages(), r.durationMs);
      case 'unknown':
        return run.errored(item, messages(), r.durationMs);
      case 'not-run':
        return run.skipped(item);
    }
  }

  private record(item: vscode.TestItem | undefined): StepRecord | undefined {
    return item ? this.lastRuns.get(item.id) : undefined;
  }

  /** What the last run of a step gave (the Test Explorer keeps its own copy; in-host tests read this one). */
  lastStepResult(item: vscode.TestItem): StepResult | undefined {
    return this.record(item)?.result;
  }

  /** The transaction of a step's last run, as a submission's result is shown. */
  async openStepResult(item?: vscode.TestItem): Promise<void> {
    const t = this.record(item)?.result.transaction;
    if (!t) {
      await this.deps.prompts.message('info', `${item?.label ?? 'This step'} has no transaction from its last run: run the script first (only a submit step that succeeded has one).`, []);
      return;
    }
    await this.deps.documents.show('scripts', `${item!.label.replace(/[^A-Za-z0-9_.-]+/g, '-')}-${t.updateId.slice(0, 12)}`, t.raw, { preview: true });
  }

  /** The transaction graph of a step's last run, on the connection it ran against. */
  async showStepGraph(item?: vscode.TestItem): Promise<void> {
    const record = this.record(item);
    const t = record?.result.transaction;
    if (!t || !record) {
      await this.deps.prompts.message('info', `${item?.label ?? 'This step'} has no transaction from its last run: run the script first.`, []);
      return;
    }
    // Read where the script ran, not from whichever connection is active now.
    const target: GraphCarrier = { updateId: t.updateId, connection: record.connection };
    await vscode.commands.executeCommand(Commands.showTransactionGraph, target);
  }
}

function isScript(uri: vscode.Uri): boolean {
  return uri.path.toLowerCase().endsWith(SCRIPT_SUFFIX);
}

/** A file a script names: a regular file (not a FIFO or a device, which VS Code's stat types Unknown) of at most `maxBytes`. */
async function readRegularFile(uri: vscode.Uri, maxBytes: number): Promise<Uint8Array> {
  const stat = await vscode.workspace.fs.stat(uri);
  if ((stat.type & vscode.FileType.File) === 0) throw new FileRefusedError(uri.fsPath, 'not-a-file', maxBytes);
  if (stat.size > maxBytes) throw new FileRefusedError(uri.fsPath, 'too-large', maxBytes);
  return vscode.workspace.fs.readFile(uri);
}

/** The open document's text (unsaved edits included), else the file's. */
async function textOf(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

function rangeOf(p: { line: number; column: number; endLine: number; endColumn: number }): vscode.Range {
  return new vscode.Range(p.line - 1, p.column - 1, p.endLine - 1, p.endColumn - 1);
}

/** The cursor at `range` in every editor that shows the file, scrolled to it when out of view; no editor is opened. */
function revealInEditors(uri: vscode.Uri, range: vscode.Range): void {
  for (const editor of vscode.window.visibleTextEditors) {
    if (editor.document.uri.toString() !== uri.toString()) continue;
    editor.selection = new vscode.Selection(range.start, range.start);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}

function located(message: string, uri: vscode.Uri, range: vscode.Range): vscode.TestMessage {
  const m = new vscode.TestMessage(message);
  m.location = new vscode.Location(uri, range);
  return m;
}

/** A failure as a test message at its place in the script, with expected vs actual when it has them. */
function failureMessage(f: StepFailure, uri: vscode.Uri, doc: JsonDocument): vscode.TestMessage {
  const m = f.expected !== undefined && f.actual !== undefined ? vscode.TestMessage.diff(f.message, f.expected, f.actual) : new vscode.TestMessage(f.message);
  m.location = new vscode.Location(uri, rangeOf(positionOf(doc, f.pointer)));
  return m;
}

function statusText(r: ScriptRun): string {
  const count = (s: StepResult['status']) => r.steps.filter((x) => x.status === s).length;
  const what = { failed: 'a step failed', unknown: "a step's outcome is unknown", interrupted: 'the run was cancelled', refused: 'the script has errors', passed: 'passed' }[r.status];
  return `Run ${r.runId}: ${what} (${count('passed')} passed, ${count('failed')} failed, ${count('unknown')} unknown, ${count('not-run')} not run).`;
}
