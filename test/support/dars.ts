/**
 * Real Daml packages (DARs) as test data. They are not part of this repository: they live in
 * `../shared/daml/dars/` beside it (see its README). Tests that need them call {@link requireDar}, so a
 * missing folder skips them loudly instead of letting them pass silently.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PackageCache } from '../../src/core/daml/packageIndex';
import type { DarContents } from '../../src/core/daml/lf/archive';
import { REPO_ROOT } from './spec';

export const DAR_DIR = resolve(REPO_ROOT, '../shared/daml/dars');

export const DARS = {
  ping: 'canton-builtin-admin-workflow-ping.dar',
  adminWorkflows33: 'AdminWorkflows-3.3.dar',
  definitions: 'DamlDefinitionsServiceMain.dar',
  encoder21: 'encoder-test-2.1.dar',
  encoder22: 'encoder-test-2.2.dar',
  amulet: 'splice-amulet-0.1.14.dar',
  holding: 'splice-api-token-holding-v1-1.0.0.dar',
} as const;

export type DarName = (typeof DARS)[keyof typeof DARS];
export const ALL_DARS: readonly DarName[] = Object.values(DARS);

let warned = false;

/** The bytes of a shared DAR; skips the current test or suite (with a banner, once) when it is missing. */
export function requireDarBytes(context: Mocha.Context, name: DarName): Uint8Array {
  const path = resolve(DAR_DIR, name);
  if (!existsSync(path)) {
    if (!warned) {
      warned = true;
      const line = '='.repeat(100);
      console.warn(`\n${line}\n  SKIPPING Daml package tests: ${path} is missing.\n  The DARs live in ../shared/daml/dars/ beside the repository (see its README).\n${line}\n`);
    }
    context.skip();
  }
  return readFileSync(path);
}

// Decoded once for the whole run: several suites read the same DARs.
const cache = new PackageCache();
const decoded = new Map<DarName, DarContents>();

/** A shared DAR, decoded (once per test run); skips like {@link requireDarBytes} when it is missing. */
export function requireDar(context: Mocha.Context, name: DarName): DarContents {
  const bytes = requireDarBytes(context, name);
  let contents = decoded.get(name);
  if (!contents) {
    contents = cache.fromDar(bytes);
    decoded.set(name, contents);
  }
  return contents;
}
