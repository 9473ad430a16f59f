/**
 * Every query the extension and the CLI send to a Participant Query Store, in one module, written for
 * PQS's public SQL interface (Digital Asset, "PQS SQL API", docs.digitalasset.com build/3.3 …/pqs/
 * references/sql-api; checked against PQS's own schema, see README "The whole history: PQS"). Only the
 * documented functions and views are used, never PQS's private tables. PQS's functions return composite
 * types (`SETOF contract`, `SETOF exercise`, `SETOF contract_summary`): at connect their attributes are
 * read from the catalog and compared with what this module reads, so a store that is older or newer is
 * named as such instead of failing later on a missing column.
 */
import { filterCondition, type PayloadFilter } from './filter';

export const PQS_INTERFACE_VERSION = '3.3';

/** The functions and views this module calls, with the result columns it reads. */
export const PQS_FUNCTIONS: Readonly<Record<string, readonly string[]>> = {
  active: ['template_fqn', 'payload_type', 'contract_id', 'payload', 'create_event_pk', 'created_at_offset', 'created_effective_at', 'signatories', 'observers'],
  lookup_contract: ['template_fqn', 'payload_type', 'contract_id', 'payload', 'created_at_offset', 'created_effective_at', 'archived_at_offset', 'archived_effective_at', 'signatories', 'observers'],
  lookup_exercises: ['template_fqn', 'choice', 'contract_id', 'exercise_event_pk', 'exercised_at_offset', 'exercised_effective_at', 'consuming', 'argument', 'result', 'controllers'],
  summary_active: ['template_fqn', 'payload_type', 'count'],
  latest_offset: [],
  oldest_offset: [],
  pruned_offset: [],
  nearest_offset: [],
  transactions: ['offset', 'transaction_id'],
};

/**
 * Result columns of PQS's composite types that this module knows but does not need (their presence says
 * nothing of the version). The reassignment columns belong to PQS's multi-synchronizer line: when the
 * store has them, an assigned contract (no create in this store) is paged by its assignment.
 */
const KNOWN_UNREAD_COLUMNS = new Set([
  // contract
  'create_event_id', 'created_at_ix', 'archive_event_pk', 'archive_event_id', 'archived_at_ix', 'life_ix', 'contract_key', 'metadata',
  'redaction_id', 'package_name', 'package_version', 'package_id', 'witnesses', 'divulged_only', 'creation_package_id', 'contract_key_hash',
  'assign_event_pk', 'assign_event_id', 'assigned_at_ix', 'assigned_at_offset', 'unassign_event_pk', 'unassign_event_id', 'unassigned_at_ix',
  'unassigned_at_offset', 'reassignment_counter', 'synchronizer_id',
  // exercise
  'choice_fqn', 'exercise_event_id', 'exercised_at_ix', 'last_descendant_node_id',
  // transactions
  'ix', 'effective_at', 'workflow_id', 'trace_context', 'external_transaction_hash', 'paid_traffic_cost',
]);

/** Every result column this module knows, read or not (the composite types share their attributes across functions). */
const KNOWN_COLUMNS = new Set([...Object.values(PQS_FUNCTIONS).flat(), ...KNOWN_UNREAD_COLUMNS]);

/** The columns that tell a store of PQS's multi-synchronizer line (assigned contracts without a create). */
export const MULTI_SYNCHRONIZER_COLUMNS = ['assign_event_pk', 'assigned_at_offset'] as const;

/** The public functions with their arguments as PQS declares them, for completions in `*.pqs.sql` files. */
export const PQS_SIGNATURES: readonly { name: string; signature: string; doc: string }[] = [
  { name: 'active', signature: 'active(qname text DEFAULT NULL, "offset" bigint DEFAULT latest_offset()) → SETOF contract', doc: 'Contracts active at the offset, of one template or interface (by its name), or of all.' },
  { name: 'creates', signature: 'creates(qname text DEFAULT NULL, from_offset bigint DEFAULT oldest_offset(), to_offset bigint DEFAULT latest_offset()) → SETOF contract', doc: 'Contracts created in an offset range.' },
  { name: 'archives', signature: 'archives(qname text DEFAULT NULL, from_offset bigint DEFAULT coalesce(pruned_offset(), oldest_offset()), to_offset bigint DEFAULT latest_offset()) → SETOF contract', doc: 'Contracts archived in an offset range.' },
  { name: 'exercises', signature: 'exercises(qname text DEFAULT NULL, from_offset bigint DEFAULT coalesce(pruned_offset(), oldest_offset()), to_offset bigint DEFAULT latest_offset()) → SETOF exercise', doc: 'Choices exercised in an offset range (qname: a choice, `Module:Entity:Choice` or longer).' },
  { name: 'lookup_contract', signature: 'lookup_contract(contract_id text, qname text DEFAULT NULL) → SETOF contract', doc: 'One contract by id, active or archived: a row per payload (the template and each interface view; `payload_type` tells which).' },
  { name: 'lookup_exercises', signature: 'lookup_exercises(contract_id text, qname text DEFAULT NULL) → SETOF exercise', doc: 'The choices exercised on one contract.' },
  { name: 'summary_active', signature: 'summary_active("offset" bigint DEFAULT latest_offset()) → SETOF contract_summary(template_fqn, payload_type, count)', doc: 'Active contracts per template and interface at the offset.' },
  { name: 'summary_creates', signature: 'summary_creates(from_offset bigint DEFAULT oldest_offset(), to_offset bigint DEFAULT latest_offset()) → SETOF contract_summary', doc: 'Creates per template and interface in a range.' },
  { name: 'summary_archives', signature: 'summary_archives(from_offset bigint DEFAULT …, to_offset bigint DEFAULT latest_offset()) → SETOF contract_summary', doc: 'Archives per template and interface in a range.' },
  { name: 'summary_exercises', signature: 'summary_exercises(from_offset bigint DEFAULT …, to_offset bigint DEFAULT latest_offset()) → TABLE(template_fqn, choice_fqn, choice, consuming, count)', doc: 'Exercises per choice in a range.' },
  { name: 'summary_transients', signature: 'summary_transients(from_offset bigint DEFAULT …, to_offset bigint DEFAULT latest_offset()) → SETOF contract_summary', doc: 'Contracts created and archived within a range, per template and interface.' },
  { name: 'summary_updates', signature: 'summary_updates(from_offset bigint DEFAULT oldest_offset(), to_offset bigint DEFAULT latest_offset()) → TABLE(template_fqn, payload_type, creates, archives)', doc: 'Creates and archives per template and interface in a range.' },
  { name: 'latest_offset', signature: 'latest_offset() → bigint', doc: 'The latest offset the store holds (or the one set_latest pinned for the session).' },
  { name: 'oldest_offset', signature: 'oldest_offset() → bigint', doc: 'The oldest offset the store holds.' },
  { name: 'pruned_offset', signature: 'pruned_offset() → bigint', doc: 'The offset up to which the store was pruned.' },
  { name: 'nearest_offset', signature: 'nearest_offset(cutoff_ts timestamptz | cutoff interval) → bigint', doc: 'The latest offset at or before a time, or that long ago.' },
  { name: 'stakeholders', signature: 'stakeholders(c contract | e exercise) → text[]', doc: 'Signatories and observers of a contract or exercise row.' },
  { name: 'transactions', signature: 'transactions', doc: 'A view: one row per transaction (ix, "offset", transaction_id, effective_at, workflow_id, …).' },
];

/** What the catalog says of a function or view: its result columns (empty for a scalar). */
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
  /** The store is of PQS's multi-synchronizer line: contracts may be assigned rather than created. */
  multiSynchronizer: boolean;
}

/**
 * The catalog query: a schema's functions with their result columns — the attributes of the composite
 * type a function returns (`SETOF contract`), or its `RETURNS TABLE`/OUT columns — and its views with
 * their columns.
 */
export const CATALOG_SQL = `SELECT p.proname::text AS name,
  CASE WHEN t.typrelid <> 0 THEN
    array(SELECT a.attname::text FROM pg_attribute a WHERE a.attrelid = t.typrelid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum)
  ELSE coalesce(array(SELECT x.n FROM unnest(p.proargnames, p.proargmodes) AS x(n, m) WHERE x.m IN ('t', 'o')), '{}') END AS columns
  FROM pg_proc p JOIN pg_namespace ns ON ns.oid = p.pronamespace JOIN pg_type t ON t.oid = p.prorettype
 WHERE ns.nspname = $1
UNION ALL
SELECT c.relname::text,
  array(SELECT a.attname::text FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum)
  FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
 WHERE ns.nspname = $1 AND c.relkind = 'v'`;

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
    if (columns.length) for (const c of have) if (!KNOWN_COLUMNS.has(c)) extra.push(`${fn}.${c}`);
  }
  const verdict = present === 0 ? 'none' : missing.length ? 'older' : extra.length ? 'newer' : 'same';
  const active = byName.get('active');
  const multiSynchronizer = MULTI_SYNCHRONIZER_COLUMNS.every((c) => active?.has(c));
  return { knows: PQS_INTERFACE_VERSION, verdict, missing, extra, multiSynchronizer };
}

/** A query: its text, its parameters, and planner settings of its own transaction (ours, never user input). */
export interface Query {
  text: string;
  values: unknown[];
  /** `SET LOCAL` before the statement, inside its read-only transaction. */
  planner?: Readonly<Record<string, 'on' | 'off'>>;
}

/** `"schema".` for the functions' names (the schema is checked to be a plain identifier when the settings are read). */
function q(schema: string): string {
  return `"${schema}".`;
}

/**
 * Where a keyset page starts: after a created contract's `create_event_pk`, or — in a store of the
 * multi-synchronizer line, once every created contract is read — after an assigned contract's
 * `assign_event_pk` (an assigned contract has no create in this store). Each phase walks its own btree.
 */
export type KeysetCursor = { phase: 'created' | 'assigned'; after: number };

/** The columns a page reads (the assignment's when the store has them). */
function activeColumns(multiSynchronizer: boolean): string {
  const base = 'a.contract_id, a.template_fqn, a.payload_type, a.payload, a.create_event_pk, a.created_at_offset, a.created_effective_at, a.signatories, a.observers';
  return multiSynchronizer ? `${base}, a.assign_event_pk, a.assigned_at_offset` : base;
}

/**
 * PQS's `active()` filters on the GiST range index `life_ix`, whose row estimate is far too low on a big
 * store (1,500 where 200,000 match, measured on PQS's own schema): left to itself the planner may read
 * the template by bitmap and sort it for every page. Without sorting (and bitmaps) an unfiltered page
 * walks the btree of the keyset column from the cursor, which is what a keyset page is. A filtered page
 * keeps the planner's choice: turning bitmaps off there lets it pick a plain scan of the GiST index for a
 * filter that matches 1 % (every row's heap fetched), worse than the bitmap it replaces. Scoped to the
 * page's own read-only transaction.
 */
const KEYSET_PLANNER = { enable_sort: 'off', enable_bitmapscan: 'off' } as const;

export const queries = {
  watermark: (schema: string): Query => ({
    text: `SELECT ${q(schema)}latest_offset() AS latest, ${q(schema)}oldest_offset() AS oldest, ${q(schema)}pruned_offset() AS pruned`,
    values: [],
  }),

  nearestOffset: (schema: string, at: string): Query => ({ text: `SELECT ${q(schema)}nearest_offset($1::timestamptz) AS "offset"`, values: [at] }),

  summaryActive: (schema: string, atOffset: number): Query => ({
    text: `SELECT s.template_fqn, s.payload_type::text AS payload_type, s.count FROM ${q(schema)}summary_active($1::bigint) s ORDER BY s.template_fqn`,
    values: [atOffset],
  }),

  /**
   * One keyset page of a template's (or an interface's) active contracts at a pinned offset: a later page
   * reads from the index where the last one ended (no OFFSET), so its cost does not grow with depth.
   */
  activePage: (schema: string, name: string, atOffset: number, cursor: KeysetCursor | undefined, limit: number, filters: readonly PayloadFilter[] = [], multiSynchronizer = false): Query => {
    const phase = cursor?.phase ?? 'created';
    const key = phase === 'created' ? 'create_event_pk' : 'assign_event_pk';
    const values: unknown[] = [name, atOffset, cursor?.after ?? -1, limit];
    const conditions = filters.map((f) => {
      const c = filterCondition('a', f, values.length + 1);
      values.push(...c.params);
      return `AND ${c.sql}`;
    });
    // An assigned contract's create_event_pk is NULL: the created phase skips it, the assigned phase takes only those.
    const assignedOnly = phase === 'assigned' ? 'AND a.create_event_pk IS NULL ' : '';
    return {
      text: `SELECT ${activeColumns(multiSynchronizer)}
  FROM ${q(schema)}active($1::text, $2::bigint) a
 WHERE a.${key} > $3::bigint ${assignedOnly}${conditions.join(' ')}
 ORDER BY a.${key} LIMIT $4::int`,
      values,
      planner: filters.length ? undefined : KEYSET_PLANNER,
    };
  },

  lookupContract: (schema: string, contractId: string): Query => ({
    text: `SELECT c.contract_id, c.template_fqn, c.payload_type::text AS payload_type, c.payload, c.created_at_offset, c.created_effective_at, c.archived_at_offset, c.archived_effective_at, c.signatories, c.observers
  FROM ${q(schema)}lookup_contract($1::text) c`,
    values: [contractId],
  }),

  lookupExercises: (schema: string, contractId: string): Query => ({
    text: `SELECT e.template_fqn, e.choice, e.exercised_at_offset, e.exercised_effective_at, e.consuming, e.argument, e.result, e.controllers
  FROM ${q(schema)}lookup_exercises($1::text) e ORDER BY e.exercised_at_offset, e.exercise_event_pk`,
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
