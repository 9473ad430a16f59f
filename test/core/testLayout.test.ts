import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const TEST_CORE = join(ROOT, 'test', 'core');
const SRC_CORE = join(ROOT, 'src', 'core');

/**
 * Suites at the top of `test/core` that test no one module of `src/core` but all of it, or a file
 * outside `src`: the imports between the layers, the TextMate grammar in `syntaxes/`, and this one.
 */
const CROSS_CUTTING = ['layering.test.ts', 'syntaxes.test.ts', 'testLayout.test.ts'];

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? testFiles(p) : name.endsWith('.test.ts') ? [p] : [];
  });
}

const rel = (f: string) => relative(ROOT, f).split(sep).join('/');

describe('test/core mirrors src/core', () => {
  it('every test file is in the folder of src/core its code lives in', () => {
    const astray = testFiles(TEST_CORE).filter((f) => !existsSync(join(SRC_CORE, relative(TEST_CORE, dirname(f)))));
    assert.deepEqual(astray.map(rel), []);
  });

  it('a test file at the top of test/core is named after a module at the top of src/core (`errorCauses.test.ts`, `connections.wizard.test.ts`), or is a cross-cutting suite', () => {
    const top = readdirSync(TEST_CORE).filter((name) => name.endsWith('.test.ts') && !CROSS_CUTTING.includes(name));
    const unnamed = top.filter((name) => !existsSync(join(SRC_CORE, `${name.split('.')[0]}.ts`)));
    assert.deepEqual(unnamed, []);
  });

  it('the cross-cutting suites exist (a stale entry is removed from the list)', () => {
    assert.deepEqual(CROSS_CUTTING.filter((name) => !existsSync(join(TEST_CORE, name))), []);
  });
});
