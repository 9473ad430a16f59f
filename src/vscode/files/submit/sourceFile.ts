import vscode = require('vscode');
import * as path from 'node:path';
import type { ArgumentContext } from '../../../core/files/argumentChecks';
import { checkBeforeSending, fileKindOf, type FileKind, type Problem } from '../../../core/files/validate';
import type { LedgerConnection } from '../../../core/ledger/connection';
import type { ConnectionTargets } from '../../kit/registry';
import type { Prompts } from '../../kit/prompts';
import { DOCUMENT_SCHEME } from '../../kit/schemes';
import { columnsShowing, readableColumn } from '../../kit/layout';

/** The file a send command acts on: given by a menu or CodeLens, else the active editor's. */
export function targetUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  return vscode.window.activeTextEditor?.document.uri;
}

/** What the user sees: the open document's text (also unsaved), else the file on disk. */
export async function currentText(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

export function fileName(uri: vscode.Uri): string {
  return path.posix.basename(uri.path);
}

export interface CheckedSource {
  uri: vscode.Uri;
  text: string;
  value: unknown;
}

/**
 * The file's value when it is of `kind` and has no errors; otherwise tells the user why it is not
 * sent (the first problems, and "Show Problems" to go to them) and returns undefined.
 */
export async function checkedSource(arg: unknown, kind: FileKind, prompts: Prompts, notDone: string): Promise<CheckedSource | undefined> {
  const uri = targetUri(arg);
  const expected = kind === 'commands' ? '*.commands.json' : '*.vetting.json';
  if (!uri || fileKindOf(fileName(uri)) !== kind) {
    await prompts.message('error', `Open or select a ${expected} file first.`, []);
    return undefined;
  }
  let text: string;
  try {
    text = await currentText(uri);
  } catch (e) {
    // Gone or unreadable (e.g. re-submitting from the history after the file was deleted).
    await prompts.message('error', `${fileName(uri)} ${notDone}: it cannot be read (${e instanceof Error ? e.message : String(e)}).`, []);
    return undefined;
  }
  return checkedText(uri, text, kind, prompts, notDone);
}

/** The text's value when it has no errors (with `packages`: no placeholder either), else undefined after saying why. */
async function checkedText(uri: vscode.Uri, text: string, kind: FileKind, prompts: Prompts, notDone: string, packages?: ArgumentContext): Promise<CheckedSource | undefined> {
  const { value, problems } = checkBeforeSending(kind, text, packages);
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length === 0) return { uri, text, value };
  const listed = errors.slice(0, 3).map((p) => `line ${p.line}:${p.column} ${p.message}`);
  const more = errors.length > listed.length ? ` (and ${errors.length - listed.length} more)` : '';
  const choice = await prompts.message('error', `${fileName(uri)} ${notDone}: it has ${errors.length} error${errors.length === 1 ? '' : 's'}: ${listed.join('; ')}${more}`, ['Show Problems']);
  if (choice === 'Show Problems') await showProblems(uri, errors[0]);
  return undefined;
}

/** What a send command needs to find its file's target connection. */
export interface SendTargets {
  targets: ConnectionTargets;
}

/**
 * What a send command starts from: the checked file (see checkedSource), then the connection to send it
 * to (the active one, else asked once), then, for a commands file, the check again with that
 * participant's packages (a placeholder left in a Daml value is refused before anything is sent).
 * Undefined when any of these is missing; the user was told why.
 */
export async function checkedSourceAndTarget(
  deps: SendTargets,
  arg: unknown,
  kind: FileKind,
  prompts: Prompts,
  notDone: string,
  purpose: string,
): Promise<{ source: CheckedSource; connection: LedgerConnection } | undefined> {
  const checked = await checkedSource(arg, kind, prompts, notDone);
  if (!checked) return undefined;
  const connection = await deps.targets.resolve(undefined, { purpose });
  if (!connection) return undefined;
  if (kind !== 'commands') return { source: checked, connection };
  const packages = await packagesOf(connection, prompts);
  const source = packages ? await checkedText(checked.uri, checked.text, kind, prompts, notDone, packages) : checked;
  return source && { source, connection };
}

/** The participant's packages when they can be read (read once per connection; the editor's checks have mostly read them already). */
async function packagesOf(connection: LedgerConnection, prompts: Prompts): Promise<ArgumentContext | undefined> {
  const known = connection.packages();
  const state = known.state === 'ready' ? known : await prompts.progress(`Reading the packages of ${connection.profile.name}`, (signal) => connection.readPackages(signal));
  return state.state === 'ready' ? state.context : undefined;
}

/** Opens the file at its first problem and the Problems panel. */
async function showProblems(uri: vscode.Uri, first: Problem): Promise<void> {
  const start = new vscode.Position(first.line - 1, first.column - 1);
  const end = new vscode.Position(first.endLine - 1, first.endColumn - 1);
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(start, end) });
  await vscode.commands.executeCommand('workbench.actions.view.problems');
}

/** Applies jsonc-parser edits to the file (as an undoable edit; the document is opened if needed). */
export async function applyJsonEdits(uri: vscode.Uri, edits: ReadonlyArray<{ offset: number; length: number; content: string }>): Promise<boolean> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  for (const e of edits) edit.replace(uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.content);
  return vscode.workspace.applyEdit(edit);
}

/**
 * Where a preview opens: in the column that shows one already (previewing again, or another file,
 * does not spread over the editor area); else where there is room to read it (beside the file while
 * it is the only column).
 */
export function previewColumn(): vscode.ViewColumn {
  return columnsShowing(isPreview)[0] ?? readableColumn();
}

/**
 * Where a submission's result opens: in the column that shows a result already, else where it can be
 * read; never over a preview in view, whose "Open Result" and "Compare with Committed" stay usable.
 */
export function submissionColumn(): vscode.ViewColumn {
  const previews = columnsShowing(isPreview);
  return columnsShowing(isSubmission).find((c) => !previews.includes(c)) ?? readableColumn(previews);
}

const isPreview = (uri: vscode.Uri): boolean => uri.scheme === DOCUMENT_SCHEME && uri.path.startsWith('/previews/');
const isSubmission = (uri: vscode.Uri): boolean => uri.scheme === DOCUMENT_SCHEME && uri.path.startsWith('/submissions/');
