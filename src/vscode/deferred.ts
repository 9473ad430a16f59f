// What the entry (src/extension.ts) does in a window: load the features at once when Canton is in use,
// otherwise put stand-ins in place and load them on the first use (a folder that contains a Canton
// file activates the extension whether or not the user touches it).
//
// Only types come from 'vscode' here: the API is passed in, so that this runs in unit tests with a fake.
import type * as vscode from 'vscode';

/** The part of the VS Code API the stand-ins use. */
export interface DeferHost {
  commands: Pick<typeof vscode.commands, 'registerCommand'>;
  window: Pick<typeof vscode.window, 'registerTreeDataProvider' | 'showErrorMessage' | 'registerWebviewPanelSerializer'>;
  workspace: Pick<typeof vscode.workspace, 'textDocuments' | 'onDidOpenTextDocument' | 'registerTextDocumentContentProvider' | 'getConfiguration'>;
  /** Absent where the editor has no language-model tools; `registerMcpServerDefinitionProvider` absent where it has no MCP servers. */
  lm?: Pick<typeof vscode.lm, 'registerTool'> & Partial<Pick<typeof vscode.lm, 'registerMcpServerDefinitionProvider'>>;
}

/** The loaded features: the API activate() returns, and the content of the read-only documents. */
export interface Loaded<A> {
  api: A;
  provideContent(uri: vscode.Uri): string | undefined;
  /** Restores a webview panel of one of the `webviewTypes` that VS Code brings back after a reload. */
  deserializeWebviewPanel(viewType: string, panel: vscode.WebviewPanel, state: unknown): Thenable<void> | void;
  /** The language-model tool of that name (an agent may call one before anything else is used). */
  languageModelTool?(name: string): vscode.LanguageModelTool<Record<string, unknown>> | undefined;
  /** Activates one feature (once); without it, `load` activates every feature. */
  activate?(feature: string): unknown;
  /** Whether a feature was activated (without it, every feature was). */
  isActive?(feature: string): boolean;
  /** The MCP server provider of the tools' feature, once that feature is active. */
  mcpServerProvider?(): McpProvider | undefined;
}

type McpProvider = vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>;

/** The MCP server definitions as the entry answers them, without loading anything. */
export interface LightMcpServers {
  provide(): vscode.McpStdioServerDefinition[];
  /** What `provide` reads changed (the connections' and the agent tools' settings). */
  onDidChange: vscode.Event<unknown>;
}

/** Which feature owns what a stand-in stands for: its first use loads the host and that feature only. */
export interface Owners {
  /** The feature loaded with the host (its stand-ins go when the host loads). */
  host: string;
  /** The feature of a command or view. */
  of(id: string): string;
  schemes: Readonly<Record<string, string>>;
  webviews: Readonly<Record<string, string>>;
  /** The feature of the language-model tools. */
  tools: string;
  /** The features a Canton file needs when it is open (none for another file). */
  files(uri: { path: string }): readonly string[];
}

/** What the entry hands the features as they load, so that they take over from its stand-ins. */
export interface HandOver {
  /** Called before a feature activates: its stand-ins for views, documents, webviews and tools make way. */
  beforeActivate(feature: string): void;
  /**
   * Where the features register their commands: a command with a stand-in keeps it, which from then on
   * runs the feature's handler (unregistering and registering it again would cost the first use a round
   * trip to VS Code per command); any other is registered with VS Code.
   */
  commands: Pick<typeof vscode.commands, 'registerCommand'>;
}

export interface DeferOptions<A> {
  /**
   * Loads the features (with `owners`: the host, whose `activate` then activates one feature, calling
   * `handOver.beforeActivate` first); called at most once.
   */
  load(handOver: HandOver): Loaded<A>;
  /** Who owns each command, view, scheme and webview; without it, any first use loads every feature. */
  owners?: Owners;
  /** Every key of the API: the returned API has a getter for each that loads the features. */
  apiKeys: readonly (keyof A)[];
  /** The schemes of the read-only documents, whose tabs VS Code may restore before anything else is used. */
  schemes: readonly string[];
  /** The view types of the webview panels, which VS Code may restore before anything else is used. */
  webviewTypes: readonly string[];
  /** The contributed MCP server definition providers' answer before the tools' feature loads. */
  mcpServers?: LightMcpServers;
}

/** A `*.commands.json`, `*.vetting.json`, `*.ledger.json` or `*.pqs.sql` file, by name (any scheme: loading for one more is harmless). */
export function isCantonFile(uri: { path: string }): boolean {
  return /\.(commands|vetting|ledger)\.json$|\.pqs\.sql$/i.test(uri.path);
}

/** Workspace state: the demo participant ran in this window when it closed (the features start it again). */
export const DEMO_RAN_KEY = 'cantonLedger.demo.running';
/** Workspace state: the demo network ran in this window when it closed, with its ports (the features start it again). */
export const DEMO_NETWORK_RAN_KEY = 'cantonLedger.demoNetwork.running';

/** What a view shows until the features answer for it. */
export const LOADING_ROW: vscode.TreeItem = { label: 'Loading…' };

interface Contributions {
  commands?: { command: string }[];
  views?: Record<string, { id: string }[]>;
  languageModelTools?: { name: string }[];
  mcpServerDefinitionProviders?: { id: string }[];
}

/**
 * Loads the features now if a Canton file is open, or the demo participant starts with the folder or
 * ran in this window before it reloaded (or the demo network did);
 * otherwise registers a stand-in for every contributed command and view, for the read-only document
 * schemes and for opening a Canton file, each of which loads the features and hands over: a command's
 * stand-in stays and runs the handler its feature gives it (HandOver.commands), the others are disposed
 * first, since the features register the same ids. Returns the API, whose properties load the features
 * when read.
 */
export function activateDeferred<A extends object>(
  host: DeferHost,
  context: Pick<vscode.ExtensionContext, 'subscriptions' | 'extension'> & { workspaceState?: Pick<vscode.Memento, 'get'> },
  options: DeferOptions<A>,
): A {
  const owners = options.owners;
  const ALL = '';
  const hostFeature = owners?.host ?? ALL;
  const ownerOf = (table: Readonly<Record<string, string>> | undefined, key: string) => (owners ? (table?.[key] ?? hostFeature) : ALL);
  const featureOf = (id: string) => (owners ? owners.of(id) : ALL);
  let loaded: Loaded<A> | undefined;
  /** The command stand-ins, which stay until the extension is deactivated, and the handlers the features gave them. */
  const commandStandIns = new Map<string, vscode.Disposable>();
  const handlers = new Map<string, (...args: unknown[]) => unknown>();
  const commands: HandOver['commands'] = {
    registerCommand: (id, handler, thisArg) => {
      if (!commandStandIns.has(id)) return host.commands.registerCommand(id, handler, thisArg);
      if (handlers.has(id)) throw new Error(`command '${id}' already exists`);
      const run = (...args: unknown[]) => handler.apply(thisArg, args);
      handlers.set(id, run);
      return { dispose: () => handlers.get(id) === run && handlers.delete(id) };
    },
  };
  /** The other stand-ins by the feature they stand for. */
  const standIns = new Map<string, vscode.Disposable[]>();
  const standIn = (owner: string, d: vscode.Disposable) => standIns.set(owner, [...(standIns.get(owner) ?? []), d]);
  const disposeStandIns = (owner?: string) => {
    for (const [key, all] of [...standIns]) {
      if (owner !== undefined && key !== owner) continue;
      standIns.delete(key);
      all.forEach((d) => d.dispose());
    }
  };
  const load = (): Loaded<A> => {
    if (!loaded) {
      // Without owners every feature loads at once; with them the host comes with its own feature.
      disposeStandIns(owners ? hostFeature : undefined);
      loaded = options.load({ beforeActivate: (feature) => disposeStandIns(feature), commands });
    }
    return loaded;
  };
  const active = new Set<string>();
  /** Loads the host, and the feature if it is another. */
  const use = (feature: string): Loaded<A> => {
    const features = load();
    active.add(feature);
    if (feature !== ALL && feature !== hostFeature) features.activate?.(feature);
    followMcpServer();
    return features;
  };
  const toolsOwner = owners ? owners.tools : ALL;
  // The MCP server provider is registered here, at activation, for the whole window (VS Code asks a
  // provider for its definitions as soon as it is registered, and agents find only registered ones):
  // it answers from the settings and the global state alone until the tools' feature is active, then
  // hands over to that feature's provider and passes its changes on (the active connection switched).
  const mcpChanged = new Set<(e: void) => unknown>();
  const fireMcpChanged = () => mcpChanged.forEach((listener) => listener());
  let realMcp: McpProvider | undefined;
  function followMcpServer(): void {
    if (realMcp || !loaded || !options.mcpServers || (toolsOwner !== ALL && loaded.isActive?.(toolsOwner) === false)) return;
    realMcp = loaded.mcpServerProvider?.();
    const changes = realMcp?.onDidChangeMcpServerDefinitions?.(fireMcpChanged);
    if (!realMcp) return;
    if (changes) context.subscriptions.push(changes);
    fireMcpChanged();
  }
  const api = {} as A;
  for (const key of options.apiKeys)
    Object.defineProperty(api, key, {
      enumerable: true,
      get: () => {
        const value = load().api[key];
        followMcpServer();
        return value;
      },
    });
  context.subscriptions.push({
    dispose: () => {
      disposeStandIns();
      commandStandIns.forEach((d) => d.dispose());
      commandStandIns.clear();
    },
  });
  const filesOf = (uri: { path: string }) => (isCantonFile(uri) ? (owners ? owners.files(uri) : [ALL]) : []);

  const contributes = (context.extension.packageJSON as { contributes?: Contributions }).contributes ?? {};
  const lightMcp = options.mcpServers;
  const registerMcp = host.lm?.registerMcpServerDefinitionProvider;
  for (const { id } of lightMcp && registerMcp ? (contributes.mcpServerDefinitionProviders ?? []) : []) {
    const provider: McpProvider = {
      onDidChangeMcpServerDefinitions: (listener: (e: void) => unknown) => {
        mcpChanged.add(listener);
        return { dispose: () => mcpChanged.delete(listener) };
      },
      provideMcpServerDefinitions: (token) => (realMcp ? realMcp.provideMcpServerDefinitions(token) : lightMcp!.provide()),
      // Called only as VS Code starts the server: its token comes from the connection, which the tools' feature holds.
      resolveMcpServerDefinition: async (server, token) => {
        use(toolsOwner);
        return realMcp?.resolveMcpServerDefinition ? realMcp.resolveMcpServerDefinition(server, token) : server;
      },
    };
    context.subscriptions.push(lightMcp!.onDidChange(() => fireMcpChanged()), registerMcp!.call(host.lm, id, provider));
  }

  const inUse =
    host.workspace.textDocuments.some((d) => isCantonFile(d.uri)) ||
    host.workspace.getConfiguration('cantonLedger').get<boolean>('demo.startOnOpen') === true ||
    context.workspaceState?.get<boolean>(DEMO_RAN_KEY) === true ||
    context.workspaceState?.get(DEMO_NETWORK_RAN_KEY) !== undefined;
  if (inUse) {
    load();
    for (const feature of new Set(host.workspace.textDocuments.flatMap((d) => filesOf(d.uri)))) use(feature);
    if (!owners) return api;
  }

  // A feature activated at the start (the host, a feature of an open Canton file) registered its own.
  const registeredByItsFeature = (owner: string) => loaded !== undefined && (owner === hostFeature || owner === ALL || active.has(owner));
  const standInFor = (owner: string, make: () => vscode.Disposable) => {
    if (!registeredByItsFeature(owner)) standIn(owner, make());
  };
  for (const { command } of contributes.commands ?? []) {
    const owner = featureOf(command);
    if (registeredByItsFeature(owner)) continue;
    commandStandIns.set(
      command,
      host.commands.registerCommand(command, (...args: unknown[]) => {
        use(owner);
        const handler = handlers.get(command);
        // As VS Code answers a command nobody registered (the feature did not, in this editor).
        if (!handler) throw new Error(`command '${command}' not found`);
        return handler(...args);
      }),
    );
  }
  // A view's first request for its items loads its feature, whose own view then takes its place. The
  // load waits until this answer has gone out, so that it cannot land after the real one. The answer is
  // a "Loading…" row, not nothing: on a slow machine loading takes a moment, and a blank view looks empty.
  const loadSoon = (owner: string) =>
    setTimeout(() => {
      try {
        use(owner);
      } catch (e) {
        void host.window.showErrorMessage(`Canton Ledger Explorer could not load: ${(e as Error)?.message ?? e}`);
      }
    }, 0);
  for (const view of Object.values(contributes.views ?? {}).flat()) {
    const owner = featureOf(view.id);
    standInFor(owner, () =>
      host.window.registerTreeDataProvider<vscode.TreeItem>(view.id, {
        getTreeItem: (element) => element,
        getChildren: () => {
          loadSoon(owner);
          return [LOADING_ROW];
        },
      }),
    );
  }
  for (const scheme of options.schemes) {
    const owner = ownerOf(owners?.schemes, scheme);
    standInFor(owner, () => host.workspace.registerTextDocumentContentProvider(scheme, { provideTextDocumentContent: (uri) => use(owner).provideContent(uri) }));
  }
  for (const viewType of options.webviewTypes) {
    const owner = ownerOf(owners?.webviews, viewType);
    standInFor(owner, () =>
      host.window.registerWebviewPanelSerializer(viewType, { deserializeWebviewPanel: async (panel, state) => use(owner).deserializeWebviewPanel(viewType, panel, state) }),
    );
  }
  // A tool an agent calls first loads its feature and hands the call to the real tool.
  const toolOf = (name: string) => {
    const tool = use(toolsOwner).languageModelTool?.(name);
    if (!tool) throw new Error(`The Canton ledger tool ${name} is not available.`);
    return tool;
  };
  for (const { name } of host.lm ? (contributes.languageModelTools ?? []) : []) {
    standInFor(toolsOwner, () => host.lm!.registerTool<Record<string, unknown>>(name, { prepareInvocation: (o, t) => toolOf(name).prepareInvocation?.(o, t), invoke: (o, t) => toolOf(name).invoke(o, t) }));
  }
  const watch = host.workspace.onDidOpenTextDocument((d) => filesOf(d.uri).forEach((feature) => use(feature)));
  // Without owners the watch goes with the other stand-ins (everything loads at once); with them it stays for the next kind of file.
  if (owners) context.subscriptions.push(watch);
  else standIn(ALL, watch);
  return api;
}
