/**
 * The guard: before the client sends a request, the participant's own description decides whether
 * it would refuse it (no such endpoint, a required field the body lacks, an enum value or a variant
 * case it does not know). A refused request is not sent; the caller gets the report's line.
 */
import { catalogueEntry, childPath, type CataloguedOperation, type SentField } from './catalogue';
import type { CompatibilityCheck, OperationRules } from './check';
import type { CompatibilityFinding } from './report';
import { findingLine } from './wording';

/** A request as the client is about to send it: its endpoint (as the version table writes it), query and body. */
export interface OutgoingRequest {
  method: string;
  path: string;
  query?: Readonly<Record<string, unknown>>;
  body?: unknown;
}

/** The finding that makes the participant refuse this request, or undefined when it would take it. */
export function refusalOf(check: CompatibilityCheck, operation: CataloguedOperation, request: OutgoingRequest): CompatibilityFinding | undefined {
  const rules = check.rules.get(operation);
  if (!rules) return undefined;
  if (rules.refused) return rules.refused;
  const body = catalogueEntry(operation).body;
  if (body === undefined || body === 'bytes' || request.body === undefined) return undefined;
  const found = (facts: Omit<CompatibilityFinding, 'line' | 'operation' | 'method' | 'path'>): CompatibilityFinding => {
    // The report's own finding when it has this one, so that the error and the report read alike.
    const known = check.report.operations
      .find((o) => o.operation === operation)
      ?.findings.find((f) => f.kind === facts.kind && f.field === facts.field && f.value === facts.value);
    if (known) return known;
    const full = { ...facts, operation, method: request.method, path: request.path };
    return { ...full, line: findingLine(full) };
  };
  return walk(rules, body.root, request.body, rules.root ?? body.schema, found);
}

function walk(rules: OperationRules, field: SentField, value: unknown, at: string, found: (f: Omit<CompatibilityFinding, 'line' | 'operation' | 'method' | 'path'>) => CompatibilityFinding): CompatibilityFinding | undefined {
  if (field.opaque || value === undefined || value === null) return undefined;
  const rule = rules.positions.get(at);
  const unknownValue = (v: unknown) => typeof v === 'string' && rule?.values !== undefined && !rule.values.includes(v);
  if (Array.isArray(value)) {
    const bad = value.find(unknownValue);
    if (bad !== undefined) return found({ kind: 'enum-value', severity: 'error', field: at, value: bad as string, known: [...rule!.values!] });
    if (!field.items) return undefined;
    for (const item of value) {
      const f = walk(rules, field.items, item, `${at}[]`, found);
      if (f) return f;
    }
    return undefined;
  }
  if (unknownValue(value)) return found({ kind: 'enum-value', severity: 'error', field: at, value: value as string, known: [...rule!.values!] });
  if (typeof value !== 'object') return undefined;
  const json = value as Record<string, unknown>;
  for (const name of rule?.required ?? []) {
    if (json[name] === undefined || json[name] === null) return found({ kind: 'required-field', severity: 'error', field: childPath(at, name), sentSometimes: true });
  }
  for (const [name, member] of Object.entries(json)) {
    if (member === undefined) continue;
    if (rule?.cases && !rule.cases.includes(name)) return found({ kind: 'unknown-case', severity: 'error', field: at, value: name, known: [...rule.cases] });
    const sub = field.entries ?? field.fields?.[name];
    const f = sub && walk(rules, sub, member, childPath(at, field.entries ? '*' : name), found);
    if (f) return f;
  }
  return undefined;
}
