import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const VSCODE_IMPORT = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.[cm]?[tj]s$/.test(name) ? [p] : [];
  });
}

describe('layering', () => {
  for (const layer of ['src/core', 'src/participant', 'src/cli']) {
    it(`${layer} does not import vscode`, () => {
      const offenders = sources(join(ROOT, layer)).filter((f) => VSCODE_IMPORT.test(readFileSync(f, 'utf8')));
      assert.deepEqual(offenders.map((f) => relative(ROOT, f)), []);
    });
  }
  it('the check itself recognises a vscode import', () => {
    assert.ok(VSCODE_IMPORT.test(`import * as vscode from 'vscode';`));
    assert.ok(VSCODE_IMPORT.test(`const v = require("vscode")`));
    assert.ok(!VSCODE_IMPORT.test(`import x from './vscode-like';`));
  });
});
