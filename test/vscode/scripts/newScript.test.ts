// New Ledger Script against the fake VS Code API and a demo participant: the script is written for the
// active connection (its parties by alias, a template of its packages with real values), checks clean
// against it and runs green as written.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { validateText } from '../../../src/core/files/validate';
import { silentLogger } from '../../../src/core/log';
import { PackageStore } from '../../../src/core/ledger/packages';
import { runScript } from '../../../src/core/scripts/run';
import type { DemoParticipant } from '../../../src/participant';
import { ConnectionFacts } from '../../../src/vscode/files/editing/connectionFacts';
import { NewFileCommands } from '../../../src/vscode/files/editing/newFile';
import { LedgerPackages } from '../../../src/vscode/kit/ledgerPackages';
import { start } from '../../participant/helpers';
import { sendWindow, type SendWindow } from '../files/sendHarness';
import { Uri } from '../fake/vscode';

describe('New Ledger Script (fake VS Code API)', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let window: SendWindow;
  let packages: LedgerPackages;
  let dir: string;
  before(async () => (p = await start({ port: 0 })));
  after(() => p.close());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'new-script-'));
    window = await sendWindow(p.url, { packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })) });
    packages = new LedgerPackages(window.manager, new PackageStore(() => ({ PackageCache, PackageIndex, readDar })), Uri.file(join(dir, 'cache')) as never, silentLogger);
  });
  afterEach(() => {
    packages.dispose();
    window.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes a script with the connection's parties by alias and one of its templates filled in, which checks clean and runs green", async () => {
    const connection = window.manager.connection('demo')!;
    const state = await connection.readPackages();
    assert.equal(state.state, 'ready');
    const newFiles = new NewFileCommands(new ConnectionFacts(window.manager, silentLogger), packages, silentLogger, window.prompts());
    const file = Uri.file(join(dir, 'flow.ledger.json'));
    assert.equal((await newFiles.newLedgerScript({ uri: file }))?.fsPath, file.fsPath);
    const text = readFileSync(file.fsPath, 'utf8');
    const value = JSON.parse(text);
    assert.deepEqual(Object.keys(value.parties), ['Bank', 'Alice', 'Bob'], 'the party the user acts as first');
    assert.match(value.steps[0].submit.commands[0].CreateCommand.templateId, /^#demo-[a-z]+:\w+:\w+$/);
    const parties = window.manager.activeConnection()!.state;
    const ids = parties.state === 'connected' ? parties.info.parties.map((x) => x.party) : [];
    const errors = validateText('script', text, { parties: { ids, source: 'on Demo' } }).problems.filter((x) => x.severity === 'error');
    assert.deepEqual(errors, []);
    const create = value.steps[0].submit.commands[0].CreateCommand;
    assert.ok(Object.keys(create.createArguments).length > 0, 'the create has its arguments');
    const run = await runScript(connection, text, { readFile: async () => new Uint8Array() });
    assert.equal(run.status, 'passed', JSON.stringify(run.steps.map((s) => s.failures)));
    assert.deepEqual(run.steps.map((s) => s.status), ['passed', 'passed']);
  });
});
