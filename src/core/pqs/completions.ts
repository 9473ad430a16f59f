/**
 * Completions in `*.pqs.sql` files: PQS's public functions with their signatures, the store's template
 * names (quoted, as PQS takes them), and the payload fields of the participant's templates.
 */
import { PQS_SIGNATURES } from './interface';
import type { FilterPackages } from './filter';

export interface PqsCompletion {
  label: string;
  kind: 'function' | 'template' | 'field';
  detail: string;
  insertText: string;
  documentation?: string;
}

export function pqsCompletions(templateNames: readonly string[], packages?: FilterPackages): PqsCompletion[] {
  const items: PqsCompletion[] = PQS_SIGNATURES.map((f) => ({
    label: f.name,
    kind: 'function',
    detail: f.signature,
    insertText: f.signature.includes('(') ? `${f.name}(` : f.name,
    documentation: f.doc,
  }));
  for (const name of templateNames) items.push({ label: `'${name}'`, kind: 'template', detail: 'template (PQS name)', insertText: `'${name.replace(/'/g, "''")}'` });
  const fields = new Map<string, Set<string>>();
  for (const t of packages?.templatesByPackageName() ?? []) {
    if (t.fields?.kind !== 'record') continue;
    const owner = `${t.packageName}:${t.name.moduleName}:${t.name.name}`;
    for (const f of t.fields.fields) fields.set(f.name, new Set([...(fields.get(f.name) ?? []), owner]));
  }
  for (const [field, owners] of fields) {
    items.push({ label: field, kind: 'field', detail: `payload field of ${[...owners].join(', ')}`, insertText: `payload->>'${field}'` });
  }
  return items;
}
