// The version Canton will use in the editor, against the fake VS Code API and a demo network (Alice on
// app-user and app-provider, Bob on app-user; demo-iou 2.0.0 vetted on app-user only): completions of
// a templateId and hovers over one name it for the file's parties, the template picker labels it, and
// a participant that does not answer never holds a completion or hover longer than a short while.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { PackageStore } from '../../../src/core/ledger/packages';
import { silentLogger } from '../../../src/core/log';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { ConnectionFacts } from '../../../src/vscode/files/editing/connectionFacts';
import { DamlAssist } from '../../../src/vscode/files/editing/damlAssist';
import { NewFileCommands } from '../../../src/vscode/files/editing/newFile';
import { EditorVersions } from '../../../src/vscode/files/editing/preferredVersions';
import { LedgerPackages } from '../../../src/vscode/kit/ledgerPackages';
import { PromptsPort } from '../../../src/vscode/kit/prompts';
import { windowPrompts } from '../../../src/vscode/kit/ui';
import { setVetting, startCheckedNetwork } from '../../support/demoNetwork';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { CancellationTokenSource, fake, Uri } from '../fake/vscode';
import { networkWindow, type NetworkWindow } from '../preflight/networkWindow';
import { sendWindow, type SendWindow } from './sendHarness';

const PREFERRED = '/v2/interactive-submission/preferred-packages';
const IOU = '#demo-iou:Iou:Iou';

interface Item {
  label: string;
  detail: string;
  preselect?: boolean;
  sortText: string;
  documentation?: { value: string };
}

describe('the version Canton will use, in the editor (fake VS Code API, demo network)', function () {
  this.timeout(30_000);
  let net: DemoNetwork;
  let dir: string;
  /** What a test opened, closed after it (the last first). */
  const opened: Array<() => unknown> = [];
  const held = <T extends { dispose(): unknown } | { close(): unknown }>(thing: T): T => (opened.push(() => ('dispose' in thing ? thing.dispose() : thing.close())), thing);
  const decoding = () => new PackageStore(() => ({ PackageCache, PackageIndex, readDar }));

  /** The Daml packages of the manager's active connection, read, as the editor holds them. */
  async function editorPackages(manager: NetworkWindow['manager']): Promise<LedgerPackages> {
    const packages = held(new LedgerPackages(manager, decoding(), Uri.file(join(dir, 'cache')) as never, silentLogger));
    await packages.read(manager.activeConnection()!);
    return packages;
  }

  beforeEach(async () => {
    net = await startCheckedNetwork({ seed: false });
    dir = mkdtempSync(join(tmpdir(), 'preferred-'));
  });
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close();
    rmSync(dir, { recursive: true, force: true });
    await net.close();
  });

  describe('on the network', () => {
    let window: NetworkWindow;
    let packages: LedgerPackages;
    let versions: EditorVersions;

    beforeEach(async () => {
      setVetting(net, 'app-user', 'demo-iou', true, '2.0.0');
      setVetting(net, 'app-provider', 'demo-asset', false);
      window = held(await networkWindow(net, ['app-user', 'app-provider', 'sv'], decoding()));
      packages = await editorPackages(window.manager);
      versions = held(new EditorVersions(window.manager, 10_000));
    });

    function fileFor(party: string, templateId: string): { doc: ReturnType<typeof fake.openDocument>; at: (needle: string, plus?: number) => unknown } {
      const text = JSON.stringify({ commandId: 'c', actAs: [party], commands: [{ CreateCommand: { templateId, createArguments: {} } }] }, null, 2);
      const doc = fake.openDocument(Uri.file(join(dir, `${Math.random().toString(36).slice(2)}.commands.json`)), text);
      return { doc, at: (needle, plus = 1) => doc.positionAt(text.indexOf(needle) + plus) };
    }

    async function hover(assist: DamlAssist, party: string, token?: CancellationTokenSource['token']): Promise<string> {
      const { doc, at } = fileFor(party, IOU);
      const h = (await assist.provideHover(doc as never, at(IOU) as never, token as never)) as unknown as { contents: Array<{ value: string }> } | undefined;
      return h?.contents.map((c) => c.value).join('\n') ?? '';
    }

    it('a hover over a templateId names the version Canton will use for the file’s parties, and why; after vetting it on the other host, the newer', async () => {
      const assist = new DamlAssist(packages, window.manager, versions);
      const forAlice = await hover(assist, net.parties.alice);
      assert.match(forAlice, /\*\*Canton will use demo-iou 1\.0\.0 for Alice\.\*\*/);
      assert.match(forAlice, /preferred-packages on app-user\): the highest version vetted by every participant hosting Alice/);
      assert.match(forAlice, /- Alice is hosted on app-provider \(confirmation\), which has not vetted demo-iou 2\.0\.0\./);
      assert.match(forAlice, /demo-iou 2\.0\.0, the highest version known here, is not vetted by every participant hosting these parties/);
      assert.match(forAlice, /template Iou {2}-- Iou, demo-iou 1\.0\.0/, 'the signature shown is of the version Canton will use');
      assert.match(await hover(assist, net.parties.bob), /\*\*Canton will use demo-iou 2\.0\.0 for Bob\.\*\*/);

      // Vetted on app-provider, and read again there (as the Vetted Packages view's Refresh does): asked anew.
      setVetting(net, 'app-provider', 'demo-iou', true, '2.0.0');
      assert.match(await hover(assist, net.parties.alice), /Canton will use demo-iou 1\.0\.0 for Alice/, 'until a vetting state is read again, the answer known holds');
      await window.manager.connection('app-provider')!.ledger!.refreshVetting();
      const after = await hover(assist, net.parties.alice);
      assert.match(after, /\*\*Canton will use demo-iou 2\.0\.0 for Alice\.\*\*/);
      assert.doesNotMatch(after, /not vetted by every participant/);
    });

    it('a hover over a template no version of which fits: which party, hosted where, lacks which vetting', async () => {
      const assist = new DamlAssist(packages, window.manager, versions);
      const { doc, at } = fileFor(net.parties.alice, '#demo-asset:Asset:Asset');
      const h = (await assist.provideHover(doc as never, at('#demo-asset') as never)) as unknown as { contents: Array<{ value: string }> };
      const text = h.contents.map((c) => c.value).join('\n');
      assert.match(text, /\*\*✗ No version of demo-asset is vetted by every participant hosting Alice: commands using it will fail\.\*\*/);
      assert.match(text, /Alice \(Alice::1220[0-9a-f]+\) is hosted on app-provider \(confirmation\), which has not vetted any version of demo-asset \(app-user has version 1\.0\.0\): vet it on app-provider\./);
    });

    it('completions of a templateId describe the version for the file’s parties and preselect the templates that have one', async () => {
      const assist = new DamlAssist(packages, window.manager, versions);
      const { doc, at } = fileFor(net.parties.alice, '');
      const items = (await assist.provideCompletionItems(doc as never, at('"templateId": ""', '"templateId": "'.length) as never)) as unknown as Item[];
      const iou = items.find((i) => i.label === IOU)!;
      const asset = items.find((i) => i.label === '#demo-asset:Asset:Asset')!;
      assert.equal(iou.detail, 'template Iou · Canton will use demo-iou 1.0.0 for Alice');
      assert.equal(iou.preselect, true);
      assert.match(iou.documentation!.value, /^\*\*Canton will use demo-iou 1\.0\.0 for Alice\.\*\*/);
      assert.equal(asset.detail, 'template Asset · ✗ No version of demo-asset is vetted by every participant hosting Alice: commands using it will fail');
      assert.equal(asset.preselect, undefined);
      assert.ok(iou.sortText < asset.sortText, 'a template with a version for the parties sorts first');
    });

    it('a file with no party yet (none, or a placeholder) is not asked about: the completions are as without a connection to ask', async () => {
      const assist = new DamlAssist(packages, window.manager, versions);
      for (const party of [undefined, '<party-id::1220…>']) {
        const text = JSON.stringify({ commandId: 'c', actAs: party ? [party] : [], commands: [{ CreateCommand: { templateId: '', createArguments: {} } }] }, null, 2);
        const doc = fake.openDocument(Uri.file(join(dir, `no-party-${party ? 'placeholder' : 'none'}.commands.json`)), text);
        const items = (await assist.provideCompletionItems(doc as never, doc.positionAt(text.indexOf('"templateId": ""') + '"templateId": "'.length) as never)) as unknown as Item[];
        assert.equal(items.find((i) => i.label === IOU)?.detail, 'template Iou (demo-iou 2.0.0)', String(party));
      }
    });

    it('the template picker labels the version for the new file’s party, and says why the highest known is not it', async () => {
      const port = new PromptsPort(windowPrompts);
      const newFiles = new NewFileCommands(new ConnectionFacts(window.manager, silentLogger), packages, silentLogger, port, versions);
      let offered: Array<{ label: string; description?: string; detail?: string }> = [];
      fake.answerQuickPick((item: { label: string; description?: string; detail?: string }) => (offered.push(item), false));
      await newFiles.newCommandsFile({ uri: Uri.file(join(dir, 'new.commands.json')) as never, pickTemplate: true, actAs: net.parties.alice });
      offered = offered.filter((i) => i.label.startsWith('#'));
      const iou = offered.find((i) => i.label === IOU)!;
      assert.equal(iou.description, '$(check) Canton will use demo-iou 1.0.0 for Alice');
      assert.equal(iou.detail, 'demo-iou 2.0.0, the highest known here, is not vetted by every host of the party: Alice is hosted on app-provider (confirmation), which has not vetted demo-iou 2.0.0.');
      const asset = offered.find((i) => i.label === '#demo-asset:Asset:Asset')!;
      assert.equal(asset.description, '$(error) No version of demo-asset is vetted by every participant hosting Alice: commands using it will fail');
      assert.match(asset.detail!, /hosted on app-provider \(confirmation\), which has not vetted any version of demo-asset/);
      assert.ok(fake.state.progressTitles.includes('Asking app-user which versions Canton will use for Alice'), JSON.stringify(fake.state.progressTitles));
    });
  });

  describe('when the participant does not answer', () => {
    let proxy: FaultProxy;
    let window: SendWindow;
    let packages: LedgerPackages;

    beforeEach(async () => {
      proxy = held(await startFaultProxy(net.participant('app-user').url));
      // preferred-packages is never answered (until the proxy closes).
      proxy.add({ path: PREFERRED, fault: { kind: 'hang' }, times: 100 });
      window = held(await sendWindow(proxy.url, { packages: decoding() }));
      packages = await editorPackages(window.manager);
    });

    function iouFile() {
      const text = JSON.stringify({ commandId: 'c', actAs: [net.parties.alice], commands: [{ CreateCommand: { templateId: IOU, createArguments: {} } }] });
      const doc = fake.openDocument(Uri.file(join(dir, `${Math.random().toString(36).slice(2)}.commands.json`)), text);
      return { doc, position: doc.positionAt(text.indexOf(IOU) + 1) };
    }
    const hoverText = (h: unknown) => (h as { contents: Array<{ value: string }> }).contents.map((c) => c.value).join('\n');

    it('a hover answers after the short wait with what is known, and the question goes on for the next hover (joined, not asked again)', async () => {
      const versions = held(new EditorVersions(window.manager, 50));
      const assist = new DamlAssist(packages, window.manager, versions);
      const { doc, position } = iouFile();
      const first = hoverText(await assist.provideHover(doc as never, position as never));
      assert.match(first, /template Iou/, 'the signature is there at once');
      assert.match(first, /Which version Canton will use for the file's parties is being asked: hover again in a moment\./);
      assert.equal(proxy.count('POST', PREFERRED), 1);
      hoverText(await assist.provideHover(doc as never, position as never));
      assert.equal(proxy.count('POST', PREFERRED), 1, 'the question on its way is joined');
    });

    it('a cancel while the hover waits stops the wait and, as nobody else waits, the question: the next hover asks anew', async () => {
      const versions = held(new EditorVersions(window.manager, 10_000));
      const assist = new DamlAssist(packages, window.manager, versions);
      const { doc, position } = iouFile();
      const cancel = new CancellationTokenSource();
      const hovering = assist.provideHover(doc as never, position as never, cancel.token as never);
      // Once the request is out, the user moves on.
      while (proxy.count('POST', PREFERRED) === 0) await new Promise((resolve) => setImmediate(resolve));
      cancel.cancel();
      assert.match(hoverText(await hovering), /is being asked/);
      const second = new CancellationTokenSource();
      const again = assist.provideHover(doc as never, position as never, second.token as never);
      while (proxy.count('POST', PREFERRED) < 2) await new Promise((resolve) => setImmediate(resolve));
      second.cancel();
      await again;
      assert.equal(proxy.count('POST', PREFERRED), 2, 'the cancelled question was not joined: it was aborted');
    });
  });
});
