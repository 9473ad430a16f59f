// The glue's folder rule (ARCHITECTURE.md, "The glue"): every folder of src/vscode but the kit is one
// feature, whose index.ts exports its one `activate…(host)`; src/features.ts reaches a feature only
// through that index; the kit imports no feature. The connection list (connections/manager, profiles,
// tokens) is the exception both ways: the host is built from it and every feature shares it.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { resolveSpecifier, sources } from '../../support/imports';

const ROOT = join(__dirname, '..', '..', '..');
const GLUE = join(ROOT, 'src', 'vscode');
const KIT = 'kit';
/** The host's connection list: built by src/features.ts, held by the kit's host type and registry. */
const CONNECTION_LIST = ['connections/manager.ts', 'connections/profiles.ts', 'connections/tokens.ts'];
/** The files of src/vscode outside a folder: the entry's stand-ins, the table of who owns what and the bundles' loader, bundled with src/extension.ts. */
const ENTRY_FILES = ['bundleLoader.ts', 'deferred.ts', 'owners.ts'];

interface Tree {
  /** The files directly in src/vscode, and its folders. */
  files: string[];
  folders: string[];
  /** A source file's text, by its path relative to src (`vscode/kit/x.ts`, `features.ts`); undefined when missing. */
  read(path: string): string | undefined;
  /** The source files under a folder of src, relative to src. */
  under(folder: string): string[];
}

interface Import {
  /** The imported file, relative to src/vscode (`kit/ids.ts`), or undefined outside it. */
  glue: string | undefined;
  typeOnly: boolean;
}

/** The relative imports of a file (relative to src), resolved against the tree. */
function importsOf(tree: Tree, file: string): Import[] {
  const text = tree.read(file) ?? '';
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const resolved = resolveSpecifier(join('/src', file), specifier, (p) => tree.read(relative('/src', p)) !== undefined);
    if (!resolved) return;
    const fromSrc = relative('/src', resolved).split(sep).join('/');
    found.push({ glue: fromSrc.startsWith('vscode/') ? fromSrc.slice('vscode/'.length) : undefined, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly);
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require' && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      // A feature required when first used (src/features.ts) is a value import.
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The names of the functions a file exports whose name starts with `activate`. */
function activateExports(text: string): string[] {
  const source = ts.createSourceFile('index.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return source.statements.flatMap((s) =>
    ts.isFunctionDeclaration(s) && s.name && /^activate[A-Z]/.test(s.name.text) && s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ? [s.name.text] : [],
  );
}

/** Every way the tree breaks the folder rule, each said in a line. */
function folderRuleViolations(tree: Tree): string[] {
  const problems: string[] = [];
  for (const file of tree.files) if (!ENTRY_FILES.includes(file)) problems.push(`src/vscode/${file} is outside a folder: it belongs to a feature or to the kit`);
  const features = tree.folders.filter((f) => f !== KIT);
  for (const feature of features) {
    const index = tree.read(`vscode/${feature}/index.ts`);
    const activates = index === undefined ? [] : activateExports(index);
    if (activates.length !== 1) problems.push(`src/vscode/${feature}/index.ts exports ${activates.length === 0 ? 'no' : activates.length} activate… function${activates.length === 1 ? '' : 's'} (one is the rule): ${activates.join(', ')}`);
  }
  for (const imported of importsOf(tree, 'features.ts')) {
    // The entry's files (its stand-ins' keys, the owners) are no feature.
    if (!imported.glue || imported.typeOnly || imported.glue.startsWith(`${KIT}/`) || CONNECTION_LIST.includes(imported.glue) || ENTRY_FILES.includes(imported.glue)) continue;
    if (!/^[^/]+\/index\.ts$/.test(imported.glue)) problems.push(`src/features.ts imports src/vscode/${imported.glue}: a feature is reached only through its index.ts`);
  }
  for (const file of tree.under(`vscode/${KIT}`)) {
    for (const imported of importsOf(tree, file)) {
      if (imported.glue && !imported.glue.startsWith(`${KIT}/`) && !CONNECTION_LIST.includes(imported.glue) && !ENTRY_FILES.includes(imported.glue)) problems.push(`src/${file} (kit) imports src/vscode/${imported.glue}, a feature's`);
    }
  }
  return problems;
}

const realTree: Tree = {
  files: readdirSync(GLUE).filter((f) => !statSync(join(GLUE, f)).isDirectory()),
  folders: readdirSync(GLUE).filter((f) => statSync(join(GLUE, f)).isDirectory()),
  read: (path) => (existsSync(join(ROOT, 'src', path)) && !statSync(join(ROOT, 'src', path)).isDirectory() ? readFileSync(join(ROOT, 'src', path), 'utf8') : undefined),
  under: (folder) => sources(join(ROOT, 'src', folder)).map((f) => relative(join(ROOT, 'src'), f).split(sep).join('/')),
};

/** A made-up tree of the given files (relative to src). */
function madeUpTree(texts: Record<string, string>): Tree {
  const glue = Object.keys(texts).filter((p) => p.startsWith('vscode/')).map((p) => p.slice('vscode/'.length));
  return {
    files: glue.filter((p) => !p.includes('/')),
    folders: [...new Set(glue.filter((p) => p.includes('/')).map((p) => p.split('/')[0]))],
    read: (path) => texts[path],
    under: (folder) => Object.keys(texts).filter((p) => p.startsWith(`${folder}/`)),
  };
}

describe('the glue folder rule (a feature per folder, the kit shared)', () => {
  it('holds in src/vscode and src/features.ts', () => {
    assert.ok(realTree.folders.includes(KIT) && realTree.folders.length > 5, `read the real folders: ${realTree.folders.join(', ')}`);
    assert.deepEqual(folderRuleViolations(realTree), []);
  });

  it('every feature folder is activated by src/features.ts', () => {
    const activated = new Set(importsOf(realTree, 'features.ts').flatMap((i) => (i.glue && /^[^/]+\/index\.ts$/.test(i.glue) ? [i.glue.split('/')[0]] : [])));
    assert.deepEqual(realTree.folders.filter((f) => f !== KIT && !activated.has(f)), []);
  });

  it('finds each kind of break in a made-up tree (the check can fail)', () => {
    const tree = madeUpTree({
      'features.ts': "import { activateA } from './vscode/a';\nimport { Thing } from './vscode/b/thing';\nimport type { T } from './vscode/b/thing';\nimport { ConnectionManager } from './vscode/connections/manager';",
      'vscode/a/index.ts': 'export function activateA() {}\nexport function activateAlso() {}',
      'vscode/b/index.ts': 'export function registerB() {}',
      'vscode/b/thing.ts': 'export class Thing {}',
      'vscode/connections/index.ts': 'export function activateConnections() {}',
      'vscode/connections/manager.ts': 'export class ConnectionManager {}',
      'vscode/kit/feature.ts': "import type { ConnectionManager } from '../connections/manager';\nimport type { Thing } from '../b/thing';",
      'vscode/stray.ts': '',
    });
    assert.deepEqual(folderRuleViolations(tree), [
      'src/vscode/stray.ts is outside a folder: it belongs to a feature or to the kit',
      'src/vscode/a/index.ts exports 2 activate… functions (one is the rule): activateA, activateAlso',
      'src/vscode/b/index.ts exports no activate… functions (one is the rule): ',
      'src/features.ts imports src/vscode/b/thing.ts: a feature is reached only through its index.ts',
      'src/vscode/kit/feature.ts (kit) imports src/vscode/b/thing.ts, a feature\'s',
    ]);
  });
});
