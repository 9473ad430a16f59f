import vscode = require('vscode');
import { fixesFor, type Fix, type FixContext } from '../../../core/files/fixes';
import type { Problem } from '../../../core/files/validate';
import type { ConnectionFacts } from './connectionFacts';
import { DIAGNOSTIC_SOURCE, JSON_DIAGNOSTIC_SOURCE, type FileDiagnostics } from './diagnostics';

/**
 * Quick fixes for the diagnostics of {@link FileDiagnostics}: the core computes them from the problem's
 * code and data; this adds what the active connection knows (parties, package names).
 */
export class FileQuickFixes implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly diagnostics: FileDiagnostics, private readonly facts: ConnectionFacts) {}

  async provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext, token: vscode.CancellationToken): Promise<vscode.CodeAction[]> {
    // A syntax error VS Code's JSON support shows is not shown again by us (see FileDiagnostics): it gets our fixes.
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE || d.source === JSON_DIAGNOSTIC_SOURCE);
    if (ours.length === 0) return [];
    if (context.only && !vscode.CodeActionKind.QuickFix.intersects(context.only)) return [];
    const text = document.getText();
    const problems = this.diagnostics.problemsOf(document);
    const matched = ours.map((d) => [d, problems.find((p) => sameProblem(p, d))] as const).filter((m): m is readonly [vscode.Diagnostic, Problem] => !!m[1]);
    const fixContext = await this.fixContext(matched.map(([, p]) => p), token);
    fixContext.indent = indentOf(document);

    const actions: vscode.CodeAction[] = [];
    for (const [diagnostic, problem] of matched) {
      for (const fix of fixesFor(text, problem, fixContext)) actions.push(toAction(document, diagnostic, fix));
    }
    return actions;
  }

  /** Asks the participant only for what the problems at hand need. */
  private async fixContext(problems: Problem[], token: vscode.CancellationToken): Promise<FixContext> {
    const context: FixContext = { actAsParties: this.facts.actAsParties() };
    if (problems.some((p) => p.code === 'package-id-template')) {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        context.packageNames = await this.facts.packageNames(controller.signal);
      } catch {
        // Cancelled (the light bulb moved on): offer what needs no participant.
      } finally {
        sub.dispose();
      }
    }
    return context;
  }
}

/** Inserted JSON is indented as the document's editor is (two spaces when it is not shown). */
function indentOf(document: vscode.TextDocument): FixContext['indent'] {
  const options = vscode.window.visibleTextEditors.find((e) => e.document === document)?.options;
  const tabSize = typeof options?.tabSize === 'number' ? options.tabSize : 2;
  return { insertSpaces: options?.insertSpaces !== false, tabSize };
}

function sameProblem(problem: Problem, diagnostic: vscode.Diagnostic): boolean {
  const { start, end } = diagnostic.range;
  return (
    (diagnostic.source === JSON_DIAGNOSTIC_SOURCE ? problem.code === 'json-syntax' : problem.code === diagnostic.code) &&
    problem.line - 1 === start.line &&
    problem.column - 1 === start.character &&
    problem.endLine - 1 === end.line &&
    problem.endColumn - 1 === end.character
  );
}

function toAction(document: vscode.TextDocument, diagnostic: vscode.Diagnostic, fix: Fix): vscode.CodeAction {
  const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
  action.diagnostics = [diagnostic];
  action.isPreferred = fix.preferred;
  action.edit = new vscode.WorkspaceEdit();
  for (const e of fix.edits) {
    action.edit.replace(document.uri, new vscode.Range(document.positionAt(e.offset), document.positionAt(e.offset + e.length)), e.newText);
  }
  return action;
}
