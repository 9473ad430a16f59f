// Every question of the glue goes through the prompts port (src/vscode/kit/prompts.ts): outside the window's
// side of it (src/vscode/kit/ui.ts), nothing in src/vscode or src/features.ts calls the window's messages,
// quick picks, input boxes, dialogs or progress, so that a test answers every question by replacing
// the port's `current`. Read from the source with the type checker: a call is the window's when what
// it names is declared by VS Code's API (`vscode.window.showInputBox`, a `window` passed in, a name
// taken out of it), whatever the local names.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../../..');

/** The window's questions and progress. */
const QUESTIONS = new Set([
  'showInformationMessage',
  'showWarningMessage',
  'showErrorMessage',
  'showInputBox',
  'showQuickPick',
  'showOpenDialog',
  'showSaveDialog',
  'showWorkspaceFolderPick',
  'withProgress',
  'createInputBox',
  'createQuickPick',
]);

/** The window's side of the port: the one file that may ask the window. */
const WINDOW_SIDE = 'src/vscode/kit/ui.ts';

/**
 * The one question asked elsewhere: the entry's loader says when the features could not load, and the
 * port is made by the features; its window is the host passed in, which its tests fake.
 */
const BEFORE_THE_PORT = [{ file: 'src/vscode/deferred.ts', name: 'showErrorMessage' }];

const COMPILER_OPTIONS: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, strict: true, noEmit: true, skipLibCheck: true, types: [] };

interface Violation {
  file: string;
  line: number;
  name: string;
}

/** Declared by VS Code's API (its type definitions), not by the extension. */
const isVscodeApi = (symbol: ts.Symbol | undefined): boolean =>
  (symbol?.declarations ?? []).some((d) => /[\\/]@types[\\/]vscode[\\/]/.test(d.getSourceFile().fileName));

/** Every use of a window question in `files` (paths relative to the root), as the type checker resolves the names. */
function windowQuestions(program: ts.Program, files: string[]): Violation[] {
  const checker = program.getTypeChecker();
  const found: Violation[] = [];
  for (const file of files) {
    const sf = program.getSourceFile(path.join(root, file));
    if (!sf) throw new Error(`${file} is not in the program`);
    const add = (node: ts.Node, name: string) => found.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1, name });
    const visit = (node: ts.Node): void => {
      // `window.showInputBox`, `host.window.showErrorMessage`, `w.withProgress` (w = vscode.window).
      if (ts.isPropertyAccessExpression(node) && QUESTIONS.has(node.name.text)) {
        if (isVscodeApi(checker.getSymbolAtLocation(node.name)) || /\bwindow$/.test(node.expression.getText())) add(node.name, node.name.text);
      }
      // `window['showInputBox']`.
      if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && QUESTIONS.has(node.argumentExpression.text)) {
        if (isVscodeApi(checker.getTypeAtLocation(node.expression).getProperty(node.argumentExpression.text))) add(node.argumentExpression, node.argumentExpression.text);
      }
      // `const { showInputBox } = vscode.window`, `const { showInputBox: ask } = window`.
      if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        const key = node.propertyName ?? node.name;
        const name = ts.isIdentifier(key) || ts.isStringLiteralLike(key) ? key.text : undefined;
        if (name && QUESTIONS.has(name) && isVscodeApi(checker.getTypeAtLocation(node.parent).getProperty(name))) add(key, name);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

const outsideTheWindowSide = (v: Violation) => v.file !== WINDOW_SIDE && !BEFORE_THE_PORT.some((a) => a.file === v.file && a.name === v.name);

describe('the prompts port: every question of the glue goes through it (read from the source)', function () {
  this.timeout(120_000);

  it('finds a window question however it is reached, and not a method of the same name (the check can fail)', () => {
    // A file of the glue that asks the window in every way the check knows, beside calls it must let be.
    const probe = path.join(root, 'src/vscode/kit/promptsProbe.ts');
    const text = [
      "import vscode = require('vscode');",
      "import type { Prompts } from './prompts';",
      'export async function probe(prompts: Prompts, host: { window: Pick<typeof vscode.window, "showErrorMessage"> }) {',
      "  await vscode.window.showInputBox({ title: 'a' });",
      "  await vscode.window.showQuickPick(['a']);",
      "  void host.window.showErrorMessage('a');",
      '  const w = vscode.window;',
      "  await w.withProgress({ location: vscode.ProgressLocation.Notification }, async () => 1);",
      '  const { createQuickPick, showWarningMessage: warn } = vscode.window;',
      "  createQuickPick().show(); void warn('a');",
      "  vscode.window['createInputBox']();",
      "  await vscode.window.showSaveDialog({});",
      // Not the window's: the port, and a method of the same name.
      "  await prompts.input({ title: 'a' }); await prompts.progress('a', async () => 1);",
      '  const view = { withProgress: async <T>(task: () => Promise<T>) => task() };',
      '  await view.withProgress(async () => 1);',
      "  await vscode.window.showTextDocument(vscode.Uri.file('/a'));",
      '}',
    ].join('\n');
    const host = ts.createCompilerHost(COMPILER_OPTIONS);
    const getSourceFile = host.getSourceFile;
    host.getSourceFile = (name, version, ...rest) => (path.resolve(name) === probe ? ts.createSourceFile(name, text, version) : getSourceFile.call(host, name, version, ...rest));
    const fileExists = host.fileExists;
    host.fileExists = (name) => path.resolve(name) === probe || fileExists.call(host, name);
    const program = ts.createProgram([probe], COMPILER_OPTIONS, host);
    const found = windowQuestions(program, [path.relative(root, probe)]);
    assert.deepEqual(
      found.map((v) => `${v.line} ${v.name}`),
      ['4 showInputBox', '5 showQuickPick', '6 showErrorMessage', '8 withProgress', '9 createQuickPick', '9 showWarningMessage', '11 createInputBox', '12 showSaveDialog'],
    );
    assert.deepEqual(found.filter(outsideTheWindowSide).length, found.length, 'the probe is not the window side');
  });

  it(`src/vscode and src/features.ts ask the window only in ${WINDOW_SIDE}`, () => {
    const glue = path.join(root, 'src/vscode');
    const files = [...(fs.readdirSync(glue, { recursive: true }) as string[]).filter((f) => /(?<!\.d)\.ts$/.test(f)).map((f) => path.join(glue, f)), path.join(root, 'src/features.ts')];
    const program = ts.createProgram(files, COMPILER_OPTIONS);
    const found = windowQuestions(program, files.map((f) => path.relative(root, f)));
    // The window side is read too: the check sees the calls the port makes.
    assert.ok(found.filter((v) => v.file === WINDOW_SIDE).length >= 8, `the window's own calls were not found: ${JSON.stringify(found)}`);
    assert.deepEqual(found.filter(outsideTheWindowSide).map((v) => `${v.file}:${v.line}: ${v.name}`), []);
    // The one call before the port exists is still there (else the exception goes).
    assert.deepEqual(BEFORE_THE_PORT.filter((a) => !found.some((v) => v.file === a.file && v.name === a.name)), []);
  });
});
