/**
 * PQS's own schema as the oracle of the PQS tests: `../shared/pqs/schema-dump.sql` (PQS's schema dump,
 * never copied into the project) loaded into a schema of the tests' throw-away cluster, and filled the way
 * PQS's writer fills it (participant-query-store `DocumentPostgres.scala`, `model.scala`): types through
 * the schema's `__initialize_*` procedures, a `__transactions` row and an `__events` row per event, one
 * `__contracts` row per payload (the template and each interface view), archives inserted into the
 * `__archives` view (its trigger archives every payload row), and the watermark moved last.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client, PoolClient } from 'pg';
import type { DemoLedger } from '../../src/participant/ledger';
import { emptyTypes, fqnOf, pqsRowsOf, type PqsContractRow, type PqsEntity, type PqsPackage, type PqsTransaction } from '../../src/participant/pqs/rows';
import { quoteIdent } from '../../src/participant/pqs/schema';

export const PQS_SCHEMA_DUMP = path.resolve(__dirname, '../../../shared/pqs/schema-dump.sql');

export function pqsSchemaDumpAvailable(): boolean {
  return fs.existsSync(PQS_SCHEMA_DUMP);
}

/** The identity of the simulated PQS writer (PQS checks it on every watermark move). */
const WRITER_INSTANCE = 'canton-ledger-explorer-tests';

type Sql = Pick<Client | PoolClient, 'query'>;

/**
 * Loads PQS's schema into `schema` (created here): the dump names its objects `public.…`, so each such
 * prefix becomes the schema's name; psql's own meta-commands (`\restrict`) are not SQL and are skipped, and
 * so is `SET transaction_timeout` on a server older than 17. `multiSynchronizer` adds the columns of PQS's
 * multi-synchronizer line as its migration V045 does (assignment and unassignment on `__contracts` and the
 * `contract` type, `life_ix` from the creation or the assignment).
 */
export async function loadPqsSchema(c: Sql, schema: string, opts: { multiSynchronizer?: boolean } = {}): Promise<void> {
  const s = quoteIdent(schema);
  const version = Number((await c.query('SHOW server_version_num')).rows[0].server_version_num);
  const text = fs
    .readFileSync(PQS_SCHEMA_DUMP, 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('\\') && !(version < 170000 && /^SET transaction_timeout\b/.test(line)))
    .join('\n')
    .replace(/\bpublic\./g, `${s}.`);
  await c.query(`CREATE SCHEMA ${s}`);
  await c.query(text);
  // A schema-only dump keeps the partitions of the types registered when it was made, not their rows:
  // PQS's first registration makes partition 1 again, so the leftovers go.
  await c.query(`DROP TABLE IF EXISTS ${s}.__contracts_1, ${s}.__exercises_1`);
  await c.query(`SELECT pg_catalog.set_config('search_path', $1, false)`, [schema]);
  if (opts.multiSynchronizer) {
    await c.query(`
      ALTER TABLE ${s}.__contracts
        ADD COLUMN assign_event_pk bigint, ADD COLUMN assigned_at_ix bigint,
        ADD COLUMN unassign_event_pk bigint, ADD COLUMN unassigned_at_ix bigint,
        ADD COLUMN reassignment_counter bigint, ADD COLUMN synchronizer_id text,
        DROP COLUMN life_ix,
        ADD COLUMN life_ix int8range NOT NULL GENERATED ALWAYS AS (int8range(coalesce(created_at_ix, assigned_at_ix), coalesce(archived_at_ix, unassigned_at_ix))) STORED;
      CREATE INDEX IF NOT EXISTS __contracts_life_ix_idx ON ${s}.__contracts USING gist (life_ix) INCLUDE (tpe_pk) WHERE NOT divulged_only;
      CREATE INDEX IF NOT EXISTS __contracts_assign_event_pk_idx ON ${s}.__contracts (assign_event_pk);
      ALTER TYPE ${s}.contract
        ADD ATTRIBUTE assign_event_pk bigint, ADD ATTRIBUTE assign_event_id ${s}.event_id, ADD ATTRIBUTE assigned_at_ix bigint,
        ADD ATTRIBUTE assigned_at_offset bigint, ADD ATTRIBUTE unassign_event_pk bigint, ADD ATTRIBUTE unassign_event_id ${s}.event_id,
        ADD ATTRIBUTE unassigned_at_ix bigint, ADD ATTRIBUTE unassigned_at_offset bigint, ADD ATTRIBUTE reassignment_counter bigint,
        ADD ATTRIBUTE synchronizer_id text;`);
    // The function that fills the type must select the new attributes too (as the line's own R__functions does).
    await c.query(`
      CREATE OR REPLACE FUNCTION ${s}.__contracts(qname text DEFAULT NULL::text) RETURNS SETOF ${s}.contract LANGUAGE sql STABLE PARALLEL SAFE AS $$
      select tpe.template_fqn, tpe.payload_type, c.create_event_pk, ce.event_id, c.created_at_ix, ct."offset", c.archive_event_pk, ae.event_id,
             c.archived_at_ix, at."offset", c.life_ix, c.contract_id, c.payload, c.contract_key, c.metadata, ct.effective_at, at.effective_at,
             c.redaction_id, p.name, p.version, p.id, c.signatories, c.observers, c.witnesses, c.divulged_only,
             COALESCE(c.creation_package_id, p.id), c.contract_key_hash,
             c.assign_event_pk, se.event_id, c.assigned_at_ix, st."offset", c.unassign_event_pk, ue.event_id, c.unassigned_at_ix, ut."offset",
             c.reassignment_counter, c.synchronizer_id
        from __contracts c
        left join __contract_tpe tpe on tpe.pk = c.tpe_pk
        left join __transactions ct on c.created_at_ix = ct.ix
        left join __transactions at on c.archived_at_ix = at.ix
        left join __transactions st on c.assigned_at_ix = st.ix
        left join __transactions ut on c.unassigned_at_ix = ut.ix
        left join __events ce on ce.pk = c.create_event_pk
        left join __events ae on ae.pk = c.archive_event_pk
        left join __events se on se.pk = c.assign_event_pk
        left join __events ue on ue.pk = c.unassign_event_pk
        left join __packages p on c.package_pk = p.pk
       where qname is null or c.tpe_pk = __contract_tpe4name(qname) $$`);
  }
}

/**
 * Writes into a store of PQS's schema as PQS's writer does. One writer per store; it keeps the primary keys
 * PQS's writer keeps in memory (types, packages, the next event pk, the next transaction ix).
 */
export class PqsWriter {
  private readonly entityPks = new Map<string, number>();
  private readonly choicePks = new Set<string>();
  private readonly packagePks = new Map<string, number>();
  private readonly implementsDone = new Set<string>();
  private nextEventPk = 1;
  private nextIx = 1;
  private watermarkMade = false;

  constructor(
    private readonly c: Sql,
    readonly schema: string,
  ) {}

  /** The session as PQS's writer's: the schema on the path, the writer instance named. */
  async begin(): Promise<void> {
    await this.c.query(`SELECT pg_catalog.set_config('search_path', $1, false), pg_catalog.set_config('scribe.instance', $2, false)`, [this.schema, WRITER_INSTANCE]);
  }

  /** A second writer on a store another filled: the next transaction ix and event pk follow what is there. */
  async resume(): Promise<void> {
    const { rows } = await this.c.query('SELECT (SELECT max(ix) FROM __transactions) AS ix, (SELECT max(pk) FROM __events) AS pk');
    this.nextIx = Number(rows[0].ix ?? 0) + 1;
    this.nextEventPk = Number(rows[0].pk ?? 0) + 1;
    this.watermarkMade = true;
  }

  async registerPackage(p: PqsPackage): Promise<number> {
    let pk = this.packagePks.get(p.id);
    if (pk === undefined) {
      await this.c.query('CALL __initialize_package($1, $2, $3)', [p.name, p.version, p.id]);
      pk = Number((await this.c.query('SELECT pk FROM __packages WHERE id = $1', [p.id])).rows[0].pk);
      this.packagePks.set(p.id, pk);
    }
    return pk;
  }

  async registerEntity(e: PqsEntity): Promise<number> {
    const fqn = fqnOf(e);
    let pk = this.entityPks.get(fqn);
    if (pk === undefined) {
      await this.c.query('CALL __initialize_contract_tpe($1, $2, $3, $4::__payload_type)', [e.packageName, e.moduleName, e.entityName, e.payloadType]);
      pk = Number((await this.c.query('SELECT pk FROM __contract_tpe WHERE template_fqn = $1', [fqn])).rows[0].pk);
      this.entityPks.set(fqn, pk);
    }
    return pk;
  }

  async registerImplements(templateFqn: string, interfaceFqn: string): Promise<void> {
    const key = `${templateFqn} ${interfaceFqn}`;
    if (this.implementsDone.has(key)) return;
    await this.c.query('CALL __initialize_contract_implements($1, $2)', [templateFqn, interfaceFqn]);
    this.implementsDone.add(key);
  }

  async registerChoice(e: PqsEntity, choice: string, consuming: boolean): Promise<void> {
    const key = `${fqnOf(e)}:${choice}`;
    if (this.choicePks.has(key)) return;
    await this.c.query('CALL __initialize_exercise_tpe($1, $2, $3, $4, $5)', [e.packageName, e.moduleName, e.entityName, choice, consuming]);
    this.choicePks.add(key);
  }

  /** The transaction, its events and rows, in one database transaction (the watermark moves apart, later). */
  async transaction(t: PqsTransaction, opts: { ix?: number } = {}): Promise<number> {
    const ix = opts.ix ?? this.nextIx++;
    await this.c.query('BEGIN');
    try {
      await this.c.query('INSERT INTO __transactions (ix, "offset", transaction_id, effective_at, workflow_id, synchronizer_id) VALUES ($1, $2, $3, $4, $5, $6)', [
        ix,
        t.offset,
        t.transactionId,
        t.effectiveAt,
        t.workflowId,
        t.synchronizerId,
      ]);
      const createPks = new Map<string, number>();
      for (const r of t.creates) {
        // One event for the create, shared by its payload rows.
        let pk = createPks.get(`${r.contractId} ${r.nodeId}`);
        if (pk === undefined) {
          pk = await this.event(ix, t.offset, r.nodeId, 'create');
          createPks.set(`${r.contractId} ${r.nodeId}`, pk);
        }
        await this.contract(r, pk, ix);
      }
      const exercisePks = new Map<number, number>();
      for (const x of t.exercises) {
        const pk = await this.event(ix, t.offset, x.nodeId, 'exercise');
        exercisePks.set(x.nodeId, pk);
        await this.registerChoice(x.choice.entity, x.choice.choice, x.choice.consuming);
        await this.c.query(
          `INSERT INTO __exercises (tpe_pk, contract_tpe_pk, exercise_event_pk, exercised_at_ix, contract_id, argument, result, package_pk, controllers, witnesses, last_descendant_node_id)
           VALUES ((SELECT pk FROM __exercise_tpe WHERE choice_fqn = $1), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            `${fqnOf(x.choice.entity)}:${x.choice.choice}`,
            await this.registerEntity(x.contractEntity),
            pk,
            ix,
            x.contractId,
            JSON.stringify(x.argument),
            JSON.stringify(x.result),
            await this.registerPackage(x.package),
            x.controllers,
            x.witnesses,
            x.lastDescendantNodeId,
          ],
        );
      }
      for (const a of t.archives) {
        // A consuming exercise is the archive's event (PQS: `mkArchives(pk, …)` of the exercise).
        const pk = exercisePks.get(a.nodeId) ?? (await this.event(ix, t.offset, a.nodeId, 'archive'));
        await this.c.query('INSERT INTO __archives (archive_event_pk, archived_at_ix, contract_id, tpe_pk, package_pk) VALUES ($1, $2, $3, $4, $5)', [
          pk,
          ix,
          a.contractId,
          await this.registerEntity(a.entity),
          await this.registerPackage(a.package),
        ]);
      }
      await this.c.query('COMMIT');
    } catch (err) {
      await this.c.query('ROLLBACK');
      throw err;
    }
    return ix;
  }

  /**
   * PQS's ACS snapshot: contracts active at `offset` arrive at ix 0 before the stream (PQS writes a genesis
   * transaction at ix 0 and moves it to the snapshot's offset once the snapshot is in).
   */
  async snapshot(rows: readonly PqsContractRow[], offset: number): Promise<void> {
    await this.c.query('INSERT INTO __transactions (ix, "offset") VALUES (0, $1) ON CONFLICT (ix) DO UPDATE SET "offset" = excluded."offset"', [offset]);
    for (const r of rows) await this.contract(r, await this.event(0, offset, r.nodeId, 'create'), 0);
  }

  /** A contract the participant only saw by divulgence (PQS keeps it apart: `divulged_only`, never active). */
  async divulged(r: PqsContractRow, t: PqsTransaction): Promise<void> {
    const ix = await this.transaction({ ...t, creates: [], exercises: [], archives: [] });
    await this.contract(r, await this.event(ix, t.offset, r.nodeId, 'create'), ix, true);
  }

  /** An assigned contract (multi-synchronizer line): no create here, an assignment event and columns instead. */
  async assigned(r: PqsContractRow, t: PqsTransaction): Promise<void> {
    const ix = await this.transaction({ ...t, creates: [], exercises: [], archives: [] });
    const pk = await this.event(ix, t.offset, r.nodeId, 'assign');
    await this.c.query(
      `INSERT INTO __contracts (tpe_pk, assign_event_pk, assigned_at_ix, contract_id, payload, contract_key, package_pk, signatories, observers, witnesses, reassignment_counter, synchronizer_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, $11)`,
      [await this.registerEntity(r.entity), pk, ix, r.contractId, JSON.stringify(r.payload), JSON.stringify(r.contractKey), await this.registerPackage(r.package), r.signatories, r.observers, r.witnesses, t.synchronizerId],
    );
  }

  /** Moves the watermark to the latest transaction written (PQS moves it after the rows are in). */
  async watermark(offset: number): Promise<void> {
    const ix = Math.max(0, this.nextIx - 1);
    if (!this.watermarkMade) {
      const made = await this.c.query('SELECT 1 FROM __watermark');
      if (made.rowCount === 0) await this.c.query('INSERT INTO __watermark (ix, "offset", instance_id) VALUES ($1, $2, $3)', [ix, offset, WRITER_INSTANCE]);
      this.watermarkMade = true;
      if (made.rowCount === 0) return;
    }
    await this.c.query('UPDATE __watermark SET "offset" = $1, ix = $2', [offset, ix]);
  }

  private async event(ix: number, offset: number, nodeId: number, type: 'create' | 'archive' | 'exercise' | 'assign'): Promise<number> {
    const pk = this.nextEventPk++;
    await this.c.query('INSERT INTO __events (pk, tx_ix, event_id, type) VALUES ($1, $2, ROW($3, $4)::event_id, $5::__event_type)', [pk, ix, offset, nodeId, type]);
    return pk;
  }

  private async contract(r: PqsContractRow, createEventPk: number, ix: number, divulgedOnly = false): Promise<void> {
    await this.c.query(
      `INSERT INTO __contracts (tpe_pk, create_event_pk, created_at_ix, contract_id, payload, contract_key, package_pk, signatories, observers, witnesses, divulged_only)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        await this.registerEntity(r.entity),
        createEventPk,
        ix,
        r.contractId,
        JSON.stringify(r.payload),
        r.contractKey === null || r.contractKey === undefined ? null : JSON.stringify(r.contractKey),
        await this.registerPackage(r.package),
        r.signatories,
        r.observers,
        r.witnesses,
        divulgedOnly,
      ],
    );
  }
}

/**
 * A demo ledger written into a store of PQS's schema as PQS would stream it, and kept following it: the
 * ledger's first `snapshotAt` offsets (default: none) arrive as PQS's ACS snapshot, the rest as
 * transactions, the watermark moved after each.
 */
export class PqsLedgerFollower {
  private readonly types = emptyTypes();
  private written = -1;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;
  private stopped = false;

  constructor(
    private readonly ledger: DemoLedger,
    private readonly writer: PqsWriter,
    private readonly snapshotAt?: number,
  ) {}

  async start(): Promise<void> {
    await this.writer.begin();
    await this.synced();
    this.ledger.on('appended', () => void this.sync());
  }

  /** Resolves when every transaction appended so far is written and the watermark moved past it. */
  async synced(): Promise<void> {
    await this.sync();
    if (this.failure) throw this.failure;
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.chain;
  }

  private sync(): Promise<void> {
    this.chain = this.chain.then(() => this.writeNew()).catch((err) => void (this.failure = err));
    return this.chain;
  }

  private async writeNew(): Promise<void> {
    if (this.stopped) return;
    const first = this.written < 0;
    const { transactions, snapshot } = pqsRowsOf(this.ledger, this.written, this.types);
    if (!first && transactions.length === 0) return;
    for (const [template, interfaces] of this.types.implementsOf) {
      await this.writer.registerEntity(this.types.entities.get(template)!);
      for (const i of interfaces) {
        await this.writer.registerEntity(this.types.entities.get(i)!);
        await this.writer.registerImplements(template, i);
      }
    }
    let stream = transactions;
    if (first) {
      const cut = this.snapshotAt ?? 0;
      const before = transactions.filter((t) => t.offset <= cut);
      stream = transactions.filter((t) => t.offset > cut);
      // The snapshot holds what was active at the cut: created by then and not archived by then.
      const archivedByCut = new Set(before.flatMap((t) => t.archives.map((a) => `${fqnOf(a.entity)} ${a.contractId}`)));
      const rows = [...snapshot, ...before.flatMap((t) => t.creates)].filter((r) => !archivedByCut.has(`${fqnOf(r.entity)} ${r.contractId}`));
      if (before.length || snapshot.length) await this.writer.snapshot(rows, before.length ? before[before.length - 1].offset : Math.max(0, (transactions[0]?.offset ?? 1) - 1));
    }
    for (const t of stream) {
      await this.writer.transaction(t);
      await this.writer.watermark(t.offset);
    }
    if (first && stream.length === 0) await this.writer.watermark(this.ledger.ledgerEnd);
    this.written = this.ledger.ledgerEnd;
  }
}
