/**
 * `participant --pqs URL`: the demo ledger mirrored into a PostgreSQL database that offers PQS's
 * public SQL functions (the schema of ./schema.ts), so a new user and every test see the PQS view
 * working without a PQS process. It follows the ledger: each appended update is written in one
 * transaction, in offset order, and the watermark moves with it.
 */
import { Pool } from 'pg';
import type { DemoLedger } from '../ledger';
import { formatInstant } from '../time';
import { emptyTypes, fqnOf, pqsRowsOf, type PqsContractRow, type PqsTypes } from './rows';
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

/** Room for a transaction's node ids in an event's key: the key orders events as the ledger does. */
const EVENT_PKS_PER_OFFSET = 65_536;

export class PqsMirror {
  private readonly pool: Pool;
  readonly schema: string;
  private mirrored = -1;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private failure: unknown;
  private readonly types: PqsTypes = emptyTypes();

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
    const first = this.mirrored < 0;
    const { transactions, snapshot } = pqsRowsOf(this.ledger, this.mirrored, this.types);
    if (!first && transactions.length === 0) return;
    const s = quoteIdent(this.schema);
    const eventPk = (offset: number, nodeId: number) => offset * EVENT_PKS_PER_OFFSET + nodeId;
    const contractRow = (r: PqsContractRow, offset: number, at: string) => ({
      fqn: fqnOf(r.entity),
      contract_id: r.contractId,
      create_event_pk: eventPk(offset, r.nodeId),
      create_node_id: r.nodeId,
      created_at_offset: offset,
      created_effective_at: at,
      payload: r.payload,
      contract_key: r.contractKey,
      package_name: r.package.name,
      package_version: r.package.version,
      package_id: r.package.id,
      signatories: r.signatories,
      observers: r.observers,
      witnesses: r.witnesses,
    });
    const contracts = snapshot.map((r) => {
      const c = this.ledger.contracts.get(r.contractId)!;
      return contractRow(r, c.createdOffset, formatInstant(c.createdAt));
    });
    const exercises: Record<string, unknown>[] = [];
    const archives: Record<string, unknown>[] = [];
    for (const t of transactions) {
      for (const r of t.creates) contracts.push(contractRow(r, t.offset, t.effectiveAt));
      for (const x of t.exercises) {
        exercises.push({
          exercise_event_pk: eventPk(t.offset, x.nodeId),
          node_id: x.nodeId,
          choice_fqn: `${fqnOf(x.choice.entity)}:${x.choice.choice}`,
          contract_fqn: fqnOf(x.contractEntity),
          exercised_at_offset: t.offset,
          exercised_effective_at: t.effectiveAt,
          contract_id: x.contractId,
          argument: x.argument,
          result: x.result,
          package_name: x.package.name,
          package_version: x.package.version,
          package_id: x.package.id,
          controllers: x.controllers,
          witnesses: x.witnesses,
          last_descendant_node_id: x.lastDescendantNodeId,
        });
      }
      for (const a of t.archives) archives.push({ fqn: fqnOf(a.entity), contract_id: a.contractId, event_pk: eventPk(t.offset, a.nodeId), node_id: a.nodeId, offset: t.offset, at: t.effectiveAt });
    }
    const entities = [...this.types.entities.values()].map((e) => ({ fqn: fqnOf(e), payload_type: e.payloadType, aliases: [fqnOf(e), `${e.moduleName}:${e.entityName}`, e.entityName] }));
    const choices = [...this.types.choices.values()].map((c) => ({
      template_fqn: fqnOf(c.entity),
      choice: c.choice,
      consuming: c.consuming,
      aliases: [`${fqnOf(c.entity)}:${c.choice}`, `${c.entity.moduleName}:${c.entity.entityName}:${c.choice}`, `${c.entity.entityName}:${c.choice}`, c.choice],
    }));
    const end = this.ledger.ledgerEnd;
    const json = (rows: unknown[]) => JSON.stringify(rows);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO ${s}._entities (fqn, payload_type, aliases) SELECT x.fqn, x.payload_type::${s}.__payload_type, x.aliases
           FROM jsonb_to_recordset($1::jsonb) AS x(fqn text, payload_type text, aliases text[]) ON CONFLICT (fqn) DO NOTHING`,
        [json(entities)],
      );
      await client.query(
        `INSERT INTO ${s}._choices (template_fqn, choice, consuming, aliases) SELECT x.template_fqn, x.choice, x.consuming, x.aliases
           FROM jsonb_to_recordset($1::jsonb) AS x(template_fqn text, choice text, consuming boolean, aliases text[]) ON CONFLICT (choice_fqn) DO NOTHING`,
        [json(choices)],
      );
      await client.query(
        `INSERT INTO ${s}._transactions SELECT x."offset", x."offset", x.transaction_id, x.command_id, x.workflow_id, x.synchronizer_id, x.effective_at, x.recorded_at
           FROM jsonb_to_recordset($1::jsonb) AS x("offset" bigint, transaction_id text, command_id text, workflow_id text, synchronizer_id text, effective_at timestamptz, recorded_at timestamptz)`,
        [json(transactions.map((t) => ({ offset: t.offset, transaction_id: t.transactionId, command_id: t.commandId, workflow_id: t.workflowId, synchronizer_id: t.synchronizerId, effective_at: t.effectiveAt, recorded_at: t.recordedAt })))],
      );
      await client.query(
        `INSERT INTO ${s}._contracts (entity_pk, contract_id, create_event_pk, create_node_id, created_at_ix, created_at_offset, created_effective_at, payload, contract_key, package_name, package_version, package_id, signatories, observers, witnesses)
         SELECT e.pk, x.contract_id, x.create_event_pk, x.create_node_id, x.created_at_offset, x.created_at_offset, x.created_effective_at, x.payload, x.contract_key, x.package_name, x.package_version, x.package_id, x.signatories, x.observers, x.witnesses
           FROM jsonb_to_recordset($1::jsonb) AS x(fqn text, contract_id text, create_event_pk bigint, create_node_id integer, created_at_offset bigint, created_effective_at timestamptz,
                payload jsonb, contract_key jsonb, package_name text, package_version text, package_id text, signatories text[], observers text[], witnesses text[])
           JOIN ${s}._entities e ON e.fqn = x.fqn
          ORDER BY x.create_event_pk`,
        [json(contracts)],
      );
      await client.query(
        `INSERT INTO ${s}._exercises (exercise_event_pk, node_id, choice_pk, contract_entity_pk, exercised_at_ix, exercised_at_offset, exercised_effective_at, contract_id, argument, result, package_name, package_version, package_id, controllers, witnesses, last_descendant_node_id)
         SELECT x.exercise_event_pk, x.node_id, ch.pk, e.pk, x.exercised_at_offset, x.exercised_at_offset, x.exercised_effective_at, x.contract_id, x.argument, x.result, x.package_name, x.package_version, x.package_id, x.controllers, x.witnesses, x.last_descendant_node_id
           FROM jsonb_to_recordset($1::jsonb) AS x(exercise_event_pk bigint, node_id integer, choice_fqn text, contract_fqn text, exercised_at_offset bigint, exercised_effective_at timestamptz,
                contract_id text, argument jsonb, result jsonb, package_name text, package_version text, package_id text, controllers text[], witnesses text[], last_descendant_node_id integer)
           JOIN ${s}._choices ch ON ch.choice_fqn = x.choice_fqn JOIN ${s}._entities e ON e.fqn = x.contract_fqn`,
        [json(exercises)],
      );
      await client.query(
        `UPDATE ${s}._contracts c SET archive_event_pk = x.event_pk, archive_node_id = x.node_id, archived_at_ix = x."offset", archived_at_offset = x."offset", archived_effective_at = x.at
           FROM jsonb_to_recordset($1::jsonb) AS x(fqn text, contract_id text, event_pk bigint, node_id integer, "offset" bigint, at timestamptz), ${s}._entities e
          WHERE e.fqn = x.fqn AND c.entity_pk = e.pk AND c.contract_id = x.contract_id`,
        [json(archives)],
      );
      // As PQS: the oldest offset is its oldest transaction's (other updates are not stored).
      await client.query(`UPDATE ${s}._watermark SET latest = $1, oldest = (SELECT min("offset") FROM ${s}._transactions), pruned = $2`, [end, this.ledger.prunedUpTo]);
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
