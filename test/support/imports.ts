// Reading the imports of source files, for the tests that keep the layers and the glue's folders.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** Every source file under `dir`, recursively. */
export function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.[cm]?[tj]s$/.test(name) ? [p] : [];
  });
}

/**
 * The module specifiers a source file names: `import … from`, `import '…'`, `export … from`,
 * `import x = require(…)`, `require('…')` and `import('…')` with a literal, and `typeof import('…')`
 * types. Type-only imports count: they tie the files together as much for a reader.
 */
export function specifiersOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const literal = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The source file a relative specifier names (`./x` → `x.ts` or `x/index.ts`); undefined for packages. */
export function resolveSpecifier(from: string, specifier: string, exists: (path: string) => boolean = existsSync): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.js`, join(base, 'index.ts'), join(base, 'index.js')].find((p) => /\.[cm]?[tj]s$/.test(p) && exists(p));
}
