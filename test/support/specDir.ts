import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** `../shared/canton-api` beside the repository: the official specs and examples, never copied here. */
export const SPEC_DIR = resolve(__dirname, '..', '..', '..', 'shared', 'canton-api');

export function sharedAvailable(): boolean {
  return existsSync(join(SPEC_DIR, 'openapi.yaml'));
}
