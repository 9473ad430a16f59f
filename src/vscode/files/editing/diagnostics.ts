import vscode = require('vscode');
import { Disposable, toDisposable } from '../../kit/lifecycle';
import { fileKindOf, validateText, type FileKind, type Problem, type ValidateOptions } from '../../../core/files/validate';

/** The `source` of every diagnostic the extension publishes for these files. */
export const DIAGNOSTIC_SOURCE = 'Canton Ledger';

/** How long typing must pause before a document is validated again. */
const DEBOUNCE_MS = 250;

/** The kind of an editable commands/vetting document (a file or an untitled document with such a name); undefined otherwise. */
export function editableFileKind(document: vscode.TextDocument): FileKind | undefined {
  if (document.uri.scheme !== 'file' && document.uri.scheme !== 'untitled' && document.uri.scheme !== 'vscode-remote') return undefined;
  return fileKindOf(document.uri.path);
}

const SEVERITIES = { error: vscode.DiagnosticSeverity.Error, warning: vscode.DiagnosticSeverity.Warning, info: vscode.DiagnosticSeverity.Information };

/** Where the Daml packages for argument checks come from (undefined while they load: no checks, no note yet). */
export interface PackagesSource {
  current(): ValidateOptions['packages'] | undefined;
  /** The participant's parties, which a ledger script's aliases must match. */
  parties?(): ValidateOptions['parties'];
  onDidChange: vscode.Event<void>;
}

/** A diagnostic for a core problem: same range (core lines/columns are 1-based), code and severity. */
export function toDiagnostic(problem: Problem): vscode.Diagnostic {
  const range = new vscode.Range(problem.line - 1, problem.column - 1, problem.endLine - 1, problem.endColumn - 1);
  const severity = SEVERITIES[problem.severity];
  const diagnostic = new vscode.Diagnostic(range, problem.message, severity);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = problem.code;
  // Canton drops these fields silently: shown faded, like unused code.
  if (problem.code === 'unknown-field' || problem.code === 'deprecated-field') diagnostic.tags = [vscode.DiagnosticTag.Unnecessary];
  return diagnostic;
}

/** The `source` of the diagnostics of VS Code's own JSON support. */
export const JSON_DIAGNOSTIC_SOURCE = 'json';

/**
 * The lines where VS Code's JSON support shows a syntax error (an error of its own, not a schema
 * warning). It reports most syntax errors itself, but not all (not an empty document; comments,
 * depending on its settings): the core's `json-syntax` problems are shown where it shows none, so
 * that each error is listed once.
 */
function jsonSyntaxLines(uri: vscode.Uri): Set<number> {
  return new Set(
    vscode.languages
      .getDiagnostics(uri)
      .filter((d) => d.source === JSON_DIAGNOSTIC_SOURCE && d.severity === vscode.DiagnosticSeverity.Error)
      .map((d) => d.range.start.line),
  );
}

/**
 * Validates `*.commands.json` / `*.vetting.json` documents with the core validator (the same as the CLI's
 * `validate`) when they open and, debounced, as they change. A run scheduled for an older version of a
 * document is dropped, so a slow or stale result never overwrites a newer one.
 */
export class FileDiagnostics extends Disposable {
  private readonly collection = this._register(vscode.languages.createDiagnosticCollection('canton-ledger-files'));
  private readonly pending = new Map<string, NodeJS.Timeout>();
  /** The problems behind the published diagnostics, per document and version: quick fixes read their data. */
  private readonly problems = new Map<string, { version: number; problems: Problem[] }>();
  /** What is shown per document (a key of the problems shown), so that showing again changes nothing when nothing moved. */
  private readonly shown = new Map<string, string>();

  constructor(private readonly packages: PackagesSource) {
    super();
    this._register(
      toDisposable(() => {
        this.pending.forEach((t) => clearTimeout(t));
        this.pending.clear();
      }),
    );
    this._registerAll(
      // New packages (a connection read its packages, a .dar changed): check the open files again.
      packages.onDidChange(() => vscode.workspace.textDocuments.forEach((d) => this.validateNow(d))),
      vscode.workspace.onDidOpenTextDocument((d) => this.validateNow(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
      // A rename can turn a file into (or out of) a commands/vetting file.
      vscode.workspace.onDidRenameFiles((e) => e.files.forEach((f) => this.forget(f.oldUri))),
      // VS Code's JSON support answers after us: a syntax error it shows is not shown twice.
      vscode.languages.onDidChangeDiagnostics((e) => e.uris.forEach((uri) => this.show(uri))),
    );
    vscode.workspace.textDocuments.forEach((d) => this.validateNow(d));
  }

  /** The problems of the document's current text (validated now if the last run is older). */
  problemsOf(document: vscode.TextDocument): Problem[] {
    const kind = editableFileKind(document);
    if (!kind) return [];
    const known = this.problems.get(document.uri.toString());
    if (known?.version === document.version) return known.problems;
    return this.publish(document, kind);
  }

  private schedule(document: vscode.TextDocument): void {
    if (!editableFileKind(document)) return;
    const key = document.uri.toString();
    clearTimeout(this.pending.get(key));
    const version = document.version;
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        // Typing went on meanwhile: that change scheduled its own run.
        if (document.isClosed || document.version !== version) return;
        this.validateNow(document);
      }, DEBOUNCE_MS),
    );
  }

  private validateNow(document: vscode.TextDocument): void {
    const kind = editableFileKind(document);
    if (kind) this.publish(document, kind);
  }

  private publish(document: vscode.TextDocument, kind: FileKind): Problem[] {
    const { problems } = validateText(kind, document.getText(), { packages: this.packages.current(), parties: kind === 'script' ? this.packages.parties?.() : undefined });
    this.problems.set(document.uri.toString(), { version: document.version, problems });
    this.show(document.uri);
    return problems;
  }

  /** Publishes the document's problems, but the syntax errors VS Code's JSON support shows already. */
  private show(uri: vscode.Uri): void {
    const key = uri.toString();
    const known = this.problems.get(key);
    if (!known) return;
    const syntaxLines = jsonSyntaxLines(uri);
    const shown = known.problems.filter((p) => p.code !== 'json-syntax' || !syntaxLines.has(p.line - 1));
    const shownKey = `${known.version}:${shown.map((p) => `${p.offset}:${p.code}`).join(',')}`;
    // Our own publishing fires the diagnostics event too: only a change is published.
    if (this.shown.get(key) === shownKey) return;
    this.shown.set(key, shownKey);
    this.collection.set(uri, shown.map(toDiagnostic));
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.delete(key);
    this.problems.delete(key);
    this.shown.delete(key);
    this.collection.delete(uri);
  }
}
