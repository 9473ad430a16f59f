// Exercise… on a contract of the Active Contracts view, against the fake VS Code API and a demo
// participant: the party picker's first item (the one VS Code highlights) is the choice's controller,
// read from the package the participant serves (Iou_Transfer: the Iou's owner, not its signing issuer;
// Holding_Transfer: the owner in the interface view, read for the contract), and the new file acts as
// that party and transfers to another one.
import assert from 'node:assert/strict';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { PackageStore } from '../../../src/core/ledger/packages';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import type { DemoParticipant } from '../../../src/participant';
import { Commands } from '../../../src/vscode/kit/ids';
import { CommandRegistry } from '../../../src/vscode/kit/registry';
import type { NewCommandsFileOptions } from '../../../src/vscode/files/editing/newFile';
import { LedgerPackages } from '../../../src/vscode/kit/ledgerPackages';
import { ActiveContractsView, registerActiveContractsCommands } from '../../../src/vscode/updates/activeContractsView';
import type { ViewNode } from '../../../src/vscode/kit/rowsTree';
import { UpdatesFilterStore } from '../../../src/vscode/updates/updatesView';
import { start } from '../../participant/helpers';
import { commands, fake, MemoryMemento, Uri } from '../fake/vscode';
import { sendWindow, type SendWindow } from '../files/sendHarness';

interface PickItem {
  label: string;
  description?: string;
  party?: string;
  name?: string;
}

describe('Exercise… (Active Contracts) against the fake VS Code API', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let window: SendWindow;
  let packages: LedgerPackages;
  let view: ActiveContractsView;
  let written: NewCommandsFileOptions[];

  beforeEach(async () => {
    p = await start({ port: 0 });
    window = await sendWindow(p.url, { packages: new PackageStore(() => ({ PackageCache, PackageIndex, readDar })) });
    packages = new LedgerPackages(window.manager, window.manager.packageStore!, Uri.file('/nonexistent/daml-packages'), silentLogger);
    view = new ActiveContractsView(window.manager, new UpdatesFilterStore(new MemoryMemento() as never), silentLogger, new Redactor(), window.prompts());
    registerActiveContractsCommands(new CommandRegistry(commands as never, window.deps.errors, window.deps.targets), view, packages, window.prompts());
    written = [];
    // What the command hands on to New Commands File: the file's command and actAs.
    commands.registerCommand(Commands.newCommandsFile, (...args: unknown[]) => void written.push(args[0] as NewCommandsFileOptions));
  });
  afterEach(async () => {
    view.dispose();
    packages.dispose();
    window.dispose();
    await p.close();
  });

  /** The connection's packages, once read (the connection reads them when it connects). */
  function packagesRead(): Promise<void> {
    return new Promise((resolve) => {
      const check = () => packages.indexFor(window.connection) && (sub.dispose(), resolve());
      const sub = packages.onDidChange(check);
      check();
    });
  }

  /** An Iou of the view whose owner is not its issuer (the demo's seeded ones). */
  async function iouNode(): Promise<{ node: ViewNode; issuer: string; owner: string }> {
    const groups = await view.getChildren();
    const iouGroup = groups.find((g) => g.type === 'row' && g.row.label === 'demo-iou:Iou:Iou')!;
    for (const node of await view.getChildren(iouGroup)) {
      const argument = node.type === 'row' && node.row.contractId ? (p.state.contracts.get(node.row.contractId)?.argument as { issuer: string; owner: string } | undefined) : undefined;
      if (argument && argument.issuer !== argument.owner) return { node, issuer: argument.issuer, owner: argument.owner };
    }
    throw new Error('no Iou whose owner is not its issuer');
  }

  it("the picker's first item is Iou_Transfer's controller, the owner; the file acts as the owner and transfers to another party", async () => {
    await packagesRead();
    const { node, issuer, owner } = await iouNode();
    const shown: PickItem[][] = [];
    const placeHolders: string[] = [];
    fake.answerQuickPick((i: PickItem) => i.name === 'Iou_Transfer');
    fake.state.quickPickAnswers.push((q) => {
      const items = q.items as PickItem[];
      shown.push(items);
      placeHolders.push((q.options as { placeHolder?: string } | undefined)?.placeHolder ?? '');
      // Enter: the highlighted item, the first.
      return items[0];
    });
    await commands.executeCommand(Commands.exercise, node);
    assert.equal(shown.length, 1, 'the party picker was shown');
    assert.deepEqual(shown[0].map((i) => i.party).slice(0, 2), [owner, issuer], 'the owner first, then the issuer who signs');
    assert.match(shown[0][0].description ?? '', /controller/);
    assert.match(placeHolders[0], /Iou_Transfer is controlled by the contract's owner: preselected/);
    assert.equal(written.length, 1);
    assert.equal(written[0].actAs, owner);
    const exercise = (written[0].command as { ExerciseCommand: { choice: string; choiceArgument: { newOwner: string } } }).ExerciseCommand;
    assert.equal(exercise.choice, 'Iou_Transfer');
    assert.notEqual(exercise.choiceArgument.newOwner, owner, 'the Iou goes to another party than the actor');
    assert.ok(Object.values(p.parties).includes(exercise.choiceArgument.newOwner), 'a party of the participant');
  });

  it("Holding_Transfer (an interface choice): the view is read for the contract, and its owner is the picker's first item", async () => {
    await packagesRead();
    const { node, issuer, owner } = await iouNode();
    const shown: PickItem[][] = [];
    fake.answerQuickPick((i: PickItem) => i.name === 'Holding_Transfer');
    fake.state.quickPickAnswers.push((q) => (shown.push(q.items as PickItem[]), (q.items as PickItem[])[0]));
    await commands.executeCommand(Commands.exercise, node);
    assert.ok(fake.state.progressTitles.includes('Reading the Holding view of the contract'), 'the view was read');
    assert.deepEqual(shown[0].map((i) => i.party).slice(0, 2), [owner, issuer]);
    assert.equal(written[0].actAs, owner);
    assert.equal((written[0].command as { ExerciseCommand: { templateId: string } }).ExerciseCommand.templateId, '#demo-holding:Holding:Holding');
  });
});
