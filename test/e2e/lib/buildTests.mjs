// Compiles the in-host test entry (test/e2e/index.ts) and every suite (test/e2e/suite/**/*.test.ts)
// into .vscode-test/e2e-out/ as CommonJS, one bundle per file. `vscode` and `mocha` stay external:
// the extension host provides `vscode`, and `mocha` resolves to the repo's node_modules at run time.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT, VSCODE_TEST } from '../setup.mjs';

export const E2E_SRC = path.join(ROOT, 'test', 'e2e');
export const E2E_OUT = path.join(VSCODE_TEST, 'e2e-out');
/** The `extensionTestsPath` for both code-server and @vscode/test-electron. */
export const TESTS_ENTRY = path.join(E2E_OUT, 'index.js');

export function listSuites() {
  const dir = path.join(E2E_SRC, 'suite');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join(dir, f));
}

export async function buildInHostTests() {
  rmSync(E2E_OUT, { recursive: true, force: true });
  const suites = listSuites();
  await esbuild.build({
    entryPoints: [path.join(E2E_SRC, 'index.ts'), ...suites],
    outbase: E2E_SRC,
    outdir: E2E_OUT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    sourcesContent: false,
    external: ['vscode', 'mocha'],
    // ESM builds first: jsonc-parser's UMD `main` requires files esbuild cannot follow (as in scripts/build.mjs).
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  return { entry: TESTS_ENTRY, suites: suites.map((s) => path.relative(ROOT, s)) };
}
