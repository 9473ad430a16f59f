// New Commands File from the palette right after connecting, against the fake VS Code API and a demo
// participant: the connection's packages are still being read then, and the template picker waits for
// them (with a cancellable progress) instead of writing the placeholder file unasked. When they cannot
// be read, the user is told and offered the placeholder file.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { TEMPLATE_ID_PLACEHOLDER } from '../../../src/core/files/templates';
import { silentLogger } from '../../../src/core/log';
import { PackageStore } from '../../../src/core/ledger/packages';
import type { DemoParticipant } from '../../../src/participant';
import { ConnectionFacts } from '../../../src/vscode/files/editing/connectionFacts';
import { CREATE_PLACEHOLDER_FILE, NewFileCommands } from '../../../src/vscode/files/editing/newFile';
import { LedgerPackages } from '../../../src/vscode/kit/ledgerPackages';
import type { PromptsPort } from '../../../src/vscode/kit/prompts';
import { windowPrompts } from '../../../src/vscode/kit/ui';
import { start } from '../../participant/helpers';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { fake, Uri } from '../fake/vscode';
import { sendWindow, type SendWindow } from './sendHarness';

const PICKER_PROGRESS = 'Reading the Daml packages of Demo for the template picker';

describe('New Commands File right after connecting (the template picker waits for the packages)', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let proxy: FaultProxy;
  let window: SendWindow;
  let packages: LedgerPackages;
  let newFiles: NewFileCommands;
  let dir: string;
  let file: Uri;

  before(async () => {
    p = await start({ port: 0 });
    proxy = await startFaultProxy(p.url);
  });
  after(async () => {
    await proxy.close();
    await p.close();
  });
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'new-file-'));
    file = Uri.file(join(dir, 'first.commands.json'));
    // Connected just now: nothing has asked for the connection's packages yet.
    window = await sendWindow(proxy.url, { packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })) });
    packages = new LedgerPackages(window.manager, new PackageStore(() => ({ PackageCache, PackageIndex, readDar })), Uri.file(join(dir, 'cache')) as never, silentLogger);
    newFiles = new NewFileCommands(new ConnectionFacts(window.manager, silentLogger), packages, silentLogger, window.prompts());
  });
  afterEach(() => {
    packages.dispose();
    window.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('waits for the packages with a progress, then offers the participant\'s templates', async () => {
    assert.notEqual(window.manager.connection('demo')!.packages().state, 'ready', 'the packages are not read yet when the command starts');
    fake.answerQuickPick((item: { templateId?: string }) => item.templateId === '#demo-iou:Iou:Iou');
    fake.answerQuickPick((item: { label: string }) => item.label.includes('Create'));
    const created = await newFiles.newCommandsFile({ uri: file, pickTemplate: true });
    assert.equal(created?.fsPath, file.fsPath);
    assert.ok(fake.state.progressTitles.includes(PICKER_PROGRESS), `a progress while they are read (${JSON.stringify(fake.state.progressTitles)})`);
    const value = JSON.parse(readFileSync(file.fsPath, 'utf8'));
    assert.equal(value.commands[0].CreateCommand.templateId, '#demo-iou:Iou:Iou', 'the picked template, not the placeholder');
    assert.deepEqual(fake.state.quickPickAnswers, [], 'both questions were asked');
  });

  it('packages already read: no progress, the picker at once', async () => {
    assert.equal((await window.manager.connection('demo')!.readPackages()).state, 'ready');
    fake.answerQuickPick(undefined);
    assert.equal(await newFiles.newCommandsFile({ uri: file, pickTemplate: true }), undefined, 'the picker was dismissed: no file');
    assert.ok(!fake.state.progressTitles.includes(PICKER_PROGRESS));
    assert.equal(existsSync(file.fsPath), false);
  });

  it('Cancel while they are read: no file, no question', async () => {
    const port = window.prompts() as PromptsPort;
    // The user cancels the progress as soon as it shows.
    port.current = { ...windowPrompts, progress: (_title, task) => {
      const cancel = new AbortController();
      const running = task(cancel.signal);
      cancel.abort();
      return running;
    } };
    assert.equal(await newFiles.newCommandsFile({ uri: file, pickTemplate: true }), undefined);
    assert.equal(existsSync(file.fsPath), false);
    assert.deepEqual(fake.state.messages, []);
  });

  it('packages that cannot be read: says so, and writes the placeholder file only when asked to', async () => {
    proxy.add({ method: 'GET', path: '/v2/packages', fault: { kind: 'answer', status: 500, body: '{"code":"INTERNAL","cause":"no packages today"}', contentType: 'application/json' }, times: 100 });
    fake.answerMessage(undefined);
    assert.equal(await newFiles.newCommandsFile({ uri: file, pickTemplate: true }), undefined, 'declined: nothing written');
    assert.equal(existsSync(file.fsPath), false);
    const [told] = fake.state.messages;
    assert.equal(told.severity, 'warning');
    assert.match(told.text, /^The Daml packages of Demo could not be read: .*Without them there are no templates to pick from\.$/);
    assert.deepEqual(told.actions, [CREATE_PLACEHOLDER_FILE]);

    window.manager.connection('demo')!.reloadPackages();
    fake.answerMessage(CREATE_PLACEHOLDER_FILE);
    assert.equal((await newFiles.newCommandsFile({ uri: file, pickTemplate: true }))?.fsPath, file.fsPath);
    assert.equal(JSON.parse(readFileSync(file.fsPath, 'utf8')).commands[0].CreateCommand.templateId, TEMPLATE_ID_PLACEHOLDER);
  });
});
