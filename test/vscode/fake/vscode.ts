// A fake of the part of the VS Code API that the glue (src/vscode) uses, for unit tests of the glue in
// plain Node. `register.ts` makes `import * as vscode from 'vscode'` resolve to this module; a test
// drives it through `fake` (answers to questions, settings, the commands registered, messages shown)
// and calls `fake.reset()` before each test. Behaviour follows VS Code where a test can observe it: a
// second registration of a command id throws, events fire synchronously to listeners in order, a
// disposed emitter drops its listeners. What the glue does not use is left out; add it here when a
// test needs it, with VS Code's semantics.
import * as nodeFs from 'node:fs/promises';
import * as nodePath from 'node:path';

export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export class Disposable {
  private disposed = false;
  constructor(private readonly onDispose: () => void) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.onDispose();
  }
}

export class EventEmitter<T> {
  private listeners: Array<(e: T) => unknown> = [];
  private disposed = false;
  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs ? listener.bind(thisArgs) : listener;
    if (!this.disposed) this.listeners.push(bound);
    const d = new Disposable(() => {
      this.listeners = this.listeners.filter((l) => l !== bound);
    });
    disposables?.push(d);
    return d;
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  /** For tests: how many listeners are attached (a disposed subscription is gone). */
  get listenerCount(): number {
    return this.listeners.length;
  }
  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  static parse(value: string): Uri {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!m) throw new Error(`[UriError]: cannot parse ${JSON.stringify(value)}`);
    return new Uri(m[1], m[2] ?? '', decodeURIComponent(m[3] || (m[2] !== undefined ? '/' : '')), m[4] ?? '', m[5] ?? '');
  }
  static file(fsPath: string): Uri {
    return new Uri('file', '', nodePath.resolve(fsPath), '', '');
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '', c.fragment ?? '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return base.with({ path: nodePath.posix.join(base.path, ...segments) });
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: { scheme?: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(change.scheme ?? this.scheme, change.authority ?? this.authority, change.path ?? this.path, change.query ?? this.query, change.fragment ?? this.fragment);
  }
  toString(): string {
    const authority = this.authority || this.scheme === 'file' ? `//${this.authority}` : '';
    return `${this.scheme}:${authority}${encodeURI(this.path)}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
  toJSON(): unknown {
    return { scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment };
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
  isBefore(o: Position): boolean {
    return this.line < o.line || (this.line === o.line && this.character < o.character);
  }
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    const [s, e] = typeof a === 'number' ? [new Position(a, b as number), new Position(c!, d!)] : [a, b as Position];
    [this.start, this.end] = e.isBefore(s) ? [e, s] : [s, e];
  }
  /** Whether `p` lies within the range, both ends included (as VS Code's Range.contains). */
  contains(p: Position): boolean {
    return !p.isBefore(this.start) && !this.end.isBefore(p);
  }
}

export class Selection extends Range {
  constructor(
    readonly anchor: Position,
    readonly active: Position,
  ) {
    super(anchor, active);
  }
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

export enum TextEditorRevealType {
  Default = 0,
  InCenter = 1,
  InCenterIfOutsideViewport = 2,
  AtTop = 3,
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  id?: string;
  description?: string | boolean;
  tooltip?: string | MarkdownString;
  iconPath?: unknown;
  contextValue?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
  resourceUri?: Uri;
  accessibilityInformation?: { label: string; role?: string };
  constructor(
    public label: string | { label: string },
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class ThemeIcon {
  static readonly File = new ThemeIcon('file');
  static readonly Folder = new ThemeIcon('folder');
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class SnippetString {
  constructor(public value = '') {}
}

export class TextEdit {
  constructor(
    public range: Range,
    public newText: string,
  ) {}
  static replace(range: Range, newText: string): TextEdit {
    return new TextEdit(range, newText);
  }
}

export class CompletionItem {
  detail?: string;
  documentation?: unknown;
  insertText?: string | SnippetString;
  range?: Range;
  filterText?: string;
  sortText?: string;
  preselect?: boolean;
  additionalTextEdits?: TextEdit[];
  constructor(
    public label: string,
    public kind?: CompletionItemKind,
  ) {}
}

export class MarkdownString {
  isTrusted?: boolean;
  supportThemeIcons?: boolean;
  constructor(
    public value = '',
    supportThemeIcons = false,
  ) {
    this.supportThemeIcons = supportThemeIcons;
  }
  appendMarkdown(v: string): this {
    this.value += v;
    return this;
  }
  appendText(v: string): this {
    this.value += v.replace(/[\\`*_{}[\]()#+\-.!]/g, '\\$&');
    return this;
  }
  appendCodeblock(code: string, language = ''): this {
    this.value += `\n\`\`\`${language}\n${code}\n\`\`\`\n`;
    return this;
  }
}

/** A hover's content: VS Code keeps it as a list, whether given one string or several. */
export class Hover {
  readonly contents: MarkdownString[];
  constructor(
    contents: MarkdownString | MarkdownString[],
    public range?: Range,
  ) {
    this.contents = Array.isArray(contents) ? contents : [contents];
  }
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}
export enum DiagnosticTag {
  Unnecessary = 1,
  Deprecated = 2,
}
export class Diagnostic {
  source?: string;
  code?: string | number | { value: string | number; target: Uri };
  tags?: DiagnosticTag[];
  constructor(
    public range: Range,
    public message: string,
    public severity: DiagnosticSeverity = DiagnosticSeverity.Error,
  ) {}
}

export class CodeLens {
  constructor(
    public range: Range,
    public command?: { command: string; title: string; arguments?: unknown[] },
  ) {}
  get isResolved(): boolean {
    return this.command !== undefined;
  }
}

export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
  SymbolicLink = 64,
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}
export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}
export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
  Two = 2,
  Three = 3,
}
export enum InputBoxValidationSeverity {
  Info = 1,
  Warning = 2,
  Error = 3,
}
export enum QuickPickItemKind {
  Separator = -1,
  Default = 0,
}
export enum LogLevel {
  Off = 0,
  Trace = 1,
  Debug = 2,
  Info = 3,
  Warning = 4,
  Error = 5,
}
export enum CompletionItemKind {
  Method = 1,
  Field = 4,
  Class = 6,
  Interface = 7,
  Value = 11,
  EnumMember = 19,
}

export class CodeActionKind {
  static readonly Empty = new CodeActionKind('');
  static readonly QuickFix = new CodeActionKind('quickfix');
  static readonly Refactor = new CodeActionKind('refactor');
  static readonly RefactorRewrite = new CodeActionKind('refactor.rewrite');
  constructor(readonly value: string) {}
  intersects(other: CodeActionKind): boolean {
    return this.value === '' || other.value === '' || this.value.startsWith(other.value) || other.value.startsWith(this.value);
  }
}

export class CodeAction {
  diagnostics?: Diagnostic[];
  isPreferred?: boolean;
  edit?: WorkspaceEdit;
  command?: { command: string; title: string; arguments?: unknown[] };
  constructor(
    public title: string,
    public kind?: CodeActionKind,
  ) {}
}

/** Text replacements by document, applied by `workspace.applyEdit`. */
export class WorkspaceEdit {
  readonly replacements: Array<{ uri: Uri; range: Range; newText: string }> = [];
  replace(uri: Uri, range: Range, newText: string): void {
    this.replacements.push({ uri, range, newText });
  }
  insert(uri: Uri, position: Position, newText: string): void {
    this.replace(uri, new Range(position, position), newText);
  }
  get size(): number {
    return new Set(this.replacements.map((r) => r.uri.toString())).size;
  }
}

/** An open document: its text changes through `workspace.applyEdit` (dirty until saved), as in VS Code. */
export class FakeTextDocument {
  version = 1;
  isDirty = false;
  isClosed = false;
  /** Every save, with the text saved (a test reads what reached the disk). */
  readonly saves: string[] = [];
  constructor(
    readonly uri: Uri,
    private text: string,
  ) {}
  get fileName(): string {
    return this.uri.fsPath;
  }
  get lineCount(): number {
    return this.text.split('\n').length;
  }
  getText(range?: Range): string {
    return range ? this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end)) : this.text;
  }
  positionAt(offset: number): Position {
    const before = this.text.slice(0, Math.max(0, Math.min(offset, this.text.length)));
    const line = before.split('\n').length - 1;
    return new Position(line, before.length - (before.lastIndexOf('\n') + 1));
  }
  offsetAt(position: Position): number {
    const lines = this.text.split('\n');
    let offset = 0;
    for (let i = 0; i < position.line && i < lines.length; i++) offset += lines[i].length + 1;
    return Math.min(offset + position.character, this.text.length);
  }
  /** Replaces the text (what an edit does); fires onDidChangeTextDocument. */
  setText(text: string): void {
    this.text = text;
    this.version++;
    this.isDirty = true;
    textDocumentChanged.fire({ document: this, contentChanges: [] });
  }
  async save(): Promise<boolean> {
    if (this.uri.scheme === 'file') await nodeFs.writeFile(this.uri.fsPath, this.text);
    this.saves.push(this.text);
    this.isDirty = false;
    return true;
  }
}

const textDocumentChanged = new EventEmitter<{ document: FakeTextDocument; contentChanges: unknown[] }>();
const textDocumentClosed = new EventEmitter<FakeTextDocument>();

export const QuickInputButtons = { Back: { iconPath: new ThemeIcon('arrow-left') } };

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

/** A Memento (globalState / workspaceState) in memory. */
export class MemoryMemento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (structuredClone(this.values.get(key)) as T) : defaultValue;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, structuredClone(value));
  }
  setKeysForSync(): void {}
}

// ------------------------------------------------------------------ the scripted window and registry

export type MessageSeverity = 'info' | 'warning' | 'error';
export interface ShownMessage {
  severity: MessageSeverity;
  text: string;
  actions: string[];
  modal: boolean;
}
/** What the fake user answers a question with; `undefined` dismisses it. */
type Answer<Q> = (question: Q) => unknown;

interface FakeStatusBarItem {
  id: string;
  text: string;
  tooltip?: string;
  name?: string;
  command?: unknown;
  backgroundColor?: ThemeColor;
  visible: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

interface FakeTabGroup {
  viewColumn: number;
  isActive: boolean;
  tabs: Array<{ label: string }>;
}

class FakeState {
  readonly commands = new Map<string, (...args: unknown[]) => unknown>();
  /** `lm.registerTool`'s tools by name. */
  readonly languageModelTools = new Map<string, FakeLanguageModelTool>();
  /** `lm.registerMcpServerDefinitionProvider`'s providers by id. */
  readonly mcpServerProviders = new Map<string, { provideMcpServerDefinitions(token: unknown): unknown; onDidChangeMcpServerDefinitions?: Event<void> }>();
  /** Every command run through `commands.executeCommand`, with its arguments. */
  readonly executed: Array<{ id: string; args: unknown[] }> = [];
  readonly messages: ShownMessage[] = [];
  readonly treeViews = new Map<string, { provider: unknown; view: FakeTreeView }>();
  /** The read-only documents' providers, by scheme (what `openTextDocument` of such a URI reads). */
  readonly contentProviders = new Map<string, { provideTextDocumentContent(uri: Uri): string | undefined }>();
  readonly statusBarItems: FakeStatusBarItem[] = [];
  readonly context = new Map<string, unknown>();
  readonly clipboard = { text: '' };
  readonly logLines: string[] = [];
  /** What every diagnostic collection holds, by URI (string form): the Problems view. */
  readonly diagnostics = new Map<string, Diagnostic[]>();
  /** User settings and workspace settings, by full key (`cantonLedger.x`). */
  settings: Record<string, unknown> = {};
  workspaceSettings: Record<string, unknown> = {};
  readonly configurationChanged = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
  readonly trustGranted = new EventEmitter<void>();
  isTrusted = true;
  /** Answers, taken in order; when none is left a question is dismissed. */
  messageAnswers: Array<Answer<ShownMessage>> = [];
  quickPickAnswers: Array<Answer<{ items: readonly unknown[]; options: unknown }>> = [];
  inputBoxAnswers: Array<Answer<{ options: unknown }>> = [];
  readonly progressTitles: string[] = [];
  /** Every file system watcher made, with its events for a test to fire. */
  readonly watchers: Array<{ pattern: string; create: EventEmitter<Uri>; change: EventEmitter<Uri>; delete: EventEmitter<Uri> }> = [];
  /** What workspace.findFiles answers (none by default). */
  findFiles: (include: string) => Uri[] = () => [];
  /** Webview panels made and not disposed, and the serializers registered by view type. */
  readonly webviewPanels: FakeWebviewPanel[] = [];
  /** Untitled documents opened with content (workspace.openTextDocument({ language, content })). */
  readonly untitledDocuments: Array<{ languageId: string; text: string }> = [];
  readonly webviewSerializers = new Map<string, { deserializeWebviewPanel(panel: unknown, state: unknown): Thenable<void> | Promise<void> }>();
  /** Every document shown in an editor (window.showTextDocument), in order. */
  readonly shownDocuments: FakeTextDocument[] = [];
  /** Every editor.revealRange, in order: the document, the range and how it was revealed. */
  readonly revealed: Array<{ uri: Uri; range: Range; type?: TextEditorRevealType }> = [];
  /** Test controllers made (tests.createTestController) and not disposed. */
  readonly testControllers: FakeTestController[] = [];
  /** Other extensions installed (extensions.all), by id with their manifest. */
  installedExtensions: Array<{ id: string; packageJSON: Record<string, unknown> }> = [];
}

// ---------------------------------------------------------------- Testing API

export enum TestRunProfileKind {
  Run = 1,
  Debug = 2,
  Coverage = 3,
}

export class Location {
  constructor(
    readonly uri: Uri,
    readonly range: Range,
  ) {}
}

export class TestMessage {
  expectedOutput?: string;
  actualOutput?: string;
  location?: Location;
  constructor(public message: string | MarkdownString) {}
  static diff(message: string | MarkdownString, expected: string, actual: string): TestMessage {
    const m = new TestMessage(message);
    m.expectedOutput = expected;
    m.actualOutput = actual;
    return m;
  }
}

export class TestRunRequest {
  constructor(
    readonly include?: readonly FakeTestItem[],
    readonly exclude?: readonly FakeTestItem[],
    readonly profile?: FakeTestRunProfile,
  ) {}
}

/** A TestItemCollection: children by id, in insertion order; `replace` swaps them all. */
export class FakeTestItemCollection {
  private readonly items = new Map<string, FakeTestItem>();
  constructor(private readonly owner: FakeTestItem | undefined) {}
  get size(): number {
    return this.items.size;
  }
  add(item: FakeTestItem): void {
    item.parent = this.owner;
    this.items.set(item.id, item);
  }
  delete(id: string): void {
    this.items.delete(id);
  }
  get(id: string): FakeTestItem | undefined {
    return this.items.get(id);
  }
  replace(items: readonly FakeTestItem[]): void {
    this.items.clear();
    for (const i of items) this.add(i);
  }
  forEach(f: (item: FakeTestItem, collection: FakeTestItemCollection) => unknown): void {
    for (const i of [...this.items.values()]) f(i, this);
  }
  [Symbol.iterator](): Iterator<[string, FakeTestItem]> {
    return this.items.entries();
  }
}

export class FakeTestItem {
  parent: FakeTestItem | undefined;
  readonly children = new FakeTestItemCollection(this);
  range: Range | undefined;
  description: string | undefined;
  error: string | MarkdownString | undefined;
  canResolveChildren = false;
  busy = false;
  tags: unknown[] = [];
  constructor(
    readonly id: string,
    public label: string,
    readonly uri: Uri | undefined,
  ) {}
}

export interface FakeTestRunProfile {
  label: string;
  kind: TestRunProfileKind;
  isDefault: boolean;
  runHandler(request: TestRunRequest, token: CancellationTokenSource['token']): Thenable<void> | void;
  dispose(): void;
}

/** What a run reported, in order: `state` per item (`enqueued`, `started`, `passed`, …) with its messages. */
export class FakeTestRun {
  readonly events: Array<{ state: 'enqueued' | 'started' | 'passed' | 'failed' | 'errored' | 'skipped'; item: FakeTestItem; messages?: TestMessage[]; duration?: number }> = [];
  readonly output: string[] = [];
  ended = false;
  constructor(
    readonly request: TestRunRequest,
    readonly name: string | undefined,
  ) {}
  enqueued(item: FakeTestItem): void {
    this.events.push({ state: 'enqueued', item });
  }
  started(item: FakeTestItem): void {
    this.events.push({ state: 'started', item });
  }
  passed(item: FakeTestItem, duration?: number): void {
    this.events.push({ state: 'passed', item, duration });
  }
  failed(item: FakeTestItem, message: TestMessage | readonly TestMessage[], duration?: number): void {
    this.events.push({ state: 'failed', item, messages: ([] as TestMessage[]).concat(message), duration });
  }
  errored(item: FakeTestItem, message: TestMessage | readonly TestMessage[], duration?: number): void {
    this.events.push({ state: 'errored', item, messages: ([] as TestMessage[]).concat(message), duration });
  }
  skipped(item: FakeTestItem): void {
    this.events.push({ state: 'skipped', item });
  }
  appendOutput(text: string): void {
    this.output.push(text);
  }
  end(): void {
    if (this.ended) throw new Error('fake: a test run ended twice');
    this.ended = true;
  }
  /** The last state reported for the item with this id. */
  lastState(id: string): FakeTestRun['events'][number] | undefined {
    return [...this.events].reverse().find((e) => e.item.id === id);
  }
}

export class FakeTestController {
  readonly items = new FakeTestItemCollection(undefined);
  readonly profiles: FakeTestRunProfile[] = [];
  readonly runs: FakeTestRun[] = [];
  resolveHandler: ((item: FakeTestItem | undefined) => Thenable<void> | void) | undefined;
  refreshHandler: (() => Thenable<void> | void) | undefined;
  constructor(
    readonly id: string,
    public label: string,
  ) {}
  createTestItem(id: string, label: string, uri?: Uri): FakeTestItem {
    return new FakeTestItem(id, label, uri);
  }
  createRunProfile(label: string, kind: TestRunProfileKind, runHandler: FakeTestRunProfile['runHandler'], isDefault = false): FakeTestRunProfile {
    const profile: FakeTestRunProfile = { label, kind, runHandler, isDefault, dispose: () => void this.profiles.splice(this.profiles.indexOf(profile), 1) };
    this.profiles.push(profile);
    return profile;
  }
  createTestRun(request: TestRunRequest, name?: string): FakeTestRun {
    const run = new FakeTestRun(request, name);
    this.runs.push(run);
    return run;
  }
  /** Plays the Test Explorer's Run (all, or `include`), with a token a test may cancel. */
  async run(include?: FakeTestItem[], cancel?: CancellationTokenSource): Promise<FakeTestRun> {
    const profile = this.profiles.find((p) => p.kind === TestRunProfileKind.Run && p.isDefault) ?? this.profiles[0];
    const before = this.runs.length;
    await profile.runHandler(new TestRunRequest(include, undefined, profile), (cancel ?? new CancellationTokenSource()).token);
    return this.runs[before];
  }
  dispose(): void {
    state.testControllers.splice(state.testControllers.indexOf(this), 1);
  }
}

export const tests = {
  createTestController(id: string, label: string): FakeTestController {
    if (state.testControllers.some((c) => c.id === id)) throw new Error(`fake: a test controller '${id}' exists already`);
    const controller = new FakeTestController(id, label);
    state.testControllers.push(controller);
    return controller;
  },
};

/**
 * A webview panel: `posted` has what the extension sent the page, `receive` plays the page sending a
 * message; no page runs (the page itself is checked in a real browser by the UI checks).
 */
export class FakeWebviewPanel {
  private readonly messages = new EventEmitter<unknown>();
  private readonly disposed = new EventEmitter<void>();
  readonly posted: unknown[] = [];
  readonly onDidDispose = this.disposed.event;
  revealed = 0;
  iconPath: unknown;
  readonly webview = {
    html: '',
    options: {} as unknown,
    cspSource: 'https://fake.vscode-cdn.net',
    asWebviewUri: (uri: Uri) => Uri.parse(`https://fake.vscode-cdn.net${uri.path}`),
    postMessage: async (message: unknown) => {
      this.posted.push(message);
      return true;
    },
    onDidReceiveMessage: this.messages.event,
  };
  constructor(
    readonly viewType: string,
    public title: string,
    readonly column: unknown,
    options: unknown,
  ) {
    this.webview.options = options;
  }
  /** The page sends `message` to the extension. */
  receive(message: unknown): void {
    this.messages.fire(message);
  }
  reveal(): void {
    this.revealed++;
  }
  dispose(): void {
    const i = state.webviewPanels.indexOf(this);
    if (i < 0) return;
    state.webviewPanels.splice(i, 1);
    this.disposed.fire();
  }
}

class FakeTreeView {
  private readonly visibility = new EventEmitter<{ visible: boolean }>();
  readonly onDidChangeVisibility = this.visibility.event;
  private readonly selection = new EventEmitter<{ selection: unknown[] }>();
  readonly onDidChangeSelection = this.selection.event;
  private readonly expanded = new EventEmitter<{ element: unknown }>();
  readonly onDidExpandElement = this.expanded.event;
  readonly onDidCollapseElement = new EventEmitter<{ element: unknown }>().event;
  title?: string;
  description?: string;
  message?: string;
  badge?: { value: number; tooltip: string };
  visible = true;
  readonly revealed: unknown[] = [];
  constructor(
    readonly id: string,
    readonly provider: unknown,
  ) {}
  async reveal(element: unknown): Promise<void> {
    this.revealed.push(element);
  }
  /** The user showed or hid the view (its pane collapsed, another container chosen). */
  setVisible(visible: boolean): void {
    this.visible = visible;
    this.visibility.fire({ visible });
  }
  dispose(): void {
    state.treeViews.delete(this.id);
  }
}

let state = new FakeState();

/** The test's handle on the fake: answers, settings, and what the glue did. */
export const fake = {
  get state(): FakeState {
    return state;
  },
  /** A fresh window: no commands, messages, settings, answers, open documents or active editor. */
  reset(): void {
    state = new FakeState();
    workspace.textDocuments.splice(0);
    window.activeTextEditor = undefined;
  },
  /** The next message is answered with `action` (a button's text; undefined dismisses). */
  answerMessage(action: string | undefined | Answer<ShownMessage>): void {
    state.messageAnswers.push(typeof action === 'function' ? action : () => action);
  },
  /** The next quick pick takes the first item `choose` accepts (undefined: dismissed). */
  answerQuickPick(choose: ((item: never) => boolean) | undefined): void {
    state.quickPickAnswers.push(({ items }) => (choose ? items.find((i) => choose(i as never)) : undefined));
  },
  /** The workspace becomes trusted (VS Code's onDidGrantWorkspaceTrust). */
  grantTrust(): void {
    state.isTrusted = true;
    state.trustGranted.fire();
  },
  /** An open document with `text` (replacing one open at the same URI). */
  openDocument(uri: Uri, text: string): FakeTextDocument {
    const document = new FakeTextDocument(uri, text);
    const open = workspace.textDocuments as FakeTextDocument[];
    const i = open.findIndex((d) => d.uri.toString() === uri.toString());
    if (i >= 0) open.splice(i, 1, document);
    else open.push(document);
    return document;
  },
  /** The open document at `uri` is closed (the workbench dropped it); fires onDidCloseTextDocument. */
  closeDocument(uri: Uri): void {
    const open = workspace.textDocuments as FakeTextDocument[];
    const i = open.findIndex((d) => d.uri.toString() === uri.toString());
    if (i < 0) return;
    const [document] = open.splice(i, 1);
    textDocumentClosed.fire(document);
  },
  answerInputBox(value: string | undefined): void {
    state.inputBoxAnswers.push(() => value);
  },
  setSetting(key: string, value: unknown, target: 'user' | 'workspace' = 'user'): void {
    (target === 'user' ? state.settings : state.workspaceSettings)[key] = value;
    state.configurationChanged.fire({ affectsConfiguration: (s: string) => key === s || key.startsWith(`${s}.`) });
  },
};

function ask<Q>(answers: Array<Answer<Q>>, q: Q): unknown {
  const answer = answers.shift();
  return answer ? answer(q) : undefined;
}

function showMessage(severity: MessageSeverity) {
  return async (text: string, ...rest: unknown[]): Promise<string | undefined> => {
    const options = rest.length > 0 && typeof rest[0] === 'object' && rest[0] !== null && !('title' in (rest[0] as object)) ? (rest.shift() as { modal?: boolean }) : {};
    const actions = rest.map((a) => (typeof a === 'string' ? a : (a as { title: string }).title));
    const shown: ShownMessage = { severity, text, actions, modal: Boolean(options.modal) };
    state.messages.push(shown);
    const answer = ask(state.messageAnswers, shown);
    if (answer !== undefined && !actions.includes(answer as string)) throw new Error(`fake: the answer ${JSON.stringify(answer)} is not a button of "${text}" (${actions.join(', ')})`);
    return answer as string | undefined;
  };
}

export const commands = {
  registerCommand(id: string, fn: (...args: unknown[]) => unknown): Disposable {
    if (state.commands.has(id)) throw new Error(`command '${id}' already exists`);
    state.commands.set(id, fn);
    const registry = state.commands;
    return new Disposable(() => registry.get(id) === fn && registry.delete(id));
  },
  async executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    state.executed.push({ id, args });
    if (id === 'setContext') {
      state.context.set(args[0] as string, args[1]);
      return undefined;
    }
    // VS Code gives every view a command that shows and focuses it.
    if (id.endsWith('.focus') && state.treeViews.has(id.slice(0, -'.focus'.length))) return undefined;
    const fn = state.commands.get(id);
    if (!fn) throw new Error(`command '${id}' not found`);
    return fn(...args);
  },
  async getCommands(): Promise<string[]> {
    return [...state.commands.keys()];
  },
};

export const window = {
  showInformationMessage: showMessage('info'),
  showWarningMessage: showMessage('warning'),
  showErrorMessage: showMessage('error'),
  async showQuickPick(items: readonly unknown[] | Promise<readonly unknown[]>, options?: unknown): Promise<unknown> {
    return ask(state.quickPickAnswers, { items: await items, options });
  },
  async showInputBox(options?: unknown): Promise<string | undefined> {
    return ask(state.inputBoxAnswers, { options }) as string | undefined;
  },
  async withProgress<T>(options: { title?: string }, task: (progress: { report(v: unknown): void }, token: CancellationTokenSource['token']) => Thenable<T>): Promise<T> {
    state.progressTitles.push(options.title ?? '');
    const source = new CancellationTokenSource();
    return task({ report: () => undefined }, source.token);
  },
  createTreeView(id: string, options: { treeDataProvider: unknown }): FakeTreeView {
    const view = new FakeTreeView(id, options.treeDataProvider);
    state.treeViews.set(id, { provider: options.treeDataProvider, view });
    return view;
  },
  registerTreeDataProvider(id: string, provider: unknown): Disposable {
    const view = window.createTreeView(id, { treeDataProvider: provider });
    return new Disposable(() => view.dispose());
  },
  createWebviewPanel(viewType: string, title: string, column: unknown, options: unknown): FakeWebviewPanel {
    const panel = new FakeWebviewPanel(viewType, title, column, options);
    state.webviewPanels.push(panel);
    return panel;
  },
  registerWebviewPanelSerializer(viewType: string, serializer: { deserializeWebviewPanel(panel: unknown, state: unknown): Promise<void> }): Disposable {
    state.webviewSerializers.set(viewType, serializer);
    return new Disposable(() => state.webviewSerializers.delete(viewType));
  },
  createStatusBarItem(id: string): FakeStatusBarItem {
    const item: FakeStatusBarItem = {
      id,
      text: '',
      visible: false,
      show: () => void (item.visible = true),
      hide: () => void (item.visible = false),
      dispose: () => void state.statusBarItems.splice(state.statusBarItems.indexOf(item), 1),
    };
    state.statusBarItems.push(item);
    return item;
  },
  createOutputChannel(name: string) {
    const line = (level: string) => (m: string) => void state.logLines.push(`[${level}] ${m}`);
    return { name, logLevel: LogLevel.Info, onDidChangeLogLevel: new EventEmitter<LogLevel>().event, trace: line('trace'), debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'), appendLine: line('info'), append: line('info'), show: () => undefined, hide: () => undefined, clear: () => undefined, replace: () => undefined, dispose: () => undefined };
  },
  async showTextDocument(target: FakeTextDocument | Uri, options?: { selection?: Range }): Promise<unknown> {
    const document = target instanceof Uri ? await workspace.openTextDocument(target) : target;
    state.shownDocuments.push(document);
    const editor = {
      document,
      selection: options?.selection ?? new Selection(new Position(0, 0), new Position(0, 0)),
      options: { tabSize: 2, insertSpaces: true },
      revealRange: (range: Range, type?: TextEditorRevealType) => void state.revealed.push({ uri: document.uri, range, type }),
    };
    window.activeTextEditor = editor;
    return editor;
  },
  setStatusBarMessage(): Disposable {
    return new Disposable(() => undefined);
  },
  activeTextEditor: undefined as unknown,
  visibleTextEditors: [] as unknown[],
  /** The editor groups, as far as a test lays them out: one per column of `visibleTextEditors`, the active one holding `activeTextEditor`. */
  tabGroups: {
    get all(): FakeTabGroup[] {
      const columns = [...new Set((window.visibleTextEditors as Array<{ viewColumn?: number }>).map((e) => e.viewColumn ?? ViewColumn.One))].sort((a, b) => a - b);
      const active = (window.activeTextEditor as { viewColumn?: number } | undefined)?.viewColumn;
      return columns.map((viewColumn) => ({ viewColumn, isActive: viewColumn === active, tabs: [{ label: `column ${viewColumn}` }] }));
    },
    get activeTabGroup(): FakeTabGroup {
      const all = window.tabGroups.all;
      return all.find((g) => g.isActive) ?? all[0] ?? { viewColumn: ViewColumn.One, isActive: true, tabs: [] };
    },
  },
  state: { focused: true, active: true },
  onDidChangeActiveTextEditor: new EventEmitter<unknown>().event,
};

export const workspace = {
  getConfiguration(section = '') {
    const key = (k: string) => (section ? `${section}.${k}` : k);
    return {
      get<T>(k: string, defaultValue?: T): T | undefined {
        // Workspace settings win over user settings only in a trusted workspace (for settings restricted
        // there, as this extension's are).
        if (state.isTrusted && key(k) in state.workspaceSettings) return state.workspaceSettings[key(k)] as T;
        return key(k) in state.settings ? (state.settings[key(k)] as T) : defaultValue;
      },
      has: (k: string) => key(k) in state.settings || key(k) in state.workspaceSettings,
      inspect<T>(k: string) {
        return { key: key(k), globalValue: state.settings[key(k)] as T | undefined, workspaceValue: state.workspaceSettings[key(k)] as T | undefined };
      },
      async update(k: string, value: unknown) {
        fake.setSetting(key(k), value);
      },
    };
  },
  get onDidChangeConfiguration() {
    return state.configurationChanged.event;
  },
  get onDidGrantWorkspaceTrust() {
    return state.trustGranted.event;
  },
  get isTrusted() {
    return state.isTrusted;
  },
  workspaceFolders: undefined as unknown,
  textDocuments: [] as unknown[],
  onDidOpenTextDocument: new EventEmitter<unknown>().event,
  onDidCloseTextDocument: textDocumentClosed.event,
  onDidChangeTextDocument: textDocumentChanged.event,
  /** The open document, else the file read from disk (an untitled one starts empty). */
  /** A file's document (the open one, else read from disk), or a new untitled one with `content`. */
  async openTextDocument(target: Uri | { language?: string; content?: string }): Promise<FakeTextDocument> {
    if (!(target instanceof Uri)) {
      const content = target.content ?? '';
      state.untitledDocuments.push({ languageId: target.language ?? 'plaintext', text: content });
      return fake.openDocument(Uri.parse(`untitled:Untitled-${state.untitledDocuments.length}`), content);
    }
    const uri = target;
    const open = (workspace.textDocuments as FakeTextDocument[]).find((d) => d.uri.toString() === uri.toString());
    if (open) return open;
    const provider = state.contentProviders.get(uri.scheme);
    if (provider) return fake.openDocument(uri, provider.provideTextDocumentContent(uri) ?? '');
    return fake.openDocument(uri, uri.scheme === 'untitled' ? '' : await nodeFs.readFile(uri.fsPath, 'utf8'));
  },
  /** Applies the replacements of each document, last first (so earlier offsets stay valid); opens what is not open. */
  async applyEdit(edit: WorkspaceEdit): Promise<boolean> {
    const byDocument = new Map<string, { uri: Uri; replacements: WorkspaceEdit['replacements'] }>();
    for (const r of edit.replacements) {
      const entry = byDocument.get(r.uri.toString()) ?? { uri: r.uri, replacements: [] };
      entry.replacements.push(r);
      byDocument.set(r.uri.toString(), entry);
    }
    for (const { uri, replacements } of byDocument.values()) {
      const document = await workspace.openTextDocument(uri);
      const edits = replacements.map((r) => ({ start: document.offsetAt(r.range.start), end: document.offsetAt(r.range.end), text: r.newText })).sort((a, b) => b.start - a.start);
      document.setText(edits.reduce((text, e) => text.slice(0, e.start) + e.text + text.slice(e.end), document.getText()));
    }
    return true;
  },
  onDidRenameFiles: new EventEmitter<unknown>().event,
  /** The real file system, for `file:` URIs (what the glue reads: DARs, files on disk). */
  fs: {
    readFile: async (uri: Uri): Promise<Uint8Array> => new Uint8Array(await nodeFs.readFile(uri.fsPath)),
    writeFile: async (uri: Uri, content: Uint8Array): Promise<void> => nodeFs.writeFile(uri.fsPath, content),
    createDirectory: async (uri: Uri): Promise<void> => void (await nodeFs.mkdir(uri.fsPath, { recursive: true })),
    stat: async (uri: Uri): Promise<{ type: FileType; size: number }> => {
      const st = await nodeFs.stat(uri.fsPath);
      // As VS Code's disk provider: a FIFO or a device is neither a file nor a folder.
      return { type: st.isDirectory() ? FileType.Directory : st.isFile() ? FileType.File : FileType.Unknown, size: st.size };
    },
  },
  /** Events fire only when a test fires them (fake.state.watchers), as VS Code's watcher reports them. */
  createFileSystemWatcher(pattern: string, ignoreCreate = false, ignoreChange = false, ignoreDelete = false) {
    const w = { pattern, create: new EventEmitter<Uri>(), change: new EventEmitter<Uri>(), delete: new EventEmitter<Uri>() };
    state.watchers.push(w);
    const never = new EventEmitter<Uri>().event;
    return { onDidCreate: ignoreCreate ? never : w.create.event, onDidChange: ignoreChange ? never : w.change.event, onDidDelete: ignoreDelete ? never : w.delete.event, dispose: () => void state.watchers.splice(state.watchers.indexOf(w), 1) };
  },
  async findFiles(include: string): Promise<Uri[]> {
    return state.findFiles(include);
  },
  asRelativePath(p: string | Uri): string {
    return typeof p === 'string' ? p : p.path;
  },
  registerTextDocumentContentProvider(scheme: string, provider: { provideTextDocumentContent(uri: Uri): string | undefined }): Disposable {
    const providers = state.contentProviders;
    providers.set(scheme, provider);
    return new Disposable(() => providers.get(scheme) === provider && providers.delete(scheme));
  },
};

export const extensions = {
  get all(): ReadonlyArray<{ id: string; packageJSON: Record<string, unknown> }> {
    return state.installedExtensions;
  },
};

export const env = {
  clipboard: {
    async writeText(text: string): Promise<void> {
      state.clipboard.text = text;
    },
    async readText(): Promise<string> {
      return state.clipboard.text;
    },
  },
};

/** One collection's entries, mirrored into the window's Problems (fake.state.diagnostics). */
class ProblemsEntries extends Map<string, Diagnostic[]> {
  constructor(private readonly problems: Map<string, Diagnostic[]>) {
    super();
  }
  override set(uri: string, d: Diagnostic[]): this {
    this.problems?.set(uri, d);
    return super.set(uri, d);
  }
  override delete(uri: string): boolean {
    this.problems.delete(uri);
    return super.delete(uri);
  }
  override clear(): void {
    for (const uri of this.keys()) this.problems.delete(uri);
    super.clear();
  }
}

export const languages = {
  createDiagnosticCollection(name?: string) {
    const entries = new ProblemsEntries(state.diagnostics);
    return { name, set: (uri: Uri, d: Diagnostic[] | undefined) => void (d ? entries.set(uri.toString(), d) : entries.delete(uri.toString())), get: (uri: Uri) => entries.get(uri.toString()), delete: (uri: Uri) => void entries.delete(uri.toString()), clear: () => entries.clear(), forEach: (f: (uri: Uri, d: Diagnostic[]) => void) => entries.forEach((d, u) => f(Uri.parse(u), d)), dispose: () => entries.clear() };
  },
  registerCodeLensProvider: () => new Disposable(() => undefined),
  registerHoverProvider: () => new Disposable(() => undefined),
  registerCompletionItemProvider: () => new Disposable(() => undefined),
  registerCodeActionsProvider: () => new Disposable(() => undefined),
  getDiagnostics: (): Diagnostic[] => [],
  async setTextDocumentLanguage<D extends object>(document: D, languageId: string): Promise<D> {
    return Object.assign(document, { languageId });
  },
  onDidChangeDiagnostics: new EventEmitter<{ uris: Uri[] }>().event,
};

export class LanguageModelTextPart {
  constructor(public value: string) {}
}

export class LanguageModelToolResult {
  constructor(public content: unknown[]) {}
}

export class McpStdioServerDefinition {
  constructor(
    readonly label: string,
    public command: string,
    public args: string[] = [],
    public env: Record<string, string | number | null> = {},
    public version?: string,
  ) {}
}

interface FakeLanguageModelTool {
  invoke(options: { input: unknown; toolInvocationToken: unknown }, token: unknown): unknown;
  prepareInvocation?(options: { input: unknown }, token: unknown): unknown;
}

/** VS Code's `lm`: a second registration of a tool name throws, as VS Code's does. */
export const lm = {
  registerTool(name: string, tool: FakeLanguageModelTool): Disposable {
    if (state.languageModelTools.has(name)) throw new Error(`Tool "${name}" is already registered.`);
    state.languageModelTools.set(name, tool);
    return new Disposable(() => state.languageModelTools.delete(name));
  },
  /** Calls the tool as an extension's `lm.invokeTool` does: `invoke` alone (no chat, so no confirmation shown). */
  async invokeTool(name: string, options: { input: unknown; toolInvocationToken?: unknown }, token = new CancellationTokenSource().token): Promise<unknown> {
    const tool = state.languageModelTools.get(name);
    if (!tool) throw new Error(`Unknown tool ${name}`);
    return tool.invoke({ input: options.input, toolInvocationToken: options.toolInvocationToken }, token);
  },
  registerMcpServerDefinitionProvider(id: string, provider: { provideMcpServerDefinitions(token: unknown): unknown }): Disposable {
    if (state.mcpServerProviders.has(id)) throw new Error(`MCP server definition provider "${id}" is already registered.`);
    state.mcpServerProviders.set(id, provider);
    return new Disposable(() => state.mcpServerProviders.delete(id));
  },
};

export const version = '1.96.0-fake';
