// Every button of a notification in the extension, read from the source: VS Code cuts a long label
// ("New Command ID and …"), so each label stays short and the detail goes into the message. A label
// is a string the type checker knows (a literal, a constant, a member of an `as const` object); the
// calls scanned are `window.show*Message(...)` and `Prompts.message(severity, text, [buttons])`.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as fs from 'node:fs';
import ts from 'typescript';

/** The longest label VS Code shows whole in a notification beside another button. */
const LONGEST_LABEL = 20;
const root = path.resolve(__dirname, '../..');
const SHOW_MESSAGE = /^show(Information|Warning|Error)Message$/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [p] : [];
  });
}

interface Label {
  text: string;
  where: string;
}

/** The labels of every message call in src/vscode, and the button expressions whose text is not known statically. */
function scanButtons(): { labels: Label[]; unknown: string[] } {
  const files = sourceFiles(path.join(root, 'src/vscode'));
  const program = ts.createProgram(files, { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, strict: true, noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const labels: Label[] = [];
  const unknown: string[] = [];
  const whereOf = (node: ts.Node) => {
    const sf = node.getSourceFile();
    return `${path.relative(root, sf.fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  };
  /** The strings an expression can be: each member of a union of string literals. */
  const literals = (expr: ts.Expression): string[] | undefined => {
    const type = checker.getTypeAtLocation(expr);
    const parts = type.isUnion() ? type.types : [type];
    const texts = parts.map((t) => (t.isStringLiteral() ? t.value : undefined));
    return texts.every((t): t is string => t !== undefined) ? texts : undefined;
  };
  const collect = (expr: ts.Expression): void => {
    if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr)) return collect(expr.expression);
    if (ts.isArrayLiteralExpression(expr)) {
      for (const e of expr.elements) collect(ts.isSpreadElement(e) ? e.expression : e);
      return;
    }
    if (ts.isConditionalExpression(expr)) {
      collect(expr.whenTrue);
      collect(expr.whenFalse);
      return;
    }
    // An object button ({ title }) carries its label in its title.
    if (ts.isObjectLiteralExpression(expr)) {
      const title = expr.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === 'title');
      if (title) collect(title.initializer);
      return;
    }
    // A parameter passed on (PromptsPort, the window's prompts): its labels are those of the callers, scanned there.
    if (ts.isIdentifier(expr) && checker.getSymbolAtLocation(expr)?.valueDeclaration?.kind === ts.SyntaxKind.Parameter) return;
    const texts = literals(expr);
    if (texts) for (const text of texts) labels.push({ text, where: whereOf(expr) });
    // An array held in a variable (`const buttons = [...]`): its element type says what it holds.
    else if (checker.isArrayType(checker.getTypeAtLocation(expr))) {
      const element = checker.getTypeArguments(checker.getTypeAtLocation(expr) as ts.TypeReference)[0];
      const parts = element.isUnion() ? element.types : [element];
      if (parts.every((t) => t.isStringLiteral())) for (const t of parts) labels.push({ text: (t as ts.StringLiteralType).value, where: whereOf(expr) });
      else unknown.push(`${whereOf(expr)}: ${expr.getText()}`);
    } else unknown.push(`${whereOf(expr)}: ${expr.getText()}`);
  };
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(path.join(root, 'src/vscode'))) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const name = node.expression.name.text;
        if (SHOW_MESSAGE.test(name)) {
          // (message, options?, ...buttons): options are an object without a title.
          for (const arg of node.arguments.slice(1)) {
            if (ts.isObjectLiteralExpression(arg) && !arg.properties.some((p) => p.name?.getText() === 'title')) continue;
            collect(arg);
          }
        } else if (name === 'message' && node.arguments.length >= 3 && checker.isArrayLikeType(checker.getTypeAtLocation(node.arguments[2]))) {
          // Prompts.message(severity, text, buttons, options?)
          collect(node.arguments[2]);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { labels, unknown };
}

describe('Notification buttons (every message call in src/vscode, read from the source)', function () {
  this.timeout(60_000);
  const { labels, unknown } = scanButtons();

  it('finds the buttons it guards (the scan reads the calls)', () => {
    // Some buttons every build has: a failure's "Show Log", a submission's "Open Result".
    const texts = new Set(labels.map((l) => l.text));
    for (const known of ['Show Log', 'Open Result', 'Submit now']) assert.ok(texts.has(known), `"${known}" was not found: the scan missed calls`);
    assert.ok(labels.length > 50, `only ${labels.length} labels found`);
  });

  it(`every label is at most ${LONGEST_LABEL} characters, so VS Code shows it whole`, () => {
    const long = labels.filter((l) => l.text.length > LONGEST_LABEL).map((l) => `${l.where}: "${l.text}" (${l.text.length})`);
    assert.deepEqual([...new Set(long)], []);
  });

  it('every label is known from the source (a constant or a literal), so the length check covers it', () => {
    assert.deepEqual(unknown, []);
  });
});
