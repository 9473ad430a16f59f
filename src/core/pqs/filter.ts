/**
 * Payload filters: `PATH OPERATOR VALUE` (`amount>=1000`, `owner=Alice::1220…`, `wallet.holder~bob`).
 * The path and the value always travel as query parameters; the operator is picked from a fixed
 * table, so nothing the user typed is ever spliced into SQL. Checked against the template's fields
 * (from the participant's Daml packages) before anything is sent.
 */
import type { DamlType, DataType, QualifiedName } from '../daml/model';
import type { TypeLookup } from '../daml/packageIndex';
import { PqsError } from './errors';

export type FilterOperator = '=' | '!=' | '<' | '<=' | '>' | '>=' | '~';

export interface PayloadFilter {
  /** Field names (and list indexes) from the payload's root. */
  path: string[];
  op: FilterOperator;
  value: string;
  /** Compare as numbers (Int64, Numeric) rather than as text. */
  numeric: boolean;
}

const FILTER = /^\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\s*(!=|<=|>=|=|<|>|~)\s*(.*?)\s*$/s;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** Parses one filter; a clear error with the position of what is wrong. */
export function parsePayloadFilter(text: string): PayloadFilter {
  const m = FILTER.exec(text);
  if (!m) {
    const pathEnd = /^\s*[A-Za-z_][A-Za-z0-9_.]*/.exec(text)?.[0].length ?? 0;
    const what = pathEnd === 0 ? 'a field path (letters, digits, _ and .)' : 'an operator (=, !=, <, <=, >, >=, ~)';
    throw new PqsError('bad-filter', `Payload filter "${text}": expected ${what} at column ${pathEnd + 1}`, undefined, pathEnd);
  }
  const [, path, op, value] = m;
  const ordering = op !== '=' && op !== '!=' && op !== '~';
  const numeric = ordering && NUMBER.test(value);
  if (ordering && !numeric) {
    throw new PqsError('bad-filter', `Payload filter "${text}": ${op} compares numbers, and "${value}" is not one`, undefined, text.indexOf(value, m[1].length));
  }
  return { path: path.split('.'), op: op as FilterOperator, value, numeric };
}

/** The SQL text of each operator: the only part of a filter that is SQL. */
const SQL_OPERATORS: Record<FilterOperator, string> = { '=': '=', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=', '~': '' };

/**
 * The condition of one filter over `alias.payload`, its parameters numbered from `firstParam`.
 * Text equality is written `payload #>> path = value`, the expression a payload index is made on.
 */
export function filterCondition(alias: string, f: PayloadFilter, firstParam: number): { sql: string; params: unknown[] } {
  const pathParam = `$${firstParam}::text[]`;
  const valueParam = `$${firstParam + 1}`;
  const field = `${alias}.payload #>> ${pathParam}`;
  if (f.op === '~') return { sql: `strpos(${field}, ${valueParam}::text) > 0`, params: [f.path, f.value] };
  if (f.numeric) return { sql: `(${field})::numeric ${SQL_OPERATORS[f.op]} ${valueParam}::numeric`, params: [f.path, f.value] };
  return { sql: `${field} ${SQL_OPERATORS[f.op]} ${valueParam}::text`, params: [f.path, f.value] };
}

/** A payload index for a filter, as PQS's documentation has them made (suggested, never run), or why none serves it. */
export type PayloadIndexSuggestion = { sql: string; expression: string } | { none: string };

/**
 * The index a filter's condition can use: PQS's `create_index_for_contract` over the **same expression the
 * query writes** (`filterCondition`), casts included — PostgreSQL uses an expression index only for that
 * very expression ("Optimize payload queries": index the full expression). PQS adds `_idx` to the name
 * itself. `~` (a substring) is `strpos`, which no btree index serves.
 */
export function suggestedPayloadIndex(pqsName: string, f: PayloadFilter): PayloadIndexSuggestion {
  if (f.op === '~') return { none: `~ looks for a substring (strpos), which no btree index can serve; filter on = or a range to use an index.` };
  const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const pathLiteral = `{${f.path.map((p) => `"${p.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
  const field = `payload #>> ${literal(pathLiteral)}::text[]`;
  const expression = f.numeric ? `((${field})::numeric)` : `(${field})`;
  const indexName = `${pqsName.split(':').pop()}_${f.path.join('_')}${f.numeric ? '_num' : ''}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return { sql: `call create_index_for_contract(${literal(indexName)}, ${literal(pqsName)}, ${literal(expression)}, 'btree');`, expression };
}

export type FieldKind = 'numeric' | 'text' | 'other';

/** What the packages say of a filter's path on a template's fields. */
export type FieldCheck = { ok: true; kind: FieldKind } | { ok: false; segment: number; available: string[] };

/** Walks the path through the template's record (records, optionals, lists by index). */
export function checkFilterPath(fields: DataType | undefined, lookup: TypeLookup, path: readonly string[]): FieldCheck {
  let type: DamlType | undefined;
  let record: DataType | undefined = fields;
  for (let i = 0; i < path.length; i++) {
    if (type) {
      const unwrapped = unwrap(type, lookup, path[i]);
      if (unwrapped.kind === 'list') {
        type = unwrapped.element;
        continue;
      }
      record = unwrapped.record;
    }
    if (!record || record.kind !== 'record') return { ok: false, segment: i, available: [] };
    const field = record.fields.find((f) => f.name === path[i]);
    if (!field) return { ok: false, segment: i, available: record.fields.map((f) => f.name) };
    type = field.type;
    record = undefined;
  }
  return { ok: true, kind: type ? kindOf(type, lookup) : 'other' };
}

function unwrap(type: DamlType, lookup: TypeLookup, next: string): { kind: 'list'; element: DamlType } | { kind: 'record'; record: DataType | undefined } {
  if (type.kind === 'builtin' && type.builtin === 'Optional' && type.args[0]) return unwrap(type.args[0], lookup, next);
  if (type.kind === 'builtin' && type.builtin === 'List' && type.args[0] && /^\d+$/.test(next)) return { kind: 'list', element: type.args[0] };
  if (type.kind === 'con') return { kind: 'record', record: lookup.dataType(type.con) };
  if (type.kind === 'syn') {
    const syn = lookup.synonym(type.syn);
    return syn ? unwrap(syn.type, lookup, next) : { kind: 'record', record: undefined };
  }
  return { kind: 'record', record: undefined };
}

function kindOf(type: DamlType, lookup: TypeLookup): FieldKind {
  if (type.kind === 'builtin') {
    if (type.builtin === 'Optional' && type.args[0]) return kindOf(type.args[0], lookup);
    if (type.builtin === 'Int64' || type.builtin === 'Numeric' || type.builtin === 'BigNumeric') return 'numeric';
    if (['Text', 'Party', 'Date', 'Timestamp', 'ContractId', 'Bool'].includes(type.builtin)) return 'text';
    return 'other';
  }
  if (type.kind === 'con') {
    const dt = lookup.dataType(type.con as QualifiedName);
    return dt?.kind === 'enum' ? 'text' : 'other';
  }
  if (type.kind === 'syn') {
    const syn = lookup.synonym(type.syn);
    return syn ? kindOf(syn.type, lookup) : 'other';
  }
  return 'other';
}

/**
 * Checks a filter against the template's fields: a path the template does not have is an error at
 * the segment's position; an ordering on a text field, or `~` on a number, too. Returns the filter
 * with `numeric` set from the field's type.
 */
export function checkFilter(text: string, f: PayloadFilter, fields: DataType | undefined, lookup: TypeLookup, templateName: string): PayloadFilter {
  const check = checkFilterPath(fields, lookup, f.path);
  if (!check.ok) {
    const position = f.path.slice(0, check.segment).reduce((n, s) => n + s.length + 1, text.length - text.trimStart().length);
    const known = check.available.length ? ` (its fields: ${check.available.join(', ')})` : '';
    throw new PqsError('bad-filter', `Payload filter "${text}": ${templateName} has no field ${f.path.slice(0, check.segment + 1).join('.')}${known}`, undefined, position);
  }
  if (check.kind === 'numeric' && f.op === '~') throw new PqsError('bad-filter', `Payload filter "${text}": ~ finds text, and ${f.path.join('.')} is a number`, undefined, text.indexOf('~'));
  if (check.kind === 'numeric' && !NUMBER.test(f.value)) throw new PqsError('bad-filter', `Payload filter "${text}": ${f.path.join('.')} is a number, and "${f.value}" is not one`, undefined, text.lastIndexOf(f.value));
  if (check.kind !== 'numeric' && f.numeric) throw new PqsError('bad-filter', `Payload filter "${text}": ${f.path.join('.')} is not a number, so ${f.op} cannot compare it`, undefined, text.indexOf(f.op));
  // A Numeric's JSON is a decimal string ("1000.0000000000"): even equality compares it as a number.
  return { ...f, numeric: check.kind === 'numeric' };
}

/** What {@link checkFilters} needs of a package index: templates with their fields, and the types behind them. */
export interface FilterPackages extends TypeLookup {
  templatesByPackageName(): readonly { fields: DataType | undefined; packageName: string; name: { moduleName: string; name: string } }[];
}

/**
 * Parses filters and, when the participant's packages are known and hold the template, checks them
 * against its fields: every bad filter is reported (one error listing them all), not only the first.
 */
export function checkFilters(texts: readonly string[], pqsName: string, packages?: FilterPackages): PayloadFilter[] {
  const entry = packages?.templatesByPackageName().find((t) => {
    const qualified = `${t.name.moduleName}:${t.name.name}`;
    return pqsName === `${t.packageName}:${qualified}` || pqsName === qualified || pqsName === t.name.name;
  });
  const out: PayloadFilter[] = [];
  const errors: PqsError[] = [];
  for (const text of texts) {
    try {
      const parsed = parsePayloadFilter(text);
      out.push(entry && packages ? checkFilter(text, parsed, entry.fields, packages, pqsName) : parsed);
    } catch (err) {
      if (!(err instanceof PqsError)) throw err;
      errors.push(err);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new PqsError('bad-filter', errors.map((e) => e.message).join('\n'), undefined, errors[0].position);
  return out;
}
