/**
 * Every query the extension and the CLI send to a Participant Query Store, in one module, written for
 * one version of PQS's public SQL interface (Digital Asset, "PQS SQL API", Daml 3.3 documentation:
 * docs.digitalasset.com build/3.3 component-howtos/pqs/references/sql-api). Only the documented
 * functions and views are used, never PQS's private tables. At connect the store's functions and
 * their result columns are read from the catalog and compared with what this module knows, so a
 * store that is older or newer is named as such instead of failing later on a missing column.
 */
import { filterCondition, type PayloadFilter } from './filter';

export const PQS_INTERFACE_VERSION = '3.3';

/** The functions this module calls, with the result columns it reads. */
export const PQS_FUNCTIONS: Readonly<Record<string, readonly string[]>> = {
  active: ['template_fqn', 'contract_id', 'payload', 'create_event_pk', 'created_at_offset', 'created_effective_at', 'archived_at_offset', 'signatories', 'observers', 'package_name'],
  creates: ['template_fqn', 'contract_id', 'created_at_offset'],
  archives: ['template_fqn', 'contract_id', 'archived_at_offset'],
  exercises: ['template_fqn', 'choice', 'contract_id', 'exercised_at_offset'],
  lookup_contract: ['template_fqn', 'contract_id', 'payload', 'created_at_offset', 'created_effective_at', 'archived_at_offset', 'archived_effective_at', 'signatories', 'observers'],
  lookup_exercises: ['choice', 'contract_id', 'exercised_at_offset', 'exercised_effective_at', 'consuming', 'argument', 'result', 'acting_parties'],
  summary_active: ['name', 'count'],
  latest_offset: [],
  oldest_offset: [],
  pruned_offset: [],
  nearest_offset: [],
};

/** The public functions with their arguments, for completions in `*.pqs.sql` files. */
export const PQS_SIGNATURES: readonly { name: string; signature: string; doc: string }[] = [
  { name: 'active', signature: 'active(name text DEFAULT NULL, at_offset bigint DEFAULT NULL)', doc: 'Contracts active at the offset (default: the latest), of one template or interface, or all.' },
  { name: 'creates', signature: 'creates(name text DEFAULT NULL, from_offset bigint DEFAULT NULL, to_offset bigint DEFAULT NULL)', doc: 'Contracts created in an offset range.' },
  { name: 'archives', signature: 'archives(name text DEFAULT NULL, from_offset bigint DEFAULT NULL, to_offset bigint DEFAULT NULL)', doc: 'Contracts archived in an offset range.' },
  { name: 'exercises', signature: 'exercises(name text DEFAULT NULL, from_offset bigint DEFAULT NULL, to_offset bigint DEFAULT NULL)', doc: 'Choices exercised in an offset range.' },
  { name: 'lookup_contract', signature: 'lookup_contract(contract_id text)', doc: 'One contract by id, active or archived.' },
  { name: 'lookup_exercises', signature: 'lookup_exercises(contract_id text)', doc: 'The choices exercised on one contract.' },
  { name: 'summary_active', signature: 'summary_active(at_offset bigint DEFAULT NULL)', doc: 'Active contracts per template at the offset.' },
  { name: 'summary_creates', signature: 'summary_creates(from_offset bigint DEFAULT NULL, to_offset bigint DEFAULT NULL)', doc: 'Creates per template in a range.' },
  { name: 'summary_archives', signature: 'summary_archives(from_offset bigint DEFAULT NULL, to_offset bigint DEFAULT NULL)', doc: 'Archives per template in a range.' },
  { name: 'summary_exercises', signature: 'summary_exercises(from_offset bigint DEFAULT NULL, to_offset bigint DEFAULT NULL)', doc: 'Exercises per template and choice in a range.' },
  { name: 'latest_offset', signature: 'latest_offset()', doc: 'The latest offset the store holds.' },
  { name: 'oldest_offset', signature: 'oldest_offset()', doc: 'The oldest offset the store holds.' },
  { name: 'pruned_offset', signature: 'pruned_offset()', doc: 'The offset up to which the store was pruned.' },
  { name: 'nearest_offset', signature: 'nearest_offset(at_time timestamptz)', doc: 'The latest offset at or before a time.' },
  { name: 'transactions', signature: 'transactions', doc: 'A view: one row per transaction (offset, transaction id, effective time).' },
];

/** What the catalog says of a function: its result columns (empty for a scalar). */
export interface CatalogFunction {
  name: string;
  columns: string[];
}

export interface InterfaceCheck {
  /** The version this module was written for. */
  knows: string;
  /** `same`: everything this module reads is there; `older`: some of it is missing; `newer`: all of it and more; `none`: no PQS functions. */
  verdict: 'same' | 'older' | 'newer' | 'none';
  /** `function` or `function.column` this module reads that the store lacks. */
  missing: string[];
  /** Result columns the store has beyond what this module knows. */
  extra: string[];
}

/** The catalog query that lists a schema's functions with their result columns. */
export const CATALOG_SQL = `SELECT p.proname AS name,
  coalesce(array(SELECT a.n FROM unnest(p.proargnames, p.proargmodes) AS a(n, m) WHERE a.m IN ('t', 'o')), '{}') AS columns
  FROM pg_proc p JOIN pg_namespace ns ON ns.oid = p.pronamespace WHERE ns.nspname = $1`;

/** Compares the store's functions with what this module reads. */
export function checkInterface(catalog: readonly CatalogFunction[]): InterfaceCheck {
  const byName = new Map<string, Set<string>>();
  for (const f of catalog) byName.set(f.name, new Set([...(byName.get(f.name) ?? []), ...f.columns]));
  const missing: string[] = [];
  const extra: string[] = [];
  let present = 0;
  for (const [fn, columns] of Object.entries(PQS_FUNCTIONS)) {
    const have = byName.get(fn);
    if (!have) {
      missing.push(fn);
      continue;
    }
    present++;
    for (const c of columns) if (!have.has(c)) missing.push(`${fn}.${c}`);
    if (columns.length) for (const c of have) if (!columns.includes(c) && !KNOWN_UNREAD_COLUMNS.has(c)) extra.push(`${fn}.${c}`);
  }
  const verdict = present === 0 ? 'none' : missing.length ? 'older' : extra.length ? 'newer' : 'same';
  return { knows: PQS_INTERFACE_VERSION, verdict, missing, extra };
}

/** Documented result columns this module does not read (so their presence says nothing of the version). */
const KNOWN_UNREAD_COLUMNS = new Set([
  'payload_type', 'create_event_id', 'created_at_ix', 'archive_event_pk', 'archive_event_id', 'archived_at_ix', 'life_ix',
  'contract_key', 'metadata', 'archived_effective_at', 'redaction_id', 'package_version', 'package_id', 'package_name',
  'exercise_event_pk', 'exercise_event_id', 'exercised_at_ix', 'exercised_effective_at', 'consuming', 'argument', 'result',
  'acting_parties', 'witness_parties', 'payload', 'created_effective_at', 'signatories', 'observers', 'create_event_pk',
  'created_at_offset', 'archived_at_offset', 'exercised_at_offset', 'choice', 'contract_id', 'template_fqn',
]);

/** A query: its text and parameters. */
export interface Query {
  text: string;
  values: unknown[];
}

/** `"schema".` for the functions' names (the schema is checked to be a plain identifier when the settings are read). */
function q(schema: string): string {
  return `"${schema}".`;
}

export const queries = {
  watermark: (schema: string): Query => ({
    text: `SELECT ${q(schema)}latest_offset() AS latest, ${q(schema)}oldest_offset() AS oldest, ${q(schema)}pruned_offset() AS pruned`,
    values: [],
  }),

  nearestOffset: (schema: string, at: string): Query => ({ text: `SELECT ${q(schema)}nearest_offset($1::timestamptz) AS "offset"`, values: [at] }),

  summaryActive: (schema: string, atOffset: number): Query => ({
    text: `SELECT s.name, s.count FROM ${q(schema)}summary_active($1::bigint) s ORDER BY s.name`,
    values: [atOffset],
  }),

  /**
   * One keyset page of a template's active contracts at a pinned offset: the cursor is the last row's
   * `create_event_pk`, so a later page reads from the index where the last one ended (no OFFSET).
   */
  activePage: (schema: string, name: string, atOffset: number, after: number | undefined, limit: number, filters: readonly PayloadFilter[] = []): Query => {
    const values: unknown[] = [name, atOffset, after ?? -1, limit];
    const conditions = filters.map((f) => {
      const c = filterCondition('a', f, values.length + 1);
      values.push(...c.params);
      return `AND ${c.sql}`;
    });
    return {
      text: `SELECT a.contract_id, a.template_fqn, a.payload, a.create_event_pk, a.created_at_offset, a.created_effective_at, a.signatories, a.observers
  FROM ${q(schema)}active($1::text, $2::bigint) a
 WHERE a.create_event_pk > $3::bigint ${conditions.join(' ')}
 ORDER BY a.create_event_pk LIMIT $4::int`,
      values,
    };
  },

  lookupContract: (schema: string, contractId: string): Query => ({
    text: `SELECT c.contract_id, c.template_fqn, c.payload, c.created_at_offset, c.created_effective_at, c.archived_at_offset, c.archived_effective_at, c.signatories, c.observers
  FROM ${q(schema)}lookup_contract($1::text) c`,
    values: [contractId],
  }),

  lookupExercises: (schema: string, contractId: string): Query => ({
    text: `SELECT e.choice, e.exercised_at_offset, e.exercised_effective_at, e.consuming, e.argument, e.result, e.acting_parties
  FROM ${q(schema)}lookup_exercises($1::text) e ORDER BY e.exercised_at_offset`,
    values: [contractId],
  }),

  /** The transaction ids of offsets (for links into the transaction graph). */
  transactionIds: (schema: string, offsets: readonly number[]): Query => ({
    text: `SELECT t."offset", t.transaction_id FROM ${q(schema)}transactions t WHERE t."offset" = ANY($1::bigint[])`,
    values: [offsets],
  }),

  catalog: (schema: string): Query => ({ text: CATALOG_SQL, values: [schema] }),

  /** Cancels a running query of this role by its backend pid (from another session). */
  cancelBackend: (pid: number): Query => ({ text: 'SELECT pg_cancel_backend($1::int)', values: [pid] }),
};
