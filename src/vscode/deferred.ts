// What the entry (src/extension.ts) does in a window: load the features at once when Canton is in use,
// otherwise put stand-ins in place and load them on the first use (a folder that contains a Canton
// file activates the extension whether or not the user touches it).
//
// Only types come from 'vscode' here: the API is passed in, so that this runs in unit tests with a fake.
import type * as vscode from 'vscode';

/** The part of the VS Code API the stand-ins use. */
export interface DeferHost {
  commands: Pick<typeof vscode.commands, 'registerCommand' | 'executeCommand'>;
  window: Pick<typeof vscode.window, 'registerTreeDataProvider' | 'showErrorMessage' | 'registerWebviewPanelSerializer'>;
  workspace: Pick<typeof vscode.workspace, 'textDocuments' | 'onDidOpenTextDocument' | 'registerTextDocumentContentProvider' | 'getConfiguration'>;
  /** Absent where the editor has no language-model tools. */
  lm?: Pick<typeof vscode.lm, 'registerTool'>;
}

/** The loaded features: the API activate() returns, and the content of the read-only documents. */
export interface Loaded<A> {
  api: A;
  provideContent(uri: vscode.Uri): string | undefined;
  /** Restores a webview panel of one of the `webviewTypes` that VS Code brings back after a reload. */
  deserializeWebviewPanel(viewType: string, panel: vscode.WebviewPanel, state: unknown): Thenable<void> | void;
  /** The language-model tool of that name (an agent may call one before anything else is used). */
  languageModelTool?(name: string): vscode.LanguageModelTool<Record<string, unknown>> | undefined;
}

export interface DeferOptions<A> {
  /** Loads and activates the features; called at most once. */
  load(): Loaded<A>;
  /** Every key of the API: the returned API has a getter for each that loads the features. */
  apiKeys: readonly (keyof A)[];
  /** The schemes of the read-only documents, whose tabs VS Code may restore before anything else is used. */
  schemes: readonly string[];
  /** The view types of the webview panels, which VS Code may restore before anything else is used. */
  webviewTypes: readonly string[];
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

interface ContributedView {
  id: string;
}

/**
 * Loads the features now if a Canton file is open, or the demo participant starts with the folder or
 * ran in this window before it reloaded (or the demo network did);
 * otherwise registers a stand-in for every contributed command and view, for the read-only document
 * schemes and for opening a Canton file, each of which loads the features (disposing the stand-ins
 * first, since the features register the same ids) and hands over. Returns the API, whose properties
 * load the features when read.
 */
export function activateDeferred<A extends object>(
  host: DeferHost,
  context: Pick<vscode.ExtensionContext, 'subscriptions' | 'extension'> & { workspaceState?: Pick<vscode.Memento, 'get'> },
  options: DeferOptions<A>,
): A {
  let loaded: Loaded<A> | undefined;
  let standIns: vscode.Disposable[] = [];
  const disposeStandIns = () => {
    const all = standIns;
    standIns = [];
    all.forEach((d) => d.dispose());
  };
  const load = (): Loaded<A> => {
    if (!loaded) {
      disposeStandIns();
      loaded = options.load();
    }
    return loaded;
  };
  const api = {} as A;
  for (const key of options.apiKeys) Object.defineProperty(api, key, { enumerable: true, get: () => load().api[key] });
  context.subscriptions.push({ dispose: disposeStandIns });

  const inUse =
    host.workspace.textDocuments.some((d) => isCantonFile(d.uri)) ||
    host.workspace.getConfiguration('cantonLedger').get<boolean>('demo.startOnOpen') === true ||
    context.workspaceState?.get<boolean>(DEMO_RAN_KEY) === true ||
    context.workspaceState?.get(DEMO_NETWORK_RAN_KEY) !== undefined;
  if (inUse) {
    load();
    return api;
  }

  const contributes = (context.extension.packageJSON as { contributes?: { commands?: { command: string }[]; views?: Record<string, ContributedView[]>; languageModelTools?: { name: string }[] } }).contributes ?? {};
  for (const { command } of contributes.commands ?? []) {
    standIns.push(
      host.commands.registerCommand(command, (...args: unknown[]) => {
        load();
        return host.commands.executeCommand(command, ...args);
      }),
    );
  }
  // A view's first request for its items loads the features, whose own view then takes its place. The
  // load waits until this answer has gone out, so that it cannot land after the real one. The answer is
  // a "Loading…" row, not nothing: on a slow machine loading takes a moment, and a blank view looks empty.
  const loadSoon = () =>
    setTimeout(() => {
      try {
        load();
      } catch (e) {
        void host.window.showErrorMessage(`Canton Ledger Explorer could not load: ${(e as Error)?.message ?? e}`);
      }
    }, 0);
  for (const view of Object.values(contributes.views ?? {}).flat()) {
    standIns.push(
      host.window.registerTreeDataProvider<vscode.TreeItem>(view.id, {
        getTreeItem: (element) => element,
        getChildren: () => {
          loadSoon();
          return [LOADING_ROW];
        },
      }),
    );
  }
  for (const scheme of options.schemes) {
    standIns.push(host.workspace.registerTextDocumentContentProvider(scheme, { provideTextDocumentContent: (uri) => load().provideContent(uri) }));
  }
  for (const viewType of options.webviewTypes) {
    standIns.push(host.window.registerWebviewPanelSerializer(viewType, { deserializeWebviewPanel: async (panel, state) => load().deserializeWebviewPanel(viewType, panel, state) }));
  }
  // A tool an agent calls first loads the features and hands the call to the real tool.
  const toolOf = (name: string) => {
    const tool = load().languageModelTool?.(name);
    if (!tool) throw new Error(`The Canton ledger tool ${name} is not available.`);
    return tool;
  };
  for (const { name } of host.lm ? (contributes.languageModelTools ?? []) : []) {
    standIns.push(host.lm!.registerTool<Record<string, unknown>>(name, { prepareInvocation: (o, t) => toolOf(name).prepareInvocation?.(o, t), invoke: (o, t) => toolOf(name).invoke(o, t) }));
  }
  standIns.push(host.workspace.onDidOpenTextDocument((d) => isCantonFile(d.uri) && load()));
  return api;
}
