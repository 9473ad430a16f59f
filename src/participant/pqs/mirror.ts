/**
 * `participant --pqs URL`: the demo ledger mirrored into a PostgreSQL database that offers PQS's
 * public SQL functions (the schema of ./schema.ts), so a new user and every test see the PQS view
 * working without a PQS process. It follows the ledger: each appended update is written in one
 * transaction, in offset order, and the watermark moves with it.
 */
import { Pool } from 'pg';
import type { DemoLedger } from '../ledger';
import type { ContractRecord, LogEntry, TransactionRecord } from '../model';
import { formatInstant } from '../time';
import { pqsDemoSchemaSql, quoteIdent } from './schema';

/** The comment a mirror writes on a schema it created: only such a schema is ever replaced. */
export const MIRROR_MARKER = 'Created by the canton-ledger demo participant (PQS mirror); replaced when it starts again';

/** The schema exists and is not one a mirror created: nothing in it was touched. */
export class PqsMirrorRefused extends Error {
  constructor(
    readonly schema: string,
    readonly database: string,
  ) {
    super(
      `Schema "${schema}" of database "${database}" already holds objects that the demo mirror did not create (a PQS store?); ` +
        'it was left as it is. Give the mirror a schema of its own (?schema=NAME, absent or made by an earlier mirror).',
    );
    this.name = 'PqsMirrorRefused';
  }
}

const databaseOf = (url: string): string => decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));

export interface PqsMirrorOptions {
  /** `postgresql://user:password@host:port/database` (a user that may create a schema). */
  url: string;
  /** The schema PQS's functions go in (default `public`'s neighbour `pqs`). */
  schema?: string;
  /** The password, when not in the URL (else PGPASSWORD of the process, as node-postgres reads it). */
  password?: string;
  log?: (line: string) => void;
}

interface ContractRow {
  template_fqn: string;
  contract_id: string;
  create_event_id: string;
  created_at_ix: number;
  created_at_offset: number;
  created_effective_at: string;
  payload: unknown;
  contract_key: unknown;
  package_name: string;
  package_version: string;
  package_id: string;
  signatories: readonly string[];
  observers: readonly string[];
}

export class PqsMirror {
  private readonly pool: Pool;
  readonly schema: string;
  private mirrored = -1;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private failure: unknown;

  constructor(
    private readonly ledger: DemoLedger,
    private readonly options: PqsMirrorOptions,
  ) {
    this.schema = options.schema ?? 'pqs';
    // node-postgres takes the connection string's fields over separate ones: the password goes into it.
    const url = new URL(options.url);
    if (options.password) url.password = encodeURIComponent(options.password);
    this.pool = new Pool({ connectionString: url.toString(), max: 2 });
    this.pool.on('error', () => undefined);
  }

  /**
   * Creates the schema, or replaces one an earlier mirror created (its marker says so), and copies the
   * ledger; then follows it. Any other schema that holds something (PQS's own, say) is refused and
   * left as it is: the mirror drops only what it made.
   */
  async start(): Promise<void> {
    const s = quoteIdent(this.schema);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Two mirrors starting on one database take turns; the lock ends with the transaction.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`canton-ledger demo mirror ${this.schema}`]);
      const found = await client.query(
        `SELECT obj_description(n.oid, 'pg_namespace') AS marker,
                EXISTS (SELECT 1 FROM pg_class WHERE relnamespace = n.oid) OR EXISTS (SELECT 1 FROM pg_proc WHERE pronamespace = n.oid)
             OR EXISTS (SELECT 1 FROM pg_type WHERE typnamespace = n.oid) OR EXISTS (SELECT 1 FROM pg_operator WHERE oprnamespace = n.oid) AS holds_objects
           FROM pg_namespace n WHERE n.nspname = $1`,
        [this.schema],
      );
      const existing = found.rows[0] as { marker: string | null; holds_objects: boolean } | undefined;
      if (existing && existing.marker !== MIRROR_MARKER) {
        if (existing.holds_objects) throw new PqsMirrorRefused(this.schema, databaseOf(this.options.url));
        // An empty schema (a new database's public): filled in place, never dropped, so never marked as made here.
      } else {
        if (existing) await client.query(`DROP SCHEMA ${s} CASCADE`);
        await client.query(`CREATE SCHEMA ${s}`);
        await client.query(`COMMENT ON SCHEMA ${s} IS '${MIRROR_MARKER}'`);
      }
      await client.query(pqsDemoSchemaSql(this.schema));
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    await this.sync();
    this.ledger.on('appended', () => void this.sync().catch(() => undefined));
  }

  /** Resolves when everything appended so far is in the database (rejects with a write's failure). */
  async synced(): Promise<void> {
    await this.sync();
    if (this.failure) throw this.failure;
  }

  private sync(): Promise<void> {
    this.chain = this.chain.then(() => this.copyNew()).catch((err) => {
      this.failure = err;
      this.options.log?.(`PQS mirror: ${err instanceof Error ? err.message : String(err)}`);
    });
    return this.chain;
  }

  private async copyNew(): Promise<void> {
    if (this.closed) return;
    const entries = this.ledger.entries.filter((e): e is TransactionRecord => e.kind === 'transaction' && e.offset > this.mirrored);
    const first = this.mirrored < 0;
    if (!first && entries.length === 0) return;
    const s = quoteIdent(this.schema);
    const contracts: ContractRow[] = [];
    const archives: { contract_id: string; offset: number; at: string; event_id: string }[] = [];
    const exercises: Record<string, unknown>[] = [];
    const templates = new Map<string, { fqn: string; qualified: string; entity: string }>();
    const seen = new Set<string>();
    const addContract = (c: ContractRecord, nodeId: number) => {
      if (seen.has(c.contractId)) return;
      seen.add(c.contractId);
      const t = c.template;
      templates.set(t.nameKey, { fqn: t.nameKey, qualified: `${t.moduleName}:${t.entityName}`, entity: t.entityName });
      contracts.push({
        template_fqn: t.nameKey,
        contract_id: c.contractId,
        create_event_id: `${c.createdOffset}:${nodeId}`,
        created_at_ix: c.createdOffset,
        created_at_offset: c.createdOffset,
        created_effective_at: formatInstant(c.createdAt),
        payload: c.argument,
        contract_key: c.key,
        package_name: t.pkg.name,
        package_version: t.pkg.version,
        package_id: t.pkg.id,
        signatories: c.signatories,
        observers: c.observers,
      });
    };
    if (first) {
      // Contracts whose creating update was pruned from the log are still active: they come first.
      const logged = new Set(entries.flatMap((e) => e.nodes.filter((n) => n.kind === 'created').map((n) => n.contract.contractId)));
      for (const c of this.ledger.contracts.values()) if (!logged.has(c.contractId)) addContract(c, c.createdNodeId);
    }
    for (const tx of entries) {
      for (const node of tx.nodes) {
        if (node.kind === 'created') addContract(node.contract, node.nodeId);
        else {
          exercises.push({
            template_fqn: node.template.nameKey,
            choice: node.choice,
            exercise_event_id: `${tx.offset}:${node.nodeId}`,
            exercised_at_ix: tx.offset,
            exercised_at_offset: tx.offset,
            exercised_effective_at: formatInstant(tx.effectiveAt),
            contract_id: node.contract.contractId,
            consuming: node.consuming,
            argument: node.choiceArgument ?? null,
            result: node.exerciseResult ?? null,
            acting_parties: node.actingParties,
            witness_parties: node.witnesses,
            package_name: node.template.pkg.name,
            package_id: node.template.pkg.id,
          });
          if (node.consuming) archives.push({ contract_id: node.contract.contractId, offset: tx.offset, at: formatInstant(tx.effectiveAt), event_id: `${tx.offset}:${node.nodeId}` });
          templates.set(node.template.nameKey, { fqn: node.template.nameKey, qualified: `${node.template.moduleName}:${node.template.entityName}`, entity: node.template.entityName });
        }
      }
    }
    const updates = entries.map((e: LogEntry & TransactionRecord) => ({
      ix: e.offset,
      offset: e.offset,
      update_id: e.updateId,
      command_id: e.commandId,
      workflow_id: e.workflowId,
      effective_at: formatInstant(e.effectiveAt),
      recorded_at: formatInstant(e.recordTime),
    }));
    const end = this.ledger.ledgerEnd;
    const oldest = this.ledger.entries.find((e): e is Exclude<LogEntry, { kind: 'checkpoint' }> => e.kind !== 'checkpoint');
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO ${s}._templates SELECT x.fqn, x.qualified, x.entity, 'template' FROM jsonb_to_recordset($1::jsonb) AS x(fqn text, qualified text, entity text) ON CONFLICT DO NOTHING`,
        [JSON.stringify([...templates.values()])],
      );
      await client.query(
        `INSERT INTO ${s}._updates SELECT x.ix, x."offset", x.update_id, x.command_id, x.workflow_id, x.effective_at, x.recorded_at
           FROM jsonb_to_recordset($1::jsonb) AS x(ix bigint, "offset" bigint, update_id text, command_id text, workflow_id text, effective_at timestamptz, recorded_at timestamptz)`,
        [JSON.stringify(updates)],
      );
      await client.query(
        `INSERT INTO ${s}._contracts (template_fqn, contract_id, create_event_id, created_at_ix, created_at_offset, created_effective_at, payload, contract_key, package_name, package_version, package_id, signatories, observers)
         SELECT x.template_fqn, x.contract_id, x.create_event_id, x.created_at_ix, x.created_at_offset, x.created_effective_at, x.payload, x.contract_key, x.package_name, x.package_version, x.package_id, x.signatories, x.observers
           FROM jsonb_to_recordset($1::jsonb) AS x(template_fqn text, contract_id text, create_event_id text, created_at_ix bigint, created_at_offset bigint, created_effective_at timestamptz,
                payload jsonb, contract_key jsonb, package_name text, package_version text, package_id text, signatories text[], observers text[])
           ORDER BY x.created_at_offset`,
        [JSON.stringify(contracts)],
      );
      await client.query(
        `INSERT INTO ${s}._exercises (template_fqn, choice, exercise_event_id, exercised_at_ix, exercised_at_offset, exercised_effective_at, contract_id, consuming, argument, result, acting_parties, witness_parties, package_name, package_id)
         SELECT x.template_fqn, x.choice, x.exercise_event_id, x.exercised_at_ix, x.exercised_at_offset, x.exercised_effective_at, x.contract_id, x.consuming, x.argument, x.result, x.acting_parties, x.witness_parties, x.package_name, x.package_id
           FROM jsonb_to_recordset($1::jsonb) AS x(template_fqn text, choice text, exercise_event_id text, exercised_at_ix bigint, exercised_at_offset bigint, exercised_effective_at timestamptz,
                contract_id text, consuming boolean, argument jsonb, result jsonb, acting_parties text[], witness_parties text[], package_name text, package_id text)`,
        [JSON.stringify(exercises)],
      );
      await client.query(
        `UPDATE ${s}._contracts c SET archived_at_ix = x."offset", archived_at_offset = x."offset", archived_effective_at = x.at, archive_event_id = x.event_id
           FROM jsonb_to_recordset($1::jsonb) AS x(contract_id text, "offset" bigint, at timestamptz, event_id text) WHERE c.contract_id = x.contract_id`,
        [JSON.stringify(archives.map((a) => ({ contract_id: a.contract_id, offset: a.offset, at: a.at, event_id: a.event_id })))],
      );
      await client.query(`UPDATE ${s}._watermark SET latest = $1, oldest = $2, pruned = $3`, [end, oldest ? oldest.offset : end, this.ledger.prunedUpTo]);
      await client.query('COMMIT');
      this.mirrored = end;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.chain;
    this.closed = true;
    await this.pool.end();
  }
}
