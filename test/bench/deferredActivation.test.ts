// What the entry does in a window (src/vscode/deferred.ts), against a fake of the VS Code API that, like
// VS Code, refuses a second registration of a command id: the features load only on the first Canton
// file, view or command, and then take over from the stand-ins. (The in-host suite test/e2e/suite/activation.test.ts
// checks the same in VS Code, with the real bundles.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { activateDeferred, DEMO_NETWORK_RAN_KEY, DEMO_RAN_KEY, isCantonFile, LOADING_ROW, type DeferHost, type HandOver, type Loaded } from '../../src/vscode/deferred';
import { ROOT } from './lib';

const MANIFEST = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { vscode: string };
  activationEvents: string[];
  contributes: { commands: { command: string }[]; views: Record<string, { id: string }[]> };
};
const COMMANDS = MANIFEST.contributes.commands.map((c) => c.command);
const VIEWS = Object.values(MANIFEST.contributes.views).flat().map((v) => v.id);

type Fn = (...args: unknown[]) => unknown;
interface Provider {
  getChildren(): unknown;
}
interface ContentProvider {
  provideTextDocumentContent(uri: { scheme: string; path: string }): unknown;
}
const doc = (p: string) => ({ uri: { scheme: 'file', path: p } });
const tick = () => new Promise((r) => setTimeout(r, 5));

class FakeVsCode {
  readonly commands = new Map<string, Fn>();
  /** Every registerCommand and every command's dispose, in order: each is a round trip to VS Code. */
  readonly commandCalls: string[] = [];
  readonly views = new Map<string, Provider>();
  readonly contents = new Map<string, ContentProvider[]>();
  readonly openListeners = new Set<(d: ReturnType<typeof doc>) => void>();
  readonly errors: string[] = [];
  readonly serializers = new Map<string, { deserializeWebviewPanel(panel: unknown, state: unknown): Promise<void> }>();
  textDocuments: ReturnType<typeof doc>[] = [];
  settings: Record<string, unknown> = {};

  readonly host = ((self: FakeVsCode) => ({
    commands: {
      registerCommand: (id: string, fn: Fn) => {
        if (self.commands.has(id)) throw new Error(`command '${id}' already exists`);
        self.commands.set(id, fn);
        self.commandCalls.push(`register ${id}`);
        return { dispose: () => self.commandCalls.push(`dispose ${id}`) && self.commands.delete(id) };
      },
      executeCommand: async (id: string, ...args: unknown[]) => {
        const fn = self.commands.get(id);
        if (!fn) throw new Error(`command '${id}' not found`);
        return fn(...args);
      },
    },
    window: {
      registerTreeDataProvider: (id: string, p: Provider) => {
        self.views.set(id, p);
        return { dispose: () => self.views.get(id) === p && self.views.delete(id) };
      },
      showErrorMessage: async (m: string) => void self.errors.push(m),
      registerWebviewPanelSerializer: (viewType: string, serializer: { deserializeWebviewPanel(panel: unknown, state: unknown): Promise<void> }) => {
        if (self.serializers.has(viewType)) throw new Error(`a serializer for '${viewType}' is already registered`);
        self.serializers.set(viewType, serializer);
        return { dispose: () => self.serializers.get(viewType) === serializer && self.serializers.delete(viewType) };
      },
    },
    workspace: {
      get textDocuments() {
        return self.textDocuments;
      },
      onDidOpenTextDocument: (l: (d: ReturnType<typeof doc>) => void) => {
        self.openListeners.add(l);
        return { dispose: () => self.openListeners.delete(l) };
      },
      registerTextDocumentContentProvider: (scheme: string, p: ContentProvider) => {
        self.contents.set(scheme, [...(self.contents.get(scheme) ?? []), p]);
        return { dispose: () => self.contents.set(scheme, (self.contents.get(scheme) ?? []).filter((x) => x !== p)) };
      },
      getConfiguration: (section: string) => ({ get: (key: string) => self.settings[`${section}.${key}`] }),
    },
  }))(this);

  open(p: string): void {
    const d = doc(p);
    this.textDocuments.push(d);
    this.openListeners.forEach((l) => l(d));
  }
}
let fake: FakeVsCode;

interface Api {
  connections: string;
  views: string;
}

/** Activates the entry's logic with features that register every contributed command and view, as the real ones do. */
function activate(workspaceState: Record<string, unknown> = {}) {
  const context = { subscriptions: [] as { dispose(): unknown }[], extension: { packageJSON: MANIFEST }, workspaceState: { get: (key: string) => workspaceState[key] } };
  const ran: Array<[string, unknown[]]> = [];
  const restored: Array<[string, unknown, unknown]> = [];
  let loads = 0;
  const api = activateDeferred<Api>(fake.host as unknown as DeferHost, context as never, {
    load: ({ commands }): Loaded<Api> => {
      loads++;
      for (const id of COMMANDS) commands.registerCommand(id, (...args: unknown[]) => void ran.push([id, args]));
      for (const id of VIEWS) fake.host.window.registerTreeDataProvider(id, { getChildren: () => ['real'] });
      fake.host.workspace.registerTextDocumentContentProvider('canton-ledger', { provideTextDocumentContent: () => 'real' });
      fake.host.window.registerWebviewPanelSerializer('cantonLedger.graph', { deserializeWebviewPanel: async () => undefined });
      return {
        api: { connections: 'the connections', views: 'the views' },
        provideContent: (uri) => `content of ${uri.path}`,
        deserializeWebviewPanel: (viewType, panel, state) => void restored.push([viewType, panel, state]),
      };
    },
    apiKeys: ['connections', 'views'],
    schemes: ['canton-ledger', 'canton-ledger-report'],
    webviewTypes: ['cantonLedger.graph'],
  });
  return { api, context, ran, restored, loads: () => loads };
}

describe('deferred activation (the entry, in a window that may never use Canton)', () => {
  beforeEach(() => (fake = new FakeVsCode()));

  it('does not load the features in a window without a Canton file, and stands in for every contributed command and view', () => {
    fake.textDocuments = [doc('/home/u/.config/Code/User/chatLanguageModels.json'), doc('/w/package.json')];
    const a = activate();
    assert.equal(a.loads(), 0);
    assert.deepEqual([...fake.commands.keys()].sort(), [...COMMANDS].sort());
    assert.deepEqual([...fake.views.keys()].sort(), [...VIEWS].sort());
    assert.deepEqual([...fake.contents.keys()].sort(), ['canton-ledger', 'canton-ledger-report']);
    assert.ok(COMMANDS.length > 40 && VIEWS.length >= 8, 'the manifest lists them');
  });

  it('a graph panel VS Code restores after a reload loads the features and is handed to them, with its saved state', async () => {
    const a = activate();
    assert.equal(a.loads(), 0);
    const panel = { title: 'Transaction @8' };
    await fake.serializers.get('cantonLedger.graph')!.deserializeWebviewPanel(panel, { target: { kind: 'transaction', offset: 8 } });
    assert.equal(a.loads(), 1);
    assert.deepEqual(a.restored, [['cantonLedger.graph', panel, { target: { kind: 'transaction', offset: 8 } }]]);
  });

  it('opening an unrelated JSON file keeps it so; opening a commands or vetting file loads the features once, after the stand-ins for their views and documents are gone', () => {
    const a = activate();
    fake.open('/w/tsconfig.json');
    fake.open('/w/settings.json');
    assert.equal(a.loads(), 0);
    fake.open('/w/transfer.commands.json');
    assert.equal(a.loads(), 1, 'loaded, and the features could register their views (the fake refuses duplicates)');
    assert.equal(fake.openListeners.size, 0, 'the watch for Canton files is gone');
    fake.open('/w/other.vetting.json');
    assert.equal(a.loads(), 1);
  });

  it('a command loads the features and runs the real command with the same arguments', async () => {
    const a = activate();
    const uri = { scheme: 'file', path: '/w/x.commands.json' };
    await fake.host.commands.executeCommand('cantonLedger.files.submit', uri);
    assert.equal(a.loads(), 1);
    assert.deepEqual(a.ran, [['cantonLedger.files.submit', [uri]]]);
    await fake.host.commands.executeCommand('cantonLedger.demo.start');
    assert.equal(a.loads(), 1);
    assert.deepEqual(a.ran.map(([id]) => id), ['cantonLedger.files.submit', 'cantonLedger.demo.start']);
  });

  it('a command stand-in stays and runs the handler its feature gives it: loading unregisters and registers no command again', async () => {
    const a = activate();
    const atActivation = [...fake.commandCalls];
    assert.equal(atActivation.length, COMMANDS.length);
    await fake.host.commands.executeCommand('cantonLedger.updates.refresh', 'row');
    assert.equal(a.loads(), 1);
    assert.deepEqual(a.ran, [['cantonLedger.updates.refresh', ['row']]]);
    assert.deepEqual(fake.commandCalls, atActivation);
  });

  it('a stand-in whose feature gave it no handler says the command is not found (it does not call itself)', async () => {
    const context = { subscriptions: [] as { dispose(): unknown }[], extension: { packageJSON: MANIFEST }, workspaceState: { get: () => undefined } };
    activateDeferred<Api>(fake.host as unknown as DeferHost, context as never, {
      load: () => ({ api: { connections: '', views: '' }, provideContent: () => '', deserializeWebviewPanel: () => undefined }),
      apiKeys: ['connections', 'views'],
      schemes: [],
      webviewTypes: [],
    });
    await assert.rejects(async () => fake.host.commands.executeCommand('cantonLedger.updates.refresh'), /command 'cantonLedger.updates.refresh' not found/);
  });

  it('a handler a feature gives a stand-in goes when the feature disposes it; a command without a stand-in is registered with VS Code', async () => {
    const context = { subscriptions: [] as { dispose(): unknown }[], extension: { packageJSON: MANIFEST }, workspaceState: { get: () => undefined } };
    let handOver: HandOver | undefined;
    activateDeferred<Api>(fake.host as unknown as DeferHost, context as never, {
      load: (h) => {
        handOver = h;
        return { api: { connections: '', views: '' }, provideContent: () => '', deserializeWebviewPanel: () => undefined };
      },
      apiKeys: ['connections', 'views'],
      schemes: [],
      webviewTypes: [],
    });
    await assert.rejects(async () => fake.host.commands.executeCommand('cantonLedger.updates.refresh'), /not found/);
    const given = handOver!.commands.registerCommand('cantonLedger.updates.refresh', () => 'refreshed');
    assert.equal(await fake.host.commands.executeCommand('cantonLedger.updates.refresh'), 'refreshed');
    assert.throws(() => handOver!.commands.registerCommand('cantonLedger.updates.refresh', () => 'twice'), /already exists/);
    given.dispose();
    await assert.rejects(async () => fake.host.commands.executeCommand('cantonLedger.updates.refresh'), /not found/);
    const own = handOver!.commands.registerCommand('cantonLedger.notContributed', () => 'own');
    assert.equal(await fake.host.commands.executeCommand('cantonLedger.notContributed'), 'own');
    own.dispose();
    assert.equal(fake.commands.has('cantonLedger.notContributed'), false);
  });

  it('a view asking for its items gets a "Loading…" row (not a blank view), then the features load and their view takes over', async () => {
    const a = activate();
    assert.deepEqual(fake.views.get('cantonLedger.updates')!.getChildren(), [LOADING_ROW]);
    assert.equal(a.loads(), 0, 'not while answering');
    await tick();
    assert.equal(a.loads(), 1);
    assert.deepEqual(fake.views.get('cantonLedger.updates')!.getChildren(), ['real']);
    assert.deepEqual(fake.errors, []);
  });

  it('a read-only document restored before anything else gets its content from the features', () => {
    const a = activate();
    const [standIn] = fake.contents.get('canton-ledger')!;
    assert.equal(standIn.provideTextDocumentContent({ scheme: 'canton-ledger', path: '/updates/42.json' }), 'content of /updates/42.json');
    assert.equal(a.loads(), 1);
    assert.equal(fake.contents.get('canton-ledger')!.length, 1, 'only the real provider is left');
  });

  it('loads the features at activation when a Canton file is open, or the demo participant starts with the folder', () => {
    fake.textDocuments = [doc('/w/a.json'), doc('/w/Demo.Commands.json')];
    let a = activate();
    assert.equal(a.loads(), 1);
    assert.equal(fake.openListeners.size, 0, 'no stand-ins');

    fake = new FakeVsCode();
    fake.settings['cantonLedger.demo.startOnOpen'] = true;
    a = activate();
    assert.equal(a.loads(), 1);
  });

  it('loads the features at activation in a window where the demo participant ran before it reloaded (they start it again)', () => {
    assert.equal(activate({ [DEMO_RAN_KEY]: false }).loads(), 0);
    fake = new FakeVsCode();
    assert.equal(activate({ [DEMO_RAN_KEY]: true }).loads(), 1);
  });

  it('loads the features at activation in a window where the demo network ran before it reloaded (they start it again on its ports)', () => {
    fake = new FakeVsCode();
    assert.equal(activate({ [DEMO_NETWORK_RAN_KEY]: { ports: [41001, 41002, 41003] } }).loads(), 1);
  });

  it('its API loads the features when read, and is not a thenable (VS Code resolves what activate returns)', async () => {
    const a = activate();
    assert.equal('then' in a.api, false);
    await Promise.resolve(a.api);
    assert.equal(a.loads(), 0);
    assert.deepEqual(Object.keys(a.api), ['connections', 'views']);
    assert.equal(a.api.connections, 'the connections');
    assert.equal(a.api.views, 'the views');
    assert.equal(a.loads(), 1);
  });

  it('disposes the stand-ins left when the extension is deactivated', () => {
    const a = activate();
    a.context.subscriptions.forEach((d) => d.dispose());
    assert.equal(fake.commands.size, 0);
    assert.equal(fake.views.size, 0);
    assert.equal(fake.openListeners.size, 0);
    assert.equal(a.loads(), 0);
  });

  it('is activated by no event that fires for an unrelated JSON file or in every window: only by a folder with a Canton file, by its views and commands, and by a graph panel to restore', () => {
    // onWebviewPanel fires only when VS Code restores one of our graph panels.
    assert.deepEqual([...MANIFEST.activationEvents].sort(), ['onWebviewPanel:cantonLedger.graph', 'workspaceContains:**/*.commands.json', 'workspaceContains:**/*.ledger.json', 'workspaceContains:**/*.pqs.sql', 'workspaceContains:**/*.vetting.json']);
    // From VS Code 1.74 on, contributed views and commands activate their extension on use (onView:, onCommand:).
    const [major, minor] = /(\d+)\.(\d+)/.exec(MANIFEST.engines.vscode)!.slice(1).map(Number);
    assert.ok(major > 1 || minor >= 74, `engines.vscode ${MANIFEST.engines.vscode}`);
  });

  it('knows a Canton file by its name, whatever the case', () => {
    for (const p of ['/a/b.commands.json', '/a/B.VETTING.JSON', '/x.Commands.json', '/q/holdings.pqs.sql']) assert.ok(isCantonFile({ path: p }), p);
    for (const p of ['/a/commands.json', '/a/b.commands.jsonc', '/a/b.commands.json.bak', '/a/vetting.json', '/a/b.sql', '/a/pqs.sql.bak']) assert.ok(!isCantonFile({ path: p }), p);
  });
});

describe('deferred activation, feature by feature (the owners of src/vscode/owners.ts)', () => {
  beforeEach(() => (fake = new FakeVsCode()));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const owners = require('../../src/vscode/owners') as typeof import('../../src/vscode/owners');
  const ownersOption = { host: owners.HOST, of: owners.ownerOf, schemes: owners.SCHEME_OWNERS, webviews: owners.WEBVIEW_OWNERS, tools: owners.TOOL_OWNER, files: owners.fileFeatures };

  /** The entry over features that register what the table gives them, each when activated (refused twice, as VS Code does). */
  function activateByFeature(textDocuments: ReturnType<typeof doc>[] = []) {
    fake.textDocuments = textDocuments;
    const context = { subscriptions: [] as { dispose(): unknown }[], extension: { packageJSON: MANIFEST }, workspaceState: { get: () => undefined } };
    const activated: string[] = [];
    const register = (feature: string, commands: HandOver['commands']) => {
      for (const id of COMMANDS.filter((c) => owners.ownerOf(c) === feature)) commands.registerCommand(id, () => feature);
      for (const id of VIEWS.filter((v) => owners.ownerOf(v) === feature)) fake.host.window.registerTreeDataProvider(id, { getChildren: () => [feature] });
      activated.push(feature);
    };
    const api = activateDeferred<Api>(fake.host as unknown as DeferHost, context as never, {
      load: ({ beforeActivate, commands }): Loaded<Api> => {
        const activate = (feature: string) => {
          if (activated.includes(feature)) return;
          beforeActivate(feature);
          register(feature, commands);
        };
        register(owners.HOST, commands);
        return { api: { connections: 'c', views: 'v' }, provideContent: () => '', deserializeWebviewPanel: () => undefined, activate };
      },
      owners: ownersOption,
      apiKeys: ['connections', 'views'],
      schemes: ['canton-ledger', 'canton-ledger-report'],
      webviewTypes: ['cantonLedger.graph'],
    });
    return { api, activated };
  }

  it('a command loads the host and its own feature, no other; the other features keep their stand-ins', async () => {
    const a = activateByFeature();
    assert.equal(await fake.host.commands.executeCommand('cantonLedger.graph.showTransaction', 'x'), 'graph');
    assert.deepEqual(a.activated, ['connections', 'graph']);
    assert.equal(await fake.host.commands.executeCommand('cantonLedger.files.submit'), 'files');
    assert.deepEqual(a.activated, ['connections', 'graph', 'files']);
    assert.ok(fake.commands.has('cantonLedger.pqs.connect'), 'PQS still stands in');
    assert.deepEqual(fake.views.get('cantonLedger.pqs')!.getChildren(), [LOADING_ROW]);
  });

  it('the Connections and Updates views load the host and the Updates feature only', async () => {
    const a = activateByFeature();
    assert.deepEqual(fake.views.get('cantonLedger.connections')!.getChildren(), [LOADING_ROW]);
    assert.deepEqual(fake.views.get('cantonLedger.updates')!.getChildren(), [LOADING_ROW]);
    await tick();
    assert.deepEqual(a.activated, ['connections', 'updates']);
    assert.deepEqual(fake.views.get('cantonLedger.updates')!.getChildren(), ['updates']);
    assert.deepEqual(fake.errors, []);
  });

  it('an open ledger script loads the file features and the scripts; a PQS query file, PQS', () => {
    const a = activateByFeature([doc('/w/flow.ledger.json')]);
    assert.deepEqual(a.activated, ['connections', 'files', 'scripts']);
    fake.open('/w/q.pqs.sql');
    assert.deepEqual(a.activated, ['connections', 'files', 'scripts', 'pqs']);
    assert.ok(fake.commands.has('cantonLedger.updates.compareParties'), 'Compare Parties still stands in');
  });
});
