import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { FILE_KIND_SUFFIXES, fileKindOf, fileKindSuffix, type FileKind } from '../../../src/core/files/validate';

const VALIDATE = join(__dirname, '..', '..', '..', 'src', 'core', 'files', 'validate.ts');
const KINDS: readonly FileKind[] = ['commands', 'vetting', 'script'];
const EQUALITY = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);

describe('file kinds: one table the kinds register into', () => {
  it('a file name says its kind by the suffix its entry registers, in any case; another name has none', () => {
    assert.deepEqual(FILE_KIND_SUFFIXES, KINDS.map(fileKindSuffix));
    for (const kind of KINDS) {
      assert.equal(fileKindOf(`transfer${fileKindSuffix(kind)}`), kind);
      assert.equal(fileKindOf(`TRANSFER${fileKindSuffix(kind).toUpperCase()}`), kind);
    }
    assert.equal(fileKindOf('transfer.json'), undefined);
    assert.equal(fileKindOf('commands.json'), undefined);
  });

  it('the check compares no kind by name outside the table (a new kind is a new entry, not a new branch)', () => {
    const source = ts.createSourceFile(VALIDATE, readFileSync(VALIDATE, 'utf8'), ts.ScriptTarget.Latest, true);
    const compared: string[] = [];
    const visit = (node: ts.Node): void => {
      // The table itself, and the type that lists the kinds, name them.
      if (ts.isVariableDeclaration(node) && node.name.getText() === 'FILE_KINDS') return;
      if (ts.isTypeAliasDeclaration(node) && node.name.text === 'FileKind') return;
      const named = ts.isStringLiteralLike(node) && (KINDS as readonly string[]).includes(node.text);
      if (named && (ts.isCaseClause(node.parent) || (ts.isBinaryExpression(node.parent) && EQUALITY.has(node.parent.operatorToken.kind)))) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        compared.push(`validate.ts:${line + 1}: '${node.text}'`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    assert.deepEqual(compared, []);
  });
});
