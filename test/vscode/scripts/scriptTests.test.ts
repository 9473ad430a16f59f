// Ledger scripts in the Test Explorer, against the fake VS Code API and a demo participant: scripts and
// steps as test items at their places, runs reported per step, failures at the expectation with
// expected vs actual, Re-run Failed of a step running its script, cancel, no connection, the CodeLens
// command, and a step's transaction opened as a document and as a graph.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { silentLogger } from '../../../src/core/log';
import { PackageStore } from '../../../src/core/ledger/packages';
import { Redactor } from '../../../src/core/redact';
import type { DemoParticipant } from '../../../src/participant';
import { Commands } from '../../../src/vscode/kit/ids';
import { CommandRegistry } from '../../../src/vscode/kit/registry';
import type { ConnectionProfile } from '../../../src/core/connections';
import type { ToWebview } from '../../../src/core/graph/viewProtocol';
import { registerGraphs } from '../../../src/vscode/graph/graphCommands';
import { ErrorReporter, PromptsPort } from '../../../src/vscode/kit/prompts';
import { ScriptTests } from '../../../src/vscode/scripts/scriptTests';
import { FileDiagnostics } from '../../../src/vscode/files/editing/diagnostics';
import { LedgerPackages } from '../../../src/vscode/kit/ledgerPackages';
import { windowPrompts } from '../../../src/vscode/kit/ui';
import { start } from '../../participant/helpers';
import { REPO_ROOT } from '../../support/spec';
import { startFaultProxy } from '../../support/faultProxy';
import { sendWindow, type SendWindow } from '../files/sendHarness';
import { firstPosted } from '../graph/posted';
import { CancellationTokenSource, commands, fake, FakeTestController, FakeTestRun, TestMessage, Uri, window as fakeWindow, workspace, type FakeTestItem } from '../fake/vscode';

const EXAMPLES = join(REPO_ROOT, 'examples/demo-workspace/scripts');

describe('ledger scripts in the Test Explorer (fake VS Code API)', function () {
  this.timeout(60_000);
  let p: DemoParticipant;
  let window: SendWindow;
  let tests: ScriptTests;
  let controller: FakeTestController;
  let dir: string;
  let shown: Array<{ folder: string; name: string; value: unknown }>;
  const uriOf = (name: string) => Uri.file(join(dir, name));

  before(async () => {
    p = await start({ port: 0 });
  });
  after(() => p.close());
  beforeEach(async () => {
    window = await sendWindow(p.url, { packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })) });
    dir = mkdtempSync(join(tmpdir(), 'script-tests-'));
    copyFileSync(join(EXAMPLES, 'iou-lifecycle.ledger.json'), join(dir, 'iou-lifecycle.ledger.json'));
    writeFileSync(join(dir, 'broken.ledger.json'), readFileSync(join(EXAMPLES, 'wrong-party-transfer.ledger.json'), 'utf8').replace('"code": "DAML_AUTHORIZATION_ERROR"', '"code": "CONTRACT_NOT_FOUND"'));
    fake.state.findFiles = () => [uriOf('iou-lifecycle.ledger.json'), uriOf('broken.ledger.json')];
    shown = [];
    const port = new PromptsPort(windowPrompts);
    const errors = new ErrorReporter(silentLogger, new Redactor(), port, () => undefined);
    const registry = new CommandRegistry(commands, errors, window.deps.targets);
    const documents = { show: async (folder: string, name: string, value: unknown) => void shown.push({ folder, name, value }) };
    tests = new ScriptTests(registry, { connections: window.manager, documents: documents as never, prompts: port, readDar });
    controller = fake.state.testControllers[0];
    await controller.resolveHandler!(undefined);
  });
  afterEach(() => {
    tests.dispose();
    window.dispose();
  });

  const item = (file: string, step?: number): FakeTestItem => {
    const script = controller.items.get(uriOf(file).toString())!;
    return step === undefined ? script : script.children.get(`${script.id}#${step}`)!;
  };
  const states = (run: FakeTestRun, file: string) => {
    const script = item(file);
    const steps: string[] = [];
    script.children.forEach((c) => steps.push(run.lastState(c.id)?.state ?? 'none'));
    return { script: run.lastState(script.id)?.state, steps };
  };

  it('finds the scripts of the workspace, each step a child at its place in the file', () => {
    assert.deepEqual([...controller.items].map(([, i]) => i.label).sort(), ['broken.ledger.json', 'iou-lifecycle.ledger.json']);
    const steps: Array<[string, number, string | undefined]> = [];
    item('iou-lifecycle.ledger.json').children.forEach((c) => steps.push([c.label, c.range!.start.line, c.description]));
    assert.deepEqual(steps, [
      ['1. Bank issues an Iou to Alice', 4, 'submit'],
      ['2. Alice transfers it to Bob', 24, 'submit'],
      ['3. Bob splits it', 40, 'submit'],
      ["4. Alice's Iou is archived", 56, 'contractEvents'],
      ["5. Charlie does not see Bob's Iou", 61, 'contractEvents'],
    ]);
    assert.equal(controller.profiles.length, 1);
  });

  it('Run reports every step: a passing script, and a failing one with the failure at its expectation, expected vs actual', async () => {
    const run = await controller.run();
    assert.ok(run.ended);
    assert.deepEqual(states(run, 'iou-lifecycle.ledger.json'), { script: 'passed', steps: ['passed', 'passed', 'passed', 'passed', 'passed'] });
    assert.deepEqual(states(run, 'broken.ledger.json'), { script: 'failed', steps: ['passed', 'failed', 'skipped'] });
    const failure = run.lastState(item('broken.ledger.json', 1).id)!;
    const [message] = failure.messages as TestMessage[];
    assert.equal(message.message, 'Failed with DAML_AUTHORIZATION_ERROR, not CONTRACT_NOT_FOUND.');
    assert.equal(message.expectedOutput, 'failed: CONTRACT_NOT_FOUND');
    assert.match(message.actualOutput!, /^failed: DAML_AUTHORIZATION_ERROR: /);
    const at = readFileSync(join(dir, 'broken.ledger.json'), 'utf8').split('\n').findIndex((l) => l.includes('"failed"'));
    assert.equal(message.location!.uri.toString(), uriOf('broken.ledger.json').toString());
    assert.equal(message.location!.range.start.line, at, 'at the expectation that failed');
    assert.ok(run.output.some((l) => /^broken\.ledger\.json \(run [0-9a-f]{8}\): failed/.test(l)));
  });

  it('a token that an error body quotes reaches no test message or output', async () => {
    const guarded = await start({ port: 0, auth: { secret: 'a-shared-secret-of-this-test' } });
    // A gateway that quotes the request's Authorization header in every error it passes on.
    const proxy = await startFaultProxy(guarded.url);
    proxy.add({ path: /./, fault: { kind: 'quote-authorization' }, times: 1000 });
    const token = await guarded.mintToken('demo-admin');
    tests.dispose();
    window.dispose();
    try {
      window = await sendWindow(proxy.url, { packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })), token });
      fake.state.findFiles = () => [uriOf('broken.ledger.json')];
      const port = new PromptsPort(windowPrompts);
      const errors = new ErrorReporter(silentLogger, new Redactor(), port, () => undefined);
      tests = new ScriptTests(new CommandRegistry(commands, errors, window.deps.targets), { connections: window.manager, documents: {} as never, prompts: port, readDar });
      controller = fake.state.testControllers[0];
      await controller.resolveHandler!(undefined);
      const run = await controller.run([item('broken.ledger.json')]);
      assert.deepEqual(states(run, 'broken.ledger.json'), { script: 'failed', steps: ['passed', 'failed', 'skipped'] });
      assert.ok(proxy.fired['quote-authorization'] > 0, 'an error body quoted the header');
      const [message] = run.lastState(item('broken.ledger.json', 1).id)!.messages as TestMessage[];
      assert.match(message.actualOutput!, /the request had Authorization: Bearer \[REDACTED\]/);
      const everything = JSON.stringify({ messages: run.events.flatMap((e) => e.messages ?? []).map((m) => [m.message, m.expectedOutput, m.actualOutput]), output: run.output });
      assert.ok(!everything.includes(token), everything);
    } finally {
      await proxy.close();
      await guarded.close();
    }
  });

  it('Re-run Failed of a step runs its whole script (a step needs the steps before it)', async () => {
    const run = await controller.run([item('broken.ledger.json', 1)]);
    assert.deepEqual(states(run, 'broken.ledger.json'), { script: 'failed', steps: ['passed', 'failed', 'skipped'] });
    assert.equal(run.lastState(item('iou-lifecycle.ledger.json').id), undefined, 'the other script is not run');
  });

  it('Cancel stops the run: the step that ran passed, the rest are skipped', async () => {
    const cancel = new CancellationTokenSource();
    const create = controller.createTestRun.bind(controller);
    controller.createTestRun = (request, name) => {
      const run = create(request, name);
      const passed = run.passed.bind(run);
      run.passed = (i, d) => {
        passed(i, d);
        if (i.id.endsWith('#0')) cancel.cancel();
      };
      return run;
    };
    const run = await controller.run([item('iou-lifecycle.ledger.json')], cancel);
    assert.deepEqual(states(run, 'iou-lifecycle.ledger.json'), { script: 'failed', steps: ['passed', 'skipped', 'skipped', 'skipped', 'skipped'] });
    assert.match((run.lastState(item('iou-lifecycle.ledger.json').id)!.messages![0] as TestMessage).message as string, /the run was cancelled \(1 passed, 0 failed, 0 unknown, 4 not run\)/);
  });

  it('without a connection the scripts are errored with what to do, and nothing runs', async () => {
    window.manager.disconnect(window.connection);
    const run = await controller.run();
    const states = [...controller.items].map(([, i]) => run.lastState(i.id));
    assert.ok(states.every((s) => s?.state === 'errored'));
    assert.match((states[0]!.messages![0] as TestMessage).message as string, /No connected participant to run against/);
  });

  it('the Run Script CodeLens runs the file; a step result opens as a document and as a graph', async () => {
    await commands.executeCommand(Commands.runLedgerScript, uriOf('iou-lifecycle.ledger.json'));
    const run = controller.runs.at(-1)!;
    assert.equal(states(run, 'iou-lifecycle.ledger.json').script, 'passed');
    await commands.executeCommand(Commands.openScriptStepResult, item('iou-lifecycle.ledger.json', 1));
    assert.equal(shown.length, 1);
    assert.equal(shown[0].folder, 'scripts');
    const updateId = (shown[0].value as { updateId: string }).updateId;
    assert.match(updateId, /^1220/);
    const graphs: unknown[] = [];
    commands.registerCommand(Commands.showTransactionGraph, (arg) => void graphs.push(arg));
    await commands.executeCommand(Commands.showScriptStepGraph, item('iou-lifecycle.ledger.json', 1));
    assert.deepEqual(graphs, [{ updateId, connection: window.connection }], 'the transaction, on the connection the script ran on');
    await commands.executeCommand(Commands.openScriptStepResult, item('iou-lifecycle.ledger.json', 3));
    assert.match(fake.state.messages.at(-1)!.text, /has no transaction from its last run/);
  });

  it("a step's graph reads the transaction from the connection its script ran on, not from the one active now", async () => {
    await commands.executeCommand(Commands.runLedgerScript, uriOf('iou-lifecycle.ledger.json'));
    assert.equal(states(controller.runs.at(-1)!, 'iou-lifecycle.ledger.json').script, 'passed');
    await commands.executeCommand(Commands.openScriptStepResult, item('iou-lifecycle.ledger.json', 1));
    const updateId = (shown[0].value as { updateId: string }).updateId;
    // Another participant, connected and active now: it has never seen the script's transactions.
    const other = await start({ port: 0 });
    const registry = new CommandRegistry(commands, new ErrorReporter(silentLogger, new Redactor(), new PromptsPort(windowPrompts), () => undefined), window.deps.targets);
    const graphs = registerGraphs(registry, { extensionUri: Uri.file(REPO_ROOT) as never, connections: window.manager, documents: {} as never, logger: silentLogger, redactor: new Redactor(), prompts: window.prompts() });
    try {
      const elsewhere: ConnectionProfile = { id: 'other', name: 'Other', url: other.url, auth: 'none', userId: 'demo-admin', source: 'user' };
      await window.manager.profiles.save(elsewhere);
      await window.manager.connectionFor(elsewhere).connect();
      await window.manager.profiles.setActive(elsewhere.id);
      assert.equal(window.manager.activeConnection()?.id, 'other');

      await commands.executeCommand(Commands.showScriptStepGraph, item('iou-lifecycle.ledger.json', 1));
      const [panel] = fake.state.webviewPanels;
      const drawn = await firstPosted(panel, ['document', 'error']);
      assert.deepEqual(panel.posted.find((m) => (m as ToWebview).type === 'loading'), { type: 'loading', title: `Transaction ${updateId.slice(0, 10)}…`, detail: 'Reading from Demo…' });
      assert.equal(drawn.type, 'document', JSON.stringify(drawn));
      assert.equal(drawn.type === 'document' && drawn.document.kind === 'transaction' && drawn.document.updateId, updateId);
    } finally {
      graphs.registrations.forEach((r) => r.dispose());
      registry.dispose();
      await other.close();
    }
  });

  it('after a failing run the editors that show the script have the cursor at the failed expectation, revealed; the script\'s message is at the failing step, on a line of its own', async () => {
    const uri = uriOf('broken.ledger.json');
    const editor = (await fakeWindow.showTextDocument(uri)) as { selection: { start: { line: number } } };
    const visible = fakeWindow.visibleTextEditors;
    fakeWindow.visibleTextEditors = [editor];
    try {
      await commands.executeCommand(Commands.runLedgerScript, uri);
    } finally {
      fakeWindow.visibleTextEditors = visible;
    }
    const at = readFileSync(join(dir, 'broken.ledger.json'), 'utf8').split('\n').findIndex((l) => l.includes('"failed"'));
    assert.equal(editor.selection.start.line, at);
    const revealed = fake.state.revealed.at(-1)!;
    assert.deepEqual([revealed.uri.toString(), revealed.range.start.line], [uri.toString(), at]);
    const run = controller.runs.at(-1)!;
    const [message] = run.lastState(item('broken.ledger.json').id)!.messages as TestMessage[];
    // The step that failed opens above its expectation: the script's verdict there leaves the expectation's line to the step's own message.
    const lines = readFileSync(join(dir, 'broken.ledger.json'), 'utf8').split('\n');
    const stepStart = lines.slice(0, at).map((l, i) => [l, i] as const).filter(([l]) => /^\s*\{\s*$/.test(l)).at(-1)![1];
    assert.equal(message.location!.range.start.line, stepStart);
    assert.notEqual(stepStart, at);
  });

  it('while typing, an alias that matches no party of the active connection is an error at the alias', async () => {
    const packages = new LedgerPackages(window.manager, new PackageStore(() => ({ PackageCache, PackageIndex, readDar })), Uri.file(dir), silentLogger);
    const diagnostics = new FileDiagnostics(packages);
    try {
      const uri = uriOf('typing.ledger.json');
      const text = JSON.stringify({ parties: { Alice: {}, Alicia: {} }, steps: [{ updates: { party: 'Alice' } }] }, null, 2);
      fake.openDocument(uri, text);
      diagnostics.problemsOf(workspace.textDocuments[workspace.textDocuments.length - 1] as never);
      const shown = fake.state.diagnostics.get(uri.toString()) ?? [];
      assert.deepEqual(shown.map((d) => [d.code, d.range.start.line, d.message]), [['unknown-party', 3, 'No party on Demo has an id starting with "Alicia::": did you mean "Alice"? (or allocate one per run: {"allocate": true}).']]);
    } finally {
      diagnostics.dispose();
      packages.dispose();
    }
  });

  it('an open document\'s steps follow its edits', () => {
    const uri = uriOf('iou-lifecycle.ledger.json');
    const doc = fake.openDocument(uri, readFileSync(join(dir, 'iou-lifecycle.ledger.json'), 'utf8'));
    doc.setText(JSON.stringify({ parties: {}, steps: [{ name: 'only', updates: { party: 'x::1' } }] }));
    assert.deepEqual([...item('iou-lifecycle.ledger.json').children].map(([, c]) => c.label), ['1. only']);
  });
});
