// The compatibility report in the editor, against a demo participant serving a copy of the official
// 3.5 spec without the updates page endpoint: Show Compatibility Report on a row and from the palette,
// the Connections tooltip ("checking…" until the report comes, then its short form with a link), and a
// refused request shown with the report's line and its button, in a message and as a tree's rows.
import assert from 'node:assert/strict';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { readDar } from '../../../src/core/daml/lf/archive';
import { participantDescriptions } from '../../../src/core/compat/descriptions';
import type { ConnectionProfile } from '../../../src/core/connections';
import { IncompatibleRequestError } from '../../../src/core/errors';
import { PackageStore } from '../../../src/core/ledger/packages';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import type { DemoParticipant } from '../../../src/participant';
import { activateCompat, type CompatFeature } from '../../../src/vscode/compat';
import { Commands } from '../../../src/vscode/kit/ids';
import { CommandRegistry, ConnectionTargets } from '../../../src/vscode/kit/registry';
import { ConnectionManager } from '../../../src/vscode/connections/manager';
import { ProfileStore } from '../../../src/vscode/connections/profiles';
import type { FeatureHost } from '../../../src/vscode/kit/feature';
import { ErrorReporter, PromptsPort } from '../../../src/vscode/kit/prompts';
import { windowPrompts } from '../../../src/vscode/kit/ui';
import { ConnectionNode, ConnectionsTreeProvider } from '../../../src/vscode/connections/connectionsTree';
import { errorRows } from '../../../src/vscode/kit/errorRows';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { loadSpec, requireSpec } from '../../support/spec';
import { startCheckedParticipant } from '../../support/specCheck';
import { commands, fake, MemoryMemento, type MarkdownString } from '../fake/vscode';

const REFUSED_LINE = 'POST /v2/updates/get-updates-page: the participant does not have this endpoint; requests are not sent';

describe('the compatibility report in the editor', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let proxy: FaultProxy;
  let profiles: ProfileStore;
  let manager: ConnectionManager;
  let registry: CommandRegistry;
  let tree: ConnectionsTreeProvider;
  let compat: { disposables: readonly { dispose(): unknown }[]; api: CompatFeature };
  let profile: ConnectionProfile;

  before(async function () {
    requireSpec(this, '3.5');
    const doc = structuredClone(loadSpec('3.5'));
    delete (doc.paths as Record<string, unknown>)['/v2/updates/get-updates-page'];
    p = await startCheckedParticipant({ port: 0, seed: 7, apiVersion: '3.5', openapi: { text: JSON.stringify(doc) } });
  });
  after(() => p?.close());

  beforeEach(async () => {
    fake.reset();
    participantDescriptions.clear();
    for (const id of ['markdown.showPreview', 'markdown.showLockedPreviewToSide', 'workbench.action.focusFirstEditorGroup']) commands.registerCommand(id, () => undefined);
    proxy = await startFaultProxy(p.url, { maxHangMs: 20_000 });
    profiles = new ProfileStore(new MemoryMemento() as never);
    manager = new ConnectionManager(profiles, { sourceFor: () => undefined } as never, silentLogger, new Redactor(), new PackageStore(() => ({ PackageCache, PackageIndex, readDar })));
    const prompts = new PromptsPort(windowPrompts);
    const errors = new ErrorReporter(silentLogger, new Redactor(), prompts, () => undefined);
    registry = new CommandRegistry(commands, errors, new ConnectionTargets(manager, prompts, commands, errors));
    tree = new ConnectionsTreeProvider(manager);
    compat = activateCompat({ commands: registry, connections: manager, prompts, errors } as unknown as FeatureHost);
    profile = { id: 'demo', name: 'Demo', url: proxy.url, auth: 'none', userId: 'demo-admin', source: 'user' };
    await profiles.save(profile);
    await profiles.setActive(profile.id);
  });
  afterEach(async () => {
    for (const d of [...compat.disposables].reverse()) d.dispose();
    tree.dispose();
    registry.dispose();
    manager.dispose();
    profiles.dispose();
    await proxy.close();
  });

  const tooltipOf = () => (tree.getTreeItem(tree.getChildren()[0]).tooltip as MarkdownString).value;

  it('Show Compatibility Report on a row opens the report as a Markdown document: the participant, the summary, the refused endpoint', async () => {
    const c = manager.connectionFor(profile);
    await c.connect();
    await c.whenCompatibilityChecked();
    const uri = (await commands.executeCommand(Commands.showCompatibilityReport, new ConnectionNode(profile))) as { toString(): string; path: string };
    assert.equal(uri.path, '/Compatibility of Demo.md');
    const text = compat.api.reports.provideTextDocumentContent(uri as never);
    assert.match(text, /^# Compatibility of Demo\n/);
    assert.ok(text.includes("**Canton 3.5.10, checked against the participant's own API description (GET /docs/openapi, 3.5.10-SNAPSHOT): 1 refused of"), text.slice(0, 400));
    assert.ok(text.includes('**Refused (not sent)** (1)'));
    assert.ok(text.includes(`  - ✗ ${REFUSED_LINE}`), text);
    assert.ok(text.includes('`canton-ledger doctor`'));
    assert.ok(fake.state.executed.some((x) => x.id === 'markdown.showPreview' || x.id === 'markdown.showLockedPreviewToSide'), 'shown rendered');
  });

  it('from the palette: the active connection; not connected, it says so and opens nothing', async () => {
    const none = await commands.executeCommand(Commands.showCompatibilityReport);
    assert.equal(none, undefined);
    assert.deepEqual(fake.state.messages.map((m) => m.text), ['Show Compatibility Report: no connection fits.']);
    await manager.connectionFor(profile).connect();
    const uri = await commands.executeCommand(Commands.showCompatibilityReport);
    assert.ok(uri, 'the active connection’s report');
  });

  it('the tooltip: “checking…” while the description is read, then the report’s short form with a link to the whole', async () => {
    proxy.add({ method: 'GET', path: '/docs/openapi', fault: { kind: 'hang' }, times: 1 });
    const c = manager.connectionFor(profile);
    tree.getChildren();
    await c.connect();
    assert.ok(tooltipOf().includes('Compatibility: checking against the participant'), tooltipOf());
    const refreshed = new Promise<void>((resolve) => tree.onDidChangeTreeData(() => resolve()));
    // The hang ends (the proxy lets it go): the check reads nothing, and the version table decides.
    await proxy.close();
    await c.whenCompatibilityChecked();
    await refreshed;
    assert.match(tooltipOf(), /Compatibility: Canton 3\.5\.10, checked against the version table only/);
  });

  it('the tooltip of a checked connection: its summary, the refused line, and the link', async () => {
    const c = manager.connectionFor(profile);
    tree.getChildren();
    await c.connect();
    await c.whenCompatibilityChecked();
    const item = tree.getTreeItem(tree.getChildren()[0]);
    const md = item.tooltip as MarkdownString;
    assert.ok(md.value.includes("Compatibility: Canton 3.5.10, checked against the participant's own"), md.value);
    assert.ok(md.value.includes(`- ✗ ${REFUSED_LINE}`), md.value);
    assert.ok(md.value.includes(`[Show Compatibility Report](command:${Commands.showCompatibilityReport}?${encodeURIComponent('["demo"]')})`), md.value);
    assert.deepEqual(md.isTrusted, { enabledCommands: [Commands.showCompatibilityReport] });
  });

  it('a refused request: the message carries the report’s line and Show Report, which opens that connection’s report', async () => {
    const c = manager.connectionFor(profile);
    await c.connect();
    await c.whenCompatibilityChecked();
    const err = await c.client.pageUpdates({ selection: { filter: { anyParty: true } } }).catch((e: unknown) => e);
    assert.ok(err instanceof IncompatibleRequestError);
    registry.register(Commands.refreshUpdates, () => Promise.reject(err));
    fake.answerMessage('Show Report');
    await commands.executeCommand(Commands.refreshUpdates);
    const [shown] = fake.state.messages;
    assert.ok(shown.text.startsWith(`${Commands.refreshUpdates} failed: ${REFUSED_LINE}.`), shown.text);
    assert.deepEqual(shown.actions, ['Show Report', 'Show Log']);
    assert.ok(fake.state.executed.some((x) => x.id === 'markdown.showPreview' || x.id === 'markdown.showLockedPreviewToSide'), 'the report opened');
  });

  it('a refused request in a tree: “Not sent” with the line, and the report’s row for the view’s connection', async () => {
    const c = manager.connectionFor(profile);
    await c.connect();
    await c.whenCompatibilityChecked();
    const err = await c.client.pageUpdates({ selection: { filter: { anyParty: true } } }).catch((e: unknown) => e);
    const rows = errorRows('updates', err, { profileId: 'demo', redact: (s) => s, retry: { command: Commands.refreshUpdates, title: 'Retry' } });
    assert.deepEqual(
      rows.map((r) => [r.label, r.description, r.command?.command, r.command?.arguments]),
      [
        ['Not sent', REFUSED_LINE, undefined, undefined],
        ['Show Compatibility Report', undefined, Commands.showCompatibilityReport, ['demo']],
        ['Retry', undefined, Commands.refreshUpdates, undefined],
      ],
    );
    assert.ok(await commands.executeCommand(rows[1].command!.command, ...(rows[1].command!.arguments ?? [])), 'the row opens the report');
  });
});
