// Completing a contract id in a commands file, against the fake VS Code API and a demo participant: the
// items are the connection's active contracts of the command's template (so VS Code does not fall back
// to the words of the document), and not connected, one item that says what to do.
import assert from 'node:assert/strict';
import type { DemoParticipant } from '../../../src/participant';
import { DamlAssist } from '../../../src/vscode/files/editing/damlAssist';
import type { LedgerPackages } from '../../../src/vscode/kit/ledgerPackages';
import { start } from '../../participant/helpers';
import { fake, Uri } from '../fake/vscode';
import { sendWindow, type SendWindow } from './sendHarness';

describe('contract-id completions (fake VS Code API, demo participant)', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let window: SendWindow;
  // No packages: the contractId of an ExerciseCommand is known without them.
  const noPackages = { current: () => undefined } as unknown as LedgerPackages;

  before(async () => {
    p = await start({ port: 0 });
  });
  after(() => p.close());
  beforeEach(async () => {
    window = await sendWindow(p.url);
  });
  afterEach(() => window.dispose());

  function documentWithCursor(marked: string) {
    const text = marked.replace('‸', '');
    const doc = fake.openDocument(Uri.file('/ws/x.commands.json'), text);
    return { doc, position: doc.positionAt(marked.indexOf('‸')) };
  }
  const exercise = (template: string) =>
    `{"commandId": "c", "actAs": ["${p.parties.alice}"], "commands": [{"ExerciseCommand": {"templateId": "${template}", "contractId": "‸", "choice": "Iou_Transfer", "choiceArgument": {}}}]}`;

  it('offers the active contracts of the command’s template, each inserting its full id, and nothing else', async () => {
    const { doc, position } = documentWithCursor(exercise('#demo-iou:Iou:Iou'));
    const items = (await new DamlAssist(noPackages, window.manager).provideCompletionItems(doc as never, position as never)) as unknown as Array<{ label: string; insertText: string; detail: string; filterText: string }>;
    const acs = await window.manager.activeConnection()!.client.pageActiveContracts({ filter: { anyParty: true, templateIds: ['#demo-iou:Iou:Iou'] }, pageSize: 200 });
    const active = acs.contracts.map((c) => c.event.contractId);
    assert.ok(active.length >= 2, 'the seed has active Ious');
    assert.deepEqual(items.map((i) => JSON.parse(i.insertText)).sort(), [...active].sort());
    assert.ok(items.every((i) => /^Iou:Iou · created at offset \d+$/.test(i.detail)), items.map((i) => i.detail).join(' | '));
    assert.ok(items.every((i) => i.filterText === i.insertText), 'typed characters of the id filter the list');
  });

  it('a template with no active contract says so; not connected, one item says to connect', async () => {
    const { doc, position } = documentWithCursor(exercise('#demo-holding:Holding:NoSuch'));
    const none = (await new DamlAssist(noPackages, window.manager).provideCompletionItems(doc as never, position as never)) as unknown as Array<{ label: string }>;
    assert.equal(none.length, 1);
    assert.match(none[0].label, /NoSuch contract/);
    window.manager.disconnect(window.connection);
    const { doc: d2, position: p2 } = documentWithCursor(exercise('#demo-iou:Iou:Iou'));
    const offline = (await new DamlAssist(noPackages, window.manager).provideCompletionItems(d2 as never, p2 as never)) as unknown as Array<{ label: string; detail: string }>;
    assert.deepEqual(offline.map((i) => i.label), ['<Iou:Iou contract id>']);
    assert.match(offline[0].detail, /Connect to a participant/);
  });
});
