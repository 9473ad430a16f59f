import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Every `.ts` file under `dir`, for the tests that check a rule of the code's structure. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : name.endsWith('.ts') ? [p] : [];
  });
}

/** A file's path under `root`, with forward slashes. */
export function pathUnder(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}
