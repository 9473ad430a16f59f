/**
 * A 3.8-shaped description, derived at test time from the newest published spec (3.6): no 3.8 spec is
 * published. It adds what 3.8's release notes announce, in the shapes the client decides at run time:
 * each operation's `security` lists the scope of its API area (the demo's names, `demoAreaScope`), and
 * the GetUpdatesRequest declares the contract-id filter (`UPDATES_CONTRACT_ID_FIELD`, a list of ids).
 */
import { stringify } from 'yaml';
import { UPDATES_CONTRACT_ID_FIELD } from '../../src/core/api/contractIdFilter';
import { apiAreaOf } from '../../src/core/auth/scopes';
import type { OpenApiDocument as CoreOpenApiDocument } from '../../src/core/compat/openapi';
import { demoAreaScope } from '../../src/participant/auth';
import { loadSpec } from './spec';

export interface Derived38 {
  document: CoreOpenApiDocument;
  /** As a participant serves it (`participant --openapi`, `openapi: { text }`). */
  text: string;
}

export function derive38Spec(options: { scopes?: boolean; contractIdFilter?: boolean } = {}): Derived38 {
  const doc = structuredClone(loadSpec('main-3.6')) as unknown as {
    info: { version: string };
    paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
  };
  doc.info.version = '3.8.0';
  if (options.scopes !== false) {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const op of Object.values(item)) {
        if (!op || typeof op !== 'object' || !Array.isArray(op.security)) continue;
        const scope = demoAreaScope(apiAreaOf(path));
        op.security = op.security.map((requirement) => Object.fromEntries(Object.keys(requirement).map((scheme) => [scheme, [scope]])));
      }
    }
  }
  if (options.contractIdFilter !== false) {
    const request = doc.components.schemas.GetUpdatesRequest;
    request.properties = { ...request.properties, [UPDATES_CONTRACT_ID_FIELD]: { type: 'array', items: { type: 'string' } } };
  }
  return { document: doc as unknown as CoreOpenApiDocument, text: stringify(doc) };
}
