// Packages the extension as a .vsix a user installs (`code --install-extension FILE.vsix`):
//
//   npm run package                 build:production, then canton-ledger-explorer-<version>.vsix here
//   node scripts/package.mjs [OUT]  package what dist/ holds now (the test harness packages a dev build)
//
// Importable: `packageVsix({ root, out, log })` and `VSCE_FLAGS`, used by the end-to-end setup and the
// benchmark, so that every .vsix is made the same way.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The project names no public repository, so vsce is told not to need one, and to leave the README's
 * relative links as they are: they point at files the .vsix ships (docs/, examples/, ARCHITECTURE.md,
 * CONTRIBUTING.md; a test keeps it so), which VS Code's Extensions view resolves against the installed
 * extension.
 */
export const VSCE_FLAGS = ['--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links'];

/** Folders vsce would walk before applying .vscodeignore (thousands of files) and that never ship. */
const NEVER_SHIPPED = new Set(['node_modules', '.git', '.vscode-test', 'test-results', '.bench', '.bench-tmp']);

/** Packages `root` (whose dist/ must be built) into `out`; returns `out`. */
export function packageVsix({ root = ROOT, out, log = (m) => console.log(m) } = {}) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const main = manifest.main ?? './dist/extension.js';
  if (!existsSync(path.join(root, main))) throw new Error(`${main} is missing: build the extension first (npm run build:production)`);
  const target = path.resolve(out ?? path.join(root, `${manifest.name}-${manifest.version}.vsix`));
  mkdirSync(path.dirname(target), { recursive: true });
  rmSync(target, { force: true });
  const stage = mkdtempSync(path.join(os.tmpdir(), 'canton-ledger-vsix-'));
  const t = Date.now();
  try {
    for (const e of readdirSync(root)) {
      if (NEVER_SHIPPED.has(e) || e.endsWith('.vsix')) continue;
      cpSync(path.join(root, e), path.join(stage, e), { recursive: true, dereference: true });
    }
    const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
    const r = spawnSync(process.execPath, [vsce, 'package', ...VSCE_FLAGS, '-o', target], { cwd: stage, encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`vsce package failed (exit ${r.status ?? r.signal}):\n${`${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-30).join('\n')}`);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  if (!existsSync(target) || statSync(target).size === 0) throw new Error(`vsce package produced no ${target}`);
  log(`packaged ${path.relative(process.cwd(), target) || target} (${(statSync(target).size / 1024).toFixed(0)} KB) in ${((Date.now() - t) / 1000).toFixed(1)}s`);
  return target;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const out = packageVsix({ out: process.argv[2] });
    console.log(`Install it: code --install-extension ${path.relative(process.cwd(), out)}`);
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
